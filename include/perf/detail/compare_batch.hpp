// The per-callable pieces of a comparison, instantiated where the callable is known.
// Not part of the public API; needs C++17.
#ifndef PERF_DETAIL_COMPARE_BATCH_HPP
#define PERF_DETAIL_COMPARE_BATCH_HPP

#include <cstddef>
#include <memory>
#include <string>
#include <type_traits>
#include <typeinfo>
#include <utility>

#include "perf/detail/compiler.hpp"

namespace perf {

// Makes `value` count as used: the optimiser must compute it, and cannot drop the
// code that produced it. Emits no instruction.
template <class T>
PERF_DETAIL_ALWAYS_INLINE void keep(const T& value) noexcept {
  __asm__ __volatile__("" : : "r,m"(value) : "memory");
}

namespace detail {

// One call's result, kept to compare with the reference's.
struct call_result {
  std::shared_ptr<const void> value;                  // null when the callable returns void
  const std::type_info* type = nullptr;               // null when it returns void
  bool (*equal)(const void*, const void*) = nullptr;  // null when the type has no ==
};

// The type-erased callable a comparison runs.
struct compare_entry {
  std::string name;
  std::shared_ptr<void> callable;
  void (*batch)(void* callable, std::size_t calls);  // `calls` calls, results kept
  call_result (*call_once)(void* callable);
};

template <class T, class = void>
struct has_equality : std::false_type {};
template <class T>
struct has_equality<T, std::void_t<decltype(std::declval<const T&>() == std::declval<const T&>())>> : std::true_type {};

template <class T>
bool results_equal(const void* a, const void* b) {
  return static_cast<bool>(*static_cast<const T*>(a) == *static_cast<const T*>(b));
}

template <class F>
void run_batch(void* callable, std::size_t calls) {
  F& fn = *static_cast<F*>(callable);
  for (std::size_t i = 0; i < calls; ++i) {
    if constexpr (std::is_void_v<std::invoke_result_t<F&>>) {
      fn();
    } else {
      keep(fn());
    }
  }
}

template <class F>
call_result call_once(void* callable) {
  F& fn = *static_cast<F*>(callable);
  using result_type = std::decay_t<std::invoke_result_t<F&>>;
  call_result result;
  if constexpr (std::is_void_v<result_type>) {
    fn();
  } else {
    result.value = std::make_shared<const result_type>(fn());
    result.type = &typeid(result_type);
    if constexpr (has_equality<result_type>::value) result.equal = &results_equal<result_type>;
  }
  return result;
}

template <class F>
compare_entry make_entry(std::string name, F fn) {
  return compare_entry{std::move(name), std::make_shared<F>(std::move(fn)), &run_batch<F>, &call_once<F>};
}

}  // namespace detail
}  // namespace perf

#endif  // PERF_DETAIL_COMPARE_BATCH_HPP
