// The X11 outputs of sysstats-bar-x11, in C over libxcb (not Xlib: less resident
// memory, docs/performance.md). Only the x11 binary links this target (and libxcb).
#ifndef CBARX11_H
#define CBARX11_H
#include <stdint.h>
#include <xcb/xcb.h>

/// Writes "sysstats-bar: lost the X display" to stderr and exits 1 (the server
/// went away, or the connection broke).
__attribute__((noreturn)) void cbarx11_lost_display(void);
/// Reports an X protocol error on stderr (one line); the program goes on.
void cbarx11_report_error(const xcb_generic_error_t *error);

/// The x11-root output: the root window of $DISPLAY's screen (root.c).
struct cbarx11_root {
    xcb_connection_t *connection;
    xcb_window_t root;
    xcb_atom_t net_wm_name, utf8_string;
    int fd;
};
/// Connects to $DISPLAY; 0 on success, 1 when it cannot.
int cbarx11_root_open(struct cbarx11_root *out);
/// Sets WM_NAME (STRING, the first `wm_name_count` bytes) and _NET_WM_NAME
/// (UTF8_STRING, all `count` bytes) of the root window, and flushes.
void cbarx11_root_set_name(struct cbarx11_root *r, const uint8_t *name, uint32_t count, uint32_t wm_name_count);
/// Reads whatever the server sent (nothing is selected: errors, at most);
/// a lost connection ends the program.
void cbarx11_root_drain(struct cbarx11_root *r);

/// The x11-window output: one dock window whose background pixmap holds the
/// latest image (window.c, on libxcb). Fields are read-only for the caller.
struct cbarx11_window {
    xcb_connection_t *connection;
    /// The top-level window (what a window manager sees) and its child of exactly
    /// the image's size whose background is `pixmap`.
    xcb_window_t window, picture;
    xcb_pixmap_t pixmap;
    xcb_gcontext_t gc;
    int width, height;
    uint8_t depth;
    int rows_per_request;
    /// The server's byte order is not ours: pixels are swapped into `swapped` first.
    int swap;
    uint32_t *swapped;
    xcb_atom_t wm_protocols, delete_window;
    int fd;
    /// The window type and the position asked for (after negative positions were
    /// resolved), for the corrections cbarx11_window_next_event may send.
    int type, want_x, want_y;
    /// How many corrections were sent (at most 3).
    int corrections;
    /// An event cbarx11_window_has_queued_event took from libxcb's queue, for
    /// cbarx11_window_next_event to return first.
    xcb_generic_event_t *stash;
};

enum {
    CBARX11_WINDOW_OK = 0,
    CBARX11_WINDOW_NO_DISPLAY = 1,
    CBARX11_WINDOW_BAD_VISUAL = 2,
    CBARX11_WINDOW_BAD_SIZE = 3,
    CBARX11_WINDOW_NO_MEMORY = 4,
};

/// --window-type: how the top-level window meets a window manager.
enum {
    /// override-redirect: no window manager places, sizes or decorates it.
    CBARX11_TYPE_OVERRIDE = 0,
    /// _NET_WM_WINDOW_TYPE_DOCK, sticky, above.
    CBARX11_TYPE_DOCK = 1,
    /// _NET_WM_WINDOW_TYPE_DESKTOP, sticky, below.
    CBARX11_TYPE_DESKTOP = 2,
    /// _NET_WM_WINDOW_TYPE_UTILITY, sticky: a managed window (floating under i3).
    CBARX11_TYPE_NORMAL = 3,
};

/// Results of cbarx11_window_next_event besides a button number (1-255).
enum {
    CBARX11_EVENT_NONE = 0,
    CBARX11_EVENT_OTHER = -1,
    CBARX11_EVENT_CLOSE = -2,
    CBARX11_EVENT_DESTROYED = -3,
};

/// Connects to $DISPLAY, checks the root visual takes 0x00RRGGBB words, and maps
/// a width x height window of `type` (CBARX11_TYPE_*; anything else is override)
/// at x,y (negative: from the right/bottom edge, -1 flush with it) whose
/// background is `background` (0x00RRGGBB), holding a child of the same size
/// whose background is a pixmap, black until the first cbarx11_window_show.
/// Returns CBARX11_WINDOW_OK or an error for cbarx11_window_error_message.
int cbarx11_window_open(struct cbarx11_window *out, int x, int y, int width, int height, int type,
                        uint32_t background);
/// The one line for an error of cbarx11_window_open.
const char *cbarx11_window_error_message(int error);
/// Writes that line and a newline to stderr.
void cbarx11_window_report(int error);
/// Sends `pixels` (width*height 0x00RRGGBB words, row-major) to the server once,
/// into the pixmap, and repaints the window from it. The pointer is not kept.
/// A lost connection ends the program (cbarx11_lost_display).
void cbarx11_window_show(struct cbarx11_window *w, const uint32_t *pixels);
/// Takes one queued event without blocking: CBARX11_EVENT_NONE when there is
/// none, the button number of a press on the window, CBARX11_EVENT_CLOSE
/// (WM_DELETE_WINDOW), CBARX11_EVENT_DESTROYED, or CBARX11_EVENT_OTHER. A lost
/// connection ends the program; protocol errors are reported and skipped. For
/// the desktop and normal types, a position a window manager reports (ICCCM's
/// synthetic ConfigureNotify, at the window's own size) that is not the one asked
/// for is answered by asking for that position again, at most 3 times (i3 floats
/// such a window offset by the title bar it would have had).
int cbarx11_window_next_event(struct cbarx11_window *w);
/// True when libxcb holds an event it read off the socket while it wrote (a
/// show's flush): poll() on the descriptor would not wake for it. Reads nothing
/// from the socket (no system call).
int cbarx11_window_has_queued_event(struct cbarx11_window *w);
#endif
