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
/// The child's pid, or -errno.
pid_t measure_spawn(char *const argv[], int null_stdin, int null_stdout, const char *cwd);

#endif
