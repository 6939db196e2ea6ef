/* Fp: the BLS12-381 base field, p = 0x1a0111ea…ffffaaab (381 bits).
 * Elements are kept in Montgomery form (a·2^384 mod p), six 64-bit limbs,
 * little-endian, always fully reduced, so equal values have equal limbs.
 * Compiled with G16_CURVE_BN254 (docs/curve.md) it is BN254's base field,
 * p = 0x30644e72…d87cfd47 (254 bits): four limbs, Montgomery R = 2^256. */
#ifndef G16_FIELD_FP_H
#define G16_FIELD_FP_H

#include <stddef.h>
#include <stdint.h>

#include "g16.h"

#if G16_CURVE_BN254
#define G16_FP_LIMBS 4
#define G16_FP_BYTES 32
#else
#define G16_FP_LIMBS 6
#define G16_FP_BYTES 48
#endif

typedef struct g16_fp { uint64_t l[G16_FP_LIMBS]; } g16_fp;

extern const uint64_t g16_fp_modulus[G16_FP_LIMBS];
extern const g16_fp g16_fp_one_mont; /* 1 in Montgomery form */

void g16_fp_set_zero(g16_fp *r);
void g16_fp_set_one(g16_fp *r);
void g16_fp_from_u64(g16_fp *r, uint64_t v);
void g16_fp_add(g16_fp *r, const g16_fp *a, const g16_fp *b);
void g16_fp_sub(g16_fp *r, const g16_fp *a, const g16_fp *b);
void g16_fp_dbl(g16_fp *r, const g16_fp *a);
void g16_fp_neg(g16_fp *r, const g16_fp *a);
void g16_fp_mul(g16_fp *r, const g16_fp *a, const g16_fp *b);
void g16_fp_sqr(g16_fp *r, const g16_fp *a);
/* r = a^e, e given as little-endian 64-bit limbs (any length, variable time in e). */
void g16_fp_pow(g16_fp *r, const g16_fp *a, const uint64_t *e, size_t e_limbs);
/* r = 1/a; 0 maps to 0.  Fermat (a^(p−2)): the same work for every a. */
void g16_fp_inv(g16_fp *r, const g16_fp *a);
/* r = 1/a; 0 maps to 0.  Binary extended GCD (fp_inv_vartime.c), about 4× faster
 * than g16_fp_inv, in VARIABLE time: only for public data or where the caller's
 * control flow already depends on the value (MSM and setup batch inversions). */
void g16_fp_inv_vartime(g16_fp *r, const g16_fp *a);
int g16_fp_eq(const g16_fp *a, const g16_fp *b);
int g16_fp_is_zero(const g16_fp *a);
int g16_fp_is_one(const g16_fp *a);
/* Canonical integer form (not Montgomery), little-endian limbs. */
void g16_fp_to_canonical(uint64_t out[G16_FP_LIMBS], const g16_fp *a);
/* Returns G16_ERR_NONCANONICAL (r untouched) when in >= p. */
g16_status g16_fp_from_canonical(g16_fp *r, const uint64_t in[G16_FP_LIMBS]);
/* 48 big-endian bytes of the canonical value. */
void g16_fp_to_be(uint8_t out[G16_FP_BYTES], const g16_fp *a);
g16_status g16_fp_from_be(g16_fp *r, const uint8_t in[G16_FP_BYTES]);
/* 1 when the canonical value is > (p-1)/2: the ZCash "lexicographically largest" sign. */
int g16_fp_is_lex_largest(const g16_fp *a);
/* Returns 1 and r = one square root of a when a is a square, else 0 (r untouched).
 * Which root is returned is unspecified; callers pick the sign they need. */
int g16_fp_sqrt(g16_fp *r, const g16_fp *a);
/* 1 when a is a square (0 counts as a square). */
int g16_fp_is_square(const g16_fp *a);

#endif
