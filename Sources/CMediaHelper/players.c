// The media helper's reading of the MPRIS players over the session bus (sd-bus's message
// readers): their names (ListNames), status, track and position (Properties.GetAll), own
// name (Identity). Every text is cut to its buffer and cleaned of control characters.
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "media-internal.h"

struct players known;

/// Copies `text` into `out` (at most `size` - 1 bytes; a character the cut falls in goes), a
/// tab or another control character as a space: a field of a frame line never ends it early.
void field(char *out, size_t size, const char *text) {
    size_t n = 0;
    if (text) for (; text[n] && n + 1 < size; n++) out[n] = ((unsigned char)text[n] < 0x20 || text[n] == 0x7F) ? ' ' : text[n];
    if (text && text[n] && ((unsigned char)text[n] & 0xC0) == 0x80) {
        while (n > 0 && ((unsigned char)out[n - 1] & 0xC0) == 0x80) n--;
        if (n > 0 && ((unsigned char)out[n - 1] & 0xC0) == 0xC0) n--;
    }
    out[n] = 0;
}

/// The player word of `name` (`org.mpris.MediaPlayer2.spotify.instance5` → `spotify`).
static void player_word(char *out, const char *name) {
    const char *rest = name + strlen(PREFIX);
    size_t n = 0;
    while (rest[n] && rest[n] != '.' && n + 1 < WORD_BYTES) { out[n] = rest[n]; n++; }
    out[n] = 0;
}

static int is_player(const char *name) {
    return strncmp(name, PREFIX, strlen(PREFIX)) == 0 && name[strlen(PREFIX)] && strlen(name) < 256;
}

/// Reads a variant holding a string (`s`) or, for `as`, the strings joined by ", ".
static void read_text(sd_bus_message *m, const char *contents, char *out, size_t size) {
    out[0] = 0;
    if (strcmp(contents, "s") == 0 || strcmp(contents, "o") == 0) {
        const char *s = NULL;
        if (bus.message_enter_container(m, 'v', contents) < 0) return;
        if (bus.message_read(m, contents, &s) >= 0) field(out, size, s);
        bus.message_exit_container(m);
    } else if (strcmp(contents, "as") == 0) {
        if (bus.message_enter_container(m, 'v', "as") < 0) return;
        if (bus.message_enter_container(m, 'a', "s") >= 0) {
            const char *s = NULL;
            size_t used = 0;
            int full = 0;
            // Every string is read (sd-bus leaves an array only once it is read to its end);
            // those past the buffer are dropped, the snapshot keeps less anyway.
            while (bus.message_read(m, "s", &s) > 0) {
                if (full) continue;
                char part[TEXT_BYTES];
                field(part, sizeof part, s);
                int n = snprintf(out + used, size - used, "%s%s", used ? ", " : "", part);
                if (n < 0 || (size_t)n >= size - used) { out[used] = 0; full = 1; continue; }
                used += (size_t)n;
            }
            bus.message_exit_container(m);
        }
        bus.message_exit_container(m);
    } else {
        bus.message_skip(m, "v");
    }
}

/// A variant holding a whole number of microseconds, divided by `unit` (1000000: seconds,
/// 1000: milliseconds); -1 for anything else, or past nine digits (what the reader takes).
static long long read_microseconds(sd_bus_message *m, const char *contents, long long unit) {
    long long value = -1;
    if (strcmp(contents, "x") == 0 || strcmp(contents, "t") == 0) {
        int64_t v = 0;
        if (bus.message_enter_container(m, 'v', contents) < 0) return -1;
        if (bus.message_read(m, contents, &v) >= 0 && v >= 0) value = (long long)(v / unit);
        bus.message_exit_container(m);
    } else {
        bus.message_skip(m, "v");
    }
    return value > 999999999LL ? -1 : value;
}

/// Walks an `a{sv}` the message is at, calling `entry` for each key with the variant next.
static void each_entry(sd_bus_message *m, void (*entry)(sd_bus_message *, const char *, const char *, struct player *),
                       struct player *p) {
    if (bus.message_enter_container(m, 'a', "{sv}") <= 0) return;
    while (bus.message_enter_container(m, 'e', "sv") > 0) {
        const char *key = NULL, *contents = NULL;
        char type = 0;
        if (bus.message_read(m, "s", &key) < 0 || bus.message_peek_type(m, &type, &contents) < 0 || type != 'v' || !contents) {
            bus.message_exit_container(m);
            break;
        }
        entry(m, key, contents, p);
        bus.message_exit_container(m);
    }
    bus.message_exit_container(m);
}

/// A variant holding the rate (a double), in thousandths, within 0 and 100 times; 1000 else.
static long long read_rate(sd_bus_message *m, const char *contents) {
    long long permille = 1000;
    if (strcmp(contents, "d") == 0) {
        double v = 1;
        if (bus.message_enter_container(m, 'v', "d") < 0) return 1000;
        if (bus.message_read(m, "d", &v) >= 0 && v >= 0 && v <= 100) permille = (long long)(v * 1000 + 0.5);
        bus.message_exit_container(m);
    } else {
        bus.message_skip(m, "v");
    }
    return permille;
}

static void metadata_entry(sd_bus_message *m, const char *key, const char *contents, struct player *p) {
    if (strcmp(key, "xesam:title") == 0) read_text(m, contents, p->title, sizeof p->title);
    else if (strcmp(key, "xesam:artist") == 0) read_text(m, contents, p->artist, sizeof p->artist);
    else if (strcmp(key, "xesam:album") == 0) read_text(m, contents, p->album, sizeof p->album);
    else if (strcmp(key, "mpris:length") == 0) p->length = read_microseconds(m, contents, 1000000);
    else bus.message_skip(m, "v");
}

static void player_entry(sd_bus_message *m, const char *key, const char *contents, struct player *p) {
    if (strcmp(key, "PlaybackStatus") == 0) {
        char status[16];
        read_text(m, contents, status, sizeof status);
        const char *word = strcmp(status, "Playing") == 0 ? "playing" : strcmp(status, "Paused") == 0 ? "paused" : "stopped";
        snprintf(p->status, sizeof p->status, "%s", word);
    } else if (strcmp(key, "Position") == 0) {
        p->position_ms = read_microseconds(m, contents, 1000);
    } else if (strcmp(key, "Rate") == 0) {
        p->rate_permille = read_rate(m, contents);
    } else if (strcmp(key, "Metadata") == 0 && strcmp(contents, "a{sv}") == 0) {
        if (bus.message_enter_container(m, 'v', "a{sv}") < 0) return;
        each_entry(m, metadata_entry, p);
        bus.message_exit_container(m);
    } else {
        bus.message_skip(m, "v");
    }
}

/// Reads `p`'s status and track; its identity the first time. A player that does not answer
/// (hung, or gone meanwhile) keeps what it said last.
void read_player(sd_bus *b, struct player *p) {
    sd_bus_error error = {0};
    sd_bus_message *reply = NULL;
    if (!p->identity[0]) {
        if (bus.call_method(b, p->name, PLAYER_PATH, "org.freedesktop.DBus.Properties", "Get", &error, &reply, "ss",
                            "org.mpris.MediaPlayer2", "Identity") >= 0) {
            const char *contents = NULL;
            char type = 0;
            if (bus.message_peek_type(reply, &type, &contents) >= 0 && type == 'v' && contents)
                read_text(reply, contents, p->identity, sizeof p->identity);
            bus.message_unref(reply);
            reply = NULL;
        }
        bus.error_free(&error);
        if (!p->identity[0]) snprintf(p->identity, sizeof p->identity, "%s", p->word);
    }
    if (bus.call_method(b, p->name, PLAYER_PATH, "org.freedesktop.DBus.Properties", "GetAll", &error, &reply, "s",
                        PLAYER_INTERFACE) < 0) {
        bus.error_free(&error);
        return;
    }
    struct player was = *p;
    p->title[0] = p->artist[0] = p->album[0] = 0;
    p->length = -1;
    p->position_ms = -1;
    p->rate_permille = 1000;
    snprintf(p->status, sizeof p->status, "stopped");
    each_entry(reply, player_entry, p);
    bus.message_unref(reply);
    bus.error_free(&error);
    // A new position alone (a seek, time played) is no change of what plays: the order stays.
    if (strcmp(was.status, p->status) || strcmp(was.title, p->title) || strcmp(was.artist, p->artist) ||
        strcmp(was.album, p->album) || was.length != p->length)
        p->changed = ++known.clock;
}

/// The players on the bus now (ListNames): new ones added, gone ones dropped. -1 when the
/// bus does not answer.
int list_players(sd_bus *b) {
    sd_bus_error error = {0};
    sd_bus_message *reply = NULL;
    if (bus.call_method(b, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "ListNames",
                        &error, &reply, "") < 0) {
        bus.error_free(&error);
        return -1;
    }
    for (int i = 0; i < known.count; i++) known.players[i].seen = 0;
    if (bus.message_enter_container(reply, 'a', "s") > 0) {
        const char *name = NULL;
        while (bus.message_read(reply, "s", &name) > 0) {
            if (!is_player(name)) continue;
            int i = 0;
            while (i < known.count && strcmp(known.players[i].name, name) != 0) i++;
            if (i == known.count) {
                if (known.count == MAX_PLAYERS) continue;
                memset(&known.players[i], 0, sizeof known.players[i]);
                snprintf(known.players[i].name, sizeof known.players[i].name, "%s", name);
                player_word(known.players[i].word, name);
                known.players[i].length = -1;
                known.players[i].position_ms = -1;
                known.players[i].rate_permille = 1000;
                known.players[i].changed = ++known.clock;
                known.count++;
            }
            known.players[i].seen = 1;
        }
        bus.message_exit_container(reply);
    }
    bus.message_unref(reply);
    int kept = 0;
    for (int i = 0; i < known.count; i++) if (known.players[i].seen) known.players[kept++] = known.players[i];
    known.count = kept;
    return 0;
}
