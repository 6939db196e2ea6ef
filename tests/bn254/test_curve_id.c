/* g16_curve_id names (g16.h), the BN254 field constants of src/bn254/consts.h
 * against their definitions (p and r from the seed x, Montgomery one, inverses,
 * 2-adicity), and BN254's 4-limb inline add/sub (field/x86_64/inline.h) against the
 * exported functions on edge and random values. */
#include <string.h>

#include "check.h"
#include "field/fp.h"
#include "field/fr.h"
#include "field/mont.h"
#include "field/x86_64/inline.h"
#include "g16.h"
#include "rand_field.h"

/* v = v·k + c over n limbs (no overflow for the values used here) */
static void muladd(uint64_t *v, size_t n, uint64_t k, uint64_t c)
{
    g16_u128 carry = c;
    for (size_t i = 0; i < n; i++) {
        carry += (g16_u128)v[i] * k;
        v[i] = (uint64_t)carry;
        carry >>= 64;
    }
}

/* 36x^4 + 36x^3 + k2·x^2 + 6x + 1 by Horner's rule */
static void bn_poly(uint64_t out[4], uint64_t x, uint64_t k2)
{
    memset(out, 0, 4 * sizeof *out);
    out[0] = 36;
    muladd(out, 4, x, 36);
    muladd(out, 4, x, k2);
    muladd(out, 4, x, 6);
    muladd(out, 4, x, 1);
}

int main(void)
{
    g16_curve_id c;
    CHECK(g16_curve_parse("bn254", &c) == G16_OK && c == G16_CURVE_ID_BN254, "%s", "bn254");
    CHECK(g16_curve_parse("bn128", &c) == G16_OK && c == G16_CURVE_ID_BN254, "%s", "bn128");
    CHECK(g16_curve_parse("bls12-381", &c) == G16_OK && c == G16_CURVE_ID_BLS12_381, "%s", "bls");
    CHECK(g16_curve_parse("secp256k1", &c) == G16_ERR_ARG, "%s", "unknown curve accepted");
    CHECK(strstr(g16_last_error(), "secp256k1") != NULL, "%s", "message names the input");
    CHECK(!strcmp(g16_curve_name(G16_CURVE_ID_BN254), "bn254"), "%s", "name");

    const uint64_t x = 4965661367192848881ULL;
    uint64_t p[4], r[4];
    bn_poly(p, x, 24);
    bn_poly(r, x, 18);
    CHECK(g16_limbs_eq(p, g16_fp_modulus, 4), "%s", "p = 36x^4+36x^3+24x^2+6x+1");
    CHECK(g16_limbs_eq(r, g16_fr_modulus, 4), "%s", "r = 36x^4+36x^3+18x^2+6x+1");
    CHECK(G16_FP_LIMBS == 4 && G16_FP_BYTES == 32, "%s", "BN254 Fp is 4 limbs");
    /* one_mont is 2^256 mod m: (2^256 − one_mont) is a multiple of m, checked as
     * one_mont + k·m = 2^256 for the small k = floor(2^256/m) */
    g16_fp one, t;
    g16_fp_set_one(&one);
    uint64_t canon[4];
    g16_fp_to_canonical(canon, &one);
    CHECK(canon[0] == 1 && !canon[1] && !canon[2] && !canon[3], "%s", "1 round-trips");
    g16_fp_from_u64(&t, 3);
    g16_fp_inv(&t, &t);
    g16_fp_from_u64(&one, 3);
    g16_fp_mul(&t, &t, &one);
    CHECK(g16_fp_is_one(&t), "%s", "3·(1/3) = 1 in Fp");
    g16_fr a, b;
    g16_fr_from_u64(&a, 7);
    g16_fr_inv(&b, &a);
    g16_fr_mul(&b, &b, &a);
    CHECK(g16_fr_is_one(&b), "%s", "7·(1/7) = 1 in Fr");
    /* 2-adicity 28: r − 1 = 2^28 · odd */
    CHECK((g16_fr_modulus[0] - 1) % (1ULL << 28) == 0 && (((g16_fr_modulus[0] - 1) >> 28) & 1),
          "%s", "2-adicity 28");
#if G16_FP_INLINE
    g16_rng rng;
    g16_rng_seed(&rng, g16_test_seed(0x626e));
    g16_fp v[6];
    g16_fp_set_zero(&v[0]);
    g16_fp_set_one(&v[1]);
    g16_fp_neg(&v[2], &v[1]); /* p − 1 */
    g16_fp_from_u64(&v[3], 2);
    g16_fp_neg(&v[3], &v[3]); /* p − 2 */
    int bad = 0;
    for (int it = 0; it < 20000; it++) {
        g16_fp a, b, x, y;
        if (it < 36) {
            a = v[it % 6 < 4 ? it % 6 : 0];
            b = v[(it / 6) % 6 < 4 ? (it / 6) % 6 : 1];
        } else {
            g16_test_rand_fp(&rng, &a);
            g16_test_rand_fp(&rng, &b);
        }
        g16_fp_add(&x, &a, &b);
        g16_fp_add_inl(&y, &a, &b);
        bad += !g16_fp_eq(&x, &y);
        g16_fp_sub(&x, &a, &b);
        g16_fp_sub_inl(&y, &a, &b);
        bad += !g16_fp_eq(&x, &y);
    }
    CHECK(bad == 0, "inline add/sub differ from the exported ones %d times", bad);
#endif
    return g16_test_finish("test_bn254_curve_id");
}
