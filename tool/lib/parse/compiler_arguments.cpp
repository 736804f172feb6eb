#include "lib/parse/compiler_arguments.hpp"

#include <clang/Basic/LangStandard.h>
#include <clang/Driver/Options.h>
#include <clang/Tooling/ArgumentsAdjusters.h>
#include <clang/Tooling/CompilationDatabase.h>
#include <llvm/Option/ArgList.h>
#include <llvm/Option/OptTable.h>

#include <set>

#include "lib/install_layout.hpp"

namespace perf::tool {
namespace {

using clang::tooling::CommandLineArguments;

// The arguments this Clang's driver does not know (GCC's, mostly).
std::set<std::string> unknown_arguments(const CommandLineArguments& arguments) {
  std::vector<const char*> raw;
  for (std::size_t i = 1; i < arguments.size(); ++i) raw.push_back(arguments[i].c_str());
  unsigned missing_index = 0, missing_count = 0;
  const llvm::opt::InputArgList parsed =
      clang::driver::getDriverOptTable().ParseArgs(raw, missing_index, missing_count);
  std::set<std::string> unknown;
  for (const llvm::opt::Arg* argument : parsed.filtered(clang::driver::options::OPT_UNKNOWN))
    unknown.insert(argument->getAsString(parsed));
  return unknown;
}

// `-std=c++23` as this Clang spells it: a newer standard's final name it does not
// know yet becomes the provisional one it does (2b for 23, 2c for 26).
std::string standard_for_this_clang(const std::string& argument) {
  const std::size_t equals = argument.find('=');
  const std::string name = argument.substr(equals + 1);
  if (clang::LangStandard::getLangStandardForName(name) != nullptr || name.size() < 2) return argument;
  for (const auto& [final_name, provisional] : {std::pair{"23", "2b"}, std::pair{"26", "2c"}}) {
    const std::string renamed = name.substr(0, name.size() - 2) + provisional;
    if (name.compare(name.size() - 2, 2, final_name) == 0 && clang::LangStandard::getLangStandardForName(renamed))
      return argument.substr(0, equals + 1) + renamed;
  }
  return argument;
}

CommandLineArguments for_this_clang(const CommandLineArguments& arguments, llvm::StringRef) {
  if (arguments.empty()) return arguments;
  const std::set<std::string> unknown = unknown_arguments(arguments);
  CommandLineArguments kept = {arguments[0]};
  for (std::size_t i = 1; i < arguments.size(); ++i) {
    if (unknown.count(arguments[i])) continue;
    const bool standard = arguments[i].rfind("-std=", 0) == 0 || arguments[i].rfind("--std=", 0) == 0;
    kept.push_back(standard ? standard_for_this_clang(arguments[i]) : arguments[i]);
  }
  return kept;
}

}  // namespace

std::vector<std::string> parsing_arguments(const clang::tooling::CompileCommand& command,
                                           const extra_arguments& extra) {
  using namespace clang::tooling;
  CommandLineArguments ours = {"-resource-dir=" PERF_CLANG_RESOURCE_DIR, "-idirafter" + perf_include_dir(), "-w"};
  ours.insert(ours.end(), extra.after.begin(), extra.after.end());
  ArgumentsAdjuster adjust = for_this_clang;
  for (const ArgumentsAdjuster& next :
       {getClangStripOutputAdjuster(), getClangStripDependencyFileAdjuster(), getClangSyntaxOnlyAdjuster(),
        getInsertArgumentAdjuster(extra.before, ArgumentInsertPosition::BEGIN),
        getInsertArgumentAdjuster(ours, ArgumentInsertPosition::END)})
    adjust = combineAdjusters(adjust, next);
  return adjust(command.CommandLine, command.Filename);
}

}  // namespace perf::tool
