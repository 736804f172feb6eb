// A fixture for the layering check: exit_report/ including a component above it.
#include "export/metrics.hpp"
