/* Point decoding: g16_curve_decode_any on bytes of any length (the length picks
 * group and form), with and without the subgroup check.  A point accepted with
 * the check must be accepted without it, as the same point. */
#include <string.h>

#include "curve/curve.h"
#include "fuzz_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    g16_curve_point full, loose;
    memset(&full, 0, sizeof full);
    memset(&loose, 0, sizeof loose);
    g16_status f = g16_curve_decode_any(&full, data, size, 0);
    g16_status l = g16_curve_decode_any(&loose, data, size, G16_CURVE_NO_SUBGROUP_CHECK);
    if (f == G16_OK) {
        FUZZ_CHECK(l == G16_OK, "accepted only with the subgroup check (%d)", (int)l);
        FUZZ_CHECK(full.group == loose.group && full.compressed == loose.compressed, "groups differ");
        if (full.group == G16_G1)
            FUZZ_CHECK(!memcmp(&full.g1, &loose.g1, sizeof full.g1), "G1 points differ");
        else
            FUZZ_CHECK(!memcmp(&full.g2, &loose.g2, sizeof full.g2), "G2 points differ");
    }
    /* the subgroup test runs last: the two calls differ only there */
    if (f == G16_ERR_NOT_IN_SUBGROUP) FUZZ_CHECK(l == G16_OK, "loose decode refused (%d)", (int)l);
    if (l == G16_OK) FUZZ_CHECK(f == G16_OK || f == G16_ERR_NOT_IN_SUBGROUP, "full decode: %d", (int)f);
    if (l != G16_OK) FUZZ_CHECK(f == l, "reasons differ: %d vs %d", (int)f, (int)l);
    return 0;
}
