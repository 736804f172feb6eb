#include "lib/launch/plan_cache.hpp"

#include <llvm/Support/JSON.h>
#include <llvm/Support/raw_ostream.h>

#include <sys/stat.h>

#include "lib/files.hpp"
#include "lib/install_layout.hpp"

namespace perf::tool {
namespace {

namespace json = llvm::json;

// What a file read by a plan must still be for the plan to hold: a project file's
// text (its hash), another file's size and modification time. "" when it is gone.
std::string signature(const std::string& path, bool in_project) {
  if (in_project) {
    const std::optional<std::string> text = read_file(path);
    return text ? "text " + hash_of({*text}) : "";
  }
  struct stat status {};
  if (::stat(path.c_str(), &status) != 0) return "";
  return "stat " + std::to_string(status.st_size) + " " + std::to_string(status.st_mtim.tv_sec) + "." +
         std::to_string(status.st_mtim.tv_nsec);
}

json::Value to_json(const rewrite_plan& plan) {
  json::Object inputs;
  for (const std::string& path : plan.inputs) inputs[path] = signature(path, plan.files_read.count(path) != 0);
  json::Object files;
  for (const auto& [path, edits] : plan.edits.files) {
    json::Array replacements;
    for (const auto& [offset, change] : edits.replacements)
      replacements.push_back(json::Array{offset, change.length, change.text});
    files[path] = json::Object{{"prefix", edits.prefix}, {"replacements", std::move(replacements)}};
  }
  json::Array functions;
  for (const selected_function& f : plan.edits.functions)
    functions.push_back(json::Array{f.file, f.line, f.column, f.name, f.skip_reason, f.renamed_by, f.marked});
  return json::Object{{"inputs", std::move(inputs)},
                      {"files_read", json::Array(plan.files_read)},
                      {"files", std::move(files)},
                      {"functions", std::move(functions)}};
}

// The plan `value` holds; nullopt when it is not one or a file it read changed.
std::optional<rewrite_plan> from_json(const json::Value& value) {
  const json::Object* entry = value.getAsObject();
  const json::Object* inputs = entry ? entry->getObject("inputs") : nullptr;
  const json::Array* files_read = entry ? entry->getArray("files_read") : nullptr;
  const json::Object* files = entry ? entry->getObject("files") : nullptr;
  const json::Array* functions = entry ? entry->getArray("functions") : nullptr;
  if (!inputs || !files_read || !files || !functions) return std::nullopt;
  rewrite_plan plan;
  for (const json::Value& path : *files_read) {
    if (!path.getAsString()) return std::nullopt;
    plan.files_read.insert(path.getAsString()->str());
  }
  for (const auto& [path, recorded] : *inputs) {
    const auto expected = recorded.getAsString();
    if (!expected || expected->empty() || *expected != signature(path.str(), plan.files_read.count(path.str()) != 0))
      return std::nullopt;
    plan.inputs.insert(path.str());
  }
  for (const auto& [path, edits] : *files) {
    const json::Object* fields = edits.getAsObject();
    const json::Array* replacements = fields ? fields->getArray("replacements") : nullptr;
    if (!replacements) return std::nullopt;
    file_edits& made = plan.edits.files[path.str()];
    if (const auto prefix = fields->getBoolean("prefix")) made.prefix = *prefix;
    for (const json::Value& replacement : *replacements) {
      const json::Array* parts = replacement.getAsArray();
      if (!parts || parts->size() != 3 || !(*parts)[0].getAsInteger() || !(*parts)[1].getAsInteger() ||
          !(*parts)[2].getAsString())
        return std::nullopt;
      made.replacements[static_cast<unsigned>(*(*parts)[0].getAsInteger())] = {
          static_cast<unsigned>(*(*parts)[1].getAsInteger()), (*parts)[2].getAsString()->str()};
    }
  }
  for (const json::Value& function : *functions) {
    const json::Array* parts = function.getAsArray();
    if (!parts || parts->size() != 7 || !(*parts)[6].getAsBoolean()) return std::nullopt;
    auto text = [&](std::size_t i) {
      const auto value = (*parts)[i].getAsString();
      return value ? value->str() : std::string();
    };
    auto number = [&](std::size_t i) {
      const auto value = (*parts)[i].getAsInteger();
      return value ? static_cast<unsigned>(*value) : 0u;
    };
    plan.edits.functions.insert(
        {text(0), number(1), number(2), text(3), text(4), text(5), *(*parts)[6].getAsBoolean()});
  }
  return plan;
}

}  // namespace

plan_cache::plan_cache(const std::string& directory, const std::string& configuration) {
  const std::string tool = binary_path();
  path_ = directory + "/" + hash_of({configuration, tool, signature(tool, false)}) + ".json";
}

std::optional<rewrite_plan> plan_cache::load() const {
  const std::optional<std::string> text = read_file(path_);
  if (!text) return std::nullopt;
  llvm::Expected<json::Value> value = json::parse(*text);
  if (!value) {
    llvm::consumeError(value.takeError());
    return std::nullopt;
  }
  return from_json(*value);
}

void plan_cache::store(const rewrite_plan& plan) const {
  std::string text;
  llvm::raw_string_ostream(text) << to_json(plan);
  llvm::consumeError(write_files_atomically({{path_, text}}));
}

}  // namespace perf::tool
