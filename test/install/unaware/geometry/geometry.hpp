#ifndef GEOMETRY_HPP
#define GEOMETRY_HPP

namespace geometry {

struct square {
  double side;
  double perimeter() const { return 4 * side; }  // defined in the header
};

double area(const square& s);
square scaled(const square& s, double factor);

}  // namespace geometry

#endif
