#include <vendor/lib.hpp>
int app_run() { return vendor_twice(vendor_answer()); }
int main() { return app_run() == 84 ? 0 : 1; }
