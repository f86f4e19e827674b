// The sound helper's ALSA path (helper.c says what the program is): where no sound server
// answers, the mixer of ALSA's `default` device stands in, as i3status's volume module reads
// it (`device = "default"`, `mixer = "Master"`): its `Master` element (else the first with a
// playback volume) as the sink, its `Capture` element (else the first with a capture
// volume) as the source. Pushed, not polled: alsa-lib's mixer hands out poll descriptors
// (the card's control device) that wake on each change, whoever made it.
//
// libasound.so.2 is loaded with dlopen, as libpulse is: no build dependency, and a machine
// without it keeps the PulseAudio path.
#include <dlfcn.h>
#include <errno.h>
#include <math.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "helper-internal.h"

// The part of alsa-lib's API used here (<alsa/mixer.h>, stable since alsa-lib 1.0).
typedef struct snd_mixer snd_mixer_t;
typedef struct snd_mixer_elem snd_mixer_elem_t;
enum { CHANNEL_LAST = 31 };   // SND_MIXER_SCHN_LAST
#define DB_GAIN_MUTE (-9999999L)   // SND_CTL_TLV_DB_GAIN_MUTE
/// i3status's MAX_LINEAR_DB_SCALE (alsamixer's): a dB range up to 24 dB is shown linearly.
#define MAX_LINEAR_DB_SCALE 24

/// The functions that differ between playback and capture, one table for each direction.
struct direction {
    int (*has_volume)(snd_mixer_elem_t *);
    int (*has_switch)(snd_mixer_elem_t *);
    int (*has_channel)(snd_mixer_elem_t *, int);
    int (*volume_range)(snd_mixer_elem_t *, long *, long *);
    int (*db_range)(snd_mixer_elem_t *, long *, long *);
    int (*volume)(snd_mixer_elem_t *, int, long *);
    int (*db)(snd_mixer_elem_t *, int, long *);
    int (*get_switch)(snd_mixer_elem_t *, int, int *);
    int (*set_volume_all)(snd_mixer_elem_t *, long);
    int (*set_db_all)(snd_mixer_elem_t *, long, int);
    int (*set_switch_all)(snd_mixer_elem_t *, int);
};

static struct {
    int loaded;
    int (*open)(snd_mixer_t **, int);
    int (*attach)(snd_mixer_t *, const char *);
    int (*selem_register)(snd_mixer_t *, void *, void **);
    int (*load)(snd_mixer_t *);
    int (*close)(snd_mixer_t *);
    snd_mixer_elem_t *(*first_elem)(snd_mixer_t *);
    snd_mixer_elem_t *(*elem_next)(snd_mixer_elem_t *);
    const char *(*selem_name)(snd_mixer_elem_t *);
    int (*poll_descriptors)(snd_mixer_t *, struct pollfd *, unsigned);
    int (*poll_revents)(snd_mixer_t *, struct pollfd *, unsigned, unsigned short *);
    int (*handle_events)(snd_mixer_t *);
    const char *(*strerror)(int);
    int (*set_error_handler)(void (*)(const char *, int, const char *, int, const char *, ...));
    struct direction playback, capture;
} as;

static snd_mixer_t *mixer;
static char failure[256];

/// alsa-lib writes its complaints on stderr (a missing card, a plugin that cannot connect);
/// the helper says once why the mixer is not there instead.
static void quiet(const char *file, int line, const char *function, int error, const char *format, ...) {
    (void)file; (void)line; (void)function; (void)error; (void)format;
}

const char *alsa_load(void) {
    if (as.loaded) return NULL;
    void *lib = dlopen("libasound.so.2", RTLD_NOW | RTLD_LOCAL);
    if (!lib) return "libasound.so.2 not found";
#define FN(field, symbol) if (!(*(void **)&as.field = dlsym(lib, symbol))) return "libasound.so.2 lacks " symbol
    FN(open, "snd_mixer_open");
    FN(attach, "snd_mixer_attach");
    FN(selem_register, "snd_mixer_selem_register");
    FN(load, "snd_mixer_load");
    FN(close, "snd_mixer_close");
    FN(first_elem, "snd_mixer_first_elem");
    FN(elem_next, "snd_mixer_elem_next");
    FN(selem_name, "snd_mixer_selem_get_name");
    FN(poll_descriptors, "snd_mixer_poll_descriptors");
    FN(poll_revents, "snd_mixer_poll_descriptors_revents");
    FN(handle_events, "snd_mixer_handle_events");
    FN(strerror, "snd_strerror");
    FN(set_error_handler, "snd_lib_error_set_handler");
#define DIRECTION(d, word) \
    FN(d.has_volume, "snd_mixer_selem_has_" word "_volume"); \
    FN(d.has_switch, "snd_mixer_selem_has_" word "_switch"); \
    FN(d.has_channel, "snd_mixer_selem_has_" word "_channel"); \
    FN(d.volume_range, "snd_mixer_selem_get_" word "_volume_range"); \
    FN(d.db_range, "snd_mixer_selem_get_" word "_dB_range"); \
    FN(d.volume, "snd_mixer_selem_get_" word "_volume"); \
    FN(d.db, "snd_mixer_selem_get_" word "_dB"); \
    FN(d.get_switch, "snd_mixer_selem_get_" word "_switch"); \
    FN(d.set_volume_all, "snd_mixer_selem_set_" word "_volume_all"); \
    FN(d.set_db_all, "snd_mixer_selem_set_" word "_dB_all"); \
    FN(d.set_switch_all, "snd_mixer_selem_set_" word "_switch_all")
    DIRECTION(playback, "playback");
    DIRECTION(capture, "capture");
#undef DIRECTION
#undef FN
    as.set_error_handler(quiet);
    as.loaded = 1;
    return NULL;
}

void alsa_close(void) {
    if (mixer) as.close(mixer);
    mixer = NULL;
}

/// The mixer of the `default` device, opened and loaded; NULL with `failure` said.
static snd_mixer_t *open_mixer(void) {
    snd_mixer_t *m = NULL;
    int error = as.open(&m, 0);
    if (error >= 0 && (error = as.attach(m, "default")) >= 0 && (error = as.selem_register(m, NULL, NULL)) >= 0
        && (error = as.load(m)) >= 0) return m;
    snprintf(failure, sizeof failure, "no ALSA mixer: %s", as.strerror(error));
    if (m) as.close(m);
    return NULL;
}

/// The element that stands for the sink (`capture` 0) or the source: the one named `name`,
/// else the first with a volume in that direction.
static snd_mixer_elem_t *element(snd_mixer_t *m, int capture) {
    const struct direction *d = capture ? &as.capture : &as.playback;
    const char *name = capture ? "Capture" : "Master";
    snd_mixer_elem_t *first = NULL;
    for (snd_mixer_elem_t *e = as.first_elem(m); e; e = as.elem_next(e)) {
        if (!d->has_volume(e)) continue;
        const char *n = as.selem_name(e);
        if (n && strcmp(n, name) == 0) return e;
        if (!first) first = e;
    }
    return first;
}

/// The loudness mapping's floor for a dB range: 10^(min/60 dB) of the top, 0 where the
/// lowest step mutes (alsamixer's and i3status's `min_norm`).
static double db_floor(long min, long max) {
    return min == DB_GAIN_MUTE ? 0 : pow(10, (double)(min - max) / 6000.0);
}

/// The volume of `e` as a fraction of its range, as i3status and alsamixer show it: on a dB
/// scale wider than 24 dB the loudness mapping (10^(dB/60) normalized), else linear. The
/// loudest channel (`*ok` 0 where none reads).
static double fraction(const struct direction *d, snd_mixer_elem_t *e, int *ok) {
    long min = 0, max = 0, highest = 0;
    int linear = d->db_range(e, &min, &max) != 0 || min >= max;
    if (linear && (d->volume_range(e, &min, &max) != 0 || min >= max)) { *ok = 0; return 0; }
    int any = 0;
    for (int channel = 0; channel <= CHANNEL_LAST; channel++) {
        long value;
        if (!d->has_channel(e, channel) || (linear ? d->volume : d->db)(e, channel, &value) != 0) continue;
        if (!any || value > highest) highest = value;
        any = 1;
    }
    *ok = any;
    if (!any) return 0;
    if (highest < min) highest = min;
    if (highest > max) highest = max;
    if (linear || max - min <= MAX_LINEAR_DB_SCALE * 100) return (double)(highest - min) / (double)(max - min);
    double floor = db_floor(min, max);
    double normalized = (pow(10, (double)(highest - max) / 6000.0) - floor) / (1 - floor);
    return normalized < 0 ? 0 : normalized > 1 ? 1 : normalized;
}

/// Sets `e`'s channels to `target` (a fraction), by the same mapping as `fraction`,
/// rounded away from where it was (`direction` 1 up, -1 down), so a step always moves.
static int set_fraction(const struct direction *d, snd_mixer_elem_t *e, double target, int direction) {
    long min = 0, max = 0;
    if (target < 0) target = 0;
    if (target > 1) target = 1;
    if (d->db_range(e, &min, &max) == 0 && min < max) {
        double db;
        if (max - min <= MAX_LINEAR_DB_SCALE * 100) {
            db = min + target * (double)(max - min);
        } else {
            double floor = db_floor(min, max);
            target = target * (1 - floor) + floor;
            db = target > 0 ? 6000.0 * log10(target) + (double)max : (double)min;
        }
        if (db < (double)min) db = (double)min;
        return d->set_db_all(e, direction > 0 ? (long)ceil(db) : (long)floor(db), direction);
    }
    if (d->volume_range(e, &min, &max) != 0 || min >= max) return -EINVAL;
    double raw = (double)min + target * (double)(max - min);
    return d->set_volume_all(e, direction > 0 ? (long)ceil(raw - 1e-9) : (long)floor(raw + 1e-9));
}

/// Whether `e` is muted: its switch off (the first channel's, as i3status reads it).
static int muted(const struct direction *d, snd_mixer_elem_t *e) {
    int on = 1;
    if (d->has_switch(e) && d->get_switch(e, 0, &on) != 0) on = 1;
    return !on;
}

static size_t put_element(char *out, size_t room, const char *kind, int capture) {
    const struct direction *d = capture ? &as.capture : &as.playback;
    snd_mixer_elem_t *e = element(mixer, capture);
    int ok = 0;
    double f = e ? fraction(d, e, &ok) : 0;
    if (!ok) return 0;
    char description[128];
    field(description, sizeof description, as.selem_name(e));
    // Cut, not rounded: the bar's whole percent of it is then i3status's rounded percent.
    int n = snprintf(out, room, "%s\t%u\t%d\t\t%s\n", kind, (unsigned)floor(f * 10000 + 1e-9), muted(d, e), description);
    return n < 0 ? 0 : (size_t)n < room ? (size_t)n : room - 1;
}

/// The frame of the mixer's sink and source as they are now.
static void emit_mixer(void) {
    char frame[512];
    size_t n = put_element(frame, sizeof frame, "sink", 0);
    n += put_element(frame + n, sizeof frame - n, "source", 1);
    n += (size_t)snprintf(frame + n, sizeof frame - n, "end\n");
    emit_frame(frame, n < sizeof frame ? n : sizeof frame - 1);
}

int alsa_watch(int timeout_ms, int server) {
    if (!mixer && !(mixer = open_mixer())) return 0;
    emit_mixer();
    long long deadline = timeout_ms < 0 ? -1 : monotonic_ms() + timeout_ms;
    for (;;) {
        struct pollfd fds[WAIT_EXTRA_MAX];
        int count = as.poll_descriptors(mixer, fds, WAIT_EXTRA_MAX);
        if (count < 0) count = 0;
        long long left = deadline < 0 ? -1 : deadline - monotonic_ms();
        if (deadline >= 0 && left <= 0) return 1;
        int woke = wait_for(left > 0x7fffffff ? 0x7fffffff : (int)left, server, fds, count);
        if (woke != 3) return woke ? woke : 1;
        unsigned short revents = 0;
        as.poll_revents(mixer, fds, (unsigned)count, &revents);
        if (!revents) continue;
        // The card went (unplugged): the mixer is opened again at the next try.
        if ((revents & (POLLERR | POLLNVAL)) || as.handle_events(mixer) < 0) {
            snprintf(failure, sizeof failure, "the ALSA mixer went");
            alsa_close();
            return 0;
        }
        emit_mixer();
    }
}

const char *alsa_failure(void) { return failure; }

int alsa_change(int source, int mute, long delta, long maximum) {
    // A plugin that never answers must not leave a process per click.
    alarm(5);
    snd_mixer_t *m = open_mixer();
    if (!m) { fprintf(stderr, "sysstatsd-audio: %s\n", failure); return 1; }
    const struct direction *d = source ? &as.capture : &as.playback;
    snd_mixer_elem_t *e = element(m, source);
    int ok = 0, error = 0;
    double now = e ? fraction(d, e, &ok) : 0;
    if (!ok) {
        fprintf(stderr, "sysstatsd-audio: the ALSA mixer has no %s volume\n", source ? "capture" : "playback");
        as.close(m);
        return 1;
    }
    if (mute) {
        error = d->has_switch(e) ? d->set_switch_all(e, muted(d, e)) : -ENOTSUP;
    } else {
        long current = (long)floor(now * 10000 + 1e-9), target = current + delta;
        if (delta > 0 && current >= maximum) target = current;
        else if (delta > 0 && target > maximum) target = maximum;
        if (target < 0) target = 0;
        if (target != current) error = set_fraction(d, e, (double)target / 10000, delta > 0 ? 1 : -1);
    }
    if (error < 0) fprintf(stderr, "sysstatsd-audio: the ALSA mixer refused: %s\n", as.strerror(error));
    as.close(m);
    return error < 0 ? 1 : 0;
}
