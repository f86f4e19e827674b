// See include/CClock.h. A zone other than the local one is read by pointing TZ at it,
// calling tzset and localtime_r, and restoring TZ: glibc re-reads the zone file on every
// such switch, so each zone's offset is kept until the next UTC quarter hour (offsets and
// their changes are whole quarter hours everywhere) and the text is formatted from UTC
// plus that offset.
#define _GNU_SOURCE
#include "CClock.h"
#include <locale.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

enum { ZONES = 8, NAME = 64, ABBREV = 16 };

struct zone_cache {
    char name[NAME];
    long long valid_until;
    long offset;
    int isdst;
    char abbrev[ABBREV];
};

static struct zone_cache zones[ZONES];
static int zone_count;

static int valid_zone_name(const char *zone) {
    size_t n = strlen(zone);
    if (n == 0 || n >= NAME || zone[0] == '/' || strstr(zone, "..") != NULL) return 0;
    for (size_t i = 0; i < n; i++) {
        char c = zone[i];
        int ok = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')
            || c == '/' || c == '_' || c == '+' || c == '-';
        if (!ok) return 0;
    }
    return 1;
}

int cclock_zone_known(const char *zone) {
    if (zone[0] == 0) return 1;
    if (!valid_zone_name(zone)) return 0;
    const char *dir = getenv("TZDIR");
    char path[512];
    size_t used = 0;
    const char *base = dir != NULL && dir[0] == '/' ? dir : "/usr/share/zoneinfo";
    size_t bn = strlen(base), zn = strlen(zone);
    if (bn + 1 + zn + 1 > sizeof path) return 0;
    memcpy(path, base, bn); used = bn;
    path[used++] = '/';
    memcpy(path + used, zone, zn + 1);
    return access(path, R_OK) == 0;
}

/// Whether the locale LC_TIME resolves to (LC_ALL, else LC_TIME, else LANG) is C's: the
/// names are then the built-in ones and setlocale would only load code and files for nothing.
static int c_time_locale(void) {
    const char *names[] = { "LC_ALL", "LC_TIME", "LANG" };
    for (int i = 0; i < 3; i++) {
        const char *value = getenv(names[i]);
        if (value == NULL || value[0] == 0) continue;
        return strcmp(value, "C") == 0 || strcmp(value, "POSIX") == 0 || strcmp(value, "C.UTF-8") == 0
            || strcmp(value, "C.utf8") == 0;
    }
    return 1;
}

void cclock_use_locale_time(void) {
    if (!c_time_locale()) setlocale(LC_TIME, "");
}

/// The cached offset of `zone` at `seconds`, refreshed past its quarter hour; NULL when the
/// table is full or the name is not acceptable.
static struct zone_cache *zone_at(const char *zone, long long seconds) {
    struct zone_cache *z = NULL;
    for (int i = 0; i < zone_count; i++) {
        if (strcmp(zones[i].name, zone) == 0) { z = &zones[i]; break; }
    }
    if (z == NULL) {
        if (zone_count == ZONES || !valid_zone_name(zone)) return NULL;
        z = &zones[zone_count++];
        strcpy(z->name, zone);
        z->valid_until = 0;
    }
    if (seconds >= z->valid_until || seconds < z->valid_until - 900) {
        const char *saved = getenv("TZ");
        char keep[256];
        int had = saved != NULL && strlen(saved) < sizeof keep;
        if (had) strcpy(keep, saved);
        setenv("TZ", zone, 1);
        tzset();
        time_t t = (time_t)seconds;
        struct tm tm;
        int ok = localtime_r(&t, &tm) != NULL;
        if (had) setenv("TZ", keep, 1); else unsetenv("TZ");
        tzset();
        if (!ok) return NULL;
        z->offset = tm.tm_gmtoff;
        z->isdst = tm.tm_isdst;
        z->abbrev[0] = 0;
        if (tm.tm_zone != NULL) {
            strncpy(z->abbrev, tm.tm_zone, ABBREV - 1);
            z->abbrev[ABBREV - 1] = 0;
        }
        long long quarter = seconds >= 0 ? seconds / 900 : (seconds - 899) / 900;
        z->valid_until = (quarter + 1) * 900;
    }
    return z;
}

size_t cclock_format(const char *format, const char *zone, long long seconds, char *out, size_t capacity) {
    struct tm tm;
    time_t t = (time_t)seconds;
    if (zone[0] == 0) {
        if (localtime_r(&t, &tm) == NULL) return 0;
    } else {
        struct zone_cache *z = zone_at(zone, seconds);
        if (z == NULL) return 0;
        time_t shifted = (time_t)(seconds + z->offset);
        if (gmtime_r(&shifted, &tm) == NULL) return 0;
        tm.tm_gmtoff = z->offset;
        tm.tm_isdst = z->isdst;
        tm.tm_zone = z->abbrev;
    }
    return strftime(out, capacity, format, &tm);
}
