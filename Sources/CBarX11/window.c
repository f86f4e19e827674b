// The x11-window output's X side, on libxcb: a top-level window (override-redirect,
// dock, desktop or normal: --window-type) holding a child window of exactly the
// picture's size whose background is a pixmap holding the latest image. The
// server repaints exposes from that pixmap by itself, so the renderer never selects Expose and never wakes for one.
// In C because the set-up is a long run of protocol structs, flags and property
// buffers that read more plainly here than through Embedded Swift's imports.
#include "CBarX11.h"
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
    [CBARX11_WINDOW_NO_MEMORY] = "sysstats-bar: x11-window: out of memory",
};

const char *cbarx11_window_error_message(int error) {
    if (error < 0 || error > CBARX11_WINDOW_NO_MEMORY) return "sysstats-bar: x11-window: unknown error";
    return error_messages[error];
}

void cbarx11_window_report(int error) {
    const char *message = cbarx11_window_error_message(error);
    (void)!write(2, message, strlen(message));
    (void)!write(2, "\n", 1);
}

enum { ATOM_NET_WM_NAME, ATOM_UTF8_STRING, ATOM_NET_WM_WINDOW_TYPE, ATOM_NET_WM_WINDOW_TYPE_DOCK,
       ATOM_NET_WM_WINDOW_TYPE_DESKTOP, ATOM_NET_WM_WINDOW_TYPE_UTILITY, ATOM_NET_WM_STATE,
       ATOM_NET_WM_STATE_STICKY, ATOM_NET_WM_STATE_ABOVE, ATOM_NET_WM_STATE_BELOW,
       ATOM_NET_WM_STATE_SKIP_TASKBAR, ATOM_NET_WM_STATE_SKIP_PAGER, ATOM_NET_WM_DESKTOP,
       ATOM_NET_WM_PID, ATOM_MOTIF_WM_HINTS, ATOM_WM_PROTOCOLS, ATOM_WM_DELETE_WINDOW, ATOM_COUNT };
static const char *const atom_names[ATOM_COUNT] = {
    "_NET_WM_NAME", "UTF8_STRING", "_NET_WM_WINDOW_TYPE", "_NET_WM_WINDOW_TYPE_DOCK",
    "_NET_WM_WINDOW_TYPE_DESKTOP", "_NET_WM_WINDOW_TYPE_UTILITY", "_NET_WM_STATE",
    "_NET_WM_STATE_STICKY", "_NET_WM_STATE_ABOVE", "_NET_WM_STATE_BELOW",
    "_NET_WM_STATE_SKIP_TASKBAR", "_NET_WM_STATE_SKIP_PAGER", "_NET_WM_DESKTOP",
    "_NET_WM_PID", "_MOTIF_WM_HINTS", "WM_PROTOCOLS", "WM_DELETE_WINDOW",
};

static void property(xcb_connection_t *c, xcb_window_t w, xcb_atom_t name, xcb_atom_t type, uint8_t format,
                     uint32_t count, const void *data) {
    xcb_change_property(c, XCB_PROP_MODE_REPLACE, w, name, type, format, count, data);
}

/// What a window manager reads: the names and class, a fixed size at the user's
/// position, no focus, no decorations, and per --window-type the EWMH type and
/// states (dock: above normal windows; desktop: below them; normal: neither;
/// override: none, no window manager reads them).
static void set_wm_properties(xcb_connection_t *c, xcb_window_t w, const xcb_atom_t *atoms, int type, int x,
                              int y, int width, int height) {
    static const char name[] = "sysstats-bar";
    property(c, w, XCB_ATOM_WM_NAME, XCB_ATOM_STRING, 8, sizeof name - 1, name);
    property(c, w, atoms[ATOM_NET_WM_NAME], atoms[ATOM_UTF8_STRING], 8, sizeof name - 1, name);
    // WM_CLASS: instance and class, each NUL-terminated.
    static const char class_hint[] = "sysstats-bar\0SysstatsBar";
    property(c, w, XCB_ATOM_WM_CLASS, XCB_ATOM_STRING, 8, sizeof class_hint, class_hint);

    // WM_NORMAL_HINTS (ICCCM 4.1.2.3): USPosition, USSize, PPosition, PSize,
    // PMinSize, PMaxSize. USPosition: the user chose the place (--position),
    // so a window manager puts the window there instead of choosing itself.
    // Min = max: a fixed size (i3 floats such a window instead of tiling it).
    uint32_t size[18] = {0};
    size[0] = 1 | 2 | 4 | 8 | 16 | 32;
    size[1] = (uint32_t)x; size[2] = (uint32_t)y;
    size[3] = size[5] = size[7] = (uint32_t)width;
    size[4] = size[6] = size[8] = (uint32_t)height;
    property(c, w, XCB_ATOM_WM_NORMAL_HINTS, XCB_ATOM_WM_SIZE_HINTS, 32, 18, size);
    // WM_HINTS: InputHint with input false (a panel never takes the keyboard
    // focus), StateHint NormalState.
    const uint32_t hints[9] = {1 | 2, 0, 1, 0, 0, 0, 0, 0, 0};
    property(c, w, XCB_ATOM_WM_HINTS, XCB_ATOM_WM_HINTS, 32, 9, hints);
    // A window manager closing the window asks first instead of killing the connection.
    property(c, w, atoms[ATOM_WM_PROTOCOLS], XCB_ATOM_ATOM, 32, 1, &atoms[ATOM_WM_DELETE_WINDOW]);

    if (type == CBARX11_TYPE_DOCK) {
        property(c, w, atoms[ATOM_NET_WM_WINDOW_TYPE], XCB_ATOM_ATOM, 32, 1, &atoms[ATOM_NET_WM_WINDOW_TYPE_DOCK]);
        const xcb_atom_t state[2] = {atoms[ATOM_NET_WM_STATE_STICKY], atoms[ATOM_NET_WM_STATE_ABOVE]};
        property(c, w, atoms[ATOM_NET_WM_STATE], XCB_ATOM_ATOM, 32, 2, state);
    } else if (type == CBARX11_TYPE_DESKTOP) {
        property(c, w, atoms[ATOM_NET_WM_WINDOW_TYPE], XCB_ATOM_ATOM, 32, 1,
                 &atoms[ATOM_NET_WM_WINDOW_TYPE_DESKTOP]);
        const xcb_atom_t state[4] = {atoms[ATOM_NET_WM_STATE_STICKY], atoms[ATOM_NET_WM_STATE_BELOW],
                                     atoms[ATOM_NET_WM_STATE_SKIP_TASKBAR], atoms[ATOM_NET_WM_STATE_SKIP_PAGER]};
        property(c, w, atoms[ATOM_NET_WM_STATE], XCB_ATOM_ATOM, 32, 4, state);
    } else if (type == CBARX11_TYPE_NORMAL) {
        property(c, w, atoms[ATOM_NET_WM_WINDOW_TYPE], XCB_ATOM_ATOM, 32, 1,
                 &atoms[ATOM_NET_WM_WINDOW_TYPE_UTILITY]);
        const xcb_atom_t state[3] = {atoms[ATOM_NET_WM_STATE_STICKY], atoms[ATOM_NET_WM_STATE_SKIP_TASKBAR],
                                     atoms[ATOM_NET_WM_STATE_SKIP_PAGER]};
        property(c, w, atoms[ATOM_NET_WM_STATE], XCB_ATOM_ATOM, 32, 3, state);
    }
    const uint32_t all_desktops = 0xFFFFFFFFu;
    property(c, w, atoms[ATOM_NET_WM_DESKTOP], XCB_ATOM_CARDINAL, 32, 1, &all_desktops);
    const uint32_t pid = (uint32_t)getpid();
    property(c, w, atoms[ATOM_NET_WM_PID], XCB_ATOM_CARDINAL, 32, 1, &pid);
    // _NET_WM_PID means something only with the host it runs on.
    char host[256];
    if (gethostname(host, sizeof host) == 0) {
        host[sizeof host - 1] = 0;
        property(c, w, XCB_ATOM_WM_CLIENT_MACHINE, XCB_ATOM_STRING, 8, (uint32_t)strlen(host), host);
    }
    // Motif hints: flags = MWM_HINTS_DECORATIONS, decorations = none.
    const uint32_t motif[5] = {2, 0, 0, 0, 0};
    property(c, w, atoms[ATOM_MOTIF_WM_HINTS], atoms[ATOM_MOTIF_WM_HINTS], 32, 5, motif);
}

/// The root visual, when it takes 0x00RRGGBB words as they are: TrueColor,
/// depth 24 or 32, 8-bit channels at those masks, 32 bits per pixel.
static int visual_fits(const xcb_setup_t *setup, const xcb_screen_t *screen) {
    if (screen->root_depth != 24 && screen->root_depth != 32) return 0;
    int bpp = 0;
    for (xcb_format_iterator_t f = xcb_setup_pixmap_formats_iterator(setup); f.rem; xcb_format_next(&f))
        if (f.data->depth == screen->root_depth) bpp = f.data->bits_per_pixel;
    if (bpp != 32) return 0;
    for (xcb_depth_iterator_t d = xcb_screen_allowed_depths_iterator(screen); d.rem; xcb_depth_next(&d)) {
        if (d.data->depth != screen->root_depth) continue;
        for (xcb_visualtype_iterator_t v = xcb_depth_visuals_iterator(d.data); v.rem; xcb_visualtype_next(&v)) {
            if (v.data->visual_id != screen->root_visual) continue;
            return v.data->_class == XCB_VISUAL_CLASS_TRUE_COLOR && v.data->red_mask == 0xFF0000 &&
                   v.data->green_mask == 0x00FF00 && v.data->blue_mask == 0x0000FF;
        }
    }
    return 0;
}

/// Every atom in one round trip; XCB_ATOM_NONE for one the server did not give.
static void intern_atoms(xcb_connection_t *c, xcb_atom_t atoms[ATOM_COUNT]) {
    xcb_intern_atom_cookie_t cookies[ATOM_COUNT];
    for (int i = 0; i < ATOM_COUNT; i++)
        cookies[i] = xcb_intern_atom(c, 0, (uint16_t)strlen(atom_names[i]), atom_names[i]);
    for (int i = 0; i < ATOM_COUNT; i++) {
        xcb_intern_atom_reply_t *reply = xcb_intern_atom_reply(c, cookies[i], NULL);
        atoms[i] = reply ? reply->atom : XCB_ATOM_NONE;
        free(reply);
    }
    if (xcb_connection_has_error(c)) cbarx11_lost_display();
}

/// A window's coordinate on a screen side `screen_size` long: a negative one counts from the
/// right/bottom edge (-1 is flush with it); clamped to the protocol's 16 bits (anything past
/// that is off screen anyway).
static int place(int at, int screen_size, int size) {
    if (at < 0) at = screen_size - size + at + 1;
    if (at < -32768) at = -32768;
    if (at > 32767) at = 32767;
    return at;
}

/// A pixmap of the window's size, black until the first image (a new pixmap's contents are
/// undefined), and the graphics context that filled it.
static xcb_pixmap_t black_pixmap(xcb_connection_t *c, const xcb_screen_t *screen, int width, int height,
                                 xcb_gcontext_t *gc_out) {
    xcb_pixmap_t pixmap = xcb_generate_id(c);
    xcb_create_pixmap(c, screen->root_depth, pixmap, screen->root, (uint16_t)width, (uint16_t)height);
    xcb_gcontext_t gc = xcb_generate_id(c);
    const uint32_t gc_values[2] = {screen->black_pixel, 0};
    xcb_create_gc(c, gc, pixmap, XCB_GC_FOREGROUND | XCB_GC_GRAPHICS_EXPOSURES, gc_values);
    const xcb_rectangle_t all = {0, 0, (uint16_t)width, (uint16_t)height};
    xcb_poly_fill_rectangle(c, pixmap, gc, 1, &all);
    *gc_out = gc;
    return pixmap;
}

/// How images go to this server: swapped when it takes image words in another byte order
/// than ours (into a buffer of the window's size), in requests of how many rows. 0 when that
/// buffer cannot be had.
static int prepare_images(struct cbarx11_window *out, const xcb_setup_t *setup, int width, int height) {
    const uint32_t probe = 1;
    const int little_endian = *(const unsigned char *)&probe == 1;
    out->swap = (setup->image_byte_order == XCB_IMAGE_ORDER_LSB_FIRST) != little_endian;
    if (out->swap && !(out->swapped = malloc((size_t)width * (size_t)height * 4))) return 0;
    // A request is at most maximum_request_length 4-byte units.
    int rows = ((int)setup->maximum_request_length * 4 - 24) / (width * 4);
    out->rows_per_request = rows < 1 ? 1 : rows;
    return 1;
}

int cbarx11_window_open(struct cbarx11_window *out, int x, int y, int width, int height, int type,
                        uint32_t background) {
    memset(out, 0, sizeof *out);
    if (type < CBARX11_TYPE_OVERRIDE || type > CBARX11_TYPE_NORMAL) type = CBARX11_TYPE_OVERRIDE;
    if (width < 1 || height < 1 || width > 4096 || height > 4096) return CBARX11_WINDOW_BAD_SIZE;
    int screen_number = 0;
    xcb_connection_t *c = xcb_connect(NULL, &screen_number);
    if (xcb_connection_has_error(c)) {
        xcb_disconnect(c);
        return CBARX11_WINDOW_NO_DISPLAY;
    }
    const xcb_setup_t *setup = xcb_get_setup(c);
    xcb_screen_iterator_t it = xcb_setup_roots_iterator(setup);
    for (int i = 0; i < screen_number && it.rem; i++) xcb_screen_next(&it);
    const xcb_screen_t *screen = it.data;
    if (!screen || !visual_fits(setup, screen)) {
        xcb_disconnect(c);
        return CBARX11_WINDOW_BAD_VISUAL;
    }
    if (!prepare_images(out, setup, width, height)) {
        xcb_disconnect(c);
        return CBARX11_WINDOW_NO_MEMORY;
    }

    xcb_atom_t atoms[ATOM_COUNT];
    intern_atoms(c, atoms);
    x = place(x, screen->width_in_pixels, width);
    y = place(y, screen->height_in_pixels, height);
    xcb_gcontext_t gc;
    xcb_pixmap_t pixmap = black_pixmap(c, screen, width, height, &gc);

    // The top-level window: what the window manager sees (or, override-redirect,
    // does not), the same colour as the picture's background. A window manager may
    // give it another size (i3 stretches a dock to the screen's width): its
    // background is a plain colour, so the picture is never tiled across it.
    xcb_window_t window = xcb_generate_id(c);
    // In the order of their bits: background pixel, border pixel, override-redirect,
    // events, colormap. No Expose in either mask: the server repaints both windows
    // from their backgrounds. Button presses on the picture propagate to this window.
    const uint32_t values[5] = {background & 0xFFFFFF, 0, type == CBARX11_TYPE_OVERRIDE,
                                XCB_EVENT_MASK_BUTTON_PRESS | XCB_EVENT_MASK_STRUCTURE_NOTIFY,
                                screen->default_colormap};
    xcb_create_window(c, screen->root_depth, window, screen->root, (int16_t)x, (int16_t)y, (uint16_t)width,
                      (uint16_t)height, 0, XCB_WINDOW_CLASS_INPUT_OUTPUT, screen->root_visual,
                      XCB_CW_BACK_PIXEL | XCB_CW_BORDER_PIXEL | XCB_CW_OVERRIDE_REDIRECT | XCB_CW_EVENT_MASK |
                          XCB_CW_COLORMAP,
                      values);
    // The picture: a child of exactly the image's size at the top-left corner,
    // whose background is the pixmap. It selects nothing.
    xcb_window_t picture = xcb_generate_id(c);
    const uint32_t picture_values[2] = {pixmap, 0};
    xcb_create_window(c, screen->root_depth, picture, window, 0, 0, (uint16_t)width, (uint16_t)height, 0,
                      XCB_WINDOW_CLASS_INPUT_OUTPUT, screen->root_visual, XCB_CW_BACK_PIXMAP | XCB_CW_BORDER_PIXEL,
                      picture_values);
    xcb_map_window(c, picture);
    set_wm_properties(c, window, atoms, type, x, y, width, height);
    xcb_map_window(c, window);
    if (xcb_flush(c) <= 0) cbarx11_lost_display();

    out->connection = c;
    out->window = window;
    out->picture = picture;
    out->pixmap = pixmap;
    out->gc = gc;
    out->width = width;
    out->height = height;
    out->depth = screen->root_depth;
    out->wm_protocols = atoms[ATOM_WM_PROTOCOLS];
    out->delete_window = atoms[ATOM_WM_DELETE_WINDOW];
    out->fd = xcb_get_file_descriptor(c);
    out->type = type;
    out->want_x = x;
    out->want_y = y;
    return CBARX11_WINDOW_OK;
}

void cbarx11_window_show(struct cbarx11_window *w, const uint32_t *pixels) {
    const uint32_t count = (uint32_t)w->width * (uint32_t)w->height;
    if (w->swap) {
        for (uint32_t i = 0; i < count; i++) w->swapped[i] = __builtin_bswap32(pixels[i]);
        pixels = w->swapped;
    }
    // PutImage into the pixmap (xcb sends the pixels from our buffer, no copy),
    // then ClearArea to repaint the window from it: the pixmap stays the
    // background, so later exposes cost this process nothing.
    for (int y = 0; y < w->height; y += w->rows_per_request) {
        int rows = w->height - y < w->rows_per_request ? w->height - y : w->rows_per_request;
        xcb_put_image(w->connection, XCB_IMAGE_FORMAT_Z_PIXMAP, w->pixmap, w->gc, (uint16_t)w->width,
                      (uint16_t)rows, 0, (int16_t)y, 0, w->depth, (uint32_t)(rows * w->width * 4),
                      (const uint8_t *)(pixels + (size_t)y * (size_t)w->width));
    }
    xcb_clear_area(w->connection, 0, w->picture, 0, 0, 0, 0);
    if (xcb_flush(w->connection) <= 0) cbarx11_lost_display();
}

int cbarx11_window_has_queued_event(struct cbarx11_window *w) {
    if (!w->stash) w->stash = xcb_poll_for_queued_event(w->connection);
    return w->stash != NULL;
}

int cbarx11_window_next_event(struct cbarx11_window *w) {
    xcb_generic_event_t *event = w->stash ? w->stash : xcb_poll_for_event(w->connection);
    w->stash = NULL;
    if (!event) {
        if (xcb_connection_has_error(w->connection)) cbarx11_lost_display();
        return CBARX11_EVENT_NONE;
    }
    int result = CBARX11_EVENT_OTHER;
    switch (event->response_type & 0x7F) {
    case 0:
        cbarx11_report_error((xcb_generic_error_t *)event);
        break;
    case XCB_BUTTON_PRESS: {
        const xcb_button_press_event_t *press = (const xcb_button_press_event_t *)event;
        if (press->event == w->window) result = press->detail;
        break;
    }
    case XCB_CLIENT_MESSAGE: {
        const xcb_client_message_event_t *message = (const xcb_client_message_event_t *)event;
        if (message->window == w->window && message->format == 32 && message->type == w->wm_protocols &&
            message->data.data32[0] == w->delete_window)
            result = CBARX11_EVENT_CLOSE;
        break;
    }
    case XCB_CONFIGURE_NOTIFY: {
        // A window manager's synthetic notice (bit 0x80) gives the window's place on
        // the root. i3 4.22 floats a fixed-size window as if it had its title bar
        // (+2,+18 at its default font) and then draws none (the Motif hints): asked
        // again, it puts the floating window where asked. Only a notice of the
        // window's own size counts (i3 may first report a tiled place it never
        // shows), and at most three times, so that a window manager with its own
        // idea of the place is not argued with forever.
        const xcb_configure_notify_event_t *notify = (const xcb_configure_notify_event_t *)event;
        if ((event->response_type & 0x80) && notify->window == w->window && w->corrections < 3 &&
            (w->type == CBARX11_TYPE_DESKTOP || w->type == CBARX11_TYPE_NORMAL) &&
            notify->width == w->width && notify->height == w->height &&
            (notify->x != w->want_x || notify->y != w->want_y)) {
            w->corrections++;
            const uint32_t place[2] = {(uint32_t)(int32_t)w->want_x, (uint32_t)(int32_t)w->want_y};
            xcb_configure_window(w->connection, w->window, XCB_CONFIG_WINDOW_X | XCB_CONFIG_WINDOW_Y, place);
            if (xcb_flush(w->connection) <= 0) cbarx11_lost_display();
        }
        break;
    }
    case XCB_DESTROY_NOTIFY:
        if (((const xcb_destroy_notify_event_t *)event)->window == w->window) result = CBARX11_EVENT_DESTROYED;
        break;
    }
    free(event);
    return result;
}
