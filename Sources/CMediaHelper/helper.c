// sysstatsd-media: the media players on the session bus, for the sampler and the bar (the
// program's main.swift only calls cmediahelper_run).
//
// The sampler and the bar link no D-Bus library (docs/architecture.md, "The helpers"): this
// helper loads libsystemd.so.0 (its sd-bus) with dlopen, so that it builds without its files
// and a machine without it gets one clear line.
//
//     sysstatsd-media watch
//
// writes a frame on its stdout, a pipe to the sampler (ProcFS/MediaHelperFrame.swift reads
// it), when it connects and each time an MPRIS player (`org.mpris.MediaPlayer2.*`) appears,
// goes, or says that its status or track changed or that it jumped in the track: pushed by
// the bus's signals (NameOwnerChanged, PropertiesChanged, Seeked), never polled. Nothing is written while nothing
// changes, and nothing twice. One line per player, the playing ones first, then the others,
// each group the last changed first (fields separated by a tab):
//
//     player PLAYER IDENTITY STATUS LENGTH_SECONDS TITLE ARTIST ALBUM POSITION_MS RATE_PERMILLE
//     end
//
// POSITION_MS is where the track was when the helper read it (empty where the player gives
// none); the reader counts on from the frame's arrival at RATE_PERMILLE while it plays. A
// player signals no change of its position as it plays, only a jump (`Seeked`), which is
// followed too. `down REASON` (then `end`) while the session bus does not answer; it connects again after
// 1 s, then 2, 4, and every 5 s. `error REASON` (then `end`) and status 1 when libsystemd
// cannot be loaded. It ends when its reader goes (the pipe's write end reports an error the
// moment the sampler's end closes), as the sound helper does.
//
//     sysstatsd-media control PLAYER play-pause|next|previous
//
// calls the player's PlayPause, Next or Previous: what the bar runs for a click on the media
// block. PLAYER is the frame's PLAYER word (the bus name's, `spotify`).
//
//     sysstatsd-media brightness backlight|leds DEVICE VALUE
//
// sets a backlight's brightness (VALUE in its own steps, at most its max_brightness): its
// sysfs `brightness` file where the user may write it (brightness.c), else logind's
// SetBrightness on the system bus: what the bar runs for a wheel on the backlight block.
//
// C rather than Swift: it exists to call a C library. Its executable is Embedded Swift,
// whose link brings in no Swift runtime library (docs/architecture.md, "sysstatsd-gpu").
#include <dlfcn.h>
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "CLibc.h"
#include "CMediaHelper.h"

#include "bus.h"
#include "media-internal.h"

struct bus_functions bus;

/// Loads libsystemd.so.0 and its functions; NULL, or what is missing.
static const char *load(void) {
    // Only by its soname, from the loader's own path (the sampler's ChildEnvironment).
    void *lib = dlopen("libsystemd.so.0", RTLD_NOW | RTLD_LOCAL);
    if (!lib) return "libsystemd.so.0 not found (the media block needs it: Debian's libsystemd0)";
#define FN(field, symbol) if (!(*(void **)&bus.field = dlsym(lib, symbol))) return "libsystemd.so.0 lacks " symbol
    FN(open_user, "sd_bus_open_user");
    FN(open_system, "sd_bus_open_system");
    FN(flush_close_unref, "sd_bus_flush_close_unref");
    FN(add_match, "sd_bus_add_match");
    FN(call_method, "sd_bus_call_method");
    FN(set_method_call_timeout, "sd_bus_set_method_call_timeout");
    FN(get_fd, "sd_bus_get_fd");
    FN(get_events, "sd_bus_get_events");
    FN(get_timeout, "sd_bus_get_timeout");
    FN(process, "sd_bus_process");
    FN(message_read, "sd_bus_message_read");
    FN(message_enter_container, "sd_bus_message_enter_container");
    FN(message_exit_container, "sd_bus_message_exit_container");
    FN(message_peek_type, "sd_bus_message_peek_type");
    FN(message_skip, "sd_bus_message_skip");
    FN(message_unref, "sd_bus_message_unref");
    FN(error_free, "sd_bus_error_free");
#undef FN
    return NULL;
}

// ---- watch ----

static struct {
    int dirty;
    char last[MAX_WRITTEN * 1400 + 16];
    size_t last_length;
    int last_valid;
} w;

/// Writes `text` on stdout unless it is the frame written last.
static void emit(const char *text, size_t length) {
    if (w.last_valid && length == w.last_length && memcmp(text, w.last, length) == 0) return;
    if (length < sizeof w.last) { memcpy(w.last, text, length); w.last_length = length; w.last_valid = 1; } else w.last_valid = 0;
    size_t done = 0;
    while (done < length) {
        ssize_t n = write(STDOUT_FILENO, text + done, length - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) exit(0);   // the reader is gone
        done += (size_t)n;
    }
}

static void emit_down(const char *reason) {
    char line[300];
    char text[256];
    field(text, sizeof text, reason);
    int n = snprintf(line, sizeof line, "down\t%s\nend\n", text);
    emit(line, (size_t)n);
}

/// Whether player `a` comes before `b` in a frame: playing first, then the last changed.
static int before(const struct player *a, const struct player *b) {
    int pa = strcmp(a->status, "playing") == 0, pb = strcmp(b->status, "playing") == 0;
    if (pa != pb) return pa;
    return a->changed > b->changed;
}

/// Reads every player and writes the frame (when it differs from the last). -1: the bus is gone.
static int refresh(sd_bus *b) {
    if (list_players(b) < 0) return -1;
    int order[MAX_PLAYERS];
    for (int i = 0; i < known.count; i++) {
        read_player(b, &known.players[i]);
        int j = i;
        while (j > 0 && before(&known.players[i], &known.players[order[j - 1]])) { order[j] = order[j - 1]; j--; }
        order[j] = i;
    }
    char frame[sizeof w.last];
    size_t used = 0;
    for (int k = 0; k < known.count && k < MAX_WRITTEN; k++) {
        const struct player *p = &known.players[order[k]];
        char length[24] = "", position[24] = "";
        if (p->length >= 0) snprintf(length, sizeof length, "%lld", p->length);
        if (p->position_ms >= 0) snprintf(position, sizeof position, "%lld", p->position_ms);
        int n = snprintf(frame + used, sizeof frame - used, "player\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%lld\n", p->word,
                         p->identity, p->status, length, p->title, p->artist, p->album, position, p->rate_permille);
        if (n < 0 || (size_t)n >= sizeof frame - used) break;
        used += (size_t)n;
    }
    memcpy(frame + used, "end\n", 4);
    emit(frame, used + 4);
    return 0;
}

static int on_signal(sd_bus_message *m, void *data, sd_bus_error *error) {
    (void)m; (void)data; (void)error;
    w.dirty = 1;
    return 0;
}

/// Waits `seconds`, or ends the helper as soon as its reader is gone.
static void wait_for_reader(unsigned seconds) {
    // No event asked for: only POLLERR and POLLHUP, which a pipe whose reader closed reports.
    struct pollfd p = { .fd = STDOUT_FILENO, .events = 0, .revents = 0 };
    int n;
    do { n = poll(&p, 1, (int)seconds * 1000); } while (n < 0 && errno == EINTR);
    if (n > 0 && (p.revents & (POLLERR | POLLHUP))) exit(0);
}

/// The least time between two readings of the players: signals coalesce, and a frame
/// (with the sampler's publish and the bars' redraw it brings) comes at most 20 times a second.
#define REFRESH_GAP_MS 50

static uint64_t now_ms(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (uint64_t)now.tv_sec * 1000u + (uint64_t)now.tv_nsec / 1000000u;
}

/// The milliseconds until sd-bus's next deadline (-1: none).
static int timeout_ms(sd_bus *b) {
    uint64_t until = 0;
    if (bus.get_timeout(b, &until) <= 0 || until == UINT64_MAX) return -1;
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    uint64_t now_us = (uint64_t)now.tv_sec * 1000000u + (uint64_t)now.tv_nsec / 1000u;
    if (until <= now_us) return 0;
    uint64_t ms = (until - now_us + 999) / 1000;
    return ms > 60000 ? 60000 : (int)ms;
}

/// Follows the players over one connection; returns when the bus goes.
static void follow(sd_bus *b, unsigned *backoff) {
    bus.set_method_call_timeout(b, 500000);
    if (bus.add_match(b, NULL, "type='signal',sender='org.freedesktop.DBus',interface='org.freedesktop.DBus',"
                      "member='NameOwnerChanged',arg0namespace='org.mpris.MediaPlayer2'", on_signal, NULL) < 0 ||
        bus.add_match(b, NULL, "type='signal',interface='org.freedesktop.DBus.Properties',member='PropertiesChanged',"
                      "path='" PLAYER_PATH "'", on_signal, NULL) < 0 ||
        bus.add_match(b, NULL, "type='signal',interface='" PLAYER_INTERFACE "',member='Seeked',path='" PLAYER_PATH "'",
                      on_signal, NULL) < 0) {
        emit_down("the session bus refused a match rule");
        return;
    }
    known.count = 0;
    w.dirty = 1;
    uint64_t last_refresh = 0;
    for (;;) {
        int r;
        while ((r = bus.process(b, NULL)) > 0) {}
        if (r < 0) { emit_down(strerror(-r)); return; }
        uint64_t now = now_ms();
        if (w.dirty && (last_refresh == 0 || now - last_refresh >= REFRESH_GAP_MS)) {
            w.dirty = 0;
            last_refresh = now;
            if (refresh(b) < 0) { emit_down("the session bus does not answer"); return; }
            *backoff = 1;
            continue;   // what came during the calls is processed first
        }
        int timeout = timeout_ms(b);
        if (w.dirty) {
            // A player that signals without pause is read again at most every REFRESH_GAP_MS.
            int left = (int)(last_refresh + REFRESH_GAP_MS - now);
            if (timeout < 0 || left < timeout) timeout = left;
        }
        struct pollfd p[2] = {
            { .fd = bus.get_fd(b), .events = (short)bus.get_events(b), .revents = 0 },
            { .fd = STDOUT_FILENO, .events = 0, .revents = 0 },
        };
        int n = poll(p, 2, timeout);
        if (n < 0 && errno != EINTR) { emit_down(strerror(errno)); return; }
        if (p[1].revents & (POLLERR | POLLHUP)) exit(0);
    }
}

static int watch(void) {
    unsigned backoff = 1;
    for (;;) {
        sd_bus *b = NULL;
        int r = bus.open_user(&b);
        if (r < 0) {
            emit_down(strerror(-r));
        } else {
            follow(b, &backoff);
            bus.flush_close_unref(b);
        }
        wait_for_reader(backoff);
        backoff = backoff >= 4 ? 5 : backoff * 2;
    }
}

// ---- control ----

/// Calls `method` on the player whose word is `word` (the first such on the bus). The status.
static int control(const char *word, const char *method) {
    sd_bus *b = NULL;
    int r = bus.open_user(&b);
    if (r < 0) { fprintf(stderr, "sysstatsd-media: no session bus: %s\n", strerror(-r)); return 1; }
    bus.set_method_call_timeout(b, 2000000);
    if (list_players(b) < 0) { fprintf(stderr, "sysstatsd-media: the session bus does not answer\n"); return 1; }
    for (int i = 0; i < known.count; i++) {
        if (strcmp(known.players[i].word, word) != 0) continue;
        sd_bus_error error = {0};
        r = bus.call_method(b, known.players[i].name, PLAYER_PATH, PLAYER_INTERFACE, method, &error, NULL, "");
        if (r < 0) fprintf(stderr, "sysstatsd-media: %s.%s: %s\n", known.players[i].name, method, error.message ? error.message : strerror(-r));
        bus.error_free(&error);
        bus.flush_close_unref(b);
        return r < 0 ? 1 : 0;
    }
    fprintf(stderr, "sysstatsd-media: no player %s on the session bus\n", word);
    bus.flush_close_unref(b);
    return 1;
}

/// Sets backlight `name`'s brightness to `value` (its own steps) through logind's session
/// object on the system bus, as a desktop's brightness keys do: no root or udev rule needed
/// for the user's own seat. The status.
static int set_brightness(const char *subsystem, const char *name, unsigned long value) {
    sd_bus *b = NULL;
    int r = bus.open_system(&b);
    if (r < 0) { fprintf(stderr, "sysstatsd-media: no system bus: %s\n", strerror(-r)); return 1; }
    bus.set_method_call_timeout(b, 2000000);
    sd_bus_error error = {0};
    r = bus.call_method(b, "org.freedesktop.login1", "/org/freedesktop/login1/session/auto", "org.freedesktop.login1.Session",
                        "SetBrightness", &error, NULL, "ssu", subsystem, name, (uint32_t)value);
    if (r < 0) fprintf(stderr, "sysstatsd-media: logind's SetBrightness: %s\n", error.message ? error.message : strerror(-r));
    bus.error_free(&error);
    bus.flush_close_unref(b);
    return r < 0 ? 1 : 0;
}

static const char usage_text[] = "usage: sysstatsd-media watch | control PLAYER play-pause|next|previous"
                                 " | brightness backlight|leds DEVICE VALUE\n";

static int run(int argc, char **argv) {
    if (argc > 1 && strcmp(argv[1], "--version") == 0) {
        printf("sysstatsd-media %s\n", SYSSTATS_VERSION);
        return 0;
    }
    if (argc > 1 && strcmp(argv[1], "--help") == 0) {
        printf("%sThe media helper of the sampler and the bar (man sysstatsd): `watch` writes the\n"
               "MPRIS players' status and track on stdout at each change; `control` plays, pauses or skips.\n", usage_text);
        return 0;
    }
    if (argc == 2 && strcmp(argv[1], "watch") == 0) {
        signal(SIGPIPE, SIG_IGN);
        const char *missing = load();
        if (missing) {
            printf("error\t%s\nend\n", missing);
            fflush(stdout);
            return 1;
        }
        return watch();
    }
    if (argc == 4 && strcmp(argv[1], "control") == 0) {
        const char *method = strcmp(argv[3], "play-pause") == 0 ? "PlayPause"
                           : strcmp(argv[3], "next") == 0 ? "Next"
                           : strcmp(argv[3], "previous") == 0 ? "Previous" : NULL;
        if (!method || !argv[2][0] || strlen(argv[2]) >= WORD_BYTES) { fputs(usage_text, stderr); return 2; }
        const char *missing = load();
        if (missing) { fprintf(stderr, "sysstatsd-media: %s\n", missing); return 1; }
        return control(argv[2], method);
    }
    if (argc == 5 && strcmp(argv[1], "brightness") == 0) {
        char *end = NULL;
        errno = 0;
        unsigned long value = strtoul(argv[4], &end, 10);
        int device_ok = argv[3][0] && strlen(argv[3]) < 64 && !strchr(argv[3], '/');
        if ((strcmp(argv[2], "backlight") != 0 && strcmp(argv[2], "leds") != 0) || !device_ok || errno || !end || *end ||
            end == argv[4] || argv[4][0] == '-' || value > UINT32_MAX) {
            fputs(usage_text, stderr);
            return 2;
        }
        if (strcmp(argv[3], ".") == 0 || strcmp(argv[3], "..") == 0) { fputs(usage_text, stderr); return 2; }
        int done = write_brightness_file(argv[2], argv[3], value);
        if (done >= 0) return done;
        const char *missing = load();
        if (missing) { fprintf(stderr, "sysstatsd-media: %s\n", missing); return 1; }
        return set_brightness(argv[2], argv[3], value);
    }
    fputs(usage_text, stderr);
    return 2;
}

void cmediahelper_run(void) {
    exit(run(clibc_argc(), clibc_argv()));
}
