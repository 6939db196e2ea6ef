/* The durable job store: one SQLite database (WAL, synchronous=FULL) in the data dir.
 * A job's row is committed before the client hears 202, and every state change is written
 * before it is shown, so that after a crash the store says what was promised: queued and
 * running jobs run again, finished ones keep their proofs. */
#include <jansson.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "service/service.h"

/* Versioned migrations, applied in order at open; PRAGMA user_version records the last. */
static const char *const migrations[] = {
    "CREATE TABLE jobs ("
    " id TEXT PRIMARY KEY,"
    " seq INTEGER NOT NULL,"
    " request_id TEXT UNIQUE,"
    " key TEXT NOT NULL,"
    " priority INTEGER NOT NULL,"
    " state INTEGER NOT NULL,"
    " parts TEXT NOT NULL,"          /* JSON [[circuit, witness], ...] */
    " created REAL NOT NULL,"
    " started REAL NOT NULL DEFAULT 0,"
    " finished REAL NOT NULL DEFAULT 0,"
    " fetched REAL NOT NULL DEFAULT 0,"
    " attempts INTEGER NOT NULL DEFAULT 0,"
    " err_code TEXT,"
    " err_msg TEXT,"
    " proof BLOB,"
    " inputs BLOB,"
    " n_inputs INTEGER NOT NULL DEFAULT 0,"
    " queued_s REAL NOT NULL DEFAULT 0,"
    " run_s REAL NOT NULL DEFAULT 0);"
    "CREATE INDEX jobs_state ON jobs(state, priority, seq);",
};

static g16_status db_fail(g16_service *s, const char *what)
{
    return g16_fail(G16_ERR_IO, "job store %s/jobs.db: %s: %s", s->data_dir, what,
                    sqlite3_errmsg(s->db));
}

g16_status svc_store_open(g16_service *s)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/jobs.db", s->data_dir);
    if (sqlite3_open_v2(path, &s->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX,
                        NULL) != SQLITE_OK) {
        g16_status st = g16_fail(G16_ERR_IO, "job store %s: cannot open: %s", path,
                                 s->db ? sqlite3_errmsg(s->db) : "out of memory");
        sqlite3_close(s->db);
        s->db = NULL;
        return st;
    }
    sqlite3_busy_timeout(s->db, 10000);
    char *err = NULL;
    if (sqlite3_exec(s->db, "PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL;", NULL, NULL, &err)) {
        g16_status st = g16_fail(G16_ERR_IO, "job store %s: %s", path, err ? err : "?");
        sqlite3_free(err);
        return st;
    }
    sqlite3_stmt *q;
    if (sqlite3_prepare_v2(s->db, "PRAGMA user_version", -1, &q, NULL)) return db_fail(s, "version");
    int version = sqlite3_step(q) == SQLITE_ROW ? sqlite3_column_int(q, 0) : 0;
    sqlite3_finalize(q);
    int known = (int)(sizeof migrations / sizeof *migrations);
    if (version > known)
        return g16_fail(G16_ERR_IO, "job store %s: schema version %d is newer than this g16d's (%d)",
                        path, version, known);
    for (int v = version; v < known; v++) {
        char sql[64];
        snprintf(sql, sizeof sql, "PRAGMA user_version=%d", v + 1);
        if (sqlite3_exec(s->db, "BEGIN", NULL, NULL, NULL) ||
            sqlite3_exec(s->db, migrations[v], NULL, NULL, &err) ||
            sqlite3_exec(s->db, sql, NULL, NULL, &err) ||
            sqlite3_exec(s->db, "COMMIT", NULL, NULL, &err)) {
            g16_status st = g16_fail(G16_ERR_IO, "job store %s: migration %d: %s", path, v + 1,
                                     err ? err : sqlite3_errmsg(s->db));
            sqlite3_free(err);
            sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
            return st;
        }
    }
    return G16_OK;
}

void svc_store_close(g16_service *s)
{
    if (s->db) sqlite3_close(s->db);
    s->db = NULL;
}

static char *parts_json(const svc_job *j)
{
    if (j->post) { /* {"post": {...}}: its partitions are laid out when it runs */
        json_t *o = json_pack("{s:o}", "post", svc_post_json(j->post));
        char *txt = o ? json_dumps(o, JSON_COMPACT) : NULL;
        json_decref(o);
        return txt;
    }
    json_t *a = json_array();
    for (uint32_t i = 0; i < j->n_parts; i++)
        json_array_append_new(a, json_pack("[ss]", j->parts[i].circuit, j->parts[i].witness));
    char *txt = json_dumps(a, JSON_COMPACT);
    json_decref(a);
    return txt;
}

static void bind_text(sqlite3_stmt *q, int i, const char *t)
{
    if (t) sqlite3_bind_text(q, i, t, -1, SQLITE_TRANSIENT);
    else sqlite3_bind_null(q, i);
}

g16_status svc_store_insert(g16_service *s, const svc_job *j)
{
    char *parts = parts_json(j);
    if (!parts) return g16_fail(G16_ERR_NOMEM, "job %s: no memory for its record", j->id);
    pthread_mutex_lock(&s->db_mu);
    sqlite3_stmt *q;
    g16_status st = G16_OK;
    if (sqlite3_prepare_v2(s->db,
                           "INSERT INTO jobs(id, seq, request_id, key, priority, state, parts, created)"
                           " VALUES(?,?,?,?,?,?,?,?)", -1, &q, NULL)) {
        st = db_fail(s, "insert");
    } else {
        sqlite3_bind_text(q, 1, j->id, -1, SQLITE_STATIC);
        sqlite3_bind_int64(q, 2, (sqlite3_int64)j->seq);
        bind_text(q, 3, j->request_id);
        sqlite3_bind_text(q, 4, j->key, -1, SQLITE_STATIC);
        sqlite3_bind_int(q, 5, (int)j->prio);
        sqlite3_bind_int(q, 6, (int)j->state);
        sqlite3_bind_text(q, 7, parts, -1, SQLITE_STATIC);
        sqlite3_bind_double(q, 8, j->created);
        if (sqlite3_step(q) != SQLITE_DONE) st = db_fail(s, "insert");
        sqlite3_finalize(q);
    }
    pthread_mutex_unlock(&s->db_mu);
    free(parts);
    return st;
}

g16_status svc_store_update(g16_service *s, const svc_job *j)
{
    pthread_mutex_lock(&s->db_mu);
    sqlite3_stmt *q;
    g16_status st = G16_OK;
    if (sqlite3_prepare_v2(s->db,
                           "UPDATE jobs SET state=?, started=?, finished=?, fetched=?, attempts=?,"
                           " err_code=?, err_msg=?, proof=?, inputs=?, n_inputs=?, queued_s=?, run_s=?"
                           " WHERE id=?", -1, &q, NULL)) {
        st = db_fail(s, "update");
    } else {
        sqlite3_bind_int(q, 1, (int)j->state);
        sqlite3_bind_double(q, 2, j->started);
        sqlite3_bind_double(q, 3, j->finished);
        sqlite3_bind_double(q, 4, j->fetched);
        sqlite3_bind_int(q, 5, (int)j->attempts);
        bind_text(q, 6, j->err_code[0] ? j->err_code : NULL);
        bind_text(q, 7, j->err_msg);
        if (j->proof) sqlite3_bind_blob(q, 8, j->proof, (int)j->proof_len, SQLITE_STATIC);
        else sqlite3_bind_null(q, 8);
        if (j->inputs)
            sqlite3_bind_blob(q, 9, j->inputs, (int)(32ull * j->n_inputs * j->n_parts), SQLITE_STATIC);
        else sqlite3_bind_null(q, 9);
        sqlite3_bind_int(q, 10, (int)j->n_inputs);
        sqlite3_bind_double(q, 11, j->queued_s);
        sqlite3_bind_double(q, 12, j->run_s);
        sqlite3_bind_text(q, 13, j->id, -1, SQLITE_STATIC);
        if (sqlite3_step(q) != SQLITE_DONE) st = db_fail(s, "update");
        sqlite3_finalize(q);
    }
    pthread_mutex_unlock(&s->db_mu);
    return st;
}

g16_status svc_store_delete(g16_service *s, const char *id)
{
    pthread_mutex_lock(&s->db_mu);
    sqlite3_stmt *q;
    g16_status st = G16_OK;
    if (sqlite3_prepare_v2(s->db, "DELETE FROM jobs WHERE id=?", -1, &q, NULL)) {
        st = db_fail(s, "delete");
    } else {
        sqlite3_bind_text(q, 1, id, -1, SQLITE_STATIC);
        if (sqlite3_step(q) != SQLITE_DONE) st = db_fail(s, "delete");
        sqlite3_finalize(q);
    }
    pthread_mutex_unlock(&s->db_mu);
    return st;
}

static char *col_dup(sqlite3_stmt *q, int i)
{
    const unsigned char *t = sqlite3_column_text(q, i);
    return t ? svc_strdup((const char *)t) : NULL;
}

/* A blob column of exactly want bytes, copied with a NUL after it (JSON results are text), or
 * NULL. */
static void *col_blob(sqlite3_stmt *q, int i, size_t want)
{
    const void *b = sqlite3_column_blob(q, i);
    if (!b || (size_t)sqlite3_column_bytes(q, i) != want || !want) return NULL;
    char *p = malloc(want + 1);
    if (p) {
        memcpy(p, b, want);
        p[want] = 0;
    }
    return p;
}

/* Rebuilds one job from its row; NULL when the row is not one this version wrote. */
static svc_job *row_job(sqlite3_stmt *q)
{
    svc_job *j = calloc(1, sizeof *j);
    if (!j) return NULL;
    const unsigned char *id = sqlite3_column_text(q, 0);
    json_t *parts = NULL;
    if (!id || strlen((const char *)id) != SVC_ID_LEN) goto bad;
    memcpy(j->id, id, SVC_ID_LEN + 1);
    j->seq = (uint64_t)sqlite3_column_int64(q, 1);
    j->request_id = col_dup(q, 2);
    j->key = col_dup(q, 3);
    j->prio = (g16_priority)sqlite3_column_int(q, 4);
    j->state = (svc_state)sqlite3_column_int(q, 5);
    if (!j->key || j->prio > G16_PRIO_LOW || j->state > SVC_CANCELLED) goto bad;
    const unsigned char *pt = sqlite3_column_text(q, 6);
    parts = pt ? json_loads((const char *)pt, 0, NULL) : NULL;
    json_t *post = json_object_get(parts, "post");
    if (post) {
        char msg[256];
        /* no partition cap: the job was checked against this daemon's when it was taken */
        if (svc_post_parse(&j->post, &j->n_parts, post, UINT32_MAX, msg, sizeof msg) != G16_OK) goto bad;
    } else if (!json_is_array(parts) || json_array_size(parts) == 0) {
        goto bad;
    } else {
        j->n_parts = (uint32_t)json_array_size(parts);
    }
    j->parts = calloc(j->n_parts, sizeof *j->parts);
    if (!j->parts) goto bad;
    for (uint32_t i = 0; post && i < j->n_parts; i++) j->parts[i].stage = -1;
    for (uint32_t i = 0; !post && i < j->n_parts; i++) {
        const char *c = json_string_value(json_array_get(json_array_get(parts, i), 0));
        const char *w = json_string_value(json_array_get(json_array_get(parts, i), 1));
        if (!c || !w) goto bad;
        j->parts[i].circuit = svc_strdup(c);
        j->parts[i].witness = svc_strdup(w);
        j->parts[i].stage = -1;
    }
    json_decref(parts);
    parts = NULL;
    j->created = sqlite3_column_double(q, 7);
    j->started = sqlite3_column_double(q, 8);
    j->finished = sqlite3_column_double(q, 9);
    j->fetched = sqlite3_column_double(q, 10);
    j->attempts = (unsigned)sqlite3_column_int(q, 11);
    const unsigned char *ec = sqlite3_column_text(q, 12);
    if (ec) snprintf(j->err_code, sizeof j->err_code, "%s", (const char *)ec);
    j->err_msg = col_dup(q, 13);
    j->n_inputs = (uint32_t)sqlite3_column_int(q, 16);
    j->zkey = !j->post && j->parts[0].circuit[0] == 0; /* snarkjs partitions have no circuit */
    if (j->state == SVC_DONE) {
        /* a snarkjs job's result is JSON text of any length */
        j->proof_len = j->zkey ? (size_t)sqlite3_column_bytes(q, 14) : (size_t)G16_PROOF_BYTES * j->n_parts;
        j->proof = col_blob(q, 14, j->proof_len);
        if (!j->proof) goto bad;
        j->inputs = col_blob(q, 15, 32ull * j->n_inputs * j->n_parts);
    }
    j->queued_s = sqlite3_column_double(q, 17);
    j->run_s = sqlite3_column_double(q, 18);
    return j;
bad:
    json_decref(parts);
    svc_job_free(j);
    return NULL;
}

g16_status svc_store_load(g16_service *s, void (*add)(g16_service *, svc_job *))
{
    pthread_mutex_lock(&s->db_mu);
    sqlite3_stmt *q;
    g16_status st = G16_OK;
    if (sqlite3_prepare_v2(s->db,
                           "SELECT id, seq, request_id, key, priority, state, parts, created, started,"
                           " finished, fetched, attempts, err_code, err_msg, proof, inputs, n_inputs,"
                           " queued_s, run_s FROM jobs ORDER BY seq", -1, &q, NULL)) {
        st = db_fail(s, "load");
    } else {
        int rc;
        while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
            svc_job *j = row_job(q);
            if (!j) {
                const unsigned char *id = sqlite3_column_text(q, 0);
                svc_log(s, "error", id ? (const char *)id : "?",
                        "job store: a row this version cannot read was skipped (kept in the store)");
                continue;
            }
            add(s, j);
        }
        if (rc != SQLITE_DONE) st = db_fail(s, "load");
        sqlite3_finalize(q);
    }
    pthread_mutex_unlock(&s->db_mu);
    return st;
}
