#include "common/error.h"
#include "curve/curve.h"

g16_status g16_curve_decode_any(g16_curve_point *out, const uint8_t *in, size_t len, unsigned flags)
{
    switch (len) {
    case G16_G1_COMPRESSED_BYTES:
        out->group = G16_G1;
        out->compressed = 1;
        return g16_g1_decode(&out->g1, in, len, flags);
    case G16_G2_UNCOMPRESSED_BYTES:
        out->group = G16_G2;
        out->compressed = 0;
        return g16_g2_decode(&out->g2, in, len, flags);
    case G16_G1_UNCOMPRESSED_BYTES: /* = G16_G2_COMPRESSED_BYTES: the compression bit decides */
#if G16_CURVE_BN254
        if (in[0] & 0xc0) { /* a compressed BN254 encoding always has a top bit set */
#else
        if (in[0] & 0x80) {
#endif
            out->group = G16_G2;
            out->compressed = 1;
            return g16_g2_decode(&out->g2, in, len, flags);
        }
        out->group = G16_G1;
        out->compressed = 0;
        return g16_g1_decode(&out->g1, in, len, flags);
    default:
#if G16_CURVE_BN254
        return g16_fail(G16_ERR_LENGTH, "point encoding: %zu bytes is none of 32, 64 (G1 "
                        "uncompressed or G2 compressed) or 128", len);
#else
        return g16_fail(G16_ERR_LENGTH, "point encoding: %zu bytes is none of 48, 96 (G1 "
                        "uncompressed or G2 compressed) or 192", len);
#endif
    }
}
