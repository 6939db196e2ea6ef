/* snarkjs Groth16 .zkey files through g16_sj_zkey_read. */
#include "fuzz_util.h"
#include "io/snarkjs.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    g16_sj_pk pk;
    if (g16_sj_zkey_read(&pk, fuzz_file(data, size)) == G16_OK) g16_sj_pk_free(&pk);
    return 0;
}
