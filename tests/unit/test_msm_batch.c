/* g16_g1_batch_add / g16_g2_batch_add (msm.h): targets += ±points in one batch,
 * against Jacobian additions, with doublings (point = target), cancellations
 * (point = −target, and −point added to the target), batches larger than the
 * handle's capacity, on the IFMA path (where the CPU has it) and the scalar one. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "curve/curve.h"
#include "field/fp_batch.h"
#include "msm/msm.h"

#define GROUP_TEST(G, AFF, JAC)                                                                 \
    static void test_##G(g16_rng *rng, int scalar)                                             \
    {                                                                                           \
        enum { n = 700 };                                                                       \
        g16_fp_batch_force_scalar(scalar);                                                      \
        AFF *tgt = malloc(n * sizeof *tgt), *pts = malloc(n * sizeof *pts);                     \
        const AFF **pp = malloc(n * sizeof *pp);                                                \
        uint32_t *idx = malloc(n * sizeof *idx);                                                \
        uint8_t *neg = malloc(n), *st = malloc(n);                                              \
        JAC *want = malloc(n * sizeof *want), g, t;                                             \
        int *inf = malloc(n * sizeof *inf);                                                     \
        g16_##G##_jac_generator(&g);                                                            \
        for (int i = 0; i < n; i++) {                                                           \
            uint64_t k[4] = {g16_rng_u64(rng), g16_rng_u64(rng), 0, 0};                         \
            g16_##G##_mul(&t, &g, k);                                                           \
            g16_##G##_jac_to_affine(&tgt[i], &t);                                               \
            k[0] = g16_rng_u64(rng);                                                            \
            g16_##G##_mul(&t, &g, k);                                                           \
            g16_##G##_jac_to_affine(&pts[i], &t);                                               \
            int kind = i % 7;                                                                   \
            neg[i] = (uint8_t)(g16_rng_u64(rng) & 1);                                           \
            if (kind == 1) pts[i] = tgt[i], neg[i] = 0;      /* doubling */                     \
            if (kind == 2) pts[i] = tgt[i], neg[i] = 1;      /* target − target */              \
            if (kind == 3) {                                 /* target + (−target) */           \
                pts[i] = tgt[i];                                                                \
                g16_##G##_jac_from_affine(&t, &pts[i]);                                         \
                g16_##G##_jac_neg(&t, &t);                                                      \
                g16_##G##_jac_to_affine(&pts[i], &t);                                           \
                neg[i] = 0;                                                                     \
            }                                                                                   \
            g16_##G##_jac_from_affine(&want[i], &tgt[i]);                                       \
            g16_##G##_jac_from_affine(&t, &pts[i]);                                             \
            if (neg[i]) g16_##G##_jac_neg(&t, &t);                                              \
            g16_##G##_jac_add(&want[i], &want[i], &t);                                          \
            inf[i] = g16_##G##_jac_is_infinity(&want[i]);                                       \
            idx[i] = (uint32_t)(n - 1 - i); /* targets in another order than the list */        \
            st[i] = 1;                                                                          \
        }                                                                                       \
        /* list entry j adds pts[n-1-j] into tgt[n-1-j] */                                      \
        uint8_t *negl = malloc(n);                                                              \
        for (int j = 0; j < n; j++) pp[j] = &pts[idx[j]], negl[j] = neg[idx[j]];                \
        g16_##G##_batch *b;                                                                     \
        CHECK(g16_##G##_batch_new(&b, 256) == G16_OK, #G " batch_new");                         \
        g16_##G##_batch_add(b, tgt, st, idx, pp, negl, n);                                      \
        g16_##G##_batch_free(b);                                                                \
        int bad = 0, cancels = 0;                                                               \
        for (int i = 0; i < n; i++) {                                                           \
            if (inf[i]) {                                                                       \
                cancels++;                                                                      \
                bad += (st[i] & 1) != 0;                                                        \
            } else {                                                                            \
                bad += !(st[i] & 1) || !g16_##G##_jac_eq_affine(&want[i], &tgt[i]);             \
            }                                                                                   \
        }                                                                                       \
        CHECK(bad == 0 && cancels >= 2 * (n / 7), /* kinds 2 and 3 cancel */                 \
              #G " %s path: %d wrong of %d (%d cancelled)", scalar ? "scalar" : "best", bad, n,     \
              cancels);                                                                         \
        free(tgt), free(pts), free(pp), free(idx), free(neg), free(negl), free(st), free(want),  \
            free(inf);                                                                          \
        g16_fp_batch_force_scalar(0);                                                           \
    }

GROUP_TEST(g1, g16_g1_affine, g16_g1_jac)
GROUP_TEST(g2, g16_g2_affine, g16_g2_jac)

int main(void)
{
    g16_rng rng;
    g16_rng_seed(&rng, g16_test_seed(97));
    for (int scalar = 0; scalar <= 1; scalar++) {
        test_g1(&rng, scalar);
        test_g2(&rng, scalar);
    }
    return g16_test_finish("test_msm_batch");
}
