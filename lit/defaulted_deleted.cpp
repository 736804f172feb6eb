// Defaulted and deleted functions have no body to measure.
// RUN: %rewrite-test %s 11 %t
// RUN: %FileCheck %s --check-prefix=WARN --input-file %t/stderr

struct value {
  [[perf::measure]] value() = default;
  // WARN: defaulted_deleted.cpp:[[@LINE-1]]:21: warning: value::value is not measured: defaulted: it has no body to measure
  [[perf::measure]] value(const value&) = delete;
  // WARN: defaulted_deleted.cpp:[[@LINE-1]]:21: warning: value::value is not measured: deleted: it has no body to measure
};
// CHECK-NOT: {{^[^/]*}}PERF_INSTRUMENT
