#define _GNU_SOURCE
#include "CTrustedFile.h"
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int owner_is_trusted(uid_t owner) { return owner == geteuid() || owner == 0; }

/* Each directory from `real` (an absolute path without links) up to "/". */
static int check_directories(const char *real) {
    char path[PATH_MAX];
    size_t length = strlen(real);
    if (length == 0 || length >= sizeof path) return TRUSTED_FILE_UNCHECKABLE;
    memcpy(path, real, length + 1);
    for (;;) {
        struct stat info;
        if (stat(path, &info) != 0 || !S_ISDIR(info.st_mode)) return TRUSTED_FILE_UNCHECKABLE;
        if (!owner_is_trusted(info.st_uid)) return TRUSTED_FILE_DIRECTORY_FOREIGN_OWNER;
        if ((info.st_mode & S_IWOTH) && !(info.st_mode & S_ISVTX)) return TRUSTED_FILE_DIRECTORY_WRITABLE_BY_OTHERS;
        if (strcmp(path, "/") == 0) return TRUSTED_FILE_OK;
        char *slash = strrchr(path, '/');
        if (slash == NULL) return TRUSTED_FILE_UNCHECKABLE;
        if (slash == path) slash[1] = '\0'; else *slash = '\0';
    }
}

/* The real path of the directory `path` names its last component in. */
static int real_parent(const char *path, char out[PATH_MAX]) {
    char parent[PATH_MAX];
    size_t length = strlen(path);
    if (length == 0 || length >= sizeof parent) return -1;
    memcpy(parent, path, length + 1);
    char *slash = strrchr(parent, '/');
    if (slash == NULL) { parent[0] = '.'; parent[1] = '\0'; }
    else if (slash == parent) slash[1] = '\0';
    else *slash = '\0';
    return realpath(parent, out) == NULL ? -1 : 0;
}

int trusted_file_check(const char *path, int fd) {
    struct stat info;
    if (fstat(fd, &info) != 0) return TRUSTED_FILE_UNCHECKABLE;
    if (!owner_is_trusted(info.st_uid)) return TRUSTED_FILE_FOREIGN_OWNER;
    if (info.st_mode & (S_IWGRP | S_IWOTH)) return TRUSTED_FILE_WRITABLE_BY_OTHERS;
    char real[PATH_MAX];
    if (real_parent(path, real) != 0) return TRUSTED_FILE_UNCHECKABLE;
    int code = check_directories(real);
    if (code != TRUSTED_FILE_OK) return code;
    char file[PATH_MAX];
    if (realpath(path, file) == NULL) return TRUSTED_FILE_UNCHECKABLE;
    char *slash = strrchr(file, '/');
    if (slash == NULL) return TRUSTED_FILE_UNCHECKABLE;
    if (slash == file) slash[1] = '\0'; else *slash = '\0';
    return strcmp(file, real) == 0 ? TRUSTED_FILE_OK : check_directories(file);
}

const char *trusted_file_reason(int code) {
    switch (code) {
    case TRUSTED_FILE_OK: return "";
    case TRUSTED_FILE_FOREIGN_OWNER: return "owned by another user: refused (its commands would run as you)";
    case TRUSTED_FILE_WRITABLE_BY_OTHERS: return "writable by group or others: refused (chmod go-w it)";
    case TRUSTED_FILE_DIRECTORY_FOREIGN_OWNER: return "in a directory owned by another user: refused";
    case TRUSTED_FILE_DIRECTORY_WRITABLE_BY_OTHERS: return "in a directory others can write: refused (chmod o-w it, or the sticky bit)";
    default: return "cannot check who may write it: refused";
    }
}
