// A ucontext fiber for the tests of measured scopes that a stack switch leaves open,
// told to the sanitizers as a fiber library tells them (ASan's stack bounds, TSan's
// fibers), so that a switch is no error of theirs. Resumed from any thread.
#ifndef PERF_TEST_RUNTIME_MEASURE_FIBER_HPP
#define PERF_TEST_RUNTIME_MEASURE_FIBER_HPP

#include <ucontext.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <vector>

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/common_interface_defs.h>
#define PERF_TEST_FIBER_ASAN 1
#endif
#if defined(__SANITIZE_THREAD__)
#include <sanitizer/tsan_interface.h>
#define PERF_TEST_FIBER_TSAN 1
#endif

namespace perf::testing {

class fiber {
 public:
  // Runs `body` on a stack of its own of `stack_bytes`.
  explicit fiber(std::function<void(fiber&)> body, size_t stack_bytes = 256 * 1024)
      : fiber(std::move(body), nullptr, stack_bytes) {}
  // Runs `body` on `stack` (`stack_bytes` long, the caller's to keep), or on a stack of
  // its own where `stack` is null.
  fiber(std::function<void(fiber&)> body, char* stack, size_t stack_bytes)
      : body_(std::move(body)),
        owned_(stack == nullptr ? stack_bytes : 0),
        stack_(stack == nullptr ? owned_.data() : stack),
        stack_bytes_(stack_bytes) {
    getcontext(&context_);
    context_.uc_stack.ss_sp = stack_;
    context_.uc_stack.ss_size = stack_bytes_;
    const auto self = reinterpret_cast<uintptr_t>(this);
    makecontext(&context_, reinterpret_cast<void (*)()>(&entry), 2, static_cast<unsigned>(self >> 32),
                static_cast<unsigned>(self));
#if defined(PERF_TEST_FIBER_TSAN)
    tsan_fiber_ = __tsan_create_fiber(0);
#endif
  }
  ~fiber() {
#if defined(PERF_TEST_FIBER_TSAN)
    __tsan_destroy_fiber(tsan_fiber_);
#endif
  }
  fiber(const fiber&) = delete;
  fiber& operator=(const fiber&) = delete;

  // Runs the fiber, on the calling thread, until it yields or its body returns.
  void resume() {
#if defined(PERF_TEST_FIBER_TSAN)
    caller_tsan_fiber_ = __tsan_get_current_fiber();
    __tsan_switch_to_fiber(tsan_fiber_, 0);
#endif
#if defined(PERF_TEST_FIBER_ASAN)
    void* fake_stack = nullptr;
    __sanitizer_start_switch_fiber(&fake_stack, stack_, stack_bytes_);
#endif
    swapcontext(&caller_, &context_);
#if defined(PERF_TEST_FIBER_ASAN)
    __sanitizer_finish_switch_fiber(fake_stack, nullptr, nullptr);
#endif
  }

  // From the fiber's body: back to the resume() that ran it.
  void yield() {
#if defined(PERF_TEST_FIBER_TSAN)
    __tsan_switch_to_fiber(caller_tsan_fiber_, 0);
#endif
#if defined(PERF_TEST_FIBER_ASAN)
    __sanitizer_start_switch_fiber(&fake_stack_, caller_stack_, caller_stack_bytes_);
#endif
    swapcontext(&context_, &caller_);
#if defined(PERF_TEST_FIBER_ASAN)
    __sanitizer_finish_switch_fiber(fake_stack_, &caller_stack_, &caller_stack_bytes_);
#endif
  }

  bool finished() const { return finished_; }

 private:
  [[noreturn]] static void entry(unsigned high, unsigned low) {
    auto& self = *reinterpret_cast<fiber*>(uintptr_t{high} << 32 | low);
#if defined(PERF_TEST_FIBER_ASAN)
    __sanitizer_finish_switch_fiber(nullptr, &self.caller_stack_, &self.caller_stack_bytes_);
#endif
    self.body_(self);
    self.finished_ = true;
#if defined(PERF_TEST_FIBER_TSAN)
    __tsan_switch_to_fiber(self.caller_tsan_fiber_, 0);
#endif
#if defined(PERF_TEST_FIBER_ASAN)
    __sanitizer_start_switch_fiber(nullptr, self.caller_stack_, self.caller_stack_bytes_);
#endif
    // Not by returning (to uc_link): the return would leave this function on TSan's
    // record of the caller's stack, which it switched to above.
    setcontext(&self.caller_);
    std::abort();  // setcontext returns only when it fails
  }

  std::function<void(fiber&)> body_;
  std::vector<char> owned_;
  char* stack_;
  size_t stack_bytes_;
  ucontext_t context_{};
  ucontext_t caller_{};
  bool finished_ = false;
#if defined(PERF_TEST_FIBER_ASAN)
  void* fake_stack_ = nullptr;
  const void* caller_stack_ = nullptr;
  size_t caller_stack_bytes_ = 0;
#endif
#if defined(PERF_TEST_FIBER_TSAN)
  void* tsan_fiber_ = nullptr;
  void* caller_tsan_fiber_ = nullptr;
#endif
};

}  // namespace perf::testing

#endif  // PERF_TEST_RUNTIME_MEASURE_FIBER_HPP
