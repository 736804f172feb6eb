#include "export/endpoint.hpp"

#include <charconv>
#include <memory>
#include <optional>

#include "export/metrics.hpp"
#include "export/served_snapshot.hpp"
#include "export/time_windows.hpp"
#include "heap/heap_pprof.hpp"
#include "heap/heap_profile.hpp"
#include "sampler/profile_formats.hpp"

namespace perf::runtime {
namespace {

constexpr unsigned max_window_seconds = 300;

http_response text(int status, std::string body) {
  return {status, "text/plain; charset=utf-8", std::move(body), {}, {}, {}};
}

const char* const index_page =
    "perf-instrument live endpoint\n"
    "/metrics                      Prometheus text 0.0.4, or OpenMetrics 1.0 when asked for\n"
    "/report                       the report as the program would print it now\n"
    "/report.json                  the same as JSON\n"
    "/debug/pprof/profile?seconds=N  CPU profile of the next N seconds (pprof, default 30)\n"
    "/debug/pprof/heap             sampled heap profile: live bytes first (pprof; PERF_HEAP_SAMPLE)\n"
    "/debug/pprof/allocs           the same: bytes allocated since start-up first\n"
    "/trace?seconds=N              tick log of the next N seconds (Chrome/Perfetto JSON, default 1)\n";

// The `seconds` argument: `fallback` when absent; nothing when not a number from 1
// to max_window_seconds.
std::optional<unsigned> window_seconds(const http_request& request, unsigned fallback) {
  for (const auto& [key, value] : request.query) {
    if (key != "seconds") continue;
    unsigned seconds = 0;
    const auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), seconds);
    if (error != std::errc() || end != value.data() + value.size() || seconds == 0 || seconds > max_window_seconds)
      return std::nullopt;
    return seconds;
  }
  return fallback;
}

// A reply after the `seconds` of the request: `start()` begins the window (nothing
// when it cannot: 404), what it returns gives the body when the window ends, and
// `respond` makes that body the response.
template <typename Start, typename Respond>
http_reply window(const http_request& request, unsigned default_seconds, Start start, Respond respond,
                  const char* unavailable) {
  const std::optional<unsigned> seconds = window_seconds(request, default_seconds);
  if (!seconds) return {text(400, "seconds must be a whole number from 1 to 300\n"), {}, {}};
  auto finish = start();
  if (!finish) return {text(404, unavailable), {}, {}};
  http_reply reply;
  reply.delay = std::chrono::seconds(*seconds);
  reply.later = [finish = std::move(*finish), respond] { return respond(finish()); };
  return reply;
}

// A pprof profile as Go's net/http/pprof serves it: a download named after the profile.
http_response pprof_response(std::string body, const char* name) {
  return {200,
          "application/octet-stream",
          std::move(body),
          {},
          {},
          {{"Content-Disposition", std::string("attachment; filename=\"") + name + "\""}}};
}

http_response profile_response(std::string body) { return pprof_response(std::move(body), "profile"); }

// An error on a pprof path, marked as Go's are: pprof, fetching it, then shows the
// text and not only the status.
void mark_pprof_error(http_response& response) { response.headers.emplace_back("X-Go-Pprof", "1"); }

http_response pprof_error(int status, std::string message) {
  http_response response = text(status, std::move(message));
  mark_pprof_error(response);
  return response;
}

// The heap profile now, as Go serves /debug/pprof/heap and /debug/pprof/allocs. Not a
// delta over `seconds` (Go's, with that argument): refused rather than answered with
// the whole profile the client did not ask for.
http_response heap_response(const http_request& request, heap_pprof_view view) {
  for (const auto& argument : request.query)
    if (argument.first == "seconds")
      return pprof_error(
          400, "no delta profile over seconds=N: fetch the profile twice and compare with pprof -diff_base\n");
  const heap_profile p = heap_profile_snapshot();
  if (p.sample_bytes == 0) return pprof_error(404, std::string(heap_sampling_off) + "\n");
  return pprof_response(gzip(encode_heap_pprof(p, view)), view == heap_pprof_view::heap ? "heap" : "allocs");
}

http_response trace_response(body_writer body) {
  http_response response{200, "application/json", {}, {}, {}, {}};
  response.stream = std::move(body);
  return response;
}

bool reads_every_thread(const std::string& path) {
  return path == "/metrics" || path == "/report" || path == "/report.json" || path == "/debug/pprof/heap" ||
         path == "/debug/pprof/allocs";
}

}  // namespace

http_reply endpoint::costly_page(const http_request& request) {
  const std::string& path = request.path;
  const page_budget::clock::time_point start = page_budget::clock::now();
  if (request.others_waiting && !budget_.admits(start)) {
    http_response busy = text(503, "the endpoint is busy; try again later\n");
    busy.headers.emplace_back("Retry-After", "1");
    if (path.compare(0, 13, "/debug/pprof/") == 0) mark_pprof_error(busy);
    return {std::move(busy), {}, {}};
  }
  http_reply reply;
  if (path == "/metrics") {
    const metrics_format format = metrics_format_for(request.accept);
    auto page = std::make_shared<metrics_page>(served_metrics(), format);
    reply.response = {200, metrics_content_type(format), {}, {}, {}, {}};
    reply.response.stream = [page, this](char* out, size_t room) {
      const page_budget::clock::time_point piece = page_budget::clock::now();
      const size_t written = page->read(out, room);
      budget_.spent(piece, page_budget::clock::now());
      return written;
    };
  } else if (path == "/report") {
    reply.response = text(200, format_text(served_snapshot()));
  } else if (path == "/report.json") {
    reply.response = {200, "application/json", format_json(served_snapshot()), {}, {}, {}};
  } else {
    reply.response =
        heap_response(request, path == "/debug/pprof/heap" ? heap_pprof_view::heap : heap_pprof_view::allocs);
  }
  budget_.spent(start, page_budget::clock::now());
  return reply;
}

http_reply endpoint::answer(const http_request& request) {
  if (request.method != "GET" && request.method != "HEAD") {
    http_response refused = text(405, "only GET and HEAD\n");
    refused.allow = "GET, HEAD";
    return {refused, {}, {}};
  }
  const std::string& path = request.path;
  if (reads_every_thread(path)) return costly_page(request);
  if (path == "/debug/pprof/profile") {
    http_reply reply =
        window(request, 30, start_profile_window, profile_response, "sampling is off (PERF_SAMPLE_HZ=0)\n");
    if (!reply.later) mark_pprof_error(reply.response);
    return reply;
  }
  if (path == "/trace") {
    if (trace_under_way_) return {text(503, "another /trace is under way; one at a time\n"), {}, {}};
    http_reply reply = window(request, 1, start_trace_window, trace_response, "the tick log is off (PERF_TICKS=off)\n");
    if (!reply.later) return reply;
    // The reply holds the slot until the transport lets it go: answered and sent,
    // refused, or the program exiting.
    auto slot = std::shared_ptr<bool>(&trace_under_way_, [](bool* taken) { *taken = false; });
    trace_under_way_ = true;
    reply.later = [later = std::move(reply.later), slot] { return later(); };
    return reply;
  }
  if (path == "/") return {text(200, index_page), {}, {}};
  return {text(404, "not found; see /\n"), {}, {}};
}

}  // namespace perf::runtime
