// A unit of its own, also included by the test beside it (to reach its static functions).
static int bump(int x) { return x + 1; }
int bumped_twice(int x) { return bump(bump(x)); }
