/* The public `g16 ec` helpers: scalar·generator, encoding checks, pairings.  Also
 * compiled for BN254 (src/bn254/sources.txt): g16_bn254_ec_*. */
#include <string.h>

#include "common/error.h"
#include "curve/curve.h"
#include "field/fr.h"
#include "pairing/pairing.h"

g16_status g16_ec_mul_generator(uint8_t *out, size_t out_len, g16_group group,
                                const uint8_t scalar32[32])
{
    if (!out || !scalar32) return g16_fail(G16_ERR_ARG, "ec mul: null argument");
    uint64_t k[4];
    g16_fr s;
    /* Canonical check: the API promises a reduced scalar; refuse anything else. */
    G16_TRY(g16_fr_from_be(&s, scalar32));
    g16_fr_to_canonical(k, &s);
    /* the compressed form, or (BN254, where Ethereum/snarkjs use it) the uncompressed one */
    int unc_ok = 0;
#if G16_CURVE_BN254
    unc_ok = 1;
#endif
    if (group == G16_G1) {
        if (out_len != G16_G1_COMPRESSED_BYTES && !(unc_ok && out_len == G16_G1_UNCOMPRESSED_BYTES))
            return g16_fail(G16_ERR_ARG, "ec mul g1: output must be %d bytes, not %zu",
                            G16_G1_COMPRESSED_BYTES, out_len);
        g16_g1_jac g, r;
        g16_g1_affine a;
        g16_g1_jac_generator(&g);
        g16_g1_mul(&r, &g, k);
        g16_g1_jac_to_affine(&a, &r);
        if (out_len == G16_G1_COMPRESSED_BYTES)
            g16_g1_encode_compressed(out, &a);
        else
            g16_g1_encode_uncompressed(out, &a);
        return G16_OK;
    }
    if (group == G16_G2) {
        if (out_len != G16_G2_COMPRESSED_BYTES && !(unc_ok && out_len == G16_G2_UNCOMPRESSED_BYTES))
            return g16_fail(G16_ERR_ARG, "ec mul g2: output must be %d bytes, not %zu",
                            G16_G2_COMPRESSED_BYTES, out_len);
        g16_g2_jac g, r;
        g16_g2_affine a;
        g16_g2_jac_generator(&g);
        g16_g2_mul(&r, &g, k);
        g16_g2_jac_to_affine(&a, &r);
        if (out_len == G16_G2_COMPRESSED_BYTES)
            g16_g2_encode_compressed(out, &a);
        else
            g16_g2_encode_uncompressed(out, &a);
        return G16_OK;
    }
    return g16_fail(G16_ERR_ARG, "ec mul: unknown group %d", (int)group);
}

g16_status g16_ec_check(g16_group *group, const uint8_t *enc, size_t len)
{
    if (!enc && len) return g16_fail(G16_ERR_ARG, "ec check: null input");
    g16_curve_point pt;
    g16_status s = g16_curve_decode_any(&pt, enc, len, 0);
    if (s == G16_OK && group) *group = pt.group;
    return s;
}

g16_status g16_ec_pairing(uint8_t out576[576], const uint8_t *g1, size_t g1_len,
                          const uint8_t *g2, size_t g2_len)
{
    if (!out576 || (!g1 && g1_len) || (!g2 && g2_len))
        return g16_fail(G16_ERR_ARG, "ec pairing: null argument");
    g16_g1_affine p;
    g16_g2_affine q;
    g16_status s = g16_g1_decode(&p, g1, g1_len, 0);
    if (s != G16_OK) return g16_fail_ctx(s, "first argument (G1)");
    s = g16_g2_decode(&q, g2, g2_len, 0);
    if (s != G16_OK) return g16_fail_ctx(s, "second argument (G2)");
    g16_fp12 e;
    g16_pairing(&e, &p, &q);
    g16_fp12_to_bytes(out576, &e);
    return G16_OK;
}
