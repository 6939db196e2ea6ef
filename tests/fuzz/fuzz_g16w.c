/* .g16w witnesses through g16_witness_load: every value below r, value 0 = 1. */
#include <string.h>

#include "fuzz_util.h"
#include "g16_circuit.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    g16_witness *w = NULL;
    if (g16_witness_load(&w, fuzz_file(data, size)) == G16_OK) {
        uint64_t n = g16_witness_len(w);
        FUZZ_CHECK(n >= 1 + (uint64_t)g16_witness_pub(w), "len %llu", (unsigned long long)n);
        uint8_t v[32], one[32] = {0};
        one[31] = 1; /* big-endian */
        FUZZ_CHECK(g16_witness_get(v, w, 0) == G16_OK && !memcmp(v, one, 32), "value 0 is not 1");
        FUZZ_CHECK(g16_witness_get(v, w, n) != G16_OK, "index past the end accepted");
        g16_witness_destroy(w);
    }
    return 0;
}
