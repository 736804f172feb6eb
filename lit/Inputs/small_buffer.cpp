// Input of warning_free_build.test: a small-buffer string in the shape of a formatting
// library's memory buffer. Its move copies the inline characters one by one; inlined
// where it is called, GCC 12 at -O3 sees nothing wrong, compiled on its own it warns
// -Wstringop-overflow about the vectorized copy's stores past the 5 inline bytes.
#include <cstddef>
#include <cstdio>
#include <memory>
#include <string>

template <class Char>
constexpr Char* copy_chars(const Char* begin, const Char* end, Char* out) {
  while (begin != end) *out++ = *begin++;
  return out;
}

template <class Char>
class buffer_base {
 public:
  using grow_function = void (*)(buffer_base& buffer, std::size_t wanted);
  constexpr Char* data() { return data_; }
  constexpr std::size_t size() const { return size_; }
  constexpr std::size_t capacity() const { return capacity_; }
  constexpr void push_back(Char c) {
    reserve(size_ + 1);
    data_[size_++] = c;
  }
  void append(const Char* text, std::size_t length) {
    reserve(size_ + length);
    copy_chars(text, text + length, data_ + size_);
    size_ += length;
  }

 protected:
  constexpr explicit buffer_base(grow_function grow) : grow_(grow) {}
  constexpr void set(Char* data, std::size_t capacity) {
    data_ = data;
    capacity_ = capacity;
  }
  constexpr void reserve(std::size_t wanted) {
    if (wanted > capacity_) grow_(*this, wanted);
  }
  constexpr void resize(std::size_t size) {
    reserve(size);
    size_ = size <= capacity_ ? size : capacity_;
  }
  constexpr void clear() { size_ = 0; }

 private:
  Char* data_ = nullptr;
  std::size_t size_ = 0;
  std::size_t capacity_ = 0;
  grow_function grow_;
};

template <class Char, std::size_t Inline>
class small_buffer : public buffer_base<Char> {
 public:
  small_buffer() : buffer_base<Char>(grow) { this->set(inline_, Inline); }
  small_buffer(small_buffer&& other) noexcept : buffer_base<Char>(grow) { take(other); }
  small_buffer& operator=(small_buffer&& other) noexcept {
    release();
    take(other);
    return *this;
  }
  ~small_buffer() { release(); }

 private:
  static void grow(buffer_base<Char>& base, std::size_t wanted) {
    auto& self = static_cast<small_buffer&>(base);
    const std::size_t grown = wanted > 2 * self.capacity() ? wanted : 2 * self.capacity();
    Char* bigger = std::allocator<Char>().allocate(grown);
    copy_chars(self.data(), self.data() + self.size(), bigger);
    self.release();
    self.set(bigger, grown);
  }
  void release() {
    if (this->data() != inline_) std::allocator<Char>().deallocate(this->data(), this->capacity());
  }
  void take(small_buffer& other) {
    Char* data = other.data();
    const std::size_t size = other.size(), capacity = other.capacity();
    if (data == other.inline_) {
      this->set(inline_, capacity);
      copy_chars(other.inline_, other.inline_ + size, inline_);
    } else {
      this->set(data, capacity);
      other.set(other.inline_, 0);
      other.clear();
    }
    this->resize(size);
  }

  Char inline_[Inline];
};

using buffer5 = small_buffer<char, 5>;

std::string moved_out(buffer5& buffer) {
  buffer5 moved(std::move(buffer));
  return std::string(moved.data(), moved.size());
}

int main() {
  buffer5 buffer;
  buffer.append("test", 4);
  std::string first = moved_out(buffer);
  buffer.append("test", 4);
  buffer.push_back('a');
  std::string second = moved_out(buffer);
  buffer5 assigned;
  buffer.append("testab", 6);
  assigned = std::move(buffer);
  std::printf("%s %s %.*s\n", first.c_str(), second.c_str(), static_cast<int>(assigned.size()), assigned.data());
  return first == "test" && second == "testtesta" && assigned.size() == 6 ? 0 : 1;
}
