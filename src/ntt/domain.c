#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "common/fault.h"
#include "common/pool.h"
#include "ntt/ntt.h"
#include "ntt/ntt_internal.h"

#if G16_CURVE_BN254
/* BN254's r − 1 = 2^28·odd; 5 is the smallest non-residue, whose roots snarkjs uses
 * (/work/shared/docs/SNARKJS.md), so the evaluation points are snarkjs's; it is also
 * the coset generator (a non-residue lies outside every 2-power subgroup). */
#define FR_TWO_ADICITY 28
#else
#define FR_TWO_ADICITY 32
#endif

void g16_fr_root_of_unity(g16_fr *out, int log_n)
{
    /* e = (r - 1) / 2^32 (2^28 for BN254): r - 1 ends in that many zero bits, so this
     * is a plain shift */
    uint64_t e[G16_FR_LIMBS];
    const uint64_t *m = g16_fr_modulus;
    for (int i = 0; i < G16_FR_LIMBS; i++) {
        uint64_t lo = (i == 0 ? m[0] - 1 : m[i]) >> FR_TWO_ADICITY;
        uint64_t hi = i + 1 < G16_FR_LIMBS ? m[i + 1] << (64 - FR_TWO_ADICITY) : 0;
        e[i] = lo | hi;
    }
    g16_fr g, w;
    g16_fr_from_u64(&g, G16_NTT_GENERATOR);
    g16_fr_pow(&w, &g, e, G16_FR_LIMBS);
    for (int i = log_n; i < FR_TWO_ADICITY; i++) g16_fr_sqr(&w, &w);
    *out = w;
}

typedef struct powers_ctx {
    g16_fr *out;
    g16_fr base;
    size_t stride; /* out[i] = base^(i·stride) */
} powers_ctx;

static void powers_range(void *arg, size_t b, size_t e, unsigned worker)
{
    powers_ctx *c = arg;
    g16_fr step, cur;
    uint64_t s = c->stride;
    g16_fr_pow(&step, &c->base, &s, 1);
    uint64_t start = (uint64_t)b * c->stride;
    g16_fr_pow(&cur, &c->base, &start, 1);
    for (size_t i = b; i < e; i++) {
        c->out[i] = cur;
        g16_fr_mul(&cur, &cur, &step);
    }
}

/* out[i] = base^(i·stride) for i < count, on the pool */
static void fill_powers(g16_fr *out, size_t count, const g16_fr *base, size_t stride)
{
    powers_ctx c = {out, *base, stride};
    g16_parallel_for(count, 4096, powers_range, &c);
}

/* aligned_alloc wants a size that is a multiple of the alignment */
static g16_fr *alloc_fr(size_t count)
{
    size_t bytes = (count * sizeof(g16_fr) + 63) & ~(size_t)63;
    return g16_aligned_alloc(64, bytes);
}

static pthread_mutex_t cache_mu = PTHREAD_MUTEX_INITIALIZER;
static g16_domain *cache[G16_NTT_MAX_LOG + 1];

static void free_domain(g16_domain *d)
{
    if (d->tw_block != d->tw) free((void *)d->tw_block);
    free((void *)d->tw);
    free(d);
}

static g16_status build(g16_domain **out, int log_n)
{
    g16_domain *d = g16_calloc(1, sizeof *d);
    if (!d) return g16_fail(G16_ERR_NOMEM, "NTT domain 2^%d: out of memory", log_n);
    d->log_n = log_n;
    d->n = (size_t)1 << log_n;
    g16_fr_root_of_unity(&d->omega, log_n);
    g16_fr_inv(&d->omega_inv, &d->omega);
    g16_fr_from_u64(&d->n_inv, d->n);
    g16_fr_inv(&d->n_inv, &d->n_inv);
    g16_fr_from_u64(&d->g, G16_NTT_GENERATOR);
    g16_fr_inv(&d->g_inv, &d->g);
    int bl = g16_ntt_block_log < 1 ? 1 : g16_ntt_block_log;
    d->block_log = log_n < bl ? log_n : bl;
    size_t half = d->n / 2, bhalf = ((size_t)1 << d->block_log) / 2;
    g16_fr *tw = NULL, *twb = NULL;
    if (half) {
        tw = alloc_fr(half);
        if (!tw) {
            free(d);
            return g16_fail(G16_ERR_NOMEM, "NTT domain 2^%d: no memory for %zu twiddles", log_n, half);
        }
        fill_powers(tw, half, &d->omega, 1);
    }
    if (bhalf == half) {
        twb = tw;
    } else {
        twb = alloc_fr(bhalf);
        if (!twb) {
            free(tw);
            free(d);
            return g16_fail(G16_ERR_NOMEM, "NTT domain 2^%d: out of memory", log_n);
        }
        for (size_t j = 0; j < bhalf; j++) twb[j] = tw[j << (log_n - d->block_log)];
    }
    d->tw = tw;
    d->tw_block = twb;
    *out = d;
    return G16_OK;
}

g16_status g16_domain_get(const g16_domain **out, int log_n)
{
    *out = NULL;
    if (log_n < 0 || log_n > G16_NTT_MAX_LOG)
        return g16_fail(G16_ERR_ARG, "NTT size 2^%d is not in 2^0..2^%d", log_n, G16_NTT_MAX_LOG);
    pthread_mutex_lock(&cache_mu);
    g16_domain *d = cache[log_n];
    pthread_mutex_unlock(&cache_mu);
    if (d) {
        *out = d;
        return G16_OK;
    }
    /* built outside the lock: building runs on the pool, and a pool callback
     * waiting for this lock while we wait for the pool would deadlock */
    G16_TRY(build(&d, log_n));
    pthread_mutex_lock(&cache_mu);
    if (cache[log_n]) {
        free_domain(d); /* another thread won the race: keep one copy */
    } else {
        cache[log_n] = d;
    }
    *out = cache[log_n];
    pthread_mutex_unlock(&cache_mu);
    return G16_OK;
}

void g16_ntt_domain_cache_clear(void)
{
    pthread_mutex_lock(&cache_mu);
    for (int k = 0; k <= G16_NTT_MAX_LOG; k++) {
        if (cache[k]) free_domain(cache[k]);
        cache[k] = NULL;
    }
    pthread_mutex_unlock(&cache_mu);
}
