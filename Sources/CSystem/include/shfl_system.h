// The C library, as Shfl's Swift code sees it. Both builds import this module instead of
// Glibc (which does not exist for the Embedded *-none-elf triples), so there is one way in.
#pragma once

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

/// The calling thread's `errno` (a macro in C, so not importable as a variable).
static inline int shfl_errno(void) { return errno; }

/// `argc` and `argv` as the C runtime passed them to `main`, captured by an ELF constructor
/// (Embedded Swift has no `CommandLine`).
int shfl_argc(void);
char *const *shfl_argv(void);
