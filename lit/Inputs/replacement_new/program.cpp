// A program with its own global operator new and delete, as engines and logging
// libraries have: under --filter '.*' they are left out, and the program runs.
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <new>
#include <string>

static std::size_t allocations = 0;

void* operator new(std::size_t size) {
  ++allocations;
  if (void* block = std::malloc(size == 0 ? 1 : size)) return block;
  throw std::bad_alloc();
}
void operator delete(void* block) noexcept { std::free(block); }
void operator delete(void* block, std::size_t) noexcept { std::free(block); }

std::string greeting(int times) {
  std::string text;
  for (int i = 0; i < times; ++i) text += "hello, world, a string too long for the small buffer ";
  return text;
}

int main() {
  for (int i = 0; i < 3; ++i) std::printf("%zu\n", greeting(i + 1).size());
  return allocations == 0;
}
