/* Jobs: submit, the job table (status, per-partition status, await, cancel), the
 * sorted partition lists, and the release rules that bring every counter back
 * down on every path (docs/engine.md, "Faults, cancel, self-check"). */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/error.h"
#include "common/fault.h"
#include "engine/jobs.h"

/* ---------------------------------------------------------------- lists */

static int part_before(const g16_part *x, const g16_part *y)
{
    if (x->job->prio != y->job->prio) return x->job->prio < y->job->prio;
    if (x->job->seq != y->job->seq) return x->job->seq < y->job->seq;
    return x->index < y->index;
}

void g16_part_insert(g16_part **list, g16_part *p)
{
    while (*list && !part_before(p, *list)) list = &(*list)->next;
    p->next = *list;
    *list = p;
}

g16_part *g16_part_pop(g16_part **list)
{
    g16_part *p = *list;
    if (p) *list = p->next, p->next = NULL;
    return p;
}

/* ---------------------------------------------------------------- release */

void g16_part_put_buf(g16_engine *e, g16_buf *b, g16_counter c)
{
    if (!b->bytes) return;
    if (b->p) {
        g16_tracker_add(&e->tr, c, -(int64_t)b->bytes);
        g16_bufpool_put(e, b); /* stays charged, as an idle pool buffer */
    } else {
        g16_budget_charge(e, -(int64_t)b->bytes); /* reserved, never mapped */
    }
    b->p = NULL;
    b->bytes = 0;
}

static void end_job(g16_engine *e, g16_job *j)
{
    if (j->state == G16_JOB_DONE || j->state == G16_JOB_FAILED || j->state == G16_JOB_CANCELLED) return;
    double now = g16_engine_now(e);
    if (!j->dead) {
        j->state = G16_JOB_DONE;
        e->jobs_done++;
    } else if (j->error == G16_ERR_CANCELLED) {
        j->state = G16_JOB_CANCELLED;
        e->jobs_cancelled++;
    } else {
        j->state = G16_JOB_FAILED;
        e->jobs_failed++;
    }
    j->t_end = now;
    g16_keyent_job_out(e, j->kent);
    for (uint32_t i = 0; i < j->n_parts; i++) g16_objs_unref(e, &j->parts[i]);
    j->kent = NULL;
    g16_key_release(j->key);
    j->key = NULL;
    if (--e->live_jobs == 0) {
        e->active_s += now - e->active_since;
        e->active_since = -1;
    }
    if (e->cfg.debug)
        fprintf(stderr, "engine: job %" PRIu64 " ended: %s%s%s\n", j->id,
                j->state == G16_JOB_DONE ? "done" : j->state == G16_JOB_CANCELLED ? "cancelled" : "failed",
                j->state == G16_JOB_FAILED ? ": " : "", j->state == G16_JOB_FAILED ? j->message : "");
    pthread_cond_broadcast(&e->cv);
}

void g16_job_part_out(g16_engine *e, g16_job *j)
{
    j->inflight--;
    if (j->inflight == 0 && j->queued == 0 && (j->dead || j->finished == j->n_parts)) end_job(e, j);
}

void g16_part_release_holdings(g16_engine *e, g16_part *p)
{
    g16_part_put_buf(e, &p->a, G16_CTR_ABC_BYTES);
    g16_part_put_buf(e, &p->b, G16_CTR_ABC_BYTES);
    g16_part_put_buf(e, &p->c, G16_CTR_ABC_BYTES);
    g16_part_put_buf(e, &p->z, G16_CTR_ASSIGN_BYTES);
    if (p->held_aux) {
        g16_tracker_add(&e->tr, G16_CTR_AUX_BYTES, -(int64_t)p->held_aux);
        g16_budget_charge(e, -(int64_t)p->held_aux);
        p->held_aux = 0;
    }
    if (p->held_scratch) {
        g16_budget_charge(e, -(int64_t)p->held_scratch);
        p->held_scratch = 0;
    }
    g16_part_unuse_shared(e, p);
    pthread_cond_broadcast(&e->cv);
}

void g16_part_enter(g16_part *p, g16_part_stage s, double now)
{
    if (p->pstage < G16_PART_ACTIVE_STAGES) p->pstage_s[p->pstage] += now - p->pstage_t;
    p->pstage = s;
    p->pstage_t = now;
}

/* A partition that leaves without its proof ends as its job does. */
static void part_end(g16_engine *e, g16_part *p)
{
    if (p->pstage >= G16_PART_DONE) return;
    g16_part_enter(p, p->job->error == G16_ERR_CANCELLED ? G16_PART_CANCELLED : G16_PART_FAILED,
                   g16_engine_now(e));
}

void g16_part_release(g16_engine *e, g16_part *p)
{
    part_end(e, p);
    g16_part_release_holdings(e, p);
    g16_trace_counters(e);
    g16_tracker_log(&e->tr, "released", p->job->id, p->index);
    g16_job_part_out(e, p->job);
}

static void unlink_part(g16_part **list, g16_part *p)
{
    for (; *list; list = &(*list)->next)
        if (*list == p) {
            *list = p->next;
            p->next = NULL;
            return;
        }
}

void g16_job_drop_queued(g16_engine *e, g16_job *j)
{
    for (uint32_t i = 0; i < j->n_parts; i++) {
        g16_part *p = &j->parts[i];
        if (p->stage == G16_STAGE_QUEUE && j->queued) {
            unlink_part(&e->queue, p);
            p->stage = G16_STAGE_COUNT; /* dropped */
            part_end(e, p);
            j->queued--;
        }
    }
    /* Waiting partitions hold their full reservation: dropping them frees it now. */
    for (uint32_t i = 0; i < j->n_parts; i++) {
        g16_part *p = &j->parts[i];
        if (p->stage == G16_STAGE_WAIT) {
            unlink_part(&e->waiting, p);
            g16_tracker_add(&e->tr, G16_CTR_WAITING, -1);
            if (p->early && !p->abc_done) {
                /* published early, its synthesis still writing a, b, c: back to the
                 * synthesis worker, which releases it when done */
                p->stage = G16_STAGE_SYNTH;
                continue;
            }
            p->stage = G16_STAGE_COUNT;
            g16_part_release(e, p);
        }
    }
    if (j->inflight == 0 && j->queued == 0) end_job(e, j);
}

void g16_job_fail(g16_engine *e, g16_job *j, g16_stage stage, g16_status st, const char *msg)
{
    if (j->dead) return;
    j->dead = 1;
    j->error = st;
    snprintf(j->stage, sizeof j->stage, "%s", g16_stage_name(stage));
    snprintf(j->message, sizeof j->message, "%s", msg);
    g16_job_drop_queued(e, j);
}

/* ---------------------------------------------------------------- submit */

static g16_status check_part(const g16_key *k, const g16_partition *pp, size_t i)
{
    if (!pp->circuit || (!pp->witness && !pp->witness_path && !pp->witness_fill))
        return g16_fail(G16_ERR_ARG, "engine: partition %zu has no circuit or witness", i);
    const g16_circuit *c = pp->circuit;
    uint64_t wn;
    uint32_t wpub;
    if (!pp->witness && !pp->witness_path) { /* the producer writes exactly the circuit's variables */
        wn = g16_circuit_vars(c);
        wpub = c->n_pub;
    } else if (pp->witness) {
        wn = pp->witness->n;
        wpub = pp->witness->n_pub;
    } else if (g16_witness_peek(&wn, &wpub, pp->witness_path) != G16_OK) {
        return g16_fail_ctx(G16_ERR_ARG, "engine: partition %zu", i);
    }
    if (wn != g16_circuit_vars(c) || wpub != c->n_pub)
        return g16_fail(G16_ERR_ARG, "engine: partition %zu: witness of %" PRIu64 " values (%u public) for a "
                        "circuit of %" PRIu64 " variables (%u public)", i, wn, wpub,
                        g16_circuit_vars(c), c->n_pub);
    uint64_t N = 1ull << g16_domain_log(g16_circuit_rows(c));
    if (k->vk.n_ic != 1ull + c->n_pub || k->n_l != c->n_aux || k->n_h + 1 != N)
        return g16_fail(G16_ERR_ARG, "engine: partition %zu: circuit (%u inputs, %u aux, domain %" PRIu64
                        ") does not fit the key (%zu ic, %zu l, %zu h points)", i, c->n_pub, c->n_aux, N,
                        k->vk.n_ic, k->n_l, k->n_h);
    return G16_OK;
}

void g16_parts_free(g16_part *ps, size_t n)
{
    for (size_t i = 0; ps && i < n; i++) {
        free(ps[i].wit_path);
        free(ps[i].pub);
    }
    free(ps);
}

g16_status g16_engine_submit(g16_engine *e, uint64_t *id, g16_key *key, const g16_partition *parts,
                             size_t n, g16_priority prio)
{
    *id = 0;
    if (!e || !key || !parts || n == 0 || n > UINT32_MAX || (unsigned)prio > G16_PRIO_LOW)
        return g16_fail(G16_ERR_ARG, "engine submit: need a key, at least one partition and a priority");
    for (size_t i = 0; i < n; i++) G16_TRY(check_part(key, &parts[i], i));
    g16_job *j = g16_calloc(1, sizeof *j);
    g16_part *ps = g16_calloc(n, sizeof *ps);
    uint8_t *proofs = g16_calloc(n, G16_PROOF_BYTES);
    g16_keyent *kn = g16_calloc(1, sizeof *kn);
    if (!j || !ps || !proofs || !kn) {
        free(j), g16_parts_free(ps, n), free(proofs), free(kn);
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
        if (!p->wit && !parts[i].witness_path) {
            p->fill = parts[i].witness_fill;
            p->fill_user = parts[i].witness_user;
        } else if (!p->wit && !(p->wit_path = strdup(parts[i].witness_path))) {
            free(j), g16_parts_free(ps, n), free(proofs), free(kn);
            return g16_fail(G16_ERR_NOMEM, "engine submit: out of memory");
        }
        p->stage = G16_STAGE_QUEUE;
        g16_part_size(p, e);
        size_t cw = g16_circuit_charge_(p->circ) + (p->fill ? 0 : g16_witness_bytes_(p->circ));
        if (g16_part_total(p) + cw > worst + worst_cw) worst = g16_part_total(p), worst_cw = cw;
    }
    if (worst + worst_cw + kb > e->budget) {
        free(j), g16_parts_free(ps, n), free(proofs), free(kn);
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
        free(j), g16_parts_free(ps, n), free(proofs), free(kn);
        return g16_fail(G16_ERR_ARG, "engine submit: the engine is stopping");
    }
    for (size_t i = 0; i < n; i++) {
        g16_status st = g16_objs_ref(e, &ps[i]);
        if (st) {
            while (i--) g16_objs_unref(e, &ps[i]);
            pthread_mutex_unlock(&e->mu);
            free(j), g16_parts_free(ps, n), free(proofs), free(kn);
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
    j->fault_tag = g16_fault_tag();
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

int g16_job_ended(const g16_job *j)
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
    st->run_s = (g16_job_ended(j) ? j->t_end : g16_engine_now(e)) - j->t_submit;
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

/* With e->mu held: each partition's stage and seconds per stage, up to now. */
static void fill_parts(g16_engine *e, const g16_job *j, g16_part_status *out)
{
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
    fill_parts(e, j, out);
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
    g16_parts_free(j->parts, j->n_parts);
    free(j->proofs);
    free(j);
}

g16_status g16_engine_await(g16_engine *e, uint64_t id, double timeout_s, uint8_t *proofs, size_t cap,
                            g16_job_status *st_out)
{
    return g16_engine_await_parts(e, id, timeout_s, proofs, cap, st_out, NULL, 0);
}

g16_status g16_engine_await_parts(g16_engine *e, uint64_t id, double timeout_s, uint8_t *proofs,
                                  size_t cap, g16_job_status *st_out, g16_part_status *parts,
                                  size_t parts_cap)
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
    if (parts && parts_cap < j->n_parts) {
        pthread_mutex_unlock(&e->mu);
        return g16_fail(G16_ERR_ARG, "engine await: job %" PRIu64 " has %u partitions, room for %zu",
                        id, j->n_parts, parts_cap);
    }
    if (proofs && cap < (size_t)j->n_parts * G16_PROOF_BYTES) {
        pthread_mutex_unlock(&e->mu);
        return g16_fail(G16_ERR_ARG, "engine await: job %" PRIu64 " makes %zu proof bytes, buffer holds %zu",
                        id, (size_t)j->n_parts * G16_PROOF_BYTES, cap);
    }
    j->awaited = 1; /* one waiter per job: it alone may forget the job */
    int timed_out = 0;
    while (!g16_job_ended(j)) {
        int rc = timeout_s < 0 ? pthread_cond_wait(&e->cv, &e->mu)
                               : pthread_cond_timedwait(&e->cv, &e->mu, &dl);
        if (rc == ETIMEDOUT && !g16_job_ended(j)) {
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
    if (parts) fill_parts(e, j, parts);
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
    if (!g16_job_ended(j) && !j->dead) {
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

