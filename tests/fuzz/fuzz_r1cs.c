/* circom .r1cs files through g16_circom_r1cs_read. */
#include "fuzz_util.h"
#include "io/circom.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    g16_circom_r1cs r;
    if (g16_circom_r1cs_read(&r, fuzz_file(data, size)) == G16_OK) g16_circom_r1cs_free(&r);
    return 0;
}
