// What the media helper's two files share (helper.c: loading libsystemd, `watch` and
// `control`; players.c: reading the players over the bus).
#ifndef SYSSTATS_MEDIA_HELPER_INTERNAL_H
#define SYSSTATS_MEDIA_HELPER_INTERNAL_H

#include <stddef.h>

#include "bus.h"

#define PREFIX "org.mpris.MediaPlayer2."
#define PLAYER_PATH "/org/mpris/MediaPlayer2"
#define PLAYER_INTERFACE "org.mpris.MediaPlayer2.Player"
/// The players followed (a frame names at most the sampler's four).
#define MAX_PLAYERS 16
#define MAX_WRITTEN 4
/// A player word as the snapshot keeps it (Snapshot.maximumInterfaceNameLength).
#define WORD_BYTES 16
#define TEXT_BYTES 256

/// libsystemd's sd-bus functions, loaded by dlopen (helper.c's load()).
extern struct bus_functions bus;

struct player {
    char name[256];
    char word[WORD_BYTES];
    char identity[128];
    char status[16];
    char title[TEXT_BYTES], artist[TEXT_BYTES], album[TEXT_BYTES];
    long long length;
    /// Where the track is (`Position`), milliseconds when read; -1 where the player gives none.
    long long position_ms;
    /// How fast it plays (`Rate`), thousandths (1000: as recorded).
    long long rate_permille;
    unsigned long changed;
    int seen;
};

/// The players on the bus, as last listed.
struct players {
    struct player players[MAX_PLAYERS];
    int count;
    /// Counts changes: a player's `changed` is the count when it last changed.
    unsigned long clock;
};
extern struct players known;

/// Copies `text` into `out` (at most `size` - 1 bytes), a control character as a space.
void field(char *out, size_t size, const char *text);

/// The players on the bus now (ListNames) into ``known``: new ones added, gone ones dropped.
/// -1 when the bus does not answer.
int list_players(sd_bus *b);

/// Reads `p`'s status and track (its identity the first time); marks it changed when they differ.
void read_player(sd_bus *b, struct player *p);

/// Writes `value` (at most the device's max_brightness) to /sys/class/SUBSYSTEM/NAME/brightness
/// when the user may write it (brightness.c): 0 done, 1 failed (said on stderr), -1 not
/// writable here (ask logind).
int write_brightness_file(const char *subsystem, const char *name, unsigned long value);

#endif
