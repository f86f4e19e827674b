// The C library as the sampler and the history writer reach it: the system headers, plus
// inline functions for what Swift cannot call directly (errno is a macro, open/openat/fcntl/
// ioctl are variadic, SIG_IGN is a cast). Both twins of each module import this, not Glibc:
// an Embedded Swift module cannot import Glibc's Swift overlay, and one spelling for both
// keeps the twins one source.
#ifndef CLIBC_H
#define CLIBC_H
#include <dirent.h>
#include <stddef.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <poll.h>
#include <pwd.h>
#include <sched.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <net/if.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <sys/file.h>
#include <sys/inotify.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/sysinfo.h>
#include <sys/sysmacros.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <sys/un.h>
#include <sys/utsname.h>
#include <sys/wait.h>

/// The calling thread's errno.
static inline int clibc_errno(void) { return errno; }
/// Sets the calling thread's errno.
static inline void clibc_set_errno(int value) { errno = value; }
/// open(2) with its mode always given (open is variadic: not callable from Swift).
static inline int clibc_open(const char *path, int flags, mode_t mode) { return open(path, flags, mode); }
/// openat(2) with its mode always given.
static inline int clibc_openat(int dirfd, const char *path, int flags, mode_t mode) {
    return openat(dirfd, path, flags, mode);
}
/// fcntl(2) with an integer argument (0 where the command takes none).
static inline int clibc_fcntl(int fd, int command, long argument) { return fcntl(fd, command, argument); }
/// fcntl(2) with a struct flock (F_GETLK, F_SETLK).
static inline int clibc_fcntl_lock(int fd, int command, struct flock *lock) { return fcntl(fd, command, lock); }
/// ioctl(2) with a pointer argument.
static inline int clibc_ioctl(int fd, unsigned long request, void *argument) { return ioctl(fd, request, argument); }
/// signal(signal, SIG_IGN).
static inline void clibc_ignore_signal(int number) { signal(number, SIG_IGN); }
/// signal(signal, SIG_DFL).
static inline void clibc_default_signal(int number) { signal(number, SIG_DFL); }
/// The program's argument count, as main received it (saved by an ELF constructor).
int clibc_argc(void);
/// The program's arguments, as main received them (saved by an ELF constructor).
char **clibc_argv(void);
/// The process's environment (environ, which unistd.h declares only under _GNU_SOURCE).
static inline char **clibc_environ(void) { extern char **environ; return environ; }
/// close(2), for code inside a type with a close() of its own.
static inline int clibc_close(int fd) { return close(fd); }
/// read(2), for code inside a type with a read() of its own.
static inline ssize_t clibc_read(int fd, void *buffer, size_t count) { return read(fd, buffer, count); }
/// write(2), for code inside a type with a write() of its own.
static inline ssize_t clibc_write(int fd, const void *buffer, size_t count) { return write(fd, buffer, count); }
/// poll(2), for code inside a type with a poll() of its own.
static inline int clibc_poll(struct pollfd *fds, nfds_t count, int timeout) { return poll(fds, count, timeout); }
/// rename(2), for code inside a type with a rename() of its own.
static inline int clibc_rename(const char *from, const char *to) { return rename(from, to); }
/// Whether `info` (from stat or fstat) is the null device: a character device 1:3, whatever
/// its path's name (makedev and S_ISCHR are macros).
static inline int clibc_is_null_device(const struct stat *info) {
    return S_ISCHR(info->st_mode) && info->st_rdev == makedev(1, 3);
}
/// The one rule for a runtime or data directory the programs write into or read from: a
/// directory (not a symbolic link), owned by `uid`, with no access for group or others;
/// anything else could let another user plant or read what is there. `info` is lstat(2)'s
/// (or fstat(2)'s of the opened directory). SystemDirs' RuntimeDirectory (the sampler, the
/// CLI) and BarRuntime's checkRuntimeDir (the bars) both say why from its answer.
enum ClibcPrivateDir {
    CLIBC_DIR_OK = 0,
    CLIBC_DIR_SYMLINK = 1,
    CLIBC_DIR_NOT_DIRECTORY = 2,
    CLIBC_DIR_FOREIGN_OWNER = 3,
    CLIBC_DIR_OPEN_TO_OTHERS = 4,
};
static inline int clibc_private_dir_rule(const struct stat *info, uid_t uid) {
    if (S_ISLNK(info->st_mode)) return CLIBC_DIR_SYMLINK;
    if (!S_ISDIR(info->st_mode)) return CLIBC_DIR_NOT_DIRECTORY;
    if (info->st_uid != uid) return CLIBC_DIR_FOREIGN_OWNER;
    if (info->st_mode & 077) return CLIBC_DIR_OPEN_TO_OTHERS;
    return CLIBC_DIR_OK;
}
/// Where a struct dirent's name starts (a key path's offset(of:), which Embedded Swift lacks).
static inline size_t clibc_dirent_name_offset(void) { return offsetof(struct dirent, d_name); }

// st_mode's bits as mode_t (the C macros import as Int32).
static const mode_t CLIBC_S_IFMT = S_IFMT;
static const mode_t CLIBC_S_IFREG = S_IFREG;
static const mode_t CLIBC_S_IFDIR = S_IFDIR;
static const mode_t CLIBC_S_IFLNK = S_IFLNK;
static const mode_t CLIBC_S_IFIFO = S_IFIFO;
static const mode_t CLIBC_S_IFSOCK = S_IFSOCK;
static const mode_t CLIBC_S_IFCHR = S_IFCHR;
static const mode_t CLIBC_S_IFBLK = S_IFBLK;
static const mode_t CLIBC_S_IWGRP = S_IWGRP;
static const mode_t CLIBC_S_IWOTH = S_IWOTH;
#endif
