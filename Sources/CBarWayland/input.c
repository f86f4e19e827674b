// The pointer over the panel: button presses and scroll steps become the clicks the
// event loop takes (the same numbers as X11's buttons).
#include <linux/input-event-codes.h>
#include "panel.h"

void cbarwl_add_click(struct cbarwl_panel *p, int button) {
    if (p->click_count == CBARWL_MAX_CLICKS) return;   // a flood of clicks: the rest are dropped
    p->clicks[(p->click_head + p->click_count) % CBARWL_MAX_CLICKS] = button;
    p->click_count++;
}

static void pointer_enter(void *data, struct wl_pointer *pointer, uint32_t serial, struct wl_surface *surface,
                          wl_fixed_t x, wl_fixed_t y) {}
static void pointer_leave(void *data, struct wl_pointer *pointer, uint32_t serial, struct wl_surface *surface) {}
static void pointer_motion(void *data, struct wl_pointer *pointer, uint32_t time, wl_fixed_t x, wl_fixed_t y) {}

static void pointer_button(void *data, struct wl_pointer *pointer, uint32_t serial, uint32_t time, uint32_t button,
                           uint32_t state) {
    if (state != WL_POINTER_BUTTON_STATE_PRESSED) return;
    switch (button) {
    case BTN_LEFT: cbarwl_add_click(data, 1); break;
    case BTN_MIDDLE: cbarwl_add_click(data, 2); break;
    case BTN_RIGHT: cbarwl_add_click(data, 3); break;
    case BTN_SIDE: cbarwl_add_click(data, 8); break;
    case BTN_EXTRA: cbarwl_add_click(data, 9); break;
    default: break;
    }
}

/// A wheel step is 10 units (wlroots, Mutter, KWin): each one is a click, as X11's buttons
/// 4-7 are; a touchpad's small movements add up to steps.
static void pointer_axis(void *data, struct wl_pointer *pointer, uint32_t time, uint32_t axis, wl_fixed_t value) {
    struct cbarwl_panel *p = data;
    int horizontal = axis == WL_POINTER_AXIS_HORIZONTAL_SCROLL;
    p->scrolled[horizontal] += wl_fixed_to_double(value);
    while (p->scrolled[horizontal] >= 10) { cbarwl_add_click(p, horizontal ? 7 : 5); p->scrolled[horizontal] -= 10; }
    while (p->scrolled[horizontal] <= -10) { cbarwl_add_click(p, horizontal ? 6 : 4); p->scrolled[horizontal] += 10; }
}

static void pointer_frame(void *data, struct wl_pointer *pointer) {}
static void pointer_axis_source(void *data, struct wl_pointer *pointer, uint32_t source) {}
static void pointer_axis_stop(void *data, struct wl_pointer *pointer, uint32_t time, uint32_t axis) {}
static void pointer_axis_discrete(void *data, struct wl_pointer *pointer, uint32_t axis, int32_t discrete) {}
static void pointer_axis_value120(void *data, struct wl_pointer *pointer, uint32_t axis, int32_t value120) {}

static const struct wl_pointer_listener pointer_listener = {
    pointer_enter, pointer_leave, pointer_motion, pointer_button, pointer_axis, pointer_frame,
    pointer_axis_source, pointer_axis_stop, pointer_axis_discrete, pointer_axis_value120,
};

static void seat_capabilities(void *data, struct wl_seat *seat, uint32_t capabilities) {
    struct cbarwl_panel *p = data;
    int has = (capabilities & WL_SEAT_CAPABILITY_POINTER) != 0;
    if (has && !p->pointer) {
        p->pointer = wl_seat_get_pointer(seat);
        wl_pointer_add_listener(p->pointer, &pointer_listener, p);
    } else if (!has && p->pointer) {
        if (wl_proxy_get_version((struct wl_proxy *)p->pointer) >= 3) wl_pointer_release(p->pointer);
        else wl_pointer_destroy(p->pointer);
        p->pointer = NULL;
    }
}

static void seat_name(void *data, struct wl_seat *seat, const char *name) {}

static const struct wl_seat_listener seat_listener = { seat_capabilities, seat_name };

void cbarwl_add_seat(struct cbarwl_panel *p, uint32_t global, uint32_t version) {
    if (p->seat) return;   // the first seat's pointer
    p->seat = wl_registry_bind(p->registry, global, &wl_seat_interface, version < 5 ? version : 5);
    wl_seat_add_listener(p->seat, &seat_listener, p);
}
