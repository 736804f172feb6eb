#include "export/server.hpp"

#include <dlfcn.h>
#include <pthread.h>
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <future>
#include <mutex>
#include <thread>

#include "core/runtime_thread.hpp"
#include "core/startup.hpp"
#include "core/warnings.hpp"
#include "export/endpoint.hpp"
#include "export/listen_config.hpp"
#include "export/served_snapshot.hpp"

// Defined when the transport is linked into the program itself (the tests' runtime
// variants, which are not shared libraries); else null, and the runtime loads it.
extern "C" __attribute__((weak, visibility("default"))) const perf::runtime::transport_functions*
perf_export_transport_v3();

namespace perf::runtime {
namespace {

// libperfexport's file name: lib<name>.so.<SOVERSION> (runtime/export/CMakeLists.txt).
constexpr const char* transport_file = "libperfexport.so.0";

struct running_server {
  const transport_functions* functions = nullptr;
  transport* handle = nullptr;
  std::thread thread;
  std::promise<void> served;  // set when serve() has returned
  std::atomic<bool> stopping{false};
  endpoint pages;
  listen_address address;  // its Unix socket file, if any, is removed when it stops
};

// How long stop_server() waits for the server thread: it answers within a round,
// unless something it waits on is gone; then the exit goes on without it.
constexpr std::chrono::seconds stop_deadline{1};

std::mutex server_mutex;
running_server* server = nullptr;  // guarded by server_mutex

// The transport from the directory libperfrt itself was loaded from, so that a
// program needs no build change and no library path to use it.
value_or_problem<const transport_functions*> load_transport() {
  if (perf_export_transport_v3 != nullptr) return {perf_export_transport_v3(), {}};
  Dl_info self{};
  std::string path = transport_file;
  if (dladdr(reinterpret_cast<void*>(&load_transport), &self) != 0 && self.dli_fname != nullptr) {
    const std::string runtime_file = self.dli_fname;
    const size_t slash = runtime_file.rfind('/');
    if (slash != std::string::npos) path = runtime_file.substr(0, slash + 1) + transport_file;
  }
  void* library = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (library == nullptr) return {nullptr, std::string("cannot load the HTTP transport: ") + dlerror()};
  auto entry = reinterpret_cast<perf_export_transport_fn>(dlsym(library, "perf_export_transport_v3"));
  if (entry == nullptr)
    return {nullptr, "cannot load the HTTP transport: " + path + " has no perf_export_transport_v3"};
  return {entry(), {}};
}

void serve(running_server* s) {
  pthread_setname_np(pthread_self(), "perf-export");
  become_server_thread();
  s->functions->serve(s->handle);
  if (!s->stopping.load())
    warn("the program closed or replaced the live endpoint's descriptors; the live endpoint is off");
  s->served.set_value();
}

}  // namespace

std::string start_server(listen_address& address, const transport_limits& limits) {
  const std::lock_guard<std::mutex> lock(server_mutex);
  if (server != nullptr) return "the live endpoint is already running";
  const value_or_problem<const transport_functions*> functions = load_transport();
  if (!functions.problem.empty()) return functions.problem;
  const value_or_problem<int> socket = open_listen_socket(address);
  if (!socket.problem.empty()) return socket.problem;
  auto* s = new running_server;
  s->functions = functions.value;
  s->address = address;
  value_or_problem<transport*> opened = functions.value->open(socket.value, limits, s->pages);
  if (!opened.problem.empty()) {
    remove_socket_file(address);
    delete s;
    return opened.problem;
  }
  s->handle = opened.value;
  // The thread starts with every asynchronous signal blocked (it inherits the mask).
  sigset_t all, previous;
  sigfillset(&all);
  pthread_sigmask(SIG_BLOCK, &all, &previous);
  s->thread = std::thread([s] {
    block_asynchronous_signals();
    serve(s);
  });
  pthread_sigmask(SIG_SETMASK, &previous, nullptr);
  server = s;
  return {};
}

void stop_server() {
  const std::lock_guard<std::mutex> lock(server_mutex);
  if (server == nullptr) return;
  server->stopping.store(true);
  server->functions->stop(server->handle);
  if (server->served.get_future().wait_for(stop_deadline) != std::future_status::ready) {
    // Left running, with what it uses, until the process ends.
    server->thread.detach();
    remove_socket_file(server->address);
    server = nullptr;
    return;
  }
  server->thread.join();
  server->functions->close(server->handle);
  remove_socket_file(server->address);
  delete server;
  server = nullptr;
}

namespace {

// After every PERF_RUNTIME_ON_START function, so the server never sees a
// registration list half made.
PERF_RUNTIME_AFTER_START(start_listening) {
  const listen_config& config = current_listen_config();
  if (!config.address) return;
  listen_address address = *config.address;
  const bool any_port = address.kind != listen_address::family::unix_socket && address.port == 0;
  if (const std::string problem = start_server(address, transport_limits{}); !problem.empty()) {
    warn(problem + "; the live endpoint is off");
    return;
  }
  if (any_port) warn("live endpoint at http://" + describe(address) + "/");
}

// A forked child has no server thread (fork copies only the calling thread): it
// forgets the parent's server instead of stopping a thread that is not there. Its
// copies of the sockets stay open until it exits or execs (they are close-on-exec).
void forget_server_in_child() { server = nullptr; }

PERF_RUNTIME_ON_START(register_server_stop) {
  add_exit_quiet(stop_server);
  pthread_atfork(nullptr, nullptr, forget_server_in_child);
}

}  // namespace
}  // namespace perf::runtime
