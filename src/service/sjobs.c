/* snarkjs jobs: partitions of {"wtns": PATH} against a .zkey key, proved with snarkjs's math
 * (src/groth16/snarkjs_prove.h) on the CPU, one partition after the other on the job's own
 * thread; the result is snarkjs's proof.json and public.json for each partition.
 *
 * These jobs do not go through the engine's pipeline (the snarkjs prover is CPU-only and
 * circom circuits are small next to a PoRep partition), but their memory is charged to the
 * engine's budget all the same: the key while it is loaded (keys.c), and each partition's
 * witness and prover memory while it is proved (g16_engine_reserve, waiting for room). */
#include <errno.h>
#include <inttypes.h>
#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>

#include "common/error.h"
#include "io/circom.h"
#include "groth16/snarkjs_prove.h"
#include "io/snarkjs.h"
#include "service/service.h"

int svc_is_zkey_path(const char *path)
{
    size_t n = path ? strlen(path) : 0;
    return n > 5 && !strcmp(path + n - 5, ".zkey");
}

g16_status svc_sj_key_load(void **out, uint64_t *bytes, const char *path)
{
    g16_sj_pk *pk = calloc(1, sizeof *pk);
    if (!pk) return g16_fail(G16_ERR_NOMEM, "no memory");
    g16_status st = g16_sj_zkey_read(pk, path);
    if (st == G16_OK) st = g16_sj_pk_compact(pk);
    if (st != G16_OK) {
        g16_sj_pk_free(pk);
        free(pk);
        return st;
    }
    *bytes = (uint64_t)pk->n_coefs * sizeof(g16_sj_coef) +
             96ull * (pk->n_a + pk->n_b + (pk->n_vars - pk->n_public - 1) + pk->domain_size) +
             192ull * pk->n_b;
    *out = pk;
    return G16_OK;
}

void svc_sj_key_free(void *pk)
{
    if (!pk) return;
    g16_sj_pk_free(pk);
    free(pk);
}

uint32_t svc_sj_key_vars(const void *pk) { return ((const g16_sj_pk *)pk)->n_vars; }

uint64_t svc_sj_proof_bytes(const void *pk) { return g16_sj_prove_bytes(pk); }

/* proof.json and public.json of one partition, through the io layer's writers (into the
 * job's scratch folder, then read back), as one JSON object {"proof": ..., "public": ...}. */
static g16_status part_json(json_t **out, const g16_sj_proof *proof, const g16_fr *pub, size_t n_pub,
                            const char *dir, uint32_t idx)
{
    char pp[PATH_MAX], pu[PATH_MAX];
    snprintf(pp, sizeof pp, "%s/p%u.proof.json", dir, idx);
    snprintf(pu, sizeof pu, "%s/p%u.public.json", dir, idx);
    G16_TRY(g16_sj_proof_write_json(proof, pp));
    G16_TRY(g16_sj_public_write_json(pub, n_pub, pu));
    json_error_t e;
    json_t *a = json_load_file(pp, 0, &e), *b = json_load_file(pu, 0, &e);
    unlink(pp);
    unlink(pu);
    if (!a || !b) {
        json_decref(a);
        json_decref(b);
        return g16_fail(G16_ERR_INTERNAL, "partition %u: the proof's JSON did not read back: %s", idx, e.text);
    }
    *out = json_pack("{s:o,s:o}", "proof", a, "public", b);
    return *out ? G16_OK : g16_fail(G16_ERR_NOMEM, "no memory");
}

g16_status svc_sj_check_wtns(const char *path, uint32_t want_vars)
{
    g16_circom_wtns w;
    G16_TRY(g16_circom_wtns_read(&w, path));
    uint64_t n = w.n;
    g16_circom_wtns_free(&w);
    if (want_vars && n != want_vars)
        return g16_fail(G16_ERR_ARG, "%s: %llu values, the key's circuit has %u signals", path,
                        (unsigned long long)n, want_vars);
    return G16_OK;
}

/* Charges one proof's memory, evicting idle keys first, then waiting for the engine's
 * partitions to give bytes back; gives up on cancel or when it can never fit. */
static g16_status charge_proof(g16_service *s, const svc_key *k, uint64_t need, volatile int *cancel)
{
    g16_engine_stats es;
    g16_engine_stats_get(s->engine, &es);
    /* Everything else charged goes away in time (other jobs end, idle keys are evicted)
     * but this job's own key: past that, waiting would never end. */
    uint64_t room = es.budget_bytes - es.fixed_bytes;
    room = room > k->bytes ? room - k->bytes : 0;
    if (need > room)
        return g16_fail(G16_ERR_NOMEM, "a proof with key %s needs %" PRIu64 " bytes, more than the "
                        "budget's %" PRIu64 " left beside the key (%" PRIu64 " bytes)", k->name, need,
                        room, k->bytes);
    for (;;) {
        pthread_mutex_lock(&s->mu);
        g16_status st = svc_charge(s, k, need);
        pthread_mutex_unlock(&s->mu);
        if (st != G16_ERR_NOMEM) return st;
        st = g16_engine_reserve(s->engine, need, 1.0);
        if (st != G16_ERR_NOMEM) return st;
        if (*cancel) return g16_fail(G16_ERR_CANCELLED, "cancelled while waiting for memory");
    }
}

g16_status svc_sj_prove_job(char **json_out, g16_service *s, const svc_key *k, char *const *wtns,
                            uint32_t n_parts, const char *scratch, volatile int *cancel)
{
    const g16_sj_pk *pk = k->sj;
    const uint64_t need = g16_sj_prove_bytes(pk);
    json_t *parts = json_array();
    g16_status st = parts ? G16_OK : g16_fail(G16_ERR_NOMEM, "no memory");
    for (uint32_t i = 0; i < n_parts && st == G16_OK; i++) {
        if (*cancel) {
            st = g16_fail(G16_ERR_CANCELLED, "cancelled");
            break;
        }
        st = charge_proof(s, k, need, cancel);
        if (st != G16_OK) {
            g16_fail_ctx(st, "partition %u", i);
            break;
        }
        g16_circom_wtns w;
        st = g16_circom_wtns_read(&w, wtns[i]);
        if (st != G16_OK) {
            g16_engine_unreserve(s->engine, need);
            g16_fail_ctx(st, "partition %u", i);
            break;
        }
        uint8_t rnd[128];
        g16_sj_proof proof;
        g16_fr r, sr;
        if (getrandom(rnd, sizeof rnd, 0) != (ssize_t)sizeof rnd) {
            st = g16_fail(G16_ERR_IO, "getrandom: %s", strerror(errno));
        } else {
            g16_fr_from_be_reduce(&r, rnd, 64);
            g16_fr_from_be_reduce(&sr, rnd + 64, 64);
            st = g16_sj_prove(&proof, pk, w.w, w.n, &r, &sr);
            if (st != G16_OK) g16_fail_ctx(st, "partition %u: %s", i, wtns[i]);
        }
        json_t *pj = NULL;
        if (st == G16_OK) st = part_json(&pj, &proof, w.w + 1, pk->n_public, scratch, i);
        if (st == G16_OK) json_array_append_new(parts, pj);
        g16_circom_wtns_free(&w);
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
