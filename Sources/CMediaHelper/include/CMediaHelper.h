#ifndef CMEDIAHELPER_H
#define CMEDIAHELPER_H

/// Runs the media helper with the process's arguments and exits with its status
/// (Sources/CMediaHelper/helper.c says what it writes and takes).
void cmediahelper_run(void) __attribute__((noreturn));

#endif
