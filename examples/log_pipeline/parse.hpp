// Turning text lines into records.
#pragma once

#include <memory>
#include <stdexcept>
#include <string_view>

#include "record.hpp"

namespace logs {

struct parse_error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// "<timestamp> <GET|ERR> <path> [status]"; throws parse_error on anything else.
[[perf::measure]] std::unique_ptr<record> parse_line(std::string_view line);

}  // namespace logs
