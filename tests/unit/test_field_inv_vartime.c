/* g16_fp_inv_vartime (variable-time binary-GCD inversion) against
 * Fermat's g16_fp_inv and against the definition a·(1/a) = 1: 0, 1, −1, 2,
 * small values, powers of two, values with long runs of zero or one bits (which
 * stress the word approximations), p − small, and random values; on both field
 * paths. */
#include <string.h>

#include "check.h"
#include "field/cpu.h"
#include "field/fp.h"
#include "field/mont.h"

static g16_rng rng;

/* p's size: also built for BN254 (docs/curve.md) */
#define NL G16_FP_LIMBS
#if G16_CURVE_BN254
#define PBITS 254
#else
#define PBITS 381
#endif
#define TOPBITS (PBITS - 64 * (NL - 1))

static void check_one(const g16_fp *a, const char *what, int i)
{
    g16_fp want, got, prod;
    g16_fp_inv(&want, a);
    g16_fp_inv_vartime(&got, a);
    CHECK(!memcmp(want.l, got.l, sizeof got.l), "%s %d: binary GCD inverse differs from Fermat's", what, i);
    CHECK(!g16_mont_geq(got.l, g16_fp_modulus, NL), "%s %d: not reduced", what, i);
    if (!g16_fp_is_zero(a)) {
        g16_fp_mul(&prod, a, &got);
        CHECK(g16_fp_is_one(&prod), "%s %d: a * (1/a) != 1", what, i);
    } else {
        CHECK(g16_fp_is_zero(&got), "1/0 is not 0");
    }
    g16_fp al = *a;
    g16_fp_inv_vartime(&al, &al);
    CHECK(!memcmp(want.l, al.l, sizeof al.l), "%s %d: with r = a", what, i);
}

int main(void)
{
    g16_rng_seed(&rng, g16_test_seed(0x1ee7));
    for (int path = 0; path < 2; path++) {
        g16_field_force_portable(path);
        g16_fp a;
        /* Montgomery forms of small integers, and raw limb patterns below p */
        for (uint64_t v = 0; v < 40; v++) {
            g16_fp_from_u64(&a, v);
            check_one(&a, "small", (int)v);
            g16_fp_neg(&a, &a);
            check_one(&a, "minus small", (int)v);
        }
        for (int k = 0; k < PBITS; k++) {
            memset(&a, 0, sizeof a);
            a.l[k / 64] = 1ull << (k % 64);
            check_one(&a, "2^k limbs", k);
            /* 2^k - 1: a run of ones */
            memset(&a, 0, sizeof a);
            for (int j = 0; j < k; j++) a.l[j / 64] |= 1ull << (j % 64);
            check_one(&a, "2^k - 1 limbs", k);
        }
        for (uint64_t d = 1; d < 20; d++) {
            memcpy(a.l, g16_fp_modulus, sizeof a.l);
            a.l[0] -= d;
            check_one(&a, "p - d limbs", (int)d);
        }
        for (int i = 0; i < 2000; i++) {
            do {
                for (int j = 0; j < NL; j++) a.l[j] = g16_rng_u64(&rng);
                a.l[NL - 1] &= (1ull << TOPBITS) - 1;
                if (i % 4 == 1) a.l[1] = a.l[2] = a.l[3] = 0; /* sparse middles */
                if (i % 4 == 2) a.l[NL - 1] >>= (i % TOPBITS);        /* shorter values */
                if (i % 4 == 3) a.l[0] = a.l[1] = 0;          /* many trailing zeros */
            } while (g16_mont_geq(a.l, g16_fp_modulus, NL));
            check_one(&a, "random", i);
        }
    }
    g16_field_force_portable(0);
    return g16_test_finish("test_field_inv_vartime");
}
