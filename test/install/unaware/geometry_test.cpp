#include <gtest/gtest.h>

#include "geometry.hpp"

namespace {

// A measured call before main, as a test program's registrations make: even a run that
// only lists the tests has something to report.
int registered() {
  static int count = 0;
  return ++count;
}
const int registration = registered();

TEST(Geometry, AScaledSquaresArea) { EXPECT_EQ(geometry::area(geometry::scaled(geometry::square{1}, 2)), 4.0); }

}  // namespace
