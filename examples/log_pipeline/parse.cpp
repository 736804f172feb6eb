#include "parse.hpp"

#include <charconv>
#include <string>

namespace logs {
namespace {

[[perf::measure]] long parse_timestamp(std::string_view field) {
  long value = 0;
  const auto [end, error] = std::from_chars(field.data(), field.data() + field.size(), value);
  if (error != std::errc() || end != field.data() + field.size()) throw parse_error("bad timestamp");
  return value;
}

std::string_view next_field(std::string_view& rest) {
  const size_t space = rest.find(' ');
  const std::string_view field = rest.substr(0, space);
  rest = space == std::string_view::npos ? std::string_view() : rest.substr(space + 1);
  return field;
}

}  // namespace

std::unique_ptr<record> parse_line(std::string_view line) {
  std::string_view rest = line;
  const long timestamp = parse_timestamp(next_field(rest));
  const std::string_view kind = next_field(rest);
  const std::string path(next_field(rest));
  if (kind == "ERR") return std::make_unique<error_record>(timestamp, path);
  if (kind != "GET") throw parse_error("unknown kind");
  return std::make_unique<access_record>(timestamp, path, static_cast<int>(parse_timestamp(next_field(rest))));
}

}  // namespace logs
