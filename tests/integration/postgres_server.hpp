#pragma once
// A real PostgreSQL server for a test: a cluster made with Debian's initdb in a temporary directory,
// started with pg_ctl, reachable only through a Unix socket in that directory (no TCP port, so tests
// running side by side never collide), stopped and removed at the end. PostgreSQL refuses to run as
// root: as root, the directory is given to `nobody` and the server runs as it (setpriv).
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "../unit/temp_dir.hpp"

namespace perfzero::testing {

class PostgresServer {
 public:
  PostgresServer() {
    const std::filesystem::path bin = "/usr/lib/postgresql/15/bin";
    if (!std::filesystem::exists(bin / "initdb")) {
      why_not_ = "PostgreSQL 15 is not installed (Debian package postgresql)";
      return;
    }
    const std::string dir = dir_.path().string();
    const std::string as_user = ::geteuid() == 0 ? "setpriv --reuid=nobody --regid=nogroup --clear-groups " : "";
    if (::geteuid() == 0 && !shell("chown nobody:nogroup " + dir + " && chmod 755 " + dir)) {
      why_not_ = "cannot give the cluster's directory to nobody";
      return;
    }
    ctl_ = as_user + (bin / "pg_ctl").string() + " -D " + dir + "/data";
    if (!shell(as_user + (bin / "initdb").string() + " -D " + dir + "/data -A trust -U perfzero -E UTF8 --no-sync > " +
               dir + "/initdb.log 2>&1")) {
      why_not_ = "initdb failed (see its log)";
      return;
    }
    if (!shell(ctl_ + " -l " + dir + "/server.log -w -o \"-k " + dir +
               " -c listen_addresses='' -p 54329 -c fsync=off\" start > /dev/null 2>&1")) {
      why_not_ = "pg_ctl start failed";
      return;
    }
    started_ = true;
    url_ = "postgresql://perfzero@/postgres?host=" + dir + "&port=54329";
  }
  ~PostgresServer() {
    if (started_) shell(ctl_ + " -m immediate stop > /dev/null 2>&1");
  }
  PostgresServer(const PostgresServer&) = delete;
  PostgresServer& operator=(const PostgresServer&) = delete;

  bool started() const { return started_; }
  const std::string& why_not() const { return why_not_; }
  const std::string& url() const { return url_; }

 private:
  static bool shell(const std::string& command) { return std::system(command.c_str()) == 0; }

  TempDir dir_;
  std::string ctl_;
  std::string url_;
  std::string why_not_;
  bool started_ = false;
};

// A test that needs the server skips without it, except under CI=true where it must fail.
#define PERFZERO_NEED_POSTGRES(server)                                                             \
  do {                                                                                             \
    if (!(server).started()) {                                                                     \
      const char* ci = std::getenv("CI");                                                          \
      if (ci != nullptr && std::string(ci) == "true") FAIL() << "CI=true: " << (server).why_not(); \
      GTEST_SKIP() << (server).why_not();                                                          \
    }                                                                                              \
  } while (false)

}  // namespace perfzero::testing
