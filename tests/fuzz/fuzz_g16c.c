/* .g16c circuits through g16_circuit_load (maps the file, checks every count,
 * index and coefficient).  A loaded circuit's counts must agree with each other. */
#include "fuzz_util.h"
#include "g16_circuit.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    g16_circuit *c = NULL;
    if (g16_circuit_load(&c, fuzz_file(data, size)) == G16_OK) {
        g16_circuit_info i;
        g16_circuit_get_info(&i, c);
        FUZZ_CHECK(i.n_vars == 1 + (uint64_t)i.n_pub + i.n_aux, "n_vars %llu", (unsigned long long)i.n_vars);
        FUZZ_CHECK(i.rows == i.n_constraints + 1 + i.n_pub, "rows %llu", (unsigned long long)i.rows);
        g16_circuit_destroy(c);
    }
    return 0;
}
