/* The C floor of issue 15: a program that only re-reads /proc/stat, /proc/meminfo and
 * /proc/loadavg from descriptors kept open (pread at 0) once a second, on absolute
 * CLOCK_MONOTONIC deadlines, as the sampler sleeps. What the sampler's system-wide part is
 * measured against (bench/floor.sh). */
#define _GNU_SOURCE
#include <fcntl.h>
#include <time.h>
#include <unistd.h>

int main(void) {
    static char buffer[16384];
    const char *paths[] = {"/proc/stat", "/proc/meminfo", "/proc/loadavg"};
    int fds[3];
    for (int i = 0; i < 3; i++) fds[i] = open(paths[i], O_RDONLY | O_CLOEXEC);
    struct timespec next;
    clock_gettime(CLOCK_MONOTONIC, &next);
    for (;;) {
        for (int i = 0; i < 3; i++) (void)!pread(fds[i], buffer, sizeof buffer, 0);
        next.tv_sec += 1;
        clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL);
    }
}
