// Whether a file the user's programs take orders from (config.toml: its command blocks run)
// can only have been written by that user: the one check the bar, the sampler and
// `sysstats config check` share, in C so that the Embedded renderer and the Glibc programs
// call the same code.
#ifndef CTRUSTEDFILE_H
#define CTRUSTEDFILE_H

/// Why a file is not trusted (trusted_file_check).
enum {
    TRUSTED_FILE_OK = 0,
    /// The file belongs to another user (not us, not root).
    TRUSTED_FILE_FOREIGN_OWNER = 1,
    /// Group or others may write the file.
    TRUSTED_FILE_WRITABLE_BY_OTHERS = 2,
    /// A directory on its way (the link's or the file's) belongs to another user.
    TRUSTED_FILE_DIRECTORY_FOREIGN_OWNER = 3,
    /// Others may write a directory on its way and no sticky bit protects our entries there.
    TRUSTED_FILE_DIRECTORY_WRITABLE_BY_OTHERS = 4,
    /// fstat, lstat or readlink failed, or the path led elsewhere than the open file.
    TRUSTED_FILE_UNCHECKABLE = 5,
    /// A directory on its way is writable by a group other than the user's private one
    /// (and not sticky).
    TRUSTED_FILE_DIRECTORY_WRITABLE_BY_GROUP = 6,
    /// A symbolic link on its way belongs to another user, who could point it anywhere.
    TRUSTED_FILE_LINK_FOREIGN_OWNER = 7,
    /// The file is in /proc: a process writes what it says (its argv, its environment).
    TRUSTED_FILE_UNDER_PROC = 8,
};

/// Checks the file open as `fd` (fstat: owned by the effective user or root, not writable by
/// group or others, not in /proc) and the way `path` leads to it, resolved one component at a
/// time as the kernel does: every directory passed through (each owned by the effective user
/// or root, and not writable by others, nor by a group other than the user's private group,
/// unless sticky) and every symbolic link followed (owned by the effective user or root); the
/// walk must end at the open file. Returns TRUSTED_FILE_OK or why not.
int trusted_file_check(const char *path, int fd);

/// A short English reason for a code of trusted_file_check, e.g. "writable by group or
/// others: refused (chmod go-w it)"; "" for TRUSTED_FILE_OK.
const char *trusted_file_reason(int code);

#endif
