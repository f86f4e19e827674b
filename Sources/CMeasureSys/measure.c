#define _GNU_SOURCE
#include "CMeasureSys.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <signal.h>
#include <spawn.h>
#include <poll.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

int measure_set_child_subreaper(void) {
    return prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
}

static pid_t spawn_with(const char *path, char *const argv[], int null_stdin, int null_stdout,
                        const char *cwd, int report_fd) {
    posix_spawnattr_t attr;
    posix_spawn_file_actions_t actions;
    int rc = posix_spawnattr_init(&attr);
    if (rc != 0) return -rc;
    rc = posix_spawn_file_actions_init(&actions);
    if (rc != 0) { posix_spawnattr_destroy(&attr); return -rc; }
    // The measuring process ignores or handles signals the command must see as usual.
    sigset_t all, none;
    sigfillset(&all);
    sigemptyset(&none);
    posix_spawnattr_setsigdefault(&attr, &all);
    posix_spawnattr_setsigmask(&attr, &none);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);
    if (null_stdin) posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    if (null_stdout) posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
    if (cwd) posix_spawn_file_actions_addchdir_np(&actions, cwd);
    if (report_fd >= 0) posix_spawn_file_actions_adddup2(&actions, report_fd, 3);
    pid_t pid = -1;
    rc = path ? posix_spawn(&pid, path, &actions, &attr, argv, environ)
              : posix_spawnp(&pid, argv[0], &actions, &attr, argv, environ);
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attr);
    return rc == 0 ? pid : -rc;
}

/// The helper's one line: "P<pid>" or "E<errno>"; -EPROTO for anything else.
static pid_t helper_answer(int fd) {
    char line[32];
    size_t used = 0;
    while (used < sizeof line - 1) {
        ssize_t n = read(fd, line + used, sizeof line - 1 - used);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        used += (size_t)n;
    }
    line[used] = 0;
    char *end = NULL;
    long value = used > 1 ? strtol(line + 1, &end, 10) : 0;
    if (end == NULL || *end != '\n' || value <= 0 || value > INT_MAX) return -EPROTO;
    if (line[0] == 'P') return (pid_t)value;
    if (line[0] == 'E') return (pid_t)-value;
    return -EPROTO;
}

pid_t measure_spawn(char *const argv[], int null_stdin, int null_stdout, const char *cwd, const char *helper) {
    if (helper == NULL) return spawn_with(NULL, argv, null_stdin, null_stdout, cwd, -1);
    size_t count = 0;
    while (argv[count]) count++;
    char **helper_argv = calloc(count + 3, sizeof *helper_argv);
    if (helper_argv == NULL) return -ENOMEM;
    helper_argv[0] = (char *)helper;
    helper_argv[1] = "--";
    for (size_t i = 0; i < count; i++) helper_argv[i + 2] = argv[i];
    int report[2];
    if (pipe2(report, O_CLOEXEC) != 0) { int e = errno; free(helper_argv); return -e; }
    // Above 3, so that the spawn's dup2 onto 3 is a real one (it clears close-on-exec).
    int writer = fcntl(report[1], F_DUPFD_CLOEXEC, 10);
    close(report[1]);
    if (writer < 0) { int e = errno; close(report[0]); free(helper_argv); return -e; }
    pid_t spawner = spawn_with(helper, helper_argv, null_stdin, null_stdout, cwd, writer);
    close(writer);
    free(helper_argv);
    if (spawner < 0) { close(report[0]); return spawner; }
    pid_t answer = helper_answer(report[0]);
    close(report[0]);
    int status;
    while (waitpid(spawner, &status, 0) < 0 && errno == EINTR) {}
    return answer;
}

pid_t measure_spawn_output(char *const argv[], int *out_fd) {
    int p[2];
    if (pipe2(p, O_CLOEXEC) != 0) return -errno;
    posix_spawn_file_actions_t actions;
    int rc = posix_spawn_file_actions_init(&actions);
    if (rc != 0) { close(p[0]); close(p[1]); return -rc; }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&actions, p[1], 1);
    pid_t pid = -1;
    rc = posix_spawn(&pid, argv[0], &actions, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&actions);
    close(p[1]);
    if (rc != 0) { close(p[0]); return -rc; }
    *out_fd = p[0];
    return pid;
}

pid_t measure_ended_child(void) {
    siginfo_t info;
    memset(&info, 0, sizeof info);
    while (waitid(P_ALL, 0, &info, WEXITED | WNOHANG | WNOWAIT) != 0) {
        if (errno != EINTR) return -1;
    }
    return info.si_pid;
}

static volatile sig_atomic_t child_ended, termination, termination_unseen;
static sigset_t sleeping_mask;

static void on_child(int signal) { (void)signal; child_ended = 1; }
static void on_termination(int signal) {
    if (termination == 0) termination = signal;
    termination_unseen = 1;
}

void measure_signals_install(void) {
    static int installed;
    if (installed) return;
    installed = 1;
    static const int stops[] = {SIGTERM, SIGHUP, SIGINT};
    sigset_t handled;
    sigemptyset(&handled);
    sigaddset(&handled, SIGCHLD);
    struct sigaction action = {0};
    sigemptyset(&action.sa_mask);
    action.sa_handler = on_child;
    action.sa_flags = SA_NOCLDSTOP;
    sigaction(SIGCHLD, &action, NULL);
    action.sa_handler = on_termination;
    action.sa_flags = 0;
    for (size_t i = 0; i < sizeof stops / sizeof stops[0]; i++) {
        sigaddset(&handled, stops[i]);
        sigaction(stops[i], &action, NULL);
    }
    sigprocmask(SIG_BLOCK, &handled, &sleeping_mask);
    for (size_t i = 0; i < sizeof stops / sizeof stops[0]; i++) sigdelset(&sleeping_mask, stops[i]);
    sigdelset(&sleeping_mask, SIGCHLD);
}

int measure_sleep_until(unsigned long long deadline_ms) {
    for (;;) {
        if (child_ended || termination_unseen) break;
        struct timespec now;
        clock_gettime(CLOCK_MONOTONIC, &now);
        unsigned long long now_ms = (unsigned long long)now.tv_sec * 1000ULL + (unsigned long long)now.tv_nsec / 1000000ULL;
        if (now_ms >= deadline_ms) break;
        unsigned long long left = deadline_ms - now_ms;
        struct timespec timeout = {.tv_sec = (time_t)(left / 1000), .tv_nsec = (long)(left % 1000) * 1000000L};
        ppoll(NULL, 0, &timeout, &sleeping_mask);
    }
    int ended = child_ended;
    child_ended = 0;
    termination_unseen = 0;
    return ended;
}

int measure_termination_signal(void) { return termination; }
