// The live endpoint's pages: which path gives what (docs/live.md).
#ifndef PERF_RUNTIME_EXPORT_ENDPOINT_HPP
#define PERF_RUNTIME_EXPORT_ENDPOINT_HPP

#include "export/transport.hpp"

namespace perf::runtime {

// Answers GET and HEAD of /metrics, /report, /report.json, /debug/pprof/profile and
// /trace, and / (an index); 404 for other paths, 405 for other methods, 400 for a
// bad `seconds`. Nothing of a request reaches a file or a shell: it only picks a
// page and a duration.
class endpoint final : public http_handler {
 public:
  http_reply answer(const http_request& request) override;
};

}  // namespace perf::runtime

#endif  // PERF_RUNTIME_EXPORT_ENDPOINT_HPP
