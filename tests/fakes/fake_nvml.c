/* A fake libnvidia-ml for tests: no GPU can exist on the machines that build and test perfzero, so
 * the GPU sampler and system info are pointed at this library through PERFZERO_TEST_NVML_LIBRARY
 * (test-only). It implements the NVML calls perfzero makes, against the same declarations
 * (harness/src/nvml/nvml_api.h), with scripted values chosen by environment variables:
 *   FAKE_NVML_GPUS=N          devices (default 1, at most 4)
 *   FAKE_NVML_THROTTLE_AT=K   GPU 0 reports a software thermal slowdown from its K-th sample on (0-based)
 *   FAKE_NVML_FAIL=NAME       that function returns NVML_ERROR_UNKNOWN (e.g. nvmlDeviceGetPowerUsage)
 *   FAKE_NVML_INIT_FAIL=1     nvmlInit_v2 returns NVML_ERROR_DRIVER_NOT_LOADED
 *   FAKE_NVML_NVLINK=1        NVLink counters that grow by 1 KiB sent and 0.5 KiB received per
 *                             microsecond of the clock (1024 and 512 MB/s); else NOT_SUPPORTED
 *   FAKE_NVML_PERSISTENCE=0   persistence mode off (else on)
 *   FAKE_NVML_XID=N           the first nvmlEventSetWait_v2 of a process returns XID N on GPU 0
 *   FAKE_NVML_LOCK_DENIED=1   nvmlDeviceSetGpuLockedClocks answers NVML_ERROR_NO_PERMISSION
 *   FAKE_NVML_LOCK_DENIED_GPU=N  the same for GPU N only
 *   FAKE_NVML_STATE_DIR=DIR   locked clocks outlive the process, as a driver's do: gpuN.locked in DIR
 *                             holds "min max" MHz while GPU N is locked (the TDP limit is 1590 MHz);
 *                             a locked GPU's SM clock is its max, with the "applications clocks
 *                             setting" event reason
 * A sample is one nvmlDeviceGetUtilizationRates call; utilization ramps by 20 % a sample up to 100.
 * Built twice: FAKE_NVML_WITHOUT_PCIE leaves nvmlDeviceGetPcieThroughput out (a missing symbol). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "nvml/nvml_api.h"

#define FAKE_MAX_GPUS 4
#define EXPORT __attribute__((visibility("default")))

struct nvmlDevice_st {
  unsigned index;
  unsigned samples;
};

static struct nvmlDevice_st devices[FAKE_MAX_GPUS] = {{0, 0}, {1, 0}, {2, 0}, {3, 0}};

static int env_int(const char* name, int fallback) {
  const char* v = getenv(name);
  return v != NULL && *v != '\0' ? atoi(v) : fallback;
}

static int fails(const char* function) {
  const char* v = getenv("FAKE_NVML_FAIL");
  return v != NULL && strcmp(v, function) == 0;
}

static unsigned gpu_count(void) {
  int n = env_int("FAKE_NVML_GPUS", 1);
  if (n < 0) n = 0;
  if (n > FAKE_MAX_GPUS) n = FAKE_MAX_GPUS;
  return (unsigned)n;
}

static int throttled(nvmlDevice_t d) {
  const int at = env_int("FAKE_NVML_THROTTLE_AT", -1);
  return d->index == 0 && at >= 0 && d->samples > (unsigned)at; /* samples counts the current one */
}

static void copy_text(char* out, unsigned length, const char* text) {
  if (length == 0) return;
  strncpy(out, text, length - 1);
  out[length - 1] = '\0';
}

#define FAIL_IF_SCRIPTED(name) \
  if (fails(name)) return NVML_ERROR_UNKNOWN

#define FAKE_TDP_MHZ 1590u
#define FAKE_MAX_SM_MHZ 1980u

/* DIR/gpuN.locked, or "" when FAKE_NVML_STATE_DIR is unset (then nothing stays locked). */
static void lock_file(const struct nvmlDevice_st* d, char* out, size_t length) {
  const char* dir = getenv("FAKE_NVML_STATE_DIR");
  if (dir == NULL || *dir == '\0') {
    out[0] = '\0';
    return;
  }
  snprintf(out, length, "%s/gpu%u.locked", dir, d->index);
}

/* The locked max clock of GPU d, or 0 when it is not locked. */
static unsigned locked_max(const struct nvmlDevice_st* d) {
  char path[4096];
  lock_file(d, path, sizeof path);
  if (path[0] == '\0') return 0;
  FILE* f = fopen(path, "r");
  if (f == NULL) return 0;
  unsigned low = 0, high = 0;
  const int n = fscanf(f, "%u %u", &low, &high);
  fclose(f);
  return n == 2 ? high : 0;
}

EXPORT nvmlReturn_t nvmlInit_v2(void) {
  return env_int("FAKE_NVML_INIT_FAIL", 0) ? NVML_ERROR_DRIVER_NOT_LOADED : NVML_SUCCESS;
}
EXPORT nvmlReturn_t nvmlShutdown(void) { return NVML_SUCCESS; }
EXPORT const char* nvmlErrorString(nvmlReturn_t result) {
  switch (result) {
    case NVML_SUCCESS:
      return "Success";
    case NVML_ERROR_NOT_SUPPORTED:
      return "Not Supported";
    case NVML_ERROR_DRIVER_NOT_LOADED:
      return "Driver Not Loaded";
    case NVML_ERROR_NO_PERMISSION:
      return "Insufficient Permissions";
    default:
      return "Unknown Error";
  }
}
EXPORT nvmlReturn_t nvmlSystemGetDriverVersion(char* version, unsigned int length) {
  FAIL_IF_SCRIPTED("nvmlSystemGetDriverVersion");
  copy_text(version, length, "580.95.05-fake");
  return NVML_SUCCESS;
}
EXPORT nvmlReturn_t nvmlSystemGetCudaDriverVersion_v2(int* version) {
  *version = 13000;
  return NVML_SUCCESS;
}
EXPORT nvmlReturn_t nvmlDeviceGetCount_v2(unsigned int* count) {
  *count = gpu_count();
  return NVML_SUCCESS;
}
EXPORT nvmlReturn_t nvmlDeviceGetHandleByIndex_v2(unsigned int index, nvmlDevice_t* device) {
  if (index >= gpu_count()) return NVML_ERROR_INVALID_ARGUMENT;
  *device = &devices[index];
  return NVML_SUCCESS;
}
/* Bus ids "0000:0N:00.0" for GPU N. */
EXPORT nvmlReturn_t nvmlDeviceGetHandleByPciBusId_v2(const char* bus_id, nvmlDevice_t* device) {
  unsigned i;
  for (i = 0; i < gpu_count(); ++i) {
    char expected[16] = "0000:00:00.0";
    expected[6] = (char)('0' + i);
    if (strcmp(bus_id, expected) == 0) {
      *device = &devices[i];
      return NVML_SUCCESS;
    }
  }
  return NVML_ERROR_NOT_FOUND;
}
EXPORT nvmlReturn_t nvmlDeviceGetName(nvmlDevice_t d, char* name, unsigned int length) {
  copy_text(name, length, d->index == 0 ? "Fake H100 80GB HBM3" : "Fake A100-SXM4-40GB");
  return NVML_SUCCESS;
}
EXPORT nvmlReturn_t nvmlDeviceGetMemoryInfo(nvmlDevice_t d, nvmlMemory_t* memory) {
  FAIL_IF_SCRIPTED("nvmlDeviceGetMemoryInfo");
  memory->total = (d->index == 0 ? 80ULL : 40ULL) << 30;
  memory->used = (1ULL << 30) + ((unsigned long long)d->samples << 20);
  memory->free = memory->total - memory->used;
  return NVML_SUCCESS;
}
EXPORT nvmlReturn_t nvmlDeviceGetUtilizationRates(nvmlDevice_t d, nvmlUtilization_t* u) {
  FAIL_IF_SCRIPTED("nvmlDeviceGetUtilizationRates");
  const unsigned step = d->samples++;
  u->gpu = step * 20 > 100 ? 100 : step * 20;
  u->memory = step * 10 > 100 ? 100 : step * 10;
  return NVML_SUCCESS;
}
EXPORT nvmlReturn_t nvmlDeviceGetPowerUsage(nvmlDevice_t d, unsigned int* milliwatts) {
  FAIL_IF_SCRIPTED("nvmlDeviceGetPowerUsage");
  *milliwatts = 100000 + 10000 * (d->samples > 0 ? d->samples - 1 : 0); /* per sample index */
  return NVML_SUCCESS;
}
EXPORT nvmlReturn_t nvmlDeviceGetClockInfo(nvmlDevice_t d, nvmlClockType_t type, unsigned int* mhz) {
  FAIL_IF_SCRIPTED("nvmlDeviceGetClockInfo");
  const unsigned locked = locked_max(d);
  *mhz = type == NVML_CLOCK_MEM ? 2619 : (throttled(d) ? 1200 : (locked != 0 ? locked : FAKE_MAX_SM_MHZ));
  return NVML_SUCCESS;
}
EXPORT nvmlReturn_t nvmlDeviceGetMaxClockInfo(nvmlDevice_t d, nvmlClockType_t type, unsigned int* mhz) {
  (void)d;
  *mhz = type == NVML_CLOCK_MEM ? 2619 : FAKE_MAX_SM_MHZ;
  return NVML_SUCCESS;
}
EXPORT nvmlReturn_t nvmlDeviceGetTemperature(nvmlDevice_t d, nvmlTemperatureSensors_t sensor, unsigned int* c) {
  (void)sensor;
  FAIL_IF_SCRIPTED("nvmlDeviceGetTemperature");
  *c = 40 + d->samples;
  return NVML_SUCCESS;
}
/* The pre-r535 name only: perfzero must fall back to it when ClocksEventReasons is absent. */
EXPORT nvmlReturn_t nvmlDeviceGetCurrentClocksThrottleReasons(nvmlDevice_t d, unsigned long long* reasons) {
  FAIL_IF_SCRIPTED("nvmlDeviceGetCurrentClocksThrottleReasons");
  *reasons = (throttled(d) ? nvmlClocksThrottleReasonSwThermalSlowdown : 0) |
             (locked_max(d) != 0 ? nvmlClocksThrottleReasonApplicationsClocksSetting : 0);
  return NVML_SUCCESS;
}
#ifndef FAKE_NVML_WITHOUT_PCIE
EXPORT nvmlReturn_t nvmlDeviceGetPcieThroughput(nvmlDevice_t d, nvmlPcieUtilCounter_t counter, unsigned int* kb) {
  (void)d;
  *kb = counter == NVML_PCIE_UTIL_TX_BYTES ? 1000 : 2000;
  return NVML_SUCCESS;
}
#endif
EXPORT nvmlReturn_t nvmlDeviceGetFieldValues(nvmlDevice_t d, int count, nvmlFieldValue_t* values) {
  (void)d;
  FAIL_IF_SCRIPTED("nvmlDeviceGetFieldValues");
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  const long long us = (long long)now.tv_sec * 1000000 + now.tv_nsec / 1000;
  for (int i = 0; i < count; ++i) {
    nvmlFieldValue_t* v = &values[i];
    v->timestamp = us;
    v->latencyUsec = 0;
    v->valueType = NVML_VALUE_TYPE_UNSIGNED_LONG_LONG;
    const int tx = v->fieldId == NVML_FI_DEV_NVLINK_THROUGHPUT_DATA_TX;
    const int rx = v->fieldId == NVML_FI_DEV_NVLINK_THROUGHPUT_DATA_RX;
    if (!env_int("FAKE_NVML_NVLINK", 0) || (!tx && !rx)) {
      v->nvmlReturn = NVML_ERROR_NOT_SUPPORTED;
      continue;
    }
    v->nvmlReturn = NVML_SUCCESS;
    v->value.ullVal = (unsigned long long)(tx ? us : us / 2);
  }
  return NVML_SUCCESS;
}
EXPORT nvmlReturn_t nvmlDeviceGetCudaComputeCapability(nvmlDevice_t d, int* major, int* minor) {
  *major = d->index == 0 ? 9 : 8;
  *minor = 0;
  return NVML_SUCCESS;
}
EXPORT nvmlReturn_t nvmlDeviceGetMigMode(nvmlDevice_t d, unsigned int* current, unsigned int* pending) {
  (void)d;
  *current = 0;
  *pending = 0;
  return NVML_SUCCESS;
}
EXPORT nvmlReturn_t nvmlDeviceGetEccMode(nvmlDevice_t d, nvmlEnableState_t* current, nvmlEnableState_t* pending) {
  (void)d;
  *current = NVML_FEATURE_ENABLED;
  *pending = NVML_FEATURE_ENABLED;
  return NVML_SUCCESS;
}
EXPORT nvmlReturn_t nvmlDeviceGetCurrPcieLinkGeneration(nvmlDevice_t d, unsigned int* generation) {
  *generation = d->index == 0 ? 5 : 4;
  return NVML_SUCCESS;
}
EXPORT nvmlReturn_t nvmlDeviceGetCurrPcieLinkWidth(nvmlDevice_t d, unsigned int* width) {
  (void)d;
  *width = 16;
  return NVML_SUCCESS;
}
EXPORT nvmlReturn_t nvmlDeviceGetPersistenceMode(nvmlDevice_t d, nvmlEnableState_t* mode) {
  (void)d;
  FAIL_IF_SCRIPTED("nvmlDeviceGetPersistenceMode");
  *mode = env_int("FAKE_NVML_PERSISTENCE", 1) ? NVML_FEATURE_ENABLED : NVML_FEATURE_DISABLED;
  return NVML_SUCCESS;
}
EXPORT nvmlReturn_t nvmlDeviceGetApplicationsClock(nvmlDevice_t d, nvmlClockType_t type, unsigned int* mhz) {
  (void)d;
  *mhz = type == NVML_CLOCK_MEM ? 2619 : FAKE_TDP_MHZ;
  return NVML_SUCCESS;
}
EXPORT nvmlReturn_t nvmlDeviceGetDefaultApplicationsClock(nvmlDevice_t d, nvmlClockType_t type, unsigned int* mhz) {
  (void)d;
  *mhz = type == NVML_CLOCK_MEM ? 2619 : FAKE_TDP_MHZ;
  return NVML_SUCCESS;
}
EXPORT nvmlReturn_t nvmlDeviceSetGpuLockedClocks(nvmlDevice_t d, unsigned int low, unsigned int high) {
  FAIL_IF_SCRIPTED("nvmlDeviceSetGpuLockedClocks");
  if (env_int("FAKE_NVML_LOCK_DENIED", 0) || env_int("FAKE_NVML_LOCK_DENIED_GPU", -1) == (int)d->index) {
    return NVML_ERROR_NO_PERMISSION;
  }
  const int low_symbolic = low >= NVML_CLOCK_LIMIT_ID_TDP && low <= NVML_CLOCK_LIMIT_ID_UNLIMITED;
  const int high_symbolic = high >= NVML_CLOCK_LIMIT_ID_TDP && high <= NVML_CLOCK_LIMIT_ID_UNLIMITED;
  if (low_symbolic != high_symbolic) return NVML_ERROR_INVALID_ARGUMENT; /* as the real one */
  if (low == NVML_CLOCK_LIMIT_ID_TDP) low = FAKE_TDP_MHZ;
  if (high == NVML_CLOCK_LIMIT_ID_TDP) high = FAKE_TDP_MHZ;
  if (low > high || high > FAKE_MAX_SM_MHZ) return NVML_ERROR_INVALID_ARGUMENT;
  char path[4096];
  lock_file(d, path, sizeof path);
  if (path[0] == '\0') return NVML_SUCCESS;
  FILE* f = fopen(path, "w");
  if (f == NULL) return NVML_ERROR_UNKNOWN;
  fprintf(f, "%u %u\n", low, high);
  fclose(f);
  return NVML_SUCCESS;
}
EXPORT nvmlReturn_t nvmlDeviceResetGpuLockedClocks(nvmlDevice_t d) {
  FAIL_IF_SCRIPTED("nvmlDeviceResetGpuLockedClocks");
  if (env_int("FAKE_NVML_LOCK_DENIED", 0)) return NVML_ERROR_NO_PERMISSION;
  char path[4096];
  lock_file(d, path, sizeof path);
  if (path[0] != '\0') remove(path);
  return NVML_SUCCESS;
}

struct nvmlEventSet_st {
  int xid_delivered;
};
static struct nvmlEventSet_st event_set = {0};

EXPORT nvmlReturn_t nvmlEventSetCreate(nvmlEventSet_t* set) {
  FAIL_IF_SCRIPTED("nvmlEventSetCreate");
  event_set.xid_delivered = 0; /* each set hears the scripted XID once */
  *set = &event_set;
  return NVML_SUCCESS;
}
EXPORT nvmlReturn_t nvmlDeviceRegisterEvents(nvmlDevice_t d, unsigned long long types, nvmlEventSet_t set) {
  (void)d;
  (void)types;
  (void)set;
  FAIL_IF_SCRIPTED("nvmlDeviceRegisterEvents");
  return NVML_SUCCESS;
}
EXPORT nvmlReturn_t nvmlEventSetWait_v2(nvmlEventSet_t set, nvmlEventData_t* data, unsigned int timeout_ms) {
  (void)timeout_ms;
  const int xid = env_int("FAKE_NVML_XID", 0);
  if (xid <= 0 || set->xid_delivered) return NVML_ERROR_TIMEOUT;
  set->xid_delivered = 1;
  memset(data, 0, sizeof *data);
  data->device = &devices[0];
  data->eventType = nvmlEventTypeXidCriticalError;
  data->eventData = (unsigned long long)xid;
  return NVML_SUCCESS;
}
EXPORT nvmlReturn_t nvmlEventSetFree(nvmlEventSet_t set) {
  (void)set;
  return NVML_SUCCESS;
}
