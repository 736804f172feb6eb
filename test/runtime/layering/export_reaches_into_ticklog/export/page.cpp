// A fixture for the layering check: export/ reaching into the tick log's internals.
#include "ticklog/internal/trace.hpp"
