/* Proofs of the r1cs layer's synthetic circuits (porep, dense, bits; tiny to
 * 2^10 rows; 0 and several public inputs) verify through the one-call prover
 * (density + synthesis from the r1cs layer), and fail with another input. */
#include <stdlib.h>
#include <string.h>

#include "test_groth16_util.h"

int main(void)
{
    uint64_t seed = g16_test_seed(5);
    static const g16_profile profiles[3] = {G16_PROFILE_POREP, G16_PROFILE_DENSE, G16_PROFILE_BITS};
    static const struct { unsigned log_n; uint32_t pub; } sizes[] = {
        {2, 0}, {3, 1}, {4, 0}, {5, 3}, {7, 2}, {10, 0}, {10, 5}};
    for (int p = 0; p < 3; p++) {
        for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
            g16_circuit_gen_args ga = {profiles[p], sizes[s].log_n, sizes[s].pub, seed + s};
            g16_circuit *c;
            g16_witness *w;
            g16_status st = g16_circuit_generate(&c, &w, &ga);
            CHECK(st == G16_OK, "generate %s 2^%u: %s", g16_profile_name(profiles[p]),
                  sizes[s].log_n, g16_last_error());
            if (st) continue;
            g16_key *key;
            st = g16_setup(&key, c, (const uint8_t *)"profiles", 8);
            CHECK(st == G16_OK, "setup %s 2^%u: %s", g16_profile_name(profiles[p]), sizes[s].log_n,
                  g16_last_error());
            if (st == G16_OK) {
                uint8_t proof[192], *x = malloc(32 * (size_t)sizes[s].pub + 1);
                for (uint32_t i = 0; i < sizes[s].pub; i++) g16_fr_to_be(x + 32 * i, &w->z[1 + i]);
                st = g16_prove(proof, key, c, w, NULL);
                CHECK(st == G16_OK, "prove %s 2^%u: %s", g16_profile_name(profiles[p]),
                      sizes[s].log_n, g16_last_error());
                st = g16_verify(g16_key_vk(key), proof, x, sizes[s].pub);
                CHECK(st == G16_OK, "verify %s 2^%u pub %u: %s", g16_profile_name(profiles[p]),
                      sizes[s].log_n, sizes[s].pub, g16_last_error());
                if (sizes[s].pub) {
                    x[31] ^= 1;
                    CHECK(g16_verify(g16_key_vk(key), proof, x, sizes[s].pub) == G16_ERR_UNSATISFIED,
                          "wrong input accepted (%s 2^%u)", g16_profile_name(profiles[p]),
                          sizes[s].log_n);
                }
                free(x);
                g16_key_release(key);
            }
            g16_witness_destroy(w);
            g16_circuit_destroy(c);
        }
    }
    return g16_test_finish("groth16_profiles");
}
