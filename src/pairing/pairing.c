/* Miller loop and final exponentiation; see pairing.h and docs/pairing.md. */
#include "pairing/pairing.h"

#include <string.h>

#if G16_CURVE_BN254
#include "bn254/consts.h"
/* BN254 (docs/pairing.md): the loop runs over the NAF of 6x + 2, digits in {−1, 0, 1} */
static const int8_t ate_naf[G16_BN254_ATE_NAF_LEN] = G16_BN254_ATE_NAF;
#define LOOP_TOP (G16_BN254_ATE_NAF_LEN - 1)
#define LOOP_DIGIT(i) ((int)ate_naf[i])
/* 3b' for b' = 3/(9 + u) */
static const g16_fp2 twist_b3 = G16_BN254_G2_B3;
/* π(x, y) = (conj(x)·cx, conj(y)·cy) on the twist; π²(x, y) = (x·c2, −y) */
static const g16_fp2 frob_cx = G16_BN254_PSI_CX;
static const g16_fp2 frob_cy = G16_BN254_PSI_CY;
static const g16_fp frob2_cx = G16_BN254_PSI2_CX;
#define X_POS G16_BN254_X
#define X_POS_TOP 62
#else
/* |x| for x = −0xd201000000010000, the BLS12-381 seed */
#define X_ABS 0xd201000000010000ULL
#define X_TOP 63
#define LOOP_TOP X_TOP
#define LOOP_DIGIT(i) ((int)((X_ABS >> (i)) & 1))
#endif

/* Unprepared pairs advanced side by side in one pass (their T points live on
 * the stack); more pairs take further passes. */
#define CHUNK 8

/* Homogeneous projective point on the twist E': y² = x³ + 4ξ, (X/Z, Y/Z). */
typedef struct proj { g16_fp2 x, y, z; } proj;

/* r = 3a by additions */
static void fp2_triple(g16_fp2 *r, const g16_fp2 *a)
{
    g16_fp2 t;
    g16_fp2_dbl(&t, a);
    g16_fp2_add(r, &t, a);
}

/* T ← 2T and the tangent line at T.  Costello–Lange–Naehrig, "Faster pairing
 * computations on curves with high-degree twists" (PKC 2010), doubling in
 * homogeneous coordinates for a = 0, with b' = 4ξ and every output coordinate
 * scaled by 4 so that no halving is needed:
 *   X3 = 2XY(Y² − 9b'Z²),  Y3 = (Y² + 9b'Z²)² − 108b'²Z⁴,  Z3 = 8Y³Z.
 * The tangent at ψ(T), evaluated at P and multiplied by w³ (an element of a proper
 * subfield, removed by the final exponentiation), is
 *   (3b'Z² − Y²) + 3X²·xP·w² − 2YZ·yP·w³,
 * i.e. coefficients 0, 1, 4 of Fp12; ell holds (3b'Z² − Y², 3X², 2YZ), to be
 * multiplied by 1, xP and −yP. */
static void dbl_step(g16_fp2 ell[3], proj *T)
{
    g16_fp2 a, b, c, e, f, h, t;
    g16_fp2_mul(&a, &T->x, &T->y);
    g16_fp2_sqr(&b, &T->y);
    g16_fp2_sqr(&c, &T->z);
#if G16_CURVE_BN254
    /* e = 3b'Z² (b' = 3/(9 + u), no cheap multiple of ξ) */
    g16_fp2_mul(&e, &c, &twist_b3);
#else
    /* e = 3b'Z² = 12ξZ² */
    g16_fp2_mul_by_xi(&e, &c);
    g16_fp2_dbl(&e, &e);
    g16_fp2_dbl(&e, &e);
    fp2_triple(&e, &e);
#endif
    fp2_triple(&f, &e);
    /* h = 2YZ = (Y + Z)² − Y² − Z² */
    g16_fp2_add(&h, &T->y, &T->z);
    g16_fp2_sqr(&h, &h);
    g16_fp2_sub(&h, &h, &b);
    g16_fp2_sub(&h, &h, &c);

    g16_fp2_sub(&ell[0], &e, &b);
    g16_fp2_sqr(&t, &T->x);
    fp2_triple(&ell[1], &t);
    ell[2] = h;

    /* X3 = 2a(b − f) */
    g16_fp2_sub(&t, &b, &f);
    g16_fp2_mul(&T->x, &a, &t);
    g16_fp2_dbl(&T->x, &T->x);
    /* Y3 = (b + f)² − 12e² */
    g16_fp2_add(&t, &b, &f);
    g16_fp2_sqr(&t, &t);
    g16_fp2_sqr(&e, &e);
    g16_fp2_dbl(&e, &e);
    g16_fp2_dbl(&e, &e);
    fp2_triple(&e, &e);
    g16_fp2_sub(&T->y, &t, &e);
    /* Z3 = 4bh */
    g16_fp2_mul(&T->z, &b, &h);
    g16_fp2_dbl(&T->z, &T->z);
    g16_fp2_dbl(&T->z, &T->z);
}

/* T ← T + Q and the line through T and Q (same paper, mixed addition):
 *   θ = Y − yQ·Z, λ = X − xQ·Z, C = θ², D = λ², E = λ³, F = Z·C, G = X·D,
 *   H = E + F − 2G, X3 = λH, Y3 = θ(G − H) − Y·E, Z3 = Z·E.
 * The line, scaled by −λ and w³, is (λ·yQ − θ·xQ) + θ·xP·w² − λ·yP·w³: ell holds
 * (λyQ − θxQ, θ, λ), to be multiplied by 1, xP and −yP like the tangent's. */
static void add_step(g16_fp2 ell[3], proj *T, const g16_g2_affine *Q)
{
    g16_fp2 th, la, c, d, e, f, g, h, t;
    g16_fp2_mul(&t, &Q->y, &T->z);
    g16_fp2_sub(&th, &T->y, &t);
    g16_fp2_mul(&t, &Q->x, &T->z);
    g16_fp2_sub(&la, &T->x, &t);
    g16_fp2_sqr(&c, &th);
    g16_fp2_sqr(&d, &la);
    g16_fp2_mul(&e, &la, &d);
    g16_fp2_mul(&f, &T->z, &c);
    g16_fp2_mul(&g, &T->x, &d);
    g16_fp2_add(&h, &e, &f);
    g16_fp2_sub(&h, &h, &g);
    g16_fp2_sub(&h, &h, &g);

    g16_fp2_mul(&t, &la, &Q->y);
    g16_fp2_mul(&ell[0], &th, &Q->x);
    g16_fp2_sub(&ell[0], &t, &ell[0]);
    ell[1] = th;
    ell[2] = la;

    g16_fp2_mul(&T->x, &la, &h);
    g16_fp2_sub(&t, &g, &h);
    g16_fp2_mul(&t, &th, &t);
    g16_fp2_mul(&g, &T->y, &e);
    g16_fp2_sub(&T->y, &t, &g);
    g16_fp2_mul(&T->z, &T->z, &e);
}

/* f ← f · line(P), with xp = xP and nyp = −yP.  BN254's D-type twist untwists by
 * (x, y) ↦ (x·w², y·w³), so the same three coefficients land at w³, w and 1 (the
 * line divided by w³, a subfield factor the final exponentiation removes): positions
 * 4, 3, 0 instead of 0, 1, 4 (docs/pairing.md). */
static void ell_apply(g16_fp12 *f, const g16_fp2 ell[3], const g16_fp *xp, const g16_fp *nyp)
{
    g16_fp2 c1, c4;
    g16_fp2_mul_fp(&c1, &ell[1], xp);
    g16_fp2_mul_fp(&c4, &ell[2], nyp);
#if G16_CURVE_BN254
    g16_fp12_mul_by_034(f, &c4, &c1, &ell[0]);
#else
    g16_fp12_mul_by_014(f, &ell[0], &c1, &c4);
#endif
}

#if G16_CURVE_BN254
/* q1 = π(q), q2 = −π²(q): the two points of the lines after the loop */
static void frob_points(g16_g2_affine *q1, g16_g2_affine *q2, const g16_g2_affine *q)
{
    g16_fp2 t;
    g16_fp2_conj(&t, &q->x);
    g16_fp2_mul(&q1->x, &t, &frob_cx);
    g16_fp2_conj(&t, &q->y);
    g16_fp2_mul(&q1->y, &t, &frob_cy);
    g16_fp2_mul_fp(&q2->x, &q->x, &frob2_cx);
    q2->y = q->y;
}
#endif

static int g1_is_inf(const g16_g1_affine *p) { return g16_fp_is_zero(&p->x) & g16_fp_is_zero(&p->y); }

static int g2_is_inf(const g16_g2_affine *q) { return g16_fp2_is_zero(&q->x) & g16_fp2_is_zero(&q->y); }

static void proj_from_affine(proj *t, const g16_g2_affine *q)
{
    t->x = q->x;
    t->y = q->y;
    g16_fp2_set_one(&t->z);
}

void g16_g2_prepare(g16_g2_prepared *out, const g16_g2_affine *q)
{
    memset(out, 0, sizeof *out);
    if (g2_is_inf(q)) {
        out->infinity = 1;
        return;
    }
    proj T;
    proj_from_affine(&T, q);
    int k = 0;
#if G16_CURVE_BN254
    g16_g2_affine nq = *q; /* for the NAF's −1 digits */
    g16_fp2_neg(&nq.y, &q->y);
    for (int i = LOOP_TOP - 1; i >= 0; i--) {
        dbl_step(out->ell[k++], &T);
        if (LOOP_DIGIT(i)) add_step(out->ell[k++], &T, LOOP_DIGIT(i) > 0 ? q : &nq);
    }
    g16_g2_affine q1, q2;
    frob_points(&q1, &q2, q);
    add_step(out->ell[k++], &T, &q1);
    add_step(out->ell[k++], &T, &q2);
#else
    for (int i = LOOP_TOP - 1; i >= 0; i--) {
        dbl_step(out->ell[k++], &T);
        if (LOOP_DIGIT(i)) add_step(out->ell[k++], &T, q);
    }
#endif
}

/* Prepared pair j of a pass takes part unless a point is at infinity. */
static int prepared_live(const g16_g1_affine *pp, const g16_g2_prepared *const *qp, size_t j)
{
    return !qp[j]->infinity && !g1_is_inf(&pp[j]);
}

/* One pass: n (≤ CHUNK) unprepared pairs, none at infinity, and np prepared pairs
 * (those at infinity skipped here: they need no per-pair state, so any number fits). */
static void miller_pass(g16_fp12 *f, const g16_g1_affine *const *p, const g16_g2_affine *const *q,
                        size_t n, const g16_g1_affine *pp, const g16_g2_prepared *const *qp,
                        size_t np)
{
    proj T[CHUNK];
    g16_fp ny[CHUNK], nyp;
    g16_fp2 ell[3];
#if G16_CURVE_BN254
    g16_g2_affine nq[CHUNK]; /* −Q, for the NAF's −1 digits */
#define ADD_POINT(j) (digit > 0 ? q[j] : &nq[j])
#else
#define ADD_POINT(j) q[j]
#endif
    for (size_t j = 0; j < n; j++) {
        proj_from_affine(&T[j], q[j]);
        g16_fp_neg(&ny[j], &p[j]->y);
#if G16_CURVE_BN254
        nq[j] = *q[j];
        g16_fp2_neg(&nq[j].y, &q[j]->y);
#endif
    }
    g16_fp12_set_one(f);
    int k = 0;
    for (int i = LOOP_TOP - 1; i >= 0; i--) {
        if (i != LOOP_TOP - 1) g16_fp12_sqr(f, f); /* f is still 1 on the first step */
        /* the doubling step, then (for a non-zero digit) the addition step with ±Q:
         * each line evaluated at every pair's P, the prepared pairs' from their table */
#if G16_CURVE_BN254
        int digit = LOOP_DIGIT(i);
        for (int add = 0; add <= (digit != 0); add++) {
#else
        for (int add = 0; add <= (int)((X_ABS >> i) & 1); add++) {
#endif
            for (size_t j = 0; j < n; j++) {
                if (add)
                    add_step(ell, &T[j], ADD_POINT(j));
                else
                    dbl_step(ell, &T[j]);
                ell_apply(f, ell, &p[j]->x, &ny[j]);
            }
            for (size_t j = 0; j < np; j++) {
                if (!prepared_live(pp, qp, j)) continue;
                g16_fp_neg(&nyp, &pp[j].y);
                ell_apply(f, qp[j]->ell[k], &pp[j].x, &nyp);
            }
            k++;
        }
    }
#if G16_CURVE_BN254
    /* f·l_{T,π(Q)}·l_{T+π(Q),−π²(Q)}: the two extra lines of the optimal ate pairing */
    for (int extra = 0; extra < 2; extra++) {
        for (size_t j = 0; j < n; j++) {
            g16_g2_affine q1, q2;
            frob_points(&q1, &q2, q[j]);
            add_step(ell, &T[j], extra ? &q2 : &q1);
            ell_apply(f, ell, &p[j]->x, &ny[j]);
        }
        for (size_t j = 0; j < np; j++) {
            if (!prepared_live(pp, qp, j)) continue;
            g16_fp_neg(&nyp, &pp[j].y);
            ell_apply(f, qp[j]->ell[k], &pp[j].x, &nyp);
        }
        k++;
    }
#else
    /* x < 0: f_{x,Q} = 1/f_{|x|,Q} up to factors the final exponentiation removes,
     * and after it the inverse is the conjugate */
    g16_fp12_conj(f, f);
#endif
#undef ADD_POINT
}

void g16_miller_loop_mixed(g16_fp12 *f, const g16_g1_affine *p, const g16_g2_affine *q, size_t n,
                           const g16_g1_affine *pp, const g16_g2_prepared *const *qp, size_t np)
{
    const g16_g1_affine *cp[CHUNK];
    const g16_g2_affine *cq[CHUNK];
    size_t i = 0, live_np = 0;
    int first = 1;
    for (size_t j = 0; j < np; j++) live_np += (size_t)prepared_live(pp, qp, j);
    g16_fp12_set_one(f);
    for (;;) {
        size_t m = 0;
        while (i < n && m < CHUNK) {
            if (!g1_is_inf(&p[i]) && !g2_is_inf(&q[i])) {
                cp[m] = &p[i];
                cq[m] = &q[i];
                m++;
            }
            i++;
        }
        /* the prepared pairs ride along with the first pass */
        size_t mp = first ? np : 0;
        if (m == 0 && (mp == 0 || live_np == 0)) break;
        g16_fp12 g;
        miller_pass(first ? f : &g, cp, cq, m, pp, qp, mp);
        if (!first) g16_fp12_mul(f, f, &g);
        first = 0;
    }
}

void g16_miller_loop(g16_fp12 *f, const g16_g1_affine *p, const g16_g2_affine *q, size_t n)
{
    g16_miller_loop_mixed(f, p, q, n, NULL, NULL, 0);
}

#if G16_CURVE_BN254
/* r = a^(−x) for a in the cyclotomic subgroup: a^x by square-and-multiply, then the
 * conjugate (the inverse there). */
static void cyclo_exp_minus_x(g16_fp12 *r, const g16_fp12 *a)
{
    g16_fp12 acc = *a;
    for (int i = X_POS_TOP - 1; i >= 0; i--) {
        g16_fp12_cyclotomic_sqr(&acc, &acc);
        if ((X_POS >> i) & 1) g16_fp12_mul(&acc, &acc, a);
    }
    g16_fp12_conj(r, &acc);
}

void g16_final_exp(g16_fp12 *r, const g16_fp12 *f)
{
    g16_fp12 m, t0, y1, y2, y4, y6, y8, y9;
    /* easy part: m = f^((p⁶ − 1)(p² + 1)) */
    g16_fp12_inv(&t0, f);
    g16_fp12_conj(&m, f);
    g16_fp12_mul(&m, &m, &t0);
    g16_fp12_frob(&t0, &m, 2);
    g16_fp12_mul(&m, &t0, &m);

    /* hard part, Fuentes-Castañeda, Knapp, Rodríguez-Henríquez ("Faster hashing to
     * G2", SAC 2011): m^(λ0 + λ1·p + λ2·p² + λ3·p³) with
     *   λ0 = 12x³ + 12x² + 6x + 1, λ1 = 12x³ + 6x² + 4x,
     *   λ2 = 12x³ + 6x² + 6x,      λ3 = 12x³ + 6x² + 4x − 1,
     * which is 2x(6x² + 3x + 1)·(p⁴ − p² + 1)/r: the power @noble/curves computes. */
    cyclo_exp_minus_x(&y1, &m);
    g16_fp12_cyclotomic_sqr(&y1, &y1);        /* m^(−2x) */
    g16_fp12_cyclotomic_sqr(&y2, &y1);
    g16_fp12_mul(&y2, &y2, &y1);              /* m^(−6x) */
    cyclo_exp_minus_x(&y4, &y2);              /* m^(6x²) */
    g16_fp12_cyclotomic_sqr(&y6, &y4);
    cyclo_exp_minus_x(&y6, &y6);              /* m^(−12x³) */
    g16_fp12_conj(&y6, &y6);
    g16_fp12_conj(&t0, &y2);
    g16_fp12_mul(&y8, &y6, &y4);
    g16_fp12_mul(&y8, &y8, &t0);              /* m^(12x³ + 6x² + 6x) = m^λ2 */
    g16_fp12_mul(&y9, &y8, &y1);              /* m^(12x³ + 6x² + 4x) = m^λ1 */
    g16_fp12_mul(&t0, &y8, &y4);
    g16_fp12_mul(&t0, &t0, &m);               /* m^λ0 */
    g16_fp12_frob(&y6, &y9, 1);
    g16_fp12_mul(&t0, &t0, &y6);              /* · m^(λ1·p) */
    g16_fp12_frob(&y6, &y8, 2);
    g16_fp12_mul(&t0, &t0, &y6);              /* · m^(λ2·p²) */
    g16_fp12_conj(&y6, &m);
    g16_fp12_mul(&y6, &y6, &y9);              /* m^λ3 */
    g16_fp12_frob(&y6, &y6, 3);
    g16_fp12_mul(r, &t0, &y6);
}
#else
/* r = a^z for a in the cyclotomic subgroup, z = x < 0: a^|x| then the conjugate
 * (the inverse there). */
static void cyclo_exp_x(g16_fp12 *r, const g16_fp12 *a)
{
    g16_fp12 acc = *a;
    for (int i = X_TOP - 1; i >= 0; i--) {
        g16_fp12_cyclotomic_sqr(&acc, &acc);
        if ((X_ABS >> i) & 1) g16_fp12_mul(&acc, &acc, a);
    }
    g16_fp12_conj(r, &acc);
}

void g16_final_exp(g16_fp12 *r, const g16_fp12 *f)
{
    g16_fp12 m, t0, t1, t2, t3;
    /* easy part: m = f^((p⁶ − 1)(p² + 1)); afterwards m is in the cyclotomic
     * subgroup, where conj = inverse and cyclotomic squaring applies */
    g16_fp12_inv(&t0, f);
    g16_fp12_conj(&m, f);
    g16_fp12_mul(&m, &m, &t0);
    g16_fp12_frob(&t0, &m, 2);
    g16_fp12_mul(&m, &t0, &m);

    /* hard part, Hayashida–Hayasaka–Teruya (eprint 2020/875):
     * 3(p⁴ − p² + 1)/r = (x − 1)²·(x + p)·(x² + p² − 1) + 3 */
    cyclo_exp_x(&t0, &m); /* m^(x−1) */
    g16_fp12_conj(&t1, &m);
    g16_fp12_mul(&t0, &t0, &t1);
    cyclo_exp_x(&t1, &t0); /* m^((x−1)²) */
    g16_fp12_conj(&t0, &t0);
    g16_fp12_mul(&t0, &t1, &t0);
    cyclo_exp_x(&t1, &t0); /* ·(x + p) */
    g16_fp12_frob(&t2, &t0, 1);
    g16_fp12_mul(&t0, &t1, &t2);
    cyclo_exp_x(&t1, &t0); /* ·(x² + p² − 1) */
    cyclo_exp_x(&t1, &t1);
    g16_fp12_frob(&t2, &t0, 2);
    g16_fp12_mul(&t1, &t1, &t2);
    g16_fp12_conj(&t2, &t0);
    g16_fp12_mul(&t1, &t1, &t2);
    g16_fp12_cyclotomic_sqr(&t3, &m); /* · m³ */
    g16_fp12_mul(&t3, &t3, &m);
    g16_fp12_mul(r, &t1, &t3);
}
#endif

void g16_pairing(g16_fp12 *r, const g16_g1_affine *p, const g16_g2_affine *q)
{
    g16_pairing_multi(r, p, q, 1);
}

void g16_pairing_multi(g16_fp12 *r, const g16_g1_affine *p, const g16_g2_affine *q, size_t n)
{
    g16_fp12 f;
    g16_miller_loop(&f, p, q, n);
    g16_final_exp(r, &f);
}

int g16_pairing_check_mixed(const g16_g1_affine *p, const g16_g2_affine *q, size_t n,
                            const g16_g1_affine *pp, const g16_g2_prepared *const *qp, size_t np)
{
    g16_fp12 f;
    g16_miller_loop_mixed(&f, p, q, n, pp, qp, np);
    g16_final_exp(&f, &f);
    return g16_fp12_is_one(&f);
}

int g16_pairing_check(const g16_g1_affine *p, const g16_g2_affine *q, size_t n)
{
    return g16_pairing_check_mixed(p, q, n, NULL, NULL, 0);
}
