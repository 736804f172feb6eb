#include "cart.hpp"

#include <numeric>

void cart::add(int cents) { items_.push_back(cents); }

int cart::total() const { return std::accumulate(items_.begin(), items_.end(), 0); }
