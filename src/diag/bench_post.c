/* g16 filecoin post-bench (bench_post.h). */
#include "diag/bench_post.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "backend/backend.h"
#include "common/error.h"
#include "common/fault.h"
#include "common/pool.h"
#include "diag/timing_key.h"
#include "filecoin/post_plan.h"
#include "groth16/ops.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static double cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void say(const g16_bench_post_args *a, const char *what, double s)
{
    if (a->progress) fprintf(stderr, "post-bench: %s %.3f s\n", what, s);
}

/* The overlapped synthesis: a thread computes a, b, c while prove_start runs the MSMs
 * over z; prove_start's abc_wait joins it. */
typedef struct synth_job {
    g16_fr **bufs;
    const g16_circuit *circ;
    const g16_witness *w;
    g16_status st;
    double secs;
    char msg[256];
    pthread_t th;
    int started, joined;
    int done; /* set (atomically) when the thread's work has ended */
} synth_job;

static void *synth_run(void *arg)
{
    synth_job *j = arg;
    double t = now();
    j->st = g16_synthesize(j->bufs[0], j->bufs[1], j->bufs[2], j->circ, j->w->z, j->w->n);
    if (j->st) snprintf(j->msg, sizeof j->msg, "%s", g16_last_error());
    j->secs = now() - t;
    __atomic_store_n(&j->done, 1, __ATOMIC_RELEASE);
    return NULL;
}

static int synth_ready(void *user)
{
    synth_job *j = user;
    return __atomic_load_n(&j->done, __ATOMIC_ACQUIRE);
}

static g16_status synth_join(void *user)
{
    synth_job *j = user;
    if (j->started && !j->joined) pthread_join(j->th, NULL);
    j->joined = 1;
    return j->st ? g16_fail(j->st, "%s", j->msg) : G16_OK;
}

static void keep_buffer(void *user, g16_fr *buf)
{
    (void)user, (void)buf;
}

/* a∘b = c on every row, in parallel; the first failing row is kept. */
typedef struct row_check {
    const g16_fr *a, *b, *c;
    uint64_t bad; /* UINT64_MAX: none */
    pthread_mutex_t mu;
} row_check;

static void check_range(void *ctx, size_t begin, size_t end, unsigned worker)
{
    row_check *rc = ctx;
    (void)worker;
    for (size_t i = begin; i < end; i++) {
        g16_fr t;
        g16_fr_mul(&t, &rc->a[i], &rc->b[i]);
        if (!g16_fr_eq(&t, &rc->c[i])) {
            pthread_mutex_lock(&rc->mu);
            if (i < rc->bad) rc->bad = i;
            pthread_mutex_unlock(&rc->mu);
            return;
        }
    }
}

static g16_status check_rows(const g16_fr *a, const g16_fr *b, const g16_fr *c, uint64_t rows)
{
    row_check rc = {a, b, c, UINT64_MAX, PTHREAD_MUTEX_INITIALIZER};
    g16_parallel_for(rows, 1 << 16, check_range, &rc);
    if (rc.bad != UINT64_MAX)
        return g16_fail(G16_ERR_UNSATISFIED, "post bench: row %llu: a·b != c (the witness does not satisfy it)",
                        (unsigned long long)rc.bad);
    return G16_OK;
}

/* --distinct: synthetic sector proofs made in parallel, one per sector id. */
typedef struct synth_vp {
    const g16_fc_post_config *cfg;
    g16_fc_vproof *v;
    pthread_mutex_t mu;
    g16_status st;
    char msg[256];
} synth_vp;

static void synth_vp_range(void *ctx, size_t begin, size_t end, unsigned worker)
{
    (void)worker;
    synth_vp *x = ctx;
    static const uint8_t rnd[32] = {0x5e, 0xed};
    for (size_t j = begin; j < end; j++) {
        uint8_t *buf = NULL;
        size_t len = 0;
        g16_status st = g16_fc_vproof_synth(&buf, &len, x->cfg, 1000 + j, rnd, (const uint8_t *)"post-bench", 10);
        if (st == G16_OK) st = g16_fc_vproof_parse(&x->v[j], buf, len, "synthetic sector proof");
        free(buf);
        if (st != G16_OK) {
            pthread_mutex_lock(&x->mu);
            if (x->st == G16_OK) {
                x->st = st;
                snprintf(x->msg, sizeof x->msg, "sector %zu: %s", j, g16_last_error());
            }
            pthread_mutex_unlock(&x->mu);
            return;
        }
    }
}

static g16_status make_distinct(g16_fc_vproof **out, unsigned m, const g16_fc_post_config *cfg)
{
    g16_fc_vproof *v = calloc(m, sizeof *v);
    if (!v) return g16_fail(G16_ERR_NOMEM, "post bench: %u synthetic sector proofs", m);
    synth_vp x = {cfg, v, PTHREAD_MUTEX_INITIALIZER, G16_OK, ""};
    g16_parallel_for(m, 1, synth_vp_range, &x);
    if (x.st != G16_OK) {
        for (unsigned j = 0; j < m; j++) g16_fc_vproof_free(&v[j]);
        free(v);
        return g16_fail(x.st, "post bench: %s", x.msg);
    }
    *out = v;
    return G16_OK;
}

g16_status g16_bench_post(g16_bench_post_result *out, const g16_bench_post_args *a)
{
    memset(out, 0, sizeof *out);
    g16_fc_post_config cfg;
    g16_fc_layout lay;
    G16_TRY(g16_fc_post_config_for(&cfg, a->kind, a->sector_size));
    G16_TRY(g16_fc_layout_for(&lay, &cfg));
    unsigned n = a->sectors ? a->sectors : lay.circuit_sectors;
    if (n > lay.circuit_sectors)
        return g16_fail(G16_ERR_ARG, "post bench: %u circuit sectors; a partition has %u", n, lay.circuit_sectors);
    if (!a->distinct && (a->v->n_sectors < 1 || a->v->sectors[0].n_incl < lay.challenges))
        return g16_fail(G16_ERR_ARG, "post bench: the vanilla proof has no sector proof with %u inclusion proofs",
                        lay.challenges);
    out->circuit_sectors = n;
    out->full_sectors = lay.circuit_sectors;
    out->reps = a->reps ? a->reps : 1;

    g16_backend *be = NULL;
    g16_fc_sector_ref *refs = calloc(n, sizeof *refs);
    g16_circuit *circ = NULL;
    g16_witness *w = NULL;
    g16_key *key = NULL;
    g16_density d = {0};
    g16_fr *bufs[3] = {NULL, NULL, NULL};
    g16_fc_vproof *distinct = NULL;
    g16_status st = refs ? G16_OK : g16_fail(G16_ERR_NOMEM, "post bench: refs");
    if (st == G16_OK) st = g16_backend_open(&be, (g16_backend_kind)a->backend, 0);
    if (st) goto done;
    snprintf(out->backend, sizeof out->backend, "%s", g16_backend_name(be));
    /* WinningPoSt's circuit sectors take one inclusion proof each, WindowPoSt's all of them */
    const g16_fc_vproof *src = a->v;
    unsigned n_src = 1;
    if (a->distinct) {
        /* WindowPoSt: a sector each; WinningPoSt: its one sector, of 66 challenges */
        n_src = a->kind == G16_FC_WINNING ? 1 : n;
        double t0 = now();
        if ((st = make_distinct(&distinct, n_src, &cfg))) goto done;
        out->distinct_sectors = n_src;
        out->distinct_secs = now() - t0;
        say(a, "synthetic sector proofs", out->distinct_secs);
    }
    for (unsigned j = 0; j < n; j++) {
        if (distinct) src = &distinct[a->kind == G16_FC_WINNING ? 0 : j];
        refs[j] = (g16_fc_sector_ref){src, 0, a->kind == G16_FC_WINNING ? j % src->sectors[0].n_incl : 0};
    }

    double t, c0;
    if (a->witness_only) {
        out->witness_only = 1;
        for (unsigned rep = 0; rep < out->reps; rep++) {
            g16_bench_post_stage s = {0};
            g16_witness_destroy(w);
            w = NULL;
            t = now(), c0 = cpu_now();
            if ((st = g16_fc_post_witness_n(&w, &out->witness_batched, &cfg, refs, n))) goto done;
            s.witness = now() - t, s.witness_cpu = cpu_now() - c0;
            s.total = s.witness;
            say(a, "witness", s.witness);
            out->witness_bytes = w->n * sizeof(g16_fr);
            if (rep == 0) out->first = s;
            if (rep == 0 || s.total < out->best.total) out->best = s;
        }
        goto usage;
    }
    t = now(), c0 = cpu_now();
    if ((st = g16_fc_post_circuit(&circ, &cfg, n))) goto done;
    out->matrices = now() - t, out->matrices_cpu = cpu_now() - c0;
    say(a, "matrices", out->matrices);
    out->rows = g16_circuit_rows(circ);
    out->inputs = 1 + (uint64_t)circ->n_pub;
    out->aux = circ->n_aux;
    out->domain = (uint64_t)1 << g16_domain_log(out->rows);
    out->terms = circ->a.row_start[circ->n_constraints] + circ->b.row_start[circ->n_constraints] +
                 circ->c.row_start[circ->n_constraints];
    out->matrix_bytes = g16_circuit_bytes(circ);
    t = now();
    if ((st = g16_circuit_density(&d, circ))) goto done;
    out->density = now() - t;
    out->aux_in_a = d.n_aux_in_a, out->aux_in_b = d.n_aux_in_b;
    say(a, "density", out->density);
    t = now();
    if ((st = g16_timing_key(&key, circ, &d))) goto done;
    out->key = now() - t;
    say(a, "TIMING-ONLY key", out->key);
    out->key_bytes = (key->vk.n_ic + key->n_h + key->n_l + key->n_a + key->n_b_g1) * sizeof(g16_g1_affine) +
                     key->n_b_g2 * sizeof(g16_g2_affine);
    t = now();
    if (be->ops->key_upload && (st = be->ops->key_upload(be, key))) goto done;
    out->upload = now() - t;
    say(a, "key upload", out->upload);

    size_t bytes = out->rows * sizeof(g16_fr);
    for (int i = 0; i < 3; i++) {
        if (!(bufs[i] = malloc(bytes))) {
            st = g16_fail(G16_ERR_NOMEM, "post bench: %zu bytes for a, b, c", bytes);
            goto done;
        }
        g16_backend_pin(be, bufs[i], bytes);
    }
    uint8_t proof[G16_PROOF_BYTES];
    for (unsigned rep = 0; rep < out->reps; rep++) {
        g16_bench_post_stage s = {0};
        if (w) {
            g16_backend_unpin(be, w->z);
            g16_witness_destroy(w);
            w = NULL;
        }
        t = now(), c0 = cpu_now();
        if ((st = g16_fc_post_witness_n(&w, &out->witness_batched, &cfg, refs, n))) goto done;
        s.witness = now() - t, s.witness_cpu = cpu_now() - c0;
        say(a, "witness", s.witness);
        out->witness_bytes = w->n * sizeof(g16_fr);
        /* z page-locked as an engine's pooled buffers are (not timed) */
        g16_backend_pin(be, w->z, out->witness_bytes);
        synth_job sj = {bufs, circ, w, G16_OK, 0, "", 0, 0, 0, 0};
        s.overlapped = a->overlap && rep > 0;
        if (!s.overlapped) {
            t = now(), c0 = cpu_now();
            if ((st = g16_synthesize(bufs[0], bufs[1], bufs[2], circ, w->z, w->n))) goto done;
            s.synth = now() - t, s.synth_cpu = cpu_now() - c0;
            say(a, "synthesis", s.synth);
        }
        if (rep == 0) {
            t = now();
            if ((st = check_rows(bufs[0], bufs[1], bufs[2], out->rows))) goto done;
            out->check = now() - t;
            out->rows_checked = out->rows;
        }
        g16_prove_input in = {0};
        in.a = bufs[0], in.b = bufs[1], in.c = bufs[2];
        in.release = keep_buffer;
        in.density = &d;
        in.n_rows = out->rows;
        in.z = w->z;
        in.n_z = w->n;
        in.backend = be;
        g16_pending *p;
        t = now();
        if (s.overlapped) {
            if (g16_thread_create(&sj.th, synth_run, &sj) != 0) {
                st = g16_fail(G16_ERR_NOMEM, "post bench: no thread for the synthesis");
                goto done;
            }
            sj.started = 1;
            in.abc_wait = synth_join;
            in.abc_ready = synth_ready;
            in.abc_user = &sj;
        }
        st = g16_prove_start(&p, key, &in);
        synth_join(&sj); /* joined already unless prove_start failed before its wait */
        if (st) goto done;
        if (s.overlapped) {
            out->overlapped_reps++;
            s.synth = sj.secs;
            say(a, "synthesis (beside the MSMs)", s.synth);
        }
        s.prove_start = now() - t;
        g16_prove_times ts = g16_last_prove_times;
        if ((st = g16_prove_finish(proof, p))) goto done;
        s.prove = now() - t;
        say(a, "proof", s.prove);
        g16_prove_times tf = g16_last_prove_times;
        s.h_ntt = ts.h_ntt, s.msm_h = ts.msm_h, s.msm_l = ts.msm_l, s.msm_a = ts.msm_a, s.msm_b1 = ts.msm_b1;
        s.msm_b2 = tf.msm_b2, s.assembly = tf.assembly, s.b2_in_start = ts.b2_in_start;
        s.total = s.witness + (s.overlapped ? 0 : s.synth) + s.prove;
        if (rep == 0) out->first = s;
        if (rep == 0 || s.total < out->best.total) out->best = s;
    }
usage:;
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    out->peak_rss_kb = ru.ru_maxrss;
done:
    for (int i = 0; i < 3; i++) {
        if (bufs[i]) g16_backend_unpin(be, bufs[i]);
        free(bufs[i]);
    }
    if (w) g16_backend_unpin(be, w->z);
    g16_witness_destroy(w);
    if (d.aux_in_a) g16_density_free(&d);
    g16_key_release(key);
    g16_circuit_destroy(circ);
    if (be) g16_backend_close(be);
    free(refs);
    for (unsigned j = 0; distinct && j < out->distinct_sectors; j++) g16_fc_vproof_free(&distinct[j]);
    free(distinct);
    return st;
}
