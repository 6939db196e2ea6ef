/* Fp12 = Fp6[w] / (w² − v).  Element c0 + c1·w, the target group of the pairing.
 *
 * Over Fp2 the basis is 1, v, v², w, vw, v²w = w⁰, w², w⁴, w¹, w³, w⁵ (w⁶ = ξ).
 * Inputs fully reduced, outputs fully reduced, outputs may alias inputs.  Not
 * constant time: meant for pairing verification on public data. */
#ifndef G16_FIELD_FP12_H
#define G16_FIELD_FP12_H

#include <stddef.h>
#include <stdint.h>

#include "field/fp6.h"

#define G16_FP12_BYTES (12 * G16_FP_BYTES) /* 576; 384 for BN254 */

typedef struct g16_fp12 { g16_fp6 c0, c1; } g16_fp12;

void g16_fp12_set_zero(g16_fp12 *r);
void g16_fp12_set_one(g16_fp12 *r);
void g16_fp12_add(g16_fp12 *r, const g16_fp12 *a, const g16_fp12 *b);
void g16_fp12_sub(g16_fp12 *r, const g16_fp12 *a, const g16_fp12 *b);
void g16_fp12_neg(g16_fp12 *r, const g16_fp12 *a);
/* Karatsuba over Fp6: 18 Fp2 multiplications. */
void g16_fp12_mul(g16_fp12 *r, const g16_fp12 *a, const g16_fp12 *b);
/* Complex squaring: 2 Fp6 multiplications. */
void g16_fp12_sqr(g16_fp12 *r, const g16_fp12 *a);
/* r = a·w: multiplication by the generator of Fp12 over Fp6 (no multiplications). */
void g16_fp12_mul_by_w(g16_fp12 *r, const g16_fp12 *a);
/* f ← f·(c0 + c1·v + c4·v·w): a line value of the Miller loop, whose only non-zero
 * Fp2 coefficients sit at positions 0, 1 and 4 of (c0.c0, c0.c1, c0.c2, c1.c0,
 * c1.c1, c1.c2).  13 Fp2 multiplications instead of 18. */
void g16_fp12_mul_by_014(g16_fp12 *f, const g16_fp2 *c0, const g16_fp2 *c1, const g16_fp2 *c4);
#if G16_CURVE_BN254
/* f ← f·(c0 + c3·w + c4·v·w): BN254's line value (D-type twist), non-zero at positions
 * 0, 3 and 4 of (c0.c0, c0.c1, c0.c2, c1.c0, c1.c1, c1.c2).  13 Fp2 multiplications. */
void g16_fp12_mul_by_034(g16_fp12 *f, const g16_fp2 *c0, const g16_fp2 *c3, const g16_fp2 *c4);
#endif
/* r = c0 − c1·w = a^(p⁶); equals 1/a when a is in the cyclotomic subgroup. */
void g16_fp12_conj(g16_fp12 *r, const g16_fp12 *a);
/* r = 1/a; 0 maps to 0. */
void g16_fp12_inv(g16_fp12 *r, const g16_fp12 *a);
/* r = a^(p^k) for k = 1, 2 or 3 (other k: r = a^(p^(k mod 12)) by repetition). */
void g16_fp12_frob(g16_fp12 *r, const g16_fp12 *a, unsigned k);
/* r = a² for a in the cyclotomic subgroup {a : a^(p⁴−p²+1) = 1}, e.g. any value
 * after the easy part of the final exponentiation (Granger–Scott: 9 Fp2
 * squarings).  The result is wrong for elements outside that subgroup. */
void g16_fp12_cyclotomic_sqr(g16_fp12 *r, const g16_fp12 *a);
/* r = a^e, e as little-endian 64-bit limbs (variable time in e). */
void g16_fp12_pow(g16_fp12 *r, const g16_fp12 *a, const uint64_t *e, size_t e_limbs);
int g16_fp12_eq(const g16_fp12 *a, const g16_fp12 *b);
int g16_fp12_is_zero(const g16_fp12 *a);
int g16_fp12_is_one(const g16_fp12 *a);
/* 576 bytes (384 for BN254): the 12 Fp coefficients, 48 (32) big-endian bytes each, in the order
 * c0.c0.c0, c0.c0.c1, c0.c1.c0, …, c1.c2.c1 (the @noble/curves Fp12 byte form). */
void g16_fp12_to_bytes(uint8_t out[G16_FP12_BYTES], const g16_fp12 *a);
/* Inverse of g16_fp12_to_bytes; G16_ERR_NONCANONICAL when a coefficient is ≥ p
 * (r untouched). */
g16_status g16_fp12_from_bytes(g16_fp12 *r, const uint8_t in[G16_FP12_BYTES]);

#endif
