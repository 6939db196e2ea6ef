/* `g16 bench msm`: times one MSM of 2^log_n random bases and scalars. */
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "common/pool.h"
#include "curve/curve.h"
#include "diag/timing.h"

/* r's top limb: 255 bits (BLS12-381), 254 (BN254, this file's second compile) */
#if G16_CURVE_BN254
#define G16_FR_TOP_MASK 0x3fffffffffffffffULL
#else
#define G16_FR_TOP_MASK 0x7fffffffffffffffULL
#endif
#include "msm/msm.h"

/* splitmix64: input generation only, seeded from the bench arguments */
static uint64_t mix(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* Bases are made a segment at a time: one scalar multiplication to start the
 * segment, then a walk that adds one of 16 fixed points per step, then one batch
 * normalisation.  Distinct, subgroup, and ~1 µs per point instead of ~100 µs. */
#define SEG 4096

typedef struct gen_ctx {
    g16_group group;
    void *bases;
    size_t n;
    uint64_t seed;
    const void *steps; /* 16 affine points */
    int failed;
} gen_ctx;

#define GEN_SEGMENT(G, AFF, JAC)                                                     \
    static void gen_##G(gen_ctx *x, size_t seg)                                      \
    {                                                                                \
        size_t lo = seg * SEG, hi = lo + SEG < x->n ? lo + SEG : x->n;               \
        JAC *j = malloc((hi - lo) * sizeof *j), g;                                   \
        if (!j) {                                                                    \
            x->failed = 1;                                                           \
            return;                                                                  \
        }                                                                            \
        uint64_t s = x->seed ^ (0x5eed0000ULL + seg), k[4];                          \
        for (int i = 0; i < 4; i++) k[i] = mix(&s);                                  \
        g16_##G##_jac_generator(&g);                                                 \
        g16_##G##_mul(&j[0], &g, k);                                                 \
        const AFF *st = x->steps;                                                    \
        for (size_t i = lo + 1; i < hi; i++)                                         \
            g16_##G##_jac_add_affine(&j[i - lo], &j[i - lo - 1], &st[mix(&s) & 15]); \
        g16_##G##_jac_batch_to_affine((AFF *)x->bases + lo, j, hi - lo);             \
        free(j);                                                                     \
    }                                                                                \
    static void steps_##G(AFF *out, uint64_t seed)                                   \
    {                                                                                \
        JAC j[16], g;                                                                \
        uint64_t k[4];                                                               \
        g16_##G##_jac_generator(&g);                                                 \
        for (int i = 0; i < 16; i++) {                                               \
            for (int t = 0; t < 4; t++) k[t] = mix(&seed);                           \
            g16_##G##_mul(&j[i], &g, k);                                             \
        }                                                                            \
        g16_##G##_jac_batch_to_affine(out, j, 16);                                   \
    }

GEN_SEGMENT(g1, g16_g1_affine, g16_g1_jac)
GEN_SEGMENT(g2, g16_g2_affine, g16_g2_jac)

static void gen_range(void *vctx, size_t b, size_t e, unsigned worker)
{
    gen_ctx *x = vctx;
    for (size_t s = b; s < e; s++) {
        if (x->group == G16_G1)
            gen_g1(x, s);
        else
            gen_g2(x, s);
    }
}

static void rand_scalar(g16_fr *r, uint64_t *s)
{
    uint64_t c[4];
    do {
        for (int i = 0; i < 4; i++) c[i] = mix(s);
        c[3] &= G16_FR_TOP_MASK;
    } while (g16_fr_from_canonical(r, c) != G16_OK);
}

g16_status g16_bench_msm(double *seconds, const g16_bench_kernel_args *a)
{
    if (!seconds || !a) return g16_fail(G16_ERR_ARG, "bench msm: NULL argument");
    *seconds = 0;
    if (a->log_n < 0 || a->log_n > 28)
        return g16_fail(G16_ERR_ARG, "bench msm: log_n %d not in 0..28", a->log_n);
    if (a->group != G16_G1 && a->group != G16_G2)
        return g16_fail(G16_ERR_ARG, "bench msm: unknown group %d", (int)a->group);
    if (a->ones < 0 || a->zeros < 0 || a->ones + a->zeros > 1)
        return g16_fail(G16_ERR_ARG, "bench msm: fractions ones %g + zeros %g not in [0, 1]",
                        a->ones, a->zeros);
    G16_TRY(g16_set_threads(a->threads));
    size_t n = (size_t)1 << a->log_n;
    size_t psz = a->group == G16_G1 ? sizeof(g16_g1_affine) : sizeof(g16_g2_affine);
    void *bases = malloc(n * psz);
    g16_fr *sc = malloc(n * sizeof *sc);
    if (!bases || !sc) {
        free(bases);
        free(sc);
        return g16_fail(G16_ERR_NOMEM, "bench msm: no memory for 2^%d points", a->log_n);
    }
    g16_g2_affine steps[16]; /* big enough for either group */
    if (a->group == G16_G1)
        steps_g1((g16_g1_affine *)steps, a->seed);
    else
        steps_g2(steps, a->seed);
    gen_ctx gx = {a->group, bases, n, a->seed, steps, 0};
    g16_parallel_for((n + SEG - 1) / SEG, 1, gen_range, &gx);
    uint64_t s = a->seed * 0x2545f4914f6cdd1dULL + 7;
    for (size_t i = 0; i < n; i++) {
        double u = (double)(mix(&s) >> 11) * 0x1.0p-53;
        if (u < a->zeros)
            g16_fr_set_zero(&sc[i]);
        else if (u < a->zeros + a->ones)
            g16_fr_set_one(&sc[i]);
        else
            rand_scalar(&sc[i], &s);
    }
    g16_status st = gx.failed ? g16_fail(G16_ERR_NOMEM, "bench msm: no memory for bases") : G16_OK;
    int reps = a->reps > 0 ? a->reps : (a->log_n >= 18 ? 3 : 5);
    double *t = malloc((size_t)reps * sizeof *t);
    if (!t && st == G16_OK) st = g16_fail(G16_ERR_NOMEM, "bench msm: no memory");
    /* tuning overrides for measuring the choices (docs/msm.md), not for production */
    g16_msm_opts o = {0, G16_MSM_BUCKETS_AUTO, 0, 0, 0, G16_MSM_PSI_AUTO};
    const char *e;
    if ((e = getenv("G16_MSM_WINDOW"))) o.window = (unsigned)atoi(e);
    if ((e = getenv("G16_MSM_BUCKETS"))) o.buckets = !strcmp(e, "xyzz") ? G16_MSM_BUCKETS_XYZZ
                                                     : !strcmp(e, "affine") ? G16_MSM_BUCKETS_AFFINE
                                                                            : G16_MSM_BUCKETS_AUTO;
    if ((e = getenv("G16_MSM_NO_SPLIT"))) o.no_split = atoi(e);
    for (int r = 0; r < reps && st == G16_OK; r++) {
        double t0 = g16_now_seconds();
        if (a->group == G16_G1) {
            g16_g1_jac out;
            st = g16_msm_g1_ex(&out, bases, n, sc, n, NULL, &o);
        } else {
            g16_g2_jac out;
            st = g16_msm_g2_ex(&out, bases, n, sc, n, NULL, &o);
        }
        t[r] = g16_now_seconds() - t0;
    }
    if (st == G16_OK) *seconds = g16_median(t, (size_t)reps);
    free(t);
    free(bases);
    free(sc);
    return st;
}
