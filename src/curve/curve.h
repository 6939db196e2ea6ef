/* G1 (over Fp) and G2 (over Fp2) of BLS12-381: one interface, one body of code.
 * Compiled with G16_CURVE_BN254 (docs/curve.md) the same interface is BN254's
 * (y² = x³ + 3, twist y² = x³ + 3/(9 + u), cofactors 1 and 2p − r; its encodings
 * are described in curve_impl.h and docs/curve.md).
 *
 *   E : y² = x³ + 4            over Fp   (G1, cofactor h1 = (x−1)²/3)
 *   E': y² = x³ + 4(1 + u)     over Fp2  (G2, M-type twist)
 *   r = x⁴ − x² + 1, x = −0xd201000000010000 (the BLS parameter).
 *
 * Both groups get the same set of functions, declared below by
 * G16_CURVE_DECLARE and defined by the single template curve_impl.h, which
 * g1.c and g2.c instantiate for (g16_fp, g16_fp_*) and (g16_fp2, g16_fp2_*).
 * Representations are in point.h: affine (0,0) = infinity, Jacobian Z = 0,
 * XYZZ ZZ = 0.  Formulas: docs/curve.md.
 *
 * Conventions for every function below (G is g1 or g2):
 *  - outputs first; an output may alias any input unless stated otherwise;
 *  - inputs are points on the curve (not necessarily in the subgroup) unless the
 *    function checks exactly that; every special case (infinity, P = Q, P = −Q)
 *    is handled, so results are correct for any on-curve inputs;
 *  - nothing allocates; variable time (no secret data is handled here: the
 *    prover's scalars are blinded by the protocol and MSMs are variable time).
 *
 * Contracts (G = g1 / g2):
 *  G_affine_set_infinity / G_jac_set_infinity / G_xyzz_set_infinity: r = O.
 *  G_affine_is_infinity / G_jac_is_infinity / G_xyzz_is_infinity: 1 iff p = O.
 *  G_affine_generator, G_jac_generator: the standard BLS12-381 generator.
 *  G_affine_eq, G_jac_eq, G_jac_eq_affine, G_xyzz_eq: 1 iff equal as group
 *      elements (independent of the projective scaling; O equals only O).
 *  G_affine_neg, G_jac_neg, G_xyzz_neg: r = −p.
 *  G_jac_add: r = p + q (add-2007-bl), any inputs.  About 11M + 5S.
 *  G_jac_dbl: r = 2p (dbl-2009-l, a = 0), 2M + 5S.
 *  G_jac_add_affine: r = p + q, q affine (madd-2007-bl), 7M + 4S.
 *  G_xyzz_add: r = p + q (add-2008-s), 12M + 2S.
 *  G_xyzz_add_affine: r = p + q (madd-2008-s), 8M + 2S; q may equal ±p.
 *  G_xyzz_sub_affine: r = p − q, same cost (saves the caller a negation:
 *      Pippenger buckets with signed digits use it).
 *  G_xyzz_dbl: r = 2p (dbl-2008-s-1), 6M + 3S.
 *  G_jac_from_affine, G_xyzz_from_affine, G_jac_to_xyzz, G_xyzz_to_jac: conversions
 *      without inversion.  G_jac_to_affine, G_xyzz_to_affine: one inversion each.
 *  G_jac_batch_to_affine(out, in, n), G_xyzz_batch_to_affine(out, in, n): normalise
 *      n points with ONE field inversion (Montgomery's trick, about 3M per point +
 *      the per-form unscaling); points at infinity become (0,0) and do not disturb
 *      the others.  out must not overlap in (out is used as scratch for the running
 *      products).  n = 0 is allowed.
 *  G_affine_on_curve, G_jac_on_curve: 1 iff p satisfies the curve equation or is O.
 *  G_affine_in_subgroup, G_jac_in_subgroup: 1 iff p (on the curve) is in the order-r
 *      subgroup; fast endomorphism test (G1: φ(P) = −x²P, G2: ψ(P) = xP, Scott 2021).
 *  G_mul(r, p, k): r = k·p for a 256-bit k given as 4 little-endian u64 limbs (any
 *      value, k ≥ r included).  p must be in the subgroup (the GLV/GLS split relies
 *      on the endomorphism acting as a scalar there); use G_mul_limbs otherwise.
 *      G1: 2-way split with φ (128 doublings); G2: 4-way split with ψ (64).
 *  G_mul_fr(r, p, k): G_mul with k an Fr element (Montgomery form), for callers
 *      that hold scalars as field elements (setup, prover, verifier).
 *  G_mul_limbs(r, p, k, n): r = k·p for any point on the curve and any k of n
 *      little-endian limbs, n ≤ G16_CURVE_MAX_SCALAR_LIMBS (larger n: the extra
 *      limbs must be zero).  Signed width-5 NAF, no endomorphism.
 *  G_clear_cofactor(r, p): r = h·p with the full cofactor h, so r is in the
 *      subgroup for any p on the curve (slow; for tests and test-point making).
 *  G_encode_compressed(out, p), G_encode_uncompressed(out, p): ZCash/bellperson/blst
 *      bytes (G1 48/96, G2 96/192; G2 coordinates c1 first).  p must be on the curve.
 *  G_decode(out, in, len, flags): parses and validates an encoding whose length picks
 *      the form.  flags 0 = every check incl. subgroup; G16_CURVE_NO_SUBGROUP_CHECK
 *      skips the subgroup test only (the on-curve test is never skipped).  Returns
 *      G16_OK or one reason with a g16_fail message (out untouched on failure):
 *      G16_ERR_LENGTH, _FLAGS, _INFINITY, _NONCANONICAL, _NOT_ON_CURVE,
 *      _NOT_IN_SUBGROUP (checked in that order; see docs/curve.md).
 */
#ifndef G16_CURVE_CURVE_H
#define G16_CURVE_CURVE_H

#include <stddef.h>
#include <stdint.h>

#include "curve/point.h"
#include "field/fr.h"

#define G16_CURVE_MAX_SCALAR_LIMBS 10
#define G16_CURVE_NO_SUBGROUP_CHECK 1u

#define G16_G1_COMPRESSED_BYTES G16_FP_BYTES            /* 48; 32 for BN254 */
#define G16_G1_UNCOMPRESSED_BYTES (2 * G16_FP_BYTES)    /* 96; 64 */
#define G16_G2_COMPRESSED_BYTES (2 * G16_FP_BYTES)      /* 96; 64 */
#define G16_G2_UNCOMPRESSED_BYTES (4 * G16_FP_BYTES)    /* 192; 128 */

#define G16_CURVE_DECLARE(G, AFF, JAC, XYZZ)                                              \
    void g16_##G##_affine_set_infinity(AFF *r);                                           \
    void g16_##G##_jac_set_infinity(JAC *r);                                              \
    void g16_##G##_xyzz_set_infinity(XYZZ *r);                                            \
    int g16_##G##_affine_is_infinity(const AFF *p);                                       \
    int g16_##G##_jac_is_infinity(const JAC *p);                                          \
    int g16_##G##_xyzz_is_infinity(const XYZZ *p);                                        \
    void g16_##G##_affine_generator(AFF *r);                                              \
    void g16_##G##_jac_generator(JAC *r);                                                 \
    int g16_##G##_affine_eq(const AFF *a, const AFF *b);                                  \
    int g16_##G##_jac_eq(const JAC *a, const JAC *b);                                     \
    int g16_##G##_jac_eq_affine(const JAC *a, const AFF *b);                              \
    int g16_##G##_xyzz_eq(const XYZZ *a, const XYZZ *b);                                  \
    void g16_##G##_affine_neg(AFF *r, const AFF *p);                                      \
    void g16_##G##_jac_neg(JAC *r, const JAC *p);                                         \
    void g16_##G##_xyzz_neg(XYZZ *r, const XYZZ *p);                                      \
    void g16_##G##_jac_add(JAC *r, const JAC *p, const JAC *q);                           \
    void g16_##G##_jac_dbl(JAC *r, const JAC *p);                                         \
    void g16_##G##_jac_add_affine(JAC *r, const JAC *p, const AFF *q);                    \
    void g16_##G##_xyzz_add(XYZZ *r, const XYZZ *p, const XYZZ *q);                       \
    void g16_##G##_xyzz_add_affine(XYZZ *r, const XYZZ *p, const AFF *q);                 \
    void g16_##G##_xyzz_sub_affine(XYZZ *r, const XYZZ *p, const AFF *q);                 \
    void g16_##G##_xyzz_dbl(XYZZ *r, const XYZZ *p);                                      \
    void g16_##G##_jac_from_affine(JAC *r, const AFF *p);                                 \
    void g16_##G##_xyzz_from_affine(XYZZ *r, const AFF *p);                               \
    void g16_##G##_jac_to_xyzz(XYZZ *r, const JAC *p);                                    \
    void g16_##G##_xyzz_to_jac(JAC *r, const XYZZ *p);                                    \
    void g16_##G##_jac_to_affine(AFF *r, const JAC *p);                                   \
    void g16_##G##_xyzz_to_affine(AFF *r, const XYZZ *p);                                 \
    void g16_##G##_jac_batch_to_affine(AFF *out, const JAC *in, size_t n);                \
    void g16_##G##_xyzz_batch_to_affine(AFF *out, const XYZZ *in, size_t n);              \
    int g16_##G##_affine_on_curve(const AFF *p);                                          \
    int g16_##G##_jac_on_curve(const JAC *p);                                             \
    int g16_##G##_affine_in_subgroup(const AFF *p);                                       \
    int g16_##G##_jac_in_subgroup(const JAC *p);                                          \
    void g16_##G##_mul(JAC *r, const JAC *p, const uint64_t k[4]);                        \
    void g16_##G##_mul_limbs(JAC *r, const JAC *p, const uint64_t *k, size_t n);          \
    void g16_##G##_mul_fr(JAC *r, const JAC *p, const g16_fr *k);                         \
    void g16_##G##_clear_cofactor(JAC *r, const JAC *p);                                  \
    void g16_##G##_encode_compressed(uint8_t *out, const AFF *p);                         \
    void g16_##G##_encode_uncompressed(uint8_t *out, const AFF *p);                       \
    g16_status g16_##G##_decode(AFF *out, const uint8_t *in, size_t len, unsigned flags);

G16_CURVE_DECLARE(g1, g16_g1_affine, g16_g1_jac, g16_g1_xyzz)
G16_CURVE_DECLARE(g2, g16_g2_affine, g16_g2_jac, g16_g2_xyzz)

/* G1 endomorphism φ(x, y) = (βx, y), β a cube root of unity chosen so that
 * φ(P) = −x²·P on G1.  G2 endomorphism ψ = twist⁻¹ ∘ Frobenius ∘ twist, with
 * ψ(P) = x·P on G2.  Exposed for tests and for the MSM (GLV splitting). */
void g16_g1_jac_phi(g16_g1_jac *r, const g16_g1_jac *p);
void g16_g2_jac_psi(g16_g2_jac *r, const g16_g2_jac *p);

/* The BLS parameter x = −G16_BLS_X_ABS and the group order r (little-endian limbs). */
#define G16_BLS_X_ABS 0xd201000000010000ULL
extern const uint64_t g16_curve_order[4];

#if !G16_CURVE_BN254
/* BLS12-381's four-way split on G2, shared by G_mul and the G2 MSM (msm/msm.h);
 * in g2_split.c, which only the BLS12-381 build compiles.
 * g16_bls_x_digits: k = Σ_{j<4} d[j]·|x|^j with 0 <= d[j] < |x| (base-|x| digits)
 *   for any k < |x|^4, so for every k < r (r = x⁴ − x² + 1); three long divisions
 *   by |x|, nine 128-by-64-bit divisions in all.  Since ψ(P) = x·P on G2 and x < 0,
 *   |x|^j·P = (−ψ)^j(P), so k·P = Σ d[j]·(−ψ)^j(P) with 64-bit pieces.
 * g16_g2_affine_x_powers: r1[i] = |x|·p[i] = −ψ(p[i]), r2[i] = x²·p[i] = ψ²(p[i]),
 *   r3[i] = |x|³·p[i] for i < n: Frobenius and products by constants, about 10 Fp
 *   products a point, batched (field/fp_batch.h).  p in the subgroup; (0,0)
 *   (infinity) maps to (0,0); the four arrays must not overlap. */
void g16_bls_x_digits(uint64_t d[4], const uint64_t k[4]);
void g16_g2_affine_x_powers(g16_g2_affine *r1, g16_g2_affine *r2, g16_g2_affine *r3,
                            const g16_g2_affine *p, size_t n);
#endif

/* A decoded encoding of unknown group (for `g16 ec check HEX`). */
typedef struct g16_curve_point {
    g16_group group;   /* G16_G1 or G16_G2 */
    int compressed;    /* 1 for the compressed form */
    g16_g1_affine g1;  /* valid when group == G16_G1 */
    g16_g2_affine g2;  /* valid when group == G16_G2 */
} g16_curve_point;

/* Decodes an encoding of either group; the length picks group and form: 48 G1
 * compressed, 192 G2 uncompressed, 96 is G2 compressed when the compression bit
 * (0x80 of byte 0) is set and G1 uncompressed when it is clear.  flags as in
 * g16_G_decode.  Returns G16_OK or the rejection reason (see g16_G_decode); on
 * G16_ERR_LENGTH out->group is untouched, otherwise out->group/compressed say
 * which decoder judged the bytes. */
g16_status g16_curve_decode_any(g16_curve_point *out, const uint8_t *in, size_t len,
                                unsigned flags);

#endif
