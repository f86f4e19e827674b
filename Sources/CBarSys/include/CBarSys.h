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
#include <spawn.h>
#include <sys/inotify.h>
#include <sys/wait.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/types.h>

/// The calling thread's errno.
static inline int cbarsys_errno(void) { return errno; }
/// signal(SIGPIPE, SIG_IGN): a closed stdout then shows up as EPIPE from write().
static inline void cbarsys_ignore_sigpipe(void) { signal(SIGPIPE, SIG_IGN); }
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
/// Returned by cbarsys_open_regular for a file that is not a regular file (errno untouched).
#define CBARSYS_NOT_REGULAR (-2)
/// Opens a file that must be a regular file, read-only: O_NONBLOCK (a FIFO does not block
/// the open), O_NOFOLLOW (ELOOP for a symbolic link), then fstat. Returns the descriptor,
/// -1 with errno, or CBARSYS_NOT_REGULAR (a FIFO, device, directory, socket).
/// Retries on EINTR. (open is variadic: not callable from Swift.)
int cbarsys_open_regular(const char *path);
/// cbarsys_open_regular that also tells which file it opened (st_dev, st_ino of its fstat):
/// the bar keeps the sampler's two snapshot files open once it has seen them take turns.
int cbarsys_open_regular_identity(const char *path, unsigned long long *device, unsigned long long *inode);
/// Returned by cbarsys_open_regular_follow for the null device (its descriptor closed).
#define CBARSYS_NULL_DEVICE (-3)
/// Like cbarsys_open_regular, following a symbolic link (a config file kept in a dotfiles
/// repository is one): still O_NONBLOCK and fstat-checked. The null device, which
/// `--config /dev/null` names for "no config at all", is CBARSYS_NULL_DEVICE, not
/// CBARSYS_NOT_REGULAR (cbarsys_is_null_device).
int cbarsys_open_regular_follow(const char *path);
/// Whether `info` is the null device: a character device 1:3, whatever its path's name.
static inline int cbarsys_is_null_device(const struct stat *info) {
    return S_ISCHR(info->st_mode) && info->st_rdev == makedev(1, 3);
}
/// Whether `path`, followed if a link, is the null device (stat(2)).
static inline int cbarsys_names_null_device(const char *path) {
    struct stat info;
    return stat(path, &info) == 0 && cbarsys_is_null_device(&info);
}
/// Creates `path` to write, exclusively (O_CREAT | O_EXCL | O_NOFOLLOW | O_NONBLOCK): it
/// never opens what is already there (a FIFO would block, a symlink redirect). A leftover
/// from an earlier run is unlinked once and created afresh. Returns the fd or -1 with errno.
int cbarsys_create_exclusive(const char *path, int mode);

/// Blocks SIGTERM, SIGINT, SIGUSR1 and SIGUSR2 (i3bar's stop and continue), SIGHUP (reload
/// the config), SIGCHLD (a command block's child ended) and every real-time signal the kernel
/// has (blocked before main already: a block's `signal`, as i3blocks, `pkill -RTMIN+n
/// sysstats-bar`; one no block listens to is read and ignored, never the default action,
/// which would end the bar), and returns a signalfd for them all (-1 on error).
int cbarsys_signalfd(void);
/// 1 while the process group `pgid` has a member (kill(-pgid, 0)), else 0.
int cbarsys_group_alive(int pgid);
/// SIGRTMIN (glibc's value, a function call there).
static inline int cbarsys_sigrtmin(void) { return SIGRTMIN; }
/// Starts `/bin/sh -c command` in a process group of its own (so a timeout kills all it
/// started), with stdin on /dev/null, stdout a pipe whose non-blocking read end is stored
/// in *out_fd (close-on-exec), stderr another such pipe in *err_fd (NULL: /dev/null), the
/// default signal mask and dispositions (the bar blocks and ignores some), and the
/// environment plus `extra_env` (NULL-terminated "KEY=VALUE" strings, or NULL). Returns
/// the pid, or -errno.
int cbarsys_spawn_shell(const char *command, char *const extra_env[], int *out_fd, int *err_fd);
/// As cbarsys_spawn_shell, and its stdin is a pipe too: `*in_fd` (non-blocking) writes to it.
int cbarsys_spawn_shell_duplex(const char *command, char *const extra_env[], int *out_fd, int *in_fd);
/// 1 when a sampler holds the runtime directory `dir`'s lock (a shared, non-blocking flock
/// test on the directory, released at once), 0 when none does or `dir` does not exist, -1
/// when it cannot be told (not a directory, a symlink, no permission).
int cbarsys_sampler_running(const char *dir);
/// Opens `path` to append to it (a log): created 0600, never through a symlink, a regular
/// file of ours, emptied first when it grew past `maximum` bytes. Returns the fd or -1.
int cbarsys_open_log(const char *path, long maximum);
/// Tells the sampler which parts of the snapshot this renderer shows: writes `text` (`count`
/// bytes: SnapshotSections' `wantsFileText`) to `<dir>/wants/<pid>` (the folder created 0700
/// if missing, refused unless a private directory of ours; the file written to a temporary
/// name and renamed), and removes that file when the process exits. 0, or -1.
int cbarsys_register_wants(const char *dir, const unsigned char *text, int count);
/// Starts the program `path` with `argv` fully detached: its own session (a bar's process
/// group is stopped and continued by i3bar, never it), stdin and stdout on /dev/null,
/// stderr on `log_fd` (or /dev/null when -1), default signal mask and dispositions, this
/// environment. Returns the pid, or -errno.
int cbarsys_spawn_daemon(const char *path, char *const argv[], int log_fd);
/// kill(2) for one process (never a group: pid must be above 0).
int cbarsys_kill(int pid, int signal);
/// Starts `/bin/sh -c command` detached (a click action): its own session, stdio on
/// /dev/null, the environment plus `extra_env`. Returns the pid, or -errno; the caller reaps it.
int cbarsys_spawn_detached(const char *command, char *const extra_env[]);
/// waitpid(-1, &status, WNOHANG): the pid of a child that ended (its exit status, or 128 +
/// the signal that killed it, in *status), 0 when none has, -1 when there are no children.
int cbarsys_reap(int *status);
/// Sends `signal` to the process group `pgid`.
static inline int cbarsys_kill_group(int pgid, int signal) { return kill(-pgid, signal); }

/* The file blocks' looks (run_watch, path_exists, read_file; BarRuntime/FileLooker.swift),
   looks.c: none allocates, as the bar's every update does not. */

/// path_exists: whether `path` is there as stat(2) sees it (a link followed), as i3status asks.
static inline int cbarsys_path_exists(const char *path) {
    struct stat info;
    return stat(path, &info) == 0;
}
/// run_watch: whether process `pid` exists: kill(pid, 0) succeeds, or says EPERM (another
/// user's). 0 for a pid of 0 or less, which kill(2) would take for a process group.
static inline int cbarsys_process_exists(int pid) {
    return pid > 0 && (kill(pid, 0) == 0 || errno == EPERM);
}
/// run_watch: 1 when the pid file `pattern` names a running process, as i3status 2.14's
/// process_runs(): a file name with glob(3)'s wildcards (`*`, `?`, `[...]`; a leading dot
/// matched only by a dot; not in the directories) stands for every name it matches in its
/// directory, and one running process among them is enough; none matching, the pattern is
/// the path itself (GLOB_NOCHECK). A pid file is a regular file and no link (a FIFO or a
/// device is never opened), its first 16 bytes a pid as strtol(3) reads it; none, or 0 or
/// less (for which i3status's kill(0, 0) says yes), is no process. At most 4096 entries of
/// the directory and 64 matches are looked at: a folder others can fill cannot make an
/// update slow.
int cbarsys_process_runs(const char *pattern);
/// read_file's open: a regular file only, looked at (stat) before it is opened, so that a
/// FIFO or a device is never opened; then opened read-only, O_NONBLOCK, following a link
/// (the user's own config names the path), and checked again (fstat). The descriptor, or
/// -errno: -EISDIR for a directory, -EINVAL for another file that is not regular.
int cbarsys_open_readable(const char *path);
#endif
