/* The engine's stage workers: synthesis (admission against the budget), device
 * (prove_start under the device lock) and finalizers (prove_finish, self-check),
 * with the release rules that bring every counter back down on every path. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/error.h"
#include "common/fault.h"
#include "engine/workers.h"

/* ---------------------------------------------------------------- hooks */

static int hook_match(uint64_t hj, int hp, const g16_part *p)
{
    return (hj == 0 || hj == p->job->id) && (hp < 0 || (uint32_t)hp == p->index);
}

/* Runs a stage's test hooks: the stage callback, the delay, and the injected error. */
static g16_status stage_hooks(g16_engine *e, g16_stage s, const g16_part *p)
{
    g16_engine_hooks h = e->hooks;
    if (h.on_stage) h.on_stage(h.user, s, p->job->id, p->index);
    if (h.delay_ms[s]) {
        struct timespec ts = {h.delay_ms[s] / 1000, (long)(h.delay_ms[s] % 1000) * 1000000L};
        nanosleep(&ts, NULL);
    }
    if (h.fail_stage == (int)s && hook_match(h.fail_job, h.fail_part, p))
        return g16_fail(G16_ERR_INTERNAL, "test hook: error injected in stage %s", g16_stage_name(s));
    return G16_OK;
}

static void fail_msg(char *out, size_t cap, const g16_part *p, g16_stage s)
{
    snprintf(out, cap, "job %" PRIu64 " partition %u, stage %s: %s", p->job->id, p->index,
             g16_stage_name(s), g16_last_error());
}

/* ---------------------------------------------------------------- synthesis */

/* Maps the buffers admission did not find idle (mu not held; bytes already charged). */
static g16_status map_buffers(g16_engine *e, g16_part *p)
{
    g16_buf *bufs[4] = {&p->a, &p->b, &p->c, &p->z};
    for (int i = 0; i < 4; i++) {
        if (bufs[i]->p) continue;
        g16_buf nb;
        G16_TRY(g16_bufpool_alloc(e, &nb, bufs[i]->bytes));
        pthread_mutex_lock(&e->mu);
        *bufs[i] = nb;
        g16_tracker_add(&e->tr, i < 3 ? G16_CTR_ABC_BYTES : G16_CTR_ASSIGN_BYTES, (int64_t)nb.bytes);
        pthread_mutex_unlock(&e->mu);
    }
    return G16_OK;
}

typedef struct copy_ctx {
    g16_fr *dst;
    const g16_fr *src;
} copy_ctx;

static void copy_range(void *vctx, size_t begin, size_t end, unsigned worker)
{
    const copy_ctx *c = vctx;
    memcpy(c->dst + begin, c->src + begin, (end - begin) * sizeof *c->dst);
}

/* p joins the waiting list for the devices at engine time t (mu held). */
static void enter_waiting(g16_engine *e, g16_part *p, double t)
{
    p->stage = G16_STAGE_WAIT;
    p->t_stage = t;
    g16_part_enter(p, G16_PART_WAITING, t);
    g16_tracker_add(&e->tr, G16_CTR_WAITING, 1);
    g16_part_insert(&e->waiting, p);
    g16_trace_counters(e);
    pthread_cond_broadcast(&e->cv);
}

/* The early device start (docs/engine.md): once z is written, p goes to the devices
 * if one would idle otherwise (nothing waiting, fewer device stages running than
 * workers on live devices), and its MSMs over z run while this worker computes a, b
 * and c; the device waits for them (abc_done) before its H step.  A single-partition
 * job then overlaps its synthesis with its MSMs, and every job's first partition
 * starts its device stage sooner.  mu not held. */
static void publish_early(g16_engine *e, g16_part *p)
{
    if (!e->early) return;
    pthread_mutex_lock(&e->mu);
    int64_t busy = g16_tracker_get(&e->tr, G16_CTR_DEVICE);
    if (!e->stop && !p->job->dead && !e->waiting && busy < (int64_t)e->live_devs * e->cfg.gw) {
        double t = g16_engine_now(e);
        p->early = 1;
        p->abc_done = 0;
        p->abc_st = G16_OK;
        p->abc_msg[0] = 0;
        e->early_starts++;
        enter_waiting(e, p, t);
    }
    pthread_mutex_unlock(&e->mu);
}

static g16_status fill_in_place(g16_part *p, g16_fr *z)
{
    g16_status st = p->fill(p->fill_user, p->index, z, p->n_vars);
    if (st != G16_OK) return g16_fail(st, "partition %u's witness: %s", p->index, g16_last_error());
    if (!g16_fr_is_one(&z[0]))
        return g16_fail(G16_ERR_INTERNAL, "partition %u's witness: z[0] is not 1", p->index);
    uint32_t n_pub = p->circ->n_pub;
    if (!p->pub && n_pub) {
        p->pub = g16_malloc(32ull * n_pub);
        if (!p->pub) return g16_fail(G16_ERR_NOMEM, "synthesis: no memory for the public inputs");
    }
    for (uint32_t i = 0; i < n_pub; i++) g16_fr_to_be(p->pub + 32ull * i, &z[1 + i]);
    p->n_pub = n_pub;
    return G16_OK;
}

static g16_status synthesize(g16_engine *e, g16_part *p)
{
    G16_TRY(stage_hooks(e, G16_STAGE_SYNTH, p));
    G16_TRY(map_buffers(e, p));
    /* The assignment: a real deployment computes the aux values here; ours come
     * with the witness and are copied into the device-readable buffer. */
    g16_fr *z = p->z.p;
    /* A witness given by its file is read now, once its bytes are charged, and freed as soon
     * as it is copied; its public inputs are kept for the self-check. */
    g16_witness *own = NULL;
    const g16_witness *w = p->wit;
    if (!w && p->fill) {
        /* written in place: no copy; the public inputs kept for the self-check */
        G16_TRY(fill_in_place(p, z));
    } else if (!w) {
        G16_TRY(g16_witness_load(&own, p->wit_path));
        if (!p->pub && own->n_pub) {
            p->pub = g16_malloc(32ull * own->n_pub);
            if (!p->pub) {
                g16_witness_destroy(own);
                return g16_fail(G16_ERR_NOMEM, "synthesis: no memory for the public inputs");
            }
            for (uint32_t i = 0; i < own->n_pub; i++) g16_witness_get(p->pub + 32ull * i, own, 1 + i);
        }
        p->n_pub = own->n_pub;
        w = own;
    }
    /* On the stage's threads: one thread copies ≈ 10 GB/s (32 MB in 3.3 ms at 2^20 on
     * the dev machine), so a 2^27 partition's 4.3 GB alone would be ≈ 0.4 s of the span. */
    if (w) {
        copy_ctx cc = {z, w->z};
        g16_parallel_for(p->n_vars, (size_t)1 << 17, copy_range, &cc);
    }
    g16_witness_destroy(own);
    const g16_density *d; /* before an early start: the device's MSMs read the bitmaps */
    G16_TRY(g16_part_density(e, p, &d));
    publish_early(e, p);
    if (p->early) {
        g16_engine_hooks h = e->hooks;
        if (h.abc_delay_ms) {
            struct timespec ts = {h.abc_delay_ms / 1000, (long)(h.abc_delay_ms % 1000) * 1000000L};
            nanosleep(&ts, NULL);
        }
        if (h.abc_fail && hook_match(h.fail_job, h.fail_part, p))
            return g16_fail(G16_ERR_INTERNAL, "test hook: error injected after the early start");
    }
    return g16_synthesize(p->a.p, p->b.p, p->c.p, p->circ, z, p->n_vars);
}

/* Admission under the job's fault tag: its charge entries are the job's allocations. */
static int admit_tagged(g16_engine *e, g16_part *p)
{
    uint64_t old = g16_fault_scope(p->job->fault_tag);
    int ok = g16_admit(e, p);
    g16_fault_scope(old);
    return ok;
}

static void synth_loop(g16_worker *w)
{
    g16_engine *e = w->e;
    pthread_mutex_lock(&e->mu);
    for (;;) {
        g16_part *p = NULL;
        while (!e->stop) {
            /* Synthesis runs at most max_ahead partitions ahead of the devices: more
             * would hold memory (and, with GPUs, fresh page-locked buffers whose
             * registration stalls the driver) for partitions no device can take yet. */
            int64_t ahead = g16_tracker_get(&e->tr, G16_CTR_SYNTH) + g16_tracker_get(&e->tr, G16_CTR_WAITING);
            if (e->queue && ahead < (int64_t)e->cfg.max_ahead && admit_tagged(e, e->queue)) {
                p = g16_part_pop(&e->queue);
                break;
            }
            pthread_cond_wait(&e->cv, &e->mu);
        }
        if (!p) break;
        g16_job *j = p->job;
        j->queued--;
        j->inflight++;
        if (j->state == G16_JOB_QUEUED) {
            j->state = G16_JOB_RUNNING;
            j->t_start = g16_engine_now(e);
        }
        double t = g16_engine_now(e);
        g16_trace_span(e, "queued", p->t_stage, t, 0, p);
        p->stage = G16_STAGE_SYNTH;
        p->early = 0; /* a rerouted or retried partition is synthesized again */
        g16_part_enter(p, G16_PART_SYNTHESIS, t);
        g16_tracker_add(&e->tr, G16_CTR_SYNTH, 1);
        g16_trace_counters(e);
        g16_tracker_log(&e->tr, "admitted", j->id, p->index);
        pthread_mutex_unlock(&e->mu);

        g16_fault_scope(j->fault_tag);
        g16_status st = synthesize(e, p);
        g16_fault_scope(0);
        char msg[256];
        if (st) fail_msg(msg, sizeof msg, p, G16_STAGE_SYNTH);
        double t1 = g16_engine_now(e);
        g16_trace_span(e, "synthesis", t, t1, w->lane, p);

        pthread_mutex_lock(&e->mu);
        e->synth_s += t1 - t;
        g16_tracker_add(&e->tr, G16_CTR_SYNTH, -1);
        if (p->early) {
            /* Published early: the waiting list or a device has p; only its a, b, c
             * were this worker's.  A job that died meanwhile left p to us (its stage
             * set back to synthesis by g16_job_drop_queued). */
            p->abc_done = 1;
            p->abc_st = st;
            if (st) {
                snprintf(p->abc_msg, sizeof p->abc_msg, "%s", msg);
                g16_job_fail(e, j, G16_STAGE_SYNTH, st, msg);
            } else {
                j->synthesized++;
            }
            if (p->stage == G16_STAGE_SYNTH) {
                p->stage = G16_STAGE_COUNT;
                g16_part_release(e, p);
            }
            g16_trace_counters(e);
            pthread_cond_broadcast(&e->cv);
            continue;
        }
        if (st) g16_job_fail(e, j, G16_STAGE_SYNTH, st, msg);
        if (j->dead) {
            p->stage = G16_STAGE_COUNT;
            g16_part_release(e, p);
            continue;
        }
        j->synthesized++;
        enter_waiting(e, p, t1);
    }
    pthread_mutex_unlock(&e->mu);
}

/* ---------------------------------------------------------------- device */

typedef struct release_ctx {
    g16_engine *e;
    g16_part *p;
} release_ctx;

/* prove_start hands each of a, b, c back here as soon as the H step has read it. */
static void release_abc(void *user, g16_fr *buf)
{
    release_ctx *r = user;
    g16_engine *e = r->e;
    g16_part *p = r->p;
    pthread_mutex_lock(&e->mu);
    g16_buf *abc[3] = {&p->a, &p->b, &p->c};
    for (int i = 0; i < 3; i++)
        if (abc[i]->p == (void *)buf) g16_part_put_buf(e, abc[i], G16_CTR_ABC_BYTES);
    g16_trace_counters(e);
    pthread_mutex_unlock(&e->mu);
}

/* prove_start's wait for an early partition's a, b, c (its synthesis worker sets
 * abc_done on every path, so the wait ends). */
static g16_status wait_abc(void *user)
{
    release_ctx *r = user;
    pthread_mutex_lock(&r->e->mu);
    while (!r->p->abc_done) pthread_cond_wait(&r->e->cv, &r->e->mu);
    g16_status st = r->p->abc_st;
    pthread_mutex_unlock(&r->e->mu);
    return st ? g16_fail(st, "%s", r->p->abc_msg) : G16_OK;
}

/* Whether an early partition's a, b, c are written (prove_start's abc_ready: a GPU then
 * moves them beside its last MSM).  Called under the backend's lock, so it never waits for
 * the engine's: busy, it answers "not yet" (they go up after that MSM, as before). */
static int ready_abc(void *user)
{
    release_ctx *r = user;
    if (pthread_mutex_trylock(&r->e->mu) != 0) return 0;
    int done = r->p->abc_done;
    pthread_mutex_unlock(&r->e->mu);
    return done;
}

/* The device stage's prover: the device's backend (a GPU, or the CPU backend on
 * the device's pool); the retry of a failed self-check runs on the CPU. */
static g16_status device_prove(g16_engine *e, g16_worker *w, g16_part *p, int cpu_only)
{
    release_ctx rc = {e, p};
    g16_prove_input in = {
        .density = &p->cent->dens, /* ready since synthesis; kept while p is admitted */
        .a = p->a.p, .b = p->b.p, .c = p->c.p,
        .n_rows = p->rows,
        .release = release_abc,
        .release_user = &rc,
        .z = p->z.p,
        .n_z = p->n_vars,
        .rs = NULL,
        .backend = cpu_only ? NULL : w->dev->be,
        .abc_wait = p->early ? wait_abc : NULL,
        .abc_ready = p->early ? ready_abc : NULL,
        .abc_user = &rc,
    };
    if (e->hooks.on_device_pool) e->hooks.on_device_pool(e->hooks.user, g16_pool_current());
    g16_device *d = w->dev;
    unsigned nth = cpu_only ? 0 : ++d->started; /* under d->lock */
    g16_status st = g16_prove_start(&p->pending, p->job->key, &in);
    if (st == G16_OK) {
        st = stage_hooks(e, G16_STAGE_DEVICE, p);
        if (st == G16_OK && nth && nth == e->hooks.dev_fail_at[d->index])
            st = g16_fail(G16_ERR_BACKEND, "test hook: device %u failed at its device stage %u", d->index, nth);
        if (st) {
            g16_pending_free(p->pending);
            p->pending = NULL;
        }
    }
    return st;
}

/* A backend error on a device (not the CPU retry, not an injected stage error) is the
 * device's fault, not the partition's: the device is taken out and the partition
 * goes to another one.  Other errors (bad input, no memory) fail the job as before. */
static int device_fault(g16_status st, const g16_part *p)
{
    return st == G16_ERR_BACKEND && p->attempt == 0;
}

/* Takes device d out (mu held): no worker of it takes work again.  Returns 1 when d is
 * out (now or before), 0 when it is the last device left: that one stays, and its
 * errors fail their jobs as on a one-device engine, so an engine never ends up with
 * no device (every later job failing or waiting) after a transient error. */
static int device_out(g16_engine *e, g16_device *d, const char *msg)
{
    if (d->failed) return 1;
    if (e->live_devs <= 1) return 0;
    d->failed = 1;
    e->live_devs--;
    fprintf(stderr, "engine: device %u taken out after an error (%u left): %s\n", d->index, e->live_devs, msg);
    return 1;
}

/* Sends p, taken by a worker of a failed device, back to the others (mu held).  It
 * goes through synthesis again: a failed prove_start may have consumed a, b, c
 * (the CUDA H step, the CPU backend's in-place transforms). */
static void reroute(g16_engine *e, g16_part *p)
{
    g16_job *j = p->job;
    e->reroutes++;
    g16_part_release_holdings(e, p);
    j->synthesized--;
    p->stage = G16_STAGE_QUEUE;
    p->t_stage = g16_engine_now(e);
    g16_part_enter(p, G16_PART_QUEUED, p->t_stage);
    j->queued++;
    g16_part_insert(&e->queue, p);
    j->inflight--;
    g16_trace_counters(e);
    pthread_cond_broadcast(&e->cv);
}

/* prove_start's parts in the order they run (B2 only where the backend runs it
 * inside prove_start): the stats' dev_part_s and the trace's nested spans. */
static void device_parts(double v[6], const g16_prove_times *pt)
{
    v[0] = pt->h_ntt, v[1] = pt->msm_h, v[2] = pt->msm_l, v[3] = pt->msm_a, v[4] = pt->msm_b1;
    v[5] = pt->b2_in_start ? pt->msm_b2 : 0;
}

/* The parts as spans inside the device span, so a trace shows how much of the
 * device stage is GPU work and how much is not. */
static void trace_device_parts(g16_engine *e, const double v[6], double t, unsigned lane,
                               const g16_part *p, int dev)
{
    static const char *const names[6] = {"h step", "msm h", "msm l", "msm a", "msm b1", "msm b2"};
    for (int k = 0; k < 6; k++) {
        if (v[k] <= 0) continue;
        g16_trace_span_dev(e, names[k], t, t + v[k], lane, p, dev);
        t += v[k];
    }
}

static void device_loop(g16_worker *w)
{
    g16_engine *e = w->e;
    g16_device *d = w->dev;
    pthread_mutex_lock(&e->mu);
    for (;;) {
        while (!e->stop && (d->failed || !e->waiting)) pthread_cond_wait(&e->cv, &e->mu);
        g16_part *p = e->stop ? NULL : g16_part_pop(&e->waiting);
        if (!p) break;
        g16_job *j = p->job;
        double t = g16_engine_now(e);
        g16_trace_span(e, "waiting", p->t_stage, t, 0, p);
        g16_tracker_add(&e->tr, G16_CTR_WAITING, -1);
        g16_tracker_add(&e->tr, G16_CTR_DEVICE, 1);
        pthread_cond_broadcast(&e->cv); /* one less ahead: a synthesis may start */
        g16_tracker_add(&e->tr, G16_CTR_DEVICE_BYTES, (int64_t)p->scratch_bytes);
        p->stage = G16_STAGE_DEVICE;
        g16_part_enter(p, G16_PART_DEVICE, t);
        pthread_mutex_unlock(&e->mu);

        pthread_mutex_lock(&d->lock);
        pthread_mutex_lock(&e->mu);
        int gone = d->failed; /* taken out while this worker waited for its lock */
        pthread_mutex_unlock(&e->mu);
        if (gone) {
            /* Untouched: its a, b, c and z are whole, so it waits for another device. */
            pthread_mutex_unlock(&d->lock);
            pthread_mutex_lock(&e->mu);
            g16_tracker_add(&e->tr, G16_CTR_DEVICE, -1);
            g16_tracker_add(&e->tr, G16_CTR_DEVICE_BYTES, -(int64_t)p->scratch_bytes);
            e->reroutes++;
            enter_waiting(e, p, g16_engine_now(e));
            if (j->dead) g16_job_drop_queued(e, j);
            continue;
        }
        double tb = g16_engine_now(e);
        g16_fault_scope(j->fault_tag);
        g16_status st = device_prove(e, w, p, p->attempt > 0);
        g16_fault_scope(0);
        if (p->early) {
            /* a failed early proof: prove_start waited for a, b, c before releasing them
             * (abc_wait); wait here too, since nothing below may reroute p before its
             * synthesis has ended */
            pthread_mutex_lock(&e->mu);
            while (!p->abc_done) pthread_cond_wait(&e->cv, &e->mu);
            pthread_mutex_unlock(&e->mu);
        }
        double te = g16_engine_now(e);
        g16_prove_times pt = g16_last_prove_times; /* this thread's prove_start */
        char msg[256];
        if (st) fail_msg(msg, sizeof msg, p, G16_STAGE_DEVICE);
        int out = 0; /* d taken out: p goes to another device */
        if (st && device_fault(st, p) && !(p->early && p->abc_st != G16_OK)) {
            /* out before its lock goes: a worker waiting for it must see it failed */
            pthread_mutex_lock(&e->mu);
            out = device_out(e, d, msg);
            pthread_mutex_unlock(&e->mu);
            if (!out && e->n_devs > 1)
                snprintf(msg + strlen(msg), sizeof msg - strlen(msg), " (device %u, the last one left)", d->index);
        }
        pthread_mutex_unlock(&d->lock);
        g16_trace_span_dev(e, p->attempt ? "device (cpu retry)" : "device", tb, te, w->lane, p, (int)d->index);
        int parts = !st && !p->attempt;
        double pv[6];
        device_parts(pv, &pt);
        if (parts) trace_device_parts(e, pv, tb, w->lane, p, (int)d->index);

        int dead;
        pthread_mutex_lock(&e->mu);
        d->busy_s += te - tb;
        if (st) d->errors++;
        else d->stages++;
        if (parts) {
            for (int k = 0; k < 6; k++) d->part_s[k] += pv[k];
            d->part_n++;
        }
        if (d->first_start < 0) d->first_start = tb;
        d->last_end = te;
        g16_tracker_add(&e->tr, G16_CTR_DEVICE, -1);
        g16_tracker_add(&e->tr, G16_CTR_DEVICE_BYTES, -(int64_t)p->scratch_bytes);
        /* prove_start freed its own working buffers and is done with z and the bitmaps. */
        g16_budget_charge(e, -(int64_t)p->held_scratch);
        p->held_scratch = 0;
        g16_part_put_buf(e, &p->z, G16_CTR_ASSIGN_BYTES);
        g16_part_put_buf(e, &p->a, G16_CTR_ABC_BYTES); /* no-ops unless prove_start kept one (it must not) */
        g16_part_put_buf(e, &p->b, G16_CTR_ABC_BYTES);
        g16_part_put_buf(e, &p->c, G16_CTR_ABC_BYTES);
        if (out) {
            if (!j->dead) {
                reroute(e, p);
                continue;
            }
        } else if (st) {
            g16_job_fail(e, j, G16_STAGE_DEVICE, st, msg);
        }
        dead = j->dead;
        pthread_mutex_unlock(&e->mu);
        if (dead && p->pending) {
            g16_pending_free(p->pending); /* joins its thread: not under mu */
            p->pending = NULL;
        }
        pthread_mutex_lock(&e->mu);
        if (j->dead && p->pending) {
            /* cancelled or failed between the two locks: the pending proof would leak
             * (seen under ASan); no other thread touches p now */
            g16_pending *pd = p->pending;
            p->pending = NULL;
            pthread_mutex_unlock(&e->mu);
            g16_pending_free(pd);
            pthread_mutex_lock(&e->mu);
        }
        if (j->dead) {
            p->stage = G16_STAGE_COUNT;
            g16_part_release(e, p);
            continue;
        }
        j->proved++;
        p->stage = G16_STAGE_FINAL;
        p->t_stage = te;
        g16_part_enter(p, G16_PART_FINALIZE, te);
        g16_tracker_add(&e->tr, G16_CTR_FINAL, 1);
        if (e->finalq_tail)
            e->finalq_tail->next = p;
        else
            e->finalq = p;
        e->finalq_tail = p;
        g16_trace_counters(e);
        pthread_cond_broadcast(&e->cv);
    }
    pthread_mutex_unlock(&e->mu);
}

/* ---------------------------------------------------------------- finalizer */

static g16_status self_check(g16_engine *e, g16_part *p)
{
    const struct g16_witness *w = p->wit;
    if (!w) /* read from its file: the inputs were kept at synthesis */
        return g16_verify(g16_key_vk(p->job->key), p->proof, p->pub, p->n_pub);
    size_t n = w->n_pub;
    uint8_t *in = g16_malloc(n ? n * 32 : 1);
    if (!in) return g16_fail(G16_ERR_NOMEM, "self-check: out of memory");
    for (size_t i = 0; i < n; i++) g16_witness_get(in + 32 * i, w, 1 + i);
    g16_status st = g16_verify(g16_key_vk(p->job->key), p->proof, in, n);
    free(in);
    return st;
}

/* Returns: 1 when the self-check's status says the proof is wrong (it does not verify or
 * does not decode), 0 when the check itself could not run. */
static int verdict(g16_status st)
{
    return st != G16_ERR_NOMEM && st != G16_ERR_IO;
}

static void final_loop(g16_worker *w)
{
    g16_engine *e = w->e;
    pthread_mutex_lock(&e->mu);
    for (;;) {
        while (!e->stop && !e->finalq) pthread_cond_wait(&e->cv, &e->mu);
        g16_part *p = g16_part_pop(&e->finalq);
        if (!p) break;
        if (!e->finalq) e->finalq_tail = NULL;
        g16_job *j = p->job;
        double t = g16_engine_now(e);
        g16_trace_span(e, "finalizer queue", p->t_stage, t, 0, p);
        int dead = j->dead, verify = j->verify;
        pthread_mutex_unlock(&e->mu);

        g16_status st = G16_OK, vst = G16_OK;
        g16_stage where = G16_STAGE_FINAL;
        double t2 = 0;
        char msg[256] = "";
        g16_fault_scope(j->fault_tag);
        if (dead) {
            g16_pending_free(p->pending); /* cancelled at this boundary */
        } else {
            st = g16_prove_finish(p->proof, p->pending);
            if (st == G16_OK) st = stage_hooks(e, G16_STAGE_FINAL, p);
            if (st) fail_msg(msg, sizeof msg, p, G16_STAGE_FINAL);
        }
        p->pending = NULL;
        double t1 = g16_engine_now(e);
        g16_trace_span(e, "finalize", t, t1, w->lane, p);
        if (!dead && st == G16_OK) {
            const g16_engine_hooks *h = &e->hooks;
            if (h->wrong_attempts >> p->attempt & 1 && hook_match(h->wrong_job, h->wrong_part, p))
                p->proof[0] ^= 0x20; /* the sign flag: −A, a valid point and a wrong proof */
            if (verify) {
                where = G16_STAGE_VERIFY;
                vst = stage_hooks(e, G16_STAGE_VERIFY, p);
                if (vst == G16_OK) vst = self_check(e, p);
                if (vst) fail_msg(msg, sizeof msg, p, G16_STAGE_VERIFY);
                t2 = g16_engine_now(e);
                g16_trace_span(e, "verify", t1, t2, w->lane, p);
            }
        }
        g16_fault_scope(0);

        pthread_mutex_lock(&e->mu);
        e->final_s += t1 - t;
        if (t2 > 0) e->verify_s += t2 - t1;
        g16_tracker_add(&e->tr, G16_CTR_FINAL, -1);
        if (st) g16_job_fail(e, j, G16_STAGE_FINAL, st, msg);
        if (!j->dead && vst && !verdict(vst)) {
            /* The check could not run (no memory, no randomness): the proof may well be right,
             * so it is neither returned nor counted as a wrong proof redone on the CPU. */
            g16_job_fail(e, j, where, vst, msg);
        }
        if (!j->dead && vst) {
            size_t cpu_need = 3 * p->abc_each + p->z_bytes + p->aux_cpu + p->scratch_cpu +
                              j->kent->bytes + p->cent->bytes + p->went->bytes;
            if (p->attempt == 0 && cpu_need <= e->budget) {
                /* A wrong proof is never returned: redo this partition from
                 * synthesis on the CPU backend, once, and report it. */
                j->retries++;
                e->retries++;
                fprintf(stderr, "engine: %s; retrying on the CPU backend\n", msg);
                g16_part_release_holdings(e, p);
                p->attempt = 1;
                g16_part_attempt_sizes(p);
                p->stage = G16_STAGE_QUEUE;
                p->t_stage = g16_engine_now(e);
                g16_part_enter(p, G16_PART_QUEUED, p->t_stage);
                j->queued++;
                g16_part_insert(&e->queue, p);
                j->inflight--;
                pthread_cond_broadcast(&e->cv);
                continue;
            }
            if (p->attempt == 0) /* the CPU retry could never be admitted: say so */
                snprintf(msg + strlen(msg), sizeof msg - strlen(msg),
                         "; no CPU retry: it would need %zu bytes, more than the budget of %" PRIu64,
                         cpu_need, e->budget);
            g16_job_fail(e, j, where, vst, msg);
        }
        if (!j->dead) {
            memcpy(j->proofs + (size_t)p->index * G16_PROOF_BYTES, p->proof, G16_PROOF_BYTES);
            j->finished++;
            e->proofs++;
            g16_part_enter(p, G16_PART_DONE, g16_engine_now(e));
        }
        p->stage = G16_STAGE_COUNT;
        g16_part_release(e, p);
    }
    pthread_mutex_unlock(&e->mu);
}

void *g16_worker_main(void *arg)
{
    g16_worker *w = arg;
    g16_pool_set_current(w->pool);
    if (w->kind == 0)
        synth_loop(w);
    else if (w->kind == 1)
        device_loop(w);
    else
        final_loop(w);
    g16_pool_set_current(NULL);
    return NULL;
}
