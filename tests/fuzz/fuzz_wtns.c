/* snarkjs .wtns files through g16_circom_wtns_read. */
#include "fuzz_util.h"
#include "io/circom.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    g16_circom_wtns w;
    if (g16_circom_wtns_read(&w, fuzz_file(data, size)) == G16_OK) g16_circom_wtns_free(&w);
    return 0;
}
