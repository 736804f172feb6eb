#include "report_sax.hpp"

namespace perf::report_tool {
namespace {

using nlohmann::json;
using dom_builder = nlohmann::detail::json_sax_dom_parser<json>;

// Routes the parser's events: the top level and each functions[] element to a JSON
// builder, histogram entries to a parsed_histogram.
class report_events {
 public:
  explicit report_events(parsed_report& out) : out_(out), top_(out.document) {}

  bool null() { return scalar([](auto& b) { return b.null(); }); }
  bool boolean(bool v) { return scalar([&](auto& b) { return b.boolean(v); }); }
  bool number_integer(json::number_integer_t v) { return scalar([&](auto& b) { return b.number_integer(v); }); }
  bool number_unsigned(json::number_unsigned_t v) {
    if (state_ == state::entry && skip_ == 0) {
      if (entry_size_ < 2) entry_[entry_size_] = v;
      ++entry_size_;
      return true;
    }
    return scalar([&](auto& b) { return b.number_unsigned(v); });
  }
  bool number_float(json::number_float_t v, const json::string_t& s) {
    return scalar([&](auto& b) { return b.number_float(v, s); });
  }
  bool string(json::string_t& v) { return scalar([&](auto& b) { return b.string(v); }); }
  bool binary(json::binary_t& v) { return scalar([&](auto& b) { return b.binary(v); }); }

  bool key(json::string_t& k) {
    if (state_ == state::top) {
      if (depth_ == 1 && k == "functions") {
        pending_functions_key_ = true;
        return true;
      }
      return top_.key(k);
    }
    if (state_ == state::element) {
      if (element_depth_ == 1 && k == "histogram") pending_histogram_key_ = true;
      return element_->key(k);
    }
    return true;
  }

  bool start_object(std::size_t n) { return start(n, true); }
  bool start_array(std::size_t n) { return start(n, false); }
  bool end_object() { return end(true); }
  bool end_array() { return end(false); }

  bool parse_error(std::size_t position, const std::string& token, const nlohmann::detail::exception& e) {
    return top_.parse_error(position, token, e);
  }

 private:
  enum class state { top, functions, element, histogram, entry };

  template <class Event>
  bool scalar(Event event) {
    switch (state_) {
      case state::top:
        flush_functions_key();
        return event(top_);
      case state::functions: {  // a scalar element: the reader will say it is not an object
        json value;
        dom_builder single(value);
        event(single);
        out_.functions->push_back(std::move(value));
        out_.histograms.emplace_back();
        return true;
      }
      case state::element:
        pending_histogram_key_ = false;
        return event(*element_);
      case state::histogram:
      case state::entry:
        if (skip_ == 0) out_.histograms.back().well_formed = false;
        return true;
    }
    return true;
  }

  bool start(std::size_t n, bool object) {
    switch (state_) {
      case state::top:
        if (pending_functions_key_ && depth_ == 1 && !object) {
          pending_functions_key_ = false;
          out_.functions.emplace();
          state_ = state::functions;
          return true;
        }
        flush_functions_key();
        ++depth_;
        return object ? top_.start_object(n) : top_.start_array(n);
      case state::functions:
        element_value_ = json();
        element_.emplace(element_value_);
        out_.histograms.emplace_back();
        state_ = state::element;
        element_depth_ = 1;
        return object ? element_->start_object(n) : element_->start_array(n);
      case state::element:
        if (pending_histogram_key_ && !object) {
          pending_histogram_key_ = false;
          element_->start_array(0);
          element_->end_array();
          state_ = state::histogram;
          return true;
        }
        pending_histogram_key_ = false;
        ++element_depth_;
        return object ? element_->start_object(n) : element_->start_array(n);
      case state::histogram:
        if (object || skip_ > 0) {
          out_.histograms.back().well_formed = false;
          ++skip_;
          return true;
        }
        state_ = state::entry;
        entry_size_ = 0;
        return true;
      case state::entry:
        out_.histograms.back().well_formed = false;
        ++skip_;
        return true;
    }
    return true;
  }

  bool end(bool object) {
    switch (state_) {
      case state::top:
        --depth_;
        return object ? top_.end_object() : top_.end_array();
      case state::functions:
        state_ = state::top;
        return true;
      case state::element: {
        const bool ok = object ? element_->end_object() : element_->end_array();
        if (--element_depth_ == 0) {
          element_.reset();
          out_.functions->push_back(std::move(element_value_));
          state_ = state::functions;
        }
        return ok;
      }
      case state::histogram:
        if (skip_ > 0)
          --skip_;
        else
          state_ = state::element;
        return true;
      case state::entry:
        if (skip_ > 0) {
          --skip_;
          return true;
        }
        if (entry_size_ != 2)
          out_.histograms.back().well_formed = false;
        else if (entry_[1] != 0)
          out_.histograms.back().buckets.emplace_back(static_cast<unsigned>(entry_[0]), entry_[1]);
        state_ = state::histogram;
        return true;
    }
    return true;
  }

  // "functions" whose value is not an array stays in the document, for the reader to refuse.
  void flush_functions_key() {
    if (!pending_functions_key_) return;
    pending_functions_key_ = false;
    std::string key = "functions";
    top_.key(key);
  }

  parsed_report& out_;
  dom_builder top_;
  state state_ = state::top;
  int depth_ = 0;
  bool pending_functions_key_ = false;
  json element_value_;
  std::optional<dom_builder> element_;
  int element_depth_ = 0;
  bool pending_histogram_key_ = false;
  int skip_ = 0;
  uint64_t entry_[2] = {0, 0};
  int entry_size_ = 0;
};

}  // namespace

parsed_report parse_report_text(const std::string& text) {
  parsed_report out;
  report_events events(out);
  json::sax_parse(text, &events);
  return out;
}

}  // namespace perf::report_tool
