#pragma once
// A real InfluxDB 1.x server for a test: influxd started on loopback with free ports and its
// meta, data and WAL directories under a temporary directory, stopped (SIGTERM, then SIGKILL) at
// the end. Talked to with curl over HTTP (/ping, /query, /write), as a user would.
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>

#include <nlohmann/json.hpp>

#include "external_tool.hpp"

namespace perfzero::testing {

// A port nobody listens on now (the kernel's choice for port 0). Another process may take it
// before influxd binds it: start() tries again with new ports.
inline int free_loopback_port() {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof addr;
  int port = 0;
  if (::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0 &&
      ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) == 0) {
    port = ntohs(addr.sin_port);
  }
  ::close(fd);
  return port;
}

class InfluxdServer {
 public:
  explicit InfluxdServer(const std::filesystem::path& dir) : dir_(dir) {
    const auto influxd = find_program("influxd");
    curl_ = find_program("curl").value_or("");
    if (!influxd) {
      why_not_ = "influxd is not installed (Debian package influxdb)";
    } else if (curl_.empty()) {
      why_not_ = "curl is not installed";
    } else {
      for (int attempt = 0; attempt < 3 && !started_; ++attempt) started_ = start(*influxd);
    }
  }
  ~InfluxdServer() { stop(); }
  InfluxdServer(const InfluxdServer&) = delete;
  InfluxdServer& operator=(const InfluxdServer&) = delete;

  bool started() const { return started_; }
  const std::string& why_not() const { return why_not_; }

  // POST /query (CREATE DATABASE ...); the JSON answer.
  nlohmann::json query(const std::string& q, const std::string& db = "") const {
    std::string cmd = curl("-XPOST") + " " + url("/query?epoch=ns") + " --data-urlencode " + shell_quote("q=" + q);
    if (!db.empty()) cmd += " --data-urlencode " + shell_quote("db=" + db);
    const auto r = run_command(cmd);
    return nlohmann::json::parse(r.output, nullptr, false);
  }
  // POST /write with a file's body; the HTTP status and InfluxDB's answer ("204 " when written).
  std::string write(const std::string& db, const std::filesystem::path& body) const {
    const auto r = run_command(curl("-XPOST -w ' %{http_code}'") + " " + url("/write?precision=ns&db=" + db) +
                               " --data-binary @" + shell_quote(body.string()));
    return r.output;
  }

 private:
  std::string url(const std::string& path) const {
    return shell_quote("http://127.0.0.1:" + std::to_string(http_port_) + path);
  }
  std::string curl(const std::string& args) const { return shell_quote(curl_.string()) + " -sS " + args; }

  bool start(const std::filesystem::path& influxd) {
    http_port_ = free_loopback_port();
    const int rpc_port = free_loopback_port();
    const auto config = dir_ / "influxdb.conf";
    std::ofstream(config) << "reporting-disabled = true\nbind-address = \"127.0.0.1:" << rpc_port << "\"\n"
                          << "[meta]\n  dir = \"" << (dir_ / "meta").string() << "\"\n"
                          << "[data]\n  dir = \"" << (dir_ / "data").string() << "\"\n  wal-dir = \""
                          << (dir_ / "wal").string() << "\"\n  query-log-enabled = false\n"
                          << "[monitor]\n  store-enabled = false\n[subscriber]\n  enabled = false\n"
                          << "[continuous_queries]\n  enabled = false\n[retention]\n  enabled = false\n"
                          << "[shard-precreation]\n  enabled = false\n[http]\n  bind-address = \"127.0.0.1:"
                          << http_port_ << "\"\n  log-enabled = false\n";
    pid_ = ::fork();
    if (pid_ == 0) {
      const int log = ::open((dir_ / "influxd.log").c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      if (log < 0 || ::dup2(log, 1) < 0 || ::dup2(log, 2) < 0) ::_exit(126);
      ::execl(influxd.c_str(), "influxd", "run", "-config", config.c_str(), static_cast<char*>(nullptr));
      ::_exit(127);
    }
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    while (std::chrono::steady_clock::now() < deadline) {
      int status = 0;
      if (::waitpid(pid_, &status, WNOHANG) == pid_) {
        pid_ = -1;
        why_not_ = "influxd exited at start: " + tail_of_log();
        return false;
      }
      if (run_command(curl("-o /dev/null -w '%{http_code}'") + " " + url("/ping")).output == "204") return true;
      std::this_thread::sleep_for(std::chrono::milliseconds(200));
    }
    why_not_ = "influxd did not answer /ping within 30 s: " + tail_of_log();
    stop();
    return false;
  }

  void stop() {
    if (pid_ <= 0) return;
    ::kill(pid_, SIGTERM);
    for (int i = 0; i < 100; ++i) {
      if (::waitpid(pid_, nullptr, WNOHANG) == pid_) return void(pid_ = -1);
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    ::kill(pid_, SIGKILL);
    ::waitpid(pid_, nullptr, 0);
    pid_ = -1;
  }

  std::string tail_of_log() const {
    std::ifstream in(dir_ / "influxd.log");
    std::string all((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    return all.size() > 400 ? all.substr(all.size() - 400) : all;
  }

  std::filesystem::path dir_;
  std::filesystem::path curl_;
  bool started_ = false;
  std::string why_not_;
  int http_port_ = 0;
  pid_t pid_ = -1;
};

}  // namespace perfzero::testing
