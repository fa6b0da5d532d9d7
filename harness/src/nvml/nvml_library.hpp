#pragma once
// The one NVML loader of perfzero: system info, the GPU sampler and the CUDA worker all read NVML
// through it. NVML is dlopen()ed at run time (no link-time dependency on the driver, so perfzero
// runs where no NVIDIA driver exists); symbols a driver lacks leave their readings empty.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace perfzero::nvml {

// Test-only: a path to load instead of libnvidia-ml.so.1 (the tests' fake NVML, tests/fakes/).
inline constexpr const char* kLibraryEnv = "PERFZERO_TEST_NVML_LIBRARY";

// One GPU at one moment. Empty: not supported by this GPU/driver, or the call failed (see errors).
struct GpuReading {
  std::optional<double> sm_util_percent;
  std::optional<double> memory_util_percent;
  std::optional<double> memory_used_bytes;
  std::optional<double> power_watts;
  std::optional<double> sm_clock_mhz;
  std::optional<double> memory_clock_mhz;
  std::optional<double> temperature_c;
  std::optional<std::uint64_t> throttle_reasons;  // nvmlClocksThrottleReason* bits
  std::optional<double> pcie_tx_mb_per_s;
  std::optional<double> pcie_rx_mb_per_s;
  // NVLink data sent and received over every link, cumulative since the driver loaded, and when NVML
  // read them: the sampler turns two readings into a rate. Empty on GPUs without NVLink.
  std::optional<double> nvlink_tx_kib;
  std::optional<double> nvlink_rx_kib;
  std::optional<double> nvlink_time_us;
  // Set by the GPU sampler from this reading and the one before (MB/s, 10^6 bytes).
  std::optional<double> nvlink_tx_mb_per_s;
  std::optional<double> nvlink_rx_mb_per_s;
};

// What does not change while a run goes on.
struct GpuDescription {
  std::string model;
  std::uint64_t memory_bytes = 0;
  std::string compute_capability;  // "9.0"
  std::optional<bool> mig_enabled;
  std::optional<bool> ecc_enabled;
  std::optional<unsigned> pcie_generation;
  std::optional<unsigned> pcie_width;
  std::optional<unsigned> max_sm_clock_mhz;
};

// What a user (or an earlier run) has set on a GPU, as the doctor reports it.
struct GpuSettings {
  std::optional<bool> persistence_mode;
  // NVML cannot read back locked clocks (nvidia-smi -lgc); it says when a user setting, locked or
  // application clocks, holds the clock (clocks event reason "applications clocks setting"), and
  // reads the application clocks against their default.
  std::optional<bool> clocks_held_by_setting;
  std::optional<unsigned> application_sm_clock_mhz;
  std::optional<unsigned> default_application_sm_clock_mhz;
};

// An XID error: the driver's report of a fault of the GPU or of its use (NVIDIA's XID catalog).
struct XidEvent {
  unsigned gpu = 0;
  unsigned long long xid = 0;
};

// What --lock_gpu_clocks asks for: the base (TDP) clock, or the highest SM clock the GPU supports.
enum class ClockLock { base, max };

// The throttle bits that mean the GPU ran slower than it could for a reason other than idleness or
// a user's clock settings: power cap, thermal (software or hardware), hardware slowdown, power brake.
bool is_performance_throttle(std::uint64_t reasons);
// "sw_power_cap,sw_thermal" for the bits set.
std::string throttle_reason_names(std::uint64_t reasons);

class Library {
 public:
  // Loads and initializes NVML; nullptr with `why` set when it cannot (no driver, nvmlInit failed,
  // a required symbol missing).
  static std::unique_ptr<Library> open(std::string& why);
  ~Library();
  Library(const Library&) = delete;
  Library& operator=(const Library&) = delete;

  unsigned device_count() const;
  std::string driver_version();
  std::optional<int> cuda_driver_version();  // e.g. 13000
  GpuDescription describe(unsigned index);
  // Problems are appended to `errors` (one line each, naming the call and the GPU); a reading that
  // is not supported is simply empty.
  GpuReading read(unsigned index, std::vector<std::string>& errors);
  // Optional symbols this NVML lacks (older drivers, the tests' fake).
  const std::vector<std::string>& missing_symbols() const;
  GpuSettings settings(unsigned index);
  // Locks GPU `index`'s SM clock (nvmlDeviceSetGpuLockedClocks, root only): base is NVML's TDP limit
  // for both bounds, max the GPU's highest SM clock for both. "" when done, else why (call, error).
  std::string lock_clocks(unsigned index, ClockLock how);
  std::string reset_locked_clocks(unsigned index);
  // Registers every GPU for XID events; those that happen from now on are returned by take_xids.
  // "" when registered, else why (an older driver, a container without the capability).
  std::string watch_xids();
  std::vector<XidEvent> take_xids();
  // NVML's index of the GPU at a PCI bus id ("0000:3B:00.0", as cudaDeviceGetPCIBusId writes it):
  // CUDA's device order need not be NVML's.
  std::optional<unsigned> index_of_pci_bus(const std::string& bus_id);

  struct Functions;

 private:
  Library() = default;
  void* handle_ = nullptr;
  std::unique_ptr<Functions> fn_;
  std::vector<void*> devices_;
  void* xid_events_ = nullptr;  // nvmlEventSet_t, freed with the library
  std::string error_text(int rc) const;
};

}  // namespace perfzero::nvml
