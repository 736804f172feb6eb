#include "geometry.hpp"

namespace geometry {

square scaled(const square& s, double factor) { return square{s.side * factor}; }

}  // namespace geometry
