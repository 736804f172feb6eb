#include "export/server.hpp"

#include <dlfcn.h>
#include <pthread.h>
#include <signal.h>
#include <unistd.h>

#include <cstdlib>
#include <mutex>
#include <thread>

#include "core/startup.hpp"
#include "core/warnings.hpp"
#include "export/endpoint.hpp"
#include "export/served_snapshot.hpp"

// Defined when the transport is linked into the program itself (the tests' runtime
// variants, which are not shared libraries); else null, and the runtime loads it.
extern "C" __attribute__((weak, visibility("default"))) const perf::runtime::transport_functions*
perf_export_transport_v1();

namespace perf::runtime {
namespace {

// libperfexport's file name: lib<name>.so.<SOVERSION> (runtime/export/CMakeLists.txt).
constexpr const char* transport_file = "libperfexport.so.0";

struct running_server {
  const transport_functions* functions = nullptr;
  transport* handle = nullptr;
  std::thread thread;
  endpoint pages;
  listen_address address;  // its Unix socket file, if any, is removed when it stops
};

std::mutex server_mutex;
running_server* server = nullptr;  // guarded by server_mutex

// The transport from the directory libperfrt itself was loaded from, so that a
// program needs no build change and no library path to use it.
const transport_functions* load_transport(std::string& error) {
  if (perf_export_transport_v1 != nullptr) return perf_export_transport_v1();
  Dl_info self{};
  std::string path = transport_file;
  if (dladdr(reinterpret_cast<void*>(&load_transport), &self) != 0 && self.dli_fname != nullptr) {
    const std::string runtime_file = self.dli_fname;
    const size_t slash = runtime_file.rfind('/');
    if (slash != std::string::npos) path = runtime_file.substr(0, slash + 1) + transport_file;
  }
  void* library = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (library == nullptr) {
    error = std::string("cannot load the HTTP transport: ") + dlerror();
    return nullptr;
  }
  auto entry = reinterpret_cast<perf_export_transport_fn>(dlsym(library, "perf_export_transport_v1"));
  if (entry == nullptr) {
    error = "cannot load the HTTP transport: " + path + " has no perf_export_transport_v1";
    return nullptr;
  }
  return entry();
}

// The server thread takes no signal meant for the program (a SIGTERM the program
// waits for with sigwait, say), nor the sampler's: only faults it causes itself.
void block_asynchronous_signals() {
  sigset_t signals;
  sigfillset(&signals);
  for (int fault : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTRAP}) sigdelset(&signals, fault);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);
}

void serve(running_server* s) {
  pthread_setname_np(pthread_self(), "perf-export");
  become_server_thread();
  s->functions->serve(s->handle);
}

}  // namespace

bool start_server(listen_address& address, const transport_limits& limits, std::string& error) {
  const std::lock_guard<std::mutex> lock(server_mutex);
  if (server != nullptr) {
    error = "the live endpoint is already running";
    return false;
  }
  const transport_functions* functions = load_transport(error);
  if (functions == nullptr) return false;
  const int fd = open_listen_socket(address, error);
  if (fd < 0) return false;
  auto* s = new running_server;
  s->functions = functions;
  s->address = address;
  s->handle = functions->open(fd, limits, s->pages, error);
  if (s->handle == nullptr) {
    remove_socket_file(address);
    delete s;
    return false;
  }
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
  return true;
}

void stop_server() {
  const std::lock_guard<std::mutex> lock(server_mutex);
  if (server == nullptr) return;
  server->functions->stop(server->handle);
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
  const char* value = std::getenv("PERF_LISTEN");
  if (value == nullptr || *value == '\0') return;
  std::string error;
  std::optional<listen_address> address = parse_listen_address(value, error);
  if (address && !address->loopback)
    warn("PERF_LISTEN='" + std::string(value) +
         "' serves the statistics and profiles beyond this machine, without authentication");
  const bool any_port = address && address->kind != listen_address::family::unix_socket && address->port == 0;
  if (!address || !start_server(*address, transport_limits{}, error)) {
    warn(error + "; the live endpoint is off");
    return;
  }
  if (any_port) warn("live endpoint at http://" + describe(*address) + "/");
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
