// A program that allocates nothing: the runtime's own work (its start-up, the
// sampler's, reading the counters at exit) must not show in its allocation figures.
int main() { return 0; }
