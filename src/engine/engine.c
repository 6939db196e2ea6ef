/* The engine's public entry points: create/destroy, submit, await, cancel,
 * status and stats.  The stage workers are in workers.c, the buffer pool in
 * bufpool.c, the timeline in trace.c. */
#include <errno.h>
#include <inttypes.h>
#include <malloc.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "backend/backend.h"
#include "groth16/ops.h"
#include "common/error.h"
#include "engine/engine.h"

static double mono(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

double g16_engine_now(const g16_engine *e)
{
    return mono() - e->t0;
}

const char *g16_stage_name(g16_stage s)
{
    static const char *const names[G16_STAGE_COUNT] = {"queue",  "synthesis", "wait",
                                                       "device", "finalize",  "verify"};
    return (unsigned)s < G16_STAGE_COUNT ? names[s] : "?";
}

g16_status g16_priority_parse(g16_priority *out, const char *name)
{
    static const char *const names[] = {"critical", "high", "normal", "low"};
    for (int i = 0; i < 4; i++)
        if (!strcmp(name, names[i])) {
            *out = (g16_priority)i;
            return G16_OK;
        }
    return g16_fail(G16_ERR_ARG, "unknown priority '%s' (critical, high, normal, low)", name);
}

void g16_engine_config_default(g16_engine_config *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->verify = -1;
}

void g16_engine_set_hooks(g16_engine *e, const g16_engine_hooks *hooks)
{
    pthread_mutex_lock(&e->mu);
    if (hooks)
        e->hooks = *hooks;
    else
        memset(&e->hooks, 0, sizeof e->hooks), e->hooks.fail_stage = -1;
    e->fixed = e->fixed_open + e->hooks.dev_host_fixed;
    e->budget = e->cfg.budget_bytes > e->fixed ? e->cfg.budget_bytes - e->fixed : 0;
    pthread_mutex_unlock(&e->mu);
}

static unsigned online_cpus(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : (unsigned)n;
}

static void stop_workers(g16_engine *e)
{
    pthread_mutex_lock(&e->mu);
    e->stop = 1;
    pthread_cond_broadcast(&e->cv);
    pthread_mutex_unlock(&e->mu);
    for (unsigned i = 0; i < e->n_workers; i++)
        if (e->workers[i].started) pthread_join(e->workers[i].thread, NULL);
}

static void free_engine(g16_engine *e)
{
    if (e->workers)
        for (unsigned i = 0; i < e->n_workers; i++)
            if (e->workers[i].kind == 0) g16_pool_destroy(e->workers[i].pool);
    if (e->devs)
        for (unsigned d = 0; d < e->n_devs; d++) {
            g16_pool_destroy(e->devs[d].pool);
            g16_backend_close(e->devs[d].be);
            pthread_mutex_destroy(&e->devs[d].lock);
        }
    while (e->jobs) {
        g16_job *j = e->jobs;
        e->jobs = j->next;
        free(j->parts);
        free(j->proofs);
        free(j);
    }
    g16_keys_free(e);
    while (e->objs) {
        g16_objent *o = e->objs;
        e->objs = o->next;
        free(o);
    }
    g16_trace_free(&e->trace);
    pthread_mutex_destroy(&e->trace.mu);
    pthread_cond_destroy(&e->cv);
    pthread_mutex_destroy(&e->mu);
    free(e->workers);
    free(e->devs);
    free((char *)e->cfg.trace_path);
    free(e);
}

g16_status g16_engine_create(g16_engine **out, const g16_engine_config *cfg_in)
{
    *out = NULL;
    g16_engine_config cfg;
    if (cfg_in)
        cfg = *cfg_in;
    else
        g16_engine_config_default(&cfg);
    if (!cfg.pw) cfg.pw = 1;
    if (!cfg.gw) cfg.gw = 1;
    if (!cfg.finalizers) cfg.finalizers = 2;
    /* Devices: GPUs with the CUDA backend, else CPU "devices" (each with its own
     * lock and thread pool, running the CPU backend). */
    int use_cuda = 0;
    if (cfg.backend != G16_BACKEND_CPU) {
        char desc[256];
        int gpus = g16_cuda_built() ? g16_cuda_devices(desc, sizeof desc) : 0;
        if (cfg.backend == G16_BACKEND_CUDA && gpus <= 0)
            return g16_fail(G16_ERR_BACKEND, "engine: backend cuda: %s",
                            g16_cuda_built() ? "no GPU is visible" : "this build has no CUDA backend");
        use_cuda = gpus > 0;
        if (use_cuda && !cfg.devices) cfg.devices = (unsigned)gpus;
        if (use_cuda && cfg.devices > (unsigned)gpus)
            return g16_fail(G16_ERR_ARG, "engine: %u devices asked, %d GPUs visible", cfg.devices,
                            gpus);
    }
    if (!cfg.devices) cfg.devices = 1;
    if (!cfg.max_ahead) cfg.max_ahead = cfg.pw + 2 * cfg.devices * cfg.gw;
    if (cfg.pw > 1024 || cfg.gw > 64 || cfg.devices > 64 || cfg.finalizers > 256)
        return g16_fail(G16_ERR_ARG, "engine: pw %u (max 1024), gw %u (max 64), devices %u (max 64), "
                        "finalizers %u (max 256)", cfg.pw, cfg.gw, cfg.devices, cfg.finalizers);
    unsigned cpus = online_cpus();
    /* A GPU worker's thread launches kernels and waits on them: if synthesis took
     * every core, each of its wake-ups would queue behind synthesis threads and the
     * GPU would idle between kernels.  So synthesis leaves one core per GPU worker. */
    unsigned feeders = use_cuda ? cfg.devices * cfg.gw : 0;
    unsigned synth_cpus = cpus > feeders ? cpus - feeders : 1;
    if (!cfg.synth_threads) cfg.synth_threads = synth_cpus / cfg.pw ? synth_cpus / cfg.pw : 1;
    if (!cfg.device_threads) cfg.device_threads = cpus;
    if (!cfg.budget_bytes) {
        long pages = sysconf(_SC_PHYS_PAGES), pg = sysconf(_SC_PAGESIZE);
        cfg.budget_bytes = pages > 0 && pg > 0 ? (uint64_t)pages * (uint64_t)pg / 2 : (1ull << 32);
    }

#ifdef M_MMAP_THRESHOLD
    /* glibc raises its mmap threshold each time a mapped block is freed, after
     * which the prover's large temporary buffers (the H step's N-entry arrays) come
     * from malloc arenas and stay resident when freed: the bench measured RSS
     * creeping up by 250 MB over ten 2^18 runs.  A fixed 1 MiB threshold sends every
     * large block to mmap, so freeing it gives the memory back at once. */
    mallopt(M_MMAP_THRESHOLD, 1 << 20);
#endif
    g16_engine *e = calloc(1, sizeof *e);
    if (!e) return g16_fail(G16_ERR_NOMEM, "engine: out of memory");
    pthread_mutex_init(&e->mu, NULL);
    pthread_cond_init(&e->cv, NULL);
    pthread_mutex_init(&e->trace.mu, NULL);
    e->cfg = cfg;
    e->cfg.trace_path = NULL;
    e->hooks.fail_stage = -1;
    e->budget = cfg.budget_bytes;
    e->next_id = 1;
    e->t0 = mono();
    e->active_since = -1;
    e->tr.debug = cfg.debug;
    {
        /* G16_ENGINE_PRELOAD=0: no upload at submit (the first device stage copies the
         * key itself, as before issue 22), for A/B runs */
        const char *v = getenv("G16_ENGINE_PRELOAD");
        e->preload = !(v && !strcmp(v, "0"));
    }
    g16_status st = G16_OK;
    if (cfg.trace_path && !(e->cfg.trace_path = strdup(cfg.trace_path))) {
        st = g16_fail(G16_ERR_NOMEM, "engine: out of memory");
        goto fail;
    }
    e->n_devs = cfg.devices;
    e->devs = calloc(e->n_devs, sizeof *e->devs);
    e->n_workers = cfg.pw + cfg.devices * cfg.gw + cfg.finalizers;
    e->workers = calloc(e->n_workers, sizeof *e->workers);
    if (!e->devs || !e->workers) {
        st = g16_fail(G16_ERR_NOMEM, "engine: out of memory");
        goto fail;
    }
    for (unsigned d = 0; d < e->n_devs; d++) {
        e->devs[d].index = d;
        e->devs[d].first_start = -1;
        pthread_mutex_init(&e->devs[d].lock, NULL);
        if ((st = g16_pool_create(&e->devs[d].pool, cfg.device_threads))) goto fail;
        if ((st = g16_backend_open(&e->devs[d].be, use_cuda ? G16_BACKEND_CUDA : G16_BACKEND_CPU,
                                   (int)d)))
            goto fail;
        if (use_cuda && !e->pin_be) e->pin_be = e->devs[d].be;
        const g16_backend_ops *ops = e->devs[d].be->ops;
        if (ops->host_fixed) e->fixed += ops->host_fixed(e->devs[d].be);
    }
    if (e->fixed >= cfg.budget_bytes) {
        st = g16_fail(G16_ERR_NOMEM, "engine: the budget of %" PRIu64 " bytes does not even cover the "
                      "device backends' own host memory (%" PRIu64 " bytes)", cfg.budget_bytes, e->fixed);
        goto fail;
    }
    /* What partitions and keys may reserve: the budget less what the backends hold. */
    e->fixed_open = e->fixed;
    e->budget = cfg.budget_bytes - e->fixed;
    unsigned k = 0;
    for (unsigned i = 0; i < cfg.pw; i++, k++) {
        g16_worker *w = &e->workers[k];
        *w = (g16_worker){.e = e, .kind = 0, .index = i, .lane = 1 + i};
        if ((st = g16_pool_create(&w->pool, cfg.synth_threads))) goto fail;
    }
    for (unsigned d = 0; d < e->n_devs; d++)
        for (unsigned i = 0; i < cfg.gw; i++, k++)
            e->workers[k] = (g16_worker){.e = e, .kind = 1, .index = i, .dev = &e->devs[d],
                                         .pool = e->devs[d].pool, .lane = 2000 + d * 100 + i};
    for (unsigned i = 0; i < cfg.finalizers; i++, k++)
        e->workers[k] = (g16_worker){.e = e, .kind = 2, .index = i, .lane = 3000 + i};
    if ((st = g16_bufpool_start(e))) goto fail;
    if ((st = g16_keys_start(e))) goto fail;
    for (unsigned i = 0; i < e->n_workers; i++) {
        if (pthread_create(&e->workers[i].thread, NULL, g16_worker_main, &e->workers[i]) != 0) {
            st = g16_fail(G16_ERR_INTERNAL, "engine: cannot start worker thread %u", i);
            goto fail;
        }
        e->workers[i].started = 1;
    }
    *out = e;
    return G16_OK;
fail:
    stop_workers(e);
    g16_keys_stop(e);
    g16_bufpool_stop(e);
    free_engine(e);
    return st;
}

/* ---------------------------------------------------------------- submit */

static g16_status check_part(const g16_key *k, const g16_partition *pp, size_t i)
{
    if (!pp->circuit || !pp->witness)
        return g16_fail(G16_ERR_ARG, "engine: partition %zu has no circuit or witness", i);
    const g16_circuit *c = pp->circuit;
    const struct g16_witness *w = pp->witness;
    if (w->n != g16_circuit_vars(c) || w->n_pub != c->n_pub)
        return g16_fail(G16_ERR_ARG, "engine: partition %zu: witness of %" PRIu64 " values (%u public) for a "
                        "circuit of %" PRIu64 " variables (%u public)", i, w->n, w->n_pub,
                        g16_circuit_vars(c), c->n_pub);
    uint64_t N = 1ull << g16_domain_log(g16_circuit_rows(c));
    if (k->vk.n_ic != 1ull + c->n_pub || k->n_l != c->n_aux || k->n_h + 1 != N)
        return g16_fail(G16_ERR_ARG, "engine: partition %zu: circuit (%u inputs, %u aux, domain %" PRIu64
                        ") does not fit the key (%zu ic, %zu l, %zu h points)", i, c->n_pub, c->n_aux, N,
                        k->vk.n_ic, k->n_l, k->n_h);
    return G16_OK;
}

g16_status g16_engine_submit(g16_engine *e, uint64_t *id, g16_key *key, const g16_partition *parts,
                             size_t n, g16_priority prio)
{
    *id = 0;
    if (!e || !key || !parts || n == 0 || n > UINT32_MAX || (unsigned)prio > G16_PRIO_LOW)
        return g16_fail(G16_ERR_ARG, "engine submit: need a key, at least one partition and a priority");
    for (size_t i = 0; i < n; i++) G16_TRY(check_part(key, &parts[i], i));
    g16_job *j = calloc(1, sizeof *j);
    g16_part *ps = calloc(n, sizeof *ps);
    uint8_t *proofs = calloc(n, G16_PROOF_BYTES);
    g16_keyent *kn = calloc(1, sizeof *kn);
    if (!j || !ps || !proofs || !kn) {
        free(j), free(ps), free(proofs), free(kn);
        return g16_fail(G16_ERR_NOMEM, "engine submit: out of memory");
    }
    /* The most one partition can need with its key, circuit and witness: if that
     * exceeds what the budget leaves to partitions, the job can never run. */
    size_t kb = g16_key_bytes(key), worst = 0, worst_cw = 0;
    for (size_t i = 0; i < n; i++) {
        g16_part *p = &ps[i];
        p->job = j;
        p->index = (uint32_t)i;
        p->circ = parts[i].circuit;
        p->wit = parts[i].witness;
        p->stage = G16_STAGE_QUEUE;
        g16_part_size(p, e);
        size_t cw = g16_circuit_bytes(p->circ) + g16_witness_bytes_(p->circ);
        if (g16_part_total(p) + cw > worst + worst_cw) worst = g16_part_total(p), worst_cw = cw;
    }
    if (worst + worst_cw + kb > e->budget) {
        free(j), free(ps), free(proofs), free(kn);
        char why[160] = "";
        if (e->fixed)
            snprintf(why, sizeof why, " (%" PRIu64 " less the device backends' own %" PRIu64 ")",
                     e->budget + e->fixed, e->fixed);
        return g16_fail(G16_ERR_NOMEM, "engine submit: a partition needs %zu bytes: %zu of its own, %zu for "
                        "its circuit and witness and %zu for the key, more than the %" PRIu64 " bytes of the "
                        "budget that partitions may use%s: this job can never run",
                        worst + worst_cw + kb, worst, worst_cw, kb, e->budget, why);
    }

    pthread_mutex_lock(&e->mu);
    if (e->stop) {
        pthread_mutex_unlock(&e->mu);
        free(j), free(ps), free(proofs), free(kn);
        return g16_fail(G16_ERR_ARG, "engine submit: the engine is stopping");
    }
    for (size_t i = 0; i < n; i++) {
        g16_status st = g16_objs_ref(e, &ps[i]);
        if (st) {
            while (i--) g16_objs_unref(e, &ps[i]);
            pthread_mutex_unlock(&e->mu);
            free(j), free(ps), free(proofs), free(kn);
            return st;
        }
    }
    g16_keyent *ke = e->keys;
    while (ke && ke->key != key) ke = ke->next;
    if (!ke) {
        ke = kn;
        kn = NULL;
        ke->key = key;
        ke->bytes = kb;
        ke->next = e->keys;
        e->keys = ke;
    }
    free(kn);
    ke->jobs++;
    g16_key_retain(key);
    j->id = e->next_id++;
    j->seq = e->next_seq++;
    j->prio = prio;
    j->key = key;
    j->kent = ke;
    j->n_parts = (uint32_t)n;
    j->parts = ps;
    j->proofs = proofs;
    j->state = G16_JOB_QUEUED;
    j->verify = e->cfg.verify < 0 ? n > 1 : e->cfg.verify;
    j->t_submit = g16_engine_now(e);
    j->next = e->jobs;
    e->jobs = j;
    for (size_t i = 0; i < n; i++) {
        ps[i].t_stage = j->t_submit;
        ps[i].pstage_t = j->t_submit;
        ps[i].pstage = G16_PART_QUEUED;
        g16_part_insert(&e->queue, &ps[i]);
    }
    /* The key travels to the devices while the first partitions synthesize, so the
     * first device stage finds it there (a no-op when it is resident already). */
    if (e->preload) g16_keys_upload(e, key);
    j->queued = (uint32_t)n;
    if (e->live_jobs++ == 0) e->active_since = j->t_submit;
    *id = j->id;
    pthread_cond_broadcast(&e->cv);
    pthread_mutex_unlock(&e->mu);
    if (e->cfg.debug)
        fprintf(stderr, "engine: job %" PRIu64 " submitted: %zu partitions, priority %d, %zu bytes each, key %zu bytes\n",
                *id, n, (int)prio, worst, kb);
    return G16_OK;
}

/* ---------------------------------------------------------------- jobs */

static g16_job *find_job(g16_engine *e, uint64_t id)
{
    for (g16_job *j = e->jobs; j; j = j->next)
        if (j->id == id) return j;
    return NULL;
}

static int job_ended(const g16_job *j)
{
    return j->state == G16_JOB_DONE || j->state == G16_JOB_FAILED || j->state == G16_JOB_CANCELLED;
}

static void fill_status(g16_engine *e, g16_job_status *st, const g16_job *j)
{
    memset(st, 0, sizeof *st);
    st->state = j->state;
    st->priority = j->prio;
    st->partitions = j->n_parts;
    st->synthesized = j->synthesized;
    st->proved = j->proved;
    st->finished = j->finished;
    st->retries = j->retries;
    st->error = j->error;
    memcpy(st->stage, j->stage, sizeof st->stage);
    memcpy(st->message, j->message, sizeof st->message);
    st->queued_s = (j->t_start > 0 ? j->t_start : g16_engine_now(e)) - j->t_submit;
    st->run_s = (job_ended(j) ? j->t_end : g16_engine_now(e)) - j->t_submit;
}

g16_status g16_engine_job_status(g16_engine *e, g16_job_status *st, uint64_t id)
{
    pthread_mutex_lock(&e->mu);
    g16_job *j = find_job(e, id);
    if (j) fill_status(e, st, j);
    pthread_mutex_unlock(&e->mu);
    return j ? G16_OK : g16_fail(G16_ERR_ARG, "engine: no job %" PRIu64, id);
}

const char *g16_part_stage_name(g16_part_stage s)
{
    static const char *const names[] = {"queued", "synthesis", "waiting", "device",
                                        "finalize", "done",   "failed",  "cancelled"};
    return (unsigned)s < sizeof names / sizeof names[0] ? names[s] : "?";
}

g16_status g16_engine_job_parts(g16_engine *e, uint64_t id, g16_part_status *out, size_t cap)
{
    pthread_mutex_lock(&e->mu);
    g16_job *j = find_job(e, id);
    if (!j || cap < j->n_parts) {
        uint32_t n = j ? j->n_parts : 0;
        pthread_mutex_unlock(&e->mu);
        return j ? g16_fail(G16_ERR_ARG, "engine job parts: job %" PRIu64 " has %u partitions, room "
                            "for %zu", id, n, cap)
                 : g16_fail(G16_ERR_ARG, "engine job parts: no job %" PRIu64, id);
    }
    double now = g16_engine_now(e);
    for (uint32_t i = 0; i < j->n_parts; i++) {
        const g16_part *p = &j->parts[i];
        g16_part_status *o = &out[i];
        o->stage = p->pstage;
        o->stage_name = g16_part_stage_name(p->pstage);
        o->attempt = p->attempt;
        memcpy(o->stage_s, p->pstage_s, sizeof o->stage_s);
        if (p->pstage < G16_PART_ACTIVE_STAGES) o->stage_s[p->pstage] += now - p->pstage_t;
    }
    pthread_mutex_unlock(&e->mu);
    return G16_OK;
}

static void forget_job(g16_engine *e, g16_job *j)
{
    for (g16_job **pp = &e->jobs; *pp; pp = &(*pp)->next)
        if (*pp == j) {
            *pp = j->next;
            break;
        }
    free(j->parts);
    free(j->proofs);
    free(j);
}

g16_status g16_engine_await(g16_engine *e, uint64_t id, double timeout_s, uint8_t *proofs, size_t cap,
                            g16_job_status *st_out)
{
    struct timespec dl;
    clock_gettime(CLOCK_REALTIME, &dl);
    if (timeout_s >= 0) {
        double t = dl.tv_sec + dl.tv_nsec * 1e-9 + timeout_s;
        dl.tv_sec = (time_t)t;
        dl.tv_nsec = (long)((t - (double)dl.tv_sec) * 1e9);
        if (dl.tv_nsec >= 1000000000L) dl.tv_sec++, dl.tv_nsec -= 1000000000L;
    }
    pthread_mutex_lock(&e->mu);
    g16_job *j = find_job(e, id);
    if (!j || j->awaited) {
        pthread_mutex_unlock(&e->mu);
        return g16_fail(G16_ERR_ARG, "engine await: no job %" PRIu64, id);
    }
    if (proofs && cap < (size_t)j->n_parts * G16_PROOF_BYTES) {
        pthread_mutex_unlock(&e->mu);
        return g16_fail(G16_ERR_ARG, "engine await: job %" PRIu64 " makes %zu proof bytes, buffer holds %zu",
                        id, (size_t)j->n_parts * G16_PROOF_BYTES, cap);
    }
    j->awaited = 1; /* one waiter per job: it alone may forget the job */
    int timed_out = 0;
    while (!job_ended(j)) {
        int rc = timeout_s < 0 ? pthread_cond_wait(&e->cv, &e->mu)
                               : pthread_cond_timedwait(&e->cv, &e->mu, &dl);
        if (rc == ETIMEDOUT && !job_ended(j)) {
            timed_out = 1;
            break;
        }
    }
    g16_job_status st;
    fill_status(e, &st, j);
    if (st_out) *st_out = st;
    if (timed_out) {
        j->awaited = 0;
        pthread_mutex_unlock(&e->mu);
        return g16_fail(G16_ERR_TIMEOUT, "engine await: job %" PRIu64 " still running after %.3f s", id,
                        timeout_s);
    }
    if (st.state == G16_JOB_DONE && proofs) memcpy(proofs, j->proofs, (size_t)j->n_parts * G16_PROOF_BYTES);
    forget_job(e, j);
    pthread_mutex_unlock(&e->mu);
    if (st.state == G16_JOB_DONE) return G16_OK;
    if (st.state == G16_JOB_CANCELLED) return g16_fail(G16_ERR_CANCELLED, "engine: job %" PRIu64 " was cancelled", id);
    return g16_fail(st.error ? st.error : G16_ERR_INTERNAL, "%s", st.message);
}

g16_status g16_engine_cancel(g16_engine *e, uint64_t id)
{
    pthread_mutex_lock(&e->mu);
    g16_job *j = find_job(e, id);
    if (!j) {
        pthread_mutex_unlock(&e->mu);
        return g16_fail(G16_ERR_ARG, "engine cancel: no job %" PRIu64, id);
    }
    if (!job_ended(j) && !j->dead) {
        j->dead = 1;
        j->error = G16_ERR_CANCELLED;
        snprintf(j->stage, sizeof j->stage, "cancel");
        snprintf(j->message, sizeof j->message, "job %" PRIu64 " cancelled", id);
        g16_job_drop_queued(e, j);
    }
    pthread_cond_broadcast(&e->cv);
    pthread_mutex_unlock(&e->mu);
    return G16_OK;
}

/* ---------------------------------------------------------------- stats */

void g16_engine_stats_get(g16_engine *e, g16_engine_stats *st)
{
    memset(st, 0, sizeof *st);
    for (int c = 0; c < G16_CTR_COUNT; c++) {
        st->cur[c] = atomic_load(&e->tr.cur[c]);
        st->peak[c] = atomic_load(&e->tr.peak[c]);
    }
    pthread_mutex_lock(&e->mu);
    st->budget_bytes = e->budget + e->fixed;
    st->fixed_bytes = e->fixed;
    st->jobs_done = e->jobs_done;
    st->jobs_failed = e->jobs_failed;
    st->jobs_cancelled = e->jobs_cancelled;
    st->proofs = e->proofs;
    st->retries = e->retries;
    st->active_s = e->active_s + (e->active_since >= 0 ? g16_engine_now(e) - e->active_since : 0);
    double span = 0;
    for (unsigned d = 0; d < e->n_devs; d++) {
        st->busy_s += e->devs[d].busy_s;
        for (int k = 0; k < 6; k++) st->dev_part_s[k] += e->devs[d].part_s[k];
        st->dev_proofs += e->devs[d].part_n;
        if (e->devs[d].first_start >= 0) span += e->devs[d].last_end - e->devs[d].first_start;
    }
    st->device_busy_steady = span > 0 ? st->busy_s / span : 0;
    st->synth_s = e->synth_s;
    st->final_s = e->final_s;
    st->verify_s = e->verify_s;
    st->devices = e->n_devs;
    st->pw = e->cfg.pw;
    st->gw = e->cfg.gw;
    pthread_mutex_unlock(&e->mu);
    st->s_per_proof = st->proofs ? st->active_s / (double)st->proofs : 0;
    st->device_busy = st->active_s > 0 ? st->busy_s / (st->active_s * st->devices) : 0;
}

void g16_engine_stats_print(const g16_engine_stats *st, void *file)
{
    FILE *f = file ? file : stdout;
    fprintf(f, "engine: %" PRIu64 " proofs in %.3f s: %.3f s/proof, device busy %.1f%% (steady %.1f%%; "
               "%u device%s, pw %u, gw %u)\n",
            st->proofs, st->active_s, st->s_per_proof, 100 * st->device_busy,
            100 * st->device_busy_steady, st->devices, st->devices == 1 ? "" : "s", st->pw, st->gw);
    fprintf(f, "engine: jobs done %" PRIu64 ", failed %" PRIu64 ", cancelled %" PRIu64 ", self-check retries %" PRIu64
               "; budget %.1f MiB (device backends' own %.1f MiB)\n",
            st->jobs_done, st->jobs_failed, st->jobs_cancelled, st->retries, st->budget_bytes / 1048576.0,
            st->fixed_bytes / 1048576.0);
    if (st->dev_proofs && st->proofs) {
        /* Device time per returned proof (as bench pipeline's device_s, CPU retries
         * included) and what prove_start's parts took per device stage; the rest of a
         * stage is host work. */
        const double n = (double)st->dev_proofs, *p = st->dev_part_s;
        fprintf(f, "engine: device stage %.3f s/proof: H step %.3f, MSM H %.3f, L %.3f, A %.3f, B1 %.3f, "
                   "B2 %.3f\n",
                st->busy_s / (double)st->proofs, p[0] / n, p[1] / n, p[2] / n, p[3] / n, p[4] / n,
                p[5] / n);
    }
    fprintf(f, "%-16s %14s %14s\n", "counter", "current", "peak");
    for (int c = 0; c < G16_CTR_COUNT; c++) {
        const char *n = g16_counter_name((g16_counter)c);
        if (c >= G16_CTR_ABC_BYTES)
            fprintf(f, "%-16s %12.2f M %12.2f M\n", n, st->cur[c] / 1048576.0, st->peak[c] / 1048576.0);
        else
            fprintf(f, "%-16s %14" PRId64 " %14" PRId64 "\n", n, st->cur[c], st->peak[c]);
    }
}

void g16_engine_trim(g16_engine *e)
{
    pthread_mutex_lock(&e->mu);
    g16_bufpool_evict(e, 0, 0, 0, 0);
    g16_bufpool_wait_freer(e);
    pthread_mutex_unlock(&e->mu);
}

/* ---------------------------------------------------------------- destroy */

void g16_engine_destroy(g16_engine *e, int drain)
{
    if (!e) return;
    pthread_mutex_lock(&e->mu);
    if (!drain)
        for (g16_job *j = e->jobs; j; j = j->next)
            if (!job_ended(j) && !j->dead) {
                j->dead = 1;
                j->error = G16_ERR_CANCELLED;
                snprintf(j->stage, sizeof j->stage, "cancel");
                snprintf(j->message, sizeof j->message, "job %" PRIu64 " cancelled by engine shutdown", j->id);
                g16_job_drop_queued(e, j);
            }
    for (;;) {
        int busy = 0;
        for (g16_job *j = e->jobs; j; j = j->next) busy |= !job_ended(j);
        if (!busy) break;
        pthread_cond_wait(&e->cv, &e->mu);
    }
    pthread_mutex_unlock(&e->mu);
    stop_workers(e);
    g16_keys_stop(e);
    g16_bufpool_stop(e);
    if (e->cfg.trace_path) {
        g16_engine_stats st;
        g16_engine_stats_get(e, &st);
        if (g16_trace_write(e, e->cfg.trace_path, &st))
            fprintf(stderr, "engine: %s\n", g16_last_error());
    }
    free_engine(e);
#ifdef __GLIBC__
    /* What the workers' malloc arenas keep of freed blocks goes back to the OS with
     * the engine, not with the process. */
    malloc_trim(0);
#endif
}
