// Input of launch_parse_avoided.test: a unit whose files mark nothing.
#include "util.hpp"
int plain_sum() { return add(1, 2); }
