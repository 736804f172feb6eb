// The report format's escaping: JSON strings and metrics label values keep well-formed
// UTF-8 and replace every other byte of 0x80 and above alike, one U+FFFD each.
#include <gtest/gtest.h>

#include <string>

#include "report_format/escaping.hpp"

namespace perf::report_format {
namespace {

std::string label_value(std::string_view text) {
  std::string out;
  append_label_value(out, text);
  return out;
}

TEST(Escaping, JsonStringsQuoteAndEscapeControlCharacters) {
  EXPECT_EQ(json_string("a\"b\\c\n\r\t\x01 d"), R"("a\"b\\c\n\r\t\u0001 d")");
}

TEST(Escaping, LabelValuesEscapeBackslashQuoteAndLineFeedOnly) {
  EXPECT_EQ(label_value("a\"b\\c\n\r\t\x01 d"), "a\\\"b\\\\c\\n\r\t\x01 d");
}

TEST(Escaping, WellFormedUtf8IsKeptInBoth) {
  const std::string text = "\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80";  // é € 😀
  EXPECT_EQ(json_string(text), "\"" + text + "\"");
  EXPECT_EQ(label_value(text), text);
}

TEST(Escaping, EachByteOutsideAWellFormedSequenceBecomesOneReplacementInBoth) {
  // A character cut at the end (3 of 4 bytes), a stray continuation byte, a lead
  // byte followed by ASCII, and a byte no sequence starts with.
  const std::string text = std::string("x\xE2\x82") + "|" + "\x80" + "|" + "\xC3" + "a|" + "\xF8" + "|\xF0\x9F\x98";
  EXPECT_EQ(json_string(text), R"("x\ufffd\ufffd|\ufffd|\ufffda|\ufffd|\ufffd\ufffd\ufffd")");
  const std::string r = "\xEF\xBF\xBD";
  EXPECT_EQ(label_value(text), "x" + r + r + "|" + r + "|" + r + "a|" + r + "|" + r + r + r);
}

}  // namespace
}  // namespace perf::report_format
