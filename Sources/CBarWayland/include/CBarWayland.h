// The wayland-panel output of sysstats-bar-wayland, in C over libwayland-client: a
// layer-shell surface (zwlr_layer_shell_v1) showing the panel picture from a wl_shm
// buffer. Only that binary links this target (and libwayland-client); the header names
// no Wayland type, so the Embedded Swift side imports only what is here.
#ifndef CBARWAYLAND_H
#define CBARWAYLAND_H
#include <stdint.h>

/// Edges the surface is anchored to (the layer-shell protocol's bits).
enum {
    CBARWL_ANCHOR_TOP = 1,
    CBARWL_ANCHOR_BOTTOM = 2,
    CBARWL_ANCHOR_LEFT = 4,
    CBARWL_ANCHOR_RIGHT = 8,
};

/// What cbarwl_panel_open is asked for.
struct cbarwl_options {
    int width, height;
    /// CBARWL_ANCHOR_* bits: one edge (centred along it) or two (a corner).
    uint32_t anchor;
    /// Pixels between the surface and the edges it is anchored to.
    int margin;
    /// 0 background, 1 bottom, 2 top, 3 overlay.
    uint32_t layer;
    /// Whether the compositor keeps other windows off the panel's strip of its edge.
    int exclusive;
    /// The output's name (wl_output's `name`, e.g. "HDMI-A-1"), NUL-terminated; NULL or
    /// empty: the compositor chooses (the focused output).
    const char *output_name;
    /// 0x00RRGGBB, shown until the first picture.
    uint32_t background;
};

enum {
    CBARWL_OK = 0,
    CBARWL_NO_DISPLAY = 1,
    CBARWL_NO_LAYER_SHELL = 2,
    CBARWL_NO_SHM = 3,
    CBARWL_NO_OUTPUT = 4,
    CBARWL_NO_MEMORY = 5,
    CBARWL_NOT_CONFIGURED = 6,
};

/// Results of cbarwl_panel_next_event besides a button number (1-255).
enum {
    CBARWL_EVENT_NONE = 0,
    /// The compositor closed the connection (it exited).
    CBARWL_EVENT_LOST = -1,
    /// The compositor ended the connection for a protocol error (a bug: reported on stderr).
    CBARWL_EVENT_FAILED = -2,
    /// The compositor stopped reading: libwayland ended the connection when a request no
    /// longer fit in its buffer (EAGAIN).
    CBARWL_EVENT_STALLED = -3,
};

struct cbarwl_panel;

/// Connects to $WAYLAND_DISPLAY, finds the compositor's layer shell and shared memory,
/// and maps the panel: a width x height layer surface as `options` say. Returns the
/// panel (allocated once, for the program's life), or NULL with *error set to a
/// CBARWL_* code for cbarwl_report.
struct cbarwl_panel *cbarwl_panel_open(const struct cbarwl_options *options, int *error);
/// Writes the one line for an error of cbarwl_panel_open to stderr.
void cbarwl_report(int error, const struct cbarwl_options *options);
/// The descriptor of the compositor's connection, for poll().
int cbarwl_panel_fd(const struct cbarwl_panel *p);
/// Shows `pixels` (width*height 0x00RRGGBB words, row-major; not kept): copied into a
/// free one of two shared-memory buffers (each pixel repeated scale x scale times on an
/// output with an integer scale above 1), only the changed part damaged, committed and
/// flushed. When neither buffer is free, or the surface waits for its output, the
/// picture is kept and shown as soon as it can be. 0; EAGAIN when the compositor's socket
/// is full (the picture is kept, nothing more is sent until cbarwl_panel_flush gets the rest
/// through); or an errno when the connection broke.
int cbarwl_panel_show(struct cbarwl_panel *p, const uint32_t *pixels);
/// While requests wait unsent (cbarwl_panel_write_blocked): sends them, then the picture
/// kept meanwhile. For poll()'s POLLOUT. 0, EAGAIN (still full), or an errno; 0 at once when
/// nothing waits.
int cbarwl_panel_flush(struct cbarwl_panel *p);
/// True while a flush left requests unsent: poll the descriptor for POLLOUT too.
int cbarwl_panel_write_blocked(const struct cbarwl_panel *p);
/// How many flushes sent everything so far: one more since the last look means the
/// compositor read, even if requests wait again now.
unsigned long cbarwl_panel_flushes(const struct cbarwl_panel *p);
/// Reads and handles what the compositor sent, without blocking, and returns one
/// click: a button number (1 left, 2 middle, 3 right, 4/5 scroll up/down, 6/7 left/right),
/// CBARWL_EVENT_NONE when no click waits, or CBARWL_EVENT_LOST / _FAILED / _STALLED.
/// A surface whose output went away is made again when an output (the named one) comes.
int cbarwl_panel_next_event(struct cbarwl_panel *p);
/// True when clicks wait that were read already (no system call).
int cbarwl_panel_has_queued_event(const struct cbarwl_panel *p);
/// The one line saying why the connection ended (CBARWL_EVENT_LOST, _FAILED or _STALLED), to stderr.
void cbarwl_report_end(const struct cbarwl_panel *p, int event);
#endif
