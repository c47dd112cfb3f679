// The C library, as Shfl's Swift code sees it. Both builds import this module instead of
// Glibc (which does not exist for the Embedded *-none-elf triples), so there is one way in.
#pragma once

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <malloc.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/inotify.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/random.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/timerfd.h>
#include <sys/types.h>
#include <sys/un.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

/// The calling thread's `errno` (a macro in C, so not importable as a variable).
static inline int shfl_errno(void) { return errno; }
static inline void shfl_set_errno(int code) { errno = code; }

/// The symbolic name of an errno value ("ENOENT"), or NULL if unknown (glibc `strerrorname_np`).
const char *shfl_errno_name(int code);
/// The English description of an errno value ("No such file or directory"), or NULL
/// (glibc `strerrordesc_np`: thread-safe and locale-independent, unlike `strerror`).
const char *shfl_errno_description(int code);

/// `open(2)` with a mode (variadic in C, so not importable).
static inline int shfl_open(const char *path, int flags, mode_t mode) { return open(path, flags, mode); }

/// `fcntl(fd, F_GETFL)` and `fcntl(fd, F_SETFL, flags)` (variadic in C, so not importable).
static inline int shfl_fcntl_getfl(int fd) { return fcntl(fd, F_GETFL); }
static inline int shfl_fcntl_setfl(int fd, int flags) { return fcntl(fd, F_SETFL, flags); }

/// `argc` and `argv` as the C runtime passed them to `main`, captured by an ELF constructor
/// (Embedded Swift has no `CommandLine`).
int shfl_argc(void);
char *const *shfl_argv(void);

/// The calling thread's stack size in bytes (`pthread_getattr_np`, a GNU extension); 0 on error.
size_t shfl_current_thread_stack_size(void);

// ---- Media (USB stick: directory walking, state files, mounting) ----------------------------
// <sys/mount.h> above gives mount(2) and umount2(2); <dirent.h> and <sys/stat.h> the rest.

/// `openat(2)` with a mode (variadic in C, so not importable).
static inline int shfl_openat(int directory, const char *path, int flags, mode_t mode) {
    return openat(directory, path, flags, mode);
}

/// `readdir(3)` with its error made explicit: NULL with `*error == 0` at the end of the
/// directory, NULL with `*error` set to `errno` on failure (readdir only signals it in errno).
static inline struct dirent *shfl_readdir(DIR *directory, int *error) {
    errno = 0;
    struct dirent *entry = readdir(directory);
    *error = entry == NULL ? errno : 0;
    return entry;
}

/// The NUL-terminated name of a directory entry (a fixed-size C array, which Swift sees as a
/// 256-element tuple).
static inline const char *shfl_dirent_name(const struct dirent *entry) { return entry->d_name; }

/// The entry's `d_type` (`DT_REG`, `DT_DIR`, `DT_LNK`, ..., or `DT_UNKNOWN` when the file
/// system does not say).
static inline unsigned char shfl_dirent_type(const struct dirent *entry) { return entry->d_type; }

/// The file type bits of `st_mode` (`st_mode & S_IFMT`; `S_IFMT` is a nested macro).
static inline unsigned int shfl_file_type(mode_t mode) { return mode & S_IFMT; }

// ---- Local sockets (control socket, sd_notify) ----------------------------------------------
// <sys/socket.h> and <sys/un.h> above give the calls; these wrap what Swift cannot import
// uniformly: glibc's SOCK_* and MSG_* are enum members re-#defined as macros, offsetof is a
// macro, and accept4(2) is declared only under _GNU_SOURCE (defined in shfl_system.c).

static inline int shfl_sock_stream(void) { return SOCK_STREAM; }
static inline int shfl_sock_dgram(void) { return SOCK_DGRAM; }
static inline int shfl_sock_cloexec(void) { return SOCK_CLOEXEC; }
static inline int shfl_sock_nonblock(void) { return SOCK_NONBLOCK; }
static inline int shfl_msg_nosignal(void) { return MSG_NOSIGNAL; }
static inline int shfl_msg_dontwait(void) { return MSG_DONTWAIT; }

/// `offsetof(struct sockaddr_un, sun_path)`: where the path starts in the address.
static inline size_t shfl_sockaddr_un_path_offset(void) { return __builtin_offsetof(struct sockaddr_un, sun_path); }

/// `accept4(fd, NULL, NULL, flags)`.
int shfl_accept4(int fd, int flags);
