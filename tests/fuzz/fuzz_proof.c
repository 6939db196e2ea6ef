/* Proof files through g16_proof_file_read with validation: accepted files hold
 * whole 192-byte proofs, each of which g16_proof_check accepts on its own. */
#include <stdlib.h>
#include <string.h>

#include "fuzz_util.h"
#include "g16_groth16.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    uint8_t *p = NULL;
    size_t k = 0;
    if (g16_proof_file_read(&p, &k, fuzz_file(data, size), 1) == G16_OK) {
        FUZZ_CHECK(k * G16_PROOF_BYTES == size && k > 0, "k %zu for %zu bytes", k, size);
        FUZZ_CHECK(!memcmp(p, data, size), "bytes changed");
        for (size_t i = 0; i < k; i++)
            FUZZ_CHECK(g16_proof_check(p + i * G16_PROOF_BYTES, i, 0, NULL) == G16_OK, "proof %zu", i);
        free(p);
    }
    return 0;
}
