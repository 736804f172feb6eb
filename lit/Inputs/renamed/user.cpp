namespace lib { int load(int x); }
int main() { return lib::load(-1); }
