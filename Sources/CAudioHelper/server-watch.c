// The sound server's socket, watched (helper.c says what the program is). While no server
// answers, the helper waits for the socket libpulse connects to to appear (inotify on its
// folder, or on the folder above while that folder is missing) rather than trying again on
// a timer: a machine without a sound server costs it no wake-up, and a server that starts
// is answered at once. A server found some other way (PULSE_SERVER naming a TCP server or
// several, client.conf's default-server) is tried again on a timer instead.
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <unistd.h>

#include "helper-internal.h"

static struct {
    char socket[PATH_MAX];
    /// The socket's folder and name; the folder's parent and its name in it.
    char folder[PATH_MAX], name[NAME_MAX + 1], parent[PATH_MAX], folder_name[NAME_MAX + 1];
    /// Watching the parent (the folder does not exist yet).
    int on_parent;
} sw;

/// The socket libpulse connects to when nothing else names a server: PULSE_SERVER's
/// `unix:PATH` or `/PATH`, else PULSE_RUNTIME_PATH/native, else XDG_RUNTIME_DIR/pulse/native.
/// 0 where it is not one such path.
static int socket_path(void) {
    const char *server = getenv("PULSE_SERVER");
    int n;
    if (server && *server) {
        if (strchr(server, ' ') || strchr(server, '{')) return 0;
        if (strncmp(server, "unix:", 5) == 0) server += 5;
        if (server[0] != '/') return 0;
        n = snprintf(sw.socket, sizeof sw.socket, "%s", server);
    } else if (getenv("PULSE_RUNTIME_PATH") && getenv("PULSE_RUNTIME_PATH")[0] == '/') {
        n = snprintf(sw.socket, sizeof sw.socket, "%s/native", getenv("PULSE_RUNTIME_PATH"));
    } else if (getenv("XDG_RUNTIME_DIR") && getenv("XDG_RUNTIME_DIR")[0] == '/') {
        n = snprintf(sw.socket, sizeof sw.socket, "%s/pulse/native", getenv("XDG_RUNTIME_DIR"));
    } else {
        return 0;
    }
    return n > 0 && (size_t)n < sizeof sw.socket;
}

/// `path`'s folder into `folder` and its last name into `name`; 0 for `/` or a name too long.
static int split(const char *path, char *folder, char *name) {
    const char *slash = strrchr(path, '/');
    if (!slash || !slash[1] || strlen(slash + 1) > NAME_MAX) return 0;
    snprintf(folder, PATH_MAX, "%.*s", slash == path ? 1 : (int)(slash - path), path);
    snprintf(name, NAME_MAX + 1, "%s", slash + 1);
    return 1;
}

int server_watch_open(void) {
    if (!socket_path() || !split(sw.socket, sw.folder, sw.name) || !split(sw.folder, sw.parent, sw.folder_name)) return -1;
    int fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
    if (fd < 0) return -1;
    sw.on_parent = 0;
    if (inotify_add_watch(fd, sw.folder, IN_CREATE | IN_MOVED_TO | IN_ONLYDIR) < 0) {
        sw.on_parent = 1;
        if (inotify_add_watch(fd, sw.parent, IN_CREATE | IN_MOVED_TO | IN_ONLYDIR) < 0) { close(fd); return -1; }
    }
    return fd;
}

int server_watch_appeared(int fd) {
    char buffer[4096] __attribute__((aligned(__alignof__(struct inotify_event))));
    int appeared = 0, folder_made = 0;
    ssize_t n;
    while ((n = read(fd, buffer, sizeof buffer)) > 0) {
        for (char *p = buffer; p < buffer + n;) {
            const struct inotify_event *event = (const struct inotify_event *)p;
            if (event->len) {
                if (!sw.on_parent && strcmp(event->name, sw.name) == 0) appeared = 1;
                if (sw.on_parent && strcmp(event->name, sw.folder_name) == 0) folder_made = 1;
            }
            p += sizeof *event + event->len;
        }
    }
    if (folder_made && inotify_add_watch(fd, sw.folder, IN_CREATE | IN_MOVED_TO | IN_ONLYDIR) >= 0) {
        // The folder now; a socket made in it before this watch is looked for once.
        sw.on_parent = 0;
        struct stat st;
        if (stat(sw.socket, &st) == 0 && S_ISSOCK(st.st_mode)) appeared = 1;
    }
    return appeared;
}
