// A program whose memory is known, for the accuracy tests of `sysstats measure`
// (Tests/SysstatsCLITests/MeasureAccuracyTests.swift compiles it with cc).
//
//   touch-memory private MIB HOLD_MS         touch MIB of private memory, hold it, exit
//   touch-memory shared MIB CHILDREN HOLD_MS [READ_MS]
//                                            share MIB (MAP_SHARED) with CHILDREN children that all touch it
//                                            (200 ms after, half at once and the rest evenly over
//                                            READ_MS: sharing moves all that time);
//                                            after HOLD_MS the parent ends them all at once
//   touch-memory daemon MIB HOLD_MS          fork a daemon that double-forks away and touches MIB; exit at once
//   touch-memory leak MIB_PER_S SECONDS      touch MIB_PER_S more every second, evenly
//   touch-memory steady MIB SECONDS          touch MIB once, then hold it
//   touch-memory spike MIB HOLD_MS           a child touches MIB and exits at once; the parent
//                                            reaps it, then holds HOLD_MS with almost nothing
//   touch-memory selfspike MIB HOLD_MS       touch MIB, unmap it at once, then hold HOLD_MS
//   touch-memory threads N MIB_EACH HOLD_MS  N threads each touch MIB_EACH, all held HOLD_MS
//   touch-memory file MIB HOLD_MS PATH       write a MIB file at PATH, map it shared, read every
//                                            page, hold HOLD_MS (page cache, no anonymous memory)
//   touch-memory storm N MIB                 N children one after the other, each touching MIB
//                                            and exiting; the parent waits for each
//   touch-memory waves N MIB WAVE HOLD_MS    N children in waves of WAVE started at once, each
//                                            touching MIB and holding HOLD_MS; each wave waited for
//
// Memory is touched by writing every page, so it is resident and private (or shared) at once.
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static const size_t MiB = 1024 * 1024;

static void sleep_ms(long ms) {
    struct timespec t = {ms / 1000, (ms % 1000) * 1000000L};
    while (nanosleep(&t, &t) != 0) {}
}

static double now_s(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static char *map(size_t bytes, int flags) {
    char *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, flags | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) { perror("mmap"); exit(2); }
    return p;
}

static void touch(char *p, size_t bytes) {
    long page = sysconf(_SC_PAGESIZE);
    for (size_t i = 0; i < bytes; i += (size_t)page) p[i] = 1;
}

/// Reads every page of a shared mapping, so that this process maps them too.
static unsigned long read_all(const volatile char *p, size_t bytes) {
    long page = sysconf(_SC_PAGESIZE);
    unsigned long sum = 0;
    for (size_t i = 0; i < bytes; i += (size_t)page) sum += (unsigned char)p[i];
    return sum;
}

/// Reads the first half of the pages at once and the rest over `ms`, a few at a time as the
/// time passes: the shares of every process that maps them move all that time, while the
/// pages themselves (the tree's PSS) stay as they are.
static unsigned long read_evenly(const volatile char *p, size_t bytes, long ms) {
    if (ms <= 0) return read_all(p, bytes);
    long page = sysconf(_SC_PAGESIZE);
    unsigned long sum = read_all(p, bytes / 2);
    double start = now_s();
    for (size_t at = bytes / 2; at < bytes; ) {
        double done = (now_s() - start) * 1000.0 / (double)ms;
        size_t due = done >= 1.0 ? bytes : bytes / 2 + (size_t)(done * (double)(bytes / 2));
        for (; at < due; at += (size_t)page) sum += (unsigned char)p[at];
        struct timespec t = {0, 100000};
        nanosleep(&t, NULL);
    }
    return sum;
}

struct thread_work { size_t bytes; long hold_ms; };

static void *thread_touch(void *arg) {
    struct thread_work *w = arg;
    char *p = map(w->bytes, MAP_PRIVATE);
    touch(p, w->bytes);
    sleep_ms(w->hold_ms);
    return NULL;
}

static int run_threads(long n, long mib, long hold) {
    if (n < 1 || n > 64) return 2;
    pthread_t threads[64];
    struct thread_work w = { (size_t)mib * MiB, hold };
    for (long i = 0; i < n; i++) if (pthread_create(&threads[i], NULL, thread_touch, &w) != 0) return 3;
    for (long i = 0; i < n; i++) pthread_join(threads[i], NULL);
    return 0;
}

static int run_file(long mib, long hold, const char *path) {
    size_t bytes = (size_t)mib * MiB;
    int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
    if (fd < 0) return 3;
    static char block[1 << 16];
    memset(block, 1, sizeof block);
    for (size_t done = 0; done < bytes; done += sizeof block) if (write(fd, block, sizeof block) != (ssize_t)sizeof block) return 3;
    char *p = mmap(NULL, bytes, PROT_READ, MAP_SHARED, fd, 0);
    if (p == MAP_FAILED) return 3;
    if (read_all(p, bytes) == 0) return 3;
    sleep_ms(hold);
    return 0;
}

int main(int argc, char **argv) {
    if (argc < 4) { fprintf(stderr, "usage: see the comment at the top of touch-memory.c\n"); return 2; }
    const char *mode = argv[1];
    long a = atol(argv[2]), b = atol(argv[3]);
    if (strcmp(mode, "private") == 0) {
        char *p = map((size_t)a * MiB, MAP_PRIVATE);
        touch(p, (size_t)a * MiB);
        sleep_ms(b);
    } else if (strcmp(mode, "shared") == 0) {
        if (argc < 5) return 2;
        long children = b, hold = atol(argv[4]), read_ms = argc > 5 ? atol(argv[5]) : 0;
        if (children < 0 || children > 1024) return 2;
        pid_t pids[1024];
        char *p = map((size_t)a * MiB, MAP_SHARED);
        touch(p, (size_t)a * MiB);
        // Sharing that starts while measure watches: a sample with the parent alone first.
        if (read_ms > 0) sleep_ms(200);
        for (long i = 0; i < children; i++) {
            pids[i] = fork();
            if (pids[i] == 0) {
                if (read_evenly(p, (size_t)a * MiB, read_ms) == 0) return 3;
                sleep_ms(hold + 10000);
                _exit(0);
            }
        }
        sleep_ms(hold);
        // All at once: while children end one by one, the others' shares grow.
        for (long i = 0; i < children; i++) kill(pids[i], SIGKILL);
        while (wait(NULL) > 0) {}
    } else if (strcmp(mode, "daemon") == 0) {
        pid_t pid = fork();
        if (pid == 0) {
            if (fork() == 0) {
                setsid();
                sleep_ms(50);   // the parent and its parent are gone by now: reparented
                char *p = map((size_t)a * MiB, MAP_PRIVATE);
                touch(p, (size_t)a * MiB);
                sleep_ms(b);
                _exit(0);
            }
            _exit(0);
        }
        waitpid(pid, NULL, 0);
    } else if (strcmp(mode, "leak") == 0) {
        size_t total = (size_t)a * MiB * (size_t)b, done = 0;
        char *p = map(total, MAP_PRIVATE);
        double start = now_s();
        while (done < total) {
            double t = now_s() - start;
            size_t due = (size_t)(t * (double)a * (double)MiB) & ~(size_t)4095;
            if (due > total) due = total;
            if (due > done) { touch(p + done, due - done); done = due; }
            sleep_ms(2);
        }
    } else if (strcmp(mode, "spike") == 0) {
        pid_t pid = fork();
        if (pid == 0) {
            char *p = map((size_t)a * MiB, MAP_PRIVATE);
            touch(p, (size_t)a * MiB);
            _exit(0);
        }
        waitpid(pid, NULL, 0);
        sleep_ms(b);
    } else if (strcmp(mode, "selfspike") == 0) {
        char *p = map((size_t)a * MiB, MAP_PRIVATE);
        touch(p, (size_t)a * MiB);
        munmap(p, (size_t)a * MiB);
        sleep_ms(b);
    } else if (strcmp(mode, "threads") == 0) {
        if (argc < 5) return 2;
        return run_threads(a, b, atol(argv[4]));
    } else if (strcmp(mode, "file") == 0) {
        if (argc < 5) return 2;
        return run_file(a, b, argv[4]);
    } else if (strcmp(mode, "storm") == 0) {
        if (a < 0 || a > 100000) return 2;
        for (long i = 0; i < a; i++) {
            pid_t pid = fork();
            if (pid == 0) {
                char *p = map((size_t)b * MiB, MAP_PRIVATE);
                touch(p, (size_t)b * MiB);
                _exit(0);
            }
            if (pid < 0) return 3;
            waitpid(pid, NULL, 0);
        }
    } else if (strcmp(mode, "waves") == 0) {
        if (argc < 6 || a < 0 || a > 100000) return 2;
        long wave = atol(argv[4]), hold = atol(argv[5]);
        if (wave < 1 || wave > 1024) return 2;
        for (long started = 0; started < a;) {
            long n = 0;
            for (; n < wave && started < a; n++, started++) {
                pid_t pid = fork();
                if (pid == 0) {
                    char *p = map((size_t)b * MiB, MAP_PRIVATE);
                    touch(p, (size_t)b * MiB);
                    sleep_ms(hold);
                    _exit(0);
                }
                if (pid < 0) return 3;
            }
            while (n-- > 0) wait(NULL);
        }
    } else if (strcmp(mode, "steady") == 0) {
        char *p = map((size_t)a * MiB, MAP_PRIVATE);
        touch(p, (size_t)a * MiB);
        sleep_ms(b * 1000);
    } else {
        return 2;
    }
    return 0;
}
