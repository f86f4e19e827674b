#define _GNU_SOURCE
#include <stdio.h>
#include <fcntl.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <poll.h>
#include <time.h>
#include <signal.h>
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/vfs.h>
#include "CSamplerSys.h"
#include "CDirect.h"

#ifndef RENAME_EXCHANGE
#define RENAME_EXCHANGE (1 << 1)
#endif

int csamplersys_exchange(int dirfd, const char *a, const char *b) {
    // The bare call: glibc's renameat2 wrapper is 2.28+, the system call Linux 3.15+; and
    // glibc's syscall() would be a page of its own in each sample (CDirect.h).
    long result = cdirect_renameat2(dirfd, a, b, RENAME_EXCHANGE);
    if (result < 0) {
        errno = (int)-result;
        return -1;
    }
    return 0;
}

int csamplersys_wait_readable(int fd, long long nanoseconds) {
    struct pollfd p = {.fd = fd, .events = POLLIN, .revents = 0};
    struct timespec timeout = {.tv_sec = (time_t)(nanoseconds / 1000000000LL), .tv_nsec = (long)(nanoseconds % 1000000000LL)};
    return ppoll(&p, 1, &timeout, NULL);
}

int csamplersys_wait_readable3(int fd, int second, int third, long long nanoseconds) {
    struct pollfd p[3] = {{.fd = fd, .events = POLLIN, .revents = 0}, {.fd = second, .events = POLLIN, .revents = 0},
                          {.fd = third, .events = POLLIN, .revents = 0}};
    struct timespec timeout = {.tv_sec = (time_t)(nanoseconds / 1000000000LL), .tv_nsec = (long)(nanoseconds % 1000000000LL)};
    // A negative descriptor is left out by poll itself (its revents stay 0).
    int n = ppoll(p, 3, &timeout, NULL);
    if (n <= 0) return n;
    return (p[0].revents ? 1 : 0) | (second >= 0 && p[1].revents ? 2 : 0) | (third >= 0 && p[2].revents ? 4 : 0);
}

int csamplersys_also_signal_when_readable(int fd) {
    int flags = fcntl(fd, F_GETFL);
    if (flags < 0 || fcntl(fd, F_SETOWN, getpid()) != 0) return -1;
    return fcntl(fd, F_SETFL, flags | O_ASYNC);
}

int csamplersys_signal_when_readable(int fd, void (*handler)(int)) {
    struct sigaction action = {0};
    action.sa_handler = handler;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;   // reads and writes go on; sleeps still end (EINTR)
    if (sigaction(SIGIO, &action, NULL) != 0) return -1;
    int flags = fcntl(fd, F_GETFL);
    if (flags < 0 || fcntl(fd, F_SETOWN, getpid()) != 0) return -1;
    return fcntl(fd, F_SETFL, flags | O_ASYNC);
}

// The copy into a mapping that SIGBUS may interrupt, in thread-local storage: on the page of
// the thread's block, which each sample touches anyway (the stack protector's canary).
static __thread char *copy_begin, *copy_end;
static __thread volatile sig_atomic_t copy_faulted;
static long page_size = 4096;

static void bus_error(int signal, siginfo_t *info, void *context) {
    (void)context;
    char *address = info->si_addr;
    if (info->si_code > 0 && address >= copy_begin && address < copy_end) {
        // The file was cut short under the copy: a private page where the file's was lets the
        // copy run on, harmlessly, and the caller learns from copy_faulted. (mmap is
        // async-signal-safe; no jump out of the handler, so no setjmp on the copy's way.)
        void *page = (void *)((uintptr_t)address & ~(uintptr_t)(page_size - 1));
        if (mmap(page, (size_t)page_size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) != MAP_FAILED) {
            copy_faulted = 1;
            return;
        }
    }
    // Not a copy of ours: as if there were no handler. Returning retries a faulting access,
    // which now ends the process; a SIGBUS sent by someone is sent again.
    struct sigaction standard = {0};
    standard.sa_handler = SIG_DFL;
    sigaction(signal, &standard, NULL);
    if (info->si_code <= 0) raise(signal);
}

void *csamplersys_map_shared(int fd, size_t length) {
    static int handling = 0;
    if (!handling) {
        long size = sysconf(_SC_PAGESIZE);
        if (size > 0) page_size = size;
        struct sigaction action = {0};
        action.sa_sigaction = bus_error;
        sigemptyset(&action.sa_mask);
        action.sa_flags = SA_SIGINFO;
        if (sigaction(SIGBUS, &action, NULL) != 0) return NULL;
        handling = 1;
    }
    void *address = mmap(NULL, length, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    return address == MAP_FAILED ? NULL : address;
}

void csamplersys_unmap(void *address, size_t length) {
    if (address != NULL) munmap(address, length);
}

int csamplersys_copy_into_mapping(void *to, const void *from, size_t count) {
    copy_faulted = 0;
    copy_begin = to;
    copy_end = (char *)to + count;
    cdirect_copy(to, from, count);
    copy_begin = copy_end = NULL;
    return copy_faulted ? -1 : 0;
}

int csamplersys_pressure_trigger_open(const char *path, const char *trigger) {
    int fd = open(path, O_RDWR | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) return -errno;
    struct statfs fs;
    int error = 0;
    if (fstatfs(fd, &fs) != 0) {
        error = errno;
    } else if (fs.f_type != 0x9fa0) {   // PROC_SUPER_MAGIC
        error = EXDEV;
    } else {
        size_t length = strlen(trigger) + 1;
        ssize_t written;
        do written = write(fd, trigger, length); while (written < 0 && errno == EINTR);
        if (written < 0) error = errno;
        else if ((size_t)written != length) error = EIO;
    }
    if (error != 0) {
        close(fd);
        return -error;
    }
    return fd;
}

static void *event_watch_run(void *argument) {
    struct csamplersys_event_watch *watch = argument;
    struct pollfd p[2] = {{.fd = watch->fd, .events = POLLPRI}, {.fd = watch->stop, .events = POLLIN}};
    for (;;) {
        p[0].revents = p[1].revents = 0;
        if (poll(p, 2, -1) < 0) {
            if (errno == EINTR) continue;
            break;
        }
        if (p[1].revents != 0 || (p[0].revents & (POLLERR | POLLHUP | POLLNVAL)) != 0) break;
        if (p[0].revents & POLLPRI) __atomic_add_fetch(&watch->state, 2, __ATOMIC_RELEASE);
    }
    __atomic_or_fetch(&watch->state, 1, __ATOMIC_RELEASE);
    return NULL;
}

struct csamplersys_event_watch *csamplersys_event_watch_start(int fd) {
    struct csamplersys_event_watch *watch = calloc(1, sizeof *watch);
    if (watch == NULL) return NULL;
    watch->fd = fd;
    watch->stop = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    if (watch->stop < 0) {
        free(watch);
        return NULL;
    }
    // The thread inherits this mask: every signal blocked, so a process-directed one
    // (SIGTERM, SIGINT, the inotify descriptor's SIGIO) ends the main thread's sleep.
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    pthread_attr_t attributes;
    pthread_attr_init(&attributes);
    int result = pthread_attr_setstacksize(&attributes, 64 * 1024);
    if (result == 0) result = pthread_create(&watch->thread, &attributes, event_watch_run, watch);
    if (result != 0) result = pthread_create(&watch->thread, NULL, event_watch_run, watch);   // the default stack
    pthread_attr_destroy(&attributes);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (result != 0) {
        close(watch->stop);
        free(watch);
        errno = result;
        return NULL;
    }
    pthread_setname_np(watch->thread, "pressure-watch");   // as top -H and ps -L show it
    return watch;
}

void csamplersys_event_watch_stop(struct csamplersys_event_watch *watch) {
    if (watch == NULL) return;
    uint64_t one = 1;
    (void)!write(watch->stop, &one, sizeof one);
    pthread_join(watch->thread, NULL);
    close(watch->stop);
    free(watch);
}
