/* MSM known answers from @noble/curves (tests/vectors/msm_g1.txt, msm_g2.txt): every
 * path of g16_msm_* must give noble's Σ kᵢ·Cᵢ.  A missing or short file fails. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "curve/curve.h"
#include "msm/msm.h"
#include "vectors.h"

static const g16_msm_opts variants[] = {
    {0, G16_MSM_BUCKETS_AUTO, 0, 0, 0, G16_MSM_PSI_AUTO},
    {0, G16_MSM_BUCKETS_AFFINE, 0, 0, 0, G16_MSM_PSI_OFF},
    {0, G16_MSM_BUCKETS_XYZZ, 0, 0, 0, G16_MSM_PSI_OFF},
    {0, G16_MSM_BUCKETS_AFFINE, 1, 0, 0, G16_MSM_PSI_OFF},
    {4, G16_MSM_BUCKETS_AFFINE, 0, 0, 0, G16_MSM_PSI_ON},
    {7, G16_MSM_BUCKETS_XYZZ, 1, 0, 0, G16_MSM_PSI_ON},
    {0, G16_MSM_BUCKETS_AUTO, 0, 0, 128, G16_MSM_PSI_ON},
};
#define NVAR (sizeof variants / sizeof variants[0])

#define VECTOR_TEST(G, AFF, JAC, BYTES, WANT_N)                                               \
    static void test_##G(void)                                                                \
    {                                                                                         \
        const char *name = "msm_" #G ".txt";                                                  \
        g16_vec_file *f = g16_vec_open(name);                                                 \
        CHECK(f != NULL, "%s is missing", name);                                              \
        if (!f) return;                                                                       \
        size_t cap = 2048, n = 0, nk = 0;                                                     \
        AFF *b = malloc(cap * sizeof *b);                                                     \
        g16_fr *s = malloc(cap * sizeof *s);                                                  \
        AFF want;                                                                             \
        int have_result = 0, rc;                                                              \
        g16_vec_line l;                                                                       \
        uint8_t enc[BYTES];                                                                   \
        while ((rc = g16_vec_next(f, &l)) > 0) {                                              \
            if (!strcmp(l.op, "base") && l.ntok == 1 && n < cap) {                           \
                int ok = g16_vec_hex(l.tok[0], enc, BYTES) &&                                 \
                         g16_##G##_decode(&b[n], enc, BYTES, 0) == G16_OK;                    \
                CHECK(ok, "%s:%ld: bad base", name, l.lineno);                                \
                n++;                                                                          \
            } else if (!strcmp(l.op, "scalar") && l.ntok == 1 && nk < cap) {                 \
                CHECK(g16_vec_fr(l.tok[0], &s[nk]), "%s:%ld: bad scalar", name, l.lineno);    \
                nk++;                                                                         \
            } else if (!strcmp(l.op, "result") && l.ntok == 1) {                             \
                int ok = g16_vec_hex(l.tok[0], enc, BYTES) &&                                 \
                         g16_##G##_decode(&want, enc, BYTES, 0) == G16_OK;                    \
                CHECK(ok, "%s:%ld: bad result", name, l.lineno);                              \
                have_result = ok;                                                             \
            } else {                                                                          \
                CHECK(0, "%s:%ld: unexpected record '%s'", name, l.lineno, l.op);             \
            }                                                                                 \
        }                                                                                     \
        CHECK(rc == 0, "%s: read error", name);                                               \
        g16_vec_close(f);                                                                     \
        CHECK(n == (WANT_N) && nk == n, "%s: %zu bases, %zu scalars, want %d", name, n, nk,   \
              (WANT_N));                                                                      \
        CHECK(have_result, "%s: no result record", name);                                     \
        for (size_t v = 0; have_result && n == nk && v < NVAR; v++) {                         \
            JAC got;                                                                          \
            CHECK(g16_msm_##G##_ex(&got, b, n, s, n, NULL, &variants[v]) == G16_OK,           \
                  "%s: variant %zu failed", name, v);                                         \
            CHECK(g16_##G##_jac_eq_affine(&got, &want), "%s: variant %zu differs from noble", \
                  name, v);                                                                   \
        }                                                                                     \
        free(b);                                                                              \
        free(s);                                                                              \
    }

VECTOR_TEST(g1, g16_g1_affine, g16_g1_jac, G16_G1_COMPRESSED_BYTES, 1000)
VECTOR_TEST(g2, g16_g2_affine, g16_g2_jac, G16_G2_COMPRESSED_BYTES, 64)

int main(void)
{
    test_g1();
    test_g2();
    return g16_test_finish("msm_vectors");
}
