// The layer-shell interfaces (layer-shell.c) and their opcodes.
#ifndef CBARWAYLAND_LAYER_SHELL_H
#define CBARWAYLAND_LAYER_SHELL_H
#include <wayland-client.h>

extern const struct wl_interface zwlr_layer_shell_v1_interface;
extern const struct wl_interface zwlr_layer_surface_v1_interface;

enum {
    LAYER_SHELL_GET_LAYER_SURFACE = 0,
    LAYER_SURFACE_SET_SIZE = 0,
    LAYER_SURFACE_SET_ANCHOR = 1,
    LAYER_SURFACE_SET_EXCLUSIVE_ZONE = 2,
    LAYER_SURFACE_SET_MARGIN = 3,
    LAYER_SURFACE_SET_KEYBOARD_INTERACTIVITY = 4,
    LAYER_SURFACE_ACK_CONFIGURE = 6,
    LAYER_SURFACE_DESTROY = 7,
};

struct layer_surface_listener {
    void (*configure)(void *data, struct wl_proxy *surface, uint32_t serial, uint32_t width, uint32_t height);
    void (*closed)(void *data, struct wl_proxy *surface);
};
#endif
