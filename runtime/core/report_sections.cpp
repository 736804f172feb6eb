#include "core/report_sections.hpp"

#include <algorithm>

#include "core/registrations.hpp"

namespace perf::runtime {

void add_report_section(const report_section& section) {
  std::vector<report_section>& all = registered<report_section>();
  all.insert(std::upper_bound(all.begin(), all.end(), section,
                              [](const report_section& a, const report_section& b) { return a.order < b.order; }),
             section);
}

const std::vector<report_section>& report_sections() { return registered<report_section>(); }

}  // namespace perf::runtime
