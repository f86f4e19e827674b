// Most of the shim is inline in include/CBarSys.h. This file keeps argc/argv:
// glibc passes them to ELF constructors, so they are saved before main runs.
#include "CBarSys.h"

static int saved_argc;
static char **saved_argv;

__attribute__((constructor))
static void cbarsys_save_args(int argc, char **argv, char **envp) {
    (void)envp;
    saved_argc = argc;
    saved_argv = argv;
}

int cbarsys_argc(void) { return saved_argc; }
char **cbarsys_argv(void) { return saved_argv; }

int cbarsys_open_regular(const char *path) {
    int fd;
    do { fd = open(path, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_NOCTTY | O_CLOEXEC); } while (fd < 0 && errno == EINTR);
    if (fd < 0) return errno == ELOOP ? CBARSYS_NOT_REGULAR : -1;
    struct stat info;
    if (fstat(fd, &info) != 0 || !S_ISREG(info.st_mode)) {
        close(fd);
        return CBARSYS_NOT_REGULAR;
    }
    return fd;
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

int cbarsys_check_private_dir(const char *path) {
    struct stat info;
    if (lstat(path, &info) != 0) return errno == ENOENT || errno == ENOTDIR ? CBARSYS_DIR_MISSING : CBARSYS_DIR_UNREADABLE;
    if (S_ISLNK(info.st_mode)) return CBARSYS_DIR_SYMLINK;
    if (!S_ISDIR(info.st_mode)) return CBARSYS_DIR_NOT_DIRECTORY;
    if (info.st_uid != geteuid()) return CBARSYS_DIR_FOREIGN_OWNER;
    if (info.st_mode & 077) return CBARSYS_DIR_OPEN_TO_OTHERS;
    return CBARSYS_DIR_OK;
}
