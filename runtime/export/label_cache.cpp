#include "export/label_cache.hpp"

#include <algorithm>
#include <cstring>

#include "core/sites.hpp"

namespace perf::runtime {
namespace {

constexpr size_t chunk_bytes = 1 << 20;

}  // namespace

std::string_view label_cache::keep(std::string_view text) {
  const size_t need = text.size() + label_padding;
  if (need > left_) {
    const size_t size = std::max(need, chunk_bytes);
    chunks_.push_back(std::make_unique<char[]>(size));
    free_ = chunks_.back().get();
    left_ = size;
  }
  std::memcpy(free_, text.data(), text.size());
  std::memset(free_ + text.size(), 0, label_padding);
  const std::string_view kept(free_, text.size());
  free_ += text.size();  // the next text starts in this one's padding: it is readable either way
  left_ -= text.size();
  return kept;
}

void label_cache::update() {
  const std::vector<site_info> added = copy_sites_from(static_cast<unsigned>(rows_.size()));
  if (added.empty()) return;
  const size_t known = by_name_.size();
  for (const site_info& site : added) {
    const unsigned id = static_cast<unsigned>(rows_.size());
    rows_.push_back(site.row);
    labels_.emplace_back();
    if (site.row != id) continue;
    function_labels& labels = labels_.back();
    labels.where = {keep(site.name), keep(site.file), site.line};
    labels.text = keep(function_label_text(site.name, site.file, site.line));
    by_name_.push_back(id);
  }
  const auto before = [this](unsigned a, unsigned b) { return before_on_page(labels_[a].where, labels_[b].where); };
  std::sort(by_name_.begin() + static_cast<ptrdiff_t>(known), by_name_.end(), before);
  std::inplace_merge(by_name_.begin(), by_name_.begin() + static_cast<ptrdiff_t>(known), by_name_.end(), before);
}

}  // namespace perf::runtime
