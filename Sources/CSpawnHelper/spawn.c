// Why a helper: the kernel's peak RSS of a process (wait4's ru_maxrss, GNU time's figure)
// includes the RSS of the address space its exec replaced, which for a command started by
// `sysstats measure` is a copy of sysstats itself (posix_spawn's vfork: sysstats's own).
// Forked from this small program instead, the command's figure is its own, as under GNU
// time. The helper exits at once: the command is reparented to sysstats (a child
// subreaper), which reaps it and reads its rusage.
#define _GNU_SOURCE
#include "CLibc.h"
#include "CSpawnHelper.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

enum { report_fd = 3 };

static void report(char kind, long value) {
    char line[32];
    int n = snprintf(line, sizeof line, "%c%ld\n", kind, value);
    if (n > 0) {
        ssize_t written;
        do { written = write(report_fd, line, (size_t)n); } while (written < 0 && errno == EINTR);
    }
}

static void run(int argc, char **argv) {
    if (argc == 2 && strcmp(argv[1], "--version") == 0) {
        printf("sysstats-spawn %s\n", SYSSTATS_VERSION);
        _exit(fflush(stdout) == 0 ? 0 : 1);
    }
    if (argc == 2 && strcmp(argv[1], "--help") == 0) {
        printf("usage: sysstats-spawn -- COMMAND [ARG...]\n"
               "The small parent sysstats measure starts a command from (man sysstats, measure), so\n"
               "that the kernel's peak RSS of the command is its own. Reports on descriptor 3.\n");
        _exit(fflush(stdout) == 0 ? 0 : 1);
    }
    // The report descriptor must be the caller's pipe, not one the command would inherit.
    if (argc < 3 || strcmp(argv[1], "--") != 0 || fcntl(report_fd, F_SETFD, FD_CLOEXEC) != 0) {
        static const char usage[] = "sysstats-spawn: started by sysstats measure only (-- COMMAND, report on descriptor 3)\n";
        ssize_t ignored = write(2, usage, sizeof usage - 1);
        (void)ignored;
        _exit(2);
    }
    int exec_error[2];
    if (pipe2(exec_error, O_CLOEXEC) != 0) { report('E', errno); _exit(0); }
    pid_t pid = fork();
    if (pid < 0) { report('E', errno); _exit(0); }
    if (pid == 0) {
        close(exec_error[0]);
        execvp(argv[2], argv + 2);
        int e = errno;
        ssize_t ignored = write(exec_error[1], &e, sizeof e);
        (void)ignored;
        _exit(127);
    }
    close(exec_error[1]);
    int e = 0;
    ssize_t n;
    do { n = read(exec_error[0], &e, sizeof e); } while (n < 0 && errno == EINTR);
    if (n == (ssize_t)sizeof e) {
        int status;
        while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
        report('E', e);
    } else {
        report('P', pid);
    }
    _exit(0);
}

void cspawnhelper_run(void) {
    run(clibc_argc(), clibc_argv());
}
