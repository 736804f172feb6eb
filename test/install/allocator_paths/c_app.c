int other_allocates(int n);

int main(void) { return other_allocates(64) == 1 ? 0 : 1; }
