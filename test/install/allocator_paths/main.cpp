int core_allocates(int n);

int main() { return core_allocates(64) == 2 ? 0 : 1; }
