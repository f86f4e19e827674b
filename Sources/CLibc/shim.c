// Most of CLibc is inline in include/CLibc.h. This file keeps argc/argv: glibc passes them
// to ELF constructors, so they are saved before main runs (Embedded Swift has no CommandLine).
#include "CLibc.h"

static int saved_argc;
static char **saved_argv;

__attribute__((constructor))
static void clibc_save_args(int argc, char **argv, char **envp) {
    (void)envp;
    saved_argc = argc;
    saved_argv = argv;
}

int clibc_argc(void) { return saved_argc; }
char **clibc_argv(void) { return saved_argv; }
