// A unit that includes another unit's file and measures nothing of its own.
#include "counter.cpp"

int main() { return bump(-1); }
