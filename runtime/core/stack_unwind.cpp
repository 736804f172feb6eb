#include "core/stack_unwind.hpp"

#include <dlfcn.h>
#include <link.h>
#include <pthread.h>
#include <ucontext.h>

#define UNW_LOCAL_ONLY
#include <libunwind.h>

#include "perf/detail/compiler.hpp"

// The names libunwind's macros give its functions (_ULx86_64_step, ...), for dlsym.
#define PERF_UNWIND_NAME(function) PERF_UNWIND_STRING(function)
#define PERF_UNWIND_STRING(function) #function

namespace perf::runtime {
namespace {

// libunwind's functions, found in its library loaded with RTLD_LOCAL: linked, its
// _Unwind_RaiseException would come before libgcc's in the program's lookup (libperfrt
// is found before libstdc++'s dependencies), and every exception the program throws
// would unwind through it.
struct libunwind_functions {
  int (*getcontext)(unw_context_t*);
  int (*init_local)(unw_cursor_t*, unw_context_t*);
  int (*init_local2)(unw_cursor_t*, unw_context_t*, int);
  int (*step)(unw_cursor_t*);
  int (*get_reg)(unw_cursor_t*, unw_regnum_t, unw_word_t*);
};
libunwind_functions unwind{};  // all null until prepared
bool prepared = false;         // atomic: `unwind` is whole

template <typename Function>
bool find(void* library, const char* name, Function& into) {
  into = reinterpret_cast<Function>(dlsym(library, name));
  return into != nullptr;
}

std::string load_libunwind() {
  void* library = dlopen("libunwind.so.8", RTLD_NOW | RTLD_LOCAL);
  if (library == nullptr) return std::string("libunwind cannot be loaded: ") + dlerror();
  libunwind_functions found{};
  const auto space = static_cast<unw_addr_space_t*>(dlsym(library, PERF_UNWIND_NAME(unw_local_addr_space)));
  int (*set_caching_policy)(unw_addr_space_t, unw_caching_policy_t) = nullptr;
  if (space == nullptr || !find(library, PERF_UNWIND_NAME(unw_tdep_getcontext), found.getcontext) ||
      !find(library, PERF_UNWIND_NAME(unw_init_local), found.init_local) ||
      !find(library, PERF_UNWIND_NAME(unw_init_local2), found.init_local2) ||
      !find(library, PERF_UNWIND_NAME(unw_step), found.step) ||
      !find(library, PERF_UNWIND_NAME(unw_get_reg), found.get_reg) ||
      !find(library, PERF_UNWIND_NAME(unw_set_caching_policy), set_caching_policy))
    return "libunwind.so.8 lacks a function the runtime calls";
  // Decoded rules cached by instruction address: a step of a cached frame parses no
  // call-frame information. Debian's build has no per-thread cache (it falls back on
  // this one), whose lock is taken with every signal blocked: no handler can meet it
  // held on its own thread.
  set_caching_policy(*space, UNW_CACHE_GLOBAL);
  unwind = found;
  return {};
}

// The executable code of the modules loaded when the unwinder was prepared: [start,
// limit) ranges, published by `code_count` (release), read by handlers without a lock.
constexpr unsigned code_capacity = 256;
uintptr_t code_start[code_capacity];
uintptr_t code_limit[code_capacity];
unsigned code_count = 0;

int note_module(dl_phdr_info* info, size_t, void*) {
  for (unsigned h = 0; h < info->dlpi_phnum; ++h) {
    const ElfW(Phdr)& header = info->dlpi_phdr[h];
    if (header.p_type != PT_LOAD || (header.p_flags & PF_X) == 0) continue;
    const uintptr_t start = info->dlpi_addr + header.p_vaddr, limit = start + header.p_memsz;
    const unsigned count = __atomic_load_n(&code_count, __ATOMIC_RELAXED);
    if (count == code_capacity) return 1;
    code_start[count] = start;
    code_limit[count] = limit;
    __atomic_store_n(&code_count, count + 1, __ATOMIC_RELEASE);
  }
  return 0;
}

// The cursor's register `which`; 0 where libunwind cannot read it.
uintptr_t read_register(unw_cursor_t& cursor, unw_regnum_t which) noexcept {
  unw_word_t value = 0;
  return unwind.get_reg(&cursor, which, &value) == 0 ? static_cast<uintptr_t>(value) : 0;
}

// Steps out of the frame `cursor` is in, from stack pointer `sp`, appending checked
// return addresses to `frames` (stack_unwind.hpp) until the outermost frame, a failed
// check or `depth`; returns the count.
unsigned walk_out(unw_cursor_t& cursor, uintptr_t sp, const stack_bounds& bounds, uintptr_t* frames, unsigned count,
                  unsigned depth) noexcept {
  while (count < depth) {
    const int stepped = unwind.step(&cursor);
    if (stepped == 0) return count;  // the outermost frame: its return address is undefined
    const uintptr_t pc = stepped > 0 ? read_register(cursor, UNW_REG_IP) : 0;
    if (stepped > 0 && pc == 0) return count;  // the outermost frame, as some code marks it
    const uintptr_t caller_sp = stepped > 0 ? read_register(cursor, UNW_REG_SP) : 0;
    const bool on_stack = caller_sp > sp && (bounds.high == 0 || (caller_sp > bounds.low && caller_sp <= bounds.high));
    const uintptr_t start = code_start_of(pc);
    if (stepped < 0 || !on_stack || start == 0 || !follows_call(pc, start)) {
      frames[count++] = truncated_frame;
      return count;
    }
    frames[count++] = pc;
    sp = caller_sp;
  }
  return count;
}

// Nonzero while the thread unwinds (a handler may interrupt an allocation's unwind).
PERF_DETAIL_TLS unsigned unwinding;

// Marks the calling thread's unwinding while it lives.
class unwinding_scope {
 public:
  unwinding_scope() noexcept { ++unwinding; }
  ~unwinding_scope() { --unwinding; }
  unwinding_scope(const unwinding_scope&) = delete;
  unwinding_scope& operator=(const unwinding_scope&) = delete;
};

}  // namespace

bool unwinding_on_this_thread() noexcept { return unwinding != 0; }

stack_bounds current_stack_bounds() noexcept {
  pthread_attr_t attributes;
  if (pthread_getattr_np(pthread_self(), &attributes) != 0) return {};
  void* address = nullptr;
  size_t size = 0;
  const int error = pthread_attr_getstack(&attributes, &address, &size);
  pthread_attr_destroy(&attributes);
  if (error != 0) return {};
  const auto low = reinterpret_cast<uintptr_t>(address);
  return {low, low + size};
}

std::string prepare_unwinder() {
  static const std::string problem = [] {
    std::string loaded = load_libunwind();
    if (loaded.empty()) __atomic_store_n(&prepared, true, __ATOMIC_RELEASE);
    dl_iterate_phdr(note_module, nullptr);
    return loaded;
  }();
  return problem;
}

unsigned unwind_interrupted(const void* ucontext, const stack_bounds& bounds, uintptr_t* frames,
                            unsigned depth) noexcept {
  // On x86-64 and AArch64 libunwind's context is the kernel's ucontext_t.
  auto* context = static_cast<unw_context_t*>(const_cast<void*>(ucontext));
  const unwinding_scope scope;
  unw_cursor_t cursor;
  const bool ready = __atomic_load_n(&prepared, __ATOMIC_ACQUIRE);
  if (!ready || unwind.init_local2(&cursor, context, UNW_INIT_SIGNAL_FRAME) != 0) {
    const auto& registers = static_cast<const ucontext_t*>(ucontext)->uc_mcontext;
#if defined(__x86_64__)
    frames[0] = registers.gregs[REG_RIP];
#elif defined(__aarch64__)
    frames[0] = registers.pc;
#else
#error "the sampler reads the registers of x86-64 and AArch64 only"
#endif
    frames[1] = truncated_frame;
    return 2;
  }
  frames[0] = read_register(cursor, UNW_REG_IP);
  return walk_out(cursor, read_register(cursor, UNW_REG_SP), bounds, frames, 1, depth);
}

__attribute__((noinline)) unsigned unwind_calling_thread(const stack_bounds& bounds, uintptr_t* frames,
                                                         unsigned depth) noexcept {
  if (depth == 0) return 0;
  unw_context_t context;
  unw_cursor_t cursor;
  const unwinding_scope scope;
  if (!__atomic_load_n(&prepared, __ATOMIC_ACQUIRE) || unwind.getcontext(&context) != 0 ||
      unwind.init_local(&cursor, &context) != 0) {
    frames[0] = truncated_frame;
    return 1;
  }
  // The cursor is in this function's frame: its first step gives the caller's return address.
  return walk_out(cursor, read_register(cursor, UNW_REG_SP), bounds, frames, 0, depth);
}

bool follows_call(uintptr_t candidate, uintptr_t code_start) noexcept {
#if defined(__x86_64__)
  auto byte = [&](unsigned back) { return *reinterpret_cast<const unsigned char*>(candidate - back); };
  if (candidate >= code_start + 5 && byte(5) == 0xe8) return true;  // call rel32
  // call r/m64 (FF /2: a ModRM byte whose reg field is 2), 2 to 7 bytes long by the
  // ModRM's mod and rm: a register, or memory with a SIB byte and a displacement
  // (a virtual call `*(%rax)`, `*0x88(%rax)`, a table `*disp32(,%rax,8)`, `*disp32(%rip)`).
  for (unsigned length = 2; length <= 7; ++length) {
    if (candidate < code_start + length || byte(length) != 0xff) continue;
    const unsigned modrm = byte(length - 1), mod = modrm >> 6, rm = modrm & 7;
    if (((modrm >> 3) & 7) != 2) continue;
    unsigned size = 2;
    if (mod != 3 && rm == 4) {  // a SIB byte follows the ModRM
      if (length < 3) continue;
      size += 1;
      if (mod == 0 && (byte(length - 2) & 7) == 5) size += 4;  // no base: disp32
    }
    if (mod == 0 && rm == 5) size += 4;  // disp32(%rip)
    if (mod == 1) size += 1;
    if (mod == 2) size += 4;
    if (size == length) return true;
  }
  return false;
#elif defined(__aarch64__)
  if (candidate < code_start + 4 || candidate % 4 != 0) return false;
  const uint32_t instruction = *reinterpret_cast<const uint32_t*>(candidate - 4);
  return (instruction & 0xfc000000) == 0x94000000 || (instruction & 0xfffffc1f) == 0xd63f0000;  // bl, blr
#endif
}

uintptr_t code_start_of(uintptr_t address) noexcept {
  const unsigned count = __atomic_load_n(&code_count, __ATOMIC_ACQUIRE);
  for (unsigned i = 0; i < count; ++i)
    if (address >= code_start[i] && address < code_limit[i]) return code_start[i];
  return 0;
}

}  // namespace perf::runtime
