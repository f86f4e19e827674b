// sysstatsd-gpu INTERVAL_MS: NVIDIA's figures through NVML, for the sampler (the program's
// main.swift only calls cgpuhelper_run).
//
// The sampler is a static program and loads no shared library; this helper loads the
// driver's libnvidia-ml.so.1 (dlopen, so that it builds and links without NVIDIA's files),
// and writes one frame of text per interval on its stdout, a pipe to the sampler
// (ProcFS/NVMLHelperFrame.swift reads it):
//
//     gpu INDEX BUSY% MEMBUSY% VRAM_USED VRAM_TOTAL CELSIUS MILLIWATTS CLOCK_MHZ FAN% LIMIT_MILLIWATTS NAME
//     proc PID INDEX VRAM_BYTES SM%
//     end
//
// `-` stands for a figure NVML did not give. The sampler starts it only where
// /proc/driver/nvidia/gpus lists a device and a block shows the GPU. It ends when the
// sampler goes (its pipe closes: the next write fails; or the parent-death signal), or
// with one `error` line when NVML cannot be loaded or started.
//
// C rather than Swift: it exists to call a C library. Its executable is Embedded Swift,
// whose link brings in no Swift runtime library (a normal Swift link names libswiftCore.so,
// which a user's machine has not): docs/architecture.md, "sysstatsd-gpu".
#include <dlfcn.h>
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

#include "CLibc.h"
#include "CGPUHelper.h"

#include "nvml-declarations.h"

static struct {
    nvmlReturn_t (*init)(void);
    nvmlReturn_t (*count)(unsigned int *);
    nvmlReturn_t (*handle)(unsigned int, nvmlDevice_t *);
    nvmlReturn_t (*name)(nvmlDevice_t, char *, unsigned int);
    nvmlReturn_t (*utilization)(nvmlDevice_t, nvmlUtilization_t *);
    nvmlReturn_t (*memory)(nvmlDevice_t, nvmlMemory_t *);
    nvmlReturn_t (*memory_v2)(nvmlDevice_t, nvmlMemory_v2_t *);
    nvmlReturn_t (*temperature)(nvmlDevice_t, int, unsigned int *);
    nvmlReturn_t (*power)(nvmlDevice_t, unsigned int *);
    nvmlReturn_t (*clock)(nvmlDevice_t, int, unsigned int *);
    nvmlReturn_t (*fan)(nvmlDevice_t, unsigned int *);
    nvmlReturn_t (*power_limit)(nvmlDevice_t, unsigned int *);
    nvmlReturn_t (*compute)(nvmlDevice_t, unsigned int *, nvmlProcessInfo_t *);
    nvmlReturn_t (*graphics)(nvmlDevice_t, unsigned int *, nvmlProcessInfo_t *);
    nvmlReturn_t (*utilization_by_process)(nvmlDevice_t, nvmlProcessUtilizationSample_t *, unsigned int *, unsigned long long);
    const char *(*error_string)(nvmlReturn_t);
} nvml;

enum { max_devices = 8, max_processes = 64, max_samples = 4096 };

// A frame of 8 cards with 64 processes each is about 26 KiB at its longest (a 16 KiB frame
// lost its `end` line, and the sampler its every figure): 64 KiB, and room kept for `end`.
static char frame[65536];
static size_t used;
/// Set when a line did not fit: nothing more is put until the frame ends, which first drops
/// the cut line (`end` then stands on a line of its own, and the frame stays whole).
static int cut;
enum { end_room = 8 };

static void put(const char *format, ...) __attribute__((format(printf, 1, 2)));
static void put(const char *format, ...) {
    if (cut) return;
    size_t room = sizeof frame - end_room - used;
    va_list ap;
    va_start(ap, format);
    int n = vsnprintf(frame + used, room, format, ap);
    va_end(ap);
    if (n < 0 || (size_t)n >= room) { cut = 1; return; }
    used += (size_t)n;
}

/// Ends the frame: a line cut short is dropped back to its start, then `end`.
static void end_frame(void) {
    if (cut) {
        while (used > 0 && frame[used - 1] != '\n') used--;
        cut = 0;
    }
    memcpy(frame + used, "end\n", 4);
    used += 4;
}

/// A figure, or `-` when NVML did not give it.
static void figure(nvmlReturn_t rc, unsigned long long value) {
    if (rc == NVML_SUCCESS) put(" %llu", value); else put(" -");
}

/// Writes the frame whole; false when the sampler is gone (the pipe closed).
static int flush(void) {
    size_t done = 0;
    while (done < used) {
        ssize_t n = write(STDOUT_FILENO, frame + done, used - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return 0;
        done += (size_t)n;
    }
    used = 0;
    return 1;
}

static void fail(const char *what, const char *why) {
    used = 0;
    cut = 0;
    put("error %s: %s\nend\n", what, why);
    flush();
    exit(1);
}

static void *symbol(void *library, const char *name, int required) {
    void *p = dlsym(library, name);
    if (!p && required) fail("libnvidia-ml.so.1 lacks", name);
    return p;
}

static void load(void) {
    void *library = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!library) fail("cannot load libnvidia-ml.so.1", dlerror());
    nvml.init = symbol(library, "nvmlInit_v2", 1);
    nvml.count = symbol(library, "nvmlDeviceGetCount_v2", 1);
    nvml.handle = symbol(library, "nvmlDeviceGetHandleByIndex_v2", 1);
    nvml.name = symbol(library, "nvmlDeviceGetName", 1);
    nvml.utilization = symbol(library, "nvmlDeviceGetUtilizationRates", 0);
    nvml.memory = symbol(library, "nvmlDeviceGetMemoryInfo", 0);
    nvml.memory_v2 = symbol(library, "nvmlDeviceGetMemoryInfo_v2", 0);
    nvml.temperature = symbol(library, "nvmlDeviceGetTemperature", 0);
    nvml.power = symbol(library, "nvmlDeviceGetPowerUsage", 0);
    nvml.clock = symbol(library, "nvmlDeviceGetClockInfo", 0);
    nvml.fan = symbol(library, "nvmlDeviceGetFanSpeed", 0);
    nvml.power_limit = symbol(library, "nvmlDeviceGetEnforcedPowerLimit", 0);
    nvml.compute = symbol(library, "nvmlDeviceGetComputeRunningProcesses_v3", 0);
    nvml.graphics = symbol(library, "nvmlDeviceGetGraphicsRunningProcesses_v3", 0);
    nvml.utilization_by_process = symbol(library, "nvmlDeviceGetProcessUtilization", 0);
    nvml.error_string = symbol(library, "nvmlErrorString", 0);
    nvmlReturn_t rc = nvml.init();
    if (rc != NVML_SUCCESS) fail("nvmlInit_v2", nvml.error_string ? nvml.error_string(rc) : "failed");
}

/// A process's share of the streaming multiprocessors in the newest of NVML's `n` samples
/// of it (the driver keeps a few seconds of them per process); -1 where it has none.
static int sm_share(const nvmlProcessUtilizationSample_t *samples, unsigned int n, unsigned int pid) {
    int share = -1;
    unsigned long long newest = 0;
    for (unsigned int i = 0; i < n; i++) {
        if (samples[i].pid != pid || samples[i].timeStamp < newest) continue;
        newest = samples[i].timeStamp;
        share = samples[i].smUtil > 100 ? 100 : (int)samples[i].smUtil;
    }
    return share;
}

/// The processes using device `index` (compute, then graphics ones not already listed).
static void processes(nvmlDevice_t device, unsigned int index) {
    static nvmlProcessInfo_t infos[max_processes];
    unsigned int pids[max_processes];
    unsigned int listed = 0;
    // The driver keeps several samples per process: the last 3 s of them (CPU timestamps, µs),
    // into room for many; a query that does not fit gives no shares rather than old ones.
    static nvmlProcessUtilizationSample_t samples[max_samples];
    unsigned int sampled = max_samples;
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    unsigned long long since = (unsigned long long)now.tv_sec * 1000000ull + (unsigned long long)now.tv_nsec / 1000ull;
    since = since > 3000000ull ? since - 3000000ull : 0;
    if (!nvml.utilization_by_process || nvml.utilization_by_process(device, samples, &sampled, since) != NVML_SUCCESS) sampled = 0;
    if (sampled > max_samples) sampled = max_samples;
    nvmlReturn_t (*lists[2])(nvmlDevice_t, unsigned int *, nvmlProcessInfo_t *) = { nvml.compute, nvml.graphics };
    for (int l = 0; l < 2; l++) {
        if (!lists[l]) continue;
        unsigned int count = max_processes;
        nvmlReturn_t rc = lists[l](device, &count, infos);
        if (rc != NVML_SUCCESS && rc != NVML_ERROR_INSUFFICIENT_SIZE) continue;
        if (count > max_processes) count = max_processes;
        for (unsigned int i = 0; i < count && listed < max_processes; i++) {
            int seen = 0;
            for (unsigned int j = 0; j < listed; j++) seen |= pids[j] == infos[i].pid;
            if (seen) continue;
            pids[listed++] = infos[i].pid;
            unsigned long long bytes = infos[i].usedGpuMemory;
            if (bytes == NVML_VALUE_NOT_AVAILABLE_ULL) put("proc %u %u -", infos[i].pid, index);
            else put("proc %u %u %llu", infos[i].pid, index, bytes);
            int sm = sm_share(samples, sampled, infos[i].pid);
            if (sm < 0) put(" -\n"); else put(" %d\n", sm);
        }
    }
}

static void sample(void) {
    unsigned int count = 0;
    if (nvml.count(&count) != NVML_SUCCESS) count = 0;
    if (count > max_devices) count = max_devices;
    for (unsigned int i = 0; i < count; i++) {
        nvmlDevice_t device;
        if (nvml.handle(i, &device) != NVML_SUCCESS) continue;
        nvmlUtilization_t u = {0, 0};
        nvmlReturn_t urc = nvml.utilization ? nvml.utilization(device, &u) : -1;
        unsigned long long vramUsed = 0, vramTotal = 0;
        nvmlReturn_t mrc = -1;
        if (nvml.memory_v2) {
            nvmlMemory_v2_t m = { .version = NVML_MEMORY_V2 };
            mrc = nvml.memory_v2(device, &m);
            if (mrc == NVML_SUCCESS) { vramUsed = m.used; vramTotal = m.total; }
        }
        if (mrc != NVML_SUCCESS && nvml.memory) {
            nvmlMemory_t m;
            mrc = nvml.memory(device, &m);
            if (mrc == NVML_SUCCESS) { vramUsed = m.used; vramTotal = m.total; }
        }
        unsigned int celsius = 0, milliwatts = 0, mhz = 0, fan = 0, limit = 0;
        nvmlReturn_t trc = nvml.temperature ? nvml.temperature(device, NVML_TEMPERATURE_GPU, &celsius) : -1;
        nvmlReturn_t prc = nvml.power ? nvml.power(device, &milliwatts) : -1;
        nvmlReturn_t crc = nvml.clock ? nvml.clock(device, NVML_CLOCK_GRAPHICS, &mhz) : -1;
        nvmlReturn_t frc = nvml.fan ? nvml.fan(device, &fan) : -1;
        nvmlReturn_t lrc = nvml.power_limit ? nvml.power_limit(device, &limit) : -1;
        char name[96] = "";
        if (nvml.name(device, name, sizeof name) != NVML_SUCCESS) strcpy(name, "NVIDIA GPU");
        // The name runs to the end of the line: no line break may be in it.
        for (char *c = name; *c; c++) if (*c == '\n' || *c == '\r') *c = ' ';
        put("gpu %u", i);
        figure(urc, u.gpu);
        figure(urc, u.memory);
        figure(mrc, vramUsed);
        figure(mrc, vramTotal);
        figure(trc, celsius);
        figure(prc, milliwatts);
        figure(crc, mhz);
        figure(frc, fan);
        figure(lrc, limit);
        put(" %s\n", name);
        processes(device, i);
    }
    end_frame();
}

static int run(int argc, char **argv) {
    if (argc > 1 && strcmp(argv[1], "--version") == 0) {
        printf("sysstatsd-gpu %s\n", SYSSTATS_VERSION);
        return 0;
    }
    if (argc > 1 && strcmp(argv[1], "--help") == 0) {
        printf("usage: sysstatsd-gpu [INTERVAL_MS]\n"
               "The sampler's NVIDIA helper (man sysstatsd, \"GPUs\"): writes NVML's figures on stdout\n"
               "every INTERVAL_MS (default 1000) while its reader is there.\n");
        return 0;
    }
    long interval = argc > 1 ? strtol(argv[1], NULL, 10) : 1000;
    if (interval < 100) interval = 100;
    if (interval > 3600000) interval = 3600000;
    // Gone with the sampler, even when it is killed before it could close the pipe.
    prctl(PR_SET_PDEATHSIG, SIGTERM);
    if (getppid() == 1) return 0;
    signal(SIGPIPE, SIG_IGN);
    load();
    struct timespec next;
    clock_gettime(CLOCK_MONOTONIC, &next);
    for (;;) {
        sample();
        if (!flush()) return 0;
        next.tv_sec += interval / 1000;
        next.tv_nsec += (interval % 1000) * 1000000L;
        if (next.tv_nsec >= 1000000000L) { next.tv_sec += 1; next.tv_nsec -= 1000000000L; }
        while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL) == EINTR) {}
    }
}

void cgpuhelper_run(void) {
    exit(run(clibc_argc(), clibc_argv()));
}
