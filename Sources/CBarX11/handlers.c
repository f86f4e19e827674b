// Xlib error handlers: an IO error handler must not return (Xlib exits anyway),
// so it prints one line and exits 1. No X call is made from a signal handler:
// signals arrive through the event loop's signalfd.
#include "CBarX11.h"
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

void cbarx11_lost_display(void) {
    static const char message[] = "sysstats-bar: lost the X display\n";
    (void)!write(2, message, sizeof message - 1);
    _exit(1);
}

void cbarx11_report_error(const xcb_generic_error_t *error) {
    fprintf(stderr, "sysstats-bar: X error %d (request %d)\n", error->error_code, error->major_code);
}

static int io_error(Display *display) {
    (void)display;
    cbarx11_lost_display();
    return 0;
}

static int protocol_error(Display *display, XErrorEvent *event) {
    char text[128];
    XGetErrorText(display, event->error_code, text, sizeof text);
    fprintf(stderr, "sysstats-bar: X error: %s (request %d)\n", text, event->request_code);
    return 0;
}

void cbarx11_install_error_handlers(void) {
    XSetIOErrorHandler(io_error);
    XSetErrorHandler(protocol_error);
}
