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
#else
static inline long cdirect_syscall5(long n, long a, long b, long c, long d, long e) {
    long result = syscall(n, a, b, c, d, e);
    return result < 0 ? -errno : result;
}
#define CDIRECT_PREAD64 SYS_pread64
#define CDIRECT_PWRITE64 SYS_pwrite64
#define CDIRECT_RENAMEAT2 SYS_renameat2
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
