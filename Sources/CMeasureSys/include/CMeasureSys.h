// What `sysstats measure` needs from libc that Swift cannot call: prctl is variadic, and
// posix_spawn's attribute set-up reads better in C.
#ifndef CMEASURESYS_H
#define CMEASURESYS_H

#include <sys/types.h>

/// Makes the calling process a child subreaper (PR_SET_CHILD_SUBREAPER): descendants whose
/// parent exits are reparented to it, so a command's double-forked daemons stay in its tree.
/// 0, or -1 with errno set.
int measure_set_child_subreaper(void);

/// Starts argv[0] (searched in PATH) with argv, in the caller's process group (Ctrl-C reaches
/// it), every signal at its default disposition and none blocked. With `null_stdin` its stdin
/// is /dev/null, with `null_stdout` its stdout; with `cwd` (not NULL) it starts there.
/// With `helper` (the path of sysstats-spawn), the helper starts it and exits: the command
/// is then a child of the caller (a child subreaper) forked from a small program, so its
/// wait4 ru_maxrss is its own; without, posix_spawnp starts it and that figure includes the
/// caller's RSS. The command's pid, or -errno (-EPROTO: the helper did not answer).
pid_t measure_spawn(char *const argv[], int null_stdin, int null_stdout, const char *cwd, const char *helper);

/// Starts the program at argv[0] (a path) with stdin /dev/null and stdout a new pipe, whose
/// reading end (close-on-exec) goes to *out_fd. Its pid, or -errno. (`sysstats top --gpu`
/// reads the NVIDIA helper this way; swift-corelibs-foundation's Process would link ICU.)
pid_t measure_spawn_output(char *const argv[], int *out_fd);

/// A child that ended and is not reaped yet, left a zombie (waitid WNOWAIT: its /proc
/// entry can still be read); 0 when none, -1 when there are no children.
pid_t measure_ended_child(void);

/// Handles SIGCHLD (a child ended: the sleep ends) and SIGTERM, SIGHUP, SIGINT (remembered:
/// the measurement stops its tree and reports), and blocks them outside
/// measure_sleep_until, so none is lost between a check and the sleep. Idempotent.
void measure_signals_install(void);

/// Sleeps until the CLOCK_MONOTONIC time `deadline_ms`, or until a handled signal arrives
/// (it is let in only during the sleep, ppoll) or arrived since the last call. 1 when a child
/// ended since the last call, else 0.
int measure_sleep_until(unsigned long long deadline_ms);

/// The first termination signal (SIGTERM, SIGHUP, SIGINT) received, or 0.
int measure_termination_signal(void);

#endif
