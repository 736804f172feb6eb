#include "report_format/escaping.hpp"

#include <fmt/format.h>

namespace perf::report_format {

namespace {

// Length of the well-formed UTF-8 sequence at the start of `text`, or 0.
size_t utf8_sequence_length(std::string_view text) {
  const auto byte = [&](size_t i) { return static_cast<unsigned char>(text[i]); };
  const unsigned char lead = byte(0);
  const size_t length = lead < 0x80             ? 1
                        : (lead & 0xE0) == 0xC0 ? 2
                        : (lead & 0xF0) == 0xE0 ? 3
                        : (lead & 0xF8) == 0xF0 ? 4
                                                : 0;
  if (length == 0 || length > text.size()) return 0;
  for (size_t i = 1; i < length; ++i)
    if ((byte(i) & 0xC0) != 0x80) return 0;
  return length;
}

// Appends the character at `text[i]` (a byte of 0x80 and above) to `out` if it starts
// a well-formed sequence, else U+FFFD as `replacement` spells it; returns the index
// of the character's last byte.
size_t append_non_ascii(std::string& out, std::string_view text, size_t i, std::string_view replacement) {
  const size_t length = utf8_sequence_length(text.substr(i));
  if (length == 0) {
    out += replacement;
    return i;
  }
  out.append(text.substr(i, length));
  return i + length - 1;
}

}  // namespace

std::string json_string(std::string_view text) {
  std::string out = "\"";
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (static_cast<unsigned char>(c) >= 0x80) {
      i = append_non_ascii(out, text, i, "\\ufffd");
      continue;
    }
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) out += fmt::format("\\u{:04x}", static_cast<unsigned>(c));
        else out += c;
    }
  }
  return out + "\"";
}

void append_label_value(std::string& out, std::string_view text) {
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '\\') out += "\\\\";
    else if (c == '"') out += "\\\"";
    else if (c == '\n') out += "\\n";
    else if (static_cast<unsigned char>(c) < 0x80) out += c;
    else i = append_non_ascii(out, text, i, "\xEF\xBF\xBD");
  }
}

}  // namespace perf::report_format
