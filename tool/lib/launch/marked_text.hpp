// The launcher's pre-check: whether a unit could hold a function marked
// [[perf::measure]], decided from text alone, so that a unit that cannot (and has no
// --filter to apply) is compiled as it is, without a parse.
#ifndef PERF_TOOL_MARKED_TEXT_HPP
#define PERF_TOOL_MARKED_TEXT_HPP

#include <string_view>

#include "lib/compiler_command.hpp"
#include "lib/project.hpp"

namespace perf::tool {

// Whether `text` spells the attribute (`perf::measure`, also with spaces around the
// `::`, `[[using perf: measure]]`, the annotate spelling) or holds a statement an
// earlier run inserted (`PERF_INSTRUMENT`), which a parse would look at.
bool spells_measure(std::string_view text);

// Whether the command's arguments (a -D, say) or one of the project's files the unit
// may read spells it: the unit, its -include files and every project header their
// #include lines reach (followed whatever the conditions around them, resolved as the
// compiler does: the includer's directory for "...", then -iquote, -I, -isystem and
// -idirafter). Headers outside the project and system headers are not read: nothing
// in them is measured. An #include the text cannot resolve (a macro) counts as a yes.
bool may_mark_functions(const compiler_command& command, const project& editable);

}  // namespace perf::tool

#endif  // PERF_TOOL_MARKED_TEXT_HPP
