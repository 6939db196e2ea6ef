/* Large arrays that are walked at random (the setup's fixed-base tables, its
 * outputs) or written once in full (a proof's MSM scratch, its witness): backed by
 * 2 MiB pages where the kernel allows it.  With 4 KiB pages every random read of a
 * 100 MB table misses the TLB and a page walk stalls the prefetch that was meant
 * to hide the miss (docs/groth16.md, "Setup"), and a fresh array costs a page fault
 * every 4 KiB: a WinningPoSt proof took 117,000 faults and ≈ 1 core-second of
 * kernel time on them (docs/msm.md, "Fresh memory"). */
#ifndef G16_COMMON_BIGMEM_H
#define G16_COMMON_BIGMEM_H

#include <stddef.h>

/* Returns: `bytes` of uninitialised memory to release with free(), or NULL.
 * Arrays of 2 MiB and more are 2 MiB aligned and advised as huge pages
 * (MADV_HUGEPAGE; a no-op where transparent huge pages are off). */
void *g16_big_alloc(size_t bytes);

/* g16_big_alloc of n × size zeroed bytes (NULL when the product overflows). */
void *g16_big_calloc(size_t n, size_t size);

/* Zeroed memory for a large array that is written once in parallel (a witness):
 * a private anonymous mapping, 2 MiB aligned and advised as huge pages, zeroed by
 * the kernel page by page as it is first written (no serial memset, as calloc
 * would spare too, but on 2 MiB pages).  Out: *len, the length to hand to
 * g16_big_unmap.  Returns NULL when bytes is 0, the mapping fails or G16_NO_HUGE=1
 * (callers then fall back to calloc).  G16_NO_HUGE=1 also makes g16_big_alloc and
 * g16_big_calloc plain malloc and calloc (for A/B runs). */
void *g16_big_map(size_t bytes, size_t *len);
void g16_big_unmap(void *p, size_t len); /* NULL ok */

#endif
