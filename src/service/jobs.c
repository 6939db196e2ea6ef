/* Jobs of the service: the table (every job held, any state), submission (validated and stored
 * before it is acknowledged), the dispatcher that hands queued jobs to the engine in priority
 * order, one waiter thread per job in the engine, cancellation, recovery after a restart and
 * the janitor that forgets finished jobs after their retention.
 *
 * Two queues: the service's (every accepted job, durable) and the engine's (the jobs handed to
 * it).  Only a few jobs are in the engine at once (max_inflight), since each holds its inputs
 * (circuits mapped, witnesses read); the engine orders their partitions by priority.  A CRITICAL
 * or HIGH job may exceed that limit by a few, so that it never waits for a PoRep to end. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "common/error.h"
#include "service/service.h"

#define URGENT_EXTRA 4 /* in-engine slots only CRITICAL and HIGH jobs may use */

const char *svc_state_name(svc_state st)
{
    static const char *const n[] = {"queued", "running", "done", "failed", "cancelled"};
    return (unsigned)st < 5 ? n[st] : "?";
}

int svc_state_parse(const char *name)
{
    for (int i = 0; i < 5; i++)
        if (!strcmp(name, svc_state_name((svc_state)i))) return i;
    return -1;
}

const char *svc_prio_name(g16_priority p)
{
    static const char *const n[] = {"critical", "high", "normal", "low"};
    return (unsigned)p < 4 ? n[p] : "?";
}

void svc_job_free(svc_job *j)
{
    if (!j) return;
    for (uint32_t i = 0; j->parts && i < j->n_parts; i++) {
        free(j->parts[i].circuit);
        free(j->parts[i].witness);
        free(j->parts[i].up_circuit);
        free(j->parts[i].up_witness);
        g16_circuit_destroy(j->parts[i].circ);
    }
    free(j->parts);
    svc_post_free(j->post);
    free(j->request_id);
    free(j->key);
    free(j->err_msg);
    free(j->proof);
    free(j->inputs);
    free(j);
}

/* ---------------------------------------------------------------- the table */
static size_t hash_id(const char *id, size_t cap)
{
    uint64_t h = 1469598103934665603ull;
    for (; *id; id++) h = (h ^ (uint8_t)*id) * 1099511628211ull;
    return (size_t)(h & (cap - 1));
}

static void table_grow(g16_service *s)
{
    size_t cap = s->table_cap ? s->table_cap * 2 : 1024;
    svc_job **t = calloc(cap, sizeof *t);
    if (!t) return; /* chains just get longer */
    for (size_t i = 0; i < s->table_cap; i++) {
        svc_job *j = s->table[i];
        while (j) {
            svc_job *next = j->hnext;
            size_t h = hash_id(j->id, cap);
            j->hnext = t[h];
            t[h] = j;
            j = next;
        }
    }
    free(s->table);
    s->table = t;
    s->table_cap = cap;
}

svc_job *svc_job_find(g16_service *s, const char *id)
{
    if (!s->table_cap) return NULL;
    for (svc_job *j = s->table[hash_id(id, s->table_cap)]; j; j = j->hnext)
        if (!strcmp(j->id, id)) return j;
    return NULL;
}

svc_job *svc_job_find_request(g16_service *s, const char *request_id)
{
    for (size_t i = 0; i < s->table_cap; i++)
        for (svc_job *j = s->table[i]; j; j = j->hnext)
            if (j->request_id && !strcmp(j->request_id, request_id)) return j;
    return NULL;
}

static int active(const svc_job *j) { return j->state == SVC_QUEUED || j->state == SVC_RUNNING; }

void svc_job_insert(g16_service *s, svc_job *j)
{
    if (s->n_jobs + 1 > s->table_cap * 3 / 4 || !s->table_cap) table_grow(s);
    size_t h = hash_id(j->id, s->table_cap);
    j->hnext = s->table[h];
    s->table[h] = j;
    s->n_jobs++;
    if (active(j)) s->n_active++;
    if (j->state == SVC_QUEUED) s->n_queued[j->prio]++;
}

void svc_job_remove(g16_service *s, svc_job *j)
{
    svc_job **pp = &s->table[hash_id(j->id, s->table_cap)];
    while (*pp && *pp != j) pp = &(*pp)->hnext;
    if (*pp) *pp = j->hnext;
    s->n_jobs--;
    if (active(j)) s->n_active--;
    if (j->state == SVC_QUEUED) s->n_queued[j->prio]--;
}

/* Moves j to state st (with s->mu held), keeping the counts. */
void svc_job_set_state(g16_service *s, svc_job *j, svc_state st)
{
    if (j->state == SVC_QUEUED) s->n_queued[j->prio]--;
    if (active(j) && st != SVC_QUEUED && st != SVC_RUNNING) {
        s->n_active--;
        j->finished = svc_now();
        s->m.finished[st]++;
        svc_hist_add(&s->m.run_s, j->finished - j->created);
        if (j->started) svc_hist_add(&s->m.queued_s, j->started - j->created);
    }
    j->state = st;
    if (st == SVC_QUEUED) s->n_queued[j->prio]++;
    pthread_cond_broadcast(&s->cv);
}

void svc_job_set_error(svc_job *j, const char *code, const char *msg)
{
    snprintf(j->err_code, sizeof j->err_code, "%s", code);
    free(j->err_msg);
    j->err_msg = svc_strdup(msg);
}

void svc_new_id(char out[SVC_ID_LEN + 1])
{
    uint8_t r[SVC_ID_LEN / 2];
    if (getrandom(r, sizeof r, 0) != (ssize_t)sizeof r) {
        /* no entropy source: time and a counter still give unique ids */
        static _Atomic uint64_t ctr;
        uint64_t t = (uint64_t)time(NULL), c = ++ctr;
        memcpy(r, &t, 8);
        memcpy(r + 8, &c, 8);
    }
    for (size_t i = 0; i < sizeof r; i++) sprintf(out + 2 * i, "%02x", r[i]);
}

/* ---------------------------------------------------------------- uploads */
void svc_uploads_remove(g16_service *s, const char *id)
{
    char dir[PATH_MAX], path[PATH_MAX + 320];
    snprintf(dir, sizeof dir, "%s/uploads/%s", s->data_dir, id);
    DIR *d = opendir(dir);
    if (!d) return;
    struct dirent *e;
    while ((e = readdir(d)))
        if (e->d_name[0] != '.') {
            snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
            unlink(path);
        }
    closedir(d);
    rmdir(dir);
}

static g16_status write_durable(const char *path, const uint8_t *b, size_t n)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0) return g16_fail(G16_ERR_IO, "%s: %s", path, strerror(errno));
    size_t done = 0;
    while (done < n) {
        ssize_t w = write(fd, b + done, n - done);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) break;
        done += (size_t)w;
    }
    int e = done == n && fsync(fd) == 0 ? 0 : errno ? errno : EIO;
    close(fd);
    return e ? g16_fail(G16_ERR_IO, "%s: %s", path, strerror(e)) : G16_OK;
}

/* Writes a job's uploaded inputs under DATA_DIR/uploads/ID (fsync'd before the job is
 * stored, so a restart finds them) and points the partitions at them. */
static g16_status write_uploads(g16_service *s, svc_job *d)
{
    int any = 0;
    for (uint32_t i = 0; i < d->n_parts; i++) any |= d->parts[i].up_circuit || d->parts[i].up_witness;
    if (!any) return G16_OK;
    char dir[PATH_MAX], path[PATH_MAX + 320];
    snprintf(dir, sizeof dir, "%s/uploads", s->data_dir);
    mkdir(dir, 0700);
    snprintf(dir, sizeof dir, "%s/uploads/%s", s->data_dir, d->id);
    if (mkdir(dir, 0700)) return g16_fail(G16_ERR_IO, "%s: %s", dir, strerror(errno));
    for (uint32_t i = 0; i < d->n_parts; i++) {
        svc_part *p = &d->parts[i];
        for (int k = 0; k < 2; k++) {
            uint8_t **buf = k ? &p->up_witness : &p->up_circuit;
            size_t len = k ? p->up_witness_len : p->up_circuit_len;
            if (!*buf) continue;
            snprintf(path, sizeof path, "%s/p%u.%s", dir, i, k ? (d->zkey ? "wtns" : "g16w") : "g16c");
            G16_TRY(write_durable(path, *buf, len));
            free(*buf);
            *buf = NULL;
            p->uploaded |= 1u << k;
            char **dst = k ? &p->witness : &p->circuit;
            free(*dst);
            *dst = svc_strdup(path);
        }
    }
    int fd = open(dir, O_RDONLY | O_DIRECTORY);
    if (fd >= 0) {
        fsync(fd);
        close(fd);
    }
    return G16_OK;
}

/* ---------------------------------------------------------------- submit */
/* The submit-time checks of one partition: both files resolve inside the roots, the witness's
 * header matches the circuit's counts.  The values are read when the job runs. */
/* A snarkjs partition: the .wtns resolves inside the roots, is of the key's curve, reads, and
 * (zvars: the key's signal count when the key is loaded, else 0) has the key circuit's length. */
static g16_status check_wtns(g16_service *s, svc_part *p, uint32_t idx, const char *key_path, uint32_t zvars,
                             int *http)
{
    *http = 403;
    if (!(p->uploaded & 2)) {
        char *w = NULL;
        if (svc_path_resolve(s, &w, p->witness) != G16_OK)
            return g16_fail_ctx(G16_ERR_ARG, "partition %u: wtns", idx);
        free(p->witness);
        p->witness = w;
    }
    *http = 422;
    if (svc_sj_check_wtns(p->witness, key_path, zvars) != G16_OK)
        return g16_fail_ctx(G16_ERR_ARG, "partition %u", idx);
    return G16_OK;
}

static g16_status check_part(g16_service *s, svc_part *p, uint32_t idx, int *http)
{
    char *c = NULL, *w = NULL;
    *http = 403;
    if (!(p->uploaded & 1)) {
        if (svc_path_resolve(s, &c, p->circuit) != G16_OK)
            return g16_fail_ctx(G16_ERR_ARG, "partition %u: circuit", idx);
        free(p->circuit);
        p->circuit = c;
    }
    if (!(p->uploaded & 2)) {
        if (svc_path_resolve(s, &w, p->witness) != G16_OK)
            return g16_fail_ctx(G16_ERR_ARG, "partition %u: witness", idx);
        free(p->witness);
        p->witness = w;
    }
    c = p->circuit;
    w = p->witness;
    *http = 422;
    g16_circuit *circ;
    g16_status st = g16_circuit_load(&circ, c);
    if (st != G16_OK) return g16_fail_ctx(st, "partition %u", idx);
    g16_circuit_info ci;
    g16_circuit_get_info(&ci, circ);
    g16_circuit_destroy(circ);
    uint64_t n;
    uint32_t n_pub;
    st = g16_witness_peek(&n, &n_pub, w);
    if (st != G16_OK) return g16_fail_ctx(st, "partition %u", idx);
    if (n != ci.n_vars || n_pub != ci.n_pub)
        return g16_fail(G16_ERR_ARG,
                        "partition %u: the witness %s has %llu values and %u inputs; the circuit %s "
                        "has %llu variables and %u inputs", idx, w, (unsigned long long)n, n_pub, c,
                        (unsigned long long)ci.n_vars, ci.n_pub);
    return G16_OK;
}

g16_status svc_job_validate(g16_service *s, svc_job *d, int *http)
{
    svc_key *key = svc_key_find(s, d->key);
    if (!key) {
        *http = 422;
        return g16_fail(G16_ERR_ARG, "unknown key '%s' (GET /v1/status lists the keys)", d->key);
    }
    if (d->post) {
        *http = 400;
        return key->zkey ? g16_fail(G16_ERR_ARG, "key '%s' is a snarkjs .zkey: a PoSt job needs the .params or "
                                    ".g16k key of its partition", d->key)
                         : svc_post_validate(s, d->post, http);
    }
    if (d->zkey != key->zkey) {
        *http = 400;
        return key->zkey ? g16_fail(G16_ERR_ARG, "key '%s' is a snarkjs .zkey: partitions are "
                                                   "{\"wtns\": PATH}", d->key)
                           : g16_fail(G16_ERR_ARG, "key '%s' is a .params key: partitions are "
                                                   "{\"circuit\": PATH, \"witness\": PATH}", d->key);
    }
    pthread_mutex_lock(&s->mu);
    uint32_t zvars = key->sj ? svc_sj_key_vars(key->sj) : 0;
    pthread_mutex_unlock(&s->mu);
    for (uint32_t i = 0; i < d->n_parts; i++)
        G16_TRY(d->zkey ? check_wtns(s, &d->parts[i], i, key->path, zvars, http)
                        : check_part(s, &d->parts[i], i, http));
    return G16_OK;
}

g16_status svc_job_submit(g16_service *s, svc_job **out, int *existed, int *http, svc_job *d)
{
    *out = NULL;
    *existed = 0;
    if (d->request_id) {
        pthread_mutex_lock(&s->mu);
        svc_job *j = svc_job_find_request(s, d->request_id);
        pthread_mutex_unlock(&s->mu);
        if (j) { /* the ids are never reused, so the pointer's job is still this one's */
            *out = j;
            *existed = 1;
            *http = 200;
            svc_job_free(d);
            return G16_OK;
        }
    }
    /* the id first: uploaded inputs are written under it before they are checked */
    svc_new_id(d->id);
    g16_status st = write_uploads(s, d);
    if (st != G16_OK) {
        *http = 503;
        svc_uploads_remove(s, d->id);
        svc_job_free(d);
        return st;
    }
    st = svc_job_validate(s, d, http);
    if (st != G16_OK) {
        svc_uploads_remove(s, d->id);
        svc_job_free(d);
        return st;
    }
    pthread_mutex_lock(&s->mu);
    svc_job *dup = d->request_id ? svc_job_find_request(s, d->request_id) : NULL;
    if (dup) { /* the same request raced us */
        pthread_mutex_unlock(&s->mu);
        svc_uploads_remove(s, d->id);
        svc_job_free(d);
        *out = dup;
        *existed = 1;
        *http = 200;
        return G16_OK;
    }
    if (s->stopping || s->draining) {
        pthread_mutex_unlock(&s->mu);
        svc_uploads_remove(s, d->id);
        svc_job_free(d);
        *http = 503;
        return g16_fail(G16_ERR_ARG, "the service is stopping");
    }
    if (s->n_active >= s->cfg.max_queued) {
        pthread_mutex_unlock(&s->mu);
        svc_uploads_remove(s, d->id);
        svc_job_free(d);
        *http = 429;
        return g16_fail(G16_ERR_ARG, "%u jobs are queued or running, the most this service takes",
                        s->cfg.max_queued);
    }
    d->seq = ++s->next_seq;
    d->state = SVC_QUEUED;
    d->created = svc_now();
    st = svc_store_insert(s, d);
    if (st != G16_OK) {
        pthread_mutex_unlock(&s->mu);
        svc_log(s, "error", d->id, "%s", g16_last_error());
        svc_uploads_remove(s, d->id);
        svc_job_free(d);
        *http = 503;
        return st;
    }
    svc_job_insert(s, d);
    s->m.submitted++;
    pthread_cond_broadcast(&s->cv);
    pthread_mutex_unlock(&s->mu);
    svc_log(s, "info", d->id, "queued: key %s, %u partition(s), %s", d->key, d->n_parts,
            svc_prio_name(d->prio));
    *out = d;
    *http = 202;
    return G16_OK;
}

/* ---------------------------------------------------------------- cancel */
g16_status svc_job_cancel(g16_service *s, const char *id, int *http)
{
    pthread_mutex_lock(&s->mu);
    svc_job *j = svc_job_find(s, id);
    if (!j) {
        pthread_mutex_unlock(&s->mu);
        *http = 404;
        return g16_fail(G16_ERR_ARG, "no job %s", id);
    }
    g16_status st = G16_OK;
    if (j->state == SVC_QUEUED) {
        svc_job_set_state(s, j, SVC_CANCELLED);
        svc_job_set_error(j, "cancelled", "cancelled by a client before it started");
        st = svc_store_update(s, j);
        *http = 200;
    } else if (j->state == SVC_RUNNING) {
        j->cancel = 1;
        j->halt = 1;
        if (j->engine_id) g16_engine_cancel(s->engine, j->engine_id);
        *http = 202; /* ends CANCELLED once the engine has released it */
    } else {
        /* ended: forget it and its proof */
        svc_job_remove(s, j);
        st = svc_store_delete(s, j->id);
        svc_uploads_remove(s, j->id);
        svc_job_free(j);
        *http = 200;
    }
    pthread_mutex_unlock(&s->mu);
    return st;
}

/* ---------------------------------------------------------------- recovery */
void svc_job_recovered(g16_service *s, svc_job *j)
{
    if (j->seq > s->next_seq) s->next_seq = j->seq;
    if (j->state == SVC_RUNNING || j->state == SVC_QUEUED) {
        if (j->state == SVC_RUNNING) s->m.recovered++;
        j->state = SVC_QUEUED; /* it runs again: a proof is stored only by a run that ended */
    }
    svc_job_insert(s, j);
}

/* ---------------------------------------------------------------- engine hand-off */
/* Loads a running job's circuits (mapped once per distinct path) with s->mu released; the
 * witnesses go to the engine as paths, read when each partition is admitted, so that a job
 * holds no witness bytes outside the budget.  On failure the message names the partition. */
static g16_status load_inputs(svc_job *j, g16_partition *parts)
{
    if (j->post) return G16_OK; /* its witnesses are written from the vanilla proofs (post.c) */
    for (uint32_t i = 0; i < j->n_parts; i++) {
        svc_part *p = &j->parts[i];
        const g16_circuit *shared = NULL;
        for (uint32_t k = 0; k < i && !shared; k++)
            if (!strcmp(j->parts[k].circuit, p->circuit)) shared = parts[k].circuit;
        if (!shared) {
            G16_TRY(g16_circuit_load(&p->circ, p->circuit) == G16_OK
                        ? G16_OK
                        : g16_fail_ctx(G16_ERR_ARG, "partition %u", i));
            shared = p->circ;
        }
        parts[i].circuit = shared;
        parts[i].witness_path = p->witness;
    }
    return G16_OK;
}

static void drop_inputs(svc_job *j)
{
    if (j->post) {
        svc_post_release(j);
        return;
    }
    for (uint32_t i = 0; i < j->n_parts; i++) {
        g16_circuit_destroy(j->parts[i].circ);
        j->parts[i].circ = NULL;
    }
}

/* The public inputs of every partition (the witnesses' values 1 .. n_pub), for GET; read from
 * the files' first values. */
static void keep_inputs(svc_job *j)
{
    if (j->post) {
        svc_post_inputs(j);
        return;
    }
    uint64_t n;
    uint32_t n_pub;
    if (g16_witness_peek(&n, &n_pub, j->parts[0].witness) != G16_OK) return;
    uint8_t *in = malloc(32ull * n_pub * j->n_parts + 1);
    if (!in) return;
    for (uint32_t i = 0; i < j->n_parts; i++)
        if (g16_witness_inputs(in + 32ull * i * n_pub, n_pub, j->parts[i].witness) != G16_OK) {
            free(in);
            return;
        }
    free(j->inputs);
    j->inputs = in;
    j->n_inputs = n_pub;
}

/* With s->mu held: the job failed; the store is told. */
void svc_job_fail_locked(g16_service *s, svc_job *j, const char *code, const char *msg)
{
    svc_job_set_error(j, code, msg);
    svc_job_set_state(s, j, SVC_FAILED);
    svc_log(s, "error", j->id, "failed: %s", msg);
    if (svc_store_update(s, j) != G16_OK) svc_log(s, "error", j->id, "%s", g16_last_error());
}

/* With s->mu held: the job ended (st is the engine's answer, proofs its bytes). */
static void collect(g16_service *s, svc_job *j, svc_key *k, g16_status st, const g16_job_status *js,
                    uint8_t *proofs, const char *msg)
{
    j->engine_id = 0;
    if (k) k->users--;
    s->inflight--;
    if (js) {
        j->queued_s = js->queued_s;
        j->run_s = js->run_s;
    }
    if (j->stopping && !j->cancel) {
        /* a shutdown took it from the engine: it stays queued in the store and runs again */
        free(proofs);
        svc_job_set_state(s, j, SVC_QUEUED);
        return;
    }
    if (st == G16_OK) {
        free(j->proof);
        j->proof = proofs;
        j->proof_len = (size_t)G16_PROOF_BYTES * j->n_parts;
        svc_job_set_state(s, j, SVC_DONE);
        svc_log(s, "info", j->id, "done: %u proof(s), %.3f s after submit", j->n_parts,
                j->finished - j->created);
    } else {
        free(proofs);
        if (st == G16_ERR_CANCELLED) {
            svc_job_set_error(j, "cancelled", "cancelled by a client while it ran");
            svc_job_set_state(s, j, SVC_CANCELLED);
        } else {
            svc_job_fail_locked(s, j, g16_status_str(st), msg);
            return;
        }
    }
    if (svc_store_update(s, j) != G16_OK) svc_log(s, "error", j->id, "%s", g16_last_error());
}

void *svc_job_waiter_main(void *arg)
{
    svc_waiter w = *(svc_waiter *)arg;
    free(arg);
    g16_service *s = w.s;
    svc_job *j = w.j;
    size_t cap = (size_t)G16_PROOF_BYTES * j->n_parts;
    uint8_t *proofs = malloc(cap);
    g16_part_status *ps = calloc(j->n_parts, sizeof *ps);
    g16_job_status js;
    memset(&js, 0, sizeof js);
    g16_status st = proofs && ps ? g16_engine_await_parts(s->engine, j->engine_id, -1, proofs, cap, &js,
                                                          ps, j->n_parts)
                                 : g16_fail(G16_ERR_NOMEM, "no memory for the proofs");
    char msg[512];
    snprintf(msg, sizeof msg, "%s", st == G16_OK ? "" : js.message[0] ? js.message : g16_last_error());
    if (st == G16_OK) keep_inputs(j);
    drop_inputs(j);
    pthread_mutex_lock(&s->mu);
    for (uint32_t i = 0; ps && i < j->n_parts; i++) {
        j->parts[i].stage = (int)ps[i].stage;
        memcpy(j->parts[i].stage_s, ps[i].stage_s, sizeof ps[i].stage_s);
        for (int k = 0; k < G16_PART_ACTIVE_STAGES; k++)
            if (ps[i].stage_s[k] > 0) svc_hist_add(&s->m.stage_s[k], ps[i].stage_s[k]);
    }
    collect(s, j, w.k, st, &js, st == G16_OK ? proofs : NULL, msg);
    if (st != G16_OK) free(proofs);
    pthread_mutex_unlock(&s->mu);
    free(ps);
    return NULL;
}

/* The next job to hand over (with s->mu held): lowest priority value, then oldest. */
static svc_job *next_job(g16_service *s)
{
    svc_job *best = NULL;
    if (!s->n_queued[0] && !s->n_queued[1] && !s->n_queued[2] && !s->n_queued[3]) return NULL;
    int urgent_only = s->inflight >= s->max_inflight;
    for (size_t i = 0; i < s->table_cap; i++)
        for (svc_job *j = s->table[i]; j; j = j->hnext) {
            if (j->state != SVC_QUEUED) continue;
            if (urgent_only && j->prio > G16_PRIO_HIGH) continue;
            if (!best || j->prio < best->prio || (j->prio == best->prio && j->seq < best->seq))
                best = j;
        }
    return best;
}

void svc_job_thread(g16_service *s, svc_job *j, svc_key *k, void *(*fn)(void *))
{
    svc_waiter *w = malloc(sizeof *w);
    pthread_t th;
    pthread_attr_t at;
    if (w) *w = (svc_waiter){s, j, k};
    pthread_attr_init(&at);
    pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED);
    if (!w || pthread_create(&th, &at, fn, w)) {
        free(w);
        k->users--;
        s->inflight--;
        svc_job_fail_locked(s, j, "internal", "no memory or thread for the job");
    }
    pthread_attr_destroy(&at);
}

/* Hands one job to the engine.  Called and returns with s->mu held. */
static void dispatch(g16_service *s, svc_job *j)
{
    svc_job_set_state(s, j, SVC_RUNNING);
    j->started = svc_now();
    j->attempts++;
    s->inflight++;
    svc_store_update(s, j); /* a failed write only loses the attempt count */
    svc_key *k = svc_key_find(s, j->key);
    char msg[512];
    if (!k || svc_key_acquire(s, k, 1) != G16_OK) {
        snprintf(msg, sizeof msg, "%s", k ? g16_last_error() : "its key is no longer configured");
        s->inflight--;
        svc_job_fail_locked(s, j, "key", msg);
        return;
    }
    k->users++;
    if (j->zkey || j->post) {
        svc_job_thread(s, j, k, j->zkey ? svc_sj_main : svc_post_main);
        return;
    }
    g16_key *key = k->key;
    g16_key_retain(key);
    pthread_mutex_unlock(&s->mu);

    g16_partition *parts = calloc(j->n_parts, sizeof *parts);
    g16_status st = parts ? load_inputs(j, parts) : g16_fail(G16_ERR_NOMEM, "no memory");
    uint64_t eid = 0;
    if (st == G16_OK) st = g16_engine_submit(s->engine, &eid, key, parts, j->n_parts, j->prio);
    snprintf(msg, sizeof msg, "%s", st == G16_OK ? "" : g16_last_error());
    free(parts);
    g16_key_release(key);

    svc_waiter *w = st == G16_OK ? malloc(sizeof *w) : NULL;
    pthread_t th;
    pthread_mutex_lock(&s->mu);
    if (st != G16_OK || !w) {
        drop_inputs(j);
        if (st == G16_OK) { /* no memory for the waiter: take the job back out */
            g16_engine_cancel(s->engine, eid);
            uint8_t none[1];
            pthread_mutex_unlock(&s->mu);
            g16_engine_await(s->engine, eid, -1, none, 0, NULL);
            pthread_mutex_lock(&s->mu);
            snprintf(msg, sizeof msg, "no memory for the job's waiter thread");
        }
        k->users--;
        s->inflight--;
        svc_job_fail_locked(s, j, st == G16_ERR_ARG ? "invalid_input" : g16_status_str(st), msg);
        return;
    }
    j->engine_id = eid;
    if (j->cancel || j->stopping) g16_engine_cancel(s->engine, eid);
    *w = (svc_waiter){s, j, k};
    pthread_attr_t at;
    pthread_attr_init(&at);
    pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED);
    if (pthread_create(&th, &at, svc_job_waiter_main, w)) {
        /* no thread: wait here instead (the dispatcher pauses for this job) */
        pthread_mutex_unlock(&s->mu);
        svc_job_waiter_main(w);
        pthread_mutex_lock(&s->mu);
    }
    pthread_attr_destroy(&at);
}

void *svc_dispatcher_main(void *arg)
{
    g16_service *s = arg;
    pthread_mutex_lock(&s->mu);
    while (!s->stopping) {
        svc_job *j = next_job(s);
        if (!j || s->draining || s->inflight >= s->max_inflight + URGENT_EXTRA) {
            pthread_cond_wait(&s->cv, &s->mu);
            continue;
        }
        dispatch(s, j);
    }
    pthread_mutex_unlock(&s->mu);
    return NULL;
}

/* ---------------------------------------------------------------- janitor */
void *svc_janitor_main(void *arg)
{
    g16_service *s = arg;
    pthread_mutex_lock(&s->mu);
    while (!s->stopping) {
        svc_wait(s, 1);
        double now = svc_now();
        for (size_t i = 0; i < s->table_cap; i++) {
            svc_job **pp = &s->table[i];
            while (*pp) {
                svc_job *j = *pp;
                int expired = !active(j) &&
                              ((j->fetched && now - j->fetched > s->cfg.retention_s) ||
                               now - j->finished > s->cfg.keep_unfetched_s);
                if (!expired) {
                    pp = &j->hnext;
                    continue;
                }
                *pp = j->hnext;
                s->n_jobs--;
                svc_store_delete(s, j->id);
                svc_uploads_remove(s, j->id);
                svc_log(s, "info", j->id, "forgotten after its retention");
                svc_job_free(j);
            }
        }
    }
    pthread_mutex_unlock(&s->mu);
    return NULL;
}
