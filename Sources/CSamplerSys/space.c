#define _GNU_SOURCE
#include <errno.h>
#include <linux/futex.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include "CSamplerSys.h"
#include "CDirect.h"

// Each measured mount has a process of its own that calls statfs for it, so that a file
// system that never answers (a hung NFS server, a FUSE daemon that read the request and
// stopped) holds that process, never the sampling loop. A process, not a thread: a thread
// held in an uninterruptible wait (FUSE's, once its daemon has the request) keeps the whole
// program, its runtime-directory lock included, from ever ending; a separate process does
// not. It shares the sampler's memory (CLONE_VM: no copy of its pages, results written in
// place, futexes to wait on) and nothing else: no descriptor (it closes them all: the lock
// is not held through it), no signal handler runs in it (all blocked), it dies with its
// parent (PR_SET_PDEATHSIG). In it, only raw system calls: it shares the main thread's
// thread-local storage, errno included.

enum { STACK_SIZE = 64 * 1024 };

struct csamplersys_space_worker {
    uint32_t requested;    /* futex: the sampler moves it to ask */
    uint32_t completed;    /* futex: the process sets it to `requested` when it answered */
    uint32_t stopping;     /* the sampler let go: the process ends when it next looks */
    struct csamplersys_space result;
    void *stack;
    int pid;
    struct csamplersys_space_worker *next;   /* the live workers, to stop before an exec */
    char path[];
};

static struct csamplersys_space_worker *live;

static long raw(long n, long a, long b, long c, long d, long e) { return cdirect_syscall5(n, a, b, c, d, e); }

static int space_run(void *argument) {
    struct csamplersys_space_worker *w = argument;
    raw(SYS_prctl, PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
    raw(SYS_prctl, PR_SET_NAME, (long)"sysstatsd-disk", 0, 0, 0);
    if (raw(SYS_close_range, 0, ~0U, 0, 0, 0) != 0) {
        for (long fd = 0; fd < 4096; fd++) raw(SYS_close, fd, 0, 0, 0, 0);   // before Linux 5.9
    }
    for (;;) {
        uint32_t asked = __atomic_load_n(&w->requested, __ATOMIC_ACQUIRE);
        if (__atomic_load_n(&w->stopping, __ATOMIC_ACQUIRE)) break;
        if (asked == __atomic_load_n(&w->completed, __ATOMIC_ACQUIRE)) {
            raw(SYS_futex, (long)&w->requested, FUTEX_WAIT_PRIVATE, asked, 0, 0);
            continue;
        }
        struct statfs info;
        long r = raw(SYS_statfs, (long)w->path, (long)&info, 0, 0, 0);
        struct csamplersys_space result = {0};
        if (r == 0) {
            result.blocks = info.f_blocks;
            result.bfree = info.f_bfree;
            result.bavail = info.f_bavail;
            result.frsize = info.f_frsize != 0 ? (unsigned long long)info.f_frsize : (unsigned long long)info.f_bsize;
        } else {
            result.error = (int)-r;
        }
        w->result = result;
        __atomic_store_n(&w->completed, asked, __ATOMIC_RELEASE);
        raw(SYS_futex, (long)&w->completed, FUTEX_WAKE_PRIVATE, 1, 0, 0);
    }
    raw(SYS_exit, 0, 0, 0, 0, 0);
    return 0;
}

// Valgrind (bench/order-functions.py runs the sampler under callgrind) ends the program at
// a clone() that is neither a thread's nor a fork's; under it the probe measures in place.
// Its preload library is named in the environment even for a static program.
static int under_valgrind(void) {
    const char *preload = getenv("LD_PRELOAD");
    return preload != NULL && strstr(preload, "vgpreload") != NULL;
}

struct csamplersys_space_worker *csamplersys_space_worker_start(const char *path) {
    if (under_valgrind()) {
        errno = ENOSYS;
        return NULL;
    }
    size_t length = strlen(path);
    struct csamplersys_space_worker *w = calloc(1, sizeof *w + length + 1);
    if (w == NULL) return NULL;
    memcpy(w->path, path, length + 1);
    w->stack = mmap(NULL, STACK_SIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
    if (w->stack == MAP_FAILED) {
        free(w);
        return NULL;
    }
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    // No exit signal: the sampler's other waits (the history writers') never see it.
    int pid = clone(space_run, (char *)w->stack + STACK_SIZE, CLONE_VM, w);
    int error = errno;
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (pid < 0) {
        munmap(w->stack, STACK_SIZE);
        free(w);
        errno = error;
        return NULL;
    }
    w->pid = pid;
    w->next = live;
    live = w;
    return w;
}

int csamplersys_space_measure(struct csamplersys_space_worker *w, long wait_ms, struct csamplersys_space *out) {
    uint32_t asked = __atomic_load_n(&w->requested, __ATOMIC_RELAXED);
    if (__atomic_load_n(&w->completed, __ATOMIC_ACQUIRE) != asked) return 1;   // still in the earlier statfs
    asked += 1;
    __atomic_store_n(&w->requested, asked, __ATOMIC_RELEASE);
    raw(SYS_futex, (long)&w->requested, FUTEX_WAKE_PRIVATE, 1, 0, 0);
    struct timespec now, deadline;
    clock_gettime(CLOCK_MONOTONIC, &deadline);
    deadline.tv_sec += wait_ms / 1000;
    deadline.tv_nsec += (wait_ms % 1000) * 1000000L;
    if (deadline.tv_nsec >= 1000000000L) { deadline.tv_sec++; deadline.tv_nsec -= 1000000000L; }
    for (;;) {
        uint32_t done = __atomic_load_n(&w->completed, __ATOMIC_ACQUIRE);
        if (done == asked) break;
        clock_gettime(CLOCK_MONOTONIC, &now);
        struct timespec left = {deadline.tv_sec - now.tv_sec, deadline.tv_nsec - now.tv_nsec};
        if (left.tv_nsec < 0) { left.tv_sec--; left.tv_nsec += 1000000000L; }
        if (left.tv_sec < 0) return 1;
        raw(SYS_futex, (long)&w->completed, FUTEX_WAIT_PRIVATE, done, (long)&left, 0);
    }
    *out = w->result;
    return 0;
}

void csamplersys_space_worker_stop(struct csamplersys_space_worker *w) {
    if (w == NULL) return;
    for (struct csamplersys_space_worker **p = &live; *p != NULL; p = &(*p)->next) {
        if (*p == w) { *p = w->next; break; }
    }
    __atomic_store_n(&w->stopping, 1, __ATOMIC_RELEASE);
    raw(SYS_futex, (long)&w->requested, FUTEX_WAKE_PRIVATE, 1, 0, 0);
    // An idle one ends at once: reaped, its memory freed. One still held by its file system
    // keeps its memory (it will write into it when the answer comes) and is left to end then.
    for (int i = 0; i < 20; i++) {
        int status;
        int r = waitpid(w->pid, &status, __WALL | WNOHANG);
        if (r == w->pid || (r < 0 && errno == ECHILD)) {
            munmap(w->stack, STACK_SIZE);
            free(w);
            return;
        }
        struct timespec pause = {0, 1000000L};
        nanosleep(&pause, NULL);
    }
}

void csamplersys_space_workers_stop_all(void) {
    while (live != NULL) csamplersys_space_worker_stop(live);
}
