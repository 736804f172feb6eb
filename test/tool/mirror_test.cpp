// A unit's mirror under --launch: a tree per plan, its files links to one copy per text.
#include "lib/apply/mirror.hpp"

#include <gtest/gtest.h>
#include <pthread.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <map>

#include "lib/files.hpp"
#include "lib/install_layout.hpp"
#include "scratch_directory.hpp"

namespace perf::tool {
namespace {

namespace fs = std::filesystem;

class UnitMirror : public ScratchDirectory {
 protected:
  std::string root = (dir / "src").string(), mirrors = (dir / "mirror").string();
  std::string header = root + "/h.hpp", unit = root + "/a.cpp";
  void SetUp() override {
    ScratchDirectory::SetUp();
    fs::create_directories(root);
    std::ofstream(header) << "inline int f() { return 1; }\n";
  }

  // The plan of a unit that read the header and inserted `statement` after its '{'.
  rewrite_plan plan(const std::string& statement) const {
    rewrite_plan made;
    made.files_read = {header};
    if (!statement.empty()) made.edits.files[header].replacements[16] = {0, statement};
    return made;
  }
};

TEST_F(UnitMirror, UnitsThatPlanAlikeShareATreeAndOthersHaveTheirOwn) {
  const project editable{fs::canonical(root).string(), {}, {}};
  llvm::Expected<mirror> first = mirror::make_for_unit(mirrors, editable, plan(" PERF_INSTRUMENT(\"f\");"), unit);
  llvm::Expected<mirror> same = mirror::make_for_unit(mirrors, editable, plan(" PERF_INSTRUMENT(\"f\");"), unit);
  llvm::Expected<mirror> other = mirror::make_for_unit(mirrors, editable, plan(""), unit);
  ASSERT_TRUE(first && same && other);
  EXPECT_EQ(first->directory(), same->directory());
  EXPECT_NE(first->directory(), other->directory());
  EXPECT_EQ(fs::path(first->directory()).parent_path(), fs::path(mirrors));

  llvm::Expected<std::set<std::string>> written = first->write();
  ASSERT_TRUE(static_cast<bool>(written));
  EXPECT_EQ(*written, std::set<std::string>{header});
  written = same->write();  // the text exists: nothing new, no second warning
  ASSERT_TRUE(static_cast<bool>(written));
  EXPECT_TRUE(written->empty());
  written = other->write();
  ASSERT_TRUE(static_cast<bool>(written));
  EXPECT_EQ(*written, std::set<std::string>{header});

  EXPECT_EQ(read_file(first->path_of(header)), "inline int f() { PERF_INSTRUMENT(\"f\"); return 1; }\n");
  EXPECT_EQ(read_file(other->path_of(header)), "inline int f() { return 1; }\n");
  EXPECT_EQ(fs::hard_link_count(first->path_of(header)), 2u);  // the tree's file and the one copy of its text
  EXPECT_EQ(read_file(header), "inline int f() { return 1; }\n");
}

TEST_F(UnitMirror, TheUnitIsCompiledAsTheMainFileUnderItsMirrorsNameNamingTheOriginal) {
  std::ofstream(unit) << "int g() { return 2; }\n";
  const project editable{fs::canonical(root).string(), {}, {}};
  rewrite_plan measured_unit;
  measured_unit.files_read = {unit};
  measured_unit.edits.files[unit].prefix = true;
  measured_unit.edits.files[unit].replacements[9] = {0, " PERF_INSTRUMENT(\"g\");"};
  llvm::Expected<mirror> made = mirror::make_for_unit(mirrors, editable, measured_unit, unit);
  ASSERT_TRUE(made && made->write());
  const std::string mirrored = made->path_of(unit);
  // No prefix: the unit's lines are the original's, under the name the command gives.
  EXPECT_EQ(read_file(mirrored), "int g() { PERF_INSTRUMENT(\"g\"); return 2; }\n");

  const compiler_command command(root, {"g++", "-ffile-prefix-map=" + root + "/=", "-c", unit});
  const std::vector<std::string> arguments = made->arguments(command);
  const std::vector<std::string> expected_tail = {"-c",
                                                  mirrored,
                                                  "-I" + perf_include_dir(),
                                                  "-include",
                                                  perf_include_dir() + "/perf/instrumented.hpp",
                                                  "-fmacro-prefix-map=" + made->directory() + "/=",
                                                  "-fmacro-prefix-map=" + mirrored + "=a.cpp",
                                                  "-fdebug-prefix-map=" + made->directory() + "/=",
                                                  "-fdebug-prefix-map=" + mirrored + "=a.cpp"};
  ASSERT_GE(arguments.size(), expected_tail.size());
  EXPECT_EQ(std::vector<std::string>(arguments.end() - expected_tail.size(), arguments.end()), expected_tail);
}

// Launchers of a parallel build write their mirrors at once: every text is shared by all
// of them and each tree by two (the same unit in two targets). Round after round, 8
// processes write into a fresh mirror directory together: each write succeeds, each
// text is reported written by exactly one of them, and no temporary file is left.
TEST_F(UnitMirror, ParallelWritersAllSucceedAndEachTextIsWrittenOnce) {
  constexpr int writers = 8, rounds = 100;
  std::vector<std::string> units;
  for (int i = 0; i < writers / 2; ++i) {
    units.push_back(root + "/u" + std::to_string(i) + ".cpp");
    std::ofstream(units.back()) << "int u" << i << "() { return " << i << "; }\n";
  }
  const project editable{fs::canonical(root).string(), {}, {}};
  struct shared_state {
    pthread_barrier_t start;
    std::atomic<int> failures, first_writes[rounds];
  };
  void* memory = ::mmap(nullptr, sizeof(shared_state), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  ASSERT_NE(memory, MAP_FAILED);
  auto* shared = new (memory) shared_state{};
  pthread_barrierattr_t attributes;
  pthread_barrierattr_init(&attributes);
  pthread_barrierattr_setpshared(&attributes, PTHREAD_PROCESS_SHARED);
  pthread_barrier_init(&shared->start, &attributes, writers);
  std::vector<pid_t> children;
  for (int w = 0; w < writers; ++w) {
    const pid_t child = ::fork();
    ASSERT_GE(child, 0);
    if (child != 0) {
      children.push_back(child);
      continue;
    }
    const std::string& own_unit = units[w % units.size()];
    rewrite_plan unit_plan = plan(" PERF_INSTRUMENT(\"f\");");
    unit_plan.files_read.insert(own_unit);
    for (int r = 0; r < rounds; ++r) {
      pthread_barrier_wait(&shared->start);
      llvm::Expected<mirror> made =
          mirror::make_for_unit(mirrors + "/" + std::to_string(r), editable, unit_plan, own_unit);
      llvm::Expected<std::set<std::string>> written =
          made ? made->write() : llvm::Expected<std::set<std::string>>(made.takeError());
      if (!written) {
        if (shared->failures++ == 0) std::fprintf(stderr, "%s\n", llvm::toString(written.takeError()).c_str());
        else llvm::consumeError(written.takeError());
      } else if (written->count(header)) {
        ++shared->first_writes[r];
      }
    }
    ::_exit(0);
  }
  for (const pid_t child : children) {
    int status = 0;
    ASSERT_EQ(::waitpid(child, &status, 0), child);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  }
  EXPECT_EQ(shared->failures.load(), 0);
  std::map<int, int> rounds_by_first_writes;  // first writes of the header's text -> rounds
  for (int r = 0; r < rounds; ++r) ++rounds_by_first_writes[shared->first_writes[r].load()];
  EXPECT_EQ(rounds_by_first_writes, (std::map<int, int>{{1, rounds}}));
  std::size_t files = 0;
  for (const auto& entry : fs::recursive_directory_iterator(mirrors)) {
    EXPECT_EQ(entry.path().string().find(".perf-instrument-"), std::string::npos) << entry.path();
    if (entry.is_regular_file()) ++files;
  }
  // Per round: a copy of the header's text and of each unit's, and a tree per unit
  // holding both.
  EXPECT_EQ(files, static_cast<std::size_t>(rounds) * (1 + units.size() + 2 * units.size()));
  pthread_barrier_destroy(&shared->start);
  ::munmap(memory, sizeof(shared_state));
}

}  // namespace
}  // namespace perf::tool
