// The memtable of memtable.hpp, compiled once per MEMTABLE_NAMESPACE: with
// MEMTABLE_MEASURED set, the comparator and the iterator's methods open with the
// statement perf-instrument inserts.
#include "adaptive/memtable.hpp"

#include <cstring>
#include <memory>
#include <vector>

#include "perf/measure.hpp"

#if MEMTABLE_MEASURED
#define MEMTABLE_SCOPE(name) PERF_INSTRUMENT(name)
#else
#define MEMTABLE_SCOPE(name)
#endif

namespace bench::MEMTABLE_NAMESPACE {
namespace {

// Bump allocation in 4 KiB blocks, as leveldb's Arena; nothing is freed before the table.
class arena {
 public:
  char* allocate(std::size_t bytes) {
    bytes = (bytes + 7) & ~std::size_t{7};
    if (bytes > left_) {
      blocks_.push_back(std::make_unique<char[]>(block_size));
      at_ = blocks_.back().get();
      left_ = block_size;
    }
    char* out = at_;
    at_ += bytes;
    left_ -= bytes;
    return out;
  }

 private:
  static constexpr std::size_t block_size = 4096;
  std::vector<std::unique_ptr<char[]>> blocks_;
  char* at_ = nullptr;
  std::size_t left_ = 0;
};

// An entry: a one-byte length, then the key's bytes (big-endian, so that memcmp orders
// them as numbers), then an 8-byte value: leveldb's varint-prefixed internal key.
constexpr std::size_t key_bytes = 8;

const char* encode(arena& memory, uint64_t key) {
  char* entry = memory.allocate(1 + key_bytes + 8);
  entry[0] = static_cast<char>(key_bytes);
  for (std::size_t i = 0; i < key_bytes; ++i) entry[1 + i] = static_cast<char>(key >> (8 * (key_bytes - 1 - i)));
  std::memcpy(entry + 1 + key_bytes, &key, 8);
  return entry;
}

uint64_t decode_value(const char* entry) {
  uint64_t value;
  std::memcpy(&value, entry + 1 + static_cast<unsigned char>(entry[0]), 8);
  return value;
}

// leveldb's MemTable::KeyComparator: decodes both length prefixes, compares the keys.
struct key_comparator {
  int operator()(const char* a, const char* b) const {
    MEMTABLE_SCOPE("KeyComparator::operator()");
    const std::size_t a_length = static_cast<unsigned char>(a[0]), b_length = static_cast<unsigned char>(b[0]);
    const int order = std::memcmp(a + 1, b + 1, a_length < b_length ? a_length : b_length);
    if (order != 0) return order;
    return a_length < b_length ? -1 : a_length > b_length ? 1 : 0;
  }
};

// leveldb's SkipList (single writer, no concurrent readers here: plain pointers).
class skip_list {
  struct node {
    const char* key;
    node* next[1];  // `height` of them
  };

 public:
  static constexpr int max_height = 12;

  explicit skip_list(arena& memory) : memory_(memory), head_(new_node(nullptr, max_height)) {}

  void insert(const char* key) {
    node* previous[max_height];
    find_greater_or_equal(key, previous);
    const int height = random_height();
    for (int level = height_; level < height; ++level) previous[level] = head_;
    if (height > height_) height_ = height;
    node* added = new_node(key, height);
    for (int level = 0; level < height; ++level) {
      added->next[level] = previous[level]->next[level];
      previous[level]->next[level] = added;
    }
  }

  class iterator {
   public:
    explicit iterator(const skip_list& list) : list_(list) {}
    bool Valid() const { return at_ != nullptr; }
    const char* key() const {
      MEMTABLE_SCOPE("SkipList::Iterator::key");
      return at_->key;
    }
    void Next() {
      MEMTABLE_SCOPE("SkipList::Iterator::Next");
      at_ = at_->next[0];
    }
    void Seek(const char* target) {
      MEMTABLE_SCOPE("SkipList::Iterator::Seek");
      at_ = list_.find_greater_or_equal(target, nullptr);
    }
    void SeekToFirst() { at_ = list_.head_->next[0]; }

   private:
    const skip_list& list_;
    const node* at_ = nullptr;
  };

 private:
  node* new_node(const char* key, int height) {
    node* made = reinterpret_cast<node*>(memory_.allocate(sizeof(node) + sizeof(node*) * (height - 1)));
    made->key = key;
    for (int level = 0; level < height; ++level) made->next[level] = nullptr;
    return made;
  }

  // Branching factor 4, as leveldb's.
  int random_height() {
    int height = 1;
    while (height < max_height && (next_random() & 3) == 0) ++height;
    return height;
  }
  uint32_t next_random() {
    random_ = random_ * 1103515245u + 12345u;
    return random_ >> 16;
  }

  node* find_greater_or_equal(const char* key, node** previous) const {
    node* x = head_;
    for (int level = height_ - 1;;) {
      node* next = x->next[level];
      if (next != nullptr && compare_(next->key, key) < 0) {
        x = next;
      } else {
        if (previous != nullptr) previous[level] = x;
        if (level == 0) return next;
        --level;
      }
    }
  }

  arena& memory_;
  key_comparator compare_;
  node* head_;
  int height_ = 1;
  uint32_t random_ = 0xdeadbeef;
};

}  // namespace

uint64_t round(const uint64_t* keys, std::size_t count) {
  arena memory;
  skip_list table(memory);
  for (std::size_t i = 0; i < count; ++i) table.insert(encode(memory, keys[i]));
  uint64_t checksum = 0;
  skip_list::iterator lookup(table);
  const key_comparator compare;
  for (std::size_t i = 0; i < count; ++i) {
    const char* wanted = encode(memory, keys[count - 1 - i]);
    lookup.Seek(wanted);
    if (lookup.Valid() && compare(lookup.key(), wanted) == 0) checksum += decode_value(lookup.key());
  }
  skip_list::iterator scan(table);
  for (scan.SeekToFirst(); scan.Valid(); scan.Next()) checksum = checksum * 31 + decode_value(scan.key());
  return checksum;
}

}  // namespace bench::MEMTABLE_NAMESPACE
