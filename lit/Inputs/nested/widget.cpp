struct widget {
#include "methods.inc"
  int count = 3;
};
int main() { return widget().size() + widget().size() == 6 ? 0 : 1; }
