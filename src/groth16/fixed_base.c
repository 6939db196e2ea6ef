/* Fixed-base scalar multiplication for the test setup (see fixed_base_impl.h). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/fault.h"
#include "common/bigmem.h"
#include "common/error.h"
#include "common/pool.h"
#include "curve/curve.h"
#include "field/fp.h"
#include "field/fp2.h"
#include "field/fp_batch.h" /* g16_use_ifma */
#include "field/fp_ifma.h"  /* G16_IFMA_BUILD */
#include "msm/msm.h" /* the batch-affine step */
#include "groth16/groth16.h"

/* Scalars per batch of additions (one inversion per window per batch): 1024
 * keeps a batch's accumulators and vector scratch in L2; 4096 was ~4% slower
 * at 2^20 (docs/groth16.md, "Sessions 12–13"). */
#define FB_CHUNK 1024
/* Scalars per parallel task, worked window by window in batches of FB_CHUNK so
 * that one table row at a time is being read. */
#define FB_SPAN 8192
/* How many additions ahead the table entries are prefetched. */
#define FB_AHEAD 8
/* Window limits: w ≤ FB_MAX_W, so at most ⌈255/2⌉ windows. */
#define FB_MAX_W 22
#define FB_MAX_WINDOWS 128
/* Largest table considered by the automatic window choice.  Past the
 * last-level cache every entry read is a DRAM miss, and a bigger table loses to
 * those what its fewer additions win: at 2^20 (3.2 M G1 products) w = 17
 * (100 MB, 14 additions each) took 10% longer than w = 16 (50 MB, 15 additions)
 * with chunk-major products, and the same time with the window-major spans, so
 * the smaller table stays for its 50 MB (docs/groth16.md, "Setup"). */
#define FB_TABLE_BYTES 64e6
/* A table entry costs one batch-affine addition to build, plus its page faults and
 * the cache misses its size brings to the products: counted as this many. */
#define FB_ENTRY_COST 1.5

#ifdef G16_IFMA_BUILD
/* The G1 spans' vector path (fixed_base_v8.h), taken when the CPU has IFMA: the
 * template calls FB_VSPAN for a span when it has vector scratch, FB_VSCRATCH
 * bytes per worker (0: no vector path). */
static void fbv_span(const void *c, const void *sp, const int32_t *dig, uint8_t *vbase);
static size_t fbv_bytes(void);
#define FB_VSPAN(c, sp, dig, vbase) fbv_span(c, sp, dig, vbase)
#define FB_VSCRATCH (g16_use_ifma ? ((fbv_bytes() + 63) & ~(size_t)63) : 0)
#endif

#define FB_GROUP 1
#define CV(name) g16_g1_##name
#define FE(name) g16_fp_##name
#define FE_T g16_fp
#define AFF g16_g1_affine
#define JAC g16_g1_jac
#define FB_(name) fb_g1_##name
#define FB_NAME g16_fixed_base_g1
#include "groth16/fixed_base_impl.h"
#undef FB_GROUP
#undef CV
#undef FE
#undef FE_T
#undef AFF
#undef JAC
#undef FB_
#undef FB_NAME

#ifdef G16_IFMA_BUILD
#include "groth16/fixed_base_v8.h"
static void fbv_span(const void *c, const void *sp, const int32_t *dig, uint8_t *vbase)
{
    fbv_mul_span((const fb_g1_ctx *)c, (const fb_g1_span *)sp, dig, vbase);
}
#undef FB_VSPAN
#undef FB_VSCRATCH
#endif

#define FB_GROUP 2
#define CV(name) g16_g2_##name
#define FE(name) g16_fp2_##name
#define FE_T g16_fp2
#define AFF g16_g2_affine
#define JAC g16_g2_jac
#define FB_(name) fb_g2_##name
#define FB_NAME g16_fixed_base_g2
#include "groth16/fixed_base_impl.h"
