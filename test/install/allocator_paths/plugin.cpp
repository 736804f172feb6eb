extern "C" int other_allocates(int n);

int plugin_allocates(int n) { return other_allocates(n); }
