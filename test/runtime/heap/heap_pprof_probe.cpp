// A program with known allocation sites, for the heap profile's outputs: `heavy`
// allocates ten times the bytes of `light` and frees them, `leak` keeps what it
// allocates to the end, `from_malloc` calls malloc itself. All in 4 KiB blocks.
#include <cstddef>
#include <cstdlib>

namespace sites {

constexpr size_t block = 4096;
char* volatile escaped;  // every block escapes, so no compiler removes a new/delete pair
char* kept[512];         // a global: the blocks escape

[[gnu::noinline]] void heavy() {
  for (int i = 0; i < 10240; ++i) {  // 40 MiB
    escaped = new char[block];
    delete[] escaped;
  }
}

[[gnu::noinline]] void light() {
  for (int i = 0; i < 1024; ++i) {  // 4 MiB
    escaped = new char[block];
    delete[] escaped;
  }
}

[[gnu::noinline]] void leak() {
  for (char*& block_kept : kept) block_kept = new char[block];  // 2 MiB, live at exit
}

[[gnu::noinline]] void from_malloc() {
  for (int i = 0; i < 256; ++i) {  // 1 MiB
    escaped = static_cast<char*>(std::malloc(block));
    std::free(escaped);
  }
}

}  // namespace sites

int main() {
  sites::heavy();
  sites::light();
  sites::leak();
  sites::from_malloc();
}
