// A fixture for the layering check: report/ including a component above it.
#include "export/metrics.hpp"
