#include "core/stack_unwind.hpp"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <pthread.h>
#include <sched.h>
#include <sys/stat.h>
#include <ucontext.h>

#define UNW_LOCAL_ONLY
#include <libunwind.h>

#include "core/uncounted_allocations.hpp"
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
  int (*get_proc_info)(unw_cursor_t*, unw_proc_info_t*);
  int (*backtrace)(void**, int);
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
      !find(library, PERF_UNWIND_NAME(unw_get_proc_info), found.get_proc_info) ||
      !find(library, "unw_backtrace", found.backtrace) ||
      !find(library, PERF_UNWIND_NAME(unw_set_caching_policy), set_caching_policy))
    return "libunwind.so.8 lacks a function the runtime calls";
  // The step's decoded rules cached by instruction address (the slow walk's, and what
  // fills the fast walk's cache): Debian's build has no per-thread cache, and this
  // one's lock is taken with every signal blocked, so no handler meets it held on its
  // own thread.
  set_caching_policy(*space, UNW_CACHE_GLOBAL);
  unwind = found;
  return {};
}

// libunwind's pipe (stack_unwind.hpp), ascending; {-1, -1} where it was not found.
int pipe_descriptors[2] = {-1, -1};

// The `count` lowest descriptor numbers not in use, ascending, into `free_numbers`.
void lowest_free_descriptors(int* free_numbers, unsigned count) {
  for (int descriptor = 0; count != 0; ++descriptor)
    if (fcntl(descriptor, F_GETFD) == -1 && errno == EBADF) *free_numbers++ = descriptor, --count;
}

bool is_pipe(int descriptor) {
  struct stat status {};
  return fstat(descriptor, &status) == 0 && S_ISFIFO(status.st_mode);
}

// Notes libunwind's pipe, made on its first cursor or as it is loaded (with pipe2:
// the two lowest free numbers, `expected`, found before).
void note_pipe(const int (&expected)[2]) {
  unw_context_t context;
  unw_cursor_t cursor;
  if (unwind.getcontext(&context) != 0 || unwind.init_local(&cursor, &context) != 0) return;
  if (is_pipe(expected[0]) && is_pipe(expected[1])) {
    pipe_descriptors[0] = expected[0];
    pipe_descriptors[1] = expected[1];
  }
}

// The executable code of the modules loaded when the unwinder was prepared: [start,
// limit) ranges, published by `code_count` (release), read by handlers without a lock.
constexpr unsigned code_capacity = 256;
uintptr_t code_start[code_capacity];
uintptr_t code_limit[code_capacity];
unsigned code_count = 0;

// libunwind's own executable code: [start, limit), published by `unwinder_start`
// (release); empty until it is loaded.
uintptr_t unwinder_start = UINTPTR_MAX;
uintptr_t unwinder_limit = 0;

int note_module(dl_phdr_info* info, size_t, void*) {
  for (unsigned h = 0; h < info->dlpi_phnum; ++h) {
    const ElfW(Phdr)& header = info->dlpi_phdr[h];
    if (header.p_type != PT_LOAD || (header.p_flags & PF_X) == 0) continue;
    const uintptr_t start = info->dlpi_addr + header.p_vaddr, limit = start + header.p_memsz;
    const auto step = reinterpret_cast<uintptr_t>(unwind.step);
    if (step >= start && step < limit) {
      unwinder_limit = limit;
      __atomic_store_n(&unwinder_start, start, __ATOMIC_RELEASE);
    }
    const unsigned count = __atomic_load_n(&code_count, __ATOMIC_RELAXED);
    if (count == code_capacity) return 1;
    code_start[count] = start;
    code_limit[count] = limit;
    __atomic_store_n(&code_count, count + 1, __ATOMIC_RELEASE);
  }
  return 0;
}

// The functions in which a thread's chain of frames was seen to end by the call-frame
// information (_start, clone3: their return address is undefined): [start, limit)
// ranges, added by threads as they warm up (a slot claimed, filled, then published
// in order by `root_count`), read by handlers without a lock.
constexpr unsigned root_capacity = 16;
uintptr_t root_start[root_capacity];
uintptr_t root_limit[root_capacity];
unsigned root_claimed = 0;
unsigned root_count = 0;

bool in_root(uintptr_t return_address) noexcept {
  const unsigned count = __atomic_load_n(&root_count, __ATOMIC_ACQUIRE);
  for (unsigned i = 0; i < count; ++i)
    if (return_address > root_start[i] && return_address <= root_limit[i]) return true;
  return false;
}

void add_root(uintptr_t start, uintptr_t limit) noexcept {
  if (start == 0 || in_root(start + 1)) return;
  const unsigned slot = __atomic_fetch_add(&root_claimed, 1u, __ATOMIC_RELAXED);
  if (slot >= root_capacity) return;
  root_start[slot] = start;
  root_limit[slot] = limit;
  // Published in slot order: a thread that claimed a later slot waits for the ones before.
  while (__atomic_load_n(&root_count, __ATOMIC_ACQUIRE) != slot) sched_yield();
  __atomic_store_n(&root_count, slot + 1, __ATOMIC_RELEASE);
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

// Whether threads may take the fast walk (set once, before `prepared`).
bool fast_walk_allowed = false;

// Whether libunwind's fast walk has its per-thread state on this thread (its cache of
// frame kinds, and the thread-local storage that points to it, which the C library
// allocates with malloc on the first use: never in a handler).
PERF_DETAIL_TLS bool warm;

// The fast walk's room for the frames above the interrupted one: the handler's own
// (the runtime's dispatch, a sanitizer's wrapper, the kernel's signal frame).
constexpr unsigned handler_frames = 32;

// Appends the return addresses trace[from..count) of unw_backtrace's fast walk to
// `frames` (holding `filled`), each checked as walk_out checks one, up to `depth`.
// The fast walk ends silently, at the outermost frame or where the call-frame
// information fails: a chain whose last return address is not in a thread's root
// function ends with a truncation.
unsigned keep_checked(void* const* trace, unsigned count, unsigned from, uintptr_t* frames, unsigned filled,
                      unsigned depth) noexcept {
  for (unsigned i = from; i < count; ++i) {
    if (filled == depth) return filled;
    const auto pc = reinterpret_cast<uintptr_t>(trace[i]);
    const uintptr_t start = code_start_of(pc);
    if (start == 0 || !follows_call(pc, start)) {
      frames[filled++] = truncated_frame;
      return filled;
    }
    frames[filled++] = pc;
  }
  const bool at_root = count > from && in_root(frames[filled - 1]);
  if (filled < depth && !at_root) frames[filled++] = truncated_frame;
  return filled;
}

// Walks the calling thread's stack by steps to its outermost frame and notes the
// function it ends in (a root), then gives libunwind's fast walk its state on this
// thread. Not in a handler: allocates (the runtime's, uncounted), takes the loader's lock.
void warm_up() noexcept {
  const uncounted_allocations runtime_work;
  unw_context_t context;
  unw_cursor_t cursor;
  if (unwind.getcontext(&context) == 0 && unwind.init_local(&cursor, &context) == 0) {
    for (unsigned steps = 0; steps < 4096; ++steps) {
      unw_proc_info_t info{};
      const bool known = unwind.get_proc_info(&cursor, &info) == 0;
      const int stepped = unwind.step(&cursor);
      if (stepped < 0) break;
      if (stepped == 0 || read_register(cursor, UNW_REG_IP) == 0) {
        if (known) add_root(static_cast<uintptr_t>(info.start_ip), static_cast<uintptr_t>(info.end_ip));
        break;
      }
    }
  }
  void* trace[1];
  unwind.backtrace(trace, 1);
  warm = true;
}

// Marks the calling thread's unwinding while it lives.
class unwinding_scope {
 public:
  unwinding_scope() noexcept { ++unwinding; }
  ~unwinding_scope() { --unwinding; }
  unwinding_scope(const unwinding_scope&) = delete;
  unwinding_scope& operator=(const unwinding_scope&) = delete;
};

}  // namespace

unsigned unwinder_descriptors(int (&descriptors)[2]) noexcept {
  if (pipe_descriptors[0] < 0) return 0;
  descriptors[0] = pipe_descriptors[0];
  descriptors[1] = pipe_descriptors[1];
  return 2;
}

bool is_unwinder_descriptor(int descriptor) noexcept {
  return descriptor >= 0 && (descriptor == pipe_descriptors[0] || descriptor == pipe_descriptors[1]);
}

void stop_unwinder() noexcept { __atomic_store_n(&prepared, false, __ATOMIC_RELEASE); }

interrupted_registers read_interrupted(const void* ucontext) noexcept {
  const auto& registers = static_cast<const ucontext_t*>(ucontext)->uc_mcontext;
#if defined(__x86_64__)
  return {static_cast<uintptr_t>(registers.gregs[REG_RIP]), static_cast<uintptr_t>(registers.gregs[REG_RSP])};
#elif defined(__aarch64__)
  return {registers.pc, registers.sp};
#else
#error "the sampler reads the registers of x86-64 and AArch64 only"
#endif
}

bool in_unwinder(uintptr_t address) noexcept {
  return address >= __atomic_load_n(&unwinder_start, __ATOMIC_ACQUIRE) && address < unwinder_limit;
}

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
    int pipe_numbers[2];
    lowest_free_descriptors(pipe_numbers, 2);
    std::string loaded = load_libunwind();
    dl_iterate_phdr(note_module, nullptr);
    // libunwind frees a thread's cache of the fast walk from a thread-specific-data
    // destructor, which ThreadSanitizer lets run after it has finished the thread
    // (its interceptor of the cache's lock then crashes): under it, the slow walk only.
    fast_walk_allowed = dlsym(RTLD_DEFAULT, "__tsan_init") == nullptr;
    if (loaded.empty()) {
      note_pipe(pipe_numbers);
      __atomic_store_n(&prepared, true, __ATOMIC_RELEASE);
      if (fast_walk_allowed) warm_up();
    }
    return loaded;
  }();
  return problem;
}

void prepare_unwinder_on_this_thread() noexcept {
  if (!warm && unwinding == 0 && __atomic_load_n(&prepared, __ATOMIC_ACQUIRE) && fast_walk_allowed) {
    const unwinding_scope scope;
    warm_up();
  }
}

unsigned unwind_interrupted(const void* ucontext, const stack_bounds& bounds, uintptr_t* frames,
                            unsigned depth) noexcept {
  // On x86-64 and AArch64 libunwind's context is the kernel's ucontext_t.
  auto* context = static_cast<unw_context_t*>(const_cast<void*>(ucontext));
  const bool interrupted_unwinding = unwinding != 0;
  const unwinding_scope scope;
  const bool ready = __atomic_load_n(&prepared, __ATOMIC_ACQUIRE);
  // The fast walk, from here through the kernel's signal frame: the interrupted
  // instruction is the first return address it gives past the frame. Not while the
  // thread was itself unwinding (its cache may be half written).
  if (ready && warm && !interrupted_unwinding && depth <= max_unwind_depth) {
    void* trace[max_unwind_depth + handler_frames];
    const unsigned room = depth + handler_frames;
    const int count = unwind.backtrace(trace, static_cast<int>(room));
    const uintptr_t interrupted = read_interrupted(ucontext).pc;
    for (int i = 0; i < count; ++i)
      if (reinterpret_cast<uintptr_t>(trace[i]) == interrupted) {
        frames[0] = interrupted;
        return keep_checked(trace, static_cast<unsigned>(count), static_cast<unsigned>(i) + 1, frames, 1, depth);
      }
  }
  unw_cursor_t cursor;
  if (!ready || unwind.init_local2(&cursor, context, UNW_INIT_SIGNAL_FRAME) != 0) {
    frames[0] = read_interrupted(ucontext).pc;
    frames[1] = truncated_frame;
    return 2;
  }
  frames[0] = read_register(cursor, UNW_REG_IP);
  return walk_out(cursor, read_register(cursor, UNW_REG_SP), bounds, frames, 1, depth);
}

__attribute__((noinline)) unsigned unwind_calling_thread(const stack_bounds& bounds, uintptr_t* frames,
                                                         unsigned depth) noexcept {
  if (depth == 0) return 0;
  prepare_unwinder_on_this_thread();
  if (warm && unwinding == 0 && depth <= max_unwind_depth && __atomic_load_n(&prepared, __ATOMIC_ACQUIRE)) {
    const unwinding_scope scope;
    // The first return address is into this function's caller: unw_backtrace's own.
    void* trace[max_unwind_depth + 1];
    const int count = unwind.backtrace(trace, static_cast<int>(depth) + 1);
    return keep_checked(trace, count > 0 ? static_cast<unsigned>(count) : 0, 1, frames, 0, depth);
  }
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

bool follows_call(uintptr_t candidate, uintptr_t code_begin) noexcept {
#if defined(__x86_64__)
  auto byte = [&](unsigned back) { return *reinterpret_cast<const unsigned char*>(candidate - back); };
  if (candidate >= code_begin + 5 && byte(5) == 0xe8) return true;  // call rel32
  // call r/m64 (FF /2: a ModRM byte whose reg field is 2), 2 to 7 bytes long by the
  // ModRM's mod and rm: a register, or memory with a SIB byte and a displacement
  // (a virtual call `*(%rax)`, `*0x88(%rax)`, a table `*disp32(,%rax,8)`, `*disp32(%rip)`).
  for (unsigned length = 2; length <= 7; ++length) {
    if (candidate < code_begin + length || byte(length) != 0xff) continue;
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
  if (candidate < code_begin + 4 || candidate % 4 != 0) return false;
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
