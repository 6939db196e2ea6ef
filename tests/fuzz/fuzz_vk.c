/* .vk files through g16_vk_read, subgroup checks on, both trailing-byte modes. */
#include "fuzz_util.h"
#include "g16_groth16.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_file(data, size);
    g16_vk *strict = NULL, *loose = NULL;
    g16_status s = g16_vk_read(&strict, path, G16_PARAMS_CHECK_SUBGROUP, 0);
    g16_status l = g16_vk_read(&loose, path, G16_PARAMS_CHECK_SUBGROUP, 1);
    if (s == G16_OK) {
        FUZZ_CHECK(l == G16_OK, "allow_trailing refused a strict-valid vk (%d)", (int)l);
        FUZZ_CHECK(g16_vk_inputs(strict) == g16_vk_inputs(loose), "input counts differ");
    }
    g16_vk_free(strict);
    g16_vk_free(loose);
    return 0;
}
