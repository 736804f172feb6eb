namespace lib {
int load(int x) { return x + 1; }
}
