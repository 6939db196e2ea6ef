/* G1 and G2: group laws on random points (in and out of the subgroup) along
 * every formula path, scalar multiplication (linearity, GLV against plain NAF,
 * edge scalars), the fast subgroup tests against r·P = O, the endomorphisms
 * against their defining scalars, and encodings with every rejection reason. */
#include <string.h>

#include "check.h"
#include "rand_field.h"
#include "curve/curve.h"
#include "field/mont.h"

#define CV(name) g16_g1_##name
#define FE(name) g16_fp_##name
#define FE_T g16_fp
#define AFF g16_g1_affine
#define JAC g16_g1_jac
#define XYZZ g16_g1_xyzz
#define GNAME "G1"
#define GROUP G16_G1
#define ANYF g1
#define ENC_C G16_G1_COMPRESSED_BYTES
#define ENC_U G16_G1_UNCOMPRESSED_BYTES
#define rand_fe g16_test_rand_fp
#if G16_CURVE_BN254
#define COFACTOR_ONE 1 /* BN254's G1 is its whole curve */
#endif
#include "test_curve_body.h"
#undef COFACTOR_ONE
#undef CV
#undef FE
#undef FE_T
#undef AFF
#undef JAC
#undef XYZZ
#undef GNAME
#undef GROUP
#undef ANYF
#undef ENC_C
#undef ENC_U
#undef rand_fe

#define CV(name) g16_g2_##name
#define FE(name) g16_fp2_##name
#define FE_T g16_fp2
#define AFF g16_g2_affine
#define JAC g16_g2_jac
#define XYZZ g16_g2_xyzz
#define GNAME "G2"
#define GROUP G16_G2
#define ANYF g2
#define ENC_C G16_G2_COMPRESSED_BYTES
#define ENC_U G16_G2_UNCOMPRESSED_BYTES
#define rand_fe g16_test_rand_fp2
#include "test_curve_body.h"

#if !G16_CURVE_BN254
/* Endomorphisms against their eigenvalues, computed by plain scalar multiplication:
 * φ(P) = −x²·P = (r − x²)·P on G1 and ψ(P) = x·P = (r − |x|)·P on G2. */
static void sub_from_r(uint64_t out[4], const uint64_t *v, int n)
{
    unsigned __int128 b = 0;
    for (int i = 0; i < 4; i++) {
        unsigned __int128 d = (unsigned __int128)g16_curve_order[i] - (i < n ? v[i] : 0) - b;
        out[i] = (uint64_t)d;
        b = (d >> 64) & 1;
    }
}
#endif

#if G16_CURVE_BN254
/* BN254: φ(P) = λ·P on G1 and ψ(Q) = p·Q = 6x²·Q on G2 (src/curve/gen_consts_bn254.py);
 * λ is checked here against its definition λ² + λ + 1 ≡ 0 (mod r) too. */
#include "bn254/consts.h"
static void endomorphisms(g16_rng *rng)
{
    static const uint64_t lambda[4] = G16_BN254_G1_LAMBDA, six_x2[2] = G16_BN254_SIX_X2;
    g16_fr l, t, one;
    (void)g16_fr_from_canonical(&l, lambda);
    g16_fr_sqr(&t, &l);
    g16_fr_add(&t, &t, &l);
    g16_fr_set_one(&one);
    g16_fr_add(&t, &t, &one);
    CHECK(g16_fr_is_zero(&t), "%s", "lambda^2 + lambda + 1 != 0 mod r");
    /* 6x² = p − r */
    uint64_t d[4];
    unsigned __int128 b = 0;
    for (int i = 0; i < 4; i++) {
        unsigned __int128 v = (unsigned __int128)g16_fp_modulus[i] - g16_curve_order[i] - b;
        d[i] = (uint64_t)v;
        b = (v >> 64) & 1;
    }
    CHECK(d[0] == six_x2[0] && d[1] == six_x2[1] && !d[2] && !d[3], "%s", "6x^2 != p - r");
    for (int i = 0; i < 3; i++) {
        g16_g1_jac p, a, c;
        g16_g1_test_rand_subgroup_point(rng, &p);
        g16_g1_jac_phi(&a, &p);
        g16_g1_mul_limbs(&c, &p, lambda, 4);
        CHECK(g16_g1_jac_eq(&a, &c), "%s", "G1 phi(P) != lambda P");
        g16_g2_jac q, e, f;
        g16_g2_test_rand_subgroup_point(rng, &q);
        g16_g2_jac_psi(&e, &q);
        g16_g2_mul_limbs(&f, &q, six_x2, 2);
        CHECK(g16_g2_jac_eq(&e, &f), "%s", "G2 psi(Q) != 6x^2 Q");
        CHECK(g16_g2_jac_on_curve(&e), "%s", "G2 psi(Q) off curve");
    }
}

/* EIP-196/197 generators: G1 = (1, 2); G2's x.c1 ‖ x.c0 ‖ y.c1 ‖ y.c0 as in EIP-197. */
static void known_generators(void)
{
    static const char *g2u = "198e9393920d483a7260bfb731fb5d25f1aa493335a9e71297e485b7aef312c2"
                             "1800deef121f1e76426a00665e5c4479674322d4f75edadd46debd5cd992f6ed"
                             "090689d0585ff075ec9e99ad690c3395bc4b313370b38ef355acdadcd122975b"
                             "12c85ea5db8c6deb4aab71808dcb408fe3d1e7690c43d37b4ce6cc0166fa7daa";
    uint8_t want[128] = {0}, got[128];
    g16_g1_affine g1;
    g16_g2_affine g2;
    g16_g1_affine_generator(&g1);
    g16_g2_affine_generator(&g2);
    want[31] = 1;
    want[63] = 2;
    g16_g1_encode_uncompressed(got, &g1);
    CHECK(memcmp(want, got, 64) == 0, "%s", "G1 generator encoding");
    CHECK(g16_hex_decode(want, sizeof want, g2u) == 128, "%s", "hex");
    g16_g2_encode_uncompressed(got, &g2);
    CHECK(memcmp(want, got, 128) == 0, "%s", "G2 generator encoding");
}
#else
static void endomorphisms(g16_rng *rng)
{
    unsigned __int128 ax = G16_BLS_X_ABS, x2 = ax * ax;
    uint64_t x2l[2] = {(uint64_t)x2, (uint64_t)(x2 >> 64)}, xl[1] = {G16_BLS_X_ABS}, k[4];
    for (int i = 0; i < 3; i++) {
        g16_g1_jac p, a, b;
        g16_g1_test_rand_subgroup_point(rng, &p);
        g16_g1_jac_phi(&a, &p);
        sub_from_r(k, x2l, 2);
        g16_g1_mul_limbs(&b, &p, k, 4);
        CHECK(g16_g1_jac_eq(&a, &b), "%s", "G1 phi(P) != -x^2 P");
        CHECK(g16_g1_jac_on_curve(&a), "%s", "G1 phi(P) off curve");

        g16_g2_jac q, c, d;
        g16_g2_test_rand_subgroup_point(rng, &q);
        g16_g2_jac_psi(&c, &q);
        sub_from_r(k, xl, 1);
        g16_g2_mul_limbs(&d, &q, k, 4);
        CHECK(g16_g2_jac_eq(&c, &d), "%s", "G2 psi(P) != x P");
        CHECK(g16_g2_jac_on_curve(&c), "%s", "G2 psi(P) off curve");
    }
}

/* The published generator encodings (BLS12-381 spec / ZCash serialisation). */
static void known_generators(void)
{
    static const char *g1c = "97f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff97a1aeffb3af00adb22c6bb";
    static const char *g2c = "93e02b6052719f607dacd3a088274f65596bd0d09920b61ab5da61bbdc7f5049334cf11213945d57e5ac7d055d042b7e"
                             "024aa2b2f08f0a91260805272dc51051c6e47ad4fa403b02b4510b647ae3d1770bac0326a805bbefd48056c8c121bdb8";
    uint8_t want[96], got[96];
    g16_g1_affine g1;
    g16_g2_affine g2;
    g16_g1_affine_generator(&g1);
    g16_g2_affine_generator(&g2);
    CHECK(g16_hex_decode(want, sizeof want, g1c) == 48, "%s", "hex");
    g16_g1_encode_compressed(got, &g1);
    CHECK(memcmp(want, got, 48) == 0, "%s", "G1 generator encoding");
    CHECK(g16_hex_decode(want, sizeof want, g2c) == 96, "%s", "hex");
    g16_g2_encode_compressed(got, &g2);
    CHECK(memcmp(want, got, 96) == 0, "%s", "G2 generator encoding");
}
#endif /* G16_CURVE_BN254 */

int main(void)
{
    g16_rng rng;
    g16_rng_seed(&rng, g16_test_seed(0x6375727665ULL));
    known_generators();
    g16_g1_test_all(&rng);
    g16_g2_test_all(&rng);
    endomorphisms(&rng);
    return g16_test_finish("test_curve_group");
}
