// A library late_code_probe loads after the sampler started (dlopen), built without
// frame pointers: its one function does work of its own and calls back into the
// program's measured code, so the program's samples' stacks run through it.
#include <cstdint>

extern "C" __attribute__((visibility("default"), noinline)) uint64_t plugin_run(uint64_t (*callback)(uint64_t),
                                                                                uint64_t rounds) {
  // A frame of its own: values kept on the stack across the callback's calls.
  volatile uint64_t kept[16];
  uint64_t state = rounds;
  for (uint64_t round = 0; round < rounds; ++round) {
    for (unsigned i = 0; i < 16; ++i) kept[i] = state + i;
    for (unsigned i = 0; i < 4000; ++i) state = state * 6364136223846793005u + kept[i & 15];
    state += callback(state);
  }
  return state;
}
