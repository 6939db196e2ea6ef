/* snarkjs JSON: the same bytes through the verification_key.json, proof.json and
 * public.json readers (each refuses the others' documents early, so one corpus
 * serves all three). */
#include <stdlib.h>

#include "fuzz_util.h"
#include "io/snarkjs.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_file(data, size);
    g16_sj_vk vk;
    if (g16_sj_vk_read_json(&vk, path) == G16_OK) g16_sj_vk_free(&vk);
    g16_sj_proof proof;
    (void)g16_sj_proof_read_json(&proof, path);
    g16_fr *pub = NULL;
    size_t n = 0;
    if (g16_sj_public_read_json(&pub, &n, path) == G16_OK) free(pub);
    return 0;
}
