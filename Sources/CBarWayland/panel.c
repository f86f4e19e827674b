// The panel's connection, outputs and layer surface (buffers.c draws, input.c takes clicks).
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "layer-shell.h"
#include "panel.h"

static struct cbarwl_output *output_by_global(struct cbarwl_panel *p, uint32_t global) {
    for (int i = 0; i < p->output_count; i++) {
        if (p->outputs[i].global == global) return &p->outputs[i];
    }
    return NULL;
}

/// The largest scale of the outputs the surface is on (1 before it entered one).
static void update_scale(struct cbarwl_panel *p) {
    int scale = 0;
    for (int i = 0; i < p->output_count; i++) {
        if (p->outputs[i].entered && p->outputs[i].scale > scale) scale = p->outputs[i].scale;
    }
    if (scale < 1) scale = 1;
    if (scale > 4) scale = 4;   // a picture of 1024x256 at 4 is 16 MiB of buffers: no more
    if (scale != p->scale) {
        p->scale = scale;
        cbarwl_draw(p);
    }
}

static void output_geometry(void *data, struct wl_output *o, int32_t x, int32_t y, int32_t w, int32_t h,
                            int32_t subpixel, const char *make, const char *model, int32_t transform) {}
static void output_mode(void *data, struct wl_output *o, uint32_t flags, int32_t w, int32_t h, int32_t refresh) {}
static void output_description(void *data, struct wl_output *o, const char *description) {}

static struct cbarwl_output *output_of(struct cbarwl_panel *p, struct wl_output *o) {
    for (int i = 0; i < p->output_count; i++) {
        if (p->outputs[i].output == o) return &p->outputs[i];
    }
    return NULL;
}

static void output_done(void *data, struct wl_output *o) {
    struct cbarwl_output *out = output_of(data, o);
    if (out) out->done = 1;
    update_scale(data);
}

static void output_scale(void *data, struct wl_output *o, int32_t factor) {
    struct cbarwl_output *out = output_of(data, o);
    if (out) out->scale = factor;
}

static void output_name(void *data, struct wl_output *o, const char *name) {
    struct cbarwl_output *out = output_of(data, o);
    if (out) snprintf(out->name, sizeof out->name, "%s", name);
}

static const struct wl_output_listener output_listener = {
    output_geometry, output_mode, output_done, output_scale, output_name, output_description,
};

static void registry_global(void *data, struct wl_registry *registry, uint32_t global, const char *interface,
                            uint32_t version) {
    struct cbarwl_panel *p = data;
    if (strcmp(interface, wl_compositor_interface.name) == 0 && !p->compositor) {
        p->compositor = wl_registry_bind(registry, global, &wl_compositor_interface, version < 4 ? version : 4);
    } else if (strcmp(interface, wl_shm_interface.name) == 0 && !p->shm) {
        p->shm = wl_registry_bind(registry, global, &wl_shm_interface, 1);
    } else if (strcmp(interface, zwlr_layer_shell_v1_interface.name) == 0 && !p->layer_shell) {
        p->layer_shell = wl_registry_bind(registry, global, &zwlr_layer_shell_v1_interface, version < 4 ? version : 4);
    } else if (strcmp(interface, wl_seat_interface.name) == 0) {
        cbarwl_add_seat(p, global, version);
    } else if (strcmp(interface, wl_output_interface.name) == 0 && p->output_count < CBARWL_MAX_OUTPUTS) {
        struct cbarwl_output *out = &p->outputs[p->output_count++];
        *out = (struct cbarwl_output){ .global = global, .scale = 1 };
        out->output = wl_registry_bind(registry, global, &wl_output_interface, version < 4 ? version : 4);
        wl_output_add_listener(out->output, &output_listener, p);
    }
}

static void registry_global_remove(void *data, struct wl_registry *registry, uint32_t global) {
    struct cbarwl_panel *p = data;
    struct cbarwl_output *out = output_by_global(p, global);
    if (!out) return;
    if (wl_proxy_get_version((struct wl_proxy *)out->output) >= 3) wl_output_release(out->output);
    else wl_output_destroy(out->output);
    *out = p->outputs[--p->output_count];
    update_scale(p);
}

static const struct wl_registry_listener registry_listener = { registry_global, registry_global_remove };

static void surface_enter(void *data, struct wl_surface *surface, struct wl_output *o) {
    struct cbarwl_output *out = output_of(data, o);
    if (out) out->entered = 1;
    update_scale(data);
}

static void surface_leave(void *data, struct wl_surface *surface, struct wl_output *o) {
    struct cbarwl_output *out = output_of(data, o);
    if (out) out->entered = 0;
    update_scale(data);
}

static const struct wl_surface_listener surface_listener = { surface_enter, surface_leave };

static void layer_configure(void *data, struct wl_proxy *surface, uint32_t serial, uint32_t width, uint32_t height) {
    struct cbarwl_panel *p = data;
    wl_proxy_marshal_flags(surface, LAYER_SURFACE_ACK_CONFIGURE, NULL, wl_proxy_get_version(surface), 0, serial);
    p->configured = 1;
    cbarwl_draw(p);
}

static void destroy_surface(struct cbarwl_panel *p) {
    if (p->layer_surface) {
        wl_proxy_marshal_flags(p->layer_surface, LAYER_SURFACE_DESTROY, NULL, wl_proxy_get_version(p->layer_surface),
                               WL_MARSHAL_FLAG_DESTROY);
    }
    if (p->surface) wl_surface_destroy(p->surface);
    p->layer_surface = NULL;
    p->surface = NULL;
    p->configured = 0;
    for (int i = 0; i < p->output_count; i++) p->outputs[i].entered = 0;
    cbarwl_drop_buffers(p);
}

/// The compositor closed the surface (its output went away): it is made again when an
/// output to show it on is there (cbarwl_panel_next_event).
static void layer_closed(void *data, struct wl_proxy *surface) {
    struct cbarwl_panel *p = data;
    p->gone_global = p->surface_global;
    destroy_surface(p);
    p->closed = 1;
}

static const struct layer_surface_listener layer_listener = { layer_configure, layer_closed };

/// Makes the surface on `out` (NULL: the compositor's choice) and commits it unfilled, as
/// the protocol asks; the configure that answers lets cbarwl_draw show the picture.
static void make_surface(struct cbarwl_panel *p, struct cbarwl_output *out) {
    const struct cbarwl_options *o = &p->options;
    p->surface = wl_compositor_create_surface(p->compositor);
    wl_surface_add_listener(p->surface, &surface_listener, p);
    uint32_t version = wl_proxy_get_version(p->layer_shell);
    p->layer_surface = wl_proxy_marshal_flags(p->layer_shell, LAYER_SHELL_GET_LAYER_SURFACE,
                                              &zwlr_layer_surface_v1_interface, version, 0, NULL, p->surface,
                                              out ? out->output : NULL, o->layer, "sysstats-bar");
    wl_proxy_add_listener(p->layer_surface, (void (**)(void))&layer_listener, p);
    struct wl_proxy *s = p->layer_surface;
    wl_proxy_marshal_flags(s, LAYER_SURFACE_SET_SIZE, NULL, version, 0, (uint32_t)o->width, (uint32_t)o->height);
    wl_proxy_marshal_flags(s, LAYER_SURFACE_SET_ANCHOR, NULL, version, 0, o->anchor);
    int m = o->margin;
    wl_proxy_marshal_flags(s, LAYER_SURFACE_SET_MARGIN, NULL, version, 0, m, m, m, m);
    int vertical = (o->anchor & (CBARWL_ANCHOR_TOP | CBARWL_ANCHOR_BOTTOM)) != 0;
    int zone = o->exclusive ? (vertical ? o->height : o->width) : 0;
    wl_proxy_marshal_flags(s, LAYER_SURFACE_SET_EXCLUSIVE_ZONE, NULL, version, 0, zone);
    wl_proxy_marshal_flags(s, LAYER_SURFACE_SET_KEYBOARD_INTERACTIVITY, NULL, version, 0, 0);
    wl_surface_commit(p->surface);
    p->surface_global = out ? out->global : 0;
    p->surface_scale = 1;
    p->closed = 0;
}

/// The output to show the panel on: the named one, or NULL for the compositor's choice.
/// *found is 0 when a name was asked for and no output has it (yet).
static struct cbarwl_output *chosen_output(struct cbarwl_panel *p, int *found) {
    *found = 1;
    if (p->output_name[0] == 0) return NULL;
    for (int i = 0; i < p->output_count; i++) {
        struct cbarwl_output *out = &p->outputs[i];
        if (out->done && out->global != p->gone_global && strcmp(out->name, p->output_name) == 0) return out;
    }
    *found = 0;
    return NULL;
}

/// After `closed`: the surface again once an output to show it on is there.
static void reopen_if_possible(struct cbarwl_panel *p) {
    if (!p->closed) return;
    int found;
    struct cbarwl_output *out = chosen_output(p, &found);
    if (!found) return;
    if (!out) {
        int other = 0;
        for (int i = 0; i < p->output_count; i++) other |= p->outputs[i].done && p->outputs[i].global != p->gone_global;
        if (!other) return;
    }
    make_surface(p, out);
}

struct cbarwl_panel *cbarwl_panel_open(const struct cbarwl_options *options, int *error) {
    struct cbarwl_panel *p = calloc(1, sizeof *p);
    size_t words = (size_t)options->width * (size_t)options->height;
    uint32_t *picture = malloc(words * 4);
    if (!p || !picture) { free(p); free(picture); *error = CBARWL_NO_MEMORY; return NULL; }
    p->options = *options;
    snprintf(p->output_name, sizeof p->output_name, "%s", options->output_name ? options->output_name : "");
    p->options.output_name = p->output_name;
    p->picture = picture;
    for (size_t i = 0; i < words; i++) picture[i] = options->background;
    p->front = -1;
    p->scale = 1;
    p->display = wl_display_connect(NULL);
    if (!p->display) { *error = CBARWL_NO_DISPLAY; return NULL; }
    p->registry = wl_display_get_registry(p->display);
    wl_registry_add_listener(p->registry, &registry_listener, p);
    // The globals, then what the outputs and the seat say about themselves.
    if (wl_display_roundtrip(p->display) < 0 || wl_display_roundtrip(p->display) < 0) {
        *error = CBARWL_NO_DISPLAY;
        return NULL;
    }
    *error = !p->compositor || !p->shm ? CBARWL_NO_SHM : !p->layer_shell ? CBARWL_NO_LAYER_SHELL : CBARWL_OK;
    int found;
    struct cbarwl_output *out = chosen_output(p, &found);
    if (*error == CBARWL_OK && !found) *error = CBARWL_NO_OUTPUT;
    if (*error != CBARWL_OK) return NULL;
    make_surface(p, out);
    while (!p->configured && !p->closed) {
        if (wl_display_dispatch(p->display) < 0) { *error = CBARWL_NO_DISPLAY; return NULL; }
    }
    if (!p->configured) { *error = CBARWL_NOT_CONFIGURED; return NULL; }
    p->have_picture = 1;
    cbarwl_draw(p);
    return p;
}

void cbarwl_report(int error, const struct cbarwl_options *options) {
    const char *name = options->output_name ? options->output_name : "";
    switch (error) {
    case CBARWL_NO_DISPLAY:
        fprintf(stderr, "sysstats-bar: cannot connect to the Wayland compositor (is WAYLAND_DISPLAY set?)\n");
        break;
    case CBARWL_NO_LAYER_SHELL:
        fprintf(stderr, "sysstats-bar: the compositor has no layer shell (zwlr_layer_shell_v1), which the panel "
                        "needs; GNOME has none: see docs/integrations.md\n");
        break;
    case CBARWL_NO_SHM: fprintf(stderr, "sysstats-bar: the compositor offers no shared memory (wl_shm)\n"); break;
    case CBARWL_NO_OUTPUT: fprintf(stderr, "sysstats-bar: the compositor has no output named %s\n", name); break;
    case CBARWL_NO_MEMORY: fprintf(stderr, "sysstats-bar: out of memory for the panel\n"); break;
    default: fprintf(stderr, "sysstats-bar: the compositor closed the panel before showing it\n"); break;
    }
}

int cbarwl_panel_fd(const struct cbarwl_panel *p) { return wl_display_get_fd(p->display); }

int cbarwl_panel_show(struct cbarwl_panel *p, const uint32_t *pixels) {
    memcpy(p->picture, pixels, (size_t)p->options.width * (size_t)p->options.height * 4);
    p->have_picture = 1;
    int e = cbarwl_draw(p);
    if (wl_display_get_error(p->display) != 0) return EPIPE;
    return e;
}

int cbarwl_panel_flush(struct cbarwl_panel *p) {
    if (!p->write_blocked) return 0;
    int e = cbarwl_flush(p);
    if (e == 0 && p->pending) e = cbarwl_draw(p);
    return e;
}

int cbarwl_panel_write_blocked(const struct cbarwl_panel *p) { return p->write_blocked; }

unsigned long cbarwl_panel_flushes(const struct cbarwl_panel *p) { return p->flushes; }

/// Reads what the socket holds, if anything, and handles it; -1 when the connection ended.
static int read_events(struct cbarwl_panel *p) {
    if (wl_display_dispatch_pending(p->display) < 0) return -1;
    if (wl_display_prepare_read(p->display) != 0) return wl_display_dispatch_pending(p->display) < 0 ? -1 : 0;
    struct pollfd pfd = { wl_display_get_fd(p->display), POLLIN, 0 };
    if (poll(&pfd, 1, 0) > 0) {
        if (wl_display_read_events(p->display) < 0) return -1;
    } else {
        wl_display_cancel_read(p->display);
    }
    if (wl_display_dispatch_pending(p->display) < 0) return -1;
    reopen_if_possible(p);
    int e = cbarwl_flush(p);
    return e != 0 && e != EAGAIN ? -1 : 0;
}

int cbarwl_panel_next_event(struct cbarwl_panel *p) {
    if (p->click_count == 0 && read_events(p) < 0) {
        if (wl_display_get_protocol_error(p->display, NULL, NULL) != 0) return CBARWL_EVENT_FAILED;
        // libwayland ends the connection itself, with EAGAIN, when a request does not fit in
        // its buffer because the compositor stopped reading: not the compositor's exit.
        return wl_display_get_error(p->display) == EAGAIN ? CBARWL_EVENT_STALLED : CBARWL_EVENT_LOST;
    }
    if (p->click_count == 0) return CBARWL_EVENT_NONE;
    int button = p->clicks[p->click_head];
    p->click_head = (p->click_head + 1) % CBARWL_MAX_CLICKS;
    p->click_count--;
    return button;
}

int cbarwl_panel_has_queued_event(const struct cbarwl_panel *p) { return p->click_count > 0; }

void cbarwl_report_end(const struct cbarwl_panel *p, int event) {
    if (event == CBARWL_EVENT_FAILED) {
        const struct wl_interface *interface = NULL;
        uint32_t id = 0;
        uint32_t code = wl_display_get_protocol_error(p->display, &interface, &id);
        fprintf(stderr, "sysstats-bar: the compositor ended the connection: protocol error %u on %s@%u\n", code,
                interface ? interface->name : "?", id);
    } else if (event == CBARWL_EVENT_STALLED) {
        fprintf(stderr, "sysstats-bar: the Wayland compositor stopped reading (its socket stayed full until "
                        "libwayland's buffer overflowed)\n");
    } else {
        fprintf(stderr, "sysstats-bar: the Wayland compositor closed the connection\n");
    }
}
