/* The engine's life: configuration, create and destroy, the test hooks.  Jobs
 * (submit, status, await, cancel) are in jobs.c, the stage workers in workers.c,
 * the budget in budget.c, keys in keys.c, the buffer pool in bufpool.c, the
 * statistics in stats.c, the timeline in trace.c (engine.h says how they stack). */
#include <inttypes.h>
#include <malloc.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backend/backend.h"
#include "common/fault.h"
#include "groth16/ops.h"
#include "common/error.h"
#include "engine/workers.h"

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

g16_status g16_engine_parse_gpus(g16_engine_config *cfg, const char *list)
{
    unsigned n = 0;
    const char *s = list ? list : "";
    /* TEST-ONLY: a GPU listed twice gets two devices (two contexts sharing the card,
     * each with half its memory for keys), so one GPU can run the multi-device path. */
    const char *rv = getenv("G16_ENGINE_GPU_REPEAT");
    const int repeat = rv && !strcmp(rv, "1");
    while (*s) {
        char *end;
        unsigned long v = strtoul(s, &end, 10);
        if (end == s || *s == '-' || v > 1023 || (*end && *end != ','))
            return g16_fail(G16_ERR_ARG, "gpus '%s': expected CUDA ordinals separated by commas, like 0,1", list);
        for (unsigned i = 0; i < n && !repeat; i++)
            if (cfg->gpus[i] == v) return g16_fail(G16_ERR_ARG, "gpus '%s': GPU %lu listed twice", list, v);
        if (n == G16_ENGINE_MAX_DEVICES)
            return g16_fail(G16_ERR_ARG, "gpus '%s': more than %d GPUs", list, G16_ENGINE_MAX_DEVICES);
        cfg->gpus[n++] = (unsigned)v;
        s = *end ? end + 1 : end;
        if (*end && !*s) return g16_fail(G16_ERR_ARG, "gpus '%s': trailing comma", list);
    }
    if (!n) return g16_fail(G16_ERR_ARG, "gpus: empty list (expected CUDA ordinals like 0,1)");
    cfg->n_gpus = n;
    return G16_OK;
}

/* G16_ENGINE_DEVICE_FAIL="d:k[,d:k...]" (TEST-ONLY): the device failure hook from the
 * environment, so a CLI or GPU smoke can take a device out mid-run. */
static g16_status env_device_fail(g16_engine_hooks *h, unsigned n_devs)
{
    const char *v = getenv("G16_ENGINE_DEVICE_FAIL");
    if (!v || !*v) return G16_OK;
    for (const char *s = v; *s;) {
        unsigned d, k;
        int used = 0;
        if (sscanf(s, "%u:%u%n", &d, &k, &used) != 2 || d >= n_devs || !k || (s[used] && s[used] != ','))
            return g16_fail(G16_ERR_ARG, "G16_ENGINE_DEVICE_FAIL '%s': expected device:stage pairs like "
                            "1:3 (device below %u, stage from 1)", v, n_devs);
        h->dev_fail_at[d] = k;
        s += used + (s[used] == ',');
    }
    fprintf(stderr, "engine: TEST hook G16_ENGINE_DEVICE_FAIL=%s: devices will fail on purpose\n", v);
    return G16_OK;
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
    /* workers NULL: create failed before the table was allocated */
    for (unsigned i = 0; e->workers && i < e->n_workers; i++)
        if (e->workers[i].started) pthread_join(e->workers[i].thread, NULL);
}

static void free_engine(g16_engine *e)
{
    if (e->synth_pool)
        g16_pool_destroy(e->synth_pool);
    else if (e->workers)
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
        g16_parts_free(j->parts, j->n_parts);
        free(j->proofs);
        free(j);
    }
    g16_keys_free(e);
    while (e->objs) {
        g16_objent *o = e->objs;
        e->objs = o->next;
        g16_density_free(&o->dens);
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

g16_status g16_engine_pick_devices(g16_engine_config *cfg, int gpus, int *use_cuda)
{
    *use_cuda = 0;
    if (cfg->n_gpus > G16_ENGINE_MAX_DEVICES)
        return g16_fail(G16_ERR_ARG, "engine: %u GPUs listed (max %d)", cfg->n_gpus, G16_ENGINE_MAX_DEVICES);
    if (cfg->backend == G16_BACKEND_CPU) {
        if (cfg->n_gpus) return g16_fail(G16_ERR_ARG, "engine: GPUs listed with the CPU backend");
    } else {
        if ((cfg->backend == G16_BACKEND_CUDA || cfg->n_gpus) && gpus <= 0)
            return g16_fail(G16_ERR_BACKEND, "engine: backend cuda%s: %s", cfg->n_gpus ? " (GPUs listed)" : "",
                            g16_cuda_built() ? "no GPU is visible" : "this build has no CUDA backend");
        *use_cuda = gpus > 0;
    }
    if (*use_cuda && cfg->n_gpus) {
        /* A listed GPU may repeat (G16_ENGINE_GPU_REPEAT): the list, not the count of
         * visible GPUs, bounds the devices. */
        if (cfg->devices && cfg->devices != cfg->n_gpus)
            return g16_fail(G16_ERR_ARG, "engine: %u devices asked but %u GPUs listed", cfg->devices, cfg->n_gpus);
        cfg->devices = cfg->n_gpus;
        for (unsigned i = 0; i < cfg->n_gpus; i++)
            if (cfg->gpus[i] >= (unsigned)gpus)
                return g16_fail(G16_ERR_ARG, "engine: GPU %u listed, %d visible (0 .. %d; "
                                "CUDA_VISIBLE_DEVICES renumbers them)", cfg->gpus[i], gpus, gpus - 1);
    } else if (*use_cuda) {
        if (!cfg->devices) cfg->devices = (unsigned)gpus;
        if (cfg->devices > (unsigned)gpus)
            return g16_fail(G16_ERR_ARG, "engine: %u devices asked, %d GPUs visible", cfg->devices, gpus);
    }
    if (!cfg->devices) cfg->devices = 1;
    if (!*use_cuda) cfg->n_gpus = 0;
    return G16_OK;
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
    {
        char desc[256];
        int gpus = cfg.backend != G16_BACKEND_CPU && g16_cuda_built() ? g16_cuda_devices(desc, sizeof desc) : 0;
        G16_TRY(g16_engine_pick_devices(&cfg, gpus, &use_cuda));
    }
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
    /* Synthesis pools.  At pw ≥ 3 the workers share one pool of every synthesis CPU: with
     * a pool of CPUs / pw each, workers whose neighbours wait for admission (the budget)
     * left their threads idle — the H200's 2^27 run at pw 4 synthesized a partition in
     * 3.9 s on 3 threads while the GPU waited, 23.4–26.7 s a job against 18.5 s shared.
     * At pw ≤ 2 each keeps a pool of its own: there the shared pool made the device
     * stage 3–6% slower in two same-call A/Bs (synthesis at full width beside the device
     * stage's host work; docs/BENCHMARKS.md).  The shared pool runs one worker's parallel
     * section at a time; the workers' own threads still overlap their serial parts.
     * synth_threads > 0 always means a pool each of that size; G16_ENGINE_SYNTH_POOL=split
     * or =shared overrides the choice (A/B runs). */
    int split = cfg.synth_threads != 0 || cfg.pw <= 2;
    {
        const char *v = getenv("G16_ENGINE_SYNTH_POOL");
        if (v && !strcmp(v, "split")) split = 1;
        if (v && !strcmp(v, "shared") && !cfg.synth_threads) split = 0;
    }
    if (!cfg.synth_threads) cfg.synth_threads = split ? (synth_cpus / cfg.pw ? synth_cpus / cfg.pw : 1) : synth_cpus;
    /* A GPU device's pool only runs prove_start's host work; CPU devices each get
     * their share of the machine, so N of them do not run N × CPUs threads. */
    if (!cfg.device_threads)
        cfg.device_threads = use_cuda ? cpus : cpus / cfg.devices ? cpus / cfg.devices : 1;
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
    g16_engine *e = g16_calloc(1, sizeof *e);
    if (!e) return g16_fail(G16_ERR_NOMEM, "engine: out of memory");
    pthread_mutex_init(&e->mu, NULL);
    pthread_cond_init(&e->cv, NULL);
    pthread_mutex_init(&e->trace.mu, NULL);
    e->cfg = cfg;
    e->cfg.trace_path = NULL;
    e->hooks.fail_stage = -1;
    e->budget = cfg.budget_bytes;
    e->next_id = 1;
    e->t0 = g16_engine_mono();
    e->active_since = -1;
    e->tr.debug = cfg.debug;
    {
        /* G16_ENGINE_PRELOAD=0: no upload at submit (the first device stage copies the
         * key itself, as before issue 22), for A/B runs */
        const char *v = getenv("G16_ENGINE_PRELOAD");
        e->preload = !(v && !strcmp(v, "0"));
        /* G16_ENGINE_EARLY=0|1: a device starts a partition's MSMs while its a, b, c
         * are synthesized, when it would idle otherwise.  Default on with GPUs (the
         * MSMs run there while the CPU synthesizes); off with CPU devices, where both
         * would share the same cores. */
        v = getenv("G16_ENGINE_EARLY");
        e->early = v ? strcmp(v, "0") != 0 : use_cuda;
    }
    g16_status st = G16_OK;
    if (cfg.trace_path && !(e->cfg.trace_path = strdup(cfg.trace_path))) {
        st = g16_fail(G16_ERR_NOMEM, "engine: out of memory");
        goto fail;
    }
    e->n_devs = cfg.devices;
    e->live_devs = cfg.devices;
    if ((st = env_device_fail(&e->hooks, cfg.devices))) goto fail;
    e->devs = g16_calloc(e->n_devs, sizeof *e->devs);
    e->n_workers = cfg.pw + cfg.devices * cfg.gw + cfg.finalizers;
    e->workers = g16_calloc(e->n_workers, sizeof *e->workers);
    if (!e->devs || !e->workers) {
        st = g16_fail(G16_ERR_NOMEM, "engine: out of memory");
        goto fail;
    }
    for (unsigned d = 0; d < e->n_devs; d++) {
        e->devs[d].index = d;
        e->devs[d].gpu = !use_cuda ? -1 : cfg.n_gpus ? (int)cfg.gpus[d] : (int)d;
        e->devs[d].first_start = -1;
        pthread_mutex_init(&e->devs[d].lock, NULL);
        if ((st = g16_pool_create(&e->devs[d].pool, cfg.device_threads))) goto fail;
        if ((st = g16_backend_open(&e->devs[d].be, use_cuda ? G16_BACKEND_CUDA : G16_BACKEND_CPU,
                                   use_cuda ? e->devs[d].gpu : 0))) {
            st = g16_fail_ctx(st, "engine: device %u", d);
            goto fail;
        }
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
        if (!split) {
            if (!e->synth_pool && (st = g16_pool_create(&e->synth_pool, cfg.synth_threads))) goto fail;
            w->pool = e->synth_pool;
        } else if ((st = g16_pool_create(&w->pool, cfg.synth_threads))) {
            goto fail;
        }
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
        if (g16_thread_create(&e->workers[i].thread, g16_worker_main, &e->workers[i]) != 0) {
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

/* ---------------------------------------------------------------- destroy */

void g16_engine_destroy(g16_engine *e, int drain)
{
    if (!e) return;
    pthread_mutex_lock(&e->mu);
    if (!drain)
        for (g16_job *j = e->jobs; j; j = j->next)
            if (!g16_job_ended(j) && !j->dead) {
                j->dead = 1;
                j->error = G16_ERR_CANCELLED;
                snprintf(j->stage, sizeof j->stage, "cancel");
                snprintf(j->message, sizeof j->message, "job %" PRIu64 " cancelled by engine shutdown", j->id);
                g16_job_drop_queued(e, j);
            }
    for (;;) {
        int busy = 0;
        for (g16_job *j = e->jobs; j; j = j->next) busy |= !g16_job_ended(j);
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
