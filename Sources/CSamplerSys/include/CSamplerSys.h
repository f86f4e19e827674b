// The few Linux calls the sampler needs that Swift's Glibc module does not declare
// (they need _GNU_SOURCE). Thin: no state, errno as the kernel left it.
#ifndef CSAMPLERSYS_H
#define CSAMPLERSYS_H

#include <pthread.h>

/// renameat2(dirfd, a, dirfd, b, RENAME_EXCHANGE): swaps the two names atomically (both
/// must exist). 0, or -1 with errno (EINVAL: the file system cannot exchange; ENOENT: one is gone).
int csamplersys_exchange(int dirfd, const char *a, const char *b);

/// ppoll(2) on one descriptor for POLLIN, at most `nanoseconds`: 1 when it is readable,
/// 0 when the time is up, -1 with errno (EINTR: a signal).
int csamplersys_wait_readable(int fd, long long nanoseconds);

/// The same on three descriptors (`second`, `third` < 0: none): bit 0 `fd`, bit 1 `second`,
/// bit 2 `third` when one is readable or ended, 0 when the time is up, -1 with errno.
int csamplersys_wait_readable3(int fd, int second, int third, long long nanoseconds);

/// Asks the kernel to send SIGIO to this process whenever `fd` becomes readable (F_SETOWN,
/// O_ASYNC), the handler being already installed (``csamplersys_signal_when_readable``).
/// 0, or -1 with errno.
int csamplersys_also_signal_when_readable(int fd);

/// Installs `handler` for SIGIO (SA_RESTART), then asks the kernel to send SIGIO to this
/// process whenever `fd` becomes readable (F_SETOWN, O_ASYNC). 0, or -1 with errno (the
/// descriptor is then left as it was).
int csamplersys_signal_when_readable(int fd, void (*handler)(int));

/// mmap(2) of the first `length` bytes of `fd`, shared and read-write: the address, or NULL
/// with errno. The first call also installs the SIGBUS handler that
/// csamplersys_copy_into_mapping needs.
void *csamplersys_map_shared(int fd, size_t length);

/// munmap(2).
void csamplersys_unmap(void *address, size_t length);

/// Copies `count` bytes from `from` to `to`, an address inside a mapping from
/// csamplersys_map_shared, front to back (cdirect_copy). 0; or -1 when the file behind the
/// mapping was cut shorter than `to + count` by someone else: the SIGBUS that access raises
/// is caught, a private page replaces the file's lost one so the copy runs on, and what
/// reached the file is unknown (unmap the mapping). A SIGBUS anywhere else keeps its
/// default action.
int csamplersys_copy_into_mapping(void *to, const void *from, size_t count);

/// Opens the PSI file `path` (e.g. /proc/pressure/memory) read-write, without following a
/// symbolic link in its last component and without blocking, and writes `trigger` (e.g.
/// "some 1 2000000", NUL included) to it: from then the kernel signals POLLPRI on the
/// descriptor whenever the stall time in a window passes the threshold. Only a file of the
/// proc file system is written to (a fixture tree's file is refused with EXDEV, untouched).
/// The descriptor, or -errno (EPERM or EINVAL: a kernel before 6.5 refuses unprivileged
/// triggers; ENOENT: no PSI).
int csamplersys_pressure_trigger_open(const char *path, const char *trigger);

/// A thread of its own that waits in poll(2) for a descriptor's priority events (POLLPRI: a
/// PSI trigger fired) and counts them in `state`, so that the sampler learns of them without
/// a system call: one load of `state` (csamplersys_event_watch_state) when it samples. The
/// thread blocks every signal (SIGTERM, SIGINT and SIGIO stay the main thread's) and sleeps
/// until an event; it ends when the descriptor reports an error (POLLERR: the trigger is
/// gone). Its stack is 64 KiB; its name, `pressure-watch`.
struct csamplersys_event_watch {
    /// Twice the events counted (wrapping around), plus 1 once the thread no longer waits.
    /// Written by the thread (atomically), read by the sampler.
    unsigned state;
    int fd;            /* the descriptor watched (not owned) */
    int stop;          /* an eventfd whose count ends the wait */
    pthread_t thread;
};

/// Starts the watch of `fd`: its state, or NULL with errno (no thread then).
struct csamplersys_event_watch *csamplersys_event_watch_start(int fd);

/// Ends the thread (it is woken and joined) and frees the watch; `fd` stays open.
void csamplersys_event_watch_stop(struct csamplersys_event_watch *watch);

/// `state`: bit 0 set once the thread has ended, the rest counting events by 2.
static inline unsigned csamplersys_event_watch_state(const struct csamplersys_event_watch *watch) {
    return __atomic_load_n(&watch->state, __ATOMIC_ACQUIRE);
}

/// What statfs(2) said of a mount: the four figures df uses, or `error` (an errno; the
/// figures 0).
struct csamplersys_space {
    int error;
    unsigned long long blocks, bfree, bavail, frsize;
};

/// A process of its own (`sysstatsd-disk`, sharing the sampler's memory, holding no
/// descriptor, every signal blocked, ended with its parent) that measures `path` with
/// statfs when asked: a file system that never answers holds it, not the sampler, and the
/// sampler can still end. The worker, or NULL with errno (ENOSYS under valgrind, which
/// cannot run such a process: the caller then measures in place).
struct csamplersys_space_worker *csamplersys_space_worker_start(const char *path);

/// Asks the worker to measure and waits up to `wait_ms` for the answer: 0 with `out` filled;
/// 1 when it has not answered (then, until the answer comes, each call returns 1 at once,
/// without asking again or waiting).
int csamplersys_space_measure(struct csamplersys_space_worker *w, long wait_ms, struct csamplersys_space *out);

/// Lets the worker go: its process ends (at once when idle, else when its statfs returns).
/// The worker must not be used after.
void csamplersys_space_worker_stop(struct csamplersys_space_worker *w);

/// Stops every worker: before the sampler replaces its image (execve), which would leave
/// them waiting in the old one's memory for good.
void csamplersys_space_workers_stop_all(void);

/// The length of a log line's time: 2026-11-29T07:03:12+01:00.
#define CSAMPLERSYS_LOG_TIME_LENGTH 25

/// `seconds` (since the epoch) as the local time (TZ, else /etc/localtime) in ISO 8601 with
/// the offset from UTC (2026-11-29T07:03:12+01:00) into `out`, without a NUL: its length
/// (CSAMPLERSYS_LOG_TIME_LENGTH), or 0 when `capacity` is smaller or the time has no such
/// text. Allocates nothing once libc has read the zone (its first call).
size_t csamplersys_log_time(long long seconds, char *out, size_t capacity);

/// Writes one log line to `fd` in one writev(2): the local time at `seconds`
/// (csamplersys_log_time; none when `seconds` is negative) and a space, `message` (`length` bytes), and a newline; the line
/// without its time when there is none. What writev returned.
long csamplersys_write_log_line(int fd, long long seconds, const void *message, size_t length);
/// Whether lines written to `fd` should carry the time: not on a terminal (a person reading
/// it as it is written), not into systemd's journal (JOURNAL_STREAM names `fd`'s stream),
/// which stamps each line itself.
int csamplersys_log_wants_time(int fd);

#endif
