// Input of launch_parse_avoided.test: a unit marking nothing itself, whose header does.
#include "counter.hpp"
int plain_sum();
int main() {
  counter c;
  c.next();
  c.next();
  return plain_sum() - 3;
}
