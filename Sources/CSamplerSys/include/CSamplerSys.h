// The few Linux calls the sampler needs that Swift's Glibc module does not declare
// (they need _GNU_SOURCE). Thin: no state, errno as the kernel left it.
#ifndef CSAMPLERSYS_H
#define CSAMPLERSYS_H

/// renameat2(dirfd, a, dirfd, b, RENAME_EXCHANGE): swaps the two names atomically (both
/// must exist). 0, or -1 with errno (EINVAL: the file system cannot exchange; ENOENT: one is gone).
int csamplersys_exchange(int dirfd, const char *a, const char *b);

/// ppoll(2) on one descriptor for POLLIN, at most `nanoseconds`: 1 when it is readable,
/// 0 when the time is up, -1 with errno (EINTR: a signal).
int csamplersys_wait_readable(int fd, long long nanoseconds);

/// Installs `handler` for SIGIO (SA_RESTART), then asks the kernel to send SIGIO to this
/// process whenever `fd` becomes readable (F_SETOWN, O_ASYNC). 0, or -1 with errno (the
/// descriptor is then left as it was).
int csamplersys_signal_when_readable(int fd, void (*handler)(int));

#endif
