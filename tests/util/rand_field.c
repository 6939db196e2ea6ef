#include "rand_field.h"

void g16_test_rand_fp(g16_rng *rng, g16_fp *r)
{
    uint64_t c[G16_FP_LIMBS];
    do {
        for (int i = 0; i < G16_FP_LIMBS; i++) c[i] = g16_rng_u64(rng);
#if G16_CURVE_BN254
        c[G16_FP_LIMBS - 1] &= 0x3fffffffffffffffULL; /* p has 254 bits */
#else
        c[G16_FP_LIMBS - 1] &= 0x1fffffffffffffffULL; /* p has 381 bits */
#endif
    } while (g16_fp_from_canonical(r, c) != G16_OK);
}

void g16_test_rand_fp2(g16_rng *rng, g16_fp2 *r)
{
    g16_test_rand_fp(rng, &r->c0);
    g16_test_rand_fp(rng, &r->c1);
}

void g16_test_rand_fr(g16_rng *rng, g16_fr *r)
{
    uint64_t c[G16_FR_LIMBS];
    do {
        for (int i = 0; i < G16_FR_LIMBS; i++) c[i] = g16_rng_u64(rng);
#if G16_CURVE_BN254
        c[G16_FR_LIMBS - 1] &= 0x3fffffffffffffffULL; /* r has 254 bits */
#else
        c[G16_FR_LIMBS - 1] &= 0x7fffffffffffffffULL; /* r has 255 bits */
#endif
    } while (g16_fr_from_canonical(r, c) != G16_OK);
}

void g16_test_fill_fr_edges(g16_rng *rng, g16_fr *v, size_t n, unsigned odds)
{
    for (size_t i = 0; i < n; i++) {
        uint64_t k = g16_rng_u64(rng) % odds;
        if (k == 0)
            g16_fr_set_zero(&v[i]);
        else if (k == 1)
            g16_fr_set_one(&v[i]);
        else if (k == 2) /* the largest reduced representation */
            for (int j = 0; j < G16_FR_LIMBS; j++) v[i].l[j] = g16_fr_modulus[j] - (j == 0);
        else
            g16_test_rand_fr(rng, &v[i]);
    }
}
