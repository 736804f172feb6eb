#include <memory>

extern "C" int other_allocates(int n);

int core_allocates(int n) { return other_allocates(n) + (std::make_unique<int[]>(static_cast<std::size_t>(n)) != nullptr); }
