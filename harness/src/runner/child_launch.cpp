#include "runner/child_launch.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <boost/asio/io_context.hpp>
#include <boost/optional.hpp>  // Boost 1.81's process/v2 headers use boost::optional without including it
#include <boost/process/v2/posix/vfork_launcher.hpp>
#include <boost/process/v2/process.hpp>
#include <boost/process/v2/stdio.hpp>
#include <cerrno>
#include <cstring>
#include <stdexcept>

#include "common/errors.hpp"
#include "runner/signals.hpp"

namespace perfzero::runner {

namespace bp = boost::process::v2;

namespace {

struct FdGuard {
  int fd;
  ~FdGuard() {
    if (fd >= 0) ::close(fd);
  }
};

// Runs in the forked child before exec: its own process group (a terminal's Ctrl-C reaches only
// the harness, which then ends the tree), the environment and directory we chose, no blocked signal.
struct ChildSetup {
  const char* const* environment;
  const char* working_dir;

  template <typename Launcher>
  bp::error_code on_setup(Launcher& launcher, const bp::filesystem::path& /*exe*/, const char* const*& /*argv*/) {
    launcher.env = environment;
    return {};
  }

  template <typename Launcher>
  bp::error_code on_exec_setup(Launcher& /*launcher*/, const bp::filesystem::path& /*exe*/,
                               const char* const*& /*argv*/) {
    ::setpgid(0, 0);
    unblock_all_signals_in_child();
    if (::chdir(working_dir) != 0) return {errno, bp::system_category()};
    return {};
  }
};

}  // namespace

pid_t launch_child(const std::filesystem::path& launcher, const ChildCommand& command,
                   const std::filesystem::path& rusage_file, const std::filesystem::path& log_path) {
  const FdGuard log_fd{::open(log_path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644)};
  if (log_fd.fd < 0) throw OutputError("cannot create " + log_path.string() + ": " + std::strerror(errno));
  const FdGuard null_fd{::open("/dev/null", O_RDONLY | O_CLOEXEC)};

  std::vector<std::string> args{rusage_file.string()};
  args.insert(args.end(), command.argv.begin(), command.argv.end());
  std::vector<const char*> env;
  env.reserve(command.environment.size() + 1);
  for (const auto& entry : command.environment) env.push_back(entry.c_str());
  env.push_back(nullptr);
  const std::string working_dir = command.working_dir.empty() ? "." : command.working_dir.string();

  boost::asio::io_context context;
  // vfork: the child borrows the harness's memory until exec instead of copying its page tables;
  // the setup before exec is system calls only, which is what vfork allows.
  bp::posix::vfork_launcher spawn;
  auto child = spawn(context, bp::filesystem::path(launcher.string()), args,
                     bp::process_stdio{null_fd.fd, log_fd.fd, log_fd.fd}, ChildSetup{env.data(), working_dir.c_str()});
  const pid_t pid = child.id();
  // The runner waits with wait4() itself, to get the kernel's rusage; Boost must not reap or kill it.
  child.detach();
  return pid;
}

}  // namespace perfzero::runner
