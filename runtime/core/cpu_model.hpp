// The processor this process runs on, as it names itself: what a figure measured on
// one machine is kept under (the probe's floor), read without touching /proc (whose
// cpuinfo a large machine takes milliseconds to produce).
#ifndef PERF_RUNTIME_CORE_CPU_MODEL_HPP
#define PERF_RUNTIME_CORE_CPU_MODEL_HPP

#include <string>

namespace perf::runtime {

struct cpu_model {
  // x86-64: CPUID's brand string without its padding, as /proc/cpuinfo's "model name"
  // shows it; aarch64: "midr-" and the main ID register (MIDR_EL1) in hex; else "?".
  std::string name;
  // x86-64: the family, model and stepping as the kernel shows them (extended family
  // and model folded in); 0 elsewhere.
  unsigned family = 0, model = 0, stepping = 0;
};

// This processor's model. Any thread may call it.
cpu_model this_cpu_model();

}  // namespace perf::runtime

#endif  // PERF_RUNTIME_CORE_CPU_MODEL_HPP
