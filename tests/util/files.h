/* Whole-file reads for tests. */
#ifndef G16_TEST_FILES_H
#define G16_TEST_FILES_H

#include <stddef.h>
#include <stdint.h>

/* The bytes of path in a malloc'd buffer with `spare` writable bytes after them
 * (tests append or corrupt past the end); *n = the file's size.  NULL when the
 * file cannot be opened, read completely or the memory cannot be had. */
uint8_t *g16_test_slurp(const char *path, size_t *n, size_t spare);

#endif
