#pragma once
// A real MLflow tracking server for a test: `mlflow server` from the test environment (build/venv, or
// $PERFZERO_VENV) on loopback with a SQLite store and --serve-artifacts under a temporary directory,
// stopped (SIGTERM to its process group, then SIGKILL) at the end. Read back through MLflow's REST
// API with curl, as a user's script would. Also a stand-in that answers HTTP 500 to every request:
// a server that refuses (Debian's python3 and its http.server).
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "../unit/external_tool.hpp"
#include "../unit/influxd_server.hpp"  // free_loopback_port
#include "perfzero_runner.hpp"

namespace perfzero::testing {

// A process started in its own process group (so that its workers end with it), output to `log`.
class BackgroundProcess {
 public:
  BackgroundProcess() = default;
  BackgroundProcess(const std::vector<std::string>& argv, const std::filesystem::path& log) {
    pid_ = ::fork();
    if (pid_ == 0) {
      ::setpgid(0, 0);
      const int fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      if (fd < 0 || ::dup2(fd, 1) < 0 || ::dup2(fd, 2) < 0) ::_exit(126);
      std::vector<char*> raw;
      for (const auto& a : argv) raw.push_back(const_cast<char*>(a.c_str()));
      raw.push_back(nullptr);
      ::execv(raw[0], raw.data());
      ::_exit(127);
    }
  }
  ~BackgroundProcess() { stop(); }
  BackgroundProcess(const BackgroundProcess&) = delete;
  BackgroundProcess& operator=(const BackgroundProcess&) = delete;

  bool exited() {
    if (pid_ <= 0) return true;
    if (::waitpid(pid_, nullptr, WNOHANG) != pid_) return false;
    pid_ = -1;
    return true;
  }
  void stop() {
    if (pid_ <= 0) return;
    ::kill(-pid_, SIGTERM);
    for (int i = 0; i < 100; ++i) {
      if (exited()) return;
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    ::kill(-pid_, SIGKILL);
    ::waitpid(pid_, nullptr, 0);
    pid_ = -1;
  }

 private:
  pid_t pid_ = -1;
};

inline std::string tail_of(const std::filesystem::path& file) {
  const std::string all = slurp(file);
  return all.size() > 600 ? all.substr(all.size() - 600) : all;
}

class MlflowServer {
 public:
  explicit MlflowServer(const std::filesystem::path& dir) : dir_(dir) {
    std::filesystem::create_directories(dir);
    const char* venv = std::getenv("PERFZERO_VENV");
    const std::filesystem::path mlflow =
        std::filesystem::path(venv != nullptr ? venv : (kSourceDir / "build" / "venv").string()) / "bin" / "mlflow";
    if (!std::filesystem::exists(mlflow)) {
      why_not_ = mlflow.string() + " is missing (scripts/install-deps.sh installs MLflow into build/venv)";
    } else if (!find_program("curl")) {
      why_not_ = "curl is not installed";
    } else {
      for (int attempt = 0; attempt < 2 && !started_; ++attempt) started_ = start(mlflow);
    }
  }

  bool started() const { return started_; }
  const std::string& why_not() const { return why_not_; }
  std::string url() const { return "http://127.0.0.1:" + std::to_string(port_); }
  const std::filesystem::path& dir() const { return dir_; }

  // GET /api/2.0/mlflow/<path>; the JSON answer (discarded when it is not JSON).
  nlohmann::json get(const std::string& path) const {
    return nlohmann::json::parse(run_command("curl -sS " + shell_quote(url() + "/api/2.0/mlflow/" + path)).output,
                                 nullptr, false);
  }
  nlohmann::json post(const std::string& path, const nlohmann::json& body) const {
    return nlohmann::json::parse(
        run_command("curl -sS -H 'Content-Type: application/json' -d " + shell_quote(body.dump()) + " " +
                    shell_quote(url() + "/api/2.0/mlflow/" + path))
            .output,
        nullptr, false);
  }
  // An artifact's bytes, through the server's artifact proxy.
  std::string artifact(const std::string& experiment_id, const std::string& run_id, const std::string& path) const {
    return run_command("curl -sS " + shell_quote(url() + "/api/2.0/mlflow-artifacts/artifacts/" + experiment_id + "/" +
                                                 run_id + "/artifacts/" + path))
        .output;
  }

 private:
  bool start(const std::filesystem::path& mlflow) {
    port_ = free_loopback_port();
    const auto db = dir_ / "mlflow.sqlite";
    process_ = std::make_unique<BackgroundProcess>(
        std::vector<std::string>{mlflow.string(), "server", "--backend-store-uri", "sqlite:///" + db.string(), "--host",
                                 "127.0.0.1", "--port", std::to_string(port_), "--workers", "1", "--serve-artifacts",
                                 "--artifacts-destination", (dir_ / "artifacts").string()},
        dir_ / "mlflow.log");
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (std::chrono::steady_clock::now() < deadline) {
      if (process_->exited()) {
        why_not_ = "mlflow server exited at start: " + tail_of(dir_ / "mlflow.log");
        return false;
      }
      // /health answers once the app is loaded; an experiment list proves the store is up too.
      const auto r = get("experiments/search?max_results=1");
      if (r.is_object() && r.contains("experiments")) return true;
      std::this_thread::sleep_for(std::chrono::milliseconds(200));
    }
    why_not_ = "mlflow server did not answer within 60 s: " + tail_of(dir_ / "mlflow.log");
    process_->stop();
    return false;
  }

  std::filesystem::path dir_;
  std::unique_ptr<BackgroundProcess> process_;
  bool started_ = false;
  std::string why_not_;
  int port_ = 0;
};

// Answers every request with HTTP 500 and an MLflow-shaped error: a tracking server that refuses.
class RefusingServer {
 public:
  explicit RefusingServer(const std::filesystem::path& dir) {
    const auto script = dir / "refuse.py";
    std::ofstream(script) << R"(import http.server, sys
class Refuse(http.server.BaseHTTPRequestHandler):
    def refuse(self):
        self.rfile.read(int(self.headers.get("Content-Length") or 0))
        body = b'{"error_code": "INTERNAL_ERROR", "message": "refusing on purpose"}'
        self.send_response(500)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)
    do_GET = do_POST = do_PUT = refuse
    def log_message(self, *args):
        print(self.requestline, flush=True)
server = http.server.HTTPServer(("127.0.0.1", int(sys.argv[1])), Refuse)
print("listening", flush=True)
server.serve_forever()
)";
    log_ = dir / "refuse.log";
    port_ = free_loopback_port();
    process_ = std::make_unique<BackgroundProcess>(
        std::vector<std::string>{"/usr/bin/python3", script.string(), std::to_string(port_)}, log_);
    for (int i = 0; i < 100 && slurp(log_).find("listening") == std::string::npos; ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
  }
  std::string url() const { return "http://127.0.0.1:" + std::to_string(port_); }
  // The request lines it refused, one a line.
  std::string requests() const { return slurp(log_); }

 private:
  std::filesystem::path log_;
  int port_ = 0;
  std::unique_ptr<BackgroundProcess> process_;
};

}  // namespace perfzero::testing
