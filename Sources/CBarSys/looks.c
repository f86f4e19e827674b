// The file blocks' looks that are more than one system call (BarRuntime/FileLooker.swift):
// run_watch's pid files, read_file's open. In C because a pid file pattern is one loop over
// getdents64's records, each match read as it comes; nothing here allocates (the records
// and the paths are on the stack, fnmatch matches one name at a time), as no update of the
// bar does.
#define _GNU_SOURCE
#include "CBarSys.h"
#include <dirent.h>
#include <fnmatch.h>
#include <limits.h>
#include <stdint.h>
#include <sys/syscall.h>

/* How many entries of a pid file pattern's directory are looked at, and how many of the
   names that match are read, at most. */
#define MATCH_ENTRIES 4096
#define MATCH_FILES 64

/* One record of getdents64(2), the kernel's struct linux_dirent64. */
struct dirent_record {
    uint64_t inode;
    int64_t offset;
    unsigned short length;
    unsigned char type;
    char name[];
};

/* The pid at the start of `text`, as strtol(3) reads it (white space, a sign, decimal
   digits); 0 when there is none, or it is 0 or less, or larger than any pid. */
static int parse_pid(const char *text, ssize_t length) {
    ssize_t i = 0;
    while (i < length && (text[i] == ' ' || (text[i] >= '\t' && text[i] <= '\r'))) i++;
    int negative = 0;
    if (i < length && (text[i] == '+' || text[i] == '-')) negative = text[i++] == '-';
    long value = 0;
    while (i < length && text[i] >= '0' && text[i] <= '9') {
        value = value * 10 + (text[i++] - '0');
        if (value > INT_MAX) return 0;
    }
    return negative ? 0 : (int)value;
}

/* Whether the pid file at `path` names a running process: a regular file (looked at before
   it is opened, so a FIFO or a device never is), no link, opened without blocking, its
   first 16 bytes (i3status's) read as a pid. */
static int pid_file_runs(const char *path) {
    struct stat info;
    if (lstat(path, &info) != 0 || !S_ISREG(info.st_mode)) return 0;
    int fd;
    do { fd = open(path, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_NOCTTY | O_CLOEXEC); } while (fd < 0 && errno == EINTR);
    if (fd < 0) return 0;
    char text[16];
    ssize_t n = -1;
    if (fstat(fd, &info) == 0 && S_ISREG(info.st_mode)) {
        do { n = read(fd, text, sizeof text); } while (n < 0 && errno == EINTR);
    }
    close(fd);
    return n > 0 && cbarsys_process_exists(parse_pid(text, n));
}

/* Whether a name in the directory open at `fd` that `pattern` (one path component, as
   glob(3) matches it) matches is a pid file whose process runs. `path` holds the path's
   directory part (`prefix` bytes, its slash included) and takes each match's name after
   it. *matched: whether any name matched. */
static int any_match_runs(int fd, const char *pattern, char *path, size_t prefix, int *matched) {
    uint64_t words[512];   /* 4 KiB, 8-byte aligned: the records' fields are read in place */
    char *records = (char *)words;
    int seen = 0, files = 0;
    while (seen < MATCH_ENTRIES && files < MATCH_FILES) {
        long n = syscall(SYS_getdents64, fd, records, sizeof words);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return 0;
        for (long at = 0; at + (long)sizeof(struct dirent_record) <= n && seen < MATCH_ENTRIES && files < MATCH_FILES; seen++) {
            const struct dirent_record *entry = (const struct dirent_record *)(records + at);
            if (entry->length == 0) return 0;
            at += entry->length;
            /* glob(3) without GLOB_PERIOD: a leading dot is matched only by a dot. */
            if (fnmatch(pattern, entry->name, FNM_PERIOD) != 0) continue;
            *matched = 1;
            if (entry->type != DT_REG && entry->type != DT_UNKNOWN) continue;
            size_t length = strnlen(entry->name, 255);
            memcpy(path + prefix, entry->name, length);
            path[prefix + length] = 0;
            files++;
            if (pid_file_runs(path)) return 1;
        }
    }
    return 0;
}

int cbarsys_process_runs(const char *pattern) {
    const char *slash = strrchr(pattern, '/');
    const char *name = slash != NULL ? slash + 1 : pattern;
    if (strpbrk(name, "*?[") == NULL) return pid_file_runs(pattern);
    size_t prefix = (size_t)(name - pattern);
    char path[4096 + 256];
    if (prefix >= 4096) return 0;
    /* The directory: what comes before the name's slash, "/" for the root, "." for none. */
    if (slash == NULL) {
        memcpy(path, ".", 2);
    } else if (slash == pattern) {
        memcpy(path, "/", 2);
    } else {
        memcpy(path, pattern, prefix - 1);
        path[prefix - 1] = 0;
    }
    int fd;
    do { fd = open(path, O_RDONLY | O_DIRECTORY | O_NONBLOCK | O_CLOEXEC); } while (fd < 0 && errno == EINTR);
    int matched = 0, runs = 0;
    if (fd >= 0) {
        memcpy(path, pattern, prefix);
        runs = any_match_runs(fd, name, path, prefix, &matched);
        close(fd);
    }
    /* No name matched: the pattern is the path itself (GLOB_NOCHECK, as i3status asks). */
    return runs || (!matched && pid_file_runs(pattern));
}

int cbarsys_open_readable(const char *path) {
    struct stat info;
    if (stat(path, &info) != 0) return -errno;
    if (!S_ISREG(info.st_mode)) return S_ISDIR(info.st_mode) ? -EISDIR : -EINVAL;
    int fd;
    do { fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC); } while (fd < 0 && errno == EINTR);
    if (fd < 0) return -errno;
    /* Replaced between the two looks: what is open must be a regular file too. */
    if (fstat(fd, &info) != 0 || !S_ISREG(info.st_mode)) {
        close(fd);
        return -EINVAL;
    }
    return fd;
}
