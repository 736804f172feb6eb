// Writing all files or none, atomically.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <map>

#include "lib/files.hpp"
#include "scratch_directory.hpp"

namespace perf::tool {
namespace {

namespace fs = std::filesystem;

class Files : public ScratchDirectory {
 protected:
  static void write(const fs::path& path, const std::string& text) { std::ofstream(path) << text; }
  // write_files_atomically's error message, "" on success.
  static std::string write_all(const std::map<std::string, std::string>& texts) {
    llvm::Error error = write_files_atomically(texts);
    return error ? llvm::toString(std::move(error)) : "";
  }
  std::vector<std::string> names() const {
    std::vector<std::string> found;
    for (const auto& entry : fs::recursive_directory_iterator(dir))
      found.push_back(entry.path().lexically_relative(dir));
    std::sort(found.begin(), found.end());
    return found;
  }
};

TEST_F(Files, EveryFileIsReplacedKeepingItsPermissionsAndMissingDirectoriesAreMade) {
  write(dir / "a.cpp", "old");
  fs::permissions(dir / "a.cpp", fs::perms::owner_read | fs::perms::owner_write | fs::perms::owner_exec);
  ASSERT_EQ(write_all({{(dir / "a.cpp").string(), "new a"}, {(dir / "sub/b.cpp").string(), "new b"}}), "");
  EXPECT_EQ(read_file((dir / "a.cpp").string()), "new a");
  EXPECT_EQ(read_file((dir / "sub/b.cpp").string()), "new b");
  EXPECT_EQ(fs::status(dir / "a.cpp").permissions() & fs::perms::all,
            fs::perms::owner_read | fs::perms::owner_write | fs::perms::owner_exec);
  EXPECT_EQ(names(), (std::vector<std::string>{"a.cpp", "sub", "sub/b.cpp"}));
}

TEST_F(Files, WhenOneFileCannotBeWrittenNoneIsAndNoTemporaryIsLeft) {
  write(dir / "a.cpp", "old a");
  write(dir / "not_a_directory", "");
  const std::string message =
      write_all({{(dir / "a.cpp").string(), "new a"}, {(dir / "not_a_directory/b.cpp").string(), "new b"}});
  EXPECT_NE(message.find("not_a_directory/b.cpp"), std::string::npos) << message;
  EXPECT_NE(message.find("; nothing was written"), std::string::npos) << message;
  EXPECT_EQ(read_file((dir / "a.cpp").string()), "old a");
  EXPECT_EQ(names(), (std::vector<std::string>{"a.cpp", "not_a_directory"}));
}

TEST_F(Files, AFileCanBeReadInPartAndReadOnlyMeansNoWriteBit) {
  write(dir / "a.cpp", "0123456789");
  EXPECT_EQ(read_file((dir / "a.cpp").string(), 4), "0123");
  EXPECT_EQ(read_file((dir / "missing.cpp").string()), std::nullopt);
  EXPECT_FALSE(is_read_only((dir / "a.cpp").string()));
  fs::permissions(dir / "a.cpp", fs::perms::owner_read | fs::perms::group_read);
  EXPECT_TRUE(is_read_only((dir / "a.cpp").string()));
}

TEST_F(Files, AFileWrittenOnceIsMadeInMissingDirectoriesAndNeverReplaced) {
  llvm::Expected<bool> made = write_file_once((dir / "texts/a").string(), "first");
  ASSERT_TRUE(made && *made);
  const auto inode = [](const fs::path& path) {
    struct stat status {};
    return ::stat(path.c_str(), &status) == 0 ? status.st_ino : 0;
  };
  const auto before = inode(dir / "texts/a");
  made = write_file_once((dir / "texts/a").string(), "second");
  ASSERT_TRUE(made && !*made);
  EXPECT_EQ(read_file((dir / "texts/a").string()), "first");
  EXPECT_EQ(inode(dir / "texts/a"), before);
  EXPECT_EQ(names(), (std::vector<std::string>{"texts", "texts/a"}));
  write(dir / "file", "");
  const std::string message = llvm::toString(write_file_once((dir / "file/b").string(), "text").takeError());
  EXPECT_EQ(message, "cannot create directory " + (dir / "file").string() + " for " + (dir / "file/b").string() +
                         ": Not a directory");
}

TEST_F(Files, ALinkIsMadeOnceInMissingDirectoriesAndNeverReplacesItsPath) {
  write(dir / "text", "instrumented");
  write(dir / "old", "old");
  llvm::Expected<bool> linked = link_once((dir / "text").string(), (dir / "tree/a.hpp").string());
  ASSERT_TRUE(linked && *linked);
  linked = link_once((dir / "text").string(), (dir / "old").string());
  ASSERT_TRUE(linked && !*linked);
  EXPECT_EQ(read_file((dir / "tree/a.hpp").string()), "instrumented");
  EXPECT_EQ(read_file((dir / "old").string()), "old");
  EXPECT_EQ(fs::hard_link_count(dir / "text"), 2u);
  EXPECT_EQ(names(), (std::vector<std::string>{"old", "text", "tree", "tree/a.hpp"}));
  const std::string message =
      llvm::toString(link_once((dir / "missing").string(), (dir / "b.hpp").string()).takeError());
  EXPECT_EQ(message, "cannot link " + (dir / "b.hpp").string() + " to " + (dir / "missing").string() +
                         ": No such file or directory");
  EXPECT_FALSE(fs::exists(dir / "b.hpp"));
}

}  // namespace
}  // namespace perf::tool
