/* Fp, Fr and Fp2 arithmetic: algebraic identities on random and edge values,
 * byte round trips and rejection of non-canonical encodings, and agreement of
 * the portable C core with the x86-64 assembly path. */
#include <string.h>

#include "check.h"
#include "rand_field.h"
#include "field/cpu.h"
#include "field/fp.h"
#include "field/fp2.h"
#include "field/fr.h"

static g16_rng rng;

static void fp_minus_one(g16_fp *r)
{
    g16_fp_set_one(r);
    g16_fp_neg(r, r);
}

static void test_fp_identities(void)
{
    g16_fp edge[5];
    g16_fp_set_zero(&edge[0]);
    g16_fp_set_one(&edge[1]);
    fp_minus_one(&edge[2]);
    g16_fp_from_u64(&edge[3], 2);
    /* R mod p as a canonical value: the Montgomery form of 1 read as an integer */
    CHECK(g16_fp_from_canonical(&edge[4], g16_fp_one_mont.l) == G16_OK, "R mod p canonical");
    for (int it = 0; it < 2000; it++) {
        g16_fp a, b, c, t, u, v;
        if (it < 25) {
            a = edge[it % 5];
            b = edge[it / 5];
        } else {
            g16_test_rand_fp(&rng, &a);
            g16_test_rand_fp(&rng, &b);
        }
        g16_test_rand_fp(&rng, &c);
        /* (a+b)·c = a·c + b·c */
        g16_fp_add(&t, &a, &b);
        g16_fp_mul(&t, &t, &c);
        g16_fp_mul(&u, &a, &c);
        g16_fp_mul(&v, &b, &c);
        g16_fp_add(&u, &u, &v);
        CHECK(g16_fp_eq(&t, &u), "distributivity, iteration %d", it);
        /* (a-b)+b = a, a + (-a) = 0 */
        g16_fp_sub(&t, &a, &b);
        g16_fp_add(&t, &t, &b);
        CHECK(g16_fp_eq(&t, &a), "sub/add, iteration %d", it);
        g16_fp_neg(&t, &a);
        g16_fp_add(&t, &t, &a);
        CHECK(g16_fp_is_zero(&t), "neg, iteration %d", it);
        /* a² = a·a */
        g16_fp_sqr(&t, &a);
        g16_fp_mul(&u, &a, &a);
        CHECK(g16_fp_eq(&t, &u), "sqr, iteration %d", it);
        /* a·a⁻¹ = 1 for a ≠ 0 */
        if (!g16_fp_is_zero(&a) && it % 10 == 0) {
            g16_fp_inv(&t, &a);
            g16_fp_mul(&t, &t, &a);
            CHECK(g16_fp_is_one(&t), "inverse, iteration %d", it);
        }
        /* sqrt of a square; a root of -1·square does not exist (p ≡ 3 mod 4) */
        if (it % 20 == 0) {
            g16_fp_sqr(&t, &a);
            CHECK(g16_fp_sqrt(&u, &t), "square has a root, iteration %d", it);
            g16_fp_sqr(&v, &u);
            CHECK(g16_fp_eq(&v, &t), "root squares back, iteration %d", it);
            if (!g16_fp_is_zero(&a)) {
                g16_fp_neg(&t, &t);
                CHECK(!g16_fp_sqrt(&u, &t), "-a² is not a square, iteration %d", it);
                CHECK(!g16_fp_is_square(&t), "is_square(-a²) = 0, iteration %d", it);
            }
        }
        /* bytes round trip */
        uint8_t be[48];
        g16_fp_to_be(be, &a);
        CHECK(g16_fp_from_be(&t, be) == G16_OK && g16_fp_eq(&t, &a), "bytes, iteration %d", it);
    }
    g16_fp z, t;
    g16_fp_set_zero(&z);
    g16_fp_inv(&t, &z);
    CHECK(g16_fp_is_zero(&t), "inv(0) = 0");
    /* (p-1)² = 1 */
    fp_minus_one(&t);
    g16_fp_sqr(&t, &t);
    CHECK(g16_fp_is_one(&t), "(p-1)^2 = 1");
    /* p itself and p+1 are rejected; p-1 accepted */
    uint8_t be[48];
    uint64_t m[6];
    memcpy(m, g16_fp_modulus, sizeof m);
    for (int i = 0; i < 6; i++) {
        uint64_t w = m[5 - i];
        for (int k = 0; k < 8; k++) be[8 * i + k] = (uint8_t)(w >> (56 - 8 * k));
    }
    CHECK(g16_fp_from_be(&t, be) == G16_ERR_NONCANONICAL, "p rejected");
    be[47]++;
    CHECK(g16_fp_from_be(&t, be) == G16_ERR_NONCANONICAL, "p+1 rejected");
    be[47] -= 2;
    CHECK(g16_fp_from_be(&t, be) == G16_OK, "p-1 accepted");
    fp_minus_one(&z);
    CHECK(g16_fp_eq(&t, &z), "p-1 decodes to -1");
    memset(be, 0xff, sizeof be);
    CHECK(g16_fp_from_be(&t, be) == G16_ERR_NONCANONICAL, "2^384-1 rejected");
    /* sign: 1 is small, -1 is large */
    g16_fp_set_one(&t);
    CHECK(!g16_fp_is_lex_largest(&t), "1 is not lex largest");
    CHECK(g16_fp_is_lex_largest(&z), "-1 is lex largest");
}

static void test_fr_identities(void)
{
    for (int it = 0; it < 2000; it++) {
        g16_fr a, b, c, t, u, v;
        g16_test_rand_fr(&rng, &a);
        g16_test_rand_fr(&rng, &b);
        g16_test_rand_fr(&rng, &c);
        g16_fr_add(&t, &a, &b);
        g16_fr_mul(&t, &t, &c);
        g16_fr_mul(&u, &a, &c);
        g16_fr_mul(&v, &b, &c);
        g16_fr_add(&u, &u, &v);
        CHECK(g16_fr_eq(&t, &u), "fr distributivity %d", it);
        g16_fr_sqr(&t, &a);
        g16_fr_mul(&u, &a, &a);
        CHECK(g16_fr_eq(&t, &u), "fr sqr %d", it);
        if (it % 10 == 0) {
            g16_fr_inv(&t, &a);
            g16_fr_mul(&t, &t, &a);
            CHECK(g16_fr_is_one(&t), "fr inverse %d", it);
        }
        uint8_t be[32], le[32];
        g16_fr_to_be(be, &a);
        g16_fr_to_le(le, &a);
        for (int i = 0; i < 32; i++) CHECK(be[i] == le[31 - i], "be/le mirror %d", it);
        CHECK(g16_fr_from_be(&t, be) == G16_OK && g16_fr_eq(&t, &a), "fr be round trip %d", it);
        CHECK(g16_fr_from_le(&t, le) == G16_OK && g16_fr_eq(&t, &a), "fr le round trip %d", it);
        /* reduction of a 64-byte value (hi·2^256 + lo) */
        uint8_t wide[64];
        g16_fr_to_be(wide, &b);
        memcpy(wide + 32, be, 32);
        g16_fr_from_be_reduce(&t, wide, 64);
        g16_fr two256, k;
        g16_fr_from_u64(&k, 2);
        uint64_t e256[1] = {256};
        g16_fr_pow(&two256, &k, e256, 1);
        g16_fr_mul(&u, &b, &two256);
        g16_fr_add(&u, &u, &a);
        CHECK(g16_fr_eq(&t, &u), "wide reduce %d", it);
    }
    /* r-1 squared is 1; r is rejected */
    g16_fr m1, t;
    g16_fr_set_one(&m1);
    g16_fr_neg(&m1, &m1);
    g16_fr_sqr(&t, &m1);
    CHECK(g16_fr_is_one(&t), "(r-1)^2 = 1");
    CHECK(g16_fr_from_canonical(&t, g16_fr_modulus) == G16_ERR_NONCANONICAL, "r rejected");
    /* the 2^32-th roots: 7 generates Fr*, so 7^((r-1)/2) = -1 */
    uint64_t e[4];
    memcpy(e, g16_fr_modulus, sizeof e);
    e[0] -= 1;
    for (int i = 0; i < 4; i++) e[i] = (e[i] >> 1) | (i < 3 ? e[i + 1] << 63 : 0);
    g16_fr seven;
    g16_fr_from_u64(&seven, 7);
    g16_fr_pow(&t, &seven, e, 4);
    CHECK(g16_fr_eq(&t, &m1), "7 is a non-residue mod r");
}

static void test_fp2(void)
{
    for (int it = 0; it < 300; it++) {
        g16_fp2 a, b, t, u, v;
        g16_test_rand_fp(&rng, &a.c0); g16_test_rand_fp(&rng, &a.c1); g16_test_rand_fp(&rng, &b.c0); g16_test_rand_fp(&rng, &b.c1);
        if (it == 0) g16_fp_set_zero(&a.c1);
        if (it == 1) g16_fp_set_zero(&a.c0);
        g16_fp2_sqr(&t, &a);
        g16_fp2_mul(&u, &a, &a);
        CHECK(g16_fp2_eq(&t, &u), "fp2 sqr %d", it);
        g16_fp2_mul(&t, &a, &b);
        g16_fp2_mul(&u, &b, &a);
        CHECK(g16_fp2_eq(&t, &u), "fp2 commutes %d", it);
        g16_fp2_inv(&v, &b);
        g16_fp2_mul(&u, &t, &v);
        CHECK(g16_fp2_eq(&u, &a), "fp2 inverse %d", it);
        /* u² = -1 */
        g16_fp2 i2 = {0};
        g16_fp_set_one(&i2.c1);
        g16_fp2_sqr(&i2, &i2);
        { g16_fp m; g16_fp_set_one(&m); g16_fp_neg(&m, &m); CHECK(g16_fp_eq(&i2.c0, &m) && g16_fp_is_zero(&i2.c1), "u^2 = -1"); }
        /* ξ multiplication */
        g16_fp2 xi, w;
        g16_fp_set_one(&xi.c0); g16_fp_set_one(&xi.c1);
        g16_fp2_mul(&w, &a, &xi);
        g16_fp2_mul_by_xi(&u, &a);
        CHECK(g16_fp2_eq(&u, &w), "mul by xi %d", it);
        /* sqrt */
        g16_fp2_sqr(&t, &a);
        CHECK(g16_fp2_sqrt(&u, &t), "fp2 square has root %d", it);
        g16_fp2_sqr(&v, &u);
        CHECK(g16_fp2_eq(&v, &t), "fp2 root squares back %d", it);
        /* ξ is a non-square in Fp2 (it builds Fp6), so ξ·a² has no root */
        if (!g16_fp2_is_zero(&a)) {
            g16_fp2_mul_by_xi(&t, &t);
            CHECK(!g16_fp2_sqrt(&u, &t), "xi·a^2 not a square %d", it);
        }
    }
}

static void test_paths_agree(void)
{
    if (!g16_cpu_can_mulx()) {
        printf("assembly path not available in this build/CPU: comparing portable with itself\n");
    }
    for (int it = 0; it < 20000; it++) {
        g16_fp a, b, x, y, sx, sy;
        g16_fr c, d, fx, fy;
        g16_test_rand_fp(&rng, &a); g16_test_rand_fp(&rng, &b); g16_test_rand_fr(&rng, &c); g16_test_rand_fr(&rng, &d);
        if (it < 4) { fp_minus_one(&a); if (it & 1) fp_minus_one(&b); }
        g16_field_force_portable(1);
        g16_fp_mul(&x, &a, &b); g16_fp_sqr(&sx, &a); g16_fr_mul(&fx, &c, &d);
        g16_field_force_portable(0);
        g16_fp_mul(&y, &a, &b); g16_fp_sqr(&sy, &a); g16_fr_mul(&fy, &c, &d);
        CHECK(g16_fp_eq(&x, &y), "fp mul paths differ %d", it);
        CHECK(g16_fp_eq(&sx, &sy), "fp sqr paths differ %d", it);
        CHECK(g16_fr_eq(&fx, &fy), "fr mul paths differ %d", it);
        g16_fr_sqr(&fy, &c);
        g16_field_force_portable(1);
        g16_fr_sqr(&fx, &c);
        g16_field_force_portable(0);
        CHECK(g16_fr_eq(&fx, &fy), "fr sqr paths differ %d", it);
    }
}

int main(void)
{
    g16_rng_seed(&rng, g16_test_seed(1));
    printf("arithmetic path: %s\n", g16_arith_path());
    test_fp_identities();
    test_fr_identities();
    test_fp2();
    test_paths_agree();
    return g16_test_finish("test_field_basic");
}
