// A unit with no empty line before its code: the prefix, with its #line.
[[perf::measure]] int tight() { return 0; }
int main() { return tight(); }
