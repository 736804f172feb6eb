// Writing the runtime's output files: a regular file is replaced whole, anything
// else that can take a stream (device, FIFO, socket, an open descriptor by name) is
// written in place, a link is followed and stays a link. Devices are private mknod
// copies in a fresh directory, never the system's /dev.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>  // makedev
#include <sys/un.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include <atomic>
#include <cstring>
#include <filesystem>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "core/output_file.hpp"
#include "perf/perf.hpp"
#include "probe_runner.hpp"

namespace perf::runtime {
namespace {

namespace fs = std::filesystem;
using OutputFile = perf::testing::ProbeTest;
using perf::testing::read_file;

std::string write_text(const fs::path& path, const std::string& text) {
  return write_file(path.string(), [&](int fd) { return write_all(fd, text.data(), text.size()); });
}

std::set<std::string> names_in(const fs::path& dir) {
  std::set<std::string> names;
  for (const fs::directory_entry& entry : fs::directory_iterator(dir)) names.insert(entry.path().filename().string());
  return names;
}

bool is_character_device(const fs::path& path, unsigned major, unsigned minor) {
  struct stat status;
  return ::lstat(path.c_str(), &status) == 0 && S_ISCHR(status.st_mode) && status.st_rdev == makedev(major, minor);
}

std::string read_all(int fd) {
  std::string text;
  char buffer[4096];
  for (ssize_t n; (n = ::read(fd, buffer, sizeof buffer)) > 0;) text.append(buffer, static_cast<size_t>(n));
  return text;
}

TEST_F(OutputFile, ARegularFileIsReplacedWholeAndNoTemporaryStays) {
  const fs::path path = dir / "report.txt";
  ASSERT_EQ(write_text(path, "an older report, longer than the new one\n"), "");
  ASSERT_EQ(write_text(path, "new\n"), "");
  EXPECT_EQ(read_file(path), "new\n");
  EXPECT_EQ(names_in(dir), std::set<std::string>{"report.txt"});
}

TEST_F(OutputFile, ACharacterDeviceIsWrittenInPlaceNotReplaced) {
  const fs::path null = dir / "null";
  perf::testing::make_character_device(null, 1, 3);
  EXPECT_EQ(write_text(null, "discarded\n"), "");
  EXPECT_TRUE(is_character_device(null, 1, 3)) << "the device node was replaced";
  EXPECT_EQ(names_in(dir), std::set<std::string>{"null"});
}

TEST_F(OutputFile, ADeviceThatRefusesTheWriteIsAnErrorAndStays) {
  const fs::path full = dir / "full";
  perf::testing::make_character_device(full, 1, 7);
  EXPECT_EQ(write_text(full, "no room\n"), std::strerror(ENOSPC));
  EXPECT_TRUE(is_character_device(full, 1, 7));
  EXPECT_EQ(names_in(dir), std::set<std::string>{"full"});
}

TEST_F(OutputFile, AFifoIsStreamedToItsReader) {
  const fs::path fifo = dir / "fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0) << std::strerror(errno);
  // The reader is there first (not blocking), so the writer's open does not wait.
  const int reader = ::open(fifo.c_str(), O_RDONLY | O_NONBLOCK);
  ASSERT_GE(reader, 0) << std::strerror(errno);
  EXPECT_EQ(write_text(fifo, "through the fifo\n"), "");
  EXPECT_EQ(read_all(reader), "through the fifo\n");
  ::close(reader);
  struct stat status;
  ASSERT_EQ(::lstat(fifo.c_str(), &status), 0);
  EXPECT_TRUE(S_ISFIFO(status.st_mode)) << "the FIFO was replaced";
}

TEST_F(OutputFile, AUnixSocketIsStreamedToWhoeverListens) {
  const fs::path path = dir / "socket";
  const int listener = ::socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0);
  ASSERT_GE(listener, 0);
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  std::strncpy(address.sun_path, path.c_str(), sizeof address.sun_path - 1);
  ASSERT_EQ(::bind(listener, reinterpret_cast<const sockaddr*>(&address), sizeof address), 0) << std::strerror(errno);
  ASSERT_EQ(::listen(listener, 1), 0);
  EXPECT_EQ(write_text(path, "through the socket\n"), "");
  const int connection = ::accept(listener, nullptr, nullptr);
  EXPECT_GE(connection, 0) << "nothing connected: " << std::strerror(errno);
  if (connection >= 0) {
    EXPECT_EQ(read_all(connection), "through the socket\n");
    ::close(connection);
  }
  ::close(listener);
  struct stat status;
  ASSERT_EQ(::lstat(path.c_str(), &status), 0);
  EXPECT_TRUE(S_ISSOCK(status.st_mode)) << "the socket was replaced";
}

TEST_F(OutputFile, ALinkIsFollowedAndStaysALink) {
  fs::create_directories(dir / "reports");
  ASSERT_EQ(write_text(dir / "reports" / "latest.txt", "old\n"), "");
  fs::create_symlink("reports/latest.txt", dir / "link");  // relative to the link's directory
  fs::create_symlink(dir / "link", dir / "link-to-link");
  EXPECT_EQ(write_text(dir / "link-to-link", "new\n"), "");
  EXPECT_TRUE(fs::is_symlink(dir / "link"));
  EXPECT_TRUE(fs::is_symlink(dir / "link-to-link"));
  EXPECT_EQ(read_file(dir / "reports" / "latest.txt"), "new\n");
  EXPECT_EQ(names_in(dir / "reports"), std::set<std::string>{"latest.txt"}) << "the temporary file stayed";
  // A link to a file not written yet creates it.
  fs::create_symlink("reports/first.txt", dir / "dangling");
  EXPECT_EQ(write_text(dir / "dangling", "first\n"), "");
  EXPECT_TRUE(fs::is_symlink(dir / "dangling"));
  EXPECT_EQ(read_file(dir / "reports" / "first.txt"), "first\n");
}

TEST_F(OutputFile, ADescriptorByNameIsWrittenAtItsOffset) {
  // What /dev/stdout is: a link to /proc/self/fd/1. Here a private link to another descriptor.
  const fs::path captured = dir / "captured.txt";
  const int fd = ::open(captured.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  ASSERT_GE(fd, 0);
  ASSERT_TRUE(write_all(fd, "the program's own output\n", 25));
  fs::create_symlink("/proc/self/fd/" + std::to_string(fd), dir / "stdout");
  EXPECT_EQ(write_text(dir / "stdout", "the report\n"), "");
  ASSERT_TRUE(write_all(fd, "more output\n", 12)) << "the descriptor was closed";
  ::close(fd);
  EXPECT_EQ(read_file(captured), "the program's own output\nthe report\nmore output\n");
  EXPECT_TRUE(fs::is_symlink(dir / "stdout"));
}

TEST_F(OutputFile, ClosedReadersGiveAnErrorNotASignal) {
  int ends[2];
  ASSERT_EQ(::pipe(ends), 0);
  ::close(ends[0]);
  fs::create_symlink("/proc/self/fd/" + std::to_string(ends[1]), dir / "pipe");
  EXPECT_EQ(write_text(dir / "pipe", "nobody reads this\n"), std::strerror(EPIPE));
  ::close(ends[1]);
  sigset_t pending;
  sigpending(&pending);
  EXPECT_EQ(sigismember(&pending, SIGPIPE), 0) << "a SIGPIPE is left for the program";
}

TEST_F(OutputFile, NamedDescriptorsAreThisProcesssOnly) {
  EXPECT_EQ(named_descriptor("/dev/stdout"), 1);
  EXPECT_EQ(named_descriptor("/dev/stderr"), 2);
  EXPECT_EQ(named_descriptor("/dev/fd/7"), 7);
  EXPECT_EQ(named_descriptor("/proc/self/fd/12"), 12);
  EXPECT_EQ(named_descriptor(("/proc/" + std::to_string(getpid()) + "/fd/3").c_str()), 3);
  EXPECT_EQ(named_descriptor(("/proc/" + std::to_string(getpid() + 1) + "/fd/3").c_str()), -1);
  EXPECT_EQ(named_descriptor("/dev/fd/"), -1);
  EXPECT_EQ(named_descriptor("/dev/fd/3x"), -1);
  EXPECT_EQ(named_descriptor("/dev/null"), -1);
  EXPECT_EQ(named_descriptor("report.txt"), -1);
}

TEST_F(OutputFile, ADirectoryIsRefused) {
  fs::create_directories(dir / "sub");
  EXPECT_EQ(write_text(dir / "sub", "x"), std::strerror(EISDIR));
  EXPECT_TRUE(fs::is_directory(dir / "sub"));
}

void measured_for_concurrent_reports() { PERF_MEASURE("output_file_test.measured"); }

TEST_F(OutputFile, ThreadsWritingOneReportAtOnceAllSucceedAndLeaveOneValidReport) {
  measured_for_concurrent_reports();
  const fs::path path = dir / "report.json";
  constexpr int threads = 8, calls = 25;
  std::atomic<int> failed{0};
  std::vector<std::thread> writers;
  for (int t = 0; t < threads; ++t)
    writers.emplace_back([&] {
      for (int i = 0; i < calls; ++i)
        if (!perf::write_report(path.string())) ++failed;
    });
  for (std::thread& writer : writers) writer.join();
  EXPECT_EQ(failed.load(), 0);
  EXPECT_EQ(names_in(dir), std::set<std::string>{"report.json"});
  const nlohmann::json report = nlohmann::json::parse(read_file(path));
  bool found = false;
  for (const nlohmann::json& f : report.at("functions")) found |= f.at("name") == "output_file_test.measured";
  EXPECT_TRUE(found);
}

}  // namespace
}  // namespace perf::runtime
