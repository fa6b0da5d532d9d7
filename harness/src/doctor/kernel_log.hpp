#pragma once
// XID errors the NVIDIA driver wrote to the kernel log: the doctor's view of faults that happened
// before it ran (NVML only reports those that happen while it watches). The log is a ring buffer:
// it goes back to boot only where the kernel has not written more than it holds since.
#include <filesystem>
#include <string>
#include <vector>

namespace perfzero::doctor {

struct LoggedXid {
  std::string pci;             // "0000:3b:00", as the driver writes it
  unsigned long long xid = 0;  // the XID number
  std::string message;         // the rest of the driver's line, printable
};

struct KernelLogXids {
  std::vector<LoggedXid> xids;  // oldest first; the last kMostXids when there are more
  std::size_t total = 0;        // every XID line seen
  std::string unreadable;       // why the log could not be read ("" when it was)
};

inline constexpr std::size_t kMostXids = 100;

// Reads `kmsg` (/dev/kmsg: one record per read, "pri,seq,usec,flags;text"; a test's plain file of
// such lines, or dmesg's output, reads the same) without blocking, and picks "NVRM: Xid (PCI:...): N"
// lines. Reading stops after 64 MiB.
KernelLogXids read_logged_xids(const std::filesystem::path& kmsg);

}  // namespace perfzero::doctor
