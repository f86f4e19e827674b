// The x11-window output's X side: a dock window whose background is a pixmap
// holding the latest image. The server repaints exposes from that pixmap by
// itself, so the renderer never selects Expose and never wakes for one.
// In C because the set-up is a long run of Xlib structs, flags and property
// buffers that read more plainly here than through Embedded Swift's imports.
#include "CBarX11.h"
#include <X11/Xutil.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *const error_messages[] = {
    [CBARX11_WINDOW_OK] = "",
    [CBARX11_WINDOW_NO_DISPLAY] = "sysstats-bar: cannot open the X display (is DISPLAY set?)",
    [CBARX11_WINDOW_BAD_VISUAL] =
        "sysstats-bar: x11-window needs a TrueColor default visual of depth 24 or 32 with 8-bit red, green "
        "and blue (32 bits per pixel); this display has another",
    [CBARX11_WINDOW_BAD_SIZE] = "sysstats-bar: x11-window: the image size must be between 1x1 and 4096x4096",
    [CBARX11_WINDOW_NO_IMAGE] = "sysstats-bar: x11-window: cannot create the X image",
};

const char *cbarx11_window_error_message(int error) {
    if (error < 0 || error > CBARX11_WINDOW_NO_IMAGE) return "sysstats-bar: x11-window: unknown error";
    return error_messages[error];
}

static void set_atoms(Display *d, Window w, const char *property, const char *const *names, int count) {
    Atom values[4];
    for (int i = 0; i < count && i < 4; i++) values[i] = XInternAtom(d, names[i], False);
    XChangeProperty(d, w, XInternAtom(d, property, False), XA_ATOM, 32, PropModeReplace,
                    (unsigned char *)values, count);
}

static void set_cardinal(Display *d, Window w, const char *property, unsigned long value) {
    XChangeProperty(d, w, XInternAtom(d, property, False), XA_CARDINAL, 32, PropModeReplace,
                    (unsigned char *)&value, 1);
}

/// What a window manager reads: a dock (no decorations, no focus, every
/// desktop, above normal windows), at the user's position, of a fixed size.
static void set_wm_properties(Display *d, Window w, int x, int y, int width, int height) {
    static const char name[] = "sysstats-bar";
    XStoreName(d, w, name);
    XChangeProperty(d, w, XInternAtom(d, "_NET_WM_NAME", False), XInternAtom(d, "UTF8_STRING", False), 8,
                    PropModeReplace, (const unsigned char *)name, (int)(sizeof name - 1));

    XClassHint class_hint = {.res_name = (char *)"sysstats-bar", .res_class = (char *)"SysstatsBar"};
    XSetClassHint(d, w, &class_hint);

    // USPosition/USSize: the user chose them (--position, --size), so a WM
    // places the window there instead of choosing a place itself.
    XSizeHints size = {0};
    size.flags = USPosition | USSize | PPosition | PSize | PMinSize | PMaxSize;
    size.x = x; size.y = y;
    size.width = size.min_width = size.max_width = width;
    size.height = size.min_height = size.max_height = height;
    XSetWMNormalHints(d, w, &size);

    // A panel never takes the keyboard focus.
    XWMHints hints = {0};
    hints.flags = InputHint | StateHint;
    hints.input = False;
    hints.initial_state = NormalState;
    XSetWMHints(d, w, &hints);

    static const char *const type[] = {"_NET_WM_WINDOW_TYPE_DOCK"};
    set_atoms(d, w, "_NET_WM_WINDOW_TYPE", type, 1);
    static const char *const state[] = {"_NET_WM_STATE_STICKY", "_NET_WM_STATE_ABOVE"};
    set_atoms(d, w, "_NET_WM_STATE", state, 2);
    set_cardinal(d, w, "_NET_WM_DESKTOP", 0xFFFFFFFFUL);
    set_cardinal(d, w, "_NET_WM_PID", (unsigned long)getpid());
    // _NET_WM_PID means something only with the host it runs on.
    char host[256];
    if (gethostname(host, sizeof host) == 0) {
        host[sizeof host - 1] = 0;
        XChangeProperty(d, w, XA_WM_CLIENT_MACHINE, XA_STRING, 8, PropModeReplace, (unsigned char *)host,
                        (int)strlen(host));
    }
    // Motif hints: flags = MWM_HINTS_DECORATIONS, decorations = none.
    long motif[5] = {2, 0, 0, 0, 0};
    Atom motif_atom = XInternAtom(d, "_MOTIF_WM_HINTS", False);
    XChangeProperty(d, w, motif_atom, motif_atom, 32, PropModeReplace, (unsigned char *)motif, 5);
    // A WM closing the window asks first (WM_DELETE_WINDOW) instead of killing the connection.
    Atom protocols = XInternAtom(d, "WM_DELETE_WINDOW", False);
    XSetWMProtocols(d, w, &protocols, 1);
}

/// The pixmap format for `depth`: must be 32 bits per pixel to wrap 0x00RRGGBB words.
static int bits_per_pixel(Display *d, int depth) {
    int count = 0, bpp = 0;
    XPixmapFormatValues *formats = XListPixmapFormats(d, &count);
    if (!formats) return 0;
    for (int i = 0; i < count; i++)
        if (formats[i].depth == depth) bpp = formats[i].bits_per_pixel;
    XFree(formats);
    return bpp;
}

int cbarx11_window_open(struct cbarx11_window *out, int x, int y, int width, int height) {
    memset(out, 0, sizeof *out);
    if (width < 1 || height < 1 || width > 4096 || height > 4096) return CBARX11_WINDOW_BAD_SIZE;
    // An output buffer that holds a whole image: XPutImage then copies the pixels
    // into it, and the put and the repaint leave in one write (two otherwise, and
    // each write is a poll and a writev in libxcb). A user's own setting wins.
    if (!getenv("XLIBBUFFERSIZE")) {
        char kib[16];
        snprintf(kib, sizeof kib, "%d", (width * height * 4 + 4096) / 1024 + 16);
        setenv("XLIBBUFFERSIZE", kib, 0);
    }
    Display *d = XOpenDisplay(NULL);
    if (!d) return CBARX11_WINDOW_NO_DISPLAY;
    cbarx11_install_error_handlers();
    int screen = DefaultScreen(d);
    Visual *visual = DefaultVisual(d, screen);
    int depth = DefaultDepth(d, screen);
    if (visual->class != TrueColor || (depth != 24 && depth != 32) || visual->red_mask != 0xFF0000 ||
        visual->green_mask != 0x00FF00 || visual->blue_mask != 0x0000FF || bits_per_pixel(d, depth) != 32) {
        XCloseDisplay(d);
        return CBARX11_WINDOW_BAD_VISUAL;
    }
    Window root = RootWindow(d, screen);
    // Negative positions count from the right/bottom edge; -1 is flush with it.
    if (x < 0) x = DisplayWidth(d, screen) - width + x + 1;
    if (y < 0) y = DisplayHeight(d, screen) - height + y + 1;
    // The image describes the caller's pixels (its data pointer is set for each put);
    // Xlib swaps bytes itself should the server's byte order differ from ours.
    XImage *image = XCreateImage(d, visual, (unsigned)depth, ZPixmap, 0, NULL, (unsigned)width,
                                 (unsigned)height, 32, width * 4);
    if (!image) {
        XCloseDisplay(d);
        return CBARX11_WINDOW_NO_IMAGE;
    }
    const uint32_t probe = 1;
    image->byte_order = *(const unsigned char *)&probe == 1 ? LSBFirst : MSBFirst;
    Pixmap pixmap = XCreatePixmap(d, root, (unsigned)width, (unsigned)height, (unsigned)depth);
    // Black until the first image (a new pixmap's contents are undefined).
    XGCValues black = {.foreground = BlackPixel(d, screen)};
    GC gc = XCreateGC(d, pixmap, GCForeground, &black);
    XFillRectangle(d, pixmap, gc, 0, 0, (unsigned)width, (unsigned)height);

    XSetWindowAttributes attributes = {0};
    attributes.background_pixmap = pixmap;
    attributes.border_pixel = 0;
    attributes.override_redirect = False;
    attributes.colormap = DefaultColormap(d, screen);
    // No ExposureMask: the server repaints from the background pixmap.
    attributes.event_mask = ButtonPressMask | StructureNotifyMask;
    Window w = XCreateWindow(d, root, x, y, (unsigned)width, (unsigned)height, 0, depth, InputOutput, visual,
                             CWBackPixmap | CWBorderPixel | CWOverrideRedirect | CWColormap | CWEventMask,
                             &attributes);
    set_wm_properties(d, w, x, y, width, height);
    XMapWindow(d, w);
    XFlush(d);

    out->display = d;
    out->window = w;
    out->pixmap = pixmap;
    out->gc = gc;
    out->image = image;
    out->width = width;
    out->height = height;
    out->delete_window = XInternAtom(d, "WM_DELETE_WINDOW", False);
    out->fd = ConnectionNumber(d);
    return CBARX11_WINDOW_OK;
}

void cbarx11_window_show(struct cbarx11_window *w, const uint32_t *pixels) {
    // One PutImage into the pixmap, one ClearArea to repaint from it: the
    // pixmap stays the background, so later exposes cost this process nothing.
    // XPutImage is done with the pixels when it returns (copied or sent); the
    // pointer is not kept, so XDestroyImage could never free the caller's buffer.
    w->image->data = (char *)pixels;
    XPutImage(w->display, w->pixmap, w->gc, w->image, 0, 0, 0, 0, (unsigned)w->width, (unsigned)w->height);
    w->image->data = NULL;
    XClearWindow(w->display, w->window);
    XFlush(w->display);
}

int cbarx11_window_next_event(struct cbarx11_window *w) {
    // XPending reads what is there without blocking; an IO error exits via the handler.
    if (XPending(w->display) == 0) return CBARX11_EVENT_NONE;
    XEvent event;
    XNextEvent(w->display, &event);
    switch (event.type) {
    case ButtonPress:
        if (event.xbutton.window != w->window) return CBARX11_EVENT_OTHER;
        return (int)event.xbutton.button;
    case ClientMessage:
        if (event.xclient.window == w->window && event.xclient.format == 32 &&
            (Atom)event.xclient.data.l[0] == w->delete_window)
            return CBARX11_EVENT_CLOSE;
        return CBARX11_EVENT_OTHER;
    case DestroyNotify:
        if (event.xdestroywindow.window == w->window) return CBARX11_EVENT_DESTROYED;
        return CBARX11_EVENT_OTHER;
    default:
        return CBARX11_EVENT_OTHER;
    }
}

void cbarx11_window_report(int error) {
    const char *message = cbarx11_window_error_message(error);
    (void)!write(2, message, strlen(message));
    (void)!write(2, "\n", 1);
}
