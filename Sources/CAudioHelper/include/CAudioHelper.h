#ifndef CAUDIOHELPER_H
#define CAUDIOHELPER_H

/// Runs the sound helper with the process's arguments and exits with its status
/// (Sources/CAudioHelper/helper.c says what it writes and takes).
void caudiohelper_run(void) __attribute__((noreturn));

#endif
