// A report file's bytes as the JSON parser reads them: followed by readable padding
// (simdjson reads up to 64 bytes past the end).
#ifndef PERF_REPORT_TOOL_FILE_TEXT_HPP
#define PERF_REPORT_TOOL_FILE_TEXT_HPP

#include <cstddef>
#include <string>
#include <string_view>

namespace perf::perf_report {

// A regular file is mapped, its pages shared with the page cache and mapped in one
// call (no copy, no page fault per 4 KB: a large report reads in a fraction of the
// time); anything else (a pipe) is read. Reports are written whole and renamed into
// place (the runtime and perf-report both do), so a mapped file is not truncated
// under the reader.
class file_text {
 public:
  // Throws input_error naming `path` when it cannot be opened or read, or holds more
  // than `max_bytes` (a pipe or device is read no further than that).
  file_text(const std::string& path, size_t padding, size_t max_bytes);
  ~file_text();
  file_text(const file_text&) = delete;
  file_text& operator=(const file_text&) = delete;

  std::string_view text() const { return text_; }
  // How many bytes from text().data() may be read: at least text().size() + padding.
  size_t readable() const { return readable_; }

 private:
  void* mapping_ = nullptr;
  size_t mapping_size_ = 0;
  std::string read_;  // when not mapped
  std::string_view text_;
  size_t readable_ = 0;
};

}  // namespace perf::perf_report

#endif  // PERF_REPORT_TOOL_FILE_TEXT_HPP
