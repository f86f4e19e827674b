// A click on a Wayland compositor for the wayland-panel tests (WaylandPanelTests compiles it
// with cc and libwayland-client): a virtual pointer (zwlr_virtual_pointer_v1, written from the
// protocol's specification) moves to X,Y of a WIDTH x HEIGHT layout and presses BUTTON
// (1 left, 2 middle, 3 right; 4/5 a wheel step up/down).
//
//   virtual-pointer X Y BUTTON WIDTH HEIGHT
//
// A headless compositor has no pointer: the seat gains one while this runs, so the client
// under it first gets its wl_pointer; the press waits a moment for that.
#include <linux/input-event-codes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <wayland-client.h>

static const struct wl_interface *types[] = { NULL, NULL, NULL, NULL, NULL, NULL, &wl_seat_interface, NULL };
extern const struct wl_interface pointer_interface;
static const struct wl_interface *create_types[] = { &wl_seat_interface, &pointer_interface };

static const struct wl_message manager_requests[] = {
    { "create_virtual_pointer", "?on", create_types },
    { "destroy", "", types },
};
static const struct wl_interface manager_interface = {
    "zwlr_virtual_pointer_manager_v1", 1, 2, manager_requests, 0, NULL,
};
static const struct wl_message pointer_requests[] = {
    { "motion", "uff", types }, { "motion_absolute", "uuuuu", types }, { "button", "uuu", types },
    { "axis", "uuf", types }, { "frame", "", types }, { "axis_source", "u", types },
    { "axis_stop", "uu", types }, { "axis_discrete", "uufi", types }, { "destroy", "", types },
};
const struct wl_interface pointer_interface = {
    "zwlr_virtual_pointer_v1", 1, 9, pointer_requests, 0, NULL,
};
enum { MOTION_ABSOLUTE = 1, BUTTON = 2, AXIS = 3, FRAME = 4, AXIS_SOURCE = 5, AXIS_DISCRETE = 7 };

static struct wl_seat *seat;
static struct wl_proxy *manager;

static void global(void *data, struct wl_registry *r, uint32_t name, const char *interface, uint32_t version) {
    if (strcmp(interface, "wl_seat") == 0 && !seat) seat = wl_registry_bind(r, name, &wl_seat_interface, 1);
    if (strcmp(interface, manager_interface.name) == 0) manager = wl_registry_bind(r, name, &manager_interface, 1);
}
static void global_remove(void *data, struct wl_registry *r, uint32_t name) {}
static const struct wl_registry_listener listener = { global, global_remove };

static void sleep_ms(long ms) {
    struct timespec t = { ms / 1000, (ms % 1000) * 1000000L };
    nanosleep(&t, NULL);
}

static void request(struct wl_proxy *p, uint32_t opcode, uint32_t a, uint32_t b, uint32_t c) {
    wl_proxy_marshal_flags(p, opcode, NULL, 1, 0, a, b, c);
}

int main(int argc, char **argv) {
    if (argc != 6) { fprintf(stderr, "usage: virtual-pointer X Y BUTTON WIDTH HEIGHT\n"); return 2; }
    uint32_t x = (uint32_t)atoi(argv[1]), y = (uint32_t)atoi(argv[2]), button = (uint32_t)atoi(argv[3]);
    uint32_t width = (uint32_t)atoi(argv[4]), height = (uint32_t)atoi(argv[5]);
    struct wl_display *display = wl_display_connect(NULL);
    if (!display) { fprintf(stderr, "virtual-pointer: no compositor\n"); return 1; }
    struct wl_registry *registry = wl_display_get_registry(display);
    wl_registry_add_listener(registry, &listener, NULL);
    wl_display_roundtrip(display);
    if (!manager || !seat) { fprintf(stderr, "virtual-pointer: no zwlr_virtual_pointer_manager_v1\n"); return 1; }
    struct wl_proxy *pointer = wl_proxy_marshal_flags(manager, 0, &pointer_interface, 1, 0, seat, NULL);
    wl_display_roundtrip(display);
    sleep_ms(300);   // the client under the pointer binds its wl_pointer
    wl_proxy_marshal_flags(pointer, MOTION_ABSOLUTE, NULL, 1, 0, 1u, x, y, width, height);
    wl_proxy_marshal_flags(pointer, FRAME, NULL, 1, 0);
    wl_display_roundtrip(display);
    sleep_ms(100);
    if (button == 4 || button == 5) {
        wl_fixed_t value = wl_fixed_from_int(button == 4 ? -10 : 10);
        wl_proxy_marshal_flags(pointer, AXIS_SOURCE, NULL, 1, 0, 0u);   // a wheel
        wl_proxy_marshal_flags(pointer, AXIS_DISCRETE, NULL, 1, 0, 2u, 0u, value, button == 4 ? -1 : 1);
        wl_proxy_marshal_flags(pointer, FRAME, NULL, 1, 0);
    } else {
        uint32_t code = button == 1 ? BTN_LEFT : button == 2 ? BTN_MIDDLE : BTN_RIGHT;
        request(pointer, BUTTON, 3u, code, 1u);
        wl_proxy_marshal_flags(pointer, FRAME, NULL, 1, 0);
        request(pointer, BUTTON, 4u, code, 0u);
        wl_proxy_marshal_flags(pointer, FRAME, NULL, 1, 0);
    }
    wl_display_roundtrip(display);
    sleep_ms(100);
    wl_display_disconnect(display);
    return 0;
}
