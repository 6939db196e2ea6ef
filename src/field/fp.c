#include "field/fp.h"

#include "field/field_impl.h"

#if G16_CURVE_BN254
#include "bn254/consts.h"
const uint64_t g16_fp_modulus[G16_FP_LIMBS] = G16_BN254_FP_MODULUS;
#define FP_N0 G16_BN254_FP_N0
const g16_fp g16_fp_one_mont = {G16_BN254_FP_ONE_MONT};
static const g16_fp fp_r2 = {G16_BN254_FP_R2};

G16_FIELD_IMPL(fp, g16_fp, G16_FP_LIMBS, G16_FP_BYTES, g16_fp_modulus, FP_N0, g16_fp_one_mont, fp_r2,
               g16_mulx_mont_256, g16_mulx_sqr_mont_256)

static const uint64_t fp_half[G16_FP_LIMBS] = G16_BN254_FP_HALF;
static const uint64_t fp_sqrt_exp[G16_FP_LIMBS] = G16_BN254_FP_SQRT_EXP; /* p ≡ 3 (mod 4) too */
#else
const uint64_t g16_fp_modulus[G16_FP_LIMBS] = {
    0xb9feffffffffaaabULL, 0x1eabfffeb153ffffULL, 0x6730d2a0f6b0f624ULL,
    0x64774b84f38512bfULL, 0x4b1ba7b6434bacd7ULL, 0x1a0111ea397fe69aULL};
#define FP_N0 0x89f3fffcfffcfffdULL
const g16_fp g16_fp_one_mont = {{0x760900000002fffdULL, 0xebf4000bc40c0002ULL,
                                 0x5f48985753c758baULL, 0x77ce585370525745ULL,
                                 0x5c071a97a256ec6dULL, 0x15f65ec3fa80e493ULL}};
static const g16_fp fp_r2 = {{0xf4df1f341c341746ULL, 0x0a76e6a609d104f1ULL,
                              0x8de5476c4c95b6d5ULL, 0x67eb88a9939d83c0ULL,
                              0x9a793e85b519952dULL, 0x11988fe592cae3aaULL}};

G16_FIELD_IMPL(fp, g16_fp, G16_FP_LIMBS, G16_FP_BYTES, g16_fp_modulus, FP_N0, g16_fp_one_mont, fp_r2,
               g16_mulx_mont_384, g16_mulx_sqr_mont_384)

/* (p-1)/2, canonical: the sign threshold and Euler's criterion exponent */
static const uint64_t fp_half[G16_FP_LIMBS] = {
    0xdcff7fffffffd555ULL, 0x0f55ffff58a9ffffULL, 0xb39869507b587b12ULL,
    0xb23ba5c279c2895fULL, 0x258dd3db21a5d66bULL, 0x0d0088f51cbff34dULL};
/* (p+1)/4: p ≡ 3 (mod 4), so a^((p+1)/4) is a square root of any square a */
static const uint64_t fp_sqrt_exp[G16_FP_LIMBS] = {
    0xee7fbfffffffeaabULL, 0x07aaffffac54ffffULL, 0xd9cc34a83dac3d89ULL,
    0xd91dd2e13ce144afULL, 0x92c6e9ed90d2eb35ULL, 0x0680447a8e5ff9a6ULL};
#endif

int g16_fp_is_lex_largest(const g16_fp *a)
{
    uint64_t c[G16_FP_LIMBS];
    g16_fp_to_canonical(c, a);
    for (int i = G16_FP_LIMBS - 1; i >= 0; i--) {
        if (c[i] != fp_half[i]) return c[i] > fp_half[i];
    }
    return 0;
}

int g16_fp_sqrt(g16_fp *r, const g16_fp *a)
{
    g16_fp s, chk;
    g16_fp_pow(&s, a, fp_sqrt_exp, G16_FP_LIMBS);
    g16_fp_sqr(&chk, &s);
    if (!g16_fp_eq(&chk, a)) return 0;
    *r = s;
    return 1;
}

int g16_fp_is_square(const g16_fp *a)
{
    g16_fp t;
    if (g16_fp_is_zero(a)) return 1;
    g16_fp_pow(&t, a, fp_half, G16_FP_LIMBS);
    return g16_fp_is_one(&t);
}
