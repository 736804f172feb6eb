// Runs a program as a container's seccomp profile would: `seccomp_exec PROGRAM ARGS...`
// installs a filter that refuses timer_create and perf_event_open with EPERM (every
// other system call allowed), then executes PROGRAM, which inherits it; the sampler's
// tests run a measured program so, before its runtime starts.
#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>

#if defined(__x86_64__)
#define PERF_AUDIT_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define PERF_AUDIT_ARCH AUDIT_ARCH_AARCH64
#else
#error "seccomp_exec knows the audit architecture of x86_64 and aarch64 only"
#endif

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s PROGRAM [ARGS...]\n", argv[0]);
    return 2;
  }
  constexpr unsigned refused = SECCOMP_RET_ERRNO | (EPERM & SECCOMP_RET_DATA);
  sock_filter filter[] = {
      BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, arch)),
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, PERF_AUDIT_ARCH, 1, 0),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),  // another ABI: not this test's
      BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, nr)),
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_timer_create, 2, 0),
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_perf_event_open, 1, 0),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
      BPF_STMT(BPF_RET | BPF_K, refused),
  };
  const sock_fprog program{static_cast<unsigned short>(sizeof filter / sizeof filter[0]), filter};
  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 || syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &program) != 0) {
    std::fprintf(stderr, "seccomp_exec: cannot install the filter: %s\n", std::strerror(errno));
    return 2;
  }
  execvp(argv[1], argv + 1);
  std::fprintf(stderr, "seccomp_exec: cannot run %s: %s\n", argv[1], std::strerror(errno));
  return 2;
}
