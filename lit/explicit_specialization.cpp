// An explicit specialisation has a body of its own, and its own scope and row,
// named with its arguments (or its own label).
// RUN: %rewrite-test %s 11 %t

template <class T>
[[perf::measure]] int size_of(T) { return sizeof(T); }
// CHECK: {{^}}{{\[\[}}perf::measure{{\]\]}} int size_of(T) { PERF_INSTRUMENT("size_of<T>"); return sizeof(T); }

template <>
int size_of(const char* text) { int n = 0; while (text[n]) ++n; return n; }
// CHECK: {{^}}int size_of(const char* text) { PERF_INSTRUMENT("size_of<const char *>"); int n = 0;

template <>
[[perf::measure("size of a string")]] int size_of(const wchar_t* text) { int n = 0; while (text[n]) ++n; return n; }
// CHECK: {{^}}{{\[\[}}perf::measure("size of a string"){{\]\]}} int size_of(const wchar_t* text) { PERF_INSTRUMENT("size of a string"); int n = 0;

int main() { return size_of(1) + size_of("abc") + size_of(L"ab") == 9 ? 0 : 1; }

// REPORT: 1 size of a string
// REPORT-NEXT: 1 size_of<T>
// REPORT-NEXT: 1 size_of<const char *>
