/* G2: the point template instantiated over Fp2, plus what only G2 has: the
 * constants, the endomorphism ψ and its subgroup test.  Constants come from
 * src/curve/gen_consts.py (Montgomery form) and are re-checked by the tests. */
#include "curve/curve.h"
#include "field/mont.h"

#define CV(name) g16_g2_##name
#define FE(name) g16_fp2_##name
#define FE_T g16_fp2
#define AFF g16_g2_affine
#define JAC g16_g2_jac
#define XYZZ g16_g2_xyzz
#define FE_BYTES (2 * G16_FP_BYTES)
#define G_NAME "G2"

#if G16_CURVE_BN254
/* BN254 (docs/curve.md): y² = x³ + 3/(9 + u) (D-type twist), the EIP-197 generator,
 * cofactor 2p − r; constants from src/curve/gen_consts_bn254.py */
#include "bn254/consts.h"
static const g16_fp2 curve_b = G16_BN254_G2_B;
static const g16_fp2 gen_x = G16_BN254_G2_GEN_X;
static const g16_fp2 gen_y = G16_BN254_G2_GEN_Y;
static const uint64_t cofactor[4] = G16_BN254_G2_COFACTOR;
/* ψ(x, y) = (conj(x)·cx, conj(y)·cy), cx = ξ^((p−1)/3), cy = ξ^((p−1)/2) (D-type) */
static const g16_fp2 psi_cx = G16_BN254_PSI_CX;
static const g16_fp2 psi_cy = G16_BN254_PSI_CY;
#else
#include "curve/g2_psi.h"
#define ENDO_ABS_X 1 /* 4-way GLS split with ψ (see curve_impl.h) */

#define FP(a, b, c, d, e, f) {{a##ULL, b##ULL, c##ULL, d##ULL, e##ULL, f##ULL}}
#define FOUR FP(0xaa270000000cfff3, 0x53cc0032fc34000a, 0x478fe97a6b0a807f, \
                0xb1d37ebee6ba24d7, 0x8ec9733bbf78ab2f, 0x09d645513d83de7e)

/* b' = 4(1 + u) */
static const g16_fp2 curve_b = {FOUR, FOUR};
static const g16_fp2 gen_x = {
    FP(0xf5f28fa202940a10, 0xb3f5fb2687b4961a, 0xa1a893b53e2ae580, 0x9894999d1a3caee9, 0x6f67b7631863366b, 0x058191924350bcd7),
    FP(0xa5a9c0759e23f606, 0xaaa0c59dbccd60c3, 0x3bb17e18e2867806, 0x1b1ab6cc8541b367, 0xc2b6ed0ef2158547, 0x11922a097360edf3)};
static const g16_fp2 gen_y = {
    FP(0x4c730af860494c4a, 0x597cfa1f5e369c5a, 0xe7e6856caa0a635a, 0xbbefb5e96e0d495f, 0x07d3a975f0ef25a2, 0x0083fd8e7e80dae5),
    FP(0xadc0fc92df64b05d, 0x18aa270a2b1461dc, 0x86adac6a3be4eba0, 0x79495c4ec93da33a, 0xe7175850a43ccaed, 0x0b2bc2a163de1bf2)};
/* h2 = (x⁸ − 4x⁷ + 5x⁶ − 4x⁴ + 6x³ − 4x² − 4x + 13)/9 (507 bits) */
static const uint64_t cofactor[8] = {0xcf1c38e31c7238e5ULL, 0x1616ec6e786f0c70ULL, 0x21537e293a6691aeULL,
                                     0xa628f1cb4d9e82efULL, 0xa68a205b2e5a7ddfULL, 0xcd91de4547085abaULL,
                                     0x091d50792876a202ULL, 0x05d543a95414e7f1ULL};
static const g16_fp2 psi_cx = G16_BLS_PSI_CX;
static const g16_fp2 psi_cy = G16_BLS_PSI_CY;
static const g16_fp psi2_cx = G16_BLS_PSI2_CX;
#endif

#include "curve/curve_impl.h"

static void fe_to_bytes(uint8_t *out, const g16_fp2 *a)
{
    g16_fp_to_be(out, &a->c1);
    g16_fp_to_be(out + G16_FP_BYTES, &a->c0);
}

static g16_status fe_from_bytes(g16_fp2 *r, const uint8_t *in, const char *form, const char *coord)
{
    uint64_t l1[G16_FP_LIMBS], l0[G16_FP_LIMBS];
    g16_limbs_from_be(l1, in, G16_FP_LIMBS);
    g16_limbs_from_be(l0, in + G16_FP_BYTES, G16_FP_LIMBS);
    if (g16_mont_geq(l1, g16_fp_modulus, G16_FP_LIMBS))
        return g16_fail(G16_ERR_NONCANONICAL, "%s: %s.c1 is not less than p", form, coord);
    if (g16_mont_geq(l0, g16_fp_modulus, G16_FP_LIMBS))
        return g16_fail(G16_ERR_NONCANONICAL, "%s: %s.c0 is not less than p", form, coord);
    G16_TRY(g16_fp_from_canonical(&r->c1, l1));
    return g16_fp_from_canonical(&r->c0, l0);
}

/* Frobenius is a field automorphism, so it applies to X, Y, Z alike; the
 * constants then scale x by cx and y by cy, i.e. X by cx and Y by cy. */
void g16_g2_jac_psi(g16_g2_jac *r, const g16_g2_jac *p)
{
    g16_fp2 t;
    g16_fp2_conj(&t, &p->x);
    g16_fp2_mul(&r->x, &t, &psi_cx);
    g16_fp2_conj(&t, &p->y);
    g16_fp2_mul(&r->y, &t, &psi_cy);
    g16_fp2_conj(&r->z, &p->z);
}

#if G16_CURVE_BN254
/* ψ(P) = 6x²·P on G2: the μ of G_mul's two-way split (curve_impl.h) */
static void endo_mu(g16_g2_jac *r, const g16_g2_jac *p) { g16_g2_jac_psi(r, p); }

/* El Housni, Guillevic, Piellard, "Co-factor clearing and subgroup membership testing
 * on pairing-friendly curves" (AFRICACRYPT 2022): for BN curves Q ∈ G2 iff
 * ψ(Q) = [6x²]Q (ψ acts as p ≡ 6x² mod r on G2).  128-bit scalar: half the work of
 * r·Q = O, which the tests compare it with. */
static int subgroup_check(const g16_g2_jac *p)
{
    static const uint64_t six_x2[2] = G16_BN254_SIX_X2;
    g16_g2_jac t, e;
    g16_g2_mul_limbs(&t, p, six_x2, 2);
    g16_g2_jac_psi(&e, p);
    return g16_g2_jac_eq(&t, &e);
}
#else
/* ψ²(P) = x²·P on G2 */
static void endo_mu(g16_g2_jac *r, const g16_g2_jac *p)
{
    g16_fp2_mul_fp(&r->x, &p->x, &psi2_cx);
    g16_fp2_neg(&r->y, &p->y);
    r->z = p->z;
}

/* −ψ(P) = |x|·P on G2 */
static void endo_abs_x(g16_g2_jac *r, const g16_g2_jac *p)
{
    g16_g2_jac_psi(r, p);
    g16_fp2_neg(&r->y, &r->y);
}

/* Scott, ePrint 2021/1130: Q ∈ G2 iff ψ(Q) = x·Q (x < 0: compare with −|x|·Q). */
static int subgroup_check(const g16_g2_jac *p)
{
    g16_g2_jac t, e;
    mul_abs_x(&t, p);
    g16_g2_jac_neg(&t, &t);
    g16_g2_jac_psi(&e, p);
    return g16_g2_jac_eq(&t, &e);
}
#endif
