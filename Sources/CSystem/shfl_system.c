#define _GNU_SOURCE
#include "shfl_system.h"

#include <locale.h>

static int captured_argc;
static char *const *captured_argv;

// glibc calls ELF constructors with (argc, argv, envp), before main.
__attribute__((constructor)) static void shfl_capture_arguments(int argc, char **argv, char **envp) {
    (void)envp;
    captured_argc = argc;
    captured_argv = argv;
}

const char *shfl_errno_name(int code) { return strerrorname_np(code); }
const char *shfl_errno_description(int code) { return strerrordesc_np(code); }

int shfl_argc(void) { return captured_argc; }
char *const *shfl_argv(void) { return captured_argv; }

int shfl_accept4(int fd, int flags) { return accept4(fd, NULL, NULL, flags); }

#ifdef SHFL_FIRMWARE
// The Embedded Swift stdlib parses Double from text through this hook, which the full runtime
// provides on the host. Always the C locale, as the stdlib expects.
const char *_swift_stdlib_strtod_clocale(const char *nptr, double *outResult) {
    static locale_t c_locale;
    if (c_locale == (locale_t)0) c_locale = newlocale(LC_ALL_MASK, "C", (locale_t)0);
    char *end = NULL;
    *outResult = strtod_l(nptr, &end, c_locale);
    return end;
}
#endif

size_t shfl_current_thread_stack_size(void) {
    pthread_attr_t attributes;
    if (pthread_getattr_np(pthread_self(), &attributes) != 0) return 0;
    size_t size = 0;
    pthread_attr_getstacksize(&attributes, &size);
    pthread_attr_destroy(&attributes);
    return size;
}
