// What the media helper uses of libsystemd's sd-bus (sd-bus(3)), declared here so that it
// builds without libsystemd's headers, and loaded with dlopen (helper.c's load()).
#ifndef SYSSTATS_MEDIA_BUS_H
#define SYSSTATS_MEDIA_BUS_H

#include <stdint.h>

typedef struct sd_bus sd_bus;
typedef struct sd_bus_message sd_bus_message;
typedef struct sd_bus_slot sd_bus_slot;
typedef struct {
    const char *name;
    const char *message;
    int need_free;
} sd_bus_error;
typedef int (*sd_bus_message_handler_t)(sd_bus_message *m, void *userdata, sd_bus_error *ret_error);

struct bus_functions {
    int (*open_user)(sd_bus **);
    int (*open_system)(sd_bus **);
    sd_bus *(*flush_close_unref)(sd_bus *);
    int (*add_match)(sd_bus *, sd_bus_slot **, const char *, sd_bus_message_handler_t, void *);
    int (*call_method)(sd_bus *, const char *, const char *, const char *, const char *, sd_bus_error *,
                       sd_bus_message **, const char *, ...);
    int (*set_method_call_timeout)(sd_bus *, uint64_t);
    int (*get_fd)(sd_bus *);
    int (*get_events)(sd_bus *);
    int (*get_timeout)(sd_bus *, uint64_t *);
    int (*process)(sd_bus *, sd_bus_message **);
    int (*message_read)(sd_bus_message *, const char *, ...);
    int (*message_enter_container)(sd_bus_message *, char, const char *);
    int (*message_exit_container)(sd_bus_message *);
    int (*message_peek_type)(sd_bus_message *, char *, const char **);
    int (*message_skip)(sd_bus_message *, const char *);
    sd_bus_message *(*message_unref)(sd_bus_message *);
    void (*error_free)(sd_bus_error *);
};

#endif
