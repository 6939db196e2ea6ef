/* Cluster mode (`g16d --cluster postgresql://...`, docs/cluster.md): the job store is one
 * PostgreSQL database shared by every node, and partitions are the unit of work.  This file
 * holds the schema and the API's side: submit, status, proofs, cancel, lists, the cluster view.
 * cluster_run.c holds the node's side: claims, leases, the listener.
 *
 * Every write is one SQL statement (CTEs where several rows change together), so a statement
 * retried after a lost connection never leaves half a change behind. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "service/cluster.h"
#include "service/service.h"

/* Versioned migrations, applied in order under an advisory lock (nodes may start together). */
static const char *const migrations[] = {
    "CREATE TABLE g16_jobs ("
    " id text PRIMARY KEY,"
    " request_id text UNIQUE,"
    " key text NOT NULL,"
    " zkey boolean NOT NULL DEFAULT false,"
    " priority int NOT NULL,"
    " state int NOT NULL,"
    " n_parts int NOT NULL,"
    " seq bigserial,"
    " created double precision NOT NULL,"
    " started double precision NOT NULL DEFAULT 0,"
    " finished double precision NOT NULL DEFAULT 0,"
    " fetched double precision NOT NULL DEFAULT 0,"
    " node text,"
    " err_code text,"
    " err_msg text);"
    "CREATE TABLE g16_parts ("
    " job text NOT NULL REFERENCES g16_jobs(id) ON DELETE CASCADE,"
    " idx int NOT NULL,"
    " circuit text NOT NULL,"
    " witness text NOT NULL,"
    " priority int NOT NULL,"
    " seq bigint NOT NULL,"
    " state int NOT NULL DEFAULT 0,"   /* 0 queued, 1 claimed, 2 done, 3 failed, 4 cancelled */
    " owner text,"
    " epoch bigint NOT NULL DEFAULT 0,"
    " lease_until timestamptz,"
    " attempts int NOT NULL DEFAULT 0,"
    " proof bytea,"
    " inputs bytea,"
    " n_inputs int NOT NULL DEFAULT 0,"
    " seconds double precision NOT NULL DEFAULT 0,"
    " proved_by text,"
    " err text,"
    " PRIMARY KEY (job, idx));"
    "CREATE INDEX g16_parts_queue ON g16_parts (priority, seq, idx) WHERE state = 0;"
    "CREATE INDEX g16_parts_owner ON g16_parts (owner) WHERE state = 1;"
    "CREATE INDEX g16_jobs_state ON g16_jobs (state);"
    "CREATE TABLE g16_nodes ("
    " name text PRIMARY KEY,"
    " instance text NOT NULL,"
    " addr text,"
    " devices int NOT NULL,"
    " backend text NOT NULL,"
    " started timestamptz NOT NULL,"
    " heartbeat timestamptz NOT NULL);",
    /* 2: PoSt jobs: the request ({"kind", "sector_size", "randomness", "vanilla"}, paths resolved
     * at submit); its partitions' circuit and witness are empty, each node lays its partition out */
    "ALTER TABLE g16_jobs ADD COLUMN post text;"
    /* the schema each node runs (a node of schema 1 would claim a PoSt partition and fail it) */
    "ALTER TABLE g16_nodes ADD COLUMN schema int NOT NULL DEFAULT 1;",
};

int svc_cl_schema(void) { return (int)(sizeof migrations / sizeof *migrations); }

g16_status svc_cl_migrate(g16_service *s)
{
    PGconn *c = svc_pg_get(s->pg);
    g16_status st = svc_pg_run(s->pg, &c,
                               "SELECT pg_advisory_lock(7616);"
                               "CREATE TABLE IF NOT EXISTS g16_schema (version int NOT NULL);"
                               "INSERT INTO g16_schema SELECT 0 WHERE NOT EXISTS (SELECT 1 FROM g16_schema)");
    PGresult *r = st == G16_OK ? svc_pg_exec(s->pg, &c, "SELECT version FROM g16_schema", 0, NULL, NULL, NULL)
                               : NULL;
    int version = r && PQntuples(r) ? atoi(PQgetvalue(r, 0, 0)) : -1;
    PQclear(r);
    int known = (int)(sizeof migrations / sizeof *migrations);
    if (version < 0) st = G16_ERR_IO;
    else if (version > known)
        st = g16_fail(G16_ERR_IO, "--cluster: schema version %d is newer than this g16d's (%d)", version, known);
    for (int v = version; st == G16_OK && v >= 0 && v < known; v++) {
        char sql[64];
        snprintf(sql, sizeof sql, ";UPDATE g16_schema SET version = %d", v + 1);
        size_t n = strlen(migrations[v]) + strlen(sql) + 16;
        char *all = malloc(n);
        if (!all) {
            st = g16_fail(G16_ERR_NOMEM, "no memory");
            break;
        }
        snprintf(all, n, "BEGIN;%s%s;COMMIT", migrations[v], sql);
        st = svc_pg_run(s->pg, &c, all);
        free(all);
        if (st != G16_OK) {
            g16_fail_ctx(st, "--cluster: migration %d", v + 1);
            svc_pg_run(s->pg, &c, "ROLLBACK");
        }
    }
    svc_pg_run(s->pg, &c, "SELECT pg_advisory_unlock(7616)");
    svc_pg_put(s->pg, c);
    return st;
}

/* ---------------------------------------------------------------- helpers */
/* A PostgreSQL text[] literal of the strings. */
static char *pg_array(char *const *v, uint32_t n, size_t stride_ptrs)
{
    size_t cap = 3;
    for (uint32_t i = 0; i < n; i++) cap += 2 * strlen(v[i * stride_ptrs]) + 3;
    char *out = malloc(cap), *p = out;
    if (!out) return NULL;
    *p++ = '{';
    for (uint32_t i = 0; i < n; i++) {
        if (i) *p++ = ',';
        *p++ = '"';
        for (const char *q = v[i * stride_ptrs]; *q; q++) {
            if (*q == '"' || *q == '\\') *p++ = '\\';
            *p++ = *q;
        }
        *p++ = '"';
    }
    *p++ = '}';
    *p = 0;
    return out;
}

static PGresult *q(g16_service *s, PGconn **c, const char *sql, int n, const char *const *params)
{
    return svc_pg_exec(s->pg, c, sql, n, params, NULL, NULL);
}

/* ---------------------------------------------------------------- submit */
g16_status svc_cl_submit(g16_service *s, char id_out[SVC_ID_LEN + 1], int *existed, int *state, svc_job *d)
{
    char **cs = malloc(d->n_parts * sizeof *cs), **ws = malloc(d->n_parts * sizeof *ws);
    if (!cs || !ws) {
        free(cs);
        free(ws);
        return g16_fail(G16_ERR_NOMEM, "no memory");
    }
    for (uint32_t i = 0; i < d->n_parts; i++) { /* a PoSt's partitions name no files */
        cs[i] = d->parts[i].circuit ? d->parts[i].circuit : "";
        ws[i] = d->parts[i].witness ? d->parts[i].witness : "";
    }
    char *ca = pg_array(cs, d->n_parts, 1), *wa = pg_array(ws, d->n_parts, 1);
    free(cs);
    free(ws);
    json_t *pj = d->post ? svc_post_json(d->post) : NULL;
    char *post = pj ? json_dumps(pj, JSON_COMPACT) : NULL;
    json_decref(pj);
    if (d->post) { /* during a rolling upgrade: no live node may be one that cannot run it */
        char lease[32];
        snprintf(lease, sizeof lease, "%.3f", 3 * s->lease_s);
        const char *lp[] = {lease};
        PGconn *c = svc_pg_get(s->pg);
        PGresult *r = q(s, &c,
                        "SELECT string_agg(name, ', ' ORDER BY name) FROM g16_nodes WHERE schema < 2"
                        " AND heartbeat > clock_timestamp() - make_interval(secs => $1::float8)", 1, lp);
        g16_status st = !r ? G16_ERR_IO
                        : PQgetisnull(r, 0, 0) ? G16_OK
                        : g16_fail(G16_ERR_BACKEND, "PoSt jobs need every live node at g16d's schema 2 or later; "
                                   "node(s) %s run an older g16d: upgrade them first", PQgetvalue(r, 0, 0));
        PQclear(r);
        svc_pg_put(s->pg, c);
        if (st != G16_OK) {
            free(ca);
            free(wa);
            free(post);
            return st;
        }
    }
    char prio[8], nparts[16], created[32];
    snprintf(prio, sizeof prio, "%d", (int)d->prio);
    snprintf(nparts, sizeof nparts, "%u", d->n_parts);
    snprintf(created, sizeof created, "%.6f", svc_now());
    const char *p[] = {d->id, d->request_id, d->key, d->zkey ? "true" : "false", prio, nparts, created,
                       s->node_name, ca, wa, post};
    g16_status st = G16_OK;
    PGconn *c = svc_pg_get(s->pg);
    int ok = ca && wa && (post || !d->post);
    PGresult *r = ok ? q(s, &c,
        "WITH j AS (INSERT INTO g16_jobs (id, request_id, key, zkey, priority, state, n_parts, created, node, post)"
        "  VALUES ($1, $2, $3, $4, $5, 0, $6, $7, $8, $11) ON CONFLICT (request_id) DO NOTHING RETURNING id, seq),"
        " p AS (INSERT INTO g16_parts (job, idx, circuit, witness, priority, seq)"
        "  SELECT j.id, t.i - 1, t.c, t.w, $5, j.seq FROM j,"
        "  unnest($9::text[], $10::text[]) WITH ORDINALITY AS t(c, w, i) RETURNING 1),"
        " n AS (SELECT pg_notify('g16', 'submit') FROM j)"
        "SELECT (SELECT id FROM j), (SELECT count(*) FROM p), (SELECT count(*) FROM n),"
        " (SELECT id FROM g16_jobs WHERE request_id = $2), (SELECT state FROM g16_jobs WHERE request_id = $2)", 11, p)
                     : NULL;
    if (!r) {
        st = ok ? G16_ERR_IO : g16_fail(G16_ERR_NOMEM, "no memory");
    } else if (!PQgetisnull(r, 0, 0)) {
        snprintf(id_out, SVC_ID_LEN + 1, "%s", PQgetvalue(r, 0, 0));
        *existed = 0;
        *state = SVC_QUEUED;
    } else if (!PQgetisnull(r, 0, 3)) {
        snprintf(id_out, SVC_ID_LEN + 1, "%s", PQgetvalue(r, 0, 3));
        *existed = 1;
        *state = atoi(PQgetvalue(r, 0, 4));
    } else {
        st = g16_fail(G16_ERR_IO, "the job was not stored");
    }
    PQclear(r);
    svc_pg_put(s->pg, c);
    free(ca);
    free(wa);
    free(post);
    return st;
}

/* ---------------------------------------------------------------- reads */
static const char *const part_state_names[] = {"queued", "running", "done", "failed", "cancelled"};

static json_t *job_row_json(PGresult *r, int i)
{
    /* id, request_id, key, zkey, priority, state, n_parts, created, started, finished, err_code, err_msg, post */
    int state = atoi(PQgetvalue(r, i, 5));
    json_t *o = json_pack("{s:s,s:s,s:s,s:s,s:I,s:f,s:f,s:f}", "id", PQgetvalue(r, i, 0), "state",
                          svc_state_name((svc_state)state), "key", PQgetvalue(r, i, 2), "priority",
                          svc_prio_name((g16_priority)atoi(PQgetvalue(r, i, 4))), "partitions",
                          (json_int_t)atoi(PQgetvalue(r, i, 6)), "created", atof(PQgetvalue(r, i, 7)),
                          "started", atof(PQgetvalue(r, i, 8)), "finished", atof(PQgetvalue(r, i, 9)));
    if (!PQgetisnull(r, i, 1)) json_object_set_new(o, "request_id", json_string(PQgetvalue(r, i, 1)));
    json_t *post = PQgetisnull(r, i, 12) ? NULL : json_loads(PQgetvalue(r, i, 12), 0, NULL);
    const char *pk = json_string_value(json_object_get(post, "kind"));
    json_object_set_new(o, "kind", json_string(post ? (pk && !strcmp(pk, "winning") ? "winning-post" : "window-post")
                                               : PQgetvalue(r, i, 3)[0] == 't' ? "snarkjs" : "bellperson"));
    if (post) json_object_set_new(o, "post", post);
    if (!PQgetisnull(r, i, 10))
        json_object_set_new(o, "error", json_pack("{s:s,s:s}", "code", PQgetvalue(r, i, 10), "message",
                                                  PQgetisnull(r, i, 11) ? "" : PQgetvalue(r, i, 11)));
    return o;
}

#define JOB_COLS                                                                                            \
    "id, request_id, key, zkey, priority, state, n_parts, created, started, finished, err_code, err_msg, post"

/* The job as GET /v1/jobs/{id} shows it.  Out: *o, or NULL when there is no such job. */
static g16_status job_json(g16_service *s, PGconn **c, const char *id, json_t **o, int *state)
{
    const char *p[] = {id};
    *o = NULL;
    PGresult *r = q(s, c, "SELECT " JOB_COLS " FROM g16_jobs WHERE id = $1", 1, p);
    if (!r) return G16_ERR_IO;
    if (!PQntuples(r)) {
        PQclear(r);
        return G16_OK;
    }
    *o = job_row_json(r, 0);
    *state = atoi(PQgetvalue(r, 0, 5));
    int zkey = PQgetvalue(r, 0, 3)[0] == 't', post = !PQgetisnull(r, 0, 12);
    PQclear(r);
    r = q(s, c,
          "SELECT idx, circuit, witness, state, owner, attempts, seconds, proved_by, inputs, n_inputs, err,"
          " extract(epoch from lease_until - clock_timestamp()) FROM g16_parts WHERE job = $1 ORDER BY idx",
          1, p);
    if (!r) return G16_ERR_IO;
    json_t *parts = json_array();
    for (int i = 0; i < PQntuples(r); i++) {
        int ps = atoi(PQgetvalue(r, i, 3));
        json_t *pj = post ? json_object()
                   : zkey ? json_pack("{s:s}", "wtns", PQgetvalue(r, i, 2))
                          : json_pack("{s:s,s:s}", "circuit", PQgetvalue(r, i, 1), "witness", PQgetvalue(r, i, 2));
        json_object_set_new(pj, "stage", json_string(ps >= 0 && ps < 5 ? part_state_names[ps] : "?"));
        json_object_set_new(pj, "attempts", json_integer(atoi(PQgetvalue(r, i, 5))));
        if (ps == 1) {
            json_object_set_new(pj, "node", json_string(PQgetvalue(r, i, 4)));
            json_object_set_new(pj, "lease_left_s", json_real(atof(PQgetvalue(r, i, 11))));
        }
        if (ps == 2) {
            json_object_set_new(pj, "seconds", json_real(atof(PQgetvalue(r, i, 6))));
            json_object_set_new(pj, "node", json_string(PQgetvalue(r, i, 7)));
            size_t len = 0;
            unsigned char *in = PQgetisnull(r, i, 8) ? NULL
                                : PQunescapeBytea((const unsigned char *)PQgetvalue(r, i, 8), &len);
            int n_in = atoi(PQgetvalue(r, i, 9));
            if (in && len == 32u * (unsigned)n_in) {
                json_t *a = json_array();
                for (int k = 0; k < n_in; k++) {
                    char h[67] = "0x";
                    for (int b = 0; b < 32; b++) sprintf(h + 2 + 2 * b, "%02x", in[32 * k + b]);
                    json_array_append_new(a, json_string(h));
                }
                json_object_set_new(pj, "inputs", a);
            }
            PQfreemem(in);
        }
        if (!PQgetisnull(r, i, 10)) json_object_set_new(pj, "error", json_string(PQgetvalue(r, i, 10)));
        json_array_append_new(parts, pj);
    }
    PQclear(r);
    json_object_set_new(*o, "partitions", parts);
    return G16_OK;
}

void svc_cl_get_job(g16_service *s, svc_reply *rep, const char *id, double wait)
{
    double until = svc_now() + wait;
    PGconn *c = svc_pg_get(s->pg);
    json_t *o = NULL;
    int state = 0;
    for (;;) {
        if (job_json(s, &c, id, &o, &state) != G16_OK) {
            svc_reply_error(rep, 503, "store", "%s", g16_last_error());
            break;
        }
        if (!o) {
            svc_reply_error(rep, 404, "not_found", "no job %s", id);
            break;
        }
        double left = until - svc_now();
        if (state >= SVC_DONE || left <= 0 || s->stopping) {
            svc_reply_json(rep, 200, o);
            o = NULL;
            break;
        }
        json_decref(o);
        o = NULL;
        /* the listener broadcasts on every job's end; a missed notification costs a second */
        pthread_mutex_lock(&s->mu);
        svc_wait(s, left < 1 ? left : 1);
        pthread_mutex_unlock(&s->mu);
    }
    json_decref(o);
    svc_pg_put(s->pg, c);
}

void svc_cl_proof(g16_service *s, svc_reply *rep, const char *id, const char *file, long part)
{
    const char *p[] = {id};
    PGconn *c = svc_pg_get(s->pg);
    PGresult *r = q(s, &c, "SELECT state, zkey FROM g16_jobs WHERE id = $1", 1, p);
    PGresult *pr = NULL;
    if (!r) {
        svc_reply_error(rep, 503, "store", "%s", g16_last_error());
    } else if (!PQntuples(r)) {
        svc_reply_error(rep, 404, "not_found", "no job %s", id);
    } else if (atoi(PQgetvalue(r, 0, 0)) != SVC_DONE) {
        svc_reply_error(rep, 409, "not_done", "job %s is %s: a proof exists once it is done", id,
                        svc_state_name((svc_state)atoi(PQgetvalue(r, 0, 0))));
    } else if (file && PQgetvalue(r, 0, 1)[0] != 't') {
        svc_reply_error(rep, 404, "not_found", "job %s is not a snarkjs job: GET /v1/jobs/%s/proof", id, id);
    } else if (!(pr = q(s, &c,
                        "WITH f AS (UPDATE g16_jobs SET fetched = extract(epoch from clock_timestamp())"
                        " WHERE id = $1 AND fetched = 0 RETURNING 1)"
                        "SELECT proof, (SELECT count(*) FROM f) FROM g16_parts WHERE job = $1 ORDER BY idx",
                        1, p))) {
        svc_reply_error(rep, 503, "store", "%s", g16_last_error());
    } else if (PQgetvalue(r, 0, 1)[0] == 't') {
        /* snarkjs: each partition's proof is the JSON {"proof": ..., "public": ...} */
        json_t *all = json_array();
        for (int i = 0; i < PQntuples(pr); i++) {
            size_t len;
            unsigned char *b = PQunescapeBytea((const unsigned char *)PQgetvalue(pr, i, 0), &len);
            json_t *pj = b ? json_loadb((const char *)b, len, 0, NULL) : NULL;
            json_array_append_new(all, pj ? pj : json_null());
            PQfreemem(b);
        }
        json_t *out = NULL;
        if (!file) out = json_pack("{s:o}", "partitions", all);
        else if (part >= 0 && (size_t)part < json_array_size(all))
            out = json_incref(json_object_get(json_array_get(all, (size_t)part), file));
        if (file) json_decref(all);
        if (!out) {
            svc_reply_error(rep, 404, "not_found", "job %s has no partition %ld", id, part);
        } else {
            svc_reply_json(rep, 200, out);
        }
    } else {
        size_t n = (size_t)PQntuples(pr);
        rep->body = malloc(n * G16_PROOF_BYTES + 1);
        size_t at = 0;
        for (size_t i = 0; rep->body && i < n; i++) {
            size_t len;
            unsigned char *b = PQunescapeBytea((const unsigned char *)PQgetvalue(pr, (int)i, 0), &len);
            if (b && len == G16_PROOF_BYTES) memcpy(rep->body + at, b, len), at += len;
            PQfreemem(b);
        }
        if (!rep->body || at != n * G16_PROOF_BYTES) {
            free(rep->body);
            rep->body = NULL;
            svc_reply_error(rep, 500, "internal", "job %s: its stored proofs are incomplete", id);
        } else {
            rep->len = at;
            rep->status = 200;
            rep->ctype = "application/octet-stream";
        }
    }
    PQclear(pr);
    PQclear(r);
    svc_pg_put(s->pg, c);
}

void svc_cl_cancel(g16_service *s, svc_reply *rep, const char *id)
{
    char now[32];
    snprintf(now, sizeof now, "%.6f", svc_now());
    const char *p[] = {id, now};
    PGconn *c = svc_pg_get(s->pg);
    PGresult *r = q(s, &c,
                    "WITH j AS (UPDATE g16_jobs SET state = 4, finished = $2, err_code = 'cancelled',"
                    "  err_msg = 'cancelled by a client' WHERE id = $1 AND state < 2 RETURNING id),"
                    " p AS (UPDATE g16_parts SET state = 4, owner = NULL, lease_until = NULL"
                    "  WHERE job = $1 AND state IN (0, 1) AND EXISTS (SELECT 1 FROM j) RETURNING idx),"
                    " n AS (SELECT pg_notify('g16', 'cancel:' || $1) FROM j),"
                    " d AS (DELETE FROM g16_jobs WHERE id = $1 AND state >= 2 RETURNING id)"
                    "SELECT (SELECT count(*) FROM j), (SELECT count(*) FROM p), (SELECT count(*) FROM n),"
                    " (SELECT count(*) FROM d)", 2, p);
    if (!r) svc_reply_error(rep, 503, "store", "%s", g16_last_error());
    else if (atoi(PQgetvalue(r, 0, 0))) {
        json_t *o = json_pack("{s:s,s:s}", "id", id, "state", "cancelled");
        svc_reply_json(rep, 200, o);
    } else if (atoi(PQgetvalue(r, 0, 3))) {
        json_t *o = json_pack("{s:s,s:s}", "id", id, "state", "deleted");
        svc_reply_json(rep, 200, o);
    } else {
        svc_reply_error(rep, 404, "not_found", "no job %s", id);
    }
    PQclear(r);
    svc_pg_put(s->pg, c);
}

void svc_cl_list(g16_service *s, svc_reply *rep, int state)
{
    char st[8];
    snprintf(st, sizeof st, "%d", state);
    const char *p[] = {st};
    PGconn *c = svc_pg_get(s->pg);
    PGresult *r = state >= 0 ? q(s, &c, "SELECT " JOB_COLS " FROM g16_jobs WHERE state = $1 ORDER BY seq LIMIT 1001", 1, p)
                             : q(s, &c, "SELECT " JOB_COLS " FROM g16_jobs ORDER BY seq LIMIT 1001", 0, NULL);
    if (!r) {
        svc_reply_error(rep, 503, "store", "%s", g16_last_error());
    } else {
        json_t *a = json_array();
        int n = PQntuples(r);
        for (int i = 0; i < n && i < 1000; i++) json_array_append_new(a, job_row_json(r, i));
        json_t *o = json_pack("{s:o,s:b}", "jobs", a, "truncated", n > 1000);
        svc_reply_json(rep, 200, o);
    }
    PQclear(r);
    svc_pg_put(s->pg, c);
}

json_t *svc_cl_queue_json(g16_service *s)
{
    PGconn *c = svc_pg_get(s->pg);
    PGresult *r = q(s, &c, "SELECT priority, count(*) FROM g16_jobs WHERE state = 0 GROUP BY priority", 0, NULL);
    json_t *o = json_pack("{s:I,s:I,s:I,s:I}", "critical", (json_int_t)0, "high", (json_int_t)0, "normal",
                          (json_int_t)0, "low", (json_int_t)0);
    for (int i = 0; r && i < PQntuples(r); i++)
        json_object_set_new(o, svc_prio_name((g16_priority)atoi(PQgetvalue(r, i, 0))),
                            json_integer(atoll(PQgetvalue(r, i, 1))));
    PQclear(r);
    svc_pg_put(s->pg, c);
    return o;
}

void svc_cl_view(g16_service *s, svc_reply *rep)
{
    PGconn *c = svc_pg_get(s->pg);
    PGresult *r = q(s, &c,
                    "SELECT n.name, n.instance, n.addr, n.devices, n.backend,"
                    " extract(epoch from n.heartbeat), extract(epoch from clock_timestamp() - n.heartbeat),"
                    " (SELECT count(*) FROM g16_parts p WHERE p.owner = n.instance AND p.state = 1),"
                    " (SELECT count(*) FROM g16_parts p WHERE p.proved_by = n.name AND p.state = 2), n.schema"
                    " FROM g16_nodes n ORDER BY n.name", 0, NULL);
    PGresult *qr = r ? q(s, &c, "SELECT count(*) FILTER (WHERE state = 0), count(*) FILTER (WHERE state = 1)"
                                " FROM g16_parts", 0, NULL)
                     : NULL;
    if (!r || !qr) {
        svc_reply_error(rep, 503, "store", "%s", g16_last_error());
    } else {
        json_t *a = json_array();
        for (int i = 0; i < PQntuples(r); i++)
            json_array_append_new(
                a, json_pack("{s:s,s:s,s:s,s:I,s:s,s:f,s:f,s:I,s:I,s:b}", "name", PQgetvalue(r, i, 0), "instance",
                             PQgetvalue(r, i, 1), "address", PQgetvalue(r, i, 2), "devices",
                             (json_int_t)atoi(PQgetvalue(r, i, 3)), "backend", PQgetvalue(r, i, 4),
                             "last_heartbeat", atof(PQgetvalue(r, i, 5)), "heartbeat_age_s",
                             atof(PQgetvalue(r, i, 6)), "leases", (json_int_t)atoll(PQgetvalue(r, i, 7)),
                             "partitions_proved", (json_int_t)atoll(PQgetvalue(r, i, 8)), "self",
                             !strcmp(PQgetvalue(r, i, 0), s->node_name)));
        for (int i = 0; i < PQntuples(r); i++)
            json_object_set_new(json_array_get(a, (size_t)i), "schema", json_integer(atoi(PQgetvalue(r, i, 9))));
        json_t *o = json_pack("{s:s,s:f,s:o,s:{s:I,s:I}}", "node", s->node_name, "lease_s", s->lease_s,
                              "nodes", a, "partitions", "queued", (json_int_t)atoll(PQgetvalue(qr, 0, 0)),
                              "leased", (json_int_t)atoll(PQgetvalue(qr, 0, 1)));
        svc_reply_json(rep, 200, o);
    }
    PQclear(qr);
    PQclear(r);
    svc_pg_put(s->pg, c);
}
