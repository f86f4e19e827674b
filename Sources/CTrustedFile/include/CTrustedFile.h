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
    /// fstat, realpath or stat failed.
    TRUSTED_FILE_UNCHECKABLE = 5,
};

/// Checks the file open as `fd` (fstat: owned by the effective user or root, not writable by
/// group or others) and every directory from the one `path` names it in (the link's, when it
/// is a symbolic link) and from the file's real one up to `/` (each owned by the effective
/// user or root, and not writable by others unless sticky). Returns TRUSTED_FILE_OK or why not.
int trusted_file_check(const char *path, int fd);

/// A short English reason for a code of trusted_file_check, e.g. "writable by group or
/// others: refused (chmod go-w it)"; "" for TRUSTED_FILE_OK.
const char *trusted_file_reason(int code);

#endif
