// Most of the shim is inline in include/CBarSys.h. This file keeps argc/argv:
// glibc passes them to ELF constructors, so they are saved before main runs.
#include "CBarSys.h"

static int saved_argc;
static char **saved_argv;

__attribute__((constructor))
static void cbarsys_save_args(int argc, char **argv, char **envp) {
    (void)envp;
    saved_argc = argc;
    saved_argv = argv;
}

int cbarsys_argc(void) { return saved_argc; }
char **cbarsys_argv(void) { return saved_argv; }
