#include "lib/parse/parallel_parse.hpp"

#include <clang/Basic/FileManager.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/PCHContainerOperations.h>
#include <clang/Frontend/TextDiagnosticPrinter.h>
#include <clang/Tooling/CompilationDatabase.h>
#include <clang/Tooling/Tooling.h>
#include <llvm/Support/VirtualFileSystem.h>
#include <llvm/Support/raw_ostream.h>

#include <atomic>
#include <mutex>
#include <thread>

#include "lib/diagnostics.hpp"

namespace perf::tool {
namespace {

// Runs the factory's actions as FrontendActionFactory does, with the compiler's own
// messages ("2 errors generated.") going where the diagnostics go.
class action_printing_to : public clang::tooling::ToolAction {
 public:
  action_printing_to(clang::tooling::FrontendActionFactory& factory, llvm::raw_ostream& out)
      : factory_(factory), out_(out) {}

  bool runInvocation(std::shared_ptr<clang::CompilerInvocation> invocation, clang::FileManager* files,
                     std::shared_ptr<clang::PCHContainerOperations> containers,
                     clang::DiagnosticConsumer* diagnostics) override {
    clang::CompilerInstance compiler(std::move(containers));
    compiler.setInvocation(std::move(invocation));
    compiler.setFileManager(files);
    compiler.createDiagnostics(diagnostics, /*ShouldOwnClient=*/false);
    if (!compiler.hasDiagnostics()) return false;
    compiler.setVerboseOutputStream(out_);
    compiler.createSourceManager(*files);
    const std::unique_ptr<clang::FrontendAction> action = factory_.create();
    const bool parsed = compiler.ExecuteAction(*action);
    files->clearStatCache();
    return parsed;
  }

 private:
  clang::tooling::FrontendActionFactory& factory_;
  llvm::raw_ostream& out_;
};

// Parses one command; its diagnostics are appended to `diagnostics`.
bool parse(const clang::tooling::CompileCommand& command, const extra_arguments& extra,
           clang::tooling::FrontendActionFactory& action, std::string& diagnostics) {
  // Not the real file system shared by the process: ClangTool's would chdir() the
  // whole process to each command's directory, under the other threads' feet.
  llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> file_system(llvm::vfs::createPhysicalFileSystem().release());
  llvm::raw_string_ostream out(diagnostics);
  if (const std::error_code error = file_system->setCurrentWorkingDirectory(command.Directory)) {
    print_error("cannot enter " + command.Directory + ", the directory of " + command.Filename + ": " + error.message(),
                out);
    return false;
  }
  llvm::IntrusiveRefCntPtr<clang::FileManager> files(new clang::FileManager(clang::FileSystemOptions(), file_system));
  llvm::IntrusiveRefCntPtr<clang::DiagnosticOptions> options(new clang::DiagnosticOptions());
  clang::TextDiagnosticPrinter printer(out, options.get());
  action_printing_to printing_action(action, out);
  clang::tooling::ToolInvocation invocation(parsing_arguments(command, extra), &printing_action, files.get(),
                                            std::make_shared<clang::PCHContainerOperations>());
  invocation.setDiagnosticConsumer(&printer);
  return invocation.run();
}

}  // namespace

unsigned parse_in_parallel(const clang::tooling::CompilationDatabase& database, const std::vector<std::string>& files,
                           const extra_arguments& extra, unsigned jobs, clang::tooling::FrontendActionFactory& action) {
  std::vector<std::string> diagnostics(files.size());
  std::vector<char> done(files.size(), 0);
  std::atomic<std::size_t> next{0};
  std::atomic<unsigned> failed{0};
  std::mutex printing;
  std::size_t printed = 0;
  auto work = [&] {
    for (std::size_t unit = next++; unit < files.size(); unit = next++) {
      bool parsed = true;
      for (const clang::tooling::CompileCommand& command : database.getCompileCommands(files[unit]))
        parsed = parse(command, extra, action, diagnostics[unit]) && parsed;
      if (!parsed) ++failed;
      // Print what is complete from the front: the order of `files`, as early as it can be.
      const std::lock_guard lock(printing);
      done[unit] = 1;
      for (; printed < files.size() && done[printed]; ++printed) print_compiler_diagnostics(diagnostics[printed]);
    }
  };
  std::vector<std::thread> workers;
  for (unsigned i = 1; i < std::min<std::size_t>(jobs, files.size()); ++i) workers.emplace_back(work);
  work();
  for (std::thread& worker : workers) worker.join();
  return failed;
}

}  // namespace perf::tool
