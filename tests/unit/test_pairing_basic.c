/* Pairing properties: bilinearity against exponentiation in GT, non-degeneracy,
 * order r, infinity inputs, multi-pairing (with and without prepared G2 points,
 * across the chunk size of the unprepared loop) against the product of single
 * pairings, and the product-is-one check. */
#include <string.h>

#include "check.h"
#include "curve/curve.h"
#include "field/fr.h"
#include "pairing/pairing.h"

static g16_rng rng;

static void rand_scalar(g16_fr *k)
{
    uint64_t c[G16_FR_LIMBS];
    do {
        for (int i = 0; i < G16_FR_LIMBS; i++) c[i] = g16_rng_u64(&rng);
        c[3] &= 0x7fffffffffffffffULL;
    } while (g16_fr_from_canonical(k, c) != G16_OK);
}

static void g1_mul_gen(g16_g1_affine *r, const g16_fr *k)
{
    g16_g1_jac g, t;
    g16_g1_jac_generator(&g);
    g16_g1_mul_fr(&t, &g, k);
    g16_g1_jac_to_affine(r, &t);
}

static void g2_mul_gen(g16_g2_affine *r, const g16_fr *k)
{
    g16_g2_jac g, t;
    g16_g2_jac_generator(&g);
    g16_g2_mul_fr(&t, &g, k);
    g16_g2_jac_to_affine(r, &t);
}

static void gt_pow(g16_fp12 *r, const g16_fp12 *a, const g16_fr *k)
{
    uint64_t c[4];
    g16_fr_to_canonical(c, k);
    g16_fp12_pow(r, a, c, 4);
}

static void test_generators(g16_fp12 *e_gen)
{
    g16_g1_affine P;
    g16_g2_affine Q;
    g16_fp12 e, t;
    g16_g1_affine_generator(&P);
    g16_g2_affine_generator(&Q);
    CHECK(g16_g1_affine_on_curve(&P) && g16_g2_affine_on_curve(&Q), "generators on their curves");
    g16_pairing(&e, &P, &Q);
    CHECK(!g16_fp12_is_one(&e), "e(G1, G2) != 1");
    g16_fp12_pow(&t, &e, g16_fr_modulus, G16_FR_LIMBS);
    CHECK(g16_fp12_is_one(&t), "e(G1, G2)^r = 1");
    /* the value lies in the cyclotomic subgroup: conj = inverse */
    g16_fp12_conj(&t, &e);
    g16_fp12_mul(&t, &t, &e);
    CHECK(g16_fp12_is_one(&t), "e(G1, G2) unitary");
    *e_gen = e;

    /* the final exponentiation against the plain power 3(p¹²−1)/r of the same
     * Miller value (exponent built here from p and r by long arithmetic); for BN254
     * the multiplier is 2x(6x² + 3x + 1) instead of 3 (docs/pairing.md) */
    enum { N = G16_FP_LIMBS };
    g16_fp12 f, fe, pw;
    g16_miller_loop(&f, &P, &Q, 1);
    g16_final_exp(&fe, &f);
    CHECK(g16_fp12_eq(&fe, &e), "pairing = final_exp(miller_loop)");
    uint64_t p12[73] = {1}, tmp[73];
    size_t n = 1;
    for (int i = 0; i < 12; i++) { /* p12 = p^12 */
        memset(tmp, 0, sizeof tmp);
        for (size_t a = 0; a < n; a++) {
            unsigned __int128 carry = 0;
            for (size_t b = 0; b < N; b++) {
                carry += (unsigned __int128)p12[a] * g16_fp_modulus[b] + tmp[a + b];
                tmp[a + b] = (uint64_t)carry;
                carry >>= 64;
            }
            tmp[a + N] = (uint64_t)carry;
        }
        n += N;
        memcpy(p12, tmp, sizeof p12);
    }
    p12[0] -= 1; /* p¹² − 1 (p¹² is odd) */
    /* divide by r with bitwise long division, then multiply by 3 */
    uint64_t q[73] = {0};
    uint64_t rem[5] = {0};
    const uint64_t *rm = g16_fr_modulus;
    for (int bit = 64 * (int)n - 1; bit >= 0; bit--) {
        /* rem = 2·rem + bit */
        uint64_t in = (p12[bit / 64] >> (bit % 64)) & 1;
        for (int k = 4; k > 0; k--) rem[k] = (rem[k] << 1) | (rem[k - 1] >> 63);
        rem[0] = (rem[0] << 1) | in;
        /* if rem >= r: rem -= r, set quotient bit */
        int ge = rem[4] != 0;
        if (!ge) {
            ge = 1;
            for (int k = 3; k >= 0; k--) {
                if (rem[k] != rm[k]) {
                    ge = rem[k] > rm[k];
                    break;
                }
            }
        }
        if (ge) {
            unsigned __int128 br = 0;
            for (int k = 0; k < 5; k++) {
                unsigned __int128 v = (unsigned __int128)rem[k] - (k < 4 ? rm[k] : 0) - br;
                rem[k] = (uint64_t)v;
                br = (v >> 64) & 1;
            }
            q[bit / 64] |= 1ULL << (bit % 64);
        }
    }
    CHECK((rem[0] | rem[1] | rem[2] | rem[3] | rem[4]) == 0, "r divides p^12 - 1");
#if G16_CURVE_BN254
    const uint64_t x = 4965661367192848881ULL;
    /* 6x² + 3x + 1 < 2^128, then the products by 2 and x, one word at a time */
    unsigned __int128 m6 = (unsigned __int128)x * x * 6 + (unsigned __int128)x * 3 + 1;
    uint64_t mults[3] = {(uint64_t)m6, (uint64_t)(m6 >> 64), 0}, factors[2] = {2, x};
#else
    uint64_t mults[1] = {3}, factors[1] = {1};
#endif
    size_t nm = sizeof mults / sizeof mults[0];
    for (size_t fi = 0; fi < sizeof factors / sizeof factors[0]; fi++) {
        unsigned __int128 c = 0;
        for (size_t k = 0; k < nm; k++) {
            c += (unsigned __int128)mults[k] * factors[fi];
            mults[k] = (uint64_t)c;
            c >>= 64;
        }
    }
    uint64_t qm[73 + 3] = {0};
    for (size_t a = 0; a < n; a++) {
        unsigned __int128 carry = 0;
        for (size_t b = 0; b < nm; b++) {
            carry += (unsigned __int128)q[a] * mults[b] + qm[a + b];
            qm[a + b] = (uint64_t)carry;
            carry >>= 64;
        }
        qm[a + nm] += (uint64_t)carry;
    }
    g16_fp12_pow(&pw, &f, qm, n + nm);
    CHECK(g16_fp12_eq(&pw, &fe), "final_exp = f^(k(p^12-1)/r) by plain pow (k = 3, BN254 2x(6x^2+3x+1))");
}

static void test_bilinearity(const g16_fp12 *e_gen)
{
    for (int it = 0; it < 4; it++) {
        g16_fr a, b, ab;
        g16_g1_affine aP, abP, P;
        g16_g2_affine bQ, abQ, Q;
        g16_fp12 e1, e2, e3, e4;
        rand_scalar(&a);
        rand_scalar(&b);
        g16_fr_mul(&ab, &a, &b);
        g1_mul_gen(&aP, &a);
        g2_mul_gen(&bQ, &b);
        g1_mul_gen(&abP, &ab);
        g2_mul_gen(&abQ, &ab);
        g16_g1_affine_generator(&P);
        g16_g2_affine_generator(&Q);
        g16_pairing(&e1, &aP, &bQ);
        gt_pow(&e2, e_gen, &ab);
        g16_pairing(&e3, &abP, &Q);
        g16_pairing(&e4, &P, &abQ);
        CHECK(g16_fp12_eq(&e1, &e2), "e(aP, bQ) = e(P, Q)^(ab), it %d", it);
        CHECK(g16_fp12_eq(&e1, &e3), "e(aP, bQ) = e(abP, Q), it %d", it);
        CHECK(g16_fp12_eq(&e1, &e4), "e(aP, bQ) = e(P, abQ), it %d", it);
        CHECK(!g16_fp12_is_one(&e1), "e(aP, bQ) != 1, it %d", it);
        /* linearity in each argument: e(aP + P, Q) = e(aP, Q)·e(P, Q) */
        g16_fr one, a1;
        g16_fr_set_one(&one);
        g16_fr_add(&a1, &a, &one);
        g16_g1_affine a1P;
        g1_mul_gen(&a1P, &a1);
        g16_pairing(&e1, &a1P, &Q);
        g16_pairing(&e2, &aP, &Q);
        g16_fp12_mul(&e2, &e2, e_gen);
        CHECK(g16_fp12_eq(&e1, &e2), "e((a+1)P, Q) = e(aP, Q)·e(P, Q), it %d", it);
    }
}

static void test_infinity(const g16_fp12 *e_gen)
{
    g16_g1_affine P, O1;
    g16_g2_affine Q, O2;
    g16_fp12 e;
    g16_g1_affine_generator(&P);
    g16_g2_affine_generator(&Q);
    g16_g1_affine_set_infinity(&O1);
    g16_g2_affine_set_infinity(&O2);
    g16_pairing(&e, &O1, &Q);
    CHECK(g16_fp12_is_one(&e), "e(O, Q) = 1");
    g16_pairing(&e, &P, &O2);
    CHECK(g16_fp12_is_one(&e), "e(P, O) = 1");
    g16_pairing(&e, &O1, &O2);
    CHECK(g16_fp12_is_one(&e), "e(O, O) = 1");
    g16_pairing_multi(&e, NULL, NULL, 0);
    CHECK(g16_fp12_is_one(&e), "empty product = 1");
    /* infinity among other pairs is skipped, not poisoning the product */
    g16_g1_affine ps[3] = {O1, P, P};
    g16_g2_affine qs[3] = {Q, Q, O2};
    g16_pairing_multi(&e, ps, qs, 3);
    CHECK(g16_fp12_eq(&e, e_gen), "multi with infinities = e(P, Q)");
    g16_g2_prepared prep;
    const g16_g2_prepared *pp[1] = {&prep};
    g16_g2_prepare(&prep, &O2);
    CHECK(prep.infinity == 1, "prepared infinity flagged");
    g16_fp12 f;
    g16_miller_loop_mixed(&f, NULL, NULL, 0, &P, pp, 1);
    CHECK(g16_fp12_is_one(&f), "prepared infinity contributes 1");
}

#define NMULTI 11 /* > the 8 pairs one unprepared pass takes */

static void test_multi(void)
{
    g16_g1_affine p[NMULTI];
    g16_g2_affine q[NMULTI];
    g16_fp12 prod, e, multi;
    g16_fp12_set_one(&prod);
    for (int i = 0; i < NMULTI; i++) {
        g16_fr a, b;
        rand_scalar(&a);
        rand_scalar(&b);
        g1_mul_gen(&p[i], &a);
        g2_mul_gen(&q[i], &b);
        if (i == 5) g16_g1_affine_set_infinity(&p[i]);
        if (i == 9) g16_g2_affine_set_infinity(&q[i]);
        g16_pairing(&e, &p[i], &q[i]);
        g16_fp12_mul(&prod, &prod, &e);
    }
    g16_pairing_multi(&multi, p, q, NMULTI);
    CHECK(g16_fp12_eq(&multi, &prod), "multi-pairing = product of pairings (n = %d)", NMULTI);

    /* the same pairs split between prepared and unprepared */
    static g16_g2_prepared prep[NMULTI];
    const g16_g2_prepared *pp[NMULTI];
    for (int i = 0; i < NMULTI; i++) {
        g16_g2_prepare(&prep[i], &q[i]);
        pp[i] = &prep[i];
    }
    g16_fp12 f;
    for (int split = 0; split <= NMULTI; split += 3) {
        g16_miller_loop_mixed(&f, p, q, (size_t)split, p + split, pp + split, (size_t)(NMULTI - split));
        g16_final_exp(&f, &f);
        CHECK(g16_fp12_eq(&f, &prod), "mixed prepared/unprepared, split %d", split);
    }
    g16_fp12 f1, f2;
    g16_miller_loop(&f1, p, q, 1);
    g16_miller_loop_mixed(&f2, NULL, NULL, 0, p, pp, 1);
    CHECK(g16_fp12_eq(&f1, &f2), "prepared Miller loop = unprepared, bit for bit");
}

static void test_check(void)
{
    g16_g1_affine P, nP, ps[4];
    g16_g2_affine Q, qs[4];
    g16_fr a;
    g16_g1_affine_generator(&P);
    g16_g2_affine_generator(&Q);
    g16_g1_affine_neg(&nP, &P);
    ps[0] = P;
    ps[1] = nP;
    qs[0] = Q;
    qs[1] = Q;
    CHECK(g16_pairing_check(ps, qs, 2) == 1, "e(P, Q)·e(-P, Q) = 1");
    ps[1] = P;
    CHECK(g16_pairing_check(ps, qs, 2) == 0, "e(P, Q)·e(P, Q) != 1");
    /* e(aP, Q)·e(-P, aQ) = 1, also through a prepared point */
    rand_scalar(&a);
    g1_mul_gen(&ps[0], &a);
    g2_mul_gen(&qs[1], &a);
    ps[1] = nP;
    qs[0] = Q;
    CHECK(g16_pairing_check(ps, qs, 2) == 1, "e(aP, Q)·e(-P, aQ) = 1");
    static g16_g2_prepared prep;
    const g16_g2_prepared *pp[1] = {&prep};
    g16_g2_prepare(&prep, &qs[1]);
    CHECK(g16_pairing_check_mixed(ps, qs, 1, &nP, pp, 1) == 1, "check with a prepared point");
    CHECK(g16_pairing_check_mixed(ps, qs, 1, &P, pp, 1) == 0, "check with a prepared point fails");
}

int main(void)
{
    g16_fp12 e_gen;
    g16_rng_seed(&rng, g16_test_seed(0xBA1125));
    test_generators(&e_gen);
    test_bilinearity(&e_gen);
    test_infinity(&e_gen);
    test_multi();
    test_check();
    return g16_test_finish("test_pairing_basic");
}
