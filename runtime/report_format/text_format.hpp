// The pieces of the text report's cells and lines: durations, counts, names.
#ifndef PERF_RUNTIME_REPORT_FORMAT_TEXT_FORMAT_HPP
#define PERF_RUNTIME_REPORT_FORMAT_TEXT_FORMAT_HPP

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace perf::report_format {

// Three significant digits in the largest unit that keeps the value at least 1:
// "812 ns", "1.25 ms". A value below `resolution_ns` (a clock's; 0: none), which
// the clock cannot tell apart from it, is "< " and the resolution: "< 11.4 ns".
std::string format_duration(double ns, double resolution_ns = 0);

// `n` with its thousands grouped: "1,234,567".
std::string format_count(uint64_t n);

// format_count(n) and `noun`, plural (an "s" added) unless `n` is 1: "1 allocation",
// "1,024 bytes".
std::string format_count_of(uint64_t n, const std::string& noun);

// A per-call average: whole numbers as format_count() writes them, others with one
// decimal below 100 ("2.5") and rounded above ("1,235").
std::string format_per_call(double n);

// `text` on one line: control characters written as C escapes.
std::string printable(const std::string& text);

// How a line names a thread, or a row of exited threads folded by name (tid 0):
// "thread 4242 (worker)", "thread 4242 (worker, exited)", "9,936 exited threads (worker)".
std::string thread_title(long tid, const std::string& name, uint64_t threads, bool exited);

// The directory, ending in '/', that every one of `files` lies in (empty names left out;
// "" if none): the text report names it once ("sources under DIR/") and shows every
// path of the program's sources below it.
std::string common_directory(const std::vector<std::string>& files);

// `path` below `directory` (common_directory's) when it lies there, else `path` as it is.
std::string below(const std::string& path, const std::string& directory);

// Display width of UTF-8 text, counting code points.
size_t display_width(const std::string& text);

// `name` cut to `width` display columns, keeping both ends ("…" between).
std::string shortened(const std::string& name, size_t width);

// A demangled function signature as the samples section shows it: the qualified
// name without its return type, each template argument list written `<...>` and the
// parameters `(...)` (`()` when there are none): "void ns::f<int>(std::string const&)
// const" is "ns::f<...>(...)". Anything else ("main", "libc.so.6+0x1f2e0", an
// operator's name) comes back as it is. Two signatures may come out alike: the
// caller shows those whole.
std::string elided_signature(const std::string& signature);

// `text` padded with spaces to `width` display columns, on the left or the right.
std::string pad(const std::string& text, size_t width, bool right_align);

}  // namespace perf::report_format

#endif  // PERF_RUNTIME_REPORT_FORMAT_TEXT_FORMAT_HPP
