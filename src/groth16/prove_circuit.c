/* One-call proving for the CLI and benchmarks: density, synthesis, split API. */
#include <stdlib.h>

#include "common/error.h"
#include "common/fault.h"
#include "groth16/groth16.h"

g16_status g16_prove(uint8_t proof[G16_PROOF_BYTES], g16_key *key, const g16_circuit *circ,
                     const g16_witness *wit, const uint8_t *rs)
{
    return g16_prove_on(proof, key, circ, wit, rs, NULL);
}

g16_status g16_prove_on(uint8_t proof[G16_PROOF_BYTES], g16_key *key, const g16_circuit *circ,
                        const g16_witness *wit, const uint8_t *rs, g16_backend *backend)
{
    if (!key || !circ || !wit) return g16_fail(G16_ERR_ARG, "prove: missing key, circuit or witness");
    if (wit->n != g16_circuit_vars(circ))
        return g16_fail(G16_ERR_ARG, "prove: witness has %llu values, the circuit %llu variables",
                        (unsigned long long)wit->n, (unsigned long long)g16_circuit_vars(circ));
    uint64_t rows = g16_circuit_rows(circ);
    g16_density d;
    G16_TRY(g16_circuit_density(&d, circ));
    g16_prove_input in = {0};
    in.density = &d;
    in.a = g16_malloc(rows * sizeof(g16_fr));
    in.b = g16_malloc(rows * sizeof(g16_fr));
    in.c = g16_malloc(rows * sizeof(g16_fr));
    in.n_rows = rows;
    in.z = wit->z;
    in.n_z = wit->n;
    in.rs = rs;
    in.backend = backend;
    g16_status st;
    if (!in.a || !in.b || !in.c)
        st = g16_fail(G16_ERR_NOMEM, "prove: out of memory for %llu rows", (unsigned long long)rows);
    else
        st = g16_synthesize(in.a, in.b, in.c, circ, wit->z, wit->n);
    if (st) {
        free(in.a), free(in.b), free(in.c);
        g16_density_free(&d);
        return st;
    }
    g16_pending *p;
    st = g16_prove_start(&p, key, &in);
    g16_density_free(&d);
    if (st) return st;
    return g16_prove_finish(proof, p);
}
