// A FUSE file system that never answers statfs: what a hung NFS server or a stuck FUSE
// daemon looks like to statvfs(3). Written over /dev/fuse directly (no libfuse): the
// request and reply layouts are the kernel's <linux/fuse.h>, the protocol its
// Documentation/filesystems/fuse.rst. Needs root (mount(2)).
//
// usage: unanswering-fs MOUNTPOINT READY-FILE
// Mounts at MOUNTPOINT, answers INIT, then writes READY-FILE; answers GETATTR of the root
// and refuses LOOKUP (ENOENT) and the rest (ENOSYS), but leaves every STATFS unanswered.
// Ends on SIGTERM: the mount is detached (MNT_DETACH), which ends the waiting statfs calls.
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <unistd.h>

enum { FUSE_LOOKUP = 1, FUSE_FORGET = 2, FUSE_GETATTR = 3, FUSE_STATFS = 17, FUSE_INIT = 26,
       FUSE_INTERRUPT = 36, FUSE_DESTROY = 38, FUSE_BATCH_FORGET = 42 };

struct in_header { uint32_t len, opcode; uint64_t unique, nodeid; uint32_t uid, gid, pid; uint16_t total_extlen, padding; };
struct out_header { uint32_t len; int32_t error; uint64_t unique; };
struct init_in { uint32_t major, minor, max_readahead, flags; };
struct init_out {
    uint32_t major, minor, max_readahead, flags;
    uint16_t max_background, congestion_threshold;
    uint32_t max_write, time_gran;
    uint16_t max_pages, map_alignment;
    uint32_t flags2, unused[7];
};
struct attr {
    uint64_t ino, size, blocks, atime, mtime, ctime;
    uint32_t atimensec, mtimensec, ctimensec, mode, nlink, uid, gid, rdev, blksize, flags;
};
struct attr_out { uint64_t attr_valid; uint32_t attr_valid_nsec, dummy; struct attr attr; };

static int device = -1;
static volatile sig_atomic_t stop;
static void on_term(int signal) { (void)signal; stop = 1; }

static void reply(uint64_t unique, int error, const void *body, size_t size) {
    char buffer[sizeof(struct out_header) + 256];
    struct out_header header = {.len = (uint32_t)(sizeof header + size), .error = -error, .unique = unique};
    memcpy(buffer, &header, sizeof header);
    if (size) memcpy(buffer + sizeof header, body, size);
    if (write(device, buffer, header.len) < 0 && errno != ENOENT) perror("unanswering-fs: write");
}

int main(int argc, char **argv) {
    if (argc != 3) { fprintf(stderr, "usage: unanswering-fs MOUNTPOINT READY-FILE\n"); return 2; }
    device = open("/dev/fuse", O_RDWR | O_CLOEXEC);
    if (device < 0) { perror("unanswering-fs: /dev/fuse"); return 1; }
    char options[128];
    snprintf(options, sizeof options, "fd=%d,rootmode=40755,user_id=%u,group_id=%u", device, getuid(), getgid());
    if (mount("unanswering", argv[1], "fuse.unanswering", MS_NOSUID | MS_NODEV, options) != 0) {
        perror("unanswering-fs: mount");
        return 1;
    }
    struct sigaction action = {0};
    action.sa_handler = on_term;
    sigaction(SIGTERM, &action, NULL);
    sigaction(SIGINT, &action, NULL);
    static char request[1 << 20 | 4096];
    while (!stop) {
        ssize_t n = read(device, request, sizeof request);
        if (n < 0) {
            if (errno == EINTR || errno == ENOENT) continue;
            if (errno == ENODEV) break;   // unmounted
            perror("unanswering-fs: read");
            break;
        }
        if ((size_t)n < sizeof(struct in_header)) continue;
        struct in_header in;
        memcpy(&in, request, sizeof in);
        switch (in.opcode) {
        case FUSE_INIT: {
            struct init_in init;
            memcpy(&init, request + sizeof in, sizeof init);
            struct init_out out = {.major = 7, .minor = init.minor < 31 ? init.minor : 31,
                                   .max_readahead = init.max_readahead, .max_write = 4096, .max_background = 1,
                                   .congestion_threshold = 1, .time_gran = 1};
            reply(in.unique, 0, &out, sizeof out);
            FILE *ready = fopen(argv[2], "w");
            if (ready) fclose(ready);
            break;
        }
        case FUSE_GETATTR: {
            struct attr_out out = {.attr_valid = 60, .attr = {.ino = 1, .mode = 040755, .nlink = 2, .blksize = 4096}};
            reply(in.unique, 0, &out, sizeof out);
            break;
        }
        case FUSE_LOOKUP: reply(in.unique, ENOENT, NULL, 0); break;
        case FUSE_STATFS: break;   // never answered
        case FUSE_FORGET: case FUSE_BATCH_FORGET: case FUSE_INTERRUPT: break;   // no reply expected
        case FUSE_DESTROY: reply(in.unique, 0, NULL, 0); break;
        default: reply(in.unique, ENOSYS, NULL, 0); break;
        }
    }
    umount2(argv[1], MNT_DETACH);
    close(device);
    return 0;
}
