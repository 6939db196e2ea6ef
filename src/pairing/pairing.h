/* The optimal ate pairing on BLS12-381: e: G1 × G2 → GT ⊂ Fp12*.
 * Compiled with G16_CURVE_BN254 (docs/pairing.md, docs/curve.md): BN254's optimal ate
 * pairing, Miller loop over 6x + 2 plus two Frobenius lines, final exponentiation to
 * 2x(6x² + 3x + 1)·(p¹²−1)/r (the Fuentes-Castañeda et al. hard part, as @noble/curves). *
 *
 * e(P, Q) = f_{x,Q}(P)^(3(p¹²−1)/r) with x = −0xd201000000010000.  The exponent
 * carries an extra factor 3 (Hayashida–Hayasaka–Teruya's hard part); the final
 * exponentiation of @noble/curves computes exactly the same power (checked
 * symbolically, see docs/pairing.md), so results are comparable byte for byte.
 * Bilinear and non-degenerate like the textbook pairing (gcd(3, r) = 1).
 *
 * Inputs are affine points (curve/point.h); (0, 0) is the point at infinity and
 * contributes the factor 1.  Contract: every other point must be on its curve and
 * in its prime-order subgroup — checking that is the decoder's job (curve layer);
 * on other points the result is meaningless but memory-safe.  Not constant time:
 * verification works on public data.  No allocation, thread-safe. */
#ifndef G16_PAIRING_PAIRING_H
#define G16_PAIRING_PAIRING_H

#include <stddef.h>
#include <stdint.h>

#include "curve/point.h"
#include "field/fp12.h"

#if G16_CURVE_BN254
/* BN254: 65 doublings + 21 additions over the NAF of 6x + 2, + 2 Frobenius lines. */
#define G16_PAIRING_LINES 88
#else
/* Line functions per Miller loop: 63 doublings + 5 additions (popcount(|x|) − 1). */
#define G16_PAIRING_LINES 68
#endif

/* A G2 point with its Miller-loop line coefficients precomputed (about 20 KB):
 * worth it for points used in many pairings, such as a verifying key's β, γ, δ. */
typedef struct g16_g2_prepared {
    g16_fp2 ell[G16_PAIRING_LINES][3];
    int infinity; /* 1 when prepared from the point at infinity */
} g16_g2_prepared;

/* out = line coefficients of q (q = (0, 0) gives an "infinity" entry). */
void g16_g2_prepare(g16_g2_prepared *out, const g16_g2_affine *q);

/* f = Π f_{x,q_i}(p_i) over the n pairs (p_i, q_i) and the np pairs (pp_i, qp_i)
 * with qp_i prepared: the product of the Miller loops, before the final
 * exponentiation.  Pairs with a point at infinity are skipped; n = np = 0 gives 1.
 * Any of the arrays may be NULL when its count is 0. */
void g16_miller_loop_mixed(g16_fp12 *f, const g16_g1_affine *p, const g16_g2_affine *q, size_t n,
                           const g16_g1_affine *pp, const g16_g2_prepared *const *qp, size_t np);
void g16_miller_loop(g16_fp12 *f, const g16_g1_affine *p, const g16_g2_affine *q, size_t n);

/* r = f^(3(p¹²−1)/r).  f must be non-zero (every Miller loop value is). */
void g16_final_exp(g16_fp12 *r, const g16_fp12 *f);

/* r = e(p, q). */
void g16_pairing(g16_fp12 *r, const g16_g1_affine *p, const g16_g2_affine *q);
/* r = Π e(p_i, q_i): n Miller loops sharing their squarings, one final exponentiation. */
void g16_pairing_multi(g16_fp12 *r, const g16_g1_affine *p, const g16_g2_affine *q, size_t n);

/* Returns 1 when Π e(p_i, q_i) · Π e(pp_i, qp_i) = 1, else 0. */
int g16_pairing_check_mixed(const g16_g1_affine *p, const g16_g2_affine *q, size_t n,
                            const g16_g1_affine *pp, const g16_g2_prepared *const *qp, size_t np);
int g16_pairing_check(const g16_g1_affine *p, const g16_g2_affine *q, size_t n);

#endif
