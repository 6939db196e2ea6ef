/* The endpoints (docs/daemon.md): request bodies parsed and checked field by field with
 * jansson, replies built with it.  Every error is {"error": {"code": ..., "message": ...}}. */
#include <jansson.h>
#include <limits.h>
#include <openssl/evp.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/error.h"
#include "service/cluster.h"
#include "service/service.h"

void svc_reply_error(svc_reply *r, int status, const char *code, const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    json_t *o = json_pack("{s:{s:s,s:s}}", "error", "code", code, "message", msg);
    if (!o) /* a message that is not UTF-8 (a file name, say) */
        o = json_pack("{s:{s:s,s:s}}", "error", "code", code, "message", "(the message is not valid UTF-8)");
    free(r->body);
    r->body = o ? json_dumps(o, JSON_COMPACT) : NULL;
    json_decref(o);
    r->len = r->body ? strlen(r->body) : 0;
    r->status = status;
    r->ctype = "application/json";
    if (status == 429 || status == 503) r->retry_after = 5;
}

void svc_reply_json(svc_reply *r, int status, json_t *o)
{
    free(r->body);
    r->body = o ? json_dumps(o, JSON_COMPACT) : NULL;
    json_decref(o);
    if (!r->body) {
        svc_reply_error(r, 500, "internal", "no memory for the reply");
        return;
    }
    r->len = strlen(r->body);
    r->status = status;
    r->ctype = "application/json";
}

static void hex32(char out[67], const uint8_t *b)
{
    out[0] = '0';
    out[1] = 'x';
    for (int i = 0; i < 32; i++) sprintf(out + 2 + 2 * i, "%02x", b[i]);
}

static json_t *stage_json(const g16_part_status *ps)
{
    json_t *sec = json_object();
    for (int k = 0; k < G16_PART_ACTIVE_STAGES; k++)
        json_object_set_new(sec, g16_part_stage_name((g16_part_stage)k), json_real(ps->stage_s[k]));
    return json_pack("{s:s,s:o}", "stage", g16_part_stage_name(ps->stage), "seconds", sec);
}

/* With s->mu held. */
static json_t *job_json(g16_service *s, const svc_job *j)
{
    g16_part_status *live = NULL;
    if (j->state == SVC_RUNNING && j->engine_id) {
        live = calloc(j->n_parts, sizeof *live);
        if (live && g16_engine_job_parts(s->engine, j->engine_id, live, j->n_parts) != G16_OK) {
            free(live);
            live = NULL;
        }
    }
    json_t *parts = json_array();
    for (uint32_t i = 0; i < j->n_parts; i++) {
        json_t *p = j->post ? json_object()
                    : j->zkey ? json_pack("{s:s}", "wtns", j->parts[i].witness)
                              : json_pack("{s:s,s:s}", "circuit", j->parts[i].circuit, "witness",
                                          j->parts[i].witness);
        g16_part_status ps = {0};
        const char *stage = j->state == SVC_QUEUED ? "queued" : j->state == SVC_RUNNING ? "loading" : NULL;
        if (live) {
            ps = live[i];
        } else if (j->parts[i].stage >= 0 && j->state != SVC_QUEUED && j->state != SVC_RUNNING) {
            ps.stage = (g16_part_stage)j->parts[i].stage;
            memcpy(ps.stage_s, j->parts[i].stage_s, sizeof ps.stage_s);
        } else {
            ps.stage = (g16_part_stage)-1;
        }
        if ((int)ps.stage >= 0) {
            json_t *sj = stage_json(&ps);
            json_object_update(p, sj);
            json_decref(sj);
        } else if (stage) {
            json_object_set_new(p, "stage", json_string(stage));
        }
        if (j->inputs) {
            json_t *in = json_array();
            for (uint32_t k = 0; k < j->n_inputs; k++) {
                char h[67];
                hex32(h, j->inputs + 32ull * (i * j->n_inputs + k));
                json_array_append_new(in, json_string(h));
            }
            json_object_set_new(p, "inputs", in);
        }
        json_array_append_new(parts, p);
    }
    int in_engine = live != NULL;
    free(live);
    json_t *o = json_pack("{s:s,s:s,s:s,s:s,s:f,s:f,s:f,s:I,s:f,s:f,s:o}", "id", j->id, "state",
                          svc_state_name(j->state), "key", j->key, "priority", svc_prio_name(j->prio),
                          "created", j->created, "started", j->started, "finished", j->finished,
                          "attempts", (json_int_t)j->attempts, "queued_s", j->queued_s, "run_s",
                          j->run_s, "partitions", parts);
    if (j->request_id) json_object_set_new(o, "request_id", json_string(j->request_id));
    json_object_set_new(o, "kind", json_string(j->post ? svc_post_kind_name(j->post) : j->zkey ? "snarkjs" : "bellperson"));
    if (j->post) json_object_set_new(o, "post", svc_post_json(j->post));
    if (j->state == SVC_DONE && !j->zkey)
        json_object_set_new(o, "proof_bytes", json_integer((json_int_t)G16_PROOF_BYTES * j->n_parts));
    if (j->err_code[0])
        json_object_set_new(o, "error", json_pack("{s:s,s:s}", "code", j->err_code, "message",
                                                  j->err_msg ? j->err_msg : ""));
    if (in_engine) {
        g16_job_status st;
        if (g16_engine_job_status(s->engine, &st, j->engine_id) == G16_OK)
            json_object_set_new(o, "progress",
                                json_pack("{s:I,s:I,s:I,s:f}", "synthesized", (json_int_t)st.synthesized,
                                          "proved", (json_int_t)st.proved, "finished",
                                          (json_int_t)st.finished, "run_s", st.run_s));
    }
    return o;
}

/* ---------------------------------------------------------------- POST /v1/jobs */
static int valid_name(const char *v, size_t max)
{
    size_t n = strlen(v);
    if (!n || n > max) return 0;
    for (size_t i = 0; i < n; i++) {
        char c = v[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
              c == '_' || c == '.' || c == ':'))
            return 0;
    }
    return 1;
}

/* Standard base64 (padding required), through OpenSSL's decoder.  Returns 0, or -1 for text
 * that is not base64 or empty. */
static int base64_decode(uint8_t **out, size_t *len, const char *text)
{
    size_t n = strlen(text);
    *out = NULL;
    if (!n || n % 4 || n > INT_MAX) return -1;
    uint8_t *b = malloc(n / 4 * 3 + 1);
    if (!b) return -1;
    EVP_ENCODE_CTX *ctx = EVP_ENCODE_CTX_new();
    int a = 0, f = 0;
    if (!ctx) {
        free(b);
        return -1;
    }
    EVP_DecodeInit(ctx);
    int ok = EVP_DecodeUpdate(ctx, b, &a, (const unsigned char *)text, (int)n) >= 0 &&
             EVP_DecodeFinal(ctx, b + a, &f) == 1;
    EVP_ENCODE_CTX_free(ctx);
    if (!ok || a + f == 0) {
        free(b);
        return -1;
    }
    *out = b;
    *len = (size_t)(a + f);
    return 0;
}

static const char *http_code(int http)
{
    return http == 403 ? "path_refused" : http == 422 ? "invalid_input" : http == 429 ? "queue_full"
         : http == 400 ? "bad_request" : "unavailable";
}

/* Cluster mode: the same checks, then the job goes to PostgreSQL (cluster.c). */
static void cluster_submit(g16_service *s, svc_reply *r, svc_job *d)
{
    int http = 503;
    for (uint32_t i = 0; i < d->n_parts; i++)
        if (d->parts[i].up_circuit || d->parts[i].up_witness) {
            svc_reply_error(r, 400, "bad_request", "partition %u: uploaded inputs are not taken in cluster mode "
                            "(every node must read them): name files under a shared root", i);
            return;
        }
    svc_new_id(d->id);
    g16_status st = svc_job_validate(s, d, &http);
    char id[SVC_ID_LEN + 1];
    int existed = 0, state = 0;
    if (st == G16_OK) st = svc_cl_submit(s, id, &existed, &state, d), http = 503;
    if (st != G16_OK) {
        pthread_mutex_lock(&s->mu);
        s->m.rejected++;
        pthread_mutex_unlock(&s->mu);
        svc_reply_error(r, http, http_code(http), "%s", g16_last_error());
        return;
    }
    pthread_mutex_lock(&s->mu);
    if (!existed) s->m.submitted++;
    pthread_mutex_unlock(&s->mu);
    if (!existed) svc_log(s, "info", id, "queued in the cluster: key %s, %u partition(s), %s", d->key, d->n_parts,
                          svc_prio_name(d->prio));
    svc_reply_json(r, existed ? 200 : 202, json_pack("{s:s,s:s,s:b}", "id", id, "state",
                                                 svc_state_name((svc_state)state), "existing", existed));
}

g16_status svc_submit_parse(g16_service *s, svc_reply *r, svc_job **out, const char *body, size_t len)
{
    *out = NULL;
    json_error_t err;
    json_t *o = json_loadb(body, len, JSON_REJECT_DUPLICATES, &err);
    if (!o) {
        svc_reply_error(r, 400, "bad_json", "the body is not JSON: %s at byte %d", err.text, err.position);
        return G16_ERR_FORMAT;
    }
    svc_job *d = NULL;
    const char *key, *field;
    json_t *v;
    if (!json_is_object(o)) {
        svc_reply_error(r, 400, "bad_request", "the body must be a JSON object");
        goto out;
    }
    json_object_foreach(o, field, v) {
        if (strcmp(field, "key") && strcmp(field, "partitions") && strcmp(field, "priority") &&
            strcmp(field, "request_id") && strcmp(field, "post")) {
            svc_reply_error(r, 400, "bad_request",
                            "unknown field '%s' (key, partitions or post, priority, request_id)", field);
            goto out;
        }
    }
    key = json_string_value(json_object_get(o, "key"));
    if (!key || !valid_name(key, 64)) {
        svc_reply_error(r, 400, "bad_request", "'key' must be a key name ([A-Za-z0-9_.:-], 1 to 64 characters)");
        goto out;
    }
    json_t *parts = json_object_get(o, "partitions"), *post = json_object_get(o, "post");
    size_t n = json_array_size(parts);
    if (!parts == !post) {
        svc_reply_error(r, 400, "bad_request", "a job has either 'partitions' or 'post' (a PoSt from vanilla proofs)");
        goto out;
    }
    svc_post *dpost = NULL;
    uint32_t post_parts = 0;
    if (post) {
        char msg[512];
        g16_status pst = svc_post_parse(&dpost, &post_parts, post, s->cfg.max_partitions, msg, sizeof msg);
        if (pst != G16_OK) {
            svc_reply_error(r, pst == G16_ERR_NOMEM ? 503 : 400, pst == G16_ERR_NOMEM ? "no_memory" : "bad_request",
                            "%s", msg);
            goto out;
        }
        n = post_parts;
    } else if (!json_is_array(parts) || n == 0 || n > s->cfg.max_partitions) {
        svc_reply_error(r, 400, "bad_request", "'partitions' must be an array of 1 to %u objects",
                        s->cfg.max_partitions);
        goto out;
    }
    /* a PoSt's default is its kind's (WinningPoSt CRITICAL, WindowPoSt HIGH) */
    g16_priority prio = dpost ? svc_post_priority(dpost) : G16_PRIO_NORMAL;
    json_t *pv = json_object_get(o, "priority");
    if (pv && (!json_is_string(pv) || g16_priority_parse(&prio, json_string_value(pv)) != G16_OK)) {
        svc_reply_error(r, 400, "bad_request", "'priority' must be one of critical, high, normal, low");
        svc_post_free(dpost);
        goto out;
    }
    json_t *rv = json_object_get(o, "request_id");
    if (rv && (!json_is_string(rv) || !valid_name(json_string_value(rv), 128))) {
        svc_reply_error(r, 400, "bad_request", "'request_id' must be 1 to 128 characters of [A-Za-z0-9_.:-]");
        svc_post_free(dpost);
        goto out;
    }
    d = calloc(1, sizeof *d);
    if (d) d->post = dpost;
    else svc_post_free(dpost);
    if (!d || !(d->parts = calloc(n, sizeof *d->parts))) {
        svc_reply_error(r, 503, "no_memory", "no memory for the job");
        goto out;
    }
    d->n_parts = (uint32_t)n;
    d->key = svc_strdup(key);
    const svc_key *sk = svc_key_find(s, key); /* the key list and kinds never change */
    d->zkey = sk && sk->zkey && !d->post; /* a PoSt with a .zkey key is refused by svc_job_validate */
    d->prio = prio;
    d->request_id = rv ? svc_strdup(json_string_value(rv)) : NULL;
    for (size_t i = 0; d->post && i < n; i++) d->parts[i].stage = -1;
    for (size_t i = 0; !d->post && i < n; i++) {
        json_t *p = json_array_get(parts, i);
        svc_part *dp = &d->parts[i];
        dp->stage = -1;
        if (d->zkey) { /* {"wtns": PATH} or {"wtns_b64": BASE64} */
            const char *path = json_string_value(json_object_get(p, "wtns"));
            const char *b64 = json_string_value(json_object_get(p, "wtns_b64"));
            if (!json_is_object(p) || json_object_size(p) != 1 || !path == !b64) {
                svc_reply_error(r, 400, "bad_request",
                                "partition %zu: key '%s' is a snarkjs .zkey: expected {\"wtns\": PATH.wtns} "
                                "or {\"wtns_b64\": BASE64}", i, key);
                goto out;
            }
            dp->circuit = svc_strdup("");
            if (path) {
                dp->witness = svc_strdup(path);
            } else if (base64_decode(&dp->up_witness, &dp->up_witness_len, b64)) {
                svc_reply_error(r, 400, "bad_request", "partition %zu: wtns_b64 is not base64", i);
                goto out;
            } else {
                dp->witness = svc_strdup("wtns_b64");
            }
            continue;
        }
        for (int k = 0; k < 2; k++) {
            const char *name = k ? "witness" : "circuit", *b64name = k ? "witness_b64" : "circuit_b64";
            const char *path = json_string_value(json_object_get(p, name));
            const char *b64 = json_string_value(json_object_get(p, b64name));
            if (!json_is_object(p) || json_object_size(p) != 2 || !path == !b64) {
                svc_reply_error(r, 400, "bad_request",
                                "partition %zu: expected {\"circuit\": PATH.g16c, \"witness\": PATH.g16w}, "
                                "either of them as \"circuit_b64\"/\"witness_b64\": the file in base64", i);
                goto out;
            }
            char **dst = k ? &dp->witness : &dp->circuit;
            if (path) {
                *dst = svc_strdup(path);
                continue;
            }
            uint8_t **buf = k ? &dp->up_witness : &dp->up_circuit;
            size_t *len = k ? &dp->up_witness_len : &dp->up_circuit_len;
            if (base64_decode(buf, len, b64)) {
                svc_reply_error(r, 400, "bad_request", "partition %zu: %s is not base64", i, b64name);
                goto out;
            }
            *dst = svc_strdup(b64name); /* replaced by the stored file's path at submit */
        }
    }
    *out = d;
    d = NULL;
out:
    svc_job_free(d);
    json_decref(o);
    return *out ? G16_OK : G16_ERR_FORMAT;
}

static void submit(g16_service *s, svc_reply *r, const char *body, size_t len)
{
    svc_job *d = NULL;
    if (svc_submit_parse(s, r, &d, body, len) != G16_OK) return;
    if (s->pg) {
        cluster_submit(s, r, d);
        svc_job_free(d);
        return;
    }
    svc_job *j;
    int existed, http;
    g16_status st = svc_job_submit(s, &j, &existed, &http, d);
    d = NULL; /* svc_job_submit owns it now */
    if (st != G16_OK) {
        const char *code = http_code(http);
        pthread_mutex_lock(&s->mu);
        s->m.rejected++;
        pthread_mutex_unlock(&s->mu);
        svc_reply_error(r, http, code, "%s", g16_last_error());
        goto out;
    }
    pthread_mutex_lock(&s->mu);
    /* a new job is reported as accepted (queued), even if the dispatcher already took it */
    json_t *reply = json_pack("{s:s,s:s,s:b}", "id", j->id, "state",
                              existed ? svc_state_name(j->state) : "queued", "existing", existed);
    pthread_mutex_unlock(&s->mu);
    svc_reply_json(r, http, reply);
out:
    svc_job_free(d);
}

/* ---------------------------------------------------------------- GET /v1/jobs/{id} */
/* ?wait=S: seconds, capped by max.  Returns 0, or -1 with the 400 reply made. */
static int parse_wait(svc_reply *r, const char *wait, double max, double *out)
{
    *out = 0;
    if (!wait) return 0;
    char *end;
    double w = strtod(wait, &end);
    if (end == wait || *end || !(w >= 0)) {
        svc_reply_error(r, 400, "bad_request", "?wait=S takes seconds (a number >= 0)");
        return -1;
    }
    *out = w > max ? max : w;
    return 0;
}

static void get_job(g16_service *s, svc_reply *r, const char *id, const char *wait)
{
    double w = 0;
    if (parse_wait(r, wait, s->cfg.max_wait_s, &w)) return;
    double until = svc_now() + w;
    pthread_mutex_lock(&s->mu);
    svc_job *j = svc_job_find(s, id);
    while (j && (j->state == SVC_QUEUED || j->state == SVC_RUNNING) && !s->stopping) {
        double left = until - svc_now();
        if (left <= 0) break;
        svc_wait(s, left);
        j = svc_job_find(s, id);
    }
    json_t *o = j ? job_json(s, j) : NULL;
    pthread_mutex_unlock(&s->mu);
    if (!j) svc_reply_error(r, 404, "not_found", "no job %s", id);
    else svc_reply_json(r, 200, o);
}

/* A snarkjs job's proof.json (file "proof") or public.json ("public") of partition part. */
static void get_sj_file(g16_service *s, svc_reply *r, const char *id, const char *file, const char *part)
{
    char *end;
    unsigned long idx = part ? strtoul(part, &end, 10) : 0;
    if (part && (end == part || *end)) {
        svc_reply_error(r, 400, "bad_request", "?part=N takes a partition index");
        return;
    }
    pthread_mutex_lock(&s->mu);
    svc_job *j = svc_job_find(s, id);
    json_t *o = j && j->zkey && j->state == SVC_DONE ? json_loads((const char *)j->proof, 0, NULL) : NULL;
    int known = j != NULL, zkey = j && j->zkey;
    svc_state st = j ? j->state : SVC_QUEUED;
    pthread_mutex_unlock(&s->mu);
    if (!known) svc_reply_error(r, 404, "not_found", "no job %s", id);
    else if (!zkey) svc_reply_error(r, 404, "not_found", "job %s is not a snarkjs job: GET /v1/jobs/%s/proof", id, id);
    else if (st != SVC_DONE) svc_reply_error(r, 409, "not_done", "job %s is %s", id, svc_state_name(st));
    else {
        json_t *f = json_object_get(json_array_get(json_object_get(o, "partitions"), idx), file);
        if (!f) {
            svc_reply_error(r, 404, "not_found", "job %s has no partition %lu", id, idx);
        } else {
            svc_reply_json(r, 200, json_incref(f));
            pthread_mutex_lock(&s->mu);
            if ((j = svc_job_find(s, id)) && !j->fetched) { /* the retention clock starts */
                j->fetched = svc_now();
                svc_store_update(s, j);
            }
            pthread_mutex_unlock(&s->mu);
        }
    }
    json_decref(o);
}

static void get_proof(g16_service *s, svc_reply *r, const char *id)
{
    pthread_mutex_lock(&s->mu);
    svc_job *j = svc_job_find(s, id);
    if (!j) {
        pthread_mutex_unlock(&s->mu);
        svc_reply_error(r, 404, "not_found", "no job %s", id);
        return;
    }
    if (j->state != SVC_DONE || !j->proof) {
        svc_state st = j->state;
        pthread_mutex_unlock(&s->mu);
        svc_reply_error(r, 409, "not_done", "job %s is %s: a proof exists once it is done", id,
                        svc_state_name(st));
        return;
    }
    size_t n = j->proof_len;
    r->ctype = j->zkey ? "application/json" : "application/octet-stream";
    r->body = malloc(n);
    if (r->body) memcpy(r->body, j->proof, n);
    if (!j->fetched) {
        j->fetched = svc_now();
        svc_store_update(s, j);
    }
    pthread_mutex_unlock(&s->mu);
    if (!r->body) {
        svc_reply_error(r, 503, "no_memory", "no memory for the reply");
        return;
    }
    r->len = n;
    r->status = 200;
}

static void list_jobs(g16_service *s, svc_reply *r, const char *state)
{
    int want = -1;
    if (state && (want = svc_state_parse(state)) < 0) {
        svc_reply_error(r, 400, "bad_request", "?state= takes queued, running, done, failed or cancelled");
        return;
    }
    json_t *a = json_array();
    pthread_mutex_lock(&s->mu);
    size_t count = 0;
    for (size_t i = 0; i < s->table_cap && count < 1000; i++)
        for (svc_job *j = s->table[i]; j && count < 1000; j = j->hnext) {
            if (want >= 0 && (int)j->state != want) continue;
            json_array_append_new(a, json_pack("{s:s,s:s,s:s,s:s,s:I,s:f}", "id", j->id, "state",
                                               svc_state_name(j->state), "key", j->key, "priority",
                                               svc_prio_name(j->prio), "partitions",
                                               (json_int_t)j->n_parts, "created", j->created));
            count++;
        }
    pthread_mutex_unlock(&s->mu);
    svc_reply_json(r, 200, json_pack("{s:o,s:b}", "jobs", a, "truncated", count >= 1000));
}

/* ---------------------------------------------------------------- status, keys */
static json_t *keys_json(g16_service *s)
{
    json_t *a = json_array();
    for (size_t i = 0; i < s->n_keys; i++) {
        svc_key *k = &s->keys[i];
        json_t *o = json_pack("{s:s,s:s,s:s,s:I,s:I,s:b}", "name", k->name, "path", k->path, "tier",
                              svc_tier_name(k->tier), "bytes", (json_int_t)k->bytes, "jobs",
                              (json_int_t)k->users, "loading", k->loading);
        if (k->from[0]) {
            json_object_set_new(o, "loaded_from", json_string(k->from));
            json_object_set_new(o, "load_s", json_real(k->load_s));
        }
        if (k->sj) {
            json_object_set_new(o, "proof_bytes", json_integer((json_int_t)svc_sj_proof_bytes(k->sj)));
            json_object_set_new(o, "curve", json_string(svc_sj_key_curve(k->sj)));
        }
        if (k->error) json_object_set_new(o, "error", json_string(k->error));
        json_array_append_new(a, o);
    }
    return a;
}

static void status(g16_service *s, svc_reply *r)
{
    g16_engine_stats st;
    g16_engine_stats_get(s->engine, &st);
    pthread_mutex_lock(&s->mu);
    json_t *o = json_pack(
        "{s:s,s:s,s:f,s:b,s:{s:I,s:s,s:I,s:I},s:{s:I,s:I,s:I,s:I},s:o,"
        "s:{s:I,s:I,s:I,s:I},s:I,s:I,s:I}",
        "version", g16_version(), "address", s->addr, "uptime_s", svc_now() - s->started_at,
        "ready", s->ready, "devices", "count", (json_int_t)st.devices, "backend",
        s->devices_cuda ? "cuda" : "cpu", "pw", (json_int_t)st.pw, "gw", (json_int_t)st.gw,
        "budget", "bytes", (json_int_t)st.budget_bytes, "reserved",
        (json_int_t)st.cur[G16_CTR_RESERVED_BYTES], "reserved_peak",
        (json_int_t)st.peak[G16_CTR_RESERVED_BYTES], "fixed", (json_int_t)st.fixed_bytes, "keys",
        keys_json(s), "queue", "critical", (json_int_t)s->n_queued[0], "high",
        (json_int_t)s->n_queued[1], "normal", (json_int_t)s->n_queued[2], "low",
        (json_int_t)s->n_queued[3], "running", (json_int_t)(s->n_active - s->n_queued[0] -
                                                            s->n_queued[1] - s->n_queued[2] -
                                                            s->n_queued[3]),
        "in_engine", (json_int_t)s->inflight, "jobs_held", (json_int_t)s->n_jobs);
    pthread_mutex_unlock(&s->mu);
    if (s->pg) { /* the cluster's queue, and what this node holds */
        json_object_set_new(o, "queue", svc_cl_queue_json(s));
        pthread_mutex_lock(&s->mu);
        json_object_set_new(o, "running", json_integer(s->cl.n_tasks));
        json_object_set_new(o, "cluster", json_pack("{s:s,s:s,s:f,s:I}", "node", s->node_name, "instance",
                                                    s->instance ? s->instance : "", "lease_s", s->lease_s,
                                                    "leases_held", (json_int_t)s->cl.n_tasks));
        pthread_mutex_unlock(&s->mu);
    }
    svc_reply_json(r, 200, o);
}

static void key_action(g16_service *s, svc_reply *r, const char *name, const char *action)
{
    pthread_mutex_lock(&s->mu);
    svc_key *k = svc_key_find(s, name);
    if (!k) {
        pthread_mutex_unlock(&s->mu);
        svc_reply_error(r, 404, "not_found", "no key '%s'", name);
        return;
    }
    g16_status st;
    if (!strcmp(action, "preload")) st = svc_key_acquire(s, k, 1);
    else st = svc_key_evict(s, k);
    if (st != G16_OK) {
        char msg[512];
        snprintf(msg, sizeof msg, "%s", g16_last_error());
        pthread_mutex_unlock(&s->mu);
        if (st == G16_ERR_NOMEM) svc_reply_error(r, 507, "budget", "%s", msg);
        else if (!strcmp(action, "evict")) svc_reply_error(r, 409, "in_use", "%s", msg);
        else svc_reply_error(r, 500, "key_load", "%s", msg);
        return;
    }
    json_t *o = json_pack("{s:s,s:s,s:I}", "name", k->name, "tier", svc_tier_name(k->tier), "bytes",
                          (json_int_t)k->bytes);
    pthread_mutex_unlock(&s->mu);
    svc_reply_json(r, 200, o);
}

static void readyz(g16_service *s, svc_reply *r)
{
    pthread_mutex_lock(&s->mu);
    int ready = s->ready;
    for (size_t i = 0; i < s->n_keys; i++)
        if (s->keys[i].error) ready = 0;
    json_t *o = json_pack("{s:b,s:o}", "ready", ready, "keys", keys_json(s));
    pthread_mutex_unlock(&s->mu);
    svc_reply_json(r, ready ? 200 : 503, o);
}

/* ---------------------------------------------------------------- cluster mode's job reads */
static int segment(const char *url, const char *prefix, char *seg, size_t cap, const char **rest);
static int parse_wait(svc_reply *r, const char *wait, double max, double *out);

static void cluster_jobs(g16_service *s, svc_reply *r, const char *method, const char *url, const char *wait,
                         const char *state, const char *part)
{
    char seg[160];
    const char *rest;
    int get = !strcmp(method, "GET"), del = !strcmp(method, "DELETE");
    if (!strcmp(url, "/v1/jobs")) {
        int want = -1;
        if (!get) svc_reply_error(r, 405, "method", "%s %s: only GET and POST", method, url);
        else if (state && (want = svc_state_parse(state)) < 0)
            svc_reply_error(r, 400, "bad_request", "?state= takes queued, running, done, failed or cancelled");
        else svc_cl_list(s, r, want);
        return;
    }
    if (!segment(url, "/v1/jobs/", seg, sizeof seg, &rest)) {
        svc_reply_error(r, 404, "not_found", "no endpoint %s", url);
        return;
    }
    double w = 0;
    char *end;
    long idx = part ? strtol(part, &end, 10) : 0;
    if (!*rest && get) {
        if (!parse_wait(r, wait, s->cfg.max_wait_s, &w)) svc_cl_get_job(s, r, seg, w);
    } else if (!*rest && del) {
        svc_cl_cancel(s, r, seg);
    } else if (!strcmp(rest, "/proof") && get) {
        svc_cl_proof(s, r, seg, NULL, 0);
    } else if ((!strcmp(rest, "/proof.json") || !strcmp(rest, "/public.json")) && get) {
        if (part && (end == part || *end || idx < 0))
            svc_reply_error(r, 400, "bad_request", "?part=N takes a partition index");
        else svc_cl_proof(s, r, seg, rest[1] == 'p' && rest[2] == 'r' ? "proof" : "public", idx);
    } else if (!*rest || !strcmp(rest, "/proof") || !strcmp(rest, "/proof.json") || !strcmp(rest, "/public.json")) {
        svc_reply_error(r, 405, "method", "%s %s: not allowed", method, url);
    } else {
        svc_reply_error(r, 404, "not_found", "no endpoint %s", url);
    }
}

/* ---------------------------------------------------------------- routing */
/* Splits "/v1/jobs/ID/proof" after prefix into its segment and the rest. */
static int segment(const char *url, const char *prefix, char *seg, size_t cap, const char **rest)
{
    size_t n = strlen(prefix);
    if (strncmp(url, prefix, n)) return 0;
    const char *p = url + n, *slash = strchr(p, '/');
    size_t len = slash ? (size_t)(slash - p) : strlen(p);
    if (!len || len >= cap) return 0;
    memcpy(seg, p, len);
    seg[len] = 0;
    *rest = slash ? slash : "";
    return 1;
}

void svc_api_handle(g16_service *s, svc_reply *r, const char *method, const char *url,
                    const char *wait, const char *state, const char *part, const char *body, size_t len)
{
    int get = !strcmp(method, "GET"), post = !strcmp(method, "POST"), del = !strcmp(method, "DELETE");
    char seg[160];
    const char *rest;
    if (!strcmp(url, "/healthz")) {
        if (get) svc_reply_json(r, 200, json_pack("{s:s}", "status", "ok"));
        else svc_reply_error(r, 405, "method", "%s %s: only GET", method, url);
    } else if (!strcmp(url, "/readyz")) {
        if (get) readyz(s, r);
        else svc_reply_error(r, 405, "method", "%s %s: only GET", method, url);
    } else if (!strcmp(url, "/metrics")) {
        if (!get) {
            svc_reply_error(r, 405, "method", "%s %s: only GET", method, url);
            return;
        }
        r->body = svc_metrics_text(s, &r->len);
        r->status = r->body ? 200 : 500;
        r->ctype = "text/plain; version=0.0.4; charset=utf-8";
        if (!r->body) svc_reply_error(r, 500, "internal", "no memory");
    } else if (!strcmp(url, "/v1/status")) {
        if (get) status(s, r);
        else svc_reply_error(r, 405, "method", "%s %s: only GET", method, url);
    } else if (!strcmp(url, "/v1/cluster")) {
        if (!get) svc_reply_error(r, 405, "method", "%s %s: only GET", method, url);
        else if (!s->pg) svc_reply_error(r, 404, "not_found", "this g16d is not in a cluster (--cluster)");
        else svc_cl_view(s, r);
    } else if (s->pg && (!strcmp(url, "/v1/jobs") || !strncmp(url, "/v1/jobs/", 9)) && !post) {
        cluster_jobs(s, r, method, url, wait, state, part);
    } else if (!strcmp(url, "/v1/jobs")) {
        if (post) submit(s, r, body, len);
        else if (get) list_jobs(s, r, state);
        else svc_reply_error(r, 405, "method", "%s %s: only GET and POST", method, url);
    } else if (segment(url, "/v1/jobs/", seg, sizeof seg, &rest)) {
        if (!*rest && get) get_job(s, r, seg, wait);
        else if (!*rest && del) {
            int http;
            if (svc_job_cancel(s, seg, &http) != G16_OK && http == 404)
                svc_reply_error(r, 404, "not_found", "no job %s", seg);
            else {
                pthread_mutex_lock(&s->mu);
                svc_job *j = svc_job_find(s, seg);
                json_t *o = json_pack("{s:s,s:s}", "id", seg, "state",
                                      j ? svc_state_name(j->state) : "deleted");
                pthread_mutex_unlock(&s->mu);
                svc_reply_json(r, http, o);
            }
        } else if (!strcmp(rest, "/proof") && get) get_proof(s, r, seg);
        else if (!strcmp(rest, "/proof.json") && get) get_sj_file(s, r, seg, "proof", part);
        else if (!strcmp(rest, "/public.json") && get) get_sj_file(s, r, seg, "public", part);
        else if (!*rest || !strcmp(rest, "/proof") || !strcmp(rest, "/proof.json") || !strcmp(rest, "/public.json"))
            svc_reply_error(r, 405, "method", "%s %s: not allowed", method, url);
        else svc_reply_error(r, 404, "not_found", "no endpoint %s", url);
    } else if (segment(url, "/v1/keys/", seg, sizeof seg, &rest)) {
        if (strcmp(rest, "/preload") && strcmp(rest, "/evict"))
            svc_reply_error(r, 404, "not_found", "no endpoint %s", url);
        else if (!post) svc_reply_error(r, 405, "method", "%s %s: only POST", method, url);
        else key_action(s, r, seg, rest + 1);
    } else {
        svc_reply_error(r, 404, "not_found", "no endpoint %s", url);
    }
}
