// A stand-in for NVIDIA's libnvidia-ml.so.1 with NVML's real signatures (nvml.h), returning
// known figures, for the tests of the NVIDIA helper (sysstatsd-gpu) on machines without an
// NVIDIA GPU. Built by the tests: cc -shared -fPIC -o DIR/libnvidia-ml.so.1 nvml_stub.c.
//
// One device, an "NVIDIA GeForce RTX 4090": 37 % busy, memory 12 %, 6 GiB of 24 GiB used,
// 61 °C, 215.4 W of a 450 W limit, 2520 MHz, fan 45 %; processes 4242 (1 GiB, compute and graphics) and 4243
// (512 MiB, graphics); NVML_STUB_PID=N names the first one N instead. Per-process
// utilization: two samples of 4242 (an older 10 %, the newest 64 %), none of 4243. NVML_STUB_FAIL=1:
// nvmlInit_v2 fails as without a driver.
#include <stdlib.h>
#include <string.h>

// NVML's declarations, shared with the helper that calls them (built with -I Sources/CGPUHelper).
#include "nvml-declarations.h"

static struct nvmlDevice_st { int index; } device0 = {0};
static const unsigned long long gib = 1024ull * 1024 * 1024;

nvmlReturn_t nvmlInit_v2(void) { return getenv("NVML_STUB_FAIL") ? NVML_ERROR_DRIVER_NOT_LOADED : NVML_SUCCESS; }
nvmlReturn_t nvmlShutdown(void) { return NVML_SUCCESS; }
const char *nvmlErrorString(nvmlReturn_t r) { return r == NVML_ERROR_DRIVER_NOT_LOADED ? "Driver Not Loaded" : "Unknown Error"; }
nvmlReturn_t nvmlDeviceGetCount_v2(unsigned int *count) { *count = 1; return NVML_SUCCESS; }
nvmlReturn_t nvmlDeviceGetHandleByIndex_v2(unsigned int index, nvmlDevice_t *device) {
    if (index != 0) return NVML_ERROR_INVALID_ARGUMENT;
    *device = &device0;
    return NVML_SUCCESS;
}
nvmlReturn_t nvmlDeviceGetName(nvmlDevice_t device, char *name, unsigned int length) {
    (void)device;
    strncpy(name, "NVIDIA GeForce RTX 4090", length);
    name[length - 1] = 0;
    return NVML_SUCCESS;
}
nvmlReturn_t nvmlDeviceGetUtilizationRates(nvmlDevice_t device, nvmlUtilization_t *u) {
    (void)device; u->gpu = 37; u->memory = 12; return NVML_SUCCESS;
}
nvmlReturn_t nvmlDeviceGetMemoryInfo(nvmlDevice_t device, nvmlMemory_t *m) {
    (void)device; m->total = 24 * gib; m->used = 6 * gib + 300 * 1024 * 1024; m->free = m->total - m->used;
    return NVML_SUCCESS;  // v1 counts the driver's reserve as used: the helper asks v2 first
}
nvmlReturn_t nvmlDeviceGetMemoryInfo_v2(nvmlDevice_t device, nvmlMemory_v2_t *m) {
    (void)device;
    if (m->version != (unsigned int)(sizeof(nvmlMemory_v2_t) | (2u << 24))) return NVML_ERROR_INVALID_ARGUMENT;
    m->total = 24 * gib; m->reserved = 300 * 1024 * 1024; m->used = 6 * gib; m->free = m->total - m->used - m->reserved;
    return NVML_SUCCESS;
}
nvmlReturn_t nvmlDeviceGetTemperature(nvmlDevice_t device, int sensor, unsigned int *t) {
    (void)device; if (sensor != 0) return NVML_ERROR_INVALID_ARGUMENT; *t = 61; return NVML_SUCCESS;
}
nvmlReturn_t nvmlDeviceGetPowerUsage(nvmlDevice_t device, unsigned int *mw) { (void)device; *mw = 215400; return NVML_SUCCESS; }
nvmlReturn_t nvmlDeviceGetClockInfo(nvmlDevice_t device, int type, unsigned int *mhz) {
    (void)device; if (type != 0) return NVML_ERROR_INVALID_ARGUMENT; *mhz = 2520; return NVML_SUCCESS;
}
nvmlReturn_t nvmlDeviceGetFanSpeed(nvmlDevice_t device, unsigned int *speed) { (void)device; *speed = 45; return NVML_SUCCESS; }
nvmlReturn_t nvmlDeviceGetEnforcedPowerLimit(nvmlDevice_t device, unsigned int *mw) { (void)device; *mw = 450000; return NVML_SUCCESS; }

static nvmlReturn_t list(unsigned int *count, nvmlProcessInfo_t *infos, const nvmlProcessInfo_t *mine, unsigned int n) {
    if (*count < n) { *count = n; return NVML_ERROR_INSUFFICIENT_SIZE; }
    memcpy(infos, mine, n * sizeof *mine);
    *count = n;
    return NVML_SUCCESS;
}
nvmlReturn_t nvmlDeviceGetProcessUtilization(nvmlDevice_t device, nvmlProcessUtilizationSample_t *samples,
                                             unsigned int *count, unsigned long long lastSeenTimeStamp) {
    (void)device; (void)lastSeenTimeStamp;
    unsigned int pid = getenv("NVML_STUB_PID") ? (unsigned int)atoi(getenv("NVML_STUB_PID")) : 4242;
    nvmlProcessUtilizationSample_t mine[] = {{pid, 2000, 64, 20, 0, 0}, {pid, 1000, 10, 5, 0, 0}};
    if (!samples || *count < 2) { *count = 2; return NVML_ERROR_INSUFFICIENT_SIZE; }
    memcpy(samples, mine, sizeof mine);
    *count = 2;
    return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetComputeRunningProcesses_v3(nvmlDevice_t device, unsigned int *count, nvmlProcessInfo_t *infos) {
    (void)device;
    nvmlProcessInfo_t compute[] = {{4242, 1 * gib, 0, 0}};
    if (getenv("NVML_STUB_PID")) compute[0].pid = (unsigned int)atoi(getenv("NVML_STUB_PID"));
    return list(count, infos, compute, 1);
}
nvmlReturn_t nvmlDeviceGetGraphicsRunningProcesses_v3(nvmlDevice_t device, unsigned int *count, nvmlProcessInfo_t *infos) {
    (void)device;
    nvmlProcessInfo_t graphics[] = {{4242, 1 * gib, 0, 0}, {4243, 512ull * 1024 * 1024, 0, 0}};
    if (getenv("NVML_STUB_PID")) graphics[0].pid = (unsigned int)atoi(getenv("NVML_STUB_PID"));
    return list(count, infos, graphics, 2);
}
