#include "geometry.hpp"

namespace geometry {

double area(const square& s) { return s.side * s.side; }

}  // namespace geometry
