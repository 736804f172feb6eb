// Growing a list that a mutex guards without allocating under the mutex: the
// allocator may be the program's, which may take the program's locks or make
// measured calls that wait for this very mutex.
#ifndef PERF_RUNTIME_CORE_ROOM_UNLOCKED_HPP
#define PERF_RUNTIME_CORE_ROOM_UNLOCKED_HPP

#include <cstddef>
#include <mutex>
#include <vector>

namespace perf::runtime {

// Makes room in `list` for one more element, `lock` holding the mutex that guards it
// on entry and on return: larger storage is allocated with the lock released, and
// the old storage is left in `spare`, for the caller to free once unlocked. Throws
// what the allocation throws, the lock then released.
template <typename T>
void make_room_unlocked(std::vector<T>& list, std::unique_lock<std::mutex>& lock, std::vector<T>& spare) {
  while (list.size() == list.capacity()) {
    const std::size_t wanted = 2 * list.capacity() + 16;
    lock.unlock();
    spare.reserve(wanted);
    lock.lock();
    if (spare.capacity() > list.size()) {
      spare.assign(list.begin(), list.end());  // within the capacity reserved
      list.swap(spare);
    }
  }
}

}  // namespace perf::runtime

#endif  // PERF_RUNTIME_CORE_ROOM_UNLOCKED_HPP
