// What the sound helper's files share (helper.c: loading libpulse and `watch`; change.c:
// `change` and `mute`; alsa.c: ALSA's mixer for both where no sound server answers).
#ifndef SYSSTATS_AUDIO_HELPER_INTERNAL_H
#define SYSSTATS_AUDIO_HELPER_INTERNAL_H

#include <stddef.h>

#include "pulse-declarations.h"

/// libpulse's functions, loaded by dlopen (helper.c's load()).
struct pulse_functions {
    pa_mainloop *(*mainloop_new)(void);
    pa_mainloop_api *(*mainloop_get_api)(pa_mainloop *);
    int (*mainloop_run)(pa_mainloop *, int *);
    void (*mainloop_quit)(pa_mainloop *, int);
    void (*mainloop_free)(pa_mainloop *);
    pa_context *(*context_new)(pa_mainloop_api *, const char *);
    int (*context_connect)(pa_context *, const char *, int, const void *);
    void (*context_disconnect)(pa_context *);
    void (*context_unref)(pa_context *);
    int (*context_get_state)(const pa_context *);
    int (*context_errno)(const pa_context *);
    void (*context_set_state_callback)(pa_context *, pa_context_notify_cb_t, void *);
    void (*context_set_subscribe_callback)(pa_context *, pa_context_subscribe_cb_t, void *);
    pa_operation *(*context_subscribe)(pa_context *, int, pa_context_success_cb_t, void *);
    pa_operation *(*get_server_info)(pa_context *, pa_server_info_cb_t, void *);
    pa_operation *(*get_sink_by_name)(pa_context *, const char *, pa_device_info_cb_t, void *);
    pa_operation *(*get_source_by_name)(pa_context *, const char *, pa_device_info_cb_t, void *);
    pa_operation *(*set_sink_volume)(pa_context *, const char *, const pa_cvolume *, pa_context_success_cb_t, void *);
    pa_operation *(*set_source_volume)(pa_context *, const char *, const pa_cvolume *, pa_context_success_cb_t, void *);
    pa_operation *(*set_sink_mute)(pa_context *, const char *, int, pa_context_success_cb_t, void *);
    pa_operation *(*set_source_mute)(pa_context *, const char *, int, pa_context_success_cb_t, void *);
    void (*operation_unref)(pa_operation *);
    const char *(*strerror)(int);
};

extern struct pulse_functions pa;

/// Copies `text` into `out` (at most `size` - 1 bytes), a tab or line break as a space.
void field(char *out, size_t size, const char *text);

/// The loudest channel, in hundredths of a percent of the server's 100 % (rounded).
unsigned permyriad(const pa_cvolume *v);

/// `sysstatsd-audio change|mute`: the default sink's or source's volume changed by `delta`
/// hundredths of a percent (not above `maximum`), or its mute switch toggled. The status, or
/// -1 when no sound server answered (`change_failure` says why; nothing written).
int change_default_device(int source, int mute, long delta, long maximum);

/// Why no sound server answered `change_default_device`.
const char *change_failure(void);

/// Writes `frame` on stdout unless it is the last one written; exits when the reader is gone.
void emit_frame(const char *frame, size_t length);

/// The most descriptors `wait_for` watches besides its own.
enum { WAIT_EXTRA_MAX = 14 };

/// Waits up to `milliseconds` (-1: for ever) for the sound server's socket to appear
/// (`server`, a watch from `server_watch_open`, or -1) or for one of `extra` to be ready
/// (their revents set), and ends the helper as soon as its reader is gone. 0 when the time
/// ran out, 2 when the socket appeared, 3 when one of `extra` is ready.
struct pollfd;
int wait_for(int milliseconds, int server, struct pollfd *extra, int count);

/// CLOCK_MONOTONIC in milliseconds.
long long monotonic_ms(void);

// ALSA's mixer where no sound server answers (alsa.c).

/// Loads libasound.so.2 and its functions; NULL, or what is missing.
const char *alsa_load(void);

/// Writes the mixer's frame (opening the mixer of the `default` device first where it is not
/// open) and each change for `timeout_ms` (-1: until the mixer fails) or until the sound
/// server's socket appears (`server`, a watch from `server_watch_open`, or -1). 1 when the
/// time ran out, 2 when the socket appeared, the mixer open; 0 when it cannot be opened or
/// failed (`alsa_failure` says why).
int alsa_watch(int timeout_ms, int server);

/// Why the mixer could not be opened or went.
const char *alsa_failure(void);

/// Closes the mixer (a sound server answers again).
void alsa_close(void);

/// A watch for the sound server's socket to appear (server-watch.c): an inotify descriptor
/// to poll, or -1 where the socket is not one known path (then the server is tried on a timer).
int server_watch_open(void);

/// Reads the watch's events: 1 when the socket appeared.
int server_watch_appeared(int fd);

/// `change_default_device` on ALSA's mixer. The status.
int alsa_change(int source, int mute, long delta, long maximum);

#endif
