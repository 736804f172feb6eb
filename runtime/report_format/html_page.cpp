#include "report_format/html_page.hpp"

#include "report_format/page_assets.hpp"

namespace perf::report_format {
namespace {

std::string html_escape(const std::string& text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

}  // namespace

std::string html_page(const std::string& title, const std::string& data_json) {
  std::string safe;
  safe.reserve(data_json.size());
  for (size_t i = 0; i < data_json.size(); ++i) {
    safe += data_json[i];
    if (data_json[i] == '<' && i + 1 < data_json.size() && data_json[i + 1] == '/') safe += '\\';
  }
  return "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>" + html_escape(title) +
         "</title>\n<style>" + page_style + "</style></head>\n<body>\n<script id=\"data\" type=\"application/json\">" +
         safe + "</script>\n<script>" + page_script + "</script>\n</body></html>\n";
}

}  // namespace perf::report_format
