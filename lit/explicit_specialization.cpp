// An explicit specialisation has a body of its own, and its own scope and row.
// RUN: %rewrite-test %s 11 %t

template <class T>
[[perf::measure]] int size_of(T) { return sizeof(T); }
// CHECK: {{^}}{{\[\[}}perf::measure{{\]\]}} int size_of(T) { PERF_INSTRUMENT("size_of"); return sizeof(T); }

template <>
[[perf::measure("size_of<const char*>")]] int size_of(const char* text) { int n = 0; while (text[n]) ++n; return n; }
// CHECK: {{^}}{{\[\[}}perf::measure("size_of<const char*>"){{\]\]}} int size_of(const char* text) { PERF_INSTRUMENT("size_of<const char*>"); int n = 0;

int main() { return size_of(1) + size_of("abc") == 7 ? 0 : 1; }

// REPORT: 1 size_of
// REPORT-NEXT: 1 size_of<const char*>
