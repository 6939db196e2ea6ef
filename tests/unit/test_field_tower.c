/* Fp6 and Fp12: the Karatsuba/Chung–Hasan/sparse products against schoolbook
 * polynomial products written here from the tower's definition, field laws,
 * inverses, the Frobenius maps against a^(p^k) by exponentiation, cyclotomic
 * squaring against plain squaring inside the cyclotomic subgroup, and the byte form. */
#include <string.h>

#include "check.h"
#include "rand_field.h"
#include "field/fp12.h"

static g16_rng rng;

static void rand_fp6(g16_fp6 *r)
{
    g16_test_rand_fp2(&rng, &r->c0);
    g16_test_rand_fp2(&rng, &r->c1);
    g16_test_rand_fp2(&rng, &r->c2);
}

static void rand_fp12(g16_fp12 *r)
{
    rand_fp6(&r->c0);
    rand_fp6(&r->c1);
}

/* ξ written out from its definition (1 + u; 9 + u for BN254), not through mul_by_xi */
static void xi(g16_fp2 *r)
{
#if G16_CURVE_BN254
    g16_fp_from_u64(&r->c0, 9);
#else
    g16_fp_set_one(&r->c0);
#endif
    g16_fp_set_one(&r->c1);
}

/* Schoolbook Fp6 product: Σ a_i b_j v^(i+j), then v³ = ξ. */
static void ref_fp6_mul(g16_fp6 *r, const g16_fp6 *a, const g16_fp6 *b)
{
    const g16_fp2 *x[3] = {&a->c0, &a->c1, &a->c2}, *y[3] = {&b->c0, &b->c1, &b->c2};
    g16_fp2 acc[5], t, k;
    for (int i = 0; i < 5; i++) g16_fp2_set_zero(&acc[i]);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            g16_fp2_mul(&t, x[i], y[j]);
            g16_fp2_add(&acc[i + j], &acc[i + j], &t);
        }
    xi(&k);
    for (int i = 3; i < 5; i++) {
        g16_fp2_mul(&t, &acc[i], &k);
        g16_fp2_add(&acc[i - 3], &acc[i - 3], &t);
    }
    r->c0 = acc[0];
    r->c1 = acc[1];
    r->c2 = acc[2];
}

/* Fp12 over Fp2 in the basis w⁰..w⁵ (w⁶ = ξ): the index of each coefficient. */
static g16_fp2 *wcoef(g16_fp12 *a, int j)
{
    g16_fp2 *tab[6] = {&a->c0.c0, &a->c1.c0, &a->c0.c1, &a->c1.c1, &a->c0.c2, &a->c1.c2};
    return tab[j];
}

static void ref_fp12_mul(g16_fp12 *r, const g16_fp12 *a, const g16_fp12 *b)
{
    g16_fp12 aa = *a, bb = *b, out;
    g16_fp2 acc[11], t, k;
    for (int i = 0; i < 11; i++) g16_fp2_set_zero(&acc[i]);
    for (int i = 0; i < 6; i++)
        for (int j = 0; j < 6; j++) {
            g16_fp2_mul(&t, wcoef(&aa, i), wcoef(&bb, j));
            g16_fp2_add(&acc[i + j], &acc[i + j], &t);
        }
    xi(&k);
    for (int i = 6; i < 11; i++) {
        g16_fp2_mul(&t, &acc[i], &k);
        g16_fp2_add(&acc[i - 6], &acc[i - 6], &t);
    }
    for (int j = 0; j < 6; j++) *wcoef(&out, j) = acc[j];
    *r = out;
}

static void test_fp6(void)
{
    for (int it = 0; it < 300; it++) {
        g16_fp6 a, b, c, t, u, one;
        g16_fp2 b0, b1;
        rand_fp6(&a);
        rand_fp6(&b);
        rand_fp6(&c);
        g16_fp6_mul(&t, &a, &b);
        ref_fp6_mul(&u, &a, &b);
        CHECK(g16_fp6_eq(&t, &u), "fp6 mul vs schoolbook, it %d", it);
        g16_fp6_sqr(&t, &a);
        ref_fp6_mul(&u, &a, &a);
        CHECK(g16_fp6_eq(&t, &u), "fp6 sqr vs schoolbook, it %d", it);
        /* sparse forms against the full product with the zero slots filled in */
        b0 = b.c0;
        b1 = b.c1;
        u = b;
        g16_fp2_set_zero(&u.c2);
        g16_fp6_mul_by_01(&t, &a, &b0, &b1);
        ref_fp6_mul(&u, &a, &u);
        CHECK(g16_fp6_eq(&t, &u), "fp6 mul_by_01, it %d", it);
        g16_fp6_set_zero(&u);
        u.c1 = b1;
        g16_fp6_mul_by_1(&t, &a, &b1);
        ref_fp6_mul(&u, &a, &u);
        CHECK(g16_fp6_eq(&t, &u), "fp6 mul_by_1, it %d", it);
        g16_fp6_set_zero(&u);
        g16_fp2_set_one(&u.c1);
        g16_fp6_mul_by_v(&t, &a);
        ref_fp6_mul(&u, &a, &u);
        CHECK(g16_fp6_eq(&t, &u), "fp6 mul_by_v, it %d", it);
        g16_fp6_set_zero(&u);
        u.c0 = b0;
        g16_fp6_mul_fp2(&t, &a, &b0);
        ref_fp6_mul(&u, &a, &u);
        CHECK(g16_fp6_eq(&t, &u), "fp6 mul_fp2, it %d", it);
        /* (a + b)c = ac + bc, (a − b) + b = a, a + (−a) = 0 */
        g16_fp6_add(&t, &a, &b);
        g16_fp6_mul(&t, &t, &c);
        g16_fp6_mul(&u, &a, &c);
        g16_fp6_mul(&one, &b, &c);
        g16_fp6_add(&u, &u, &one);
        CHECK(g16_fp6_eq(&t, &u), "fp6 distributivity, it %d", it);
        g16_fp6_sub(&t, &a, &b);
        g16_fp6_add(&t, &t, &b);
        CHECK(g16_fp6_eq(&t, &a), "fp6 sub/add, it %d", it);
        g16_fp6_neg(&t, &a);
        g16_fp6_add(&t, &t, &a);
        CHECK(g16_fp6_is_zero(&t), "fp6 neg, it %d", it);
        g16_fp6_dbl(&t, &a);
        g16_fp6_add(&u, &a, &a);
        CHECK(g16_fp6_eq(&t, &u), "fp6 dbl, it %d", it);
        /* a·a⁻¹ = 1; in-place (aliased) call */
        t = a;
        g16_fp6_inv(&t, &t);
        g16_fp6_mul(&t, &t, &a);
        CHECK(g16_fp6_is_one(&t), "fp6 inverse, it %d", it);
    }
    /* v³ = ξ */
    g16_fp6 v, t;
    g16_fp6_set_zero(&v);
    g16_fp2_set_one(&v.c1);
    g16_fp6_mul(&t, &v, &v);
    g16_fp6_mul(&t, &t, &v);
    g16_fp2 k;
    xi(&k);
    CHECK(g16_fp2_eq(&t.c0, &k) && g16_fp2_is_zero(&t.c1) && g16_fp2_is_zero(&t.c2), "v^3 = xi");
    g16_fp6_set_zero(&t);
    g16_fp6_inv(&t, &t);
    CHECK(g16_fp6_is_zero(&t), "fp6 inverse of 0 is 0");
}

static void test_fp12_arith(void)
{
    for (int it = 0; it < 200; it++) {
        g16_fp12 a, b, c, t, u, s;
        rand_fp12(&a);
        rand_fp12(&b);
        rand_fp12(&c);
        g16_fp12_mul(&t, &a, &b);
        ref_fp12_mul(&u, &a, &b);
        CHECK(g16_fp12_eq(&t, &u), "fp12 mul vs schoolbook, it %d", it);
        g16_fp12_sqr(&t, &a);
        ref_fp12_mul(&u, &a, &a);
        CHECK(g16_fp12_eq(&t, &u), "fp12 sqr vs schoolbook, it %d", it);
        /* sparse line product: coefficients 0, 1, 4 only */
        g16_fp12_set_zero(&s);
        g16_test_rand_fp2(&rng, &s.c0.c0);
        g16_test_rand_fp2(&rng, &s.c0.c1);
        g16_test_rand_fp2(&rng, &s.c1.c1);
        t = a;
        g16_fp12_mul_by_014(&t, &s.c0.c0, &s.c0.c1, &s.c1.c1);
        ref_fp12_mul(&u, &a, &s);
        CHECK(g16_fp12_eq(&t, &u), "fp12 mul_by_014, it %d", it);
        g16_fp12_set_zero(&s);
        g16_fp2_set_one(&s.c1.c0);
        g16_fp12_mul_by_w(&t, &a);
        ref_fp12_mul(&u, &a, &s);
        CHECK(g16_fp12_eq(&t, &u), "fp12 mul_by_w, it %d", it);
        /* associativity and distributivity */
        g16_fp12_mul(&t, &a, &b);
        g16_fp12_mul(&t, &t, &c);
        g16_fp12_mul(&u, &b, &c);
        g16_fp12_mul(&u, &a, &u);
        CHECK(g16_fp12_eq(&t, &u), "fp12 associativity, it %d", it);
        g16_fp12_add(&t, &a, &b);
        g16_fp12_mul(&t, &t, &c);
        g16_fp12_mul(&u, &a, &c);
        g16_fp12_mul(&s, &b, &c);
        g16_fp12_add(&u, &u, &s);
        CHECK(g16_fp12_eq(&t, &u), "fp12 distributivity, it %d", it);
        g16_fp12_sub(&t, &a, &b);
        g16_fp12_add(&t, &t, &b);
        CHECK(g16_fp12_eq(&t, &a), "fp12 sub/add, it %d", it);
        g16_fp12_neg(&t, &a);
        g16_fp12_add(&t, &t, &a);
        CHECK(g16_fp12_is_zero(&t), "fp12 neg, it %d", it);
        g16_fp12_inv(&t, &a);
        g16_fp12_mul(&t, &t, &a);
        CHECK(g16_fp12_is_one(&t), "fp12 inverse, it %d", it);
        /* conj is the p⁶-power map: a field automorphism */
        g16_fp12_mul(&t, &a, &b);
        g16_fp12_conj(&t, &t);
        g16_fp12_conj(&u, &a);
        g16_fp12_conj(&s, &b);
        g16_fp12_mul(&u, &u, &s);
        CHECK(g16_fp12_eq(&t, &u), "fp12 conj multiplicative, it %d", it);
    }
    /* w⁶ = ξ, and w² = v */
    g16_fp12 w, t;
    g16_fp12_set_zero(&w);
    g16_fp2_set_one(&w.c1.c0);
    g16_fp12_mul(&t, &w, &w);
    CHECK(g16_fp2_is_one(&t.c0.c1) && g16_fp2_is_zero(&t.c0.c0) && g16_fp6_is_zero(&t.c1), "w^2 = v");
    g16_fp12_sqr(&t, &t);
    g16_fp12_mul(&t, &t, &w);
    g16_fp12_mul(&t, &t, &w);
    g16_fp2 k;
    xi(&k);
    CHECK(g16_fp2_eq(&t.c0.c0, &k) && g16_fp2_is_zero(&t.c0.c1) && g16_fp2_is_zero(&t.c0.c2) &&
              g16_fp6_is_zero(&t.c1),
          "w^6 = xi");
}

/* r = a·b for little-endian limb arrays (r has na + nb limbs, no aliasing). */
static void big_mul(uint64_t *r, const uint64_t *a, size_t na, const uint64_t *b, size_t nb)
{
    memset(r, 0, (na + nb) * sizeof *r);
    for (size_t i = 0; i < na; i++) {
        unsigned __int128 carry = 0;
        for (size_t j = 0; j < nb; j++) {
            carry += (unsigned __int128)a[i] * b[j] + r[i + j];
            r[i + j] = (uint64_t)carry;
            carry >>= 64;
        }
        r[i + nb] = (uint64_t)carry;
    }
}

static void test_frobenius(void)
{
    enum { N = G16_FP_LIMBS };
    uint64_t p2[2 * N], p3[3 * N];
    big_mul(p2, g16_fp_modulus, N, g16_fp_modulus, N);
    big_mul(p3, p2, 2 * N, g16_fp_modulus, N);
    const uint64_t *pk[4] = {NULL, g16_fp_modulus, p2, p3};
    size_t nk[4] = {0, N, 2 * N, 3 * N};
    for (int it = 0; it < 4; it++) {
        g16_fp12 a, t, u;
        rand_fp12(&a);
        for (unsigned k = 1; k <= 3; k++) {
            g16_fp12_frob(&t, &a, k);
            g16_fp12_pow(&u, &a, pk[k], nk[k]);
            CHECK(g16_fp12_eq(&t, &u), "frob^%u = pow p^%u, it %d", k, k, it);
        }
        /* p⁶ = conj; p¹² = identity */
        g16_fp12_frob(&t, &a, 6);
        g16_fp12_conj(&u, &a);
        CHECK(g16_fp12_eq(&t, &u), "frob^6 = conj, it %d", it);
        g16_fp12_frob(&t, &a, 12);
        CHECK(g16_fp12_eq(&t, &a), "frob^12 = id, it %d", it);
        t = a;
        g16_fp12_frob(&t, &t, 1); /* aliased */
        g16_fp12_frob(&u, &a, 1);
        CHECK(g16_fp12_eq(&t, &u), "frob aliasing, it %d", it);
    }
}

static void test_cyclotomic(void)
{
    for (int it = 0; it < 50; it++) {
        g16_fp12 a, m, t, u;
        rand_fp12(&a);
        /* m = a^((p⁶ − 1)(p² + 1)) lies in the cyclotomic subgroup */
        g16_fp12_inv(&t, &a);
        g16_fp12_conj(&m, &a);
        g16_fp12_mul(&m, &m, &t);
        g16_fp12_frob(&t, &m, 2);
        g16_fp12_mul(&m, &t, &m);
        /* there conj = inverse */
        g16_fp12_conj(&t, &m);
        g16_fp12_mul(&t, &t, &m);
        CHECK(g16_fp12_is_one(&t), "cyclotomic: m·conj(m) = 1, it %d", it);
        for (int r = 0; r < 3; r++) {
            g16_fp12_cyclotomic_sqr(&t, &m);
            g16_fp12_sqr(&u, &m);
            CHECK(g16_fp12_eq(&t, &u), "cyclotomic sqr, it %d round %d", it, r);
            m = u;
        }
        g16_fp12_cyclotomic_sqr(&m, &m); /* aliased */
        g16_fp12_mul(&t, &u, &u);
        CHECK(g16_fp12_eq(&t, &m), "cyclotomic sqr aliased, it %d", it);
    }
    /* and it is not plain squaring outside the subgroup (the test can tell) */
    g16_fp12 a, t, u;
    rand_fp12(&a);
    g16_fp12_cyclotomic_sqr(&t, &a);
    g16_fp12_sqr(&u, &a);
    CHECK(!g16_fp12_eq(&t, &u), "cyclotomic sqr differs off the subgroup");
}

static void test_bytes(void)
{
    g16_fp12 a, b;
    uint8_t buf[G16_FP12_BYTES];
    g16_fp *c = &a.c0.c0.c0;
    for (int i = 0; i < 12; i++) g16_fp_from_u64(&c[i], 0x100u + (unsigned)i);
    g16_fp12_to_bytes(buf, &a);
    /* coefficient order c0.c0.c0, c0.c0.c1, c0.c1.c0, …: check a few named ones */
    enum { B = G16_FP_BYTES };
    CHECK(buf[B - 2] == 1 && buf[B - 1] == 0x00, "first coefficient is c0.c0.c0");
    CHECK(buf[B * 1 + B - 1] == 0x01, "second is c0.c0.c1");
    g16_fp e;
    g16_fp_from_u64(&e, 0x100 + 9);
    CHECK(g16_fp_eq(&a.c1.c1.c1, &e) && buf[B * 9 + B - 1] == 0x09, "tenth is c1.c1.c1");
    CHECK(g16_fp12_from_bytes(&b, buf) == G16_OK && g16_fp12_eq(&a, &b), "byte round trip");
    for (int it = 0; it < 20; it++) {
        rand_fp12(&a);
        g16_fp12_to_bytes(buf, &a);
        CHECK(g16_fp12_from_bytes(&b, buf) == G16_OK && g16_fp12_eq(&a, &b), "random round trip");
    }
    memset(buf + B * 7, 0xff, B);
    CHECK(g16_fp12_from_bytes(&b, buf) == G16_ERR_NONCANONICAL, "non-canonical coefficient rejected");
}

int main(void)
{
    g16_rng_seed(&rng, g16_test_seed(0x70E12));
    test_fp6();
    test_fp12_arith();
    test_frobenius();
    test_cyclotomic();
    test_bytes();
    return g16_test_finish("test_field_tower");
}
