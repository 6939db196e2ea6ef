/* Element-wise Fp multiplication of arrays: r[i] = a[i]·b[i]·2^-384 mod p.
 *
 * For loops that have many independent products at hand (the MSM's batch-affine
 * additions).  On CPUs with AVX-512 IFMA the products run eight at a time in a
 * 52-bit radix (fp_ifma.c), about three times the throughput of the scalar mulx
 * kernel; elsewhere it is a loop over g16_fp_mul.  The choice is made once by
 * CPUID; g16_fp_batch_force_scalar() lets tests compare both paths.
 *
 * Contract: inputs below 2p (the lazy products' bound), output fully reduced
 * (< p, bit-identical to g16_fp_mul on reduced inputs); r may alias a or b
 * element for element (r == a or r == b), not with an offset. */
#ifndef G16_FIELD_FP_BATCH_H
#define G16_FIELD_FP_BATCH_H

#include <stddef.h>

#include "field/fp.h"

/* 1 when the IFMA path is in use. */
extern int g16_use_ifma;

void g16_fp_mul_n(g16_fp *r, const g16_fp *a, const g16_fp *b, size_t n);
/* r[i·rs] = a[i·as]·b[i·bs] (strides in elements; stride 2 walks one component
 * of an Fp2 array).  Aliasing only element for element (same base and stride). */
void g16_fp_mul_s(g16_fp *r, size_t rs, const g16_fp *a, size_t as, const g16_fp *b, size_t bs, size_t n);
/* r[i] = a[i]² */
void g16_fp_sqr_n(g16_fp *r, const g16_fp *a, size_t n);

/* 1 if this build and CPU can run the IFMA path. */
int g16_cpu_can_ifma(void);
/* on != 0: loop over g16_fp_mul; 0: the best available path. */
void g16_fp_batch_force_scalar(int on);

#endif
