// The wlr layer-shell interfaces (zwlr_layer_shell_v1, zwlr_layer_surface_v1, version 4),
// written from the protocol's specification: the request and event names, signatures
// and the interfaces of their object arguments, in the order that gives their opcodes.
#include <stddef.h>
#include <wayland-client.h>
#include "layer-shell.h"

static const struct wl_interface *types[] = {
    NULL, NULL, NULL, NULL,
    // get_layer_surface: new_id zwlr_layer_surface_v1, wl_surface, wl_output (nullable), layer, namespace
    &zwlr_layer_surface_v1_interface, &wl_surface_interface, &wl_output_interface, NULL, NULL,
};

static const struct wl_message shell_requests[] = {
    { "get_layer_surface", "no?ous", types + 4 },
    { "destroy", "3", types + 0 },
};

const struct wl_interface zwlr_layer_shell_v1_interface = {
    "zwlr_layer_shell_v1", 4, 2, shell_requests, 0, NULL,
};

static const struct wl_message surface_requests[] = {
    { "set_size", "uu", types + 0 },
    { "set_anchor", "u", types + 0 },
    { "set_exclusive_zone", "i", types + 0 },
    { "set_margin", "iiii", types + 0 },
    { "set_keyboard_interactivity", "u", types + 0 },
    // get_popup takes an xdg_popup, which this client never makes.
    { "get_popup", "o", types + 0 },
    { "ack_configure", "u", types + 0 },
    { "destroy", "", types + 0 },
    { "set_layer", "2u", types + 0 },
};

static const struct wl_message surface_events[] = {
    { "configure", "uuu", types + 0 },
    { "closed", "", types + 0 },
};

const struct wl_interface zwlr_layer_surface_v1_interface = {
    "zwlr_layer_surface_v1", 4, 9, surface_requests, 2, surface_events,
};
