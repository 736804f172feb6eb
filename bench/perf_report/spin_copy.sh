# Sourced by ab_gate.sh and diff_pairs.sh: a bench copy of examples/log_pipeline in which
# logs::parse_line first spins PIPELINE_SPIN rounds of a multiply (3 cycles) that the parse
# waits for, read from the environment, so one build serves both sides of a comparison.
#   build_spin_copy ROOT PREFIX WORK: builds WORK/build/log_pipeline with the perf-instrument
#   installed in PREFIX (its CMake integration, one -D, as a user would).
build_spin_copy() {
  local root=$1 prefix=$2 work=$3
  cp -r "$root/examples/log_pipeline" "$work/src"
  cat > "$work/spin.inc" <<'SPIN'
  // The line's address goes through the chain of multiplies by one: the parse waits for it.
  static const unsigned spin = [] {
    const char* rounds = std::getenv("PIPELINE_SPIN");
    return rounds ? static_cast<unsigned>(std::atoi(rounds)) : 0u;
  }();
  uintptr_t address = reinterpret_cast<uintptr_t>(line.data()), one = 1;
  asm("" : "+r"(one));
  for (unsigned i = 0; i < spin; ++i) asm("imul %1, %0" : "+r"(address) : "r"(one));
  line = std::string_view(reinterpret_cast<const char*>(address), line.size());
SPIN
  sed -i -e '1i #include <cstdlib>' -e "/^std::unique_ptr<record> parse_line(std::string_view line) {\$/r $work/spin.inc" \
    "$work/src/parse.cpp"
  grep -q PIPELINE_SPIN "$work/src/parse.cpp" || { echo "spin_copy.sh: parse_line not found in parse.cpp" >&2; exit 2; }
  cmake -S "$work/src" -B "$work/build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_PROJECT_INCLUDE="$("$prefix/bin/perf-instrument" --cmake-include)" > /dev/null
  cmake --build "$work/build" > /dev/null
}
