// Most of the shim is inline in include/CBarSys.h. The command blocks' child processes
// are started and reaped here (argc/argv are CLibc's, saved before main runs).
#define _GNU_SOURCE
#include "CBarSys.h"
#include "CLibc.h"
#include <sys/file.h>
#include <sys/syscall.h>

int cbarsys_open_regular_identity(const char *path, unsigned long long *device, unsigned long long *inode) {
    int fd;
    do { fd = open(path, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_NOCTTY | O_CLOEXEC); } while (fd < 0 && errno == EINTR);
    if (fd < 0) return errno == ELOOP ? CBARSYS_NOT_REGULAR : -1;
    struct stat info;
    if (fstat(fd, &info) != 0 || !S_ISREG(info.st_mode)) {
        close(fd);
        return CBARSYS_NOT_REGULAR;
    }
    *device = (unsigned long long)info.st_dev;
    *inode = (unsigned long long)info.st_ino;
    return fd;
}

int cbarsys_open_regular(const char *path) {
    unsigned long long device, inode;
    return cbarsys_open_regular_identity(path, &device, &inode);
}

int cbarsys_open_regular_follow(const char *path) {
    int fd;
    do { fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC); } while (fd < 0 && errno == EINTR);
    if (fd < 0) return -1;
    struct stat info;
    int known = fstat(fd, &info) == 0;
    if (known && S_ISREG(info.st_mode)) return fd;
    close(fd);
    return known && cbarsys_is_null_device(&info) ? CBARSYS_NULL_DEVICE : CBARSYS_NOT_REGULAR;
}

int cbarsys_create_exclusive(const char *path, int mode) {
    const int flags = O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC;
    int fd;
    do { fd = open(path, flags, (mode_t)mode); } while (fd < 0 && errno == EINTR);
    if (fd < 0 && errno == EEXIST) {
        unlink(path);
        do { fd = open(path, flags, (mode_t)mode); } while (fd < 0 && errno == EINTR);
    }
    return fd;
}

/* Adds every real-time signal the kernel has (32 … 64 on Linux) to `set` bit by bit: glibc's
   sigaddset refuses its two internal ones (32 and 33), whose default action kills too. */
static void add_realtime_signals(sigset_t *set) {
    unsigned long *words = (unsigned long *)set;
    const int bits = (int)(8 * sizeof(unsigned long));
    for (int signo = __SIGRTMIN; signo <= __SIGRTMAX; signo++) {
        words[(signo - 1) / bits] |= 1UL << ((signo - 1) % bits);
    }
}

/* The kernel's sigset size (rt_sigprocmask wants it exactly). */
#define KERNEL_SIGSET_BYTES (__SIGRTMAX / 8)

/* Before main: every real-time signal is blocked from the first instruction on, so that
   `pkill -RTMIN+n sysstats-bar` (a signal no block listens to, or one sent while the bar
   starts) never meets the default action, which ends the process; the signalfd reads them.
   A raw system call: glibc's sigprocmask leaves 32 and 33 out. Children start with the
   default mask (spawn_program). */
__attribute__((constructor))
static void cbarsys_block_realtime_signals(void) {
    sigset_t set;
    sigemptyset(&set);
    add_realtime_signals(&set);
    syscall(SYS_rt_sigprocmask, SIG_BLOCK, &set, NULL, KERNEL_SIGSET_BYTES);
}

int cbarsys_signalfd(void) {
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGTERM);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGUSR1);
    sigaddset(&set, SIGUSR2);
    sigaddset(&set, SIGHUP);
    sigaddset(&set, SIGCHLD);
    if (sigprocmask(SIG_BLOCK, &set, NULL) != 0) return -1;
    add_realtime_signals(&set);
    if (syscall(SYS_rt_sigprocmask, SIG_BLOCK, &set, NULL, KERNEL_SIGSET_BYTES) != 0) return -1;
    return signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK);
}

int cbarsys_group_alive(int pgid) {
    if (pgid <= 0) return 0;
    return kill(-pgid, 0) == 0 || errno == EPERM;
}

extern char **environ;

/// environ followed by `extra` (NULL-terminated), in a new array; NULL on failure.
static char **merged_environment(char *const extra[]) {
    size_t base = 0, more = 0;
    while (environ != NULL && environ[base] != NULL) base++;
    while (extra != NULL && extra[more] != NULL) more++;
    char **env = calloc(base + more + 1, sizeof(char *));
    if (env == NULL) return NULL;
    for (size_t i = 0; i < base; i++) env[i] = environ[i];
    for (size_t i = 0; i < more; i++) env[base + i] = extra[i];
    return env;
}

/// posix_spawn of `path` with stdin, stdout and stderr from the given descriptors (-1:
/// /dev/null) and nothing else: a child (a command, a click action, the sampler, any of which
/// may outlive the bar) must not keep the bar's descriptors, or its parent's, open — whoever
/// waits for such a pipe's end would wait for the child's. The default signal mask and
/// dispositions (the bar blocks and ignores some); `flags` adds a process group or a session.
static int spawn_program(const char *path, char *const argv[], char *const env[],
                         int in_fd, int out_fd, int err_fd, short flags) {
    posix_spawn_file_actions_t actions;
    posix_spawnattr_t attr;
    if (posix_spawn_file_actions_init(&actions) != 0) return -ENOMEM;
    if (posix_spawnattr_init(&attr) != 0) { posix_spawn_file_actions_destroy(&actions); return -ENOMEM; }
    const int fds[3] = { in_fd, out_fd, err_fd };
    for (int target = 0; target < 3; target++) {
        if (fds[target] >= 0) {
            posix_spawn_file_actions_adddup2(&actions, fds[target], target);
        } else {
            posix_spawn_file_actions_addopen(&actions, target, "/dev/null", target == 0 ? O_RDONLY : O_WRONLY, 0);
        }
    }
    posix_spawn_file_actions_addclosefrom_np(&actions, 3);
    sigset_t none, all;
    sigemptyset(&none);
    sigfillset(&all);
    posix_spawnattr_setsigmask(&attr, &none);
    posix_spawnattr_setsigdefault(&attr, &all);
    if (flags & POSIX_SPAWN_SETPGROUP) posix_spawnattr_setpgroup(&attr, 0);
    posix_spawnattr_setflags(&attr, flags | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
    pid_t pid = 0;
    int error = posix_spawn(&pid, path, &actions, &attr, argv, env);
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attr);
    return error == 0 ? (int)pid : -error;
}

static int spawn(const char *command, char *const extra_env[], int stdin_fd, int stdout_fd, int stderr_fd, short flags) {
    char **env = merged_environment(extra_env);
    if (env == NULL) return -ENOMEM;
    char *argv[] = { "sh", "-c", (char *)command, NULL };
    int pid = spawn_program("/bin/sh", argv, env, stdin_fd, stdout_fd, stderr_fd, flags);
    free(env);
    return pid;
}

int cbarsys_spawn_shell(const char *command, char *const extra_env[], int *out_fd, int *err_fd) {
    int fds[2], errs[2] = { -1, -1 };
    if (pipe2(fds, O_CLOEXEC) != 0) return -errno;
    if (err_fd != NULL && pipe2(errs, O_CLOEXEC) != 0) { int e = errno; close(fds[0]); close(fds[1]); return -e; }
    int pid = spawn(command, extra_env, -1, fds[1], errs[1], POSIX_SPAWN_SETPGROUP);
    close(fds[1]);
    if (errs[1] >= 0) close(errs[1]);
    if (pid < 0) { close(fds[0]); if (errs[0] >= 0) close(errs[0]); return pid; }
    fcntl(fds[0], F_SETFL, fcntl(fds[0], F_GETFL) | O_NONBLOCK);
    *out_fd = fds[0];
    if (err_fd != NULL) {
        fcntl(errs[0], F_SETFL, fcntl(errs[0], F_GETFL) | O_NONBLOCK);
        *err_fd = errs[0];
    }
    return pid;
}

int cbarsys_spawn_shell_duplex(const char *command, char *const extra_env[], int *out_fd, int *in_fd) {
    int out[2], in[2];
    if (pipe2(out, O_CLOEXEC) != 0) return -errno;
    if (pipe2(in, O_CLOEXEC) != 0) { int e = errno; close(out[0]); close(out[1]); return -e; }
    int pid = spawn(command, extra_env, in[0], out[1], -1, POSIX_SPAWN_SETPGROUP);
    close(out[1]);
    close(in[0]);
    if (pid < 0) { close(out[0]); close(in[1]); return pid; }
    fcntl(out[0], F_SETFL, fcntl(out[0], F_GETFL) | O_NONBLOCK);
    fcntl(in[1], F_SETFL, fcntl(in[1], F_GETFL) | O_NONBLOCK);
    *out_fd = out[0];
    *in_fd = in[1];
    return pid;
}

int cbarsys_kill(int pid, int signal) {
    return pid > 0 ? kill(pid, signal) : -1;
}

int cbarsys_spawn_detached(const char *command, char *const extra_env[]) {
    return spawn(command, extra_env, -1, -1, -1, POSIX_SPAWN_SETSID);
}

int cbarsys_reap(int *status) {
    int raw = 0;
    pid_t pid;
    do { pid = waitpid(-1, &raw, WNOHANG); } while (pid < 0 && errno == EINTR);
    if (pid <= 0) return pid < 0 ? -1 : 0;
    *status = WIFEXITED(raw) ? WEXITSTATUS(raw) : (WIFSIGNALED(raw) ? 128 + WTERMSIG(raw) : 255);
    return pid;
}

int cbarsys_sampler_running(const char *dir) {
    int fd;
    do { fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC); } while (fd < 0 && errno == EINTR);
    if (fd < 0) return errno == ENOENT ? 0 : -1;
    int running = 0;
    if (flock(fd, LOCK_SH | LOCK_NB) == 0) {
        flock(fd, LOCK_UN);
    } else {
        running = errno == EWOULDBLOCK ? 1 : -1;
    }
    close(fd);
    return running;
}

int cbarsys_open_log(const char *path, long maximum) {
    int fd;
    do { fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC, 0600); } while (fd < 0 && errno == EINTR);
    if (fd < 0) return -1;
    struct stat info;
    if (fstat(fd, &info) != 0 || !S_ISREG(info.st_mode) || info.st_uid != getuid()) { close(fd); return -1; }
    if (info.st_size > maximum && ftruncate(fd, 0) != 0) { close(fd); return -1; }
    return fd;
}

int cbarsys_spawn_daemon(const char *path, char *const argv[], int log_fd) {
    extern char **environ;
    return spawn_program(path, argv, environ, -1, -1, log_fd, POSIX_SPAWN_SETSID);
}

/* The renderer's wants file (see cbarsys_register_wants), removed at exit. */
static char wants_path[4200];

static void cbarsys_remove_wants(void) {
    if (wants_path[0]) unlink(wants_path);
}

int cbarsys_register_wants(const char *dir, const unsigned char *text, int count) {
    static int registered;
    char folder[4096], temporary[4200], final[4200];
    if (snprintf(folder, sizeof folder, "%s/wants", dir) >= (int)sizeof folder) return -1;
    if (mkdir(folder, 0700) != 0 && errno != EEXIST) return -1;
    struct stat info;
    if (lstat(folder, &info) != 0 || clibc_private_dir_rule(&info, geteuid()) != CLIBC_DIR_OK) return -1;
    int pid = (int)getpid();
    snprintf(temporary, sizeof temporary, "%s/.%d.tmp", folder, pid);
    snprintf(final, sizeof final, "%s/%d", folder, pid);
    int fd = cbarsys_create_exclusive(temporary, 0600);
    if (fd < 0) return -1;
    ssize_t written;
    do { written = write(fd, text, (size_t)count); } while (written < 0 && errno == EINTR);
    close(fd);
    if (written != count || rename(temporary, final) != 0) {
        unlink(temporary);
        return -1;
    }
    memcpy(wants_path, final, strlen(final) + 1);
    if (!registered) {
        registered = 1;
        atexit(cbarsys_remove_wants);
    }
    return 0;
}
