// The live endpoint's pages: which path gives what (docs/live.md).
#ifndef PERF_RUNTIME_EXPORT_ENDPOINT_HPP
#define PERF_RUNTIME_EXPORT_ENDPOINT_HPP

#include "export/page_budget.hpp"
#include "export/transport.hpp"

namespace perf::runtime {

// Answers GET and HEAD of /metrics, /report, /report.json, /debug/pprof/profile,
// /debug/pprof/heap, /debug/pprof/allocs and /trace, and / (an index); 404 for other
// paths and for a profile that is off, 405 for other methods, 400 for a bad `seconds`
// (and for any `seconds` on the heap's two). Nothing of a request reaches a file or a
// shell: it only picks a page and a duration. One /trace at a time (it copies every
// thread's tick ring): another gets 503 until the first's reply is sent. The pages
// that read every thread's figures get 503 beyond their share of the server
// thread's time while other clients wait (page_budget).
class endpoint final : public http_handler {
 public:
  http_reply answer(const http_request& request) override;

 private:
  // The page of a path that reads every thread's figures, within the budget.
  http_reply costly_page(const http_request& request);

  // Taken from the request to the end of its reply; the server thread alone
  // touches it, and the thread that stops the server once it has joined it.
  bool trace_under_way_ = false;
  page_budget budget_;  // the server thread's
};

}  // namespace perf::runtime

#endif  // PERF_RUNTIME_EXPORT_ENDPOINT_HPP
