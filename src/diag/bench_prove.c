/* g16 bench prove: a whole Groth16 proof of a synthetic circuit, stage by stage. */
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "common/error.h"
#include "groth16/groth16.h"
#include "r1cs/r1cs.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

g16_status g16_bench_prove(g16_bench_prove_result *out, const g16_bench_prove_args *a)
{
    memset(out, 0, sizeof *out);
    if (a->threads) G16_TRY(g16_set_threads(a->threads));
    g16_circuit_gen_args ga = {(g16_profile)a->profile, a->log_n, a->n_pub, a->seed};
    g16_circuit *circ = NULL;
    g16_witness *wit = NULL;
    g16_key *key = NULL;
    g16_density d = {0};
    g16_prove_input in = {0};
    double t = now();
    g16_status st = g16_circuit_generate(&circ, &wit, &ga);
    if (st) return st;
    out->generate = now() - t;
    out->rows = g16_circuit_rows(circ);
    out->n_aux = circ->n_aux;

    t = now();
    uint8_t seed[8];
    memcpy(seed, &a->seed, 8);
    if ((st = g16_setup(&key, circ, seed, sizeof seed))) goto done;
    out->setup = now() - t;
    out->setup_qap = g16_last_setup_times.qap;
    out->setup_scalars = g16_last_setup_times.scalars;
    out->setup_g1 = g16_last_setup_times.g1;
    out->setup_g2 = g16_last_setup_times.g2;
    out->n_a = key->n_a;
    out->n_b = key->n_b_g1;

    /* synthesis is part of proving: density (once per circuit in an engine, but
     * counted here) and the three evaluation vectors */
    double t0 = now();
    if ((st = g16_circuit_density(&d, circ))) goto done;
    uint64_t rows = out->rows;
    in.a = malloc(rows * sizeof(g16_fr));
    in.b = malloc(rows * sizeof(g16_fr));
    in.c = malloc(rows * sizeof(g16_fr));
    if (!in.a || !in.b || !in.c) {
        st = g16_fail(G16_ERR_NOMEM, "bench prove: out of memory");
        goto done;
    }
    if ((st = g16_synthesize(in.a, in.b, in.c, circ, wit->z, wit->n))) goto done;
    out->synthesis = now() - t0;
    in.density = &d;
    in.n_rows = rows;
    in.z = wit->z;
    in.n_z = wit->n;
    g16_pending *p;
    t = now();
    st = g16_prove_start(&p, key, &in);
    in.a = in.b = in.c = NULL; /* released by prove_start on every path */
    if (st) goto done;
    out->prove_start = now() - t;
    uint8_t proof[G16_PROOF_BYTES];
    if ((st = g16_prove_finish(proof, p))) goto done;
    out->prove_total = now() - t0;
    g16_prove_times pt = g16_last_prove_times;
    out->h_ntt = pt.h_ntt;
    out->msm_h = pt.msm_h;
    out->msm_l = pt.msm_l;
    out->msm_a = pt.msm_a;
    out->msm_b1 = pt.msm_b1;
    out->msm_b2 = pt.msm_b2;
    out->assembly = pt.assembly;

    uint8_t *x = malloc(32 * (size_t)circ->n_pub + 1);
    if (!x) {
        st = g16_fail(G16_ERR_NOMEM, "bench prove: out of memory");
        goto done;
    }
    for (uint32_t i = 0; i < circ->n_pub; i++) g16_fr_to_be(x + 32 * i, &wit->z[1 + i]);
    t = now();
    out->valid = g16_verify(g16_key_vk(key), proof, x, circ->n_pub) == G16_OK;
    out->verify = now() - t;
    free(x);
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    out->peak_rss_kb = ru.ru_maxrss;
done:
    free(in.a);
    free(in.b);
    free(in.c);
    if (d.aux_in_a) g16_density_free(&d);
    g16_key_release(key);
    g16_witness_destroy(wit);
    g16_circuit_destroy(circ);
    return st;
}
