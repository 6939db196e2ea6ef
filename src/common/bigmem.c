/* Huge-page-advised allocations (see bigmem.h). */
#define _GNU_SOURCE
#include "common/bigmem.h"
#include "common/fault.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define HUGE_PAGE ((size_t)2 << 20)

void *g16_big_alloc(size_t bytes)
{
    if (bytes < HUGE_PAGE) return g16_malloc(bytes ? bytes : 1);
    size_t len = (bytes + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
    if (len < bytes) return NULL; /* rounding overflowed */
    void *p = NULL;
    if (g16_fault_hit(G16_FAULT_ALLOC) || posix_memalign(&p, HUGE_PAGE, len)) return NULL;
#ifdef MADV_HUGEPAGE
    /* advice only: the memory works the same without it */
    (void)madvise(p, len, MADV_HUGEPAGE);
#endif
    return p;
}

void *g16_big_calloc(size_t n, size_t size)
{
    if (size && n > (size_t)-1 / size) return NULL;
    size_t bytes = n * size;
    if (bytes < HUGE_PAGE) return g16_calloc(bytes ? n : 1, bytes ? size : 1);
    void *p = g16_big_alloc(bytes);
    if (p) memset(p, 0, bytes);
    return p;
}
