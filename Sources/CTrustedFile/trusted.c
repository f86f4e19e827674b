#define _GNU_SOURCE
#include "CTrustedFile.h"
#include <grp.h>
#include <limits.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#ifndef PROC_SUPER_MAGIC
#define PROC_SUPER_MAGIC 0x9fa0
#endif

/* How many symbolic links one path may pass through (the kernel's limit). */
enum { LINK_LIMIT = 40 };

static int owner_is_trusted(uid_t owner) { return owner == geteuid() || owner == 0; }

/* Whether `gid` is the user's own private group: the primary group of the user's entry in
 * /etc/passwd, no other account's primary group, and with no member but the user in
 * /etc/group (Debian's user private groups, as ssh accepts them). Read from the files
 * themselves (fgetpwent, fgetgrent): no NSS module is loaded into a static program. */
static int is_private_group(gid_t gid) {
    uid_t uid = geteuid();
    char name[256] = {0};
    int primary = 0, shared = 0;
    FILE *file = fopen("/etc/passwd", "re");
    if (file == NULL) return 0;
    struct passwd *account;
    while ((account = fgetpwent(file)) != NULL) {
        if (account->pw_uid == uid) {
            if (account->pw_gid == gid) primary = 1;
            snprintf(name, sizeof name, "%s", account->pw_name);
        } else if (account->pw_gid == gid) {
            shared = 1;
        }
    }
    fclose(file);
    if (!primary || shared || name[0] == '\0') return 0;
    file = fopen("/etc/group", "re");
    if (file == NULL) return 0;
    int found = 0, private_ = 1;
    struct group *group;
    while ((group = fgetgrent(file)) != NULL) {
        if (group->gr_gid != gid) continue;
        found = 1;
        for (char **member = group->gr_mem; member != NULL && *member != NULL; member++) {
            if (strcmp(*member, name) != 0) private_ = 0;
        }
    }
    fclose(file);
    return found && private_;
}

/* A directory on the way: ours or root's, and nobody else may add or replace entries in it
 * (others' or a shared group's write permission, unless the sticky bit keeps them to their
 * own entries). */
static int check_directory(const struct stat *info) {
    if (!owner_is_trusted(info->st_uid)) return TRUSTED_FILE_DIRECTORY_FOREIGN_OWNER;
    if (info->st_mode & S_ISVTX) return TRUSTED_FILE_OK;
    if (info->st_mode & S_IWOTH) return TRUSTED_FILE_DIRECTORY_WRITABLE_BY_OTHERS;
    if ((info->st_mode & S_IWGRP) && !is_private_group(info->st_gid)) return TRUSTED_FILE_DIRECTORY_WRITABLE_BY_GROUP;
    return TRUSTED_FILE_OK;
}

/* Appends `component` (length `length`) to the absolute path `resolved`. */
static int append_component(char resolved[PATH_MAX], const char *component, size_t length) {
    size_t used = strlen(resolved);
    int slash = !(used == 1 && resolved[0] == '/');
    if (used + (size_t)slash + length + 1 > PATH_MAX) return -1;
    if (slash) resolved[used++] = '/';
    memcpy(resolved + used, component, length);
    resolved[used + length] = '\0';
    return 0;
}

/* Drops the last component of the absolute path `resolved` (".." ; "/" stays "/"). */
static void drop_component(char resolved[PATH_MAX]) {
    char *slash = strrchr(resolved, '/');
    if (slash == NULL || slash == resolved) { resolved[0] = '/'; resolved[1] = '\0'; }
    else *slash = '\0';
}

/* Each directory from `real` (an absolute path without links) up to "/". */
static int check_ancestors(const char *real) {
    char path[PATH_MAX];
    size_t length = strlen(real);
    if (length == 0 || length >= sizeof path) return TRUSTED_FILE_UNCHECKABLE;
    memcpy(path, real, length + 1);
    for (;;) {
        struct stat info;
        if (lstat(path, &info) != 0 || !S_ISDIR(info.st_mode)) return TRUSTED_FILE_UNCHECKABLE;
        int code = check_directory(&info);
        if (code != TRUSTED_FILE_OK) return code;
        if (strcmp(path, "/") == 0) return TRUSTED_FILE_OK;
        drop_component(path);
    }
}

/* Resolves `path` one component at a time, as the kernel does, checking every directory it
 * passes through and every symbolic link it follows (owned by us or root: a link is where
 * someone else could choose the file). On success `last` holds the final file's lstat. */
static int walk(const char *path, struct stat *last) {
    char resolved[PATH_MAX];
    char rest[2 * PATH_MAX];
    size_t length = strlen(path);
    if (length == 0 || length >= PATH_MAX) return TRUSTED_FILE_UNCHECKABLE;
    if (path[0] == '/') {
        strcpy(resolved, "/");
    } else if (getcwd(resolved, sizeof resolved) == NULL) {
        return TRUSTED_FILE_UNCHECKABLE;
    }
    int code = check_ancestors(resolved);
    if (code != TRUSTED_FILE_OK) return code;
    memcpy(rest, path, length + 1);
    int links = 0, have_last = 0;
    size_t at = 0;
    while (rest[at] != '\0') {
        while (rest[at] == '/') at++;
        if (rest[at] == '\0') break;
        size_t end = at;
        while (rest[end] != '/' && rest[end] != '\0') end++;
        const char *component = rest + at;
        size_t size = end - at;
        at = end;
        if (size == 1 && component[0] == '.') continue;
        if (size == 2 && component[0] == '.' && component[1] == '.') { drop_component(resolved); have_last = 0; continue; }
        char candidate[PATH_MAX];
        memcpy(candidate, resolved, strlen(resolved) + 1);
        if (append_component(candidate, component, size) != 0) return TRUSTED_FILE_UNCHECKABLE;
        struct stat info;
        if (lstat(candidate, &info) != 0) return TRUSTED_FILE_UNCHECKABLE;
        if (S_ISLNK(info.st_mode)) {
            if (!owner_is_trusted(info.st_uid)) return TRUSTED_FILE_LINK_FOREIGN_OWNER;
            if (++links > LINK_LIMIT) return TRUSTED_FILE_UNCHECKABLE;
            char target[PATH_MAX];
            ssize_t n = readlink(candidate, target, sizeof target - 1);
            if (n <= 0) return TRUSTED_FILE_UNCHECKABLE;
            target[n] = '\0';
            size_t remaining = strlen(rest + at);
            if ((size_t)n + 1 + remaining + 1 > sizeof rest) return TRUSTED_FILE_UNCHECKABLE;
            char next[2 * PATH_MAX];
            memcpy(next, target, (size_t)n);
            next[n] = '/';
            memcpy(next + n + 1, rest + at, remaining + 1);
            memcpy(rest, next, (size_t)n + 1 + remaining + 1);
            at = 0;
            if (target[0] == '/') strcpy(resolved, "/");
            have_last = 0;
            continue;
        }
        if (S_ISDIR(info.st_mode)) {
            code = check_directory(&info);
            if (code != TRUSTED_FILE_OK) return code;
        }
        memcpy(resolved, candidate, strlen(candidate) + 1);
        *last = info;
        have_last = 1;
    }
    return have_last ? TRUSTED_FILE_OK : TRUSTED_FILE_UNCHECKABLE;
}

int trusted_file_check(const char *path, int fd) {
    struct stat info;
    if (fstat(fd, &info) != 0) return TRUSTED_FILE_UNCHECKABLE;
    struct statfs filesystem;
    // A process chooses what its /proc files say (argv, environ): never an order for us.
    if (fstatfs(fd, &filesystem) != 0) return TRUSTED_FILE_UNCHECKABLE;
    if (filesystem.f_type == PROC_SUPER_MAGIC) return TRUSTED_FILE_UNDER_PROC;
    if (!owner_is_trusted(info.st_uid)) return TRUSTED_FILE_FOREIGN_OWNER;
    if (info.st_mode & (S_IWGRP | S_IWOTH)) return TRUSTED_FILE_WRITABLE_BY_OTHERS;
    struct stat last;
    int code = walk(path, &last);
    if (code != TRUSTED_FILE_OK) return code;
    // The walk must have arrived at the file that is open: else it was swapped meanwhile.
    if (last.st_dev != info.st_dev || last.st_ino != info.st_ino) return TRUSTED_FILE_UNCHECKABLE;
    return TRUSTED_FILE_OK;
}

const char *trusted_file_reason(int code) {
    switch (code) {
    case TRUSTED_FILE_OK: return "";
    case TRUSTED_FILE_FOREIGN_OWNER: return "owned by another user: refused (its commands would run as you)";
    case TRUSTED_FILE_WRITABLE_BY_OTHERS: return "writable by group or others: refused (chmod go-w it)";
    case TRUSTED_FILE_DIRECTORY_FOREIGN_OWNER: return "in a directory owned by another user: refused";
    case TRUSTED_FILE_DIRECTORY_WRITABLE_BY_OTHERS: return "in a directory others can write: refused (chmod o-w it, or the sticky bit)";
    case TRUSTED_FILE_DIRECTORY_WRITABLE_BY_GROUP: return "in a directory its group can write: refused (chmod g-w it, or the sticky bit)";
    case TRUSTED_FILE_LINK_FOREIGN_OWNER: return "reached through a symbolic link owned by another user: refused";
    case TRUSTED_FILE_UNDER_PROC: return "a file under /proc, which a process writes: refused";
    default: return "cannot check who may write it: refused";
    }
}
