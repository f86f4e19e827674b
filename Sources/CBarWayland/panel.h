// The panel's state, shared by panel.c (connection, outputs, surface), buffers.c (the
// pictures) and input.c (the pointer).
#ifndef CBARWAYLAND_PANEL_H
#define CBARWAYLAND_PANEL_H
#include <stddef.h>
#include <wayland-client.h>
#include "CBarWayland.h"

#define CBARWL_MAX_OUTPUTS 16
#define CBARWL_MAX_CLICKS 32

struct cbarwl_output {
    struct wl_output *output;
    uint32_t global;
    int32_t scale;
    /// Whether its first `done` came (its name and scale are known).
    int done;
    /// Whether the surface is on it (wl_surface.enter).
    int entered;
    char name[64];
};

struct cbarwl_buffer {
    struct wl_buffer *buffer;
    uint32_t *pixels;
    /// Attached and not yet released by the compositor.
    int busy;
};

struct cbarwl_panel {
    struct wl_display *display;
    struct wl_registry *registry;
    struct wl_compositor *compositor;
    struct wl_shm *shm;
    struct wl_proxy *layer_shell;
    struct wl_seat *seat;
    struct wl_pointer *pointer;
    struct cbarwl_output outputs[CBARWL_MAX_OUTPUTS];
    int output_count;
    struct wl_surface *surface;
    struct wl_proxy *layer_surface;
    /// The output the surface was made for (its global name), 0: the compositor's choice;
    /// after `closed`, the one that went away (not used again).
    uint32_t surface_global, gone_global;
    /// The compositor configured the surface; it closed it (its output went away).
    int configured, closed;
    /// The scale the buffers are drawn at (the largest of the outputs the surface is on), the
    /// scale of the buffers made, and the one the surface was told (1 when it was told none).
    int scale, buffer_scale, surface_scale;
    struct wl_shm_pool *pool;
    uint8_t *pool_data;
    size_t pool_size;
    struct cbarwl_buffer buffers[2];
    /// The buffer shown last, -1 none.
    int front;
    /// The latest picture (width*height words) and whether it waits to be shown.
    uint32_t *picture;
    int have_picture, pending;
    /// A flush left requests unsent (EAGAIN: the compositor's socket is full). Nothing new is
    /// drawn until one sends them (cbarwl_panel_flush, on POLLOUT): libwayland ends the
    /// connection when its own buffer overflows.
    int write_blocked;
    /// Flushes that sent everything, counted: a compositor that reads slowly (each wait
    /// ends) is told from one that stopped (one wait goes on).
    unsigned long flushes;
    int clicks[CBARWL_MAX_CLICKS];
    int click_head, click_count;
    /// Scrolling summed until a wheel step (10 units) is reached, vertical and horizontal.
    double scrolled[2];
    struct cbarwl_options options;
    char output_name[64];
};

void cbarwl_add_click(struct cbarwl_panel *p, int button);
void cbarwl_add_seat(struct cbarwl_panel *p, uint32_t global, uint32_t version);
void cbarwl_drop_buffers(struct cbarwl_panel *p);
/// Shows the kept picture when the surface is configured, a buffer is free and the
/// compositor reads; 0, EAGAIN (kept: the compositor's socket is full), or an errno.
int cbarwl_draw(struct cbarwl_panel *p);
/// wl_display_flush, noting in write_blocked whether requests were left unsent: 0, EAGAIN, or
/// the errno that broke the connection (which the next read reports).
int cbarwl_flush(struct cbarwl_panel *p);
#endif
