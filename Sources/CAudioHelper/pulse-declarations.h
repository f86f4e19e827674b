// The part of libpulse's API the sound helper calls, declared here so that it builds without
// libpulse's headers (it loads libpulse.so.0 with dlopen, as the NVIDIA helper loads NVML).
// Layouts as in PulseAudio's <pulse/*.h> since 1.0 (pa_sink_info and pa_source_info only
// grew at their ends; the helper reads no member past `active_port`).
#ifndef SYSSTATS_PULSE_DECLARATIONS_H
#define SYSSTATS_PULSE_DECLARATIONS_H

#include <stdint.h>

typedef struct pa_mainloop pa_mainloop;
typedef struct pa_mainloop_api pa_mainloop_api;
typedef struct pa_context pa_context;
typedef struct pa_operation pa_operation;
typedef struct pa_proplist pa_proplist;
typedef struct pa_io_event pa_io_event;
typedef uint32_t pa_volume_t;

enum { PA_CHANNELS_MAX = 32 };
#define PA_VOLUME_NORM ((pa_volume_t)0x10000U)
#define PA_VOLUME_MAX ((pa_volume_t)UINT32_MAX / 2)

typedef struct { int format; uint32_t rate; uint8_t channels; } pa_sample_spec;
typedef struct { uint8_t channels; int map[PA_CHANNELS_MAX]; } pa_channel_map;
typedef struct { uint8_t channels; pa_volume_t values[PA_CHANNELS_MAX]; } pa_cvolume;

typedef struct {
    const char *name;
    const char *description;
    uint32_t priority;
    int available;
} pa_port_info_prefix;

/// pa_sink_info and pa_source_info, which agree up to `active_port`.
typedef struct {
    const char *name;
    uint32_t index;
    const char *description;
    pa_sample_spec sample_spec;
    pa_channel_map channel_map;
    uint32_t owner_module;
    pa_cvolume volume;
    int mute;
    uint32_t monitor_index;
    const char *monitor_name;
    uint64_t latency;
    const char *driver;
    int flags;
    pa_proplist *proplist;
    uint64_t configured_latency;
    pa_volume_t base_volume;
    int state;
    uint32_t n_volume_steps;
    uint32_t card;
    uint32_t n_ports;
    pa_port_info_prefix **ports;
    pa_port_info_prefix *active_port;
} pa_device_info;

typedef struct {
    const char *user_name;
    const char *host_name;
    const char *server_version;
    const char *server_name;
    pa_sample_spec sample_spec;
    const char *default_sink_name;
    const char *default_source_name;
    uint32_t cookie;
    pa_channel_map channel_map;
} pa_server_info;

enum {
    PA_CONTEXT_UNCONNECTED, PA_CONTEXT_CONNECTING, PA_CONTEXT_AUTHORIZING, PA_CONTEXT_SETTING_NAME,
    PA_CONTEXT_READY, PA_CONTEXT_FAILED, PA_CONTEXT_TERMINATED,
};
enum { PA_CONTEXT_NOAUTOSPAWN = 1 };
enum { PA_SUBSCRIPTION_MASK_SINK = 0x1, PA_SUBSCRIPTION_MASK_SOURCE = 0x2, PA_SUBSCRIPTION_MASK_SERVER = 0x80 };

enum { PA_IO_EVENT_HANGUP = 4, PA_IO_EVENT_ERROR = 8 };
typedef void (*pa_io_event_cb_t)(pa_mainloop_api *, pa_io_event *, int, int, void *);
/// The start of pa_mainloop_api (its members after io_new are not used here).
struct pa_mainloop_api {
    void *userdata;
    pa_io_event *(*io_new)(pa_mainloop_api *, int, int, pa_io_event_cb_t, void *);
};

typedef void (*pa_context_notify_cb_t)(pa_context *, void *);
typedef void (*pa_context_success_cb_t)(pa_context *, int, void *);
typedef void (*pa_context_subscribe_cb_t)(pa_context *, int, uint32_t, void *);
typedef void (*pa_server_info_cb_t)(pa_context *, const pa_server_info *, void *);
typedef void (*pa_device_info_cb_t)(pa_context *, const pa_device_info *, int, void *);

#endif
