// sysstatsd-audio change|mute (helper.c says what the program is): the default sink's or
// source's volume or mute switch set once, for a wheel or a click on the bar's block; where no
// sound server answers, the caller tries ALSA's mixer (alsa.c).
#include <signal.h>
#include <stdio.h>
#include <unistd.h>

#include "helper-internal.h"

static struct {
    pa_mainloop *loop;
    int source;        // 0: the sink
    int mute;          // toggle mute instead of changing the volume
    long delta, maximum;
    char name[256];
    int status;
    /// Why no server answered (`status` -1).
    char failure[256];
} once = { .status = 1 };

const char *change_failure(void) { return once.failure; }

static void done(pa_context *c, int success, void *data) {
    (void)data;
    if (!success) fprintf(stderr, "sysstatsd-audio: the server refused: %s\n", pa.strerror(pa.context_errno(c)));
    once.status = success ? 0 : 1;
    pa.mainloop_quit(once.loop, 0);
}

static void on_once_device(pa_context *c, const pa_device_info *i, int eol, void *data) {
    (void)data;
    if (!i || eol) {
        if (eol < 0) { fprintf(stderr, "sysstatsd-audio: no %s %s\n", once.source ? "source" : "sink", once.name); pa.mainloop_quit(once.loop, 0); }
        return;
    }
    pa_operation *o;
    if (once.mute) {
        o = (once.source ? pa.set_source_mute : pa.set_sink_mute)(c, once.name, !i->mute, done, NULL);
    } else {
        pa_cvolume v = i->volume;
        long now = (long)permyriad(&v), target = now + once.delta;
        if (once.delta > 0 && now >= once.maximum) target = now;
        else if (once.delta > 0 && target > once.maximum) target = once.maximum;
        if (target < 0) target = 0;
        pa_volume_t highest = 0;
        for (unsigned k = 0; k < v.channels && k < PA_CHANNELS_MAX; k++) if (v.values[k] > highest) highest = v.values[k];
        uint64_t wanted = ((uint64_t)target * PA_VOLUME_NORM + 5000) / 10000;
        if (wanted > PA_VOLUME_MAX) wanted = PA_VOLUME_MAX;
        for (unsigned k = 0; k < v.channels && k < PA_CHANNELS_MAX; k++) {
            // Each channel in proportion, so that the balance stays as the user set it.
            uint64_t x = highest ? (uint64_t)v.values[k] * wanted / highest : wanted;
            v.values[k] = (pa_volume_t)(x > PA_VOLUME_MAX ? PA_VOLUME_MAX : x);
        }
        o = (once.source ? pa.set_source_volume : pa.set_sink_volume)(c, once.name, &v, done, NULL);
    }
    if (o) pa.operation_unref(o); else pa.mainloop_quit(once.loop, 0);
}

static void on_once_server(pa_context *c, const pa_server_info *i, void *data) {
    (void)data;
    field(once.name, sizeof once.name, i ? (once.source ? i->default_source_name : i->default_sink_name) : NULL);
    if (!once.name[0]) { fprintf(stderr, "sysstatsd-audio: the server has no default %s\n", once.source ? "source" : "sink"); pa.mainloop_quit(once.loop, 0); return; }
    pa_operation *o = (once.source ? pa.get_source_by_name : pa.get_sink_by_name)(c, once.name, on_once_device, NULL);
    if (o) pa.operation_unref(o); else pa.mainloop_quit(once.loop, 0);
}

static void on_once_state(pa_context *c, void *data) {
    (void)data;
    int state = pa.context_get_state(c);
    if (state == PA_CONTEXT_READY) {
        pa_operation *o = pa.get_server_info(c, on_once_server, NULL);
        if (o) pa.operation_unref(o); else pa.mainloop_quit(once.loop, 0);
    } else if (state == PA_CONTEXT_FAILED || state == PA_CONTEXT_TERMINATED) {
        if (once.status == 1) {
            snprintf(once.failure, sizeof once.failure, "no sound server: %s", pa.strerror(pa.context_errno(c)));
            once.status = -1;
        }
        pa.mainloop_quit(once.loop, 0);
    }
}

int change_default_device(int source, int mute, long delta, long maximum) {
    once.source = source;
    once.mute = mute;
    once.delta = delta;
    once.maximum = maximum;
    // A server that accepts the connection and never answers must not leave a process per click.
    alarm(5);
    once.loop = pa.mainloop_new();
    pa_context *c = once.loop ? pa.context_new(pa.mainloop_get_api(once.loop), "sysstats") : NULL;
    if (!c) { fprintf(stderr, "sysstatsd-audio: cannot start libpulse\n"); return 1; }
    pa.context_set_state_callback(c, on_once_state, NULL);
    if (pa.context_connect(c, NULL, PA_CONTEXT_NOAUTOSPAWN, NULL) < 0) {
        snprintf(once.failure, sizeof once.failure, "no sound server: %s", pa.strerror(pa.context_errno(c)));
        return -1;
    }
    int ignored = 0;
    pa.mainloop_run(once.loop, &ignored);
    pa.context_set_state_callback(c, NULL, NULL);
    pa.context_disconnect(c);
    pa.context_unref(c);
    pa.mainloop_free(once.loop);
    return once.status;
}

