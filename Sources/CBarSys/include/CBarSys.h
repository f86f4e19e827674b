// The system calls sysstats-bar needs, for Embedded Swift (which cannot import
// Glibc). Only headers, plus a few inline helpers for what Swift cannot reach
// (errno, SIG_IGN, macros).
#ifndef CBARSYS_H
#define CBARSYS_H
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/inotify.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <sys/types.h>

/// The calling thread's errno.
static inline int cbarsys_errno(void) { return errno; }
/// signal(SIGPIPE, SIG_IGN): a closed stdout then shows up as EPIPE from write().
static inline void cbarsys_ignore_sigpipe(void) { signal(SIGPIPE, SIG_IGN); }
/// Blocks SIGTERM, SIGINT, SIGUSR1 and SIGUSR2 and returns a signalfd for them (-1 on error).
static inline int cbarsys_signalfd(void) {
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGTERM);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGUSR1);
    sigaddset(&set, SIGUSR2);
    if (sigprocmask(SIG_BLOCK, &set, NULL) != 0) return -1;
    return signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK);
}
/// Milliseconds since the epoch (CLOCK_REALTIME).
static inline unsigned long long cbarsys_realtime_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (unsigned long long)ts.tv_sec * 1000ULL + (unsigned long long)ts.tv_nsec / 1000000ULL;
}
/// Milliseconds on CLOCK_MONOTONIC.
static inline unsigned long long cbarsys_monotonic_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (unsigned long long)ts.tv_sec * 1000ULL + (unsigned long long)ts.tv_nsec / 1000000ULL;
}
/// CPU time this process has used, microseconds (CLOCK_PROCESS_CPUTIME_ID).
static inline unsigned long long cbarsys_cputime_us(void) {
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (unsigned long long)ts.tv_sec * 1000000ULL + (unsigned long long)ts.tv_nsec / 1000ULL;
}
/// open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW) (open is variadic: not callable from Swift).
static inline int cbarsys_open_readonly(const char *path) {
    return open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
}
/// open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, mode): a new
/// file to write (the PNG output's temporary file).
static inline int cbarsys_open_write(const char *path, int mode) {
    return open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, (mode_t)mode);
}
/// Sets O_NONBLOCK on fd; returns -1 on error.
static inline int cbarsys_set_nonblocking(int fd) {
    int flags = fcntl(fd, F_GETFL);
    if (flags < 0) return -1;
    return fcntl(fd, F_SETFL, flags | O_NONBLOCK);
}
/// The process's argc and argv, saved before main (Embedded Swift has no CommandLine).
int cbarsys_argc(void);
char **cbarsys_argv(void);
#endif
