#include "lib/rewrite.hpp"

#include "lib/collect/collector.hpp"
#include "lib/diagnostics.hpp"
#include "lib/parse/parallel_parse.hpp"

namespace perf::tool {

llvm::Expected<rewrite_plan> rewrite(const clang::tooling::CompilationDatabase& database,
                                     const std::vector<std::string>& units, const extra_arguments& extra, unsigned jobs,
                                     const selection& chosen, const project& editable) {
  edit_set plans;
  const std::unique_ptr<clang::tooling::FrontendActionFactory> collector = make_collector(chosen, editable, plans);
  if (const unsigned failed = parse_in_parallel(database, units, extra, jobs, *collector))
    return error(llvm::Twine(failed) + " translation unit" + (failed == 1 ? "" : "s") +
                 " did not parse (see the errors above)");
  return rewrite_plan{plans.resolve(), plans.files_read(), plans.files_included(), plans.inputs()};
}

}  // namespace perf::tool
