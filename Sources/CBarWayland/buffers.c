// The panel's two shared-memory buffers: made for the surface's scale, filled from the
// kept picture, and only the rectangle that differs from the buffer shown last damaged.
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "panel.h"

static void buffer_release(void *data, struct wl_buffer *buffer) {
    struct cbarwl_panel *p = data;
    for (int i = 0; i < 2; i++) {
        if (p->buffers[i].buffer == buffer) p->buffers[i].busy = 0;
    }
    if (p->pending) cbarwl_draw(p);
}

static const struct wl_buffer_listener buffer_listener = { buffer_release };

void cbarwl_drop_buffers(struct cbarwl_panel *p) {
    for (int i = 0; i < 2; i++) {
        if (p->buffers[i].buffer) wl_buffer_destroy(p->buffers[i].buffer);
        p->buffers[i] = (struct cbarwl_buffer){ 0 };
    }
    if (p->pool) wl_shm_pool_destroy(p->pool);
    if (p->pool_data) munmap(p->pool_data, p->pool_size);
    p->pool = NULL;
    p->pool_data = NULL;
    p->pool_size = 0;
    p->buffer_scale = 0;
    p->front = -1;
}

/// Two buffers of the picture's size times `scale`, in one memfd.
static int make_buffers(struct cbarwl_panel *p, int scale) {
    cbarwl_drop_buffers(p);
    int width = p->options.width * scale, height = p->options.height * scale;
    size_t one = (size_t)width * (size_t)height * 4;
    int fd = memfd_create("sysstats-bar-panel", MFD_CLOEXEC | MFD_ALLOW_SEALING);
    if (fd < 0) return errno;
    if (ftruncate(fd, (off_t)(2 * one)) != 0) { int e = errno; close(fd); return e; }
    void *data = mmap(NULL, 2 * one, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (data == MAP_FAILED) { int e = errno; close(fd); return e; }
    fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_SEAL);
    p->pool = wl_shm_create_pool(p->shm, fd, (int32_t)(2 * one));
    close(fd);
    p->pool_data = data;
    p->pool_size = 2 * one;
    for (int i = 0; i < 2; i++) {
        p->buffers[i].buffer = wl_shm_pool_create_buffer(p->pool, (int32_t)(i * one), width, height, width * 4,
                                                         WL_SHM_FORMAT_XRGB8888);
        p->buffers[i].pixels = (uint32_t *)(p->pool_data + i * one);
        wl_buffer_add_listener(p->buffers[i].buffer, &buffer_listener, p);
    }
    p->buffer_scale = scale;
    return 0;
}

/// The picture into `to`, each pixel `scale` x `scale` times.
static void fill(const struct cbarwl_panel *p, uint32_t *to, int scale) {
    int width = p->options.width, height = p->options.height;
    if (scale == 1) {
        memcpy(to, p->picture, (size_t)width * (size_t)height * 4);
        return;
    }
    for (int y = 0; y < height; y++) {
        uint32_t *row = to + (size_t)y * (size_t)scale * (size_t)width * (size_t)scale;
        const uint32_t *from = p->picture + (size_t)y * (size_t)width;
        for (int x = 0; x < width; x++) {
            for (int k = 0; k < scale; k++) row[x * scale + k] = from[x];
        }
        for (int k = 1; k < scale; k++) memcpy(row + (size_t)k * (size_t)width * (size_t)scale, row, (size_t)width * (size_t)scale * 4);
    }
}

struct rect { int x0, y0, x1, y1; };

/// The smallest rectangle holding every pixel where `a` and `b` differ (x1 <= x0: none).
static struct rect changed(const uint32_t *a, const uint32_t *b, int width, int height) {
    struct rect r = { width, height, 0, 0 };
    for (int y = 0; y < height; y++) {
        const uint32_t *ra = a + (size_t)y * (size_t)width, *rb = b + (size_t)y * (size_t)width;
        if (memcmp(ra, rb, (size_t)width * 4) == 0) continue;
        if (y < r.y0) r.y0 = y;
        r.y1 = y + 1;
        for (int x = 0; x < width; x++) {
            if (ra[x] != rb[x]) {
                if (x < r.x0) r.x0 = x;
                if (x + 1 > r.x1) r.x1 = x + 1;
            }
        }
    }
    return r;
}

int cbarwl_flush(struct cbarwl_panel *p) {
    if (wl_display_flush(p->display) >= 0) {
        p->write_blocked = 0;
        p->flushes++;
        return 0;
    }
    int e = errno;
    p->write_blocked = e == EAGAIN;
    return e;
}

int cbarwl_draw(struct cbarwl_panel *p) {
    p->pending = p->have_picture;
    if (!p->have_picture || !p->configured || !p->surface) return 0;
    if (p->write_blocked) return EAGAIN;   // kept, and shown once the compositor reads again
    int scale = p->scale > 0 ? p->scale : 1;
    if (p->buffer_scale != scale) {
        int e = make_buffers(p, scale);
        if (e != 0) return e;
    }
    int back = p->front == 0 ? 1 : 0;
    if (p->buffers[back].busy) back = p->front;
    if (back < 0 || p->buffers[back].busy) return 0;   // shown when one is released
    int width = p->options.width * scale, height = p->options.height * scale;
    fill(p, p->buffers[back].pixels, scale);
    struct rect r = { 0, 0, width, height };
    if (p->front >= 0 && p->front != back) {
        r = changed(p->buffers[back].pixels, p->buffers[p->front].pixels, width, height);
        if (r.x1 <= r.x0) { p->pending = 0; return 0; }   // nothing changed
    }
    wl_surface_attach(p->surface, p->buffers[back].buffer, 0, 0);
    // libwayland allocates a closure per request: only what changed is sent.
    if (scale != p->surface_scale && wl_proxy_get_version((struct wl_proxy *)p->surface) >= 3) {
        wl_surface_set_buffer_scale(p->surface, scale);
    }
    p->surface_scale = scale;
    if (wl_proxy_get_version((struct wl_proxy *)p->surface) >= 4) {
        wl_surface_damage_buffer(p->surface, r.x0, r.y0, r.x1 - r.x0, r.y1 - r.y0);
    } else {
        wl_surface_damage(p->surface, r.x0 / scale, r.y0 / scale, (r.x1 - r.x0 + scale - 1) / scale,
                          (r.y1 - r.y0 + scale - 1) / scale);
    }
    wl_surface_commit(p->surface);
    p->buffers[back].busy = 1;
    p->front = back;
    p->pending = 0;
    return cbarwl_flush(p);
}
