// sysstatsd-audio: the sound server's default output and input, for the sampler and the bar
// (the program's main.swift only calls caudiohelper_run).
//
// The sampler and the bar link no libpulse (docs/architecture.md, "The sound helper"): this
// helper loads libpulse.so.0 (and libasound.so.2) with dlopen, so that it builds without
// their files and a machine without them gets one clear line. It speaks to PulseAudio and to PipeWire's
// pipewire-pulse alike (the same native protocol, through the library).
//
//     sysstatsd-audio watch
//
// writes a frame on its stdout, a pipe to the sampler (ProcFS/AudioHelperFrame.swift reads
// it), when it connects and each time the default sink or source, its volume, its mute
// switch or its port changes: pushed by the server's events, never polled. Nothing is
// written while nothing changes, and nothing twice:
//
//     sink VOLUME_PERMYRIAD MUTED PORT DESCRIPTION      (fields separated by a tab)
//     source VOLUME_PERMYRIAD MUTED PORT DESCRIPTION
//     end
//
// While no server answers, ALSA's mixer stands in (alsa.c: the `default` device's `Master`
// and `Capture` elements, their changes pushed too), its frames the same with an empty port
// and the element's name as the description; `down REASON` (then `end`) where there is no
// mixer either. It connects to the server again when the server's socket appears (watch()
// says when else; without libpulse it never does: ALSA alone). `error REASON` (then `end`)
// and status 1 when neither libpulse nor libasound can be loaded. It ends when its reader
// goes: the pipe's write end reports an error the moment the sampler's end closes (watched
// in the main loop and in the waits between connections), and a write fails.
//
//     sysstatsd-audio change sink|source DELTA_PERMYRIAD MAX_PERMYRIAD
//     sysstatsd-audio mute sink|source
//
// change the default device's volume by DELTA hundredths of a percent (not above MAX, and a
// volume already above MAX is not lowered by a step up) or toggle its mute switch (ALSA's
// mixer where no server answers): what the bar runs for a wheel or a click on the volume
// and microphone blocks.
//
// C rather than Swift: it exists to call a C library. Its executable is Embedded Swift,
// whose link brings in no Swift runtime library (docs/architecture.md, "sysstatsd-gpu").
#include <dlfcn.h>
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "CLibc.h"
#include "CAudioHelper.h"

#include "pulse-declarations.h"
#include "helper-internal.h"

struct pulse_functions pa;

/// Loads libpulse.so.0 and its functions; NULL, or what is missing.
static const char *load(void) {
    // Only by its soname, from the loader's own path: the sampler hands this helper an
    // environment without relative library-path entries (ChildEnvironment).
    void *lib = dlopen("libpulse.so.0", RTLD_NOW | RTLD_LOCAL);
    if (!lib) return "libpulse.so.0 not found (the volume and microphone blocks need it: Debian's libpulse0)";
#define FN(field, symbol) if (!(*(void **)&pa.field = dlsym(lib, symbol))) return "libpulse.so.0 lacks " symbol
    FN(mainloop_new, "pa_mainloop_new");
    FN(mainloop_get_api, "pa_mainloop_get_api");
    FN(mainloop_run, "pa_mainloop_run");
    FN(mainloop_quit, "pa_mainloop_quit");
    FN(mainloop_free, "pa_mainloop_free");
    FN(context_new, "pa_context_new");
    FN(context_connect, "pa_context_connect");
    FN(context_disconnect, "pa_context_disconnect");
    FN(context_unref, "pa_context_unref");
    FN(context_get_state, "pa_context_get_state");
    FN(context_errno, "pa_context_errno");
    FN(context_set_state_callback, "pa_context_set_state_callback");
    FN(context_set_subscribe_callback, "pa_context_set_subscribe_callback");
    FN(context_subscribe, "pa_context_subscribe");
    FN(get_server_info, "pa_context_get_server_info");
    FN(get_sink_by_name, "pa_context_get_sink_info_by_name");
    FN(get_source_by_name, "pa_context_get_source_info_by_name");
    FN(set_sink_volume, "pa_context_set_sink_volume_by_name");
    FN(set_source_volume, "pa_context_set_source_volume_by_name");
    FN(set_sink_mute, "pa_context_set_sink_mute_by_name");
    FN(set_source_mute, "pa_context_set_source_mute_by_name");
    FN(operation_unref, "pa_operation_unref");
    FN(strerror, "pa_strerror");
#undef FN
    return NULL;
}

/// Copies `text` into `out` (at most `size` - 1 bytes), a tab or line break as a space: a
/// field of a frame line never ends it early.
void field(char *out, size_t size, const char *text) {
    size_t n = 0;
    if (text) for (; text[n] && n + 1 < size; n++) out[n] = (text[n] == '\t' || text[n] == '\n' || text[n] == '\r') ? ' ' : text[n];
    out[n] = 0;
}

/// The loudest channel, in hundredths of a percent of the server's 100 % (rounded).
unsigned permyriad(const pa_cvolume *v) {
    pa_volume_t highest = 0;
    for (unsigned i = 0; i < v->channels && i < PA_CHANNELS_MAX; i++) if (v->values[i] > highest) highest = v->values[i];
    return (unsigned)(((uint64_t)highest * 10000 + PA_VOLUME_NORM / 2) / PA_VOLUME_NORM);
}

// ---- watch ----

struct device {
    int known;
    unsigned volume;
    int muted;
    char port[128];
    char description[256];
};

static struct {
    pa_mainloop *loop;
    pa_context *context;
    int ready;
    /// Why the last connection ended or was refused.
    char failure[256];
    /// A refresh is under way (`pending` answers to come); `again`: an event came meanwhile.
    int busy, again, pending;
    char sink[256], source[256];
    struct device output, input;
    char last[1024];
    size_t last_length;
} w;

void emit_frame(const char *frame, size_t length) {
    if (length == w.last_length && memcmp(frame, w.last, length) == 0) return;
    size_t done = 0;
    while (done < length) {
        ssize_t n = write(STDOUT_FILENO, frame + done, length - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) exit(0);
        done += (size_t)n;
    }
    if (length <= sizeof w.last) { memcpy(w.last, frame, length); w.last_length = length; }
}

static void emit_down(const char *why) {
    char frame[512];
    int n = snprintf(frame, sizeof frame, "down\t%s\nend\n", why);
    if (n > 0) emit_frame(frame, (size_t)n < sizeof frame ? (size_t)n : sizeof frame - 1);
}

static size_t put_device(char *out, size_t room, const char *kind, const struct device *d) {
    if (!d->known) return 0;
    int n = snprintf(out, room, "%s\t%u\t%d\t%s\t%s\n", kind, d->volume, d->muted, d->port, d->description);
    return n < 0 ? 0 : (size_t)n < room ? (size_t)n : room - 1;
}

static void refresh(void);

static void finish_refresh(void) {
    char frame[1024];
    size_t n = put_device(frame, sizeof frame, "sink", &w.output);
    n += put_device(frame + n, sizeof frame - n, "source", &w.input);
    n += (size_t)snprintf(frame + n, sizeof frame - n, "end\n");
    emit_frame(frame, n < sizeof frame ? n : sizeof frame - 1);
    w.busy = 0;
    if (w.again) { w.again = 0; refresh(); }
}

static void on_device(pa_context *c, const pa_device_info *i, int eol, void *data) {
    (void)c;
    struct device *d = data;
    if (i && eol == 0) {
        d->known = 1;
        d->volume = permyriad(&i->volume);
        d->muted = i->mute ? 1 : 0;
        field(d->port, sizeof d->port, i->active_port ? i->active_port->description : NULL);
        field(d->description, sizeof d->description, i->description ? i->description : i->name);
        return;
    }
    // The end of the answer (eol 1), or an error (eol -1: the device went meanwhile).
    if (--w.pending == 0) finish_refresh();
}

static void on_server(pa_context *c, const pa_server_info *i, void *data) {
    (void)data;
    memset(&w.output, 0, sizeof w.output);
    memset(&w.input, 0, sizeof w.input);
    field(w.sink, sizeof w.sink, i ? i->default_sink_name : NULL);
    field(w.source, sizeof w.source, i ? i->default_source_name : NULL);
    w.pending = 1;   // held until both questions are asked
    pa_operation *o;
    if (w.sink[0] && (o = pa.get_sink_by_name(c, w.sink, on_device, &w.output))) { w.pending++; pa.operation_unref(o); }
    if (w.source[0] && (o = pa.get_source_by_name(c, w.source, on_device, &w.input))) { w.pending++; pa.operation_unref(o); }
    if (--w.pending == 0) finish_refresh();
}

/// Asks for the server's defaults and then their devices; an event meanwhile asks again after.
static void refresh(void) {
    if (w.busy) { w.again = 1; return; }
    pa_operation *o = pa.get_server_info(w.context, on_server, NULL);
    if (!o) return;
    w.busy = 1;
    pa.operation_unref(o);
}

static void on_event(pa_context *c, int type, uint32_t index, void *data) {
    (void)c; (void)type; (void)index; (void)data;
    refresh();
}

static void on_state(pa_context *c, void *data) {
    (void)data;
    int state = pa.context_get_state(c);
    if (state == PA_CONTEXT_READY) {
        w.ready = 1;
        alsa_close();
        pa_operation *o = pa.context_subscribe(c, PA_SUBSCRIPTION_MASK_SINK | PA_SUBSCRIPTION_MASK_SOURCE | PA_SUBSCRIPTION_MASK_SERVER, NULL, NULL);
        if (o) pa.operation_unref(o);
        refresh();
    } else if (state == PA_CONTEXT_FAILED || state == PA_CONTEXT_TERMINATED) {
        field(w.failure, sizeof w.failure, pa.strerror(pa.context_errno(c)));
        pa.mainloop_quit(w.loop, 1);
    }
}

/// The reader of stdout is gone (the sampler ended or was killed): so is this helper.
static void on_reader_gone(pa_mainloop_api *api, pa_io_event *event, int fd, int events, void *data) {
    (void)api; (void)event; (void)fd; (void)events; (void)data;
    exit(0);
}

long long monotonic_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (long long)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

int wait_for(int milliseconds, int server, struct pollfd *extra, int count) {
    struct pollfd p[2 + WAIT_EXTRA_MAX];
    if (count > WAIT_EXTRA_MAX) count = WAIT_EXTRA_MAX;
    long long deadline = milliseconds < 0 ? -1 : monotonic_ms() + milliseconds;
    for (;;) {
        // No event asked for on stdout: only POLLERR and POLLHUP, which a pipe whose reader
        // closed reports. A watch of -1 is a slot poll skips.
        p[0] = (struct pollfd){ .fd = STDOUT_FILENO, .events = 0, .revents = 0 };
        p[1] = (struct pollfd){ .fd = server, .events = POLLIN, .revents = 0 };
        for (int i = 0; i < count; i++) { p[2 + i] = extra[i]; p[2 + i].revents = 0; }
        long long left = deadline < 0 ? -1 : deadline - monotonic_ms();
        if (deadline >= 0 && left < 0) left = 0;
        int n = poll(p, (nfds_t)(2 + count), (int)left);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return 0;
        if (p[0].revents & (POLLERR | POLLHUP)) exit(0);
        if ((p[1].revents & POLLIN) && server_watch_appeared(server)) return 2;
        int ready = 0;
        for (int i = 0; i < count; i++) { extra[i].revents = p[2 + i].revents; ready |= p[2 + i].revents != 0; }
        if (ready) return 3;
        // The socket's folder was made, not yet the socket: the wait goes on.
    }
}

/// No sound server answers (`why`): ALSA's mixer stands in for `milliseconds` (-1: for
/// ever) or until the server's socket appears (`server`), where there is a mixer, else the
/// frame says `down`. libasound is loaded the first time (not while a server answers from
/// the start: it is memory the helper would not use). 2 when the socket appeared, else 1.
static int without_server(const char *why, int milliseconds, int server) {
    static int alsa = -1;
    if (alsa < 0) alsa = alsa_load() == NULL;
    int woke = alsa ? alsa_watch(milliseconds, server) : 0;
    if (woke) return woke;
    char both[512];
    if (alsa) { snprintf(both, sizeof both, "%s; %s", why, alsa_failure()); why = both; }
    emit_down(why);
    // A card plugged in later is looked for again after 5 s where libpulse is not there.
    return wait_for(milliseconds < 0 && server < 0 ? 5000 : milliseconds, server, NULL, 0) == 2 ? 2 : 1;
}

/// One connection to the sound server until it ends; whether it became ready.
static int pulse_session(void) {
    memset(&w.output, 0, sizeof w.output);
    memset(&w.input, 0, sizeof w.input);
    w.busy = w.again = w.pending = w.ready = 0;
    w.loop = pa.mainloop_new();
    w.context = w.loop ? pa.context_new(pa.mainloop_get_api(w.loop), "sysstats") : NULL;
    if (!w.context) { emit_down("cannot start libpulse"); exit(1); }
    pa_mainloop_api *api = pa.mainloop_get_api(w.loop);
    api->io_new(api, STDOUT_FILENO, PA_IO_EVENT_HANGUP | PA_IO_EVENT_ERROR, on_reader_gone, NULL);
    pa.context_set_state_callback(w.context, on_state, NULL);
    pa.context_set_subscribe_callback(w.context, on_event, NULL);
    if (pa.context_connect(w.context, NULL, PA_CONTEXT_NOAUTOSPAWN, NULL) < 0) {
        field(w.failure, sizeof w.failure, pa.strerror(pa.context_errno(w.context)));
    } else {
        int status = 0;
        pa.mainloop_run(w.loop, &status);
    }
    // Its end is said by the caller: not again as `OK`.
    pa.context_set_state_callback(w.context, NULL, NULL);
    pa.context_disconnect(w.context);
    pa.context_unref(w.context);
    pa.mainloop_free(w.loop);
    return w.ready;
}

/// `pulse`: whether libpulse loaded. After a connection ends or is refused, the server is
/// tried again when its socket appears (server-watch.c), then after 0.1, 0.2, 0.4, 0.8, 1.6
/// and 3.2 s while it does not answer yet (a server makes its socket before it listens),
/// and once a minute besides (a server found otherwise); where its socket cannot be
/// watched, after 1, 2, 4 and then every 5 s.
static int watch(int pulse) {
    unsigned backoff = 1000, quick = 0;
    for (;;) {
        if (!pulse) { without_server("libpulse.so.0 not found", -1, -1); continue; }
        // Armed before the try, so that a socket made meanwhile is seen.
        int server = server_watch_open();
        if (pulse_session()) { backoff = 1000; quick = 0; }
        int wait;
        if (server < 0) {
            wait = (int)backoff;
            backoff = backoff >= 4000 ? 5000 : backoff * 2;
        } else {
            wait = quick ? (int)quick : 60000;
            quick = quick && quick < 3200 ? quick * 2 : 0;
        }
        if (without_server(w.failure, wait, server) == 2) quick = 100;
        if (server >= 0) close(server);
    }
}

static int usage(void) {
    fprintf(stderr, "usage: sysstatsd-audio watch | change sink|source DELTA_PERMYRIAD MAX_PERMYRIAD | mute sink|source\n");
    return 2;
}

/// A whole number in -1,000,000 ... 1,000,000 (hundredths of a percent), or 0 with *ok unset.
static long number(const char *text, int *ok) {
    char *end = NULL;
    errno = 0;
    long n = strtol(text, &end, 10);
    if (errno || !end || *end || end == text || n < -1000000 || n > 1000000) { *ok = 0; return 0; }
    return n;
}

static int run(int argc, char **argv) {
    if (argc > 1 && strcmp(argv[1], "--version") == 0) {
        printf("sysstatsd-audio %s\n", SYSSTATS_VERSION);
        return 0;
    }
    if (argc > 1 && strcmp(argv[1], "--help") == 0) {
        printf("usage: sysstatsd-audio watch | change sink|source DELTA_PERMYRIAD MAX_PERMYRIAD | mute sink|source\n"
               "The sound helper of the sampler and the bar (man sysstatsd): `watch` writes the\n"
               "default sink's and source's volume on stdout at each change; `change` and `mute` set them.\n");
        return 0;
    }
    if (argc == 2 && strcmp(argv[1], "watch") == 0) {
        // Not the parent-death signal: `sysstats measure` starts it from a parent that exits
        // at once. Its reader's end is what it lives for (on_reader_gone).
        signal(SIGPIPE, SIG_IGN);
        const char *missing = load(), *alsa_missing = missing ? alsa_load() : NULL;
        if (missing && alsa_missing) {
            printf("error\t%s; %s\nend\n", missing, alsa_missing);
            fflush(stdout);
            return 1;
        }
        return watch(!missing);
    }
    int ok = 1, mute = 0;
    long delta = 0, maximum = 0;
    if (argc == 5 && strcmp(argv[1], "change") == 0) {
        delta = number(argv[3], &ok);
        maximum = number(argv[4], &ok);
    } else if (argc == 3 && strcmp(argv[1], "mute") == 0) {
        mute = 1;
    } else {
        return usage();
    }
    if (!ok || (strcmp(argv[2], "sink") != 0 && strcmp(argv[2], "source") != 0)) return usage();
    int source = strcmp(argv[2], "source") == 0;
    const char *missing = load();
    // No sound server (or no libpulse): the same change on ALSA's mixer, where there is one.
    int status = missing ? -1 : change_default_device(source, mute, delta, maximum);
    if (status >= 0) return status;
    if (!alsa_load()) return alsa_change(source, mute, delta, maximum);
    fprintf(stderr, "sysstatsd-audio: %s\n", missing ? missing : change_failure());
    return 1;
}

void caudiohelper_run(void) {
    exit(run(clibc_argc(), clibc_argv()));
}
