// The tests' sound card without sound hardware: an alsa-lib external control plugin
// (ctl_ext) that serves a mixer's controls from a state file, for the sound helper's ALSA
// path and for i3status beside it (SoundALSATests). Built by the tests with
//     gcc -shared -fPIC -DPIC -o DIR/libasound_module_ctl_sysstats_test.so mixer_plugin.c -lasound
// and named in an asoundrc:
//     ctl_type.sysstats_test { lib "DIR/libasound_module_ctl_sysstats_test.so" }
//     ctl.!default { type sysstats_test state "FILE" db true }
//
// Controls: "Master Playback Volume" (0..87, two channels; with `db true` a dB scale of
// -65.25 dB to 0 in 0.75 dB steps, as a laptop's HDA codec has), "Master Playback Switch",
// "Capture Volume" (0..63, two channels, no dB scale) and "Capture Switch". The state file
// holds `PLAYBACK SWITCH CAPTURE CAPTURE_SWITCH` (one value for both channels; written
// whole, by rename). Every opener sees a change of the file as a control event: the poll
// descriptor is an inotify watch on its folder, as a card's control device signals a change
// made by another program (amixer) at once.
#include <alsa/asoundlib.h>
#include <alsa/control_external.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <unistd.h>

enum { PLAYBACK, PLAYBACK_SWITCH, CAPTURE, CAPTURE_SWITCH, CONTROLS };
static const char *const names[CONTROLS] = {
    "Master Playback Volume", "Master Playback Switch", "Capture Volume", "Capture Switch",
};
static const long defaults[CONTROLS] = { 40, 1, 40, 1 };
static const long maxima[CONTROLS] = { 87, 1, 63, 1 };
// SNDRV_CTL_TLVT_DB_SCALE: the minimum and the step in hundredths of a dB.
static const unsigned int db_scale[] = { SND_CTL_TLVT_DB_SCALE, 2 * sizeof(unsigned int), (unsigned int)-6525, 75 };

struct mixer {
    snd_ctl_ext_t ext;
    char path[PATH_MAX], name[NAME_MAX + 1];
    int watch, db;
    /// Controls still to report for the last change seen.
    int pending;
};

static void load(const struct mixer *m, long *values) {
    memcpy(values, defaults, sizeof defaults);
    FILE *f = fopen(m->path, "r");
    if (!f) return;
    long v[CONTROLS];
    if (fscanf(f, "%ld %ld %ld %ld", &v[0], &v[1], &v[2], &v[3]) == CONTROLS) memcpy(values, v, sizeof v);
    fclose(f);
}

static int save(const struct mixer *m, const long *values) {
    char temporary[PATH_MAX + 8];
    snprintf(temporary, sizeof temporary, "%s.new", m->path);
    FILE *f = fopen(temporary, "w");
    if (!f) return -errno;
    fprintf(f, "%ld %ld %ld %ld\n", values[0], values[1], values[2], values[3]);
    if (fclose(f) != 0 || rename(temporary, m->path) != 0) return -EIO;
    return 0;
}

static void on_close(snd_ctl_ext_t *ext) {
    struct mixer *m = ext->private_data;
    close(m->watch);
    free(m);
}

static int count(snd_ctl_ext_t *ext) { (void)ext; return CONTROLS; }

static int list(snd_ctl_ext_t *ext, unsigned int offset, snd_ctl_elem_id_t *id) {
    (void)ext;
    if (offset >= CONTROLS) return -EINVAL;
    snd_ctl_elem_id_set_interface(id, SND_CTL_ELEM_IFACE_MIXER);
    snd_ctl_elem_id_set_name(id, names[offset]);
    return 0;
}

static snd_ctl_ext_key_t find(snd_ctl_ext_t *ext, const snd_ctl_elem_id_t *id) {
    (void)ext;
    const char *name = snd_ctl_elem_id_get_name(id);
    for (int k = 0; k < CONTROLS; k++) if (strcmp(name, names[k]) == 0) return k;
    return SND_CTL_EXT_KEY_NOT_FOUND;
}

static int attribute(snd_ctl_ext_t *ext, snd_ctl_ext_key_t key, int *type, unsigned int *access, unsigned int *channels) {
    struct mixer *m = ext->private_data;
    int volume = key == PLAYBACK || key == CAPTURE;
    *type = volume ? SND_CTL_ELEM_TYPE_INTEGER : SND_CTL_ELEM_TYPE_BOOLEAN;
    *access = SND_CTL_EXT_ACCESS_READWRITE | (key == PLAYBACK && m->db ? SND_CTL_EXT_ACCESS_TLV_READ : 0);
    *channels = 2;
    return 0;
}

static int integer_info(snd_ctl_ext_t *ext, snd_ctl_ext_key_t key, long *min, long *max, long *step) {
    (void)ext;
    *min = 0; *max = maxima[key]; *step = 1;
    return 0;
}

static int read_integer(snd_ctl_ext_t *ext, snd_ctl_ext_key_t key, long *value) {
    long values[CONTROLS];
    load(ext->private_data, values);
    value[0] = value[1] = values[key];
    return 0;
}

static int write_integer(snd_ctl_ext_t *ext, snd_ctl_ext_key_t key, long *value) {
    long values[CONTROLS];
    load(ext->private_data, values);
    long wanted = value[0] > value[1] ? value[0] : value[1];
    if (wanted < 0) wanted = 0;
    if (wanted > maxima[key]) wanted = maxima[key];
    if (wanted == values[key]) return 0;
    values[key] = wanted;
    int error = save(ext->private_data, values);
    return error < 0 ? error : 1;
}

static void subscribe(snd_ctl_ext_t *ext, int subscribe) { (void)ext; (void)subscribe; }

/// One control event per control for each change of the state file (its folder's inotify
/// events for other names are read and dropped).
static int read_event(snd_ctl_ext_t *ext, snd_ctl_elem_id_t *id, unsigned int *mask) {
    struct mixer *m = ext->private_data;
    while (!m->pending) {
        char buffer[4096] __attribute__((aligned(__alignof__(struct inotify_event))));
        ssize_t n = read(m->watch, buffer, sizeof buffer);
        if (n <= 0) return -EAGAIN;
        for (char *p = buffer; p < buffer + n;) {
            struct inotify_event *event = (struct inotify_event *)p;
            if (event->len && strcmp(event->name, m->name) == 0) m->pending = CONTROLS;
            p += sizeof *event + event->len;
        }
    }
    m->pending--;
    snd_ctl_elem_id_set_interface(id, SND_CTL_ELEM_IFACE_MIXER);
    snd_ctl_elem_id_set_name(id, names[m->pending]);
    *mask = SND_CTL_EVENT_MASK_VALUE;
    return 1;
}

static const snd_ctl_ext_callback_t callbacks = {
    .close = on_close, .elem_count = count, .elem_list = list, .find_elem = find,
    .get_attribute = attribute, .get_integer_info = integer_info, .read_integer = read_integer,
    .write_integer = write_integer, .subscribe_events = subscribe, .read_event = read_event,
};

SND_CTL_PLUGIN_DEFINE_FUNC(sysstats_test) {
    (void)root;
    const char *path = NULL;
    int db = 0;
    snd_config_iterator_t i, next;
    snd_config_for_each(i, next, conf) {
        snd_config_t *n = snd_config_iterator_entry(i);
        const char *id;
        if (snd_config_get_id(n, &id) < 0) continue;
        if (!strcmp(id, "comment") || !strcmp(id, "type") || !strcmp(id, "hint")) continue;
        if (!strcmp(id, "state")) { snd_config_get_string(n, &path); continue; }
        if (!strcmp(id, "db")) { db = snd_config_get_bool(n) > 0; continue; }
        SNDERR("sysstats_test: unknown field %s", id);
        return -EINVAL;
    }
    if (!path || strlen(path) >= PATH_MAX) return -EINVAL;
    struct mixer *m = calloc(1, sizeof *m);
    if (!m) return -ENOMEM;
    snprintf(m->path, sizeof m->path, "%s", path);
    const char *slash = strrchr(path, '/');
    snprintf(m->name, sizeof m->name, "%s", slash ? slash + 1 : path);
    char folder[PATH_MAX];
    snprintf(folder, sizeof folder, "%.*s", slash ? (int)(slash - path) : 1, slash ? path : ".");
    m->db = db;
    m->watch = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
    if (m->watch < 0 || inotify_add_watch(m->watch, folder[0] ? folder : "/", IN_CLOSE_WRITE | IN_MOVED_TO) < 0) {
        if (m->watch >= 0) close(m->watch);
        free(m);
        return -errno;
    }
    m->ext.version = SND_CTL_EXT_VERSION;
    m->ext.card_idx = 0;
    strcpy(m->ext.id, "SysstatsTest");
    strcpy(m->ext.driver, "sysstats-test");
    strcpy(m->ext.name, "Test card");
    strcpy(m->ext.longname, "sysstats test card");
    strcpy(m->ext.mixername, "Test mixer");
    m->ext.poll_fd = m->watch;
    m->ext.callback = &callbacks;
    m->ext.private_data = m;
    m->ext.tlv.p = db_scale;
    int error = snd_ctl_ext_create(&m->ext, name, mode);
    if (error < 0) { close(m->watch); free(m); return error; }
    *handlep = m->ext.handle;
    return 0;
}
SND_CTL_PLUGIN_SYMBOL(sysstats_test);
