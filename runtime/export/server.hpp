// The live endpoint's server: one background thread serving the endpoint's pages
// through the HTTP transport (libperfexport), started at start-up when PERF_LISTEN
// is set and stopped before the exit outputs are written.
#ifndef PERF_RUNTIME_EXPORT_SERVER_HPP
#define PERF_RUNTIME_EXPORT_SERVER_HPP

#include <string>

#include "export/listen_address.hpp"
#include "export/transport.hpp"

namespace perf::runtime {

// Binds `address` (its port becomes the bound one), loads the transport and starts
// the server thread. Returns an empty string, or the problem of the step that
// failed; nothing is left running then. At most one server per process: a problem
// while one runs.
[[nodiscard]] std::string start_server(listen_address& address, const transport_limits& limits);

// Stops the server thread and closes its connections and socket, if one runs, and
// removes the Unix socket file it made; requests under way get 503. Waits for the
// thread at most a second; one that has not returned by then (something it waits
// on is gone) is left to the process's end, its descriptors untouched. If the
// program closed or replaced the server's descriptors, none of their numbers is
// written or closed. Not from the server thread.
void stop_server();

}  // namespace perf::runtime

#endif  // PERF_RUNTIME_EXPORT_SERVER_HPP
