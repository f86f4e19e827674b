// The x11-root output's X side, on libxcb: the root window's name, as dwm reads it.
#include "CBarX11.h"
#include <stdlib.h>
#include <string.h>

static xcb_atom_t intern(xcb_connection_t *c, xcb_intern_atom_cookie_t cookie) {
    xcb_intern_atom_reply_t *reply = xcb_intern_atom_reply(c, cookie, NULL);
    xcb_atom_t atom = reply ? reply->atom : XCB_ATOM_NONE;
    free(reply);
    return atom;
}

int cbarx11_root_open(struct cbarx11_root *out) {
    memset(out, 0, sizeof *out);
    int screen_number = 0;
    xcb_connection_t *c = xcb_connect(NULL, &screen_number);
    if (xcb_connection_has_error(c)) {
        xcb_disconnect(c);
        return 1;
    }
    xcb_screen_iterator_t it = xcb_setup_roots_iterator(xcb_get_setup(c));
    for (int i = 0; i < screen_number && it.rem; i++) xcb_screen_next(&it);
    if (!it.data) {
        xcb_disconnect(c);
        return 1;
    }
    xcb_intern_atom_cookie_t name = xcb_intern_atom(c, 0, 12, "_NET_WM_NAME");
    xcb_intern_atom_cookie_t utf8 = xcb_intern_atom(c, 0, 11, "UTF8_STRING");
    out->connection = c;
    out->root = it.data->root;
    out->net_wm_name = intern(c, name);
    out->utf8_string = intern(c, utf8);
    if (xcb_connection_has_error(c)) cbarx11_lost_display();
    out->fd = xcb_get_file_descriptor(c);
    return 0;
}

void cbarx11_root_set_name(struct cbarx11_root *r, const uint8_t *name, uint32_t count, uint32_t wm_name_count) {
    // WM_NAME as STRING (what XStoreName sets), cut by the caller; _NET_WM_NAME whole.
    xcb_change_property(r->connection, XCB_PROP_MODE_REPLACE, r->root, XCB_ATOM_WM_NAME, XCB_ATOM_STRING, 8,
                        wm_name_count, name);
    xcb_change_property(r->connection, XCB_PROP_MODE_REPLACE, r->root, r->net_wm_name, r->utf8_string, 8, count,
                        name);
    if (xcb_flush(r->connection) <= 0) cbarx11_lost_display();
}

void cbarx11_root_drain(struct cbarx11_root *r) {
    xcb_generic_event_t *event;
    while ((event = xcb_poll_for_event(r->connection))) {
        if (event->response_type == 0) cbarx11_report_error((xcb_generic_error_t *)event);
        free(event);
    }
    if (xcb_connection_has_error(r->connection)) cbarx11_lost_display();
}
