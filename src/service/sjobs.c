/* snarkjs jobs: partitions of {"wtns": PATH} against a .zkey key of either curve (bls12381 or
 * bn128, read from the file: g16_sj_pick), proved with snarkjs's math on the CPU, one partition
 * after the other on the job's own thread; the result is snarkjs's proof.json and public.json
 * for each partition.
 *
 * These jobs do not go through the engine's pipeline (the snarkjs prover is CPU-only and
 * circom circuits are small next to a PoRep partition), but their memory is charged to the
 * engine's budget all the same: the key while it is loaded (keys.c), and each partition's
 * witness and prover memory while it is proved (g16_engine_reserve, waiting for room). */
#include <inttypes.h>
#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/error.h"
#include "io/snarkjs_files.h"
#include "service/service.h"

int svc_is_zkey_path(const char *path)
{
    size_t n = path ? strlen(path) : 0;
    return n > 5 && !strcmp(path + n - 5, ".zkey");
}

/* A loaded snarkjs key: its curve's functions (g16_sj_pick, from the file) and the key. */
typedef struct sj_key {
    const g16_sj_ops *ops;
    void *key;
    g16_sj_key_info info;
} sj_key;

g16_status svc_sj_key_load(void **out, uint64_t *bytes, const char *path)
{
    sj_key *k = calloc(1, sizeof *k);
    if (!k) return g16_fail(G16_ERR_NOMEM, "no memory");
    g16_status st = g16_sj_pick(&k->ops, &path, 1);
    if (st == G16_OK) st = k->ops->key_load(&k->key, &k->info, path);
    if (st != G16_OK) {
        free(k);
        return st;
    }
    *bytes = k->info.bytes;
    *out = k;
    return G16_OK;
}

void svc_sj_key_free(void *vk)
{
    sj_key *k = vk;
    if (!k) return;
    k->ops->key_free(k->key);
    free(k);
}

uint32_t svc_sj_key_vars(const void *k) { return ((const sj_key *)k)->info.n_vars; }

uint64_t svc_sj_proof_bytes(const void *k) { return ((const sj_key *)k)->info.prove_bytes; }

const char *svc_sj_key_curve(const void *k) { return g16_sj_curve_name(((const sj_key *)k)->ops->curve); }

/* proof.json and public.json of one partition, written by the key's curve into the job's
 * scratch folder and read back, as one JSON object {"proof": ..., "public": ...}. */
static g16_status prove_part(json_t **out, const sj_key *k, const char *wtns, const char *dir, uint32_t idx)
{
    char pp[PATH_MAX], pu[PATH_MAX];
    snprintf(pp, sizeof pp, "%s/p%u.proof.json", dir, idx);
    snprintf(pu, sizeof pu, "%s/p%u.public.json", dir, idx);
    g16_status st = k->ops->key_prove(k->key, wtns, pp, pu);
    json_error_t e;
    json_t *a = st == G16_OK ? json_load_file(pp, 0, &e) : NULL, *b = st == G16_OK ? json_load_file(pu, 0, &e) : NULL;
    unlink(pp);
    unlink(pu);
    if (st != G16_OK) return st;
    if (!a || !b) {
        json_decref(a);
        json_decref(b);
        return g16_fail(G16_ERR_INTERNAL, "partition %u: the proof's JSON did not read back: %s", idx, e.text);
    }
    *out = json_pack("{s:o,s:o}", "proof", a, "public", b);
    return *out ? G16_OK : g16_fail(G16_ERR_NOMEM, "no memory");
}

g16_status svc_sj_check_wtns(const char *path, const char *key_path, uint32_t want_vars)
{
    const char *paths[2] = {key_path, path};
    const g16_sj_ops *ops;
    G16_TRY(g16_sj_pick(&ops, paths, 2)); /* a witness of the other curve: named */
    uint64_t n = 0;
    G16_TRY(ops->wtns_count(path, &n));
    if (want_vars && n != want_vars)
        return g16_fail(G16_ERR_ARG, "%s: %llu values, the key's circuit has %u signals", path,
                        (unsigned long long)n, want_vars);
    return G16_OK;
}

g16_status svc_sj_prove_job(char **json_out, g16_service *s, const svc_key *k, char *const *wtns,
                            uint32_t n_parts, const char *scratch, volatile int *cancel)
{
    const sj_key *sk = k->sj;
    const uint64_t need = sk->info.prove_bytes;
    json_t *parts = json_array();
    g16_status st = parts ? G16_OK : g16_fail(G16_ERR_NOMEM, "no memory");
    for (uint32_t i = 0; i < n_parts && st == G16_OK; i++) {
        if (*cancel) {
            st = g16_fail(G16_ERR_CANCELLED, "cancelled");
            break;
        }
        st = svc_charge_wait(s, k, need, cancel);
        if (st != G16_OK) {
            g16_fail_ctx(st, "partition %u", i);
            break;
        }
        json_t *pj = NULL;
        st = prove_part(&pj, sk, wtns[i], scratch, i);
        if (st == G16_OK) json_array_append_new(parts, pj);
        else g16_fail_ctx(st, "partition %u", i);
        g16_engine_unreserve(s->engine, need);
    }
    if (st == G16_OK) {
        json_t *o = json_pack("{s:O}", "partitions", parts);
        *json_out = o ? json_dumps(o, JSON_COMPACT) : NULL;
        json_decref(o);
        if (!*json_out) st = g16_fail(G16_ERR_NOMEM, "no memory");
    }
    json_decref(parts);
    return st;
}

/* ---------------------------------------------------------------- the job's thread */
/* A snarkjs job's thread: proves its partitions one after the other, then ends the job. */
void *svc_sj_main(void *arg)
{
    svc_waiter w = *(svc_waiter *)arg;
    free(arg);
    g16_service *s = w.s;
    svc_job *j = w.j;
    char scratch[PATH_MAX];
    snprintf(scratch, sizeof scratch, "%s/uploads", s->data_dir);
    mkdir(scratch, 0700);
    snprintf(scratch, sizeof scratch, "%s/uploads/%s", s->data_dir, j->id);
    mkdir(scratch, 0700);
    char **wtns = malloc(j->n_parts * sizeof *wtns);
    char *json = NULL;
    g16_status st;
    if (!wtns) {
        st = g16_fail(G16_ERR_NOMEM, "no memory");
    } else {
        for (uint32_t i = 0; i < j->n_parts; i++) wtns[i] = j->parts[i].witness;
        st = svc_sj_prove_job(&json, s, w.k, wtns, j->n_parts, scratch, &j->halt);
    }
    free(wtns);
    char msg[512];
    snprintf(msg, sizeof msg, "%s", st == G16_OK ? "" : g16_last_error());
    rmdir(scratch); /* only when empty: uploaded inputs stay with the job */
    pthread_mutex_lock(&s->mu);
    w.k->users--;
    s->inflight--;
    j->queued_s = j->started - j->created;
    j->run_s = svc_now() - j->created;
    if (j->stopping && !j->cancel) {
        free(json);
        svc_job_set_state(s, j, SVC_QUEUED);
    } else if (st == G16_OK) {
        free(j->proof);
        j->proof = (uint8_t *)json;
        j->proof_len = strlen(json);
        svc_job_set_state(s, j, SVC_DONE);
        svc_log(s, "info", j->id, "done: %u snarkjs proof(s), %.3f s after submit", j->n_parts,
                j->finished - j->created);
    } else if (st == G16_ERR_CANCELLED || j->cancel) {
        svc_job_set_error(j, "cancelled", "cancelled by a client while it ran");
        svc_job_set_state(s, j, SVC_CANCELLED);
    } else {
        svc_job_fail_locked(s, j, g16_status_str(st), msg);
        pthread_mutex_unlock(&s->mu);
        return NULL;
    }
    if (j->state != SVC_QUEUED && svc_store_update(s, j) != G16_OK)
        svc_log(s, "error", j->id, "%s", g16_last_error());
    pthread_mutex_unlock(&s->mu);
    return NULL;
}
