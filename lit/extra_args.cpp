// --extra-arg and --extra-arg-before reach every compiler command.
// RUN: %make-db %t c++17 %s
// RUN: %perf-instrument -p %t --list --extra-arg=-DWITH_EXTRA 2>&1 | %FileCheck %s --check-prefix=AFTER
// RUN: %perf-instrument -p %t --list --extra-arg-before=-DWITH_EXTRA 2>&1 | %FileCheck %s --check-prefix=AFTER
// RUN: %perf-instrument -p %t --list 2>&1 | %FileCheck %s --check-prefix=WITHOUT

#ifdef WITH_EXTRA
[[perf::measure]] int only_with_extra() { return 1; }
#endif
[[perf::measure]] int always() { return 2; }

// AFTER: extra_args.cpp:8: only_with_extra
// AFTER-NEXT: extra_args.cpp:10: always
// WITHOUT: extra_args.cpp:10: always
// WITHOUT-NOT: only_with_extra
