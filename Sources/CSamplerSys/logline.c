// The sampler's log lines start with the local time. strftime's %z writes the offset as
// +0100; ISO 8601's extended form, which the date and the time before it use, wants +01:00,
// so the offset is written by hand from tm_gmtoff.
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include "CSamplerSys.h"

static void two_digits(char *out, long value) {
    out[0] = (char)('0' + value / 10);
    out[1] = (char)('0' + value % 10);
}

size_t csamplersys_log_time(long long seconds, char *out, size_t capacity) {
    struct tm tm;
    time_t t = (time_t)seconds;
    if (capacity < CSAMPLERSYS_LOG_TIME_LENGTH || localtime_r(&t, &tm) == NULL) return 0;
    // 19 bytes, or a year outside 0000…9999, which this shape cannot say.
    size_t n = strftime(out, capacity, "%Y-%m-%dT%H:%M:%S", &tm);
    if (n != 19) return 0;
    long offset = tm.tm_gmtoff;
    out[n++] = offset < 0 ? '-' : '+';
    if (offset < 0) offset = -offset;
    // A zone's seconds (local mean time before 1900) are dropped: the shape has none.
    long minutes = offset / 60;
    if (minutes / 60 > 99) return 0;
    two_digits(out + n, minutes / 60);
    n += 2;
    out[n++] = ':';
    two_digits(out + n, minutes % 60);
    n += 2;
    return n;
}

int csamplersys_log_wants_time(int fd) {
    if (isatty(fd)) return 0;
    // systemd connects a service's stderr to the journal and says so in JOURNAL_STREAM
    // ("DEVICE:INODE" of that stream): the journal has its own times.
    const char *stream = getenv("JOURNAL_STREAM");
    struct stat info;
    unsigned long long device, inode;
    if (stream != NULL && sscanf(stream, "%llu:%llu", &device, &inode) == 2 && fstat(fd, &info) == 0
        && (unsigned long long)info.st_dev == device && (unsigned long long)info.st_ino == inode) return 0;
    return 1;
}

long csamplersys_write_log_line(int fd, long long seconds, const void *message, size_t length) {
    char stamp[CSAMPLERSYS_LOG_TIME_LENGTH + 1];
    size_t n = seconds < 0 ? 0 : csamplersys_log_time(seconds, stamp, sizeof stamp);
    if (n > 0) stamp[n++] = ' ';
    // One write for the whole line: the history writer shares this stderr, and a log opened
    // O_APPEND takes a writev whole.
    struct iovec parts[3] = {
        {.iov_base = stamp, .iov_len = n},
        {.iov_base = (void *)message, .iov_len = length},
        {.iov_base = (void *)"\n", .iov_len = 1},
    };
    return (long)writev(fd, parts, 3);
}
