// One parsed log line: an access or an error, each weighing differently.
#pragma once

#include <memory>
#include <string>

namespace logs {

class record {
 public:
  record(long timestamp, std::string path) : timestamp_(timestamp), path_(std::move(path)) {}
  virtual ~record() = default;
  // How much attention the line deserves in the summary.
  virtual int weight() const = 0;
  long timestamp() const { return timestamp_; }
  const std::string& path() const { return path_; }

 private:
  long timestamp_;
  std::string path_;
};

class access_record : public record {
 public:
  access_record(long timestamp, std::string path, int status) : record(timestamp, std::move(path)), status_(status) {}
  [[perf::measure]] int weight() const override { return status_ >= 400 ? 5 : 1; }

 private:
  int status_;
};

class error_record : public record {
 public:
  using record::record;
  [[perf::measure]] int weight() const override { return 20; }
};

}  // namespace logs
