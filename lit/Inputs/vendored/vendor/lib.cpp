#include <vendor/lib.hpp>
int vendor_answer() { return vendor_twice(21); }
