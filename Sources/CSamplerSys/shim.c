#define _GNU_SOURCE
#include <stdio.h>
#include <fcntl.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <poll.h>
#include <time.h>
#include <signal.h>
#include <errno.h>
#include "CSamplerSys.h"
#include "CDirect.h"

#ifndef RENAME_EXCHANGE
#define RENAME_EXCHANGE (1 << 1)
#endif

int csamplersys_exchange(int dirfd, const char *a, const char *b) {
    // The bare call: glibc's renameat2 wrapper is 2.28+, the system call Linux 3.15+; and
    // glibc's syscall() would be a page of its own in each sample (CDirect.h).
    long result = cdirect_renameat2(dirfd, a, b, RENAME_EXCHANGE);
    if (result < 0) {
        errno = (int)-result;
        return -1;
    }
    return 0;
}

int csamplersys_wait_readable(int fd, long long nanoseconds) {
    struct pollfd p = {.fd = fd, .events = POLLIN, .revents = 0};
    struct timespec timeout = {.tv_sec = (time_t)(nanoseconds / 1000000000LL), .tv_nsec = (long)(nanoseconds % 1000000000LL)};
    return ppoll(&p, 1, &timeout, NULL);
}

int csamplersys_signal_when_readable(int fd, void (*handler)(int)) {
    struct sigaction action = {0};
    action.sa_handler = handler;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;   // reads and writes go on; sleeps still end (EINTR)
    if (sigaction(SIGIO, &action, NULL) != 0) return -1;
    int flags = fcntl(fd, F_GETFL);
    if (flags < 0 || fcntl(fd, F_SETOWN, getpid()) != 0) return -1;
    return fcntl(fd, F_SETFL, flags | O_ASYNC);
}
