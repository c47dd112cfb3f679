#pragma once
#include <alsa/asoundlib.h>

// alsa-lib prints configuration errors to stderr by default (e.g. "cannot find card '0'"
// when probing "default" on a machine without a sound card). The error handler is variadic,
// so it is set from C: quiet while probing, back to the library's default after.
static void shfl_alsa_quiet_handler(const char *file, int line, const char *function, int err, const char *fmt, ...) {
    (void)file; (void)line; (void)function; (void)err; (void)fmt;
}
static inline void shfl_alsa_set_quiet(int quiet) {
    snd_lib_error_set_handler(quiet ? shfl_alsa_quiet_handler : (snd_lib_error_handler_t)0);
}
