/* `g16 bench pipeline`: proofs through the engine at one setting, with the
 * resident memory sampled during the run (the budget's promise is about RSS,
 * so RSS is what is measured, not only the engine's own counters). */
#include <malloc.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "common/error.h"
#include "common/rss.h"
#include "g16.h"

struct g16_bench_pipeline {
    g16_circuit *circ;
    g16_witness *wit;
    g16_key *key;
    uint8_t *inputs;
    uint32_t n_pub;
    uint64_t rss_proc; /* resident bytes before the circuit, witness and key were made */
};

static double mono(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}


typedef struct sampler {
    pthread_t t;
    atomic_int stop;
    _Atomic uint64_t peak;
} sampler;

static void *sample_main(void *arg)
{
    sampler *s = arg;
    const struct timespec tick = {0, 2000000}; /* 2 ms: shorter than any stage */
    while (!atomic_load(&s->stop)) {
        uint64_t r = g16_rss_bytes();
        if (r > atomic_load(&s->peak)) atomic_store(&s->peak, r);
        nanosleep(&tick, NULL);
    }
    return NULL;
}

void g16_bench_pipeline_free(g16_bench_pipeline *b)
{
    if (!b) return;
    g16_key_release(b->key);
    g16_circuit_destroy(b->circ);
    g16_witness_destroy(b->wit);
    free(b->inputs);
    free(b);
}

g16_status g16_bench_pipeline_prepare(g16_bench_pipeline **out, int profile, unsigned log_n, uint32_t n_pub,
                                      uint64_t seed)
{
    *out = NULL;
    g16_bench_pipeline *b = calloc(1, sizeof *b);
    if (!b) return g16_fail(G16_ERR_NOMEM, "bench pipeline: out of memory");
    b->rss_proc = g16_rss_bytes();
    g16_circuit_gen_args ga = {(g16_profile)profile, log_n, n_pub, seed};
    g16_status st = g16_circuit_generate(&b->circ, &b->wit, &ga);
    if (!st) st = g16_setup(&b->key, b->circ, (const uint8_t *)&seed, sizeof seed);
    if (!st) {
        b->n_pub = g16_witness_pub(b->wit);
        b->inputs = malloc(32 * (size_t)(b->n_pub ? b->n_pub : 1));
        if (!b->inputs) st = g16_fail(G16_ERR_NOMEM, "bench pipeline: out of memory");
        for (uint32_t i = 0; !st && i < b->n_pub; i++) st = g16_witness_get(b->inputs + 32 * i, b->wit, 1 + i);
    }
    if (st) {
        g16_bench_pipeline_free(b);
        return st;
    }
#ifdef __GLIBC__
    /* The setup's temporaries, freed but left resident in malloc's arenas, would
     * count in every run's RSS as if the engine held them. */
    malloc_trim(0);
#endif
    *out = b;
    return G16_OK;
}

g16_status g16_bench_pipeline_run(g16_bench_pipeline *b, g16_bench_pipeline_result *res,
                                  const g16_engine_config *cfg, unsigned jobs, unsigned partitions)
{
    memset(res, 0, sizeof *res);
    if (!jobs || !partitions) return g16_fail(G16_ERR_ARG, "bench pipeline: jobs and partitions must be > 0");
    g16_partition *parts = calloc(partitions, sizeof *parts);
    uint64_t *ids = calloc(jobs, sizeof *ids);
    uint8_t *proofs = malloc((size_t)partitions * G16_PROOF_BYTES);
    uint8_t *inputs = malloc((size_t)partitions * 32 * (b->n_pub ? b->n_pub : 1));
    if (!parts || !ids || !proofs || !inputs) {
        free(parts), free(ids), free(proofs), free(inputs);
        return g16_fail(G16_ERR_NOMEM, "bench pipeline: out of memory");
    }
    for (unsigned i = 0; i < partitions; i++) {
        parts[i] = (g16_partition){.circuit = b->circ, .witness = b->wit};
        memcpy(inputs + (size_t)i * 32 * b->n_pub, b->inputs, 32 * (size_t)b->n_pub);
    }
    res->rss_proc = b->rss_proc;
    res->rss_base = g16_rss_bytes();
    sampler smp;
    memset(&smp, 0, sizeof smp);
    atomic_store(&smp.peak, res->rss_base);
    int sampling = pthread_create(&smp.t, NULL, sample_main, &smp) == 0;

    g16_engine *e = NULL;
    g16_status st = g16_engine_create(&e, cfg);
    double t0 = mono();
    for (unsigned j = 0; !st && j < jobs; j++)
        st = g16_engine_submit(e, &ids[j], b->key, parts, partitions, G16_PRIO_NORMAL);
    res->all_verified = 1;
    for (unsigned j = 0; !st && j < jobs; j++) {
        st = g16_engine_await(e, ids[j], -1, proofs, (size_t)partitions * G16_PROOF_BYTES, NULL);
        if (!st) {
            res->proofs += partitions;
            if (g16_verify_batch(g16_key_vk(b->key), proofs, partitions, inputs, b->n_pub) != G16_OK)
                res->all_verified = 0;
        }
    }
    res->wall_s = mono() - t0;
    if (e) {
        g16_engine_stats_get(e, &res->stats);
        g16_engine_destroy(e, 0);
    }
    if (sampling) {
        atomic_store(&smp.stop, 1);
        pthread_join(smp.t, NULL);
    }
    res->rss_peak = atomic_load(&smp.peak);
    const g16_engine_stats *s = &res->stats;
    if (res->proofs) {
        double n = (double)res->proofs;
        res->s_per_proof = res->wall_s / n;
        /* Each stage can at best overlap its own work over its workers: the slowest
         * stage sets the pace.  The device lock admits one partition per device. */
        double synth = s->synth_s / n / (cfg->pw ? cfg->pw : 1);
        double dev = s->busy_s / n / (s->devices ? s->devices : 1);
        double fin = (s->final_s + s->verify_s) / n / (cfg->finalizers ? cfg->finalizers : 2);
        res->bound_s = synth > dev ? synth : dev;
        if (fin > res->bound_s) res->bound_s = fin;
    }
    free(parts), free(ids), free(proofs), free(inputs);
    return st;
}
