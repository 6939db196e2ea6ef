/* .params keys: g16_params_scan (layout only) and g16_params_read (every point),
 * which must agree: a file the full reader accepts has the layout scan reports. */
#include "fuzz_util.h"
#include "g16_groth16.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_file(data, size);
    g16_params_layout lay;
    g16_status scan = g16_params_scan(&lay, path);
    if (scan == G16_OK) FUZZ_CHECK(lay.size == size, "scan size %llu", (unsigned long long)lay.size);
    g16_key *key = NULL;
    if (g16_params_read(&key, path, 0) == G16_OK) {
        FUZZ_CHECK(scan == G16_OK, "read accepted what scan refused (%d)", (int)scan);
        g16_key_info i;
        g16_key_get_info(&i, key);
        FUZZ_CHECK(i.n_ic == lay.n_ic && i.n_h == lay.n_h && i.n_l == lay.n_l && i.n_a == lay.n_a &&
                       i.n_b_g1 == lay.n_b_g1 && i.n_b_g2 == lay.n_b_g2,
                   "read and scan counts differ");
        g16_key_release(key);
    }
    return 0;
}
