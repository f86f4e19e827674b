// System calls and byte copies made directly, without glibc's code for them: a sampler that
// wakes once a second finds none of its pages in the TLB or caches, and each libc page a
// sample enters (pread's wrapper, memmove through its IFUNC table, their data) costs a
// TLB miss of ~0.5 µs on top of the work (docs/performance-history.md, "The sixth pass").
// Thin: no state; a failed call returns -errno (errno is left alone).
#ifndef CDIRECT_H
#define CDIRECT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <errno.h>
#include <sys/epoll.h>
#if !defined(__x86_64__) && !defined(__aarch64__)
#include <errno.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

#if defined(__x86_64__)
static inline long cdirect_syscall5(long n, long a, long b, long c, long d, long e) {
    long result;
    register long r10 __asm__("r10") = d;
    register long r8 __asm__("r8") = e;
    __asm__ volatile("syscall" : "=a"(result) : "a"(n), "D"(a), "S"(b), "d"(c), "r"(r10), "r"(r8)
                     : "rcx", "r11", "memory");
    return result;
}
#define CDIRECT_PREAD64 17
#define CDIRECT_PWRITE64 18
#define CDIRECT_RENAMEAT2 316
#define CDIRECT_GETDENTS64 217
#elif defined(__aarch64__)
static inline long cdirect_syscall5(long n, long a, long b, long c, long d, long e) {
    register long x8 __asm__("x8") = n;
    register long x0 __asm__("x0") = a;
    register long x1 __asm__("x1") = b;
    register long x2 __asm__("x2") = c;
    register long x3 __asm__("x3") = d;
    register long x4 __asm__("x4") = e;
    __asm__ volatile("svc 0" : "+r"(x0) : "r"(x8), "r"(x1), "r"(x2), "r"(x3), "r"(x4) : "memory");
    return x0;
}
#define CDIRECT_PREAD64 67
#define CDIRECT_PWRITE64 68
#define CDIRECT_RENAMEAT2 276
#define CDIRECT_GETDENTS64 61
#else
static inline long cdirect_syscall5(long n, long a, long b, long c, long d, long e) {
    long result = syscall(n, a, b, c, d, e);
    return result < 0 ? -errno : result;
}
#define CDIRECT_PREAD64 SYS_pread64
#define CDIRECT_PWRITE64 SYS_pwrite64
#define CDIRECT_RENAMEAT2 SYS_renameat2
#define CDIRECT_GETDENTS64 SYS_getdents64
#endif

/// pread(2): the byte count, or -errno.
static inline long cdirect_pread(int fd, void *buffer, size_t count, long offset) {
    return cdirect_syscall5(CDIRECT_PREAD64, fd, (long)buffer, (long)count, offset, 0);
}

/// pwrite(2): the byte count, or -errno.
static inline long cdirect_pwrite(int fd, const void *bytes, size_t count, long offset) {
    return cdirect_syscall5(CDIRECT_PWRITE64, fd, (long)bytes, (long)count, offset, 0);
}

/// renameat2(dirfd, a, dirfd, b, flags): 0, or -errno.
static inline long cdirect_renameat2(int dirfd, const char *a, const char *b, unsigned flags) {
    return cdirect_syscall5(CDIRECT_RENAMEAT2, dirfd, (long)a, dirfd, (long)b, (long)flags);
}

/// getdents64(2): the next entries of the directory open at `fd` into `buffer` (struct
/// linux_dirent64 records), 0 at its end, or -errno: a listing with no DIR stream to allocate.
static inline long cdirect_getdents64(int fd, void *buffer, size_t count) {
    return cdirect_syscall5(CDIRECT_GETDENTS64, fd, (long)buffer, (long)count, 0, 0);
}

/// pidfd_open(pid, 0): a descriptor that becomes readable when the process exits, or -errno
/// (ESRCH: no such process; EINVAL: `pid` is a thread's, not a process's; ENOSYS: before
/// Linux 5.3). Number 434 on every architecture since the system call tables were unified.
static inline long cdirect_pidfd_open(int pid) {
#if defined(__x86_64__) || defined(__aarch64__)
    return cdirect_syscall5(434, pid, 0, 0, 0, 0);
#elif defined(SYS_pidfd_open)
    return cdirect_syscall5(SYS_pidfd_open, pid, 0, 0, 0, 0);
#else
    return -ENOSYS;
#endif
}

/// epoll_create1(EPOLL_CLOEXEC): the descriptor, or -errno. (Swift's Glibc module has no epoll.)
static inline int cdirect_epoll_create(void) {
    int fd = epoll_create1(EPOLL_CLOEXEC);
    return fd >= 0 ? fd : -errno;
}

/// Adds `fd` to the epoll set `epfd` for EPOLLIN (level-triggered), `key` coming back with
/// each event. 0, or -errno.
static inline int cdirect_epoll_add(int epfd, int fd, uint64_t key) {
    struct epoll_event event = {.events = EPOLLIN, .data = {.u64 = key}};
    return epoll_ctl(epfd, EPOLL_CTL_ADD, fd, &event) == 0 ? 0 : -errno;
}

/// epoll_wait(epfd, …, count ≤ 128, timeout 0): writes the keys of the ready descriptors to
/// `keys`; their number, or -errno. (epoll_event is packed on x86-64: copied here, not in Swift.)
static inline int cdirect_epoll_ready_keys(int epfd, uint64_t *keys, int count) {
    struct epoll_event events[128];
    if (count > 128) count = 128;
    int n = epoll_wait(epfd, events, count, 0);
    if (n < 0) return -errno;
    for (int i = 0; i < n; i++) keys[i] = events[i].data.u64;
    return n;
}

/// Copies `count` bytes from `source` to `destination`, front to back: the regions may
/// overlap only with `destination` before `source` (a history moved down by one point).
/// `rep movsb` where the CPU copies that way fast (x86-64), else the compiler's memmove.
static inline void cdirect_copy(void *destination, const void *source, size_t count) {
#if defined(__x86_64__)
    __asm__ volatile("rep movsb" : "+D"(destination), "+S"(source), "+c"(count) : : "memory");
#else
    __builtin_memmove(destination, source, count);
#endif
}

#endif
