/* Huge-page-advised allocations (see bigmem.h). */
#define _GNU_SOURCE
#include "common/bigmem.h"
#include "common/fault.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define HUGE_PAGE ((size_t)2 << 20)

/* G16_NO_HUGE=1: plain malloc / calloc everywhere (the A/B of docs/msm.md, "Fresh memory"). */
static int huge_off(void)
{
    static int off = -1;
    if (off < 0) {
        const char *v = getenv("G16_NO_HUGE");
        off = v && !strcmp(v, "1");
    }
    return off;
}

void *g16_big_alloc(size_t bytes)
{
    if (bytes < HUGE_PAGE || huge_off()) return g16_malloc(bytes ? bytes : 1);
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
    if (bytes < HUGE_PAGE || huge_off()) return g16_calloc(bytes ? n : 1, bytes ? size : 1);
    void *p = g16_big_alloc(bytes);
    if (p) memset(p, 0, bytes);
    return p;
}

void *g16_big_map(size_t bytes, size_t *len)
{
    *len = 0;
    size_t n = (bytes + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
    if (!bytes || n < bytes || n + HUGE_PAGE < n || huge_off() || g16_fault_hit(G16_FAULT_ALLOC)) return NULL;
    /* one huge page more than needed, then the unaligned head and tail given back */
    char *m = mmap(NULL, n + HUGE_PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED) return NULL;
    char *p = (char *)(((uintptr_t)m + HUGE_PAGE - 1) & ~(uintptr_t)(HUGE_PAGE - 1));
    if (p > m) munmap(m, (size_t)(p - m));
    size_t tail = (size_t)(m + n + HUGE_PAGE - (p + n));
    if (tail) munmap(p + n, tail);
#ifdef MADV_HUGEPAGE
    (void)madvise(p, n, MADV_HUGEPAGE);
#endif
    *len = n;
    return p;
}

void g16_big_unmap(void *p, size_t len)
{
    if (p && len) munmap(p, len);
}
