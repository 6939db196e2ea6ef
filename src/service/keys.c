/* Proving keys in tiers: cold (only on disk: the .params and its .g16k cache), warm (loaded
 * in host memory and held in the engine, so charged to its budget), hot (also resident on
 * every CUDA device).  A job makes its key at least warm; when the budget cannot take another
 * key, the least recently used key that no job uses goes back to cold.  snarkjs keys are
 * charged to the same budget through g16_engine_reserve (they have no hot tier). */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/error.h"
#include "service/service.h"

const char *svc_tier_name(svc_tier t)
{
    return t == SVC_HOT ? "hot" : t == SVC_WARM ? "warm" : "cold";
}

svc_key *svc_key_find(g16_service *s, const char *name)
{
    for (size_t i = 0; i < s->n_keys; i++)
        if (!strcmp(s->keys[i].name, name)) return &s->keys[i];
    return NULL;
}

static uint64_t key_bytes(const g16_key *key)
{
    g16_key_info in;
    g16_key_get_info(&in, key);
    /* affine points as the prover holds them: G1 96 bytes, G2 192 */
    return 96 * (in.n_ic + in.n_h + in.n_l + in.n_a + in.n_b_g1) + 192 * in.n_b_g2;
}

static void set_error(svc_key *k, const char *msg)
{
    free(k->error);
    k->error = msg ? svc_strdup(msg) : NULL;
}

static void to_cold(g16_service *s, svc_key *k)
{
    if (k->key) g16_engine_key_drop(s->engine, k->key);
    g16_key_release(k->key);
    k->key = NULL;
    if (k->sj) g16_engine_unreserve(s->engine, k->bytes);
    svc_sj_key_free(k->sj);
    k->sj = NULL;
    k->tier = SVC_COLD;
    k->bytes = 0;
}

/* The least recently used loaded key that no job uses, other than keep. */
static svc_key *lru_idle(g16_service *s, const svc_key *keep)
{
    svc_key *best = NULL;
    for (size_t i = 0; i < s->n_keys; i++) {
        svc_key *k = &s->keys[i];
        if (k == keep || (!k->key && !k->sj) || k->users || k->loading) continue;
        if (!best || k->last_used < best->last_used) best = k;
    }
    return best;
}

/* Holds key in the engine, evicting idle keys while the budget refuses it. */
static g16_status hold(g16_service *s, svc_key *k, g16_key *key, int want_hot)
{
    for (;;) {
        g16_status st = g16_engine_key_hold(s->engine, key, want_hot && s->devices_cuda);
        if (st != G16_ERR_NOMEM) return st;
        svc_key *victim = lru_idle(s, k);
        if (!victim) return st;
        svc_log(s, "info", NULL, "key %s: evicted (least recently used) to make room for %s",
                victim->name, k->name);
        to_cold(s, victim);
        s->m.key_evictions++;
    }
}

/* Charges bytes of a snarkjs key or proof to the engine's budget, evicting idle keys (other
 * than keep) while it does not fit.  s->mu held. */
g16_status svc_charge(g16_service *s, const svc_key *keep, uint64_t bytes)
{
    for (;;) {
        g16_status st = g16_engine_reserve(s->engine, bytes, 0);
        if (st != G16_ERR_NOMEM) return st;
        svc_key *victim = lru_idle(s, keep);
        if (!victim) return st;
        svc_log(s, "info", NULL, "key %s: evicted (least recently used) to make room for %s",
                victim->name, keep ? keep->name : "a snarkjs proof");
        to_cold(s, victim);
        s->m.key_evictions++;
    }
}

static svc_tier engine_tier(g16_service *s, const g16_key *key)
{
    int t = g16_engine_key_tier(s->engine, key);
    return t >= 2 ? SVC_HOT : t == 1 ? SVC_WARM : SVC_COLD;
}

/* A snarkjs key: loaded into host memory (warm); there is no hot tier for it. */
static g16_status acquire_zkey(g16_service *s, svc_key *k)
{
    if (k->sj) return G16_OK;
    /* The loaded key is about the file's size (the points as stored, the coefficients
     * compacted): charge that while loading, then what the key holds. */
    struct stat sb;
    uint64_t est = stat(k->path, &sb) == 0 ? (uint64_t)sb.st_size : 0;
    char msg[512] = "";
    g16_status st = svc_charge(s, k, est);
    if (st != G16_OK) {
        snprintf(msg, sizeof msg, "%s", g16_last_error());
        set_error(k, msg);
        s->m.key_load_failures++;
        svc_log(s, "error", NULL, "key %s: %s", k->name, msg);
        return g16_fail(st, "key %s: %s", k->name, msg);
    }
    k->loading = 1;
    pthread_mutex_unlock(&s->mu);
    double t0 = svc_now();
    void *pk = NULL;
    uint64_t bytes = 0;
    st = svc_sj_key_load(&pk, &bytes, k->path);
    if (st != G16_OK) snprintf(msg, sizeof msg, "%s", g16_last_error());
    double dt = svc_now() - t0;
    pthread_mutex_lock(&s->mu);
    k->loading = 0;
    pthread_cond_broadcast(&s->cv);
    if (st == G16_OK && bytes > est) {
        st = svc_charge(s, k, bytes - est);
        if (st != G16_OK) {
            snprintf(msg, sizeof msg, "%s", g16_last_error());
            svc_sj_key_free(pk);
        }
    } else if (st == G16_OK) {
        g16_engine_unreserve(s->engine, est - bytes);
    }
    if (st != G16_OK) g16_engine_unreserve(s->engine, est);
    if (st != G16_OK) {
        set_error(k, msg);
        s->m.key_load_failures++;
        svc_log(s, "error", NULL, "key %s: %s", k->name, msg);
        return g16_fail(st, "key %s: %s", k->name, msg);
    }
    set_error(k, NULL);
    k->sj = pk;
    k->bytes = bytes;
    k->tier = SVC_WARM;
    k->load_s = dt;
    snprintf(k->from, sizeof k->from, "zkey");
    s->m.key_loads++;
    svc_log(s, "info", NULL, "key %s: warm, %.3f s from the zkey (%llu bytes, charged to the budget)",
            k->name, dt, (unsigned long long)bytes);
    return G16_OK;
}

g16_status svc_key_acquire(g16_service *s, svc_key *k, int want_hot)
{
    while (k->loading) pthread_cond_wait(&s->cv, &s->mu);
    k->last_used = svc_now();
    if (k->zkey) return acquire_zkey(s, k);
    if (k->key) {
        if (want_hot && k->tier < SVC_HOT && s->devices_cuda) {
            G16_TRY(hold(s, k, k->key, 1));
            k->tier = engine_tier(s, k->key);
        }
        return G16_OK;
    }
    k->loading = 1;
    pthread_mutex_unlock(&s->mu);
    double t0 = svc_now();
    g16_key *key = NULL;
    /* a configured .g16k is mapped as it is (it is its own cache); a .params goes through the
     * data dir's cache */
    g16_key_cache_info ci;
    g16_status st = g16_key_cache_info_read(&ci, k->path) == G16_OK ? g16_key_cache_read(&key, k->path, 0)
                                                                      : g16_key_load_cached(&key, k->path, k->cache_path, 0);
    int from_cache = st == G16_OK && g16_key_is_mapped(key);
    char msg[512] = "";
    if (st != G16_OK) snprintf(msg, sizeof msg, "%s", g16_last_error());
    double dt = svc_now() - t0;
    pthread_mutex_lock(&s->mu);
    k->loading = 0;
    if (st == G16_OK) {
        st = hold(s, k, key, want_hot);
        if (st != G16_OK) {
            snprintf(msg, sizeof msg, "%s", g16_last_error());
            g16_key_release(key);
        }
    }
    if (st != G16_OK) {
        set_error(k, msg);
        s->m.key_load_failures++;
        pthread_cond_broadcast(&s->cv);
        svc_log(s, "error", NULL, "key %s: %s", k->name, msg);
        return g16_fail(st, "key %s: %s", k->name, msg);
    }
    set_error(k, NULL);
    k->key = key;
    k->bytes = key_bytes(key);
    k->tier = engine_tier(s, key);
    k->load_s = dt;
    snprintf(k->from, sizeof k->from, "%s", from_cache ? "cache" : "params");
    s->m.key_loads++;
    pthread_cond_broadcast(&s->cv);
    svc_log(s, "info", NULL, "key %s: %s, %.3f s from the %s (%llu bytes)", k->name,
            svc_tier_name(k->tier), dt, k->from, (unsigned long long)k->bytes);
    return G16_OK;
}

g16_status svc_key_evict(g16_service *s, svc_key *k)
{
    while (k->loading) pthread_cond_wait(&s->cv, &s->mu);
    if (k->users)
        return g16_fail(G16_ERR_ARG, "key %s: %u job(s) in the engine use it", k->name, k->users);
    if (k->key || k->sj) {
        to_cold(s, k);
        s->m.key_evictions++;
        svc_log(s, "info", NULL, "key %s: evicted on request", k->name);
    }
    return G16_OK;
}

void svc_keys_free(g16_service *s)
{
    for (size_t i = 0; i < s->n_keys; i++) {
        svc_key *k = &s->keys[i];
        if (k->key || k->sj) to_cold(s, k);
        free(k->name);
        free(k->path);
        free(k->cache_path);
        free(k->error);
    }
    free(s->keys);
    s->keys = NULL;
    s->n_keys = 0;
}

void *svc_key_loader_main(void *arg)
{
    g16_service *s = arg;
    pthread_mutex_lock(&s->mu);
    for (size_t i = 0; i < s->n_keys && !s->stopping; i++)
        svc_key_acquire(s, &s->keys[i], 1); /* a failure is kept in the key's error */
    s->ready = 1;
    pthread_cond_broadcast(&s->cv);
    pthread_mutex_unlock(&s->mu);
    return NULL;
}

g16_status svc_charge_wait(g16_service *s, const svc_key *k, uint64_t need, volatile int *cancel)
{
    g16_engine_stats es;
    g16_engine_stats_get(s->engine, &es);
    /* Everything else charged goes away in time (other jobs end, idle keys are evicted)
     * but this job's own key: past that, waiting would never end. */
    uint64_t room = es.budget_bytes - es.fixed_bytes;
    room = room > k->bytes ? room - k->bytes : 0;
    if (need > room)
        return g16_fail(G16_ERR_NOMEM, "a job with key %s needs %" PRIu64 " bytes, more than the "
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
