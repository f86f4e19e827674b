#ifndef CGPUHELPER_H
#define CGPUHELPER_H

/// Runs the NVIDIA helper with the process's arguments and exits with its status
/// (Sources/CGPUHelper/helper.c says what it writes).
void cgpuhelper_run(void) __attribute__((noreturn));

#endif
