/* The node's side of cluster mode (docs/cluster.md):
 *   claimer    claims queued partitions (priority, job age, partition order; FOR UPDATE SKIP
 *              LOCKED), only as many as this node's engine takes, each under a lease with an epoch;
 *   tasks      one thread a claimed partition: key, inputs, the engine (or the snarkjs prover),
 *              then the result, stored only while the lease's epoch is current (fencing);
 *   heartbeat  renews this node's leases every lease/3 and cancels local work whose lease was
 *              lost; requeues expired leases of any node; finishes jobs whose last partition's
 *              node died between its result and the job's end; forgets jobs past retention;
 *   listener   LISTEN g16: submit/requeue wake the claimer, cancel:ID stops local partitions,
 *              end:ID wakes long polls.  Polling every second is the fallback. */
#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/select.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "common/error.h"
#include "filecoin/post_job.h"
#include "service/cluster.h"

#define URGENT_EXTRA 4 /* local slots only CRITICAL and HIGH partitions may take */

typedef struct svc_task {
    g16_service *s;
    char job[SVC_ID_LEN + 1];
    uint32_t idx;
    char epoch[24];
    g16_priority prio;
    int zkey;
    uint32_t n_parts;
    char *circuit, *witness, *key;
    char *post; /* a PoSt job's request (svc_post_part lays this partition out); NULL otherwise */
    uint64_t engine_id;
    int cancel;
    volatile int halt;
    struct svc_task *next;
} svc_task;

static void task_free(svc_task *t)
{
    free(t->circuit);
    free(t->witness);
    free(t->key);
    free(t->post);
    free(t);
}

/* With s->mu held: stops a local partition (its job was cancelled or its lease lost). */
static void task_cancel(g16_service *s, svc_task *t)
{
    t->cancel = 1;
    t->halt = 1;
    if (t->engine_id) g16_engine_cancel(s->engine, t->engine_id);
}

/* ---------------------------------------------------------------- results */
static void store_result(g16_service *s, PGconn **c, svc_task *t, const uint8_t *proof, size_t proof_len,
                         const uint8_t *inputs, uint32_t n_inputs, double secs)
{
    char idx[16], nin[16], sec[32], now[32];
    snprintf(idx, sizeof idx, "%u", t->idx);
    snprintf(nin, sizeof nin, "%u", n_inputs);
    snprintf(sec, sizeof sec, "%.6f", secs);
    snprintf(now, sizeof now, "%.6f", svc_now());
    const char *p[] = {t->job, idx, t->epoch, (const char *)proof, (const char *)inputs, nin, sec,
                       s->instance, s->node_name};
    int len[] = {0, 0, 0, (int)proof_len, (int)(32u * n_inputs), 0, 0, 0, 0};
    int bin[] = {0, 0, 0, 1, 1, 0, 0, 0, 0};
    if (!inputs) p[4] = NULL;
    PGresult *r = svc_pg_exec(s->pg, c,
                              "UPDATE g16_parts SET state = 2, proof = $4, inputs = $5, n_inputs = $6,"
                              " seconds = $7, owner = NULL, lease_until = NULL, proved_by = $9"
                              " WHERE job = $1 AND idx = $2 AND epoch = $3 AND state = 1 AND owner = $8",
                              9, p, len, bin);
    int stored = r && atoi(PQcmdTuples(r)) == 1;
    PQclear(r);
    pthread_mutex_lock(&s->mu);
    if (stored) s->cl.done++;
    else s->cl.fenced++;
    pthread_mutex_unlock(&s->mu);
    if (!stored) {
        svc_log(s, "warn", t->job, "partition %u: result not stored: its lease (epoch %s) is no longer this "
                "node's", t->idx, t->epoch);
        return;
    }
    const char *q[] = {t->job, now};
    PQclear(svc_pg_exec(s->pg, c,
                        "WITH f AS (UPDATE g16_jobs SET state = 2, finished = $2 WHERE id = $1 AND state < 2"
                        "  AND NOT EXISTS (SELECT 1 FROM g16_parts WHERE job = $1 AND state <> 2) RETURNING id)"
                        "SELECT pg_notify('g16', 'end:' || id) FROM f", 2, q, NULL, NULL));
}

static void fail_part(g16_service *s, PGconn **c, svc_task *t, const char *code, const char *msg)
{
    char idx[16], now[32];
    snprintf(idx, sizeof idx, "%u", t->idx);
    snprintf(now, sizeof now, "%.6f", svc_now());
    char full[600];
    snprintf(full, sizeof full, "partition %u: %s", t->idx, msg);
    const char *p[] = {t->job, idx, t->epoch, full, now, code, s->instance};
    PQclear(svc_pg_exec(s->pg, c,
                        "WITH p AS (UPDATE g16_parts SET state = 3, err = $4, owner = NULL, lease_until = NULL"
                        "  WHERE job = $1 AND idx = $2 AND epoch = $3 AND state = 1 AND owner = $7 RETURNING job),"
                        " j AS (UPDATE g16_jobs SET state = 3, finished = $5, err_code = $6, err_msg = $4"
                        "  WHERE id = $1 AND state < 2 AND EXISTS (SELECT 1 FROM p) RETURNING id),"
                        " o AS (UPDATE g16_parts SET state = 4, owner = NULL, lease_until = NULL"
                        "  WHERE job = $1 AND state IN (0, 1) AND EXISTS (SELECT 1 FROM j) RETURNING idx),"
                        " n AS (SELECT pg_notify('g16', 'cancel:' || id), pg_notify('g16', 'end:' || id) FROM j)"
                        "SELECT (SELECT count(*) FROM p), (SELECT count(*) FROM o), (SELECT count(*) FROM n)",
                        7, p, NULL, NULL));
    pthread_mutex_lock(&s->mu);
    s->cl.failed++;
    pthread_mutex_unlock(&s->mu);
    svc_log(s, "error", t->job, "%s", full);
}

/* Gives a claim back to the queue at once (a stopping node), so that failover takes no lease. */
static void release(g16_service *s, PGconn **c, svc_task *t)
{
    char idx[16];
    snprintf(idx, sizeof idx, "%u", t->idx);
    const char *p[] = {t->job, idx, t->epoch, s->instance};
    PQclear(svc_pg_exec(s->pg, c,
                        "WITH r AS (UPDATE g16_parts SET state = 0, owner = NULL, lease_until = NULL"
                        "  WHERE job = $1 AND idx = $2 AND epoch = $3 AND state = 1 AND owner = $4 RETURNING 1)"
                        "SELECT pg_notify('g16', 'requeue') FROM r", 4, p, NULL, NULL));
}

/* ---------------------------------------------------------------- one partition */
/* Waits for the engine's job eid (its id in t->engine_id so that a cancel reaches it). */
static g16_status engine_await(g16_service *s, svc_task *t, uint64_t eid, uint8_t *proof)
{
    pthread_mutex_lock(&s->mu);
    t->engine_id = eid;
    if (t->cancel) g16_engine_cancel(s->engine, eid);
    pthread_mutex_unlock(&s->mu);
    g16_job_status js;
    g16_status st = g16_engine_await(s->engine, eid, -1, proof, G16_PROOF_BYTES, &js);
    if (st != G16_OK && st != G16_ERR_CANCELLED && js.message[0]) g16_fail(st, "%s", js.message);
    return st;
}

/* Out: *inputs (malloc'd, 32 bytes each), *n_inputs; NULL / 0 when they cannot be had. */
static void post_inputs(const g16_fc_post_job *fj, uint8_t **inputs, uint32_t *n_inputs)
{
    g16_circuit_info ci;
    g16_circuit_get_info(&ci, fj->circuit);
    *inputs = malloc(32ull * ci.n_pub + 1);
    if (*inputs && g16_fc_post_job_inputs(fj, 0, *inputs) != G16_OK) {
        free(*inputs);
        *inputs = NULL;
    }
    *n_inputs = *inputs ? ci.n_pub : 0;
}

static g16_status run_engine(g16_service *s, svc_task *t, svc_key *k, uint8_t *proof, uint8_t **inputs,
                             uint32_t *n_inputs)
{
    pthread_mutex_lock(&s->mu);
    g16_key *key = k->key;
    if (key) g16_key_retain(key);
    pthread_mutex_unlock(&s->mu);
    if (!key) return g16_fail(G16_ERR_ARG, "key %s is not loaded", t->key);
    g16_status st;
    uint64_t eid = 0;
    if (t->post) { /* laid out here from its vanilla proofs; the engine writes the witness */
        g16_fc_post_job *fj = NULL;
        st = svc_post_part(s, t->post, t->idx, t->n_parts, t->key, key, t->prio, &fj);
        if (st == G16_OK) st = engine_await(s, t, fj->id, proof);
        if (st == G16_OK) post_inputs(fj, inputs, n_inputs);
        g16_fc_post_job_free(fj);
        g16_key_release(key);
        return st;
    }
    /* the engine reads the witness once the partition is admitted (its bytes charged) */
    g16_circuit *circ = NULL;
    st = g16_circuit_load(&circ, t->circuit);
    g16_partition part = {.circuit = circ, .witness_path = t->witness};
    if (st == G16_OK) st = g16_engine_submit(s->engine, &eid, key, &part, 1, t->prio);
    if (st == G16_OK) st = engine_await(s, t, eid, proof);
    g16_key_release(key);
    if (st == G16_OK) {
        g16_circuit_info ci;
        g16_circuit_get_info(&ci, circ);
        *inputs = malloc(32ull * ci.n_pub + 1);
        if (*inputs && g16_witness_inputs(*inputs, ci.n_pub, t->witness) != G16_OK) {
            free(*inputs);
            *inputs = NULL;
        }
        *n_inputs = *inputs ? ci.n_pub : 0;
    }
    g16_circuit_destroy(circ);
    return st;
}

static void *task_main(void *arg)
{
    svc_task *t = arg;
    g16_service *s = t->s;
    PGconn *c = svc_pg_get(s->pg);
    double t0 = svc_now();
    svc_key *k = svc_key_find(s, t->key);
    pthread_mutex_lock(&s->mu);
    g16_status st = k ? svc_key_acquire(s, k, 1) : g16_fail(G16_ERR_ARG, "key '%s' is not configured on node %s",
                                                           t->key, s->node_name);
    if (st == G16_OK) k->users++;
    pthread_mutex_unlock(&s->mu);
    char msg[512] = "";
    uint8_t proof[G16_PROOF_BYTES], *inputs = NULL;
    uint32_t n_inputs = 0;
    char *json = NULL;
    if (st == G16_OK) {
        if (t->zkey) { /* a scratch folder of its own: the writers' files are named by index */
            char scratch[PATH_MAX];
            snprintf(scratch, sizeof scratch, "%s/uploads", s->data_dir);
            mkdir(scratch, 0700);
            snprintf(scratch, sizeof scratch, "%s/uploads/%s-%u-%s", s->data_dir, t->job, t->idx, t->epoch);
            mkdir(scratch, 0700);
            st = svc_sj_prove_job(&json, s, k, &t->witness, 1, scratch, &t->halt);
            rmdir(scratch);
        } else {
            st = run_engine(s, t, k, proof, &inputs, &n_inputs);
        }
        pthread_mutex_lock(&s->mu);
        k->users--;
        pthread_mutex_unlock(&s->mu);
    }
    if (st != G16_OK) snprintf(msg, sizeof msg, "%s", g16_last_error());
    int cancelled = st == G16_ERR_CANCELLED || t->cancel;
    if (st == G16_OK && !t->cancel) {
        if (json) {
            /* a snarkjs partition's result is the first (only) element of the job JSON's list */
            json_t *o = json_loads(json, 0, NULL);
            char *one = json_dumps(json_array_get(json_object_get(o, "partitions"), 0), JSON_COMPACT);
            json_decref(o);
            if (one) store_result(s, &c, t, (const uint8_t *)one, strlen(one), NULL, 0, svc_now() - t0);
            free(one);
        } else {
            store_result(s, &c, t, proof, sizeof proof, inputs, n_inputs, svc_now() - t0);
        }
    } else if (cancelled && (s->draining || s->stopping)) {
        release(s, &c, t);
    } else if (!cancelled) {
        int bad_input = st == G16_ERR_ARG || st == G16_ERR_FORMAT || st == G16_ERR_UNSATISFIED;
        fail_part(s, &c, t, bad_input ? "invalid_input" : g16_status_str(st), msg);
    }
    free(json);
    free(inputs);
    svc_pg_put(s->pg, c);
    pthread_mutex_lock(&s->mu);
    for (svc_task **pp = &s->cl.tasks; *pp; pp = &(*pp)->next)
        if (*pp == t) {
            *pp = t->next;
            break;
        }
    s->cl.n_tasks--;
    pthread_cond_broadcast(&s->cv);
    pthread_mutex_unlock(&s->mu);
    task_free(t);
    return NULL;
}

/* ---------------------------------------------------------------- claimer */
static unsigned claim(g16_service *s, PGconn **c, unsigned want, int max_prio)
{
    char n[16], mp[8], lease[32], now[32];
    snprintf(n, sizeof n, "%u", want);
    snprintf(mp, sizeof mp, "%d", max_prio);
    snprintf(lease, sizeof lease, "%.3f", s->lease_s);
    snprintf(now, sizeof now, "%.6f", svc_now());
    const char *p[] = {s->instance, lease, n, mp, now};
    PGresult *r = svc_pg_exec(s->pg, c,
        /* the claim's commit need not wait for the disk: a claim lost in a crash of the server
         * leaves a node that believes it holds a lease its renewal and its result's fence do
         * not find (owner and epoch), so nothing is proved into the result twice */
        "WITH s AS (SELECT set_config('synchronous_commit', 'off', true)),"
        " c AS (SELECT job, idx FROM g16_parts WHERE state = 0 AND priority <= $4"
        "  ORDER BY priority, seq, idx LIMIT $3 FOR UPDATE SKIP LOCKED),"
        " u AS (UPDATE g16_parts p SET state = 1, owner = $1, epoch = p.epoch + 1,"
        "  lease_until = clock_timestamp() + make_interval(secs => $2::float8), attempts = p.attempts + 1"
        "  FROM c WHERE p.job = c.job AND p.idx = c.idx"
        "  RETURNING p.job, p.idx, p.circuit, p.witness, p.epoch, p.priority),"
        " j AS (UPDATE g16_jobs SET state = 1, started = $5 WHERE id IN (SELECT job FROM u) AND state = 0"
        "  RETURNING id)"
        "SELECT u.job, u.idx, u.circuit, u.witness, u.epoch, u.priority, g.key, g.zkey, g.post, g.n_parts,"
        " (SELECT count(*) FROM j), (SELECT count(*) FROM s) FROM u JOIN g16_jobs g ON g.id = u.job",
        5, p, NULL, NULL);
    if (!r) {
        svc_log(s, "warn", NULL, "cluster: claim: %s", g16_last_error());
        return 0;
    }
    unsigned got = (unsigned)PQntuples(r);
    for (unsigned i = 0; i < got; i++) {
        svc_task *t = calloc(1, sizeof *t);
        if (!t) break;
        t->s = s;
        snprintf(t->job, sizeof t->job, "%s", PQgetvalue(r, (int)i, 0));
        t->idx = (uint32_t)atoi(PQgetvalue(r, (int)i, 1));
        t->circuit = svc_strdup(PQgetvalue(r, (int)i, 2));
        t->witness = svc_strdup(PQgetvalue(r, (int)i, 3));
        snprintf(t->epoch, sizeof t->epoch, "%s", PQgetvalue(r, (int)i, 4));
        t->prio = (g16_priority)atoi(PQgetvalue(r, (int)i, 5));
        t->key = svc_strdup(PQgetvalue(r, (int)i, 6));
        t->zkey = PQgetvalue(r, (int)i, 7)[0] == 't';
        t->post = PQgetisnull(r, (int)i, 8) ? NULL : svc_strdup(PQgetvalue(r, (int)i, 8));
        t->n_parts = (uint32_t)atoi(PQgetvalue(r, (int)i, 9));
        pthread_mutex_lock(&s->mu);
        t->next = s->cl.tasks;
        s->cl.tasks = t;
        s->cl.n_tasks++;
        s->cl.claimed++;
        pthread_mutex_unlock(&s->mu);
        pthread_t th;
        pthread_attr_t at;
        pthread_attr_init(&at);
        pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED);
        if (pthread_create(&th, &at, task_main, t)) {
            task_main(t); /* no thread: run it here (the claimer pauses meanwhile) */
        }
        pthread_attr_destroy(&at);
    }
    PQclear(r);
    return got;
}

static void *claimer_main(void *arg)
{
    g16_service *s = arg;
    PGconn *c = svc_pg_get(s->pg);
    pthread_mutex_lock(&s->mu);
    while (!s->stopping) {
        unsigned n = s->cl.n_tasks, cap = s->max_inflight, want = 0;
        int max_prio = G16_PRIO_LOW;
        if (s->draining) want = 0;
        else if (n < cap) want = cap - n;
        else if (n < cap + URGENT_EXTRA) want = cap + URGENT_EXTRA - n, max_prio = G16_PRIO_HIGH;
        unsigned got = 0;
        if (want) {
            s->cl.claiming = 1; /* the renewal leaves claims alone until they are in the task list */
            pthread_mutex_unlock(&s->mu);
            got = claim(s, &c, want, max_prio);
            pthread_mutex_lock(&s->mu);
            s->cl.claiming = 0;
        }
        if (!got) svc_wait(s, 1.0);
    }
    pthread_mutex_unlock(&s->mu);
    svc_pg_put(s->pg, c);
    return NULL;
}

/* ---------------------------------------------------------------- heartbeat, reaper, janitor */
static void renew(g16_service *s, PGconn **c)
{
    char lease[32];
    snprintf(lease, sizeof lease, "%.3f", s->lease_s);
    const char *p[] = {s->instance, lease, s->node_name};
    PGresult *r = svc_pg_exec(s->pg, c,
        "WITH r AS (UPDATE g16_parts SET lease_until = clock_timestamp() + make_interval(secs => $2::float8)"
        "  WHERE owner = $1 AND state = 1 RETURNING job, idx, epoch),"
        " h AS (UPDATE g16_nodes SET heartbeat = clock_timestamp(), instance = $1 WHERE name = $3 RETURNING 1)"
        "SELECT job, idx, epoch, (SELECT count(*) FROM h) FROM r", 3, p, NULL, NULL);
    if (!r) return;
    pthread_mutex_lock(&s->mu);
    s->cl.renewals++;
    /* local partitions whose lease is gone (this node was paused past it, or the job ended) */
    for (svc_task *t = s->cl.tasks; t; t = t->next) {
        int held = 0;
        for (int i = 0; i < PQntuples(r) && !held; i++)
            held = !strcmp(PQgetvalue(r, i, 0), t->job) && (uint32_t)atoi(PQgetvalue(r, i, 1)) == t->idx &&
                   !strcmp(PQgetvalue(r, i, 2), t->epoch);
        if (!held && !t->cancel) {
            svc_log(s, "warn", t->job, "partition %u: lease (epoch %s) lost: stopped here", t->idx, t->epoch);
            s->cl.lost++;
            task_cancel(s, t);
        }
    }
    /* claims this node holds but does not run: a claim whose answer was lost with the connection
     * (the statement had committed; its retry claimed others).  Given back now, unless a claim is
     * in flight (its partitions may not be in the task list yet: next round). */
    int *orphans = NULL, n_orphans = 0;
    if (!s->cl.claiming && PQntuples(r) > 0) orphans = calloc((size_t)PQntuples(r), sizeof *orphans);
    for (int i = 0; orphans && i < PQntuples(r); i++) {
        int local = 0;
        for (svc_task *t = s->cl.tasks; t && !local; t = t->next)
            local = !strcmp(PQgetvalue(r, i, 0), t->job) && (uint32_t)atoi(PQgetvalue(r, i, 1)) == t->idx &&
                    !strcmp(PQgetvalue(r, i, 2), t->epoch);
        if (!local) orphans[n_orphans++] = i;
    }
    pthread_mutex_unlock(&s->mu);
    for (int k = 0; k < n_orphans; k++) {
        int i = orphans[k];
        const char *q[] = {PQgetvalue(r, i, 0), PQgetvalue(r, i, 1), PQgetvalue(r, i, 2), s->instance};
        PQclear(svc_pg_exec(s->pg, c,
                            "WITH r AS (UPDATE g16_parts SET state = 0, owner = NULL, lease_until = NULL"
                            "  WHERE job = $1 AND idx = $2 AND epoch = $3 AND state = 1 AND owner = $4 RETURNING 1)"
                            "SELECT pg_notify('g16', 'requeue') FROM r", 4, q, NULL, NULL));
        svc_log(s, "warn", q[0], "partition %s: a claim of this node that nothing runs (its answer was lost "
                "with the connection) is queued again", q[1]);
    }
    free(orphans);
    PQclear(r);
}

static void reap(g16_service *s, PGconn **c, int janitor)
{
    char now[32], ret[32], keep[32];
    snprintf(now, sizeof now, "%.6f", svc_now());
    PGresult *r = svc_pg_exec(s->pg, c,
        "WITH r AS (UPDATE g16_parts SET state = 0, owner = NULL, lease_until = NULL"
        "  WHERE state = 1 AND lease_until < clock_timestamp() RETURNING job, idx),"
        " n AS (SELECT pg_notify('g16', 'requeue') WHERE EXISTS (SELECT 1 FROM r))"
        "SELECT (SELECT count(*) FROM r), (SELECT count(*) FROM n)", 0, NULL, NULL, NULL);
    if (r && atoi(PQgetvalue(r, 0, 0))) {
        pthread_mutex_lock(&s->mu);
        s->cl.requeued += (uint64_t)atoi(PQgetvalue(r, 0, 0));
        pthread_mutex_unlock(&s->mu);
        svc_log(s, "info", NULL, "cluster: %s partition(s) whose lease expired are queued again", PQgetvalue(r, 0, 0));
    }
    PQclear(r);
    const char *p[] = {now};
    /* a node that died between its partition's result and the job's end */
    PQclear(svc_pg_exec(s->pg, c,
                        "WITH f AS (UPDATE g16_jobs j SET state = 2, finished = $1 WHERE state = 1 AND NOT EXISTS"
                        "  (SELECT 1 FROM g16_parts p WHERE p.job = j.id AND p.state <> 2) RETURNING id)"
                        "SELECT pg_notify('g16', 'end:' || id) FROM f", 1, p, NULL, NULL));
    if (!janitor) return;
    snprintf(ret, sizeof ret, "%.3f", s->cfg.retention_s);
    snprintf(keep, sizeof keep, "%.3f", s->cfg.keep_unfetched_s);
    const char *q[] = {now, ret, keep};
    PQclear(svc_pg_exec(s->pg, c,
                        "DELETE FROM g16_jobs WHERE state >= 2 AND ((fetched > 0 AND fetched < $1::float8 - $2::float8)"
                        " OR finished < $1::float8 - $3::float8)", 3, q, NULL, NULL));
}

static void *heart_main(void *arg)
{
    g16_service *s = arg;
    PGconn *c = svc_pg_get(s->pg);
    double last_renew = 0, last_janitor = 0;
    pthread_mutex_lock(&s->mu);
    while (!s->stopping) {
        pthread_mutex_unlock(&s->mu);
        double now = svc_now();
        if (now - last_renew >= s->lease_s / 3) {
            renew(s, &c);
            last_renew = now;
        }
        reap(s, &c, now - last_janitor > 10);
        if (now - last_janitor > 10) last_janitor = now;
        pthread_mutex_lock(&s->mu);
        svc_wait(s, s->lease_s / 10 < 1 ? s->lease_s / 10 : 1);
    }
    pthread_mutex_unlock(&s->mu);
    svc_pg_put(s->pg, c);
    return NULL;
}

/* ---------------------------------------------------------------- listener */
static void *listen_main(void *arg)
{
    g16_service *s = arg;
    PGconn *c = NULL;
    while (!__atomic_load_n(&s->stopping, __ATOMIC_RELAXED)) {
        if (!c || PQstatus(c) != CONNECTION_OK) {
            if (c) PQfinish(c);
            c = svc_pg_connect(s->pg);
            PGresult *r = c ? PQexec(c, "LISTEN g16") : NULL;
            if (!r || PQresultStatus(r) != PGRES_COMMAND_OK) {
                PQclear(r);
                if (c) PQfinish(c);
                c = NULL;
                usleep(200 * 1000);
                continue;
            }
            PQclear(r);
            pthread_mutex_lock(&s->mu);
            pthread_cond_broadcast(&s->cv); /* notifications may have been missed meanwhile */
            pthread_mutex_unlock(&s->mu);
        }
        int fd = PQsocket(c);
        fd_set rd;
        FD_ZERO(&rd);
        FD_SET(fd, &rd);
        struct timeval tv = {0, 250 * 1000};
        if (select(fd + 1, &rd, NULL, NULL, &tv) < 0 && errno != EINTR) continue;
        if (!PQconsumeInput(c)) {
            PQfinish(c);
            c = NULL;
            continue;
        }
        PGnotify *n;
        int wake = 0;
        while ((n = PQnotifies(c))) {
            wake = 1;
            if (!strncmp(n->extra, "cancel:", 7)) {
                pthread_mutex_lock(&s->mu);
                for (svc_task *t = s->cl.tasks; t; t = t->next)
                    if (!strcmp(t->job, n->extra + 7) && !t->cancel) task_cancel(s, t);
                pthread_mutex_unlock(&s->mu);
            }
            PQfreemem(n);
        }
        if (wake) {
            pthread_mutex_lock(&s->mu);
            pthread_cond_broadcast(&s->cv);
            pthread_mutex_unlock(&s->mu);
        }
    }
    if (c) PQfinish(c);
    return NULL;
}

/* ---------------------------------------------------------------- start, stop */
g16_status svc_cl_start(g16_service *s)
{
    uint8_t rnd[8];
    if (getrandom(rnd, sizeof rnd, 0) != (ssize_t)sizeof rnd) memset(rnd, 0, sizeof rnd);
    size_t n = strlen(s->node_name) + 2 + 2 * sizeof rnd;
    s->instance = malloc(n);
    if (!s->instance) return g16_fail(G16_ERR_NOMEM, "no memory");
    snprintf(s->instance, n, "%s#%02x%02x%02x%02x%02x%02x%02x%02x", s->node_name, rnd[0], rnd[1], rnd[2],
             rnd[3], rnd[4], rnd[5], rnd[6], rnd[7]);
    g16_engine_stats es;
    g16_engine_stats_get(s->engine, &es);
    char dev[16];
    snprintf(dev, sizeof dev, "%u", es.devices);
    char schema[16];
    snprintf(schema, sizeof schema, "%d", svc_cl_schema());
    const char *p[] = {s->node_name, s->instance, s->addr, dev, s->devices_cuda ? "cuda" : "cpu", schema};
    PGconn *c = svc_pg_get(s->pg);
    /* this node's claims from before a restart go back to the queue now, not after their lease */
    PGresult *r = svc_pg_exec(s->pg, &c,
        "WITH rel AS (UPDATE g16_parts SET state = 0, owner = NULL, lease_until = NULL"
        "  WHERE state = 1 AND left(owner, length($1) + 1) = $1 || '#' AND owner <> $2 RETURNING 1),"
        " n AS (SELECT pg_notify('g16', 'requeue') WHERE EXISTS (SELECT 1 FROM rel)),"
        " up AS (INSERT INTO g16_nodes (name, instance, addr, devices, backend, started, heartbeat, schema)"
        "  VALUES ($1, $2, $3, $4::int, $5, clock_timestamp(), clock_timestamp(), $6::int)"
        "  ON CONFLICT (name) DO UPDATE SET instance = $2, addr = $3, devices = $4::int, backend = $5,"
        "  started = clock_timestamp(), heartbeat = clock_timestamp(), schema = $6::int RETURNING 1)"
        "SELECT (SELECT count(*) FROM rel), (SELECT count(*) FROM n), (SELECT count(*) FROM up)",
        6, p, NULL, NULL);
    g16_status st = r ? G16_OK : G16_ERR_IO;
    if (r && atoi(PQgetvalue(r, 0, 0)))
        svc_log(s, "info", NULL, "cluster: %s partition(s) claimed before this node restarted are queued again",
                PQgetvalue(r, 0, 0));
    PQclear(r);
    svc_pg_put(s->pg, c);
    if (st != G16_OK) return st;
    if (pthread_create(&s->cl.listener, NULL, listen_main, s) == 0) s->cl.have_listener = 1;
    if (pthread_create(&s->cl.heart, NULL, heart_main, s) == 0) s->cl.have_heart = 1;
    if (pthread_create(&s->cl.claimer, NULL, claimer_main, s) == 0) s->cl.have_claimer = 1;
    if (!s->cl.have_listener || !s->cl.have_heart || !s->cl.have_claimer)
        return g16_fail(G16_ERR_INTERNAL, "cannot start the cluster threads");
    svc_log(s, "info", NULL, "cluster: node %s (instance %s), lease %.1f s", s->node_name, s->instance, s->lease_s);
    return G16_OK;
}

void svc_cl_stop(g16_service *s)
{
    /* called with s->stopping set and every local partition cancelled (they give their claims
     * back as they end): wait for them, then for the threads */
    pthread_mutex_lock(&s->mu);
    for (svc_task *t = s->cl.tasks; t; t = t->next) task_cancel(s, t);
    pthread_cond_broadcast(&s->cv);
    while (s->cl.n_tasks) svc_wait(s, 0.1);
    pthread_mutex_unlock(&s->mu);
    if (s->cl.have_claimer) pthread_join(s->cl.claimer, NULL);
    if (s->cl.have_heart) pthread_join(s->cl.heart, NULL);
    if (s->cl.have_listener) pthread_join(s->cl.listener, NULL);
    s->cl.have_claimer = s->cl.have_heart = s->cl.have_listener = 0;
}
