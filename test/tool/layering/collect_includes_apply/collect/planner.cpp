// A fixture for ctest tool_layering_catches_a_phase_including_a_later_one: collect
// reaching forward into apply.
#include "lib/apply/mirror.hpp"
#include "lib/plan/edit_set.hpp"
