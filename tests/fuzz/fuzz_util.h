/* Shared by the libFuzzer harnesses (tests/fuzz/fuzz_*.c, docs/reliability.md).
 *
 * Most readers take a path and map the file, so the input goes into one memfd per
 * process, rewritten for each run and named through /proc/self/fd: no disk I/O
 * and the readers' own open/fstat/mmap code runs as in production.  A limit:
 * a read past the end of a mapping but inside its last page sees zeros instead of
 * an ASan report, so the readers' bounds checks are exercised, not proven, there. */
#ifndef G16_FUZZ_UTIL_H
#define G16_FUZZ_UTIL_H

/* memfd_create needs _GNU_SOURCE, set for every harness by CMakeLists.txt */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "g16.h"

/* Writes data as the whole content of the process's scratch file; returns its path. */
static inline const char *fuzz_file(const uint8_t *data, size_t size)
{
    static int fd = -1;
    static char path[64];
    if (fd < 0) {
        fd = memfd_create("g16-fuzz", MFD_CLOEXEC);
        if (fd < 0) { perror("memfd_create"); abort(); }
        snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
        g16_set_threads(1); /* one decode thread: no pool start-up per run */
    }
    if (ftruncate(fd, 0) != 0 || (size && pwrite(fd, data, size, 0) != (ssize_t)size)) {
        perror("fuzz scratch file");
        abort();
    }
    return path;
}

/* A harness's own finding (two paths disagree): report and crash so libFuzzer keeps the input. */
#define FUZZ_CHECK(cond, ...)                                              \
    do {                                                                   \
        if (!(cond)) {                                                     \
            fprintf(stderr, "fuzz check failed: %s: ", #cond);             \
            fprintf(stderr, __VA_ARGS__);                                  \
            fputc('\n', stderr);                                           \
            abort();                                                       \
        }                                                                  \
    } while (0)

#endif
