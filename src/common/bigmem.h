/* Large arrays that are walked at random (the setup's fixed-base tables, its
 * outputs): backed by 2 MiB pages where the kernel allows it.  With 4 KiB pages
 * every random read of a 100 MB table misses the TLB and a page walk stalls the
 * prefetch that was meant to hide the miss (docs/groth16.md, "Setup"). */
#ifndef G16_COMMON_BIGMEM_H
#define G16_COMMON_BIGMEM_H

#include <stddef.h>

/* Returns: `bytes` of uninitialised memory to release with free(), or NULL.
 * Arrays of 2 MiB and more are 2 MiB aligned and advised as huge pages
 * (MADV_HUGEPAGE; a no-op where transparent huge pages are off). */
void *g16_big_alloc(size_t bytes);

#endif
