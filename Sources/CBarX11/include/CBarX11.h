// The Xlib calls sysstats-bar-x11 makes, for Embedded Swift. Only the x11
// binary links this target (and libX11).
#ifndef CBARX11_H
#define CBARX11_H
#include <X11/Xlib.h>
#include <X11/Xatom.h>

/// Makes losing the display (an X IO error) end the program with a clear
/// message and status 1; protocol errors are reported on stderr and ignored.
void cbarx11_install_error_handlers(void);
#endif
