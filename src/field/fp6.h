/* Fp6 = Fp2[v] / (v³ − ξ), ξ = 1 + u (9 + u for BN254).  Element c0 + c1·v + c2·v².
 *
 * The middle floor of the BLS12-381 tower (Fp2 → Fp6 → Fp12, see fp12.h).  All
 * functions take fully reduced inputs, give fully reduced outputs, and allow the
 * output to alias any input.  None of them is constant time with respect to the
 * zero/non-zero pattern of the inputs except where noted; they serve pairing
 * verification, whose inputs are public. */
#ifndef G16_FIELD_FP6_H
#define G16_FIELD_FP6_H

#include "field/fp2.h"

typedef struct g16_fp6 { g16_fp2 c0, c1, c2; } g16_fp6;

void g16_fp6_set_zero(g16_fp6 *r);
void g16_fp6_set_one(g16_fp6 *r);
void g16_fp6_add(g16_fp6 *r, const g16_fp6 *a, const g16_fp6 *b);
void g16_fp6_sub(g16_fp6 *r, const g16_fp6 *a, const g16_fp6 *b);
void g16_fp6_dbl(g16_fp6 *r, const g16_fp6 *a);
void g16_fp6_neg(g16_fp6 *r, const g16_fp6 *a);
/* Karatsuba, 6 Fp2 multiplications. */
void g16_fp6_mul(g16_fp6 *r, const g16_fp6 *a, const g16_fp6 *b);
/* Chung–Hasan SQR2: 2 Fp2 multiplications + 3 Fp2 squarings. */
void g16_fp6_sqr(g16_fp6 *r, const g16_fp6 *a);
/* r = a·v: multiplication by the non-residue that builds Fp12 (no multiplications). */
void g16_fp6_mul_by_v(g16_fp6 *r, const g16_fp6 *a);
/* r = a·(b0 + b1·v): sparse, 5 Fp2 multiplications. */
void g16_fp6_mul_by_01(g16_fp6 *r, const g16_fp6 *a, const g16_fp2 *b0, const g16_fp2 *b1);
/* r = a·(b1·v): sparse, 3 Fp2 multiplications. */
void g16_fp6_mul_by_1(g16_fp6 *r, const g16_fp6 *a, const g16_fp2 *b1);
/* r = a·b for b in Fp2. */
void g16_fp6_mul_fp2(g16_fp6 *r, const g16_fp6 *a, const g16_fp2 *b);
/* r = 1/a; 0 maps to 0. */
void g16_fp6_inv(g16_fp6 *r, const g16_fp6 *a);
int g16_fp6_eq(const g16_fp6 *a, const g16_fp6 *b);
int g16_fp6_is_zero(const g16_fp6 *a);
int g16_fp6_is_one(const g16_fp6 *a);

#endif
