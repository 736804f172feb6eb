#include "core/stack_unwind.hpp"

#include <dlfcn.h>
#include <fcntl.h>
#include <link.h>
#include <pthread.h>
#include <ucontext.h>
#include <unistd.h>

#include <libunwind.h>

#include "core/frame_rules.hpp"
#include "perf/detail/compiler.hpp"

// The names libunwind's macros give its functions (_Ux86_64_step, ...), for dlsym.
#define PERF_UNWIND_NAME(function) PERF_UNWIND_STRING(function)
#define PERF_UNWIND_STRING(function) #function

namespace perf::runtime {
namespace {

#if defined(__x86_64__)
constexpr const char* libunwind_library = "libunwind-x86_64.so.8";
constexpr unw_regnum_t sp_register = UNW_X86_64_RSP, fp_register = UNW_X86_64_RBP;
#elif defined(__aarch64__)
constexpr const char* libunwind_library = "libunwind-aarch64.so.8";
constexpr unw_regnum_t sp_register = UNW_AARCH64_SP, fp_register = UNW_AARCH64_X29;
#endif

// libunwind's functions for an address space of the runtime's own (its "remote"
// unwinding), found in its library loaded with RTLD_LOCAL: linked, its
// _Unwind_RaiseException would come before libgcc's in the program's lookup, and every
// exception the program throws would unwind through it.
struct libunwind_functions {
  unw_addr_space_t (*create_addr_space)(unw_accessors_t*, int);
  unw_accessors_t* (*get_accessors)(unw_addr_space_t);
  int (*set_caching_policy)(unw_addr_space_t, unw_caching_policy_t);
  int (*init_remote)(unw_cursor_t*, unw_addr_space_t, void*);
  int (*step)(unw_cursor_t*);
  int (*get_reg)(unw_cursor_t*, unw_regnum_t, unw_word_t*);
};
libunwind_functions unwind{};      // all null until prepared
unw_addr_space_t space = nullptr;  // the runtime's address space (read_memory below)
bool prepared = false;             // atomic: `unwind` and `space` are whole

template <typename Function>
bool find(void* library, const char* name, Function& into) {
  into = reinterpret_cast<Function>(dlsym(library, name));
  return into != nullptr;
}

// The registers a step starts from, and what it may read: the `unw_init_remote`
// argument of the runtime's address space.
struct step_start {
  bool probe;                 // registers and stack are made up (derive_rule): no stack word is read
  uintptr_t pc;               // the address whose rules apply: the interrupted instruction, a return address less one
  uintptr_t sp, fp;           // the stack and frame pointers
  const ucontext_t* context;  // every register of the interrupted frame, or null: the others unknown
  uintptr_t low, high;        // the stack words a real step may read: [low, high)
  const dl_phdr_info* late;   // a module loaded later whose memory may be read too (the loader's lock held), or null
};

// A probe's made-up stack and frame pointers, far apart, and what it reads near them:
// each word's own address, mixed, so that the value a step gives back names the word.
constexpr uintptr_t probe_sp = uintptr_t{1} << 44, probe_fp = uintptr_t{3} << 44;
constexpr uintptr_t probe_window = uintptr_t{1} << 32;
constexpr uintptr_t probe_mark = 0x5a5a000000000000;

bool near(uintptr_t address, uintptr_t base) noexcept { return address - (base - probe_window) < 2 * probe_window; }

// The memory of the modules loaded when the unwinder was prepared (their call-frame
// information, their code): [start, limit) ranges, published by `module_count`
// (release), read without a lock.
constexpr unsigned module_capacity = 512;
uintptr_t module_start[module_capacity];
uintptr_t module_limit[module_capacity];
unsigned module_count = 0;

// Whether the word at `address` lies whole in [low, high).
bool word_within(uintptr_t address, uintptr_t low, uintptr_t high) noexcept {
  return address >= low && high >= sizeof(uintptr_t) && address <= high - sizeof(uintptr_t);
}

bool in_modules(uintptr_t address) noexcept {
  const unsigned count = __atomic_load_n(&module_count, __ATOMIC_ACQUIRE);
  for (unsigned i = 0; i < count; ++i)
    if (word_within(address, module_start[i], module_limit[i])) return true;
  return false;
}

// The loaded segment of `module` that holds the `size` bytes at `address`, or null.
const ElfW(Phdr) * loaded_segment(const dl_phdr_info& module, uintptr_t address, uintptr_t size) noexcept {
  for (unsigned h = 0; h < module.dlpi_phnum; ++h) {
    const ElfW(Phdr)& header = module.dlpi_phdr[h];
    const uintptr_t start = module.dlpi_addr + header.p_vaddr;
    if (header.p_type == PT_LOAD && address >= start && header.p_memsz >= size &&
        address - start <= header.p_memsz - size)
      return &header;
  }
  return nullptr;
}

// Whether the word at `address` lies in a loaded segment of `module`.
bool in_module(const dl_phdr_info& module, uintptr_t address) noexcept {
  return loaded_segment(module, address, sizeof(uintptr_t)) != nullptr;
}

// libunwind's every memory read: a probe's made-up stack, a real step's stack words in
// [low, high), the modules' memory; anything else is refused, never read.
int read_memory(unw_addr_space_t, unw_word_t address, unw_word_t* value, int write, void* argument) {
  const auto& start = *static_cast<const step_start*>(argument);
  if (write != 0) return -UNW_EINVAL;
  if (start.probe && (near(address, probe_sp) || near(address, probe_fp))) {
    *value = address ^ probe_mark;
    return 0;
  }
  const bool on_stack = !start.probe && word_within(address, start.low, start.high);
  if (!on_stack && !in_modules(address) && (start.late == nullptr || !in_module(*start.late, address)))
    return -UNW_EINVAL;
  *value = *reinterpret_cast<const unw_word_t*>(address);
  return 0;
}

// libunwind's register reads: the step's pc, sp and fp, and the interrupted frame's others.
int read_register_of(unw_addr_space_t, unw_regnum_t which, unw_word_t* value, int write, void* argument) {
  const auto& start = *static_cast<const step_start*>(argument);
  if (write != 0) return -UNW_EINVAL;
  if (which == UNW_REG_IP) *value = start.pc;
  else if (which == sp_register) *value = start.sp;
  else if (which == fp_register) *value = start.fp;
  else if (start.context == nullptr || which < 0) return -UNW_EBADREG;
#if defined(__x86_64__)
  else if (which <= UNW_X86_64_R15) {
    // libunwind's numbering (DWARF's) to the kernel's order.
    static constexpr int greg[] = {REG_RAX, REG_RDX, REG_RCX, REG_RBX, REG_RSI, REG_RDI, REG_RBP, REG_RSP,
                                   REG_R8,  REG_R9,  REG_R10, REG_R11, REG_R12, REG_R13, REG_R14, REG_R15};
    *value = static_cast<unw_word_t>(start.context->uc_mcontext.gregs[greg[which]]);
  }
#elif defined(__aarch64__)
  else if (which <= UNW_AARCH64_X30) *value = start.context->uc_mcontext.regs[which];
#endif
  else
    return -UNW_EBADREG;
  return 0;
}

int no_float_registers(unw_addr_space_t, unw_regnum_t, unw_fpreg_t*, int, void*) { return -UNW_EBADREG; }
int no_resume(unw_addr_space_t, unw_cursor_t*, void*) { return -UNW_EINVAL; }
int no_name(unw_addr_space_t, unw_word_t, char*, size_t, unw_word_t*, void*) { return -UNW_ENOINFO; }
int no_dynamic_info(unw_addr_space_t, unw_word_t*, void*) { return -UNW_ENOINFO; }

std::string load_libunwind() {
  void* library = dlopen(libunwind_library, RTLD_NOW | RTLD_LOCAL);
  if (library == nullptr) return std::string("libunwind cannot be loaded: ") + dlerror();
  libunwind_functions found{};
  const auto local = static_cast<unw_addr_space_t*>(dlsym(library, PERF_UNWIND_NAME(unw_local_addr_space)));
  if (local == nullptr || !find(library, PERF_UNWIND_NAME(unw_create_addr_space), found.create_addr_space) ||
      !find(library, PERF_UNWIND_NAME(unw_get_accessors), found.get_accessors) ||
      !find(library, PERF_UNWIND_NAME(unw_set_caching_policy), found.set_caching_policy) ||
      !find(library, PERF_UNWIND_NAME(unw_init_remote), found.init_remote) ||
      !find(library, PERF_UNWIND_NAME(unw_step), found.step) ||
      !find(library, PERF_UNWIND_NAME(unw_get_reg), found.get_reg))
    return std::string(libunwind_library) + " lacks a function the runtime calls";
  // The local address space's search of the modules' .eh_frame_hdr (dl_iterate_phdr),
  // which reads the tables through the accessors below; every other access is ours.
  unw_accessors_t accessors = *found.get_accessors(*local);
  accessors.access_mem = read_memory;
  accessors.access_reg = read_register_of;
  accessors.access_fpreg = no_float_registers;
  accessors.resume = no_resume;
  accessors.get_proc_name = no_name;
  accessors.get_dyn_info_list_addr = no_dynamic_info;
  space = found.create_addr_space(&accessors, 0);
  if (space == nullptr) return "libunwind cannot make an address space";
  // No cache of decoded rules (its lock is taken with every signal blocked: two system
  // calls a step): the runtime caches each address's rule itself (core/frame_rules.hpp).
  found.set_caching_policy(space, UNW_CACHE_NONE);
  unwind = found;
  return {};
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

// Appends [start, limit) to a table published by `count`.
void add_range(uintptr_t* starts, uintptr_t* limits, unsigned& count, unsigned capacity, uintptr_t start,
               uintptr_t limit) {
  const unsigned filled = __atomic_load_n(&count, __ATOMIC_RELAXED);
  if (filled == capacity) return;
  starts[filled] = start;
  limits[filled] = limit;
  __atomic_store_n(&count, filled + 1, __ATOMIC_RELEASE);
}

int note_module(dl_phdr_info* info, size_t, void*) {
  for (unsigned h = 0; h < info->dlpi_phnum; ++h) {
    const ElfW(Phdr)& header = info->dlpi_phdr[h];
    if (header.p_type != PT_LOAD || (header.p_flags & PF_R) == 0) continue;
    const uintptr_t start = info->dlpi_addr + header.p_vaddr, limit = start + header.p_memsz;
    add_range(module_start, module_limit, module_count, module_capacity, start, limit);
    if ((header.p_flags & PF_X) == 0) continue;
    const auto step = reinterpret_cast<uintptr_t>(unwind.step);
    if (step >= start && step < limit) {
      unwinder_limit = limit;
      __atomic_store_n(&unwinder_start, start, __ATOMIC_RELEASE);
    }
    add_range(code_start, code_limit, code_count, code_capacity, start, limit);
  }
  return 0;
}

// The rule of the frame at `pc`, derived by one libunwind step from made-up registers
// over a made-up stack (step_start::probe): the stack pointer it gives back is the CFA,
// and where it lies says which register the CFA is taken from; the return address and
// frame pointer it gives back name the words they were read from. A rule that reads
// memory for its CFA, or needs other registers, is none of the standard ones.
frame_rule derive_rule(uintptr_t pc, const dl_phdr_info* late) noexcept {
  step_start start{true, pc, probe_sp, probe_fp, nullptr, 0, 0, late};
  unw_cursor_t cursor;
  frame_rule rule{};
  rule.kind = frame_kind::other;
  if (unwind.init_remote(&cursor, space, &start) != 0) return rule;
  const int stepped = unwind.step(&cursor);
  unw_word_t ra = 0, cfa = 0, fp = 0;
  if (stepped == 0 || (stepped > 0 && unwind.get_reg(&cursor, UNW_REG_IP, &ra) == 0 && ra == 0)) {
    rule.kind = frame_kind::outermost;
    return rule;
  }
  if (stepped < 0 || unwind.get_reg(&cursor, sp_register, &cfa) != 0 || unwind.get_reg(&cursor, fp_register, &fp) != 0)
    return rule;
  rule.cfa_from_fp = near(cfa, probe_fp);
  if (!rule.cfa_from_fp && !near(cfa, probe_sp)) return rule;
  const uintptr_t ra_at = ra ^ probe_mark, fp_at = fp ^ probe_mark;
  if (!near(ra_at, rule.cfa_from_fp ? probe_fp : probe_sp)) return rule;
  rule.fp_saved = fp != probe_fp;
  if (rule.fp_saved && !near(fp_at, rule.cfa_from_fp ? probe_fp : probe_sp)) return rule;
  const int64_t cfa_offset = static_cast<int64_t>(cfa - (rule.cfa_from_fp ? probe_fp : probe_sp));
  const int64_t ra_offset = static_cast<int64_t>(ra_at - cfa),
                fp_offset = rule.fp_saved ? static_cast<int64_t>(fp_at - cfa) : 0;
  if (!rule_fits(cfa_offset, ra_offset, fp_offset)) return rule;
  rule.kind = frame_kind::standard;
  rule.cfa_offset = static_cast<int32_t>(cfa_offset);
  rule.ra_offset = static_cast<int16_t>(ra_offset);
  rule.fp_offset = static_cast<int16_t>(fp_offset);
  return rule;
}

// Nonzero while the calling thread's walks may not search the loader's list
// (stack_unwind.hpp, no_loader_search).
PERF_DETAIL_TLS unsigned searches_barred;

// The rule of `pc`, in `late` (a module loaded after the unwinder was prepared, the
// loader's lock held) or in the modules noted then (null). A late module's rules are
// cached under its address and the loader's count of unloads (dlpi_subs): another
// module loaded at its addresses after a dlclose never finds them. `kind` unknown: none
// cached, and the walk may not search the loader's list now (`may_search`).
frame_rule rule_at(uintptr_t pc, const dl_phdr_info* late, bool may_search) noexcept {
  const uintptr_t key = late == nullptr ? pc : pc | (late->dlpi_subs & 0x7fff) << 48 | uintptr_t{1} << 63;
  frame_rule rule = cached_rule(key);
  if (rule.kind != frame_kind::unknown || !may_search) return rule;
  rule = derive_rule(pc, late);
  cache_rule(key, rule);
  return rule;
}

// Calls `work(module, code_start)` inside dl_iterate_phdr's callback for the loaded
// module whose executable segment holding `address` begins at code_start: glibc's
// dlclose unlinks a module and unmaps it under the lock the callback runs under, so the
// module's memory may be read there. Returns false (without calling it) where no
// module's code holds the address. Only where the walk may search the list.
template <typename Work>
bool in_module_holding(uintptr_t address, Work&& work) noexcept {
  struct search {
    uintptr_t address;
    Work* work;
    bool found;
  } wanted{address, &work, false};
  dl_iterate_phdr(
      [](dl_phdr_info* info, size_t, void* argument) {
        auto& sought = *static_cast<search*>(argument);
        const ElfW(Phdr)* segment = loaded_segment(*info, sought.address, 1);
        if (segment == nullptr || (segment->p_flags & PF_X) == 0) return 0;
        sought.found = true;
        (*sought.work)(*info, info->dlpi_addr + segment->p_vaddr);
        return 1;
      },
      &wanted);
  return wanted.found;
}

// The word at `address` into `value`, if it lies in [low, high).
bool read_stack(uintptr_t address, uintptr_t low, uintptr_t high, uintptr_t& value) noexcept {
  if (!word_within(address, low, high)) return false;
  value = *reinterpret_cast<const uintptr_t*>(address);
  return true;
}

enum class stepped { caller, outermost, failed };

// Steps from `frame` (at `rules_pc`) to its caller by `rule`, reading only [low, high).
stepped step_by_rule(const frame_rule& rule, frame_registers& frame, uintptr_t low, uintptr_t high) noexcept {
  const uintptr_t cfa = (rule.cfa_from_fp ? frame.fp : frame.sp) + static_cast<intptr_t>(rule.cfa_offset);
  uintptr_t ra = 0, fp = frame.fp;
  if (!read_stack(cfa + static_cast<intptr_t>(rule.ra_offset), low, high, ra)) return stepped::failed;
  if (rule.fp_saved && !read_stack(cfa + static_cast<intptr_t>(rule.fp_offset), low, high, fp)) return stepped::failed;
  frame = {ra, cfa, fp};
  return stepped::caller;
}

// Steps from `frame` by libunwind over the runtime's address space, which reads only
// [low, high) of the stack and the modules: a rule of another form (a CFA read from the
// stack, registers other than these three, which only the interrupted frame has).
stepped step_by_libunwind(frame_registers& frame, uintptr_t rules_pc, const ucontext_t* context, uintptr_t low,
                          uintptr_t high, const dl_phdr_info* late) noexcept {
  step_start start{false, rules_pc, frame.sp, frame.fp, context, low, high, late};
  unw_cursor_t cursor;
  if (unwind.init_remote(&cursor, space, &start) != 0) return stepped::failed;
  const int result = unwind.step(&cursor);
  if (result == 0) return stepped::outermost;
  unw_word_t pc = 0, sp = 0, fp = 0;
  if (result < 0 || unwind.get_reg(&cursor, UNW_REG_IP, &pc) != 0 || unwind.get_reg(&cursor, sp_register, &sp) != 0 ||
      unwind.get_reg(&cursor, fp_register, &fp) != 0)
    return stepped::failed;
  if (pc == 0) return stepped::outermost;
  frame = {pc, sp, fp};
  return stepped::caller;
}

// The words below the stack pointer that a function may use without moving it (the
// x86-64 ABI's red zone): the first frame's rules may name them (a register just
// popped, one a leaf function saved there).
#if defined(__x86_64__)
constexpr uintptr_t red_zone = 128;
#else
constexpr uintptr_t red_zone = 0;
#endif

// Steps from `frame` to its caller by the rules at `rules_pc`, in `late` (a module
// loaded after start-up, the loader's lock held) or in the modules noted at start-up
// (null), reading only [low, high) of the stack.
stepped step_out(frame_registers& frame, uintptr_t rules_pc, const ucontext_t* context, uintptr_t low, uintptr_t high,
                 const dl_phdr_info* late, bool may_search) noexcept {
  const frame_rule rule = rule_at(rules_pc, late, may_search);
  switch (rule.kind) {
    case frame_kind::outermost: return stepped::outermost;
    case frame_kind::standard: return step_by_rule(rule, frame, low, high);
    case frame_kind::other: return step_by_libunwind(frame, rules_pc, context, low, high, late);
    default: return stepped::failed;  // not derived: the loader's list may not be searched now
  }
}

// Whether `pc` is a return address: it lies in a loaded module's executable code,
// right after a call instruction (read under the loader's lock in a module loaded later).
bool after_call(uintptr_t pc, bool may_search) noexcept {
  if (const uintptr_t start = code_start_of(pc)) return follows_call(pc, start);
  bool follows = false;
  if (may_search)
    in_module_holding(pc, [&](const dl_phdr_info&, uintptr_t start) { follows = follows_call(pc, start); });
  return follows;
}

// Walks out of `frame` (the first: its pc exact; `context` its other registers, or
// null), on the stack `bounds` that holds its stack pointer, appending each caller's
// checked return address to `frames` (holding `count`) until the outermost frame, a
// failed check or read, or `depth`. Reads only the stack words in [the first frame's
// stack pointer less the red zone, bounds.high).
unsigned walk(frame_registers frame, const ucontext_t* context, const stack_bounds& bounds, uintptr_t* frames,
              unsigned count, unsigned depth) noexcept {
  const uintptr_t low = frame.sp - bounds.low > red_zone ? frame.sp - red_zone : bounds.low, high = bounds.high;
  const bool may_search = searches_barred == 0;
  for (bool first = true; count < depth; first = false) {
    // A caller's rules are those of its call instruction, which ends at the return address.
    const uintptr_t rules_pc = first ? frame.pc : frame.pc - 1;
    const ucontext_t* registers = first ? context : nullptr;
    const uintptr_t sp = frame.sp;
    stepped result = stepped::failed;
    if (code_start_of(rules_pc) != 0) result = step_out(frame, rules_pc, registers, low, high, nullptr, may_search);
    else if (may_search)
      in_module_holding(rules_pc, [&](const dl_phdr_info& module, uintptr_t) {
        result = step_out(frame, rules_pc, registers, low, high, &module, true);
      });
    if (result == stepped::outermost) return count;
    if (result == stepped::failed || frame.sp <= sp || frame.sp > high || !after_call(frame.pc, may_search)) {
      frames[count++] = truncated_frame;
      return count;
    }
    frames[count++] = frame.pc;
  }
  return count;
}

// The calling thread's stack, as far as the walks of its own stack need: the mapping
// that held its stack pointer when last found (found again when the stack pointer
// lies outside it: the main thread's stack grew, or the thread runs on another stack).
PERF_DETAIL_TLS stack_bounds own_stack;

}  // namespace

stack_bounds stack_mapping_holding(uintptr_t address) noexcept {
  const int descriptor = open("/proc/self/maps", O_RDONLY | O_CLOEXEC);
  if (descriptor < 0) return {};
  char buffer[4096];
  size_t held = 0;
  stack_bounds found{};
  for (;;) {
    const ssize_t got = read(descriptor, buffer + held, sizeof buffer - held);
    if (got <= 0) break;
    held += static_cast<size_t>(got);
    size_t line = 0;
    for (size_t end = 0; end < held; ++end) {
      if (buffer[end] != '\n') continue;
      // "start-limit perms ...": hexadecimal, no leading 0x.
      uintptr_t bounds[2] = {0, 0};
      size_t at = line;
      for (uintptr_t& bound : bounds) {
        for (; at < end; ++at) {
          const char c = buffer[at];
          const int digit = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
          if (digit < 0) break;
          bound = bound << 4 | static_cast<uintptr_t>(digit);
        }
        ++at;  // the '-', then the ' '
      }
      if (address >= bounds[0] && address < bounds[1] && at + 1 < end && buffer[at] == 'r' && buffer[at + 1] == 'w')
        found = {bounds[0], bounds[1]};
      line = end + 1;
    }
    // Keeps the part of a line not read whole.
    for (size_t i = line; i < held; ++i) buffer[i - line] = buffer[i];
    held -= line;
    if (found.high != 0 || held == sizeof buffer) break;
  }
  close(descriptor);
  return found;
}

no_loader_search::no_loader_search() noexcept {
  __atomic_store_n(&searches_barred, searches_barred + 1, __ATOMIC_RELAXED);
  __atomic_signal_fence(__ATOMIC_SEQ_CST);
}

no_loader_search::~no_loader_search() {
  __atomic_signal_fence(__ATOMIC_SEQ_CST);
  __atomic_store_n(&searches_barred, searches_barred - 1, __ATOMIC_RELAXED);
}

loader_lock_held::loader_lock_held() noexcept {
  __atomic_store_n(&searches_barred, searches_barred - 1, __ATOMIC_RELAXED);
  __atomic_signal_fence(__ATOMIC_SEQ_CST);
}

loader_lock_held::~loader_lock_held() {
  __atomic_signal_fence(__ATOMIC_SEQ_CST);
  __atomic_store_n(&searches_barred, searches_barred + 1, __ATOMIC_RELAXED);
}

frame_registers read_interrupted(const void* ucontext) noexcept {
  const auto& registers = static_cast<const ucontext_t*>(ucontext)->uc_mcontext;
#if defined(__x86_64__)
  return {static_cast<uintptr_t>(registers.gregs[REG_RIP]), static_cast<uintptr_t>(registers.gregs[REG_RSP]),
          static_cast<uintptr_t>(registers.gregs[REG_RBP])};
#elif defined(__aarch64__)
  return {registers.pc, registers.sp, registers.regs[29]};
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
    std::string loaded = load_libunwind();
    dl_iterate_phdr(note_module, nullptr);
    if (loaded.empty()) __atomic_store_n(&prepared, true, __ATOMIC_RELEASE);
    return loaded;
  }();
  return problem;
}

unsigned unwind_interrupted(const void* ucontext, const stack_bounds& bounds, uintptr_t* frames,
                            unsigned depth) noexcept {
  const frame_registers interrupted = read_interrupted(ucontext);
  frames[0] = interrupted.pc;
  // The stack words from the interrupted stack pointer to the top of the thread's
  // stack are mapped: a stack pointer outside the thread's stack (a stack of the
  // program's own, bounds not known) proves nothing.
  const bool on_stack = interrupted.sp >= bounds.low && interrupted.sp < bounds.high;
  if (!__atomic_load_n(&prepared, __ATOMIC_ACQUIRE) || !on_stack) {
    frames[1] = truncated_frame;
    return 2;
  }
  return walk(interrupted, static_cast<const ucontext_t*>(ucontext), bounds, frames, 1, depth);
}

__attribute__((noinline)) unsigned unwind_calling_thread(uintptr_t* frames, unsigned depth) noexcept {
  if (depth == 0) return 0;
  frame_registers here{};
#if defined(__x86_64__)
  asm volatile("lea 0(%%rip), %0\n\tmov %%rsp, %1\n\tmov %%rbp, %2" : "=r"(here.pc), "=r"(here.sp), "=r"(here.fp));
#elif defined(__aarch64__)
  asm volatile("adr %0, .\n\tmov %1, sp\n\tmov %2, x29" : "=r"(here.pc), "=r"(here.sp), "=r"(here.fp));
#endif
  if (here.sp < own_stack.low || here.sp >= own_stack.high) own_stack = stack_mapping_holding(here.sp);
  if (!__atomic_load_n(&prepared, __ATOMIC_ACQUIRE) || here.sp < own_stack.low || here.sp >= own_stack.high) {
    frames[0] = truncated_frame;
    return 1;
  }
  // The first step leaves this function's frame: its caller's return address first.
  return walk(here, nullptr, own_stack, frames, 0, depth);
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
