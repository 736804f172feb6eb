// Nothing measured here.
#pragma once
namespace shop {
inline int with_tax(int cents) { return cents + cents / 5; }
}  // namespace shop
