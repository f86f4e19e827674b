#define _GNU_SOURCE
#include <stdio.h>
#include <fcntl.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <poll.h>
#include <time.h>
#include "CSamplerSys.h"

#ifndef RENAME_EXCHANGE
#define RENAME_EXCHANGE (1 << 1)
#endif

int csamplersys_exchange(int dirfd, const char *a, const char *b) {
    // The raw call: glibc's renameat2 wrapper is 2.28+, the system call Linux 3.15+.
    return (int)syscall(SYS_renameat2, dirfd, a, dirfd, b, RENAME_EXCHANGE);
}

int csamplersys_wait_readable(int fd, long long nanoseconds) {
    struct pollfd p = {.fd = fd, .events = POLLIN, .revents = 0};
    struct timespec timeout = {.tv_sec = (time_t)(nanoseconds / 1000000000LL), .tv_nsec = (long)(nanoseconds % 1000000000LL)};
    return ppoll(&p, 1, &timeout, NULL);
}
