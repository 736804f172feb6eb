#include "edit_set.hpp"

namespace perf::tool {

void edit_set::insert(const std::string& real_path, unsigned offset, std::string text) {
  std::lock_guard lock(mutex_);
  insertions_[real_path].emplace(offset, std::move(text));
}

void edit_set::prefix(const std::string& real_path) {
  std::lock_guard lock(mutex_);
  insertions_[real_path];
}

void edit_set::select(selected_function function) {
  std::lock_guard lock(mutex_);
  selected_.insert(std::move(function));
}

void edit_set::read(const std::string& real_path) {
  std::lock_guard lock(mutex_);
  files_read_.insert(real_path);
}

std::map<std::string, std::map<unsigned, std::string>> edit_set::insertions() const {
  std::lock_guard lock(mutex_);
  return insertions_;
}

std::set<selected_function> edit_set::selected() const {
  std::lock_guard lock(mutex_);
  return selected_;
}

std::set<std::string> edit_set::files_read() const {
  std::lock_guard lock(mutex_);
  return files_read_;
}

std::string apply_insertions(std::string_view original, const std::map<unsigned, std::string>& insertions,
                             std::string_view prefix) {
  std::string out(prefix);
  size_t done = 0;
  for (const auto& [offset, text] : insertions) {
    out.append(original.substr(done, offset - done));
    out += text;
    done = offset;
  }
  out.append(original.substr(done));
  return out;
}

}  // namespace perf::tool
