/* G1: the point template instantiated over Fp, plus what only G1 has: the
 * constants, the endomorphism φ and its subgroup test.  Constants come from
 * src/curve/gen_consts.py (Montgomery form) and are re-checked by the tests. */
#include "curve/curve.h"
#include "field/mont.h"

#define CV(name) g16_g1_##name
#define FE(name) g16_fp_##name
#define FE_T g16_fp
#define AFF g16_g1_affine
#define JAC g16_g1_jac
#define XYZZ g16_g1_xyzz
#define FE_BYTES G16_FP_BYTES
#define G_NAME "G1"

#if G16_CURVE_BN254
/* BN254 (docs/curve.md): y² = x³ + 3, generator (1, 2), cofactor 1, so every point of
 * the curve is in G1; constants from src/curve/gen_consts_bn254.py */
#include "bn254/consts.h"
const uint64_t g16_curve_order[4] = G16_BN254_FR_MODULUS;
static const g16_fp curve_b = G16_BN254_G1_B;
static const g16_fp gen_x = G16_BN254_G1_GEN_X;
static const g16_fp gen_y = G16_BN254_G1_GEN_Y;
static const uint64_t cofactor[1] = {1};
/* β: φ(P) = (βx, y) = λ·P on G1 (G16_BN254_G1_LAMBDA) */
static const g16_fp beta = G16_BN254_G1_BETA;
#define BN254_GLV 1 /* G_mul splits k with φ (curve_impl.h) */
#else
const uint64_t g16_curve_order[4] = {0xffffffff00000001ULL, 0x53bda402fffe5bfeULL,
                                     0x3339d80809a1d805ULL, 0x73eda753299d7d48ULL};

static const g16_fp curve_b = {{0xaa270000000cfff3ULL, 0x53cc0032fc34000aULL, 0x478fe97a6b0a807fULL,
                                0xb1d37ebee6ba24d7ULL, 0x8ec9733bbf78ab2fULL, 0x09d645513d83de7eULL}};
static const g16_fp gen_x = {{0x5cb38790fd530c16ULL, 0x7817fc679976fff5ULL, 0x154f95c7143ba1c1ULL,
                              0xf0ae6acdf3d0e747ULL, 0xedce6ecc21dbf440ULL, 0x120177419e0bfb75ULL}};
static const g16_fp gen_y = {{0xbaac93d50ce72271ULL, 0x8c22631a7918fd8eULL, 0xdd595f13570725ceULL,
                              0x51ac582950405194ULL, 0x0e1c8c3fad0059c0ULL, 0x0bbc3efc5008a26aULL}};
/* h1 = (x − 1)²/3 */
static const uint64_t cofactor[2] = {0x8c00aaab0000aaabULL, 0x396c8c005555e156ULL};
/* β: the cube root of unity with φ(P) = (βx, y) = −x²·P on G1 */
static const g16_fp beta = {{0x30f1361b798a64e8ULL, 0xf3b8ddab7ece5a2aULL, 0x16a8ca3ac61577f7ULL,
                             0xc26a2ff874fd029bULL, 0x3636b76660701c6eULL, 0x051ba4ab241b6160ULL}};
#endif

#include "curve/curve_impl.h"

static void fe_to_bytes(uint8_t *out, const g16_fp *a) { g16_fp_to_be(out, a); }

static g16_status fe_from_bytes(g16_fp *r, const uint8_t *in, const char *form, const char *coord)
{
    uint64_t l[G16_FP_LIMBS];
    g16_limbs_from_be(l, in, G16_FP_LIMBS);
    if (g16_mont_geq(l, g16_fp_modulus, G16_FP_LIMBS))
        return g16_fail(G16_ERR_NONCANONICAL, "%s: %s is not less than p", form, coord);
    return g16_fp_from_canonical(r, l);
}

void g16_g1_jac_phi(g16_g1_jac *r, const g16_g1_jac *p)
{
    /* x = X/Z² scales by β the same in Jacobian coordinates */
    g16_fp_mul(&r->x, &p->x, &beta);
    r->y = p->y;
    r->z = p->z;
}

#if G16_CURVE_BN254
/* cofactor 1: the on-curve test the callers make is the whole membership test */
static int subgroup_check(const g16_g1_jac *p)
{
    (void)p;
    return 1;
}
#else
/* −φ(P) = x²·P on G1 */
static void endo_mu(g16_g1_jac *r, const g16_g1_jac *p)
{
    g16_g1_jac_phi(r, p);
    g16_fp_neg(&r->y, &r->y);
}

/* Scott, "A note on group membership tests for G1, G2 and GT on BLS
 * pairing-friendly curves" (ePrint 2021/1130): P ∈ G1 iff φ(P) = −x²·P.
 * x²·P = |x|·(|x|·P), so the test costs two 64-bit multiplications. */
static int subgroup_check(const g16_g1_jac *p)
{
    g16_g1_jac t, e;
    mul_abs_x(&t, p);
    mul_abs_x(&t, &t);
    endo_mu(&e, p);
    return g16_g1_jac_eq(&t, &e);
}
#endif
