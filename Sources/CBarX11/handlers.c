// What happens when the X connection breaks or the server reports an error,
// for both X11 outputs. No X call is made from a signal handler: signals
// arrive through the event loop's signalfd.
#include "CBarX11.h"
#include <stdio.h>
#include <unistd.h>

void cbarx11_lost_display(void) {
    static const char message[] = "sysstats-bar: lost the X display\n";
    (void)!write(2, message, sizeof message - 1);
    _exit(1);
}

void cbarx11_report_error(const xcb_generic_error_t *error) {
    fprintf(stderr, "sysstats-bar: X error %d (request %d)\n", error->error_code, error->major_code);
}
