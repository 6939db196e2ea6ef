/* The MSM's batch-affine loop on the IFMA path against the scalar path on the
 * same inputs (G1 and G2): random bases with repeats and negations mixed in (so
 * batches double and cancel), random scalars with 0, 1, -1 and repeated values,
 * several sizes around the 8-lane groups, affine buckets with automatic and small
 * windows (the chained reduction) and the 0/1 sum.  Skipped (passes) where the CPU
 * lacks IFMA: then both runs would be the scalar path. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "rand_field.h"
#include "curve/curve.h"
#include "field/fp_batch.h"
#include "field/fr.h"
#include "msm/msm.h"

static g16_rng rng;

static void rand_scalars(g16_fr *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        uint64_t u = g16_rng_u64(&rng) % 16;
        if (u == 0)
            memset(&s[i], 0, sizeof s[i]);
        else if (u == 1)
            g16_fr_set_one(&s[i]);
        else if (u == 2) {
            g16_fr_set_one(&s[i]);
            g16_fr_neg(&s[i], &s[i]);
        } else if (u == 3 && i)
            s[i] = s[i - 1];
        else
            g16_test_rand_fr(&rng, &s[i]);
    }
}

static const g16_msm_opts opts[] = {
    {0, G16_MSM_BUCKETS_AFFINE, 0, 0, 0, G16_MSM_PSI_OFF},
    {4, G16_MSM_BUCKETS_AFFINE, 0, 0, 0, G16_MSM_PSI_OFF},
    {8, G16_MSM_BUCKETS_AFFINE, 1, 0, 0, G16_MSM_PSI_OFF},
    {0, G16_MSM_BUCKETS_AFFINE, 0, 0, 0, G16_MSM_PSI_ON}, /* G2: 64-bit digits */
    {5, G16_MSM_BUCKETS_AFFINE, 1, 0, 0, G16_MSM_PSI_ON},
};

#define DEFINE_RUN(G, AFF, JAC)                                                               \
    static AFF *G##_bases(size_t n)                                                           \
    {                                                                                         \
        AFF *b = malloc(n * sizeof *b);                                                       \
        JAC g, p;                                                                             \
        g16_##G##_jac_generator(&g);                                                          \
        for (size_t i = 0; i < n; i++) {                                                      \
            uint64_t k[4] = {g16_rng_u64(&rng) % 50 + 1, 0, 0, 0};                             \
            if (i % 7 == 0) k[0] = g16_rng_u64(&rng), k[1] = g16_rng_u64(&rng);              \
            g16_##G##_mul(&p, &g, k);                                                         \
            g16_##G##_jac_to_affine(&b[i], &p);                                               \
            if (i % 5 == 3) g16_##G##_affine_neg(&b[i], &b[i]);                               \
        }                                                                                     \
        return b;                                                                             \
    }                                                                                         \
    static void G##_compare(size_t n)                                                         \
    {                                                                                         \
        AFF *b = G##_bases(n);                                                                \
        g16_fr *s = malloc(n * sizeof *s);                                                    \
        rand_scalars(s, n);                                                                   \
        for (size_t o = 0; o < sizeof opts / sizeof opts[0]; o++) {                           \
            JAC v, w;                                                                         \
            g16_fp_batch_force_scalar(0);                                                     \
            CHECK(g16_msm_##G##_ex(&v, b, n, s, n, NULL, &opts[o]) == G16_OK, #G " ifma");    \
            g16_fp_batch_force_scalar(1);                                                     \
            CHECK(g16_msm_##G##_ex(&w, b, n, s, n, NULL, &opts[o]) == G16_OK, #G " scalar");  \
            g16_fp_batch_force_scalar(0);                                                     \
            CHECK(g16_##G##_jac_eq(&v, &w), #G " n=%zu opts %zu: IFMA and scalar differ", n, o); \
            CHECK(!g16_##G##_jac_is_infinity(&v) || n < 2, #G " n=%zu: infinity", n);        \
        }                                                                                     \
        free(b);                                                                              \
        free(s);                                                                              \
    }

DEFINE_RUN(g1, g16_g1_affine, g16_g1_jac)
DEFINE_RUN(g2, g16_g2_affine, g16_g2_jac)

int main(void)
{
    g16_rng_seed(&rng, g16_test_seed(0x1f3b));
    if (!g16_cpu_can_ifma()) {
        printf("msm_ifma: no AVX-512 IFMA here; nothing to compare\n");
        return g16_test_finish("msm_ifma");
    }
    static const size_t ns[] = {1, 2, 7, 8, 9, 17, 100, 1000, 3001};
    for (size_t t = 0; t < sizeof ns / sizeof ns[0]; t++) {
        g1_compare(ns[t]);
        if (ns[t] <= 1000) g2_compare(ns[t]);
    }
    return g16_test_finish("msm_ifma");
}
