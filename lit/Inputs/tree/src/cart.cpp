#include <shop/cart.hpp>
#include <vendor.hpp>
[[perf::measure]] int checkout(shop::cart& c) { return c.total + vendor_version() - 3; }
