/* Fp2 = Fp[u] / (u² + 1).  c0 + c1·u. */
#ifndef G16_FIELD_FP2_H
#define G16_FIELD_FP2_H

#include "field/fp.h"

typedef struct g16_fp2 { g16_fp c0, c1; } g16_fp2;

void g16_fp2_set_zero(g16_fp2 *r);
void g16_fp2_set_one(g16_fp2 *r);
void g16_fp2_add(g16_fp2 *r, const g16_fp2 *a, const g16_fp2 *b);
void g16_fp2_sub(g16_fp2 *r, const g16_fp2 *a, const g16_fp2 *b);
void g16_fp2_dbl(g16_fp2 *r, const g16_fp2 *a);
void g16_fp2_neg(g16_fp2 *r, const g16_fp2 *a);
/* r = c0 - c1·u: also the p-power Frobenius of Fp2 */
void g16_fp2_conj(g16_fp2 *r, const g16_fp2 *a);
void g16_fp2_mul(g16_fp2 *r, const g16_fp2 *a, const g16_fp2 *b);
void g16_fp2_sqr(g16_fp2 *r, const g16_fp2 *a);
void g16_fp2_mul_fp(g16_fp2 *r, const g16_fp2 *a, const g16_fp *b);
/* r = a·ξ, the non-residue that builds Fp6: ξ = 1 + u (BLS12-381), 9 + u (BN254) */
void g16_fp2_mul_by_xi(g16_fp2 *r, const g16_fp2 *a);
void g16_fp2_inv(g16_fp2 *r, const g16_fp2 *a);
void g16_fp2_pow(g16_fp2 *r, const g16_fp2 *a, const uint64_t *e, size_t e_limbs);
int g16_fp2_eq(const g16_fp2 *a, const g16_fp2 *b);
int g16_fp2_is_zero(const g16_fp2 *a);
int g16_fp2_is_one(const g16_fp2 *a);
/* ZCash sign: c1 decides unless it is zero, then c0 (each "> (p-1)/2"). */
int g16_fp2_is_lex_largest(const g16_fp2 *a);
/* Returns 1 and one square root in r when a is a square, else 0 (r untouched). */
int g16_fp2_sqrt(g16_fp2 *r, const g16_fp2 *a);

#endif
