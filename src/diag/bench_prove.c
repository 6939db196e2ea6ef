/* g16 bench prove: a whole Groth16 proof of a synthetic circuit, stage by stage. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "backend/backend.h"
#include "diag/timing_key.h"
#include "common/error.h"
#include "curve/curve.h"
#include "groth16/groth16.h"
#include "r1cs/r1cs.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}


static void keep_buffer(void *user, g16_fr *buf)
{
}

g16_status g16_bench_prove(g16_bench_prove_result *out, const g16_bench_prove_args *a)
{
    memset(out, 0, sizeof *out);
    if (a->threads) G16_TRY(g16_set_threads(a->threads));
    g16_backend *be = NULL;
    G16_TRY(g16_backend_open(&be, (g16_backend_kind)a->backend, 0));
    snprintf(out->backend, sizeof out->backend, "%s", g16_backend_name(be));
    g16_circuit_gen_args ga = {(g16_profile)a->profile, a->log_n, a->n_pub, a->seed};
    g16_circuit *circ = NULL;
    g16_witness *wit = NULL;
    g16_key *key = NULL;
    g16_density d = {0};
    g16_fr *bufs[3] = {NULL, NULL, NULL};
    size_t buf_bytes = 0;
    double t = now();
    g16_status st = g16_circuit_generate(&circ, &wit, &ga);
    if (st) goto done;
    out->generate = now() - t;
    out->rows = g16_circuit_rows(circ);
    out->n_aux = circ->n_aux;
    /* the density once per circuit, as an engine does (not counted in proving) */
    if ((st = g16_circuit_density(&d, circ))) goto done;

    t = now();
    if (a->timing_key) {
        if ((st = g16_timing_key(&key, circ, &d))) goto done;
    } else {
        uint8_t seed[8];
        memcpy(seed, &a->seed, 8);
        if ((st = g16_setup(&key, circ, seed, sizeof seed))) goto done;
        out->setup_qap = g16_last_setup_times.qap;
        out->setup_scalars = g16_last_setup_times.scalars;
        out->setup_g1 = g16_last_setup_times.g1;
        out->setup_g2 = g16_last_setup_times.g2;
    }
    out->setup = now() - t;
    out->n_a = key->n_a;
    out->n_b = key->n_b_g1;

    /* The evaluation buffers are reused across reps (release is a no-op), as an
     * engine's pool reuses them; a device backend gets them page-locked, and z too. */
    uint64_t rows = out->rows;
    buf_bytes = rows * sizeof(g16_fr);
    for (int i = 0; i < 3; i++) {
        if (!(bufs[i] = malloc(buf_bytes))) {
            st = g16_fail(G16_ERR_NOMEM, "bench prove: out of memory");
            goto done;
        }
        g16_backend_pin(be, bufs[i], buf_bytes);
    }
    g16_backend_pin(be, wit->z, wit->n * sizeof(g16_fr));
    unsigned reps = a->reps ? a->reps : 1;
    uint8_t proof[G16_PROOF_BYTES];
    for (unsigned rep = 0; rep < reps; rep++) {
        double t0 = now();
        if ((st = g16_synthesize(bufs[0], bufs[1], bufs[2], circ, wit->z, wit->n))) goto done;
        double synth = now() - t0;
        g16_prove_input in = {0};
        in.a = bufs[0], in.b = bufs[1], in.c = bufs[2];
        in.release = keep_buffer;
        in.density = &d;
        in.n_rows = rows;
        in.z = wit->z;
        in.n_z = wit->n;
        in.backend = be;
        g16_pending *p;
        t = now();
        if ((st = g16_prove_start(&p, key, &in))) goto done;
        double ps = now() - t;
        g16_prove_times pt_start = g16_last_prove_times;
        if ((st = g16_prove_finish(proof, p))) goto done;
        double total = now() - t0;
        if (rep == 0) out->first_prove_start = ps;
        if (rep == 0 || ps < out->prove_start) {
            g16_prove_times pt = g16_last_prove_times;
            out->synthesis = synth;
            out->prove_start = ps;
            out->prove_total = total;
            out->h_ntt = pt_start.h_ntt;
            out->msm_h = pt_start.msm_h;
            out->msm_l = pt_start.msm_l;
            out->msm_a = pt_start.msm_a;
            out->msm_b1 = pt_start.msm_b1;
            out->msm_b2 = pt.msm_b2;
            out->b2_in_start = pt_start.b2_in_start;
            out->assembly = pt.assembly;
        }
    }

    if (!a->timing_key) {
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
    }
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    out->peak_rss_kb = ru.ru_maxrss;
done:
    for (int i = 0; i < 3; i++) {
        if (bufs[i]) g16_backend_unpin(be, bufs[i]);
        free(bufs[i]);
    }
    if (wit) g16_backend_unpin(be, wit->z);
    if (d.aux_in_a) g16_density_free(&d);
    g16_key_release(key);
    g16_witness_destroy(wit);
    g16_circuit_destroy(circ);
    g16_backend_close(be);
    return st;
}
