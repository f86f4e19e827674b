/* The C floor of issue 15: a program that only re-reads /proc/stat, /proc/meminfo and
 * /proc/loadavg from descriptors kept open (pread at 0) once a second, on absolute
 * CLOCK_MONOTONIC deadlines, as the sampler sleeps. What the sampler's system-wide part is
 * measured against (bench/floor.sh).
 *
 *   floor            the floor
 *   floor DIRECTORY  the floor, and a 460-byte file published in DIRECTORY each second the
 *                    way the snapshot contract asks (docs/architecture.md: written to a second file in
 *                    the same directory, then renamed over the old one), as cheaply as the
 *                    sampler does it: a copy into the spare of two files kept open and
 *                    mapped, then one renameat2(RENAME_EXCHANGE). The floor plus the
 *                    contract's own cost.
 *   floor --pwrite DIRECTORY  the same with pwrite into the spare instead of the mapping (the
 *                    sampler's way before its seventh pass). */
#define _GNU_SOURCE
#include <fcntl.h>
#include <linux/fs.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static char snapshot[460];

/* The two files, `snapshot` and `.snapshot.tmp`, kept open; -1 without a directory. */
static int directory = -1, files[2] = {-1, -1};
/* Their shared mappings; NULL with --pwrite. */
static char *mappings[2];

static int open_files(const char *path) {
    directory = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (directory < 0) return -1;
    files[0] = openat(directory, ".snapshot.tmp", O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    files[1] = openat(directory, "snapshot", O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    return files[0] < 0 || files[1] < 0 ? -1 : 0;
}

static int map_files(void) {
    for (int i = 0; i < 2; i++) {
        if (ftruncate(files[i], sizeof snapshot) != 0) return -1;
        mappings[i] = mmap(NULL, 16384, PROT_READ | PROT_WRITE, MAP_SHARED, files[i], 0);
        if (mappings[i] == MAP_FAILED) return -1;
    }
    return 0;
}

/* Writes the spare (files[n & 1] after n exchanges) and exchanges it with `snapshot`. */
static int publish(unsigned n) {
    snapshot[16] = (char)n;   /* a new sequence each time */
    if (mappings[0] != NULL) memcpy(mappings[n & 1], snapshot, sizeof snapshot);
    else if (pwrite(files[n & 1], snapshot, sizeof snapshot, 0) != (ssize_t)sizeof snapshot) return -1;
    return (int)syscall(SYS_renameat2, directory, ".snapshot.tmp", directory, "snapshot", RENAME_EXCHANGE);
}

int main(int argc, char **argv) {
    static char buffer[16384];
    const char *paths[] = {"/proc/stat", "/proc/meminfo", "/proc/loadavg"};
    int fds[3];
    for (int i = 0; i < 3; i++) fds[i] = open(paths[i], O_RDONLY | O_CLOEXEC);
    int pwrites = argc > 2 && strcmp(argv[1], "--pwrite") == 0;
    const char *published = argc > 1 ? argv[argc - 1] : NULL;
    if (published != NULL && (open_files(published) != 0 || (!pwrites && map_files() != 0))) {
        perror(published);
        return 1;
    }
    struct timespec next;
    clock_gettime(CLOCK_MONOTONIC, &next);
    for (unsigned n = 0;; n++) {
        for (int i = 0; i < 3; i++) (void)!pread(fds[i], buffer, sizeof buffer, 0);
        if (directory >= 0 && publish(n) != 0) { perror("publish"); return 1; }
        next.tv_sec += 1;
        clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL);
    }
}
