// A daemon that closes every descriptor it inherited, run with PERF_LISTEN set: the
// endpoint's descriptors go with them and their numbers are reused by the program.
//   closing_daemon_probe DIR SOCKET  with PERF_LISTEN=SOCKET: connects to the endpoint
//                             and sends half a request, so that the endpoint holds a
//                             connection too; closefrom(3); then 16 files DIR/data0
//                             ... DIR/data15 opened (they take the endpoint's old
//                             numbers) and "program data N\n" written to each; then
//                             the server stopped as the exit stops it. Prints on
//                             stderr "stopped in N ms", then "descriptor N closed"
//                             for each of the program's descriptors no longer open;
//                             exits 0.
#include <fcntl.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>
#include <thread>

#include "export/server.hpp"

int main(int argc, char** argv) {
  if (argc != 3) return 2;
  const int client = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  std::strncpy(address.sun_path, argv[2], sizeof address.sun_path - 1);
  const char half_request[] = "GET /metrics HTTP/1.1\r\nHost: x\r\n";
  if (connect(client, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0 ||
      write(client, half_request, sizeof half_request - 1) < 0)
    return 1;
  std::this_thread::sleep_for(std::chrono::milliseconds(100));  // accepted and read meanwhile
  closefrom(3);
  int files[16];
  for (int i = 0; i < 16; ++i) {
    const std::string path = std::string(argv[1]) + "/data" + std::to_string(i);
    files[i] = open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    const std::string text = "program data " + std::to_string(i) + "\n";
    if (files[i] < 0 || write(files[i], text.data(), text.size()) != static_cast<ssize_t>(text.size())) return 1;
  }
  const auto start = std::chrono::steady_clock::now();
  perf::runtime::stop_server();
  const auto took = std::chrono::steady_clock::now() - start;
  std::fprintf(stderr, "stopped in %lld ms\n",
               static_cast<long long>(std::chrono::duration_cast<std::chrono::milliseconds>(took).count()));
  for (const int fd : files)
    if (fcntl(fd, F_GETFD) < 0) std::fprintf(stderr, "descriptor %d closed\n", fd);
  return 0;
}
