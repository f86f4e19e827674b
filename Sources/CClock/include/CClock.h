// Local time for sysstats-bar's time block, in C because it needs libc's time zone and
// locale machinery (strftime, localtime_r, tzset), which Embedded Swift cannot import.
#ifndef CCLOCK_H
#define CCLOCK_H
#include <stddef.h>

/// Writes `seconds` (since the epoch) as strftime(3) `format` in time zone `zone` into
/// `out` (at most `capacity` bytes, no NUL) and returns the number of bytes written: 0 when
/// the text does not fit or is empty. `zone` is a tz database name (`Europe/Paris`) or "" for
/// the local zone (TZ, else /etc/localtime). Allocates nothing except when it refreshes a
/// zone's offset: at most once per zone and UTC quarter hour (when any zone can change offset).
size_t cclock_format(const char *format, const char *zone, long long seconds, char *out, size_t capacity);

/// Whether `zone` names a time zone this machine knows: a file under $TZDIR or
/// /usr/share/zoneinfo, a relative name without `..`, made of [A-Za-z0-9/_+-]. "" (local) is known.
int cclock_zone_known(const char *zone);

/// setlocale(LC_TIME, ""): month and day names follow LC_ALL / LC_TIME / LANG.
void cclock_use_locale_time(void);
#endif
