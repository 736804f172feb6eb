#include "report_format/function_columns.hpp"

#include <fmt/format.h>

#include <iterator>

#include "report_format/escaping.hpp"

namespace perf::report_format {

void append_function_json(std::string& out, const function_stats& f) {
  auto to = std::back_inserter(out);
  out += '{';
  const char* separator = "";
  for (const function_column& c : function_columns) {
    fmt::format_to(to, "{}\"{}\": ", separator, c.json);
    separator = ", ";
    switch (c.form) {
      case json_form::text: out += json_string(c.text(f)); break;
      case json_form::integer: fmt::format_to(to, "{}", c.count(f)); break;
      case json_form::flag: out += c.count(f) != 0 ? "true" : "false"; break;
      case json_form::number: fmt::format_to(to, "{:.{}f}", c.number(f), c.decimals); break;
      case json_form::moments:  // exact, for merging (perf-report)
        fmt::format_to(to, "{{\"{}\": {}, \"{}\": {}}}", json_name(moments_field::mean_ns), f.timed_mean_ns,
                       json_name(moments_field::m2_ns2), f.m2_ns2);
        break;
      case json_form::histogram:
        out += '[';
        for (size_t b = 0; b < f.histogram.size(); ++b)
          fmt::format_to(to, "{}[{}, {}]", b == 0 ? "" : ", ", f.histogram[b].first, f.histogram[b].second);
        out += ']';
        break;
    }
  }
  out += '}';
}

}  // namespace perf::report_format
