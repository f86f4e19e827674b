/* What a cold cache line and a cold page cost on this machine, once a second, as the
 * sampler meets them: walks LINES lines on each of PAGES pages (spread over 256 MiB) once a
 * second and prints the CPU time of a walk (CLOCK_THREAD_CPUTIME_ID around it), the median
 * of ROUNDS. With `chase` each access waits for the one before (a pointer chase, as code
 * fetched after a branch and data found through a pointer do); without, the loads overlap.
 *
 *   cc -O2 -o cold-lines bench/cold-lines.c
 *   ./cold-lines PAGES LINES ROUNDS [chase]      e.g. 64 8 12 chase; 64 1 12 chase
 *
 * Measured here (docs/performance-history.md, "The fifth pass"): 8 pages × 64 lines chased, 138 ns a
 * line; 64 × 1, 634 ns: a page missed in the TLB costs ~400-500 ns on top of its line. */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double thread_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return t.tv_sec * 1e9 + t.tv_nsec;
}

static int by_value(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv) {
    if (argc < 4) { fprintf(stderr, "usage: %s PAGES LINES ROUNDS [chase]\n", argv[0]); return 2; }
    int pages = atoi(argv[1]), lines = atoi(argv[2]), rounds = atoi(argv[3]), chase = argc > 4;
    if (pages < 1 || lines < 1 || lines > 64 || rounds < 3) { fprintf(stderr, "bad arguments\n"); return 2; }
    size_t region = (size_t)256 << 20;
    char *memory = aligned_alloc(4096, region);
    memset(memory, 1, region);
    int n = pages * lines;
    uintptr_t *at = malloc(n * sizeof *at);
    for (int p = 0; p < pages; p++) {
        size_t page = (((size_t)p * 7919 * 4096) + (size_t)p * 1048576) % (region - 4096) & ~(size_t)4095;
        for (int l = 0; l < lines; l++) at[p * lines + l] = (uintptr_t)(memory + page + l * 64);
    }
    for (int i = n - 1; i > 0; i--) { int j = rand() % (i + 1); uintptr_t t = at[i]; at[i] = at[j]; at[j] = t; }
    for (int i = 0; i < n; i++) *(uintptr_t *)at[i] = at[(i + 1) % n];
    double *took = malloc(rounds * sizeof *took);
    struct timespec next;
    clock_gettime(CLOCK_MONOTONIC, &next);
    for (int r = 0; r < rounds; r++) {
        next.tv_sec += 1;
        clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL);
        double t0 = thread_ns();
        volatile uintptr_t sink;
        if (chase) {
            uintptr_t p = at[0];
            for (int i = 0; i < n; i++) p = *(uintptr_t *)p;
            sink = p;
        } else {
            uintptr_t sum = 0;
            for (int i = 0; i < n; i++) sum += *(uintptr_t *)at[i];
            sink = sum;
        }
        (void)sink;
        took[r] = thread_ns() - t0;
    }
    qsort(took + 1, rounds - 1, sizeof *took, by_value);   /* the first walk also faults */
    double median = took[1 + (rounds - 1) / 2];
    printf("%d pages x %d lines, %s: %.1f us a walk, %.0f ns a line\n", pages, lines,
           chase ? "chased" : "overlapping", median / 1000, median / n);
    return 0;
}
