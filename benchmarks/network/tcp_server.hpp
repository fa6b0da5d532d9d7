#pragma once
// Rank 1's side of the network family (tcp_protocol.hpp): a listening socket and a thread per
// connection, until rank 0 says quit or nobody has for too long.
#include <chrono>
#include <string>

namespace perfzero::network {

class Server {
 public:
  Server() = default;
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;
  ~Server();

  // Listens on `address` (a name or a number) at a port the kernel picks; false with `error` said.
  bool listen(const std::string& address, std::string& error);
  int port() const { return port_; }
  // Serves until a quit request, or until `idle_limit` passes with no request at all.
  void serve(std::chrono::seconds idle_limit);

 private:
  int fd_ = -1;
  int port_ = 0;
};

}  // namespace perfzero::network
