#include "field/fr.h"

#include "field/field_impl.h"

#if G16_CURVE_BN254
#include "bn254/consts.h"
const uint64_t g16_fr_modulus[G16_FR_LIMBS] = G16_BN254_FR_MODULUS;
#define FR_N0 G16_BN254_FR_N0
const g16_fr g16_fr_one_mont = {G16_BN254_FR_ONE_MONT};
static const g16_fr fr_r2 = {G16_BN254_FR_R2};
#else
const uint64_t g16_fr_modulus[G16_FR_LIMBS] = {0xffffffff00000001ULL, 0x53bda402fffe5bfeULL,
                                               0x3339d80809a1d805ULL, 0x73eda753299d7d48ULL};
#define FR_N0 0xfffffffeffffffffULL
const g16_fr g16_fr_one_mont = {{0x00000001fffffffeULL, 0x5884b7fa00034802ULL,
                                 0x998c4fefecbc4ff5ULL, 0x1824b159acc5056fULL}};
static const g16_fr fr_r2 = {{0xc999e990f3f29c6dULL, 0x2b6cedcb87925c23ULL,
                              0x05d314967254398fULL, 0x0748d9d99f59ff11ULL}};
#endif

G16_FIELD_IMPL(fr, g16_fr, G16_FR_LIMBS, G16_FR_BYTES, g16_fr_modulus, FR_N0, g16_fr_one_mont, fr_r2,
               g16_mulx_mont_256, g16_mulx_sqr_mont_256)

void g16_fr_to_le(uint8_t out[G16_FR_BYTES], const g16_fr *a)
{
    uint64_t c[G16_FR_LIMBS];
    g16_fr_to_canonical(c, a);
    for (int i = 0; i < G16_FR_BYTES; i++) out[i] = (uint8_t)(c[i / 8] >> (8 * (i % 8)));
}

g16_status g16_fr_from_le(g16_fr *r, const uint8_t in[G16_FR_BYTES])
{
    uint64_t c[G16_FR_LIMBS] = {0};
    for (int i = 0; i < G16_FR_BYTES; i++) c[i / 8] |= (uint64_t)in[i] << (8 * (i % 8));
    return g16_fr_from_canonical(r, c);
}

void g16_fr_from_be_reduce(g16_fr *r, const uint8_t *in, size_t len)
{
    /* Horner over bytes: acc = acc·256 + byte, all mod r */
    g16_fr acc, k256, d;
    g16_fr_set_zero(&acc);
    g16_fr_from_u64(&k256, 256);
    for (size_t i = 0; i < len; i++) {
        g16_fr_mul(&acc, &acc, &k256);
        g16_fr_from_u64(&d, in[i]);
        g16_fr_add(&acc, &acc, &d);
    }
    *r = acc;
}
