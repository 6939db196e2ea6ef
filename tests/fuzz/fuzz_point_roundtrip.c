/* Differential: point decode → encode.  Byte 0 picks the form (G1/G2, compressed
 * or not), the rest is the encoding.  An encoding the decoder accepts is
 * canonical, so encoding the decoded point in the same form must give the same
 * bytes, and the point's other form must decode back to the same point. */
#include <string.h>

#include "curve/curve.h"
#include "fuzz_util.h"

#define ROUNDTRIP(G, AFF, CLEN, ULEN)                                                         \
    static void roundtrip_##G(const uint8_t *in, size_t len, unsigned flags)               \
    {                                                                                      \
        AFF p, q;                                                                          \
        if (g16_##G##_decode(&p, in, len, flags) != G16_OK) return;                        \
        uint8_t c[CLEN], u[ULEN];                                                          \
        g16_##G##_encode_compressed(c, &p);                                                \
        g16_##G##_encode_uncompressed(u, &p);                                              \
        FUZZ_CHECK(!memcmp(len == CLEN ? c : u, in, len), #G " %zu bytes re-encode differently", len); \
        FUZZ_CHECK(g16_##G##_decode(&q, len == CLEN ? u : c, len == CLEN ? ULEN : CLEN, flags) == G16_OK, \
                   #G " other form refused");                                              \
        FUZZ_CHECK(!memcmp(&p, &q, sizeof p), #G " other form decodes to another point"); \
    }
ROUNDTRIP(g1, g16_g1_affine, 48, 96)
ROUNDTRIP(g2, g16_g2_affine, 96, 192)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1) return 0;
    static const size_t lens[4] = {48, 96, 96, 192};
    unsigned form = data[0] & 3, flags = (data[0] & 4) ? G16_CURVE_NO_SUBGROUP_CHECK : 0;
    if (size - 1 < lens[form]) return 0;
    if (form < 2)
        roundtrip_g1(data + 1, lens[form], flags);
    else
        roundtrip_g2(data + 1, lens[form], flags);
    return 0;
}
