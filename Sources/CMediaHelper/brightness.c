// The backlight's wheel without logind: a `brightness` file the user may write (a udev rule
// giving the video group write access, as brightnessctl and light set up, or root) is
// written directly; only where it is not writable does the helper ask logind (helper.c).
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "media-internal.h"

/// Where sysfs is: /sys, or $SYSSTATSD_SYS_ROOT (the tests' fixture trees, as the sampler's --sys-root).
static const char *sys_root(void) {
    const char *root = getenv("SYSSTATSD_SYS_ROOT");
    return root && root[0] == '/' ? root : "/sys";
}

/// Reads a small sysfs number (at most 31 bytes); -1 when it cannot be read or is not one.
static long long read_number(const char *path) {
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) return -1;
    char text[32];
    ssize_t n = read(fd, text, sizeof text - 1);
    close(fd);
    if (n <= 0) return -1;
    text[n] = 0;
    char *end = NULL;
    errno = 0;
    long long value = strtoll(text, &end, 10);
    if (errno || end == text || value < 0 || (*end && *end != '\n')) return -1;
    return value;
}

int write_brightness_file(const char *subsystem, const char *name, unsigned long value) {
    char folder[512], path[560];
    if (snprintf(folder, sizeof folder, "%s/class/%s/%s", sys_root(), subsystem, name) >= (int)sizeof folder) return -1;
    snprintf(path, sizeof path, "%s/brightness", folder);
    // Not ours to write (EACCES, EROFS, a link), or not in this /sys: logind's turn.
    int fd = open(path, O_WRONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) return -1;
    struct stat info;
    if (fstat(fd, &info) != 0 || !S_ISREG(info.st_mode)) { close(fd); return -1; }
    snprintf(path, sizeof path, "%s/max_brightness", folder);
    long long highest = read_number(path);
    if (highest >= 0 && value > (unsigned long long)highest) value = (unsigned long)highest;
    char text[24];
    int length = snprintf(text, sizeof text, "%lu\n", value);
    ssize_t written;
    do { written = write(fd, text, (size_t)length); } while (written < 0 && errno == EINTR);
    int failure = written < 0 ? errno : 0;
    close(fd);
    if (failure == EACCES || failure == EPERM) return -1;
    if (written != length) {
        fprintf(stderr, "sysstatsd-media: writing %lu to %s/brightness: %s\n", value, folder,
                failure ? strerror(failure) : "short write");
        return 1;
    }
    return 0;
}
