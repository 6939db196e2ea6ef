/* `g16 bench ntt`: median wall time of one forward NTT (natural in, bit-reversed
 * out), or of one coset forward NTT, on the default thread pool. */
#include <stdlib.h>

#include "common/error.h"
#include "common/pool.h"
#include "diag/timing.h"

/* r's top limb: 255 bits (BLS12-381), 254 (BN254, this file's second compile) */
#if G16_CURVE_BN254
#define G16_FR_TOP_MASK 0x3fffffffffffffffULL
#else
#define G16_FR_TOP_MASK 0x7fffffffffffffffULL
#endif
#include "ntt/ntt.h"

#define BENCH_NTT_MAX_REPS 1000

static uint64_t splitmix(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

typedef struct fill_ctx {
    g16_fr *a;
    uint64_t seed;
} fill_ctx;

static void fill_range(void *arg, size_t b, size_t e, unsigned worker)
{
    const fill_ctx *c = arg;
    for (size_t i = b; i < e; i++) {
        /* one stream per element, so the input does not depend on the thread count */
        uint64_t st = c->seed ^ ((uint64_t)i * 0xd1b54a32d192ed03ULL), l[G16_FR_LIMBS];
        do {
            for (int k = 0; k < G16_FR_LIMBS; k++) l[k] = splitmix(&st);
            l[3] &= G16_FR_TOP_MASK;
        } while (g16_fr_from_canonical(&c->a[i], l) != G16_OK);
    }
}

g16_status g16_bench_ntt(double *seconds, const g16_bench_kernel_args *a)
{
    if (!seconds || !a) return g16_fail(G16_ERR_ARG, "bench ntt: NULL argument");
    *seconds = 0;
    if (a->log_n < 0 || a->log_n > G16_NTT_MAX_LOG)
        return g16_fail(G16_ERR_ARG, "bench ntt: size 2^%d is not in 2^0..2^%d", a->log_n,
                        G16_NTT_MAX_LOG);
    if (a->reps < 0 || a->reps > BENCH_NTT_MAX_REPS)
        return g16_fail(G16_ERR_ARG, "bench ntt: repetitions %d not in 0..%d", a->reps,
                        BENCH_NTT_MAX_REPS);
    if (a->threads) G16_TRY(g16_set_threads(a->threads));
    int reps = a->reps ? a->reps : a->log_n >= 20 ? 3 : 5;

    const g16_domain *d;
    G16_TRY(g16_domain_get(&d, a->log_n));
    g16_fr *v = aligned_alloc(64, (d->n * sizeof *v + 63) & ~(size_t)63);
    double *t = malloc((size_t)reps * sizeof *t);
    if (!v || !t) {
        free(v);
        free(t);
        return g16_fail(G16_ERR_NOMEM, "bench ntt: no memory for 2^%d elements", a->log_n);
    }
    fill_ctx fc = {v, a->seed};
    g16_parallel_for(d->n, 1 << 14, fill_range, &fc);
    /* the transform's cost does not depend on the values: each repetition runs on
     * the previous one's output instead of a fresh copy, which halves the memory */
    for (int r = 0; r < reps; r++) {
        double t0 = g16_now_seconds();
        if (a->coset)
            g16_ntt_coset_forward_nr(d, v);
        else
            g16_ntt_forward_nr(d, v);
        t[r] = g16_now_seconds() - t0;
    }
    *seconds = g16_median(t, (size_t)reps);
    free(v);
    free(t);
    return G16_OK;
}
