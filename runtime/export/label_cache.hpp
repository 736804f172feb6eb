// Every measured function's label text for /metrics, escaped once in the process's
// life: a site's name and location never change, so neither does its text.
#ifndef PERF_RUNTIME_EXPORT_LABEL_CACHE_HPP
#define PERF_RUNTIME_EXPORT_LABEL_CACHE_HPP

#include <memory>
#include <string_view>
#include <vector>

#include "export/metrics.hpp"

namespace perf::runtime {

// A row's name and location (for ordering rows) and its label text
// (function_label_text(), followed by label_padding readable bytes).
struct function_labels {
  function_location where;
  std::string_view text;
};

// The rows of the sites registered so far and the labels of each row. Text once
// handed out stays where it is for the process's life, so pages hold views into
// it. Not thread-safe: its user guards it.
class label_cache {
 public:
  // Takes in the sites registered since the last call.
  void update();
  // [id]: the row of site id (site_info::row); [0] unused. Its size is one more
  // than the highest id taken in.
  const std::vector<unsigned>& rows() const { return rows_; }
  // The labels of `row`, a row's first site id taken in.
  const function_labels& labels(unsigned row) const { return labels_[row]; }
  // Every row taken in, by name, then file, then line: the order of the page.
  const std::vector<unsigned>& rows_by_name() const { return by_name_; }

 private:
  // A copy of `text` in memory that is never freed, followed by label_padding bytes.
  std::string_view keep(std::string_view text);

  std::vector<unsigned> rows_{0};
  std::vector<function_labels> labels_{function_labels{}};
  std::vector<unsigned> by_name_;
  std::vector<std::unique_ptr<char[]>> chunks_;
  char* free_ = nullptr;
  size_t left_ = 0;
};

}  // namespace perf::runtime

#endif  // PERF_RUNTIME_EXPORT_LABEL_CACHE_HPP
