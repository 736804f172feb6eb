// A destructor.
// RUN: %rewrite-test %s 11 %t

struct file {
  [[perf::measure]] ~file() { open = false; }
  // CHECK: {{^}}  {{\[\[}}perf::measure{{\]\]}} ~file() { PERF_INSTRUMENT("file::~file"); open = false; }
  bool open = true;
};

int main() {
  { file a, b; }
  return 0;
}

// REPORT: 2 file::~file
