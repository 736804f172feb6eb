#include "core/report_sections.hpp"

#include "core/registrations.hpp"

namespace perf::runtime {

void add_report_section(const report_section& section) { register_in_order(section); }

const std::vector<report_section>& report_sections() { return registered<report_section>(); }

}  // namespace perf::runtime
