#define _GNU_SOURCE
#include "CMeasureSys.h"

#include <errno.h>
#include <fcntl.h>
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

pid_t measure_spawn(char *const argv[], int null_stdin, int null_stdout, const char *cwd) {
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
    pid_t pid = -1;
    rc = posix_spawnp(&pid, argv[0], &actions, &attr, argv, environ);
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attr);
    return rc == 0 ? pid : -rc;
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
