#include "core/report_sections.hpp"

#include "core/registrations.hpp"
#include "report_format/text_format.hpp"

namespace perf::runtime {

void add_report_section(const report_section& section) { register_in_order(section); }

const std::vector<report_section>& report_sections() { return registered<report_section>(); }

std::string sources_directory(const snapshot& s) {
  std::vector<std::string> files;
  for (const function_stats& f : s.functions) files.push_back(f.file);
  return report_format::common_directory(files);
}

}  // namespace perf::runtime
