/* The differential test's MSM sets (see diff.c for the whole test): G1 and G2 MSMs,
 * the folded-bases G1 MSM, the H-query MSM from the device copy of h, and the paths
 * of prove_start (rows < n H step, resident scalars), each against the CPU MSM. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "curve/curve.h"
#include "diff.h"
#include "field/fp.h"
#include "field/fp2.h"
#include "msm/msm.h"

/* Bases P_i = P0 + i·Q (cheap distinct subgroup points); a few replaced by
 * infinity, by a copy of another base, or by the negation of another base.
 * One definition per group (G = g1, g2). */
#define MAKE_BASES(G)                                                                         \
    static void make_##G##_bases(g16_##G##_affine *out, size_t n)                             \
    {                                                                                         \
        g16_##G##_jac gen, p, q, *tmp = malloc((n ? n : 1) * sizeof *tmp);                   \
        if (!tmp) {                                                                           \
            CHECK(0, "out of memory");                                                        \
            for (size_t i = 0; i < n; i++) g16_##G##_affine_set_infinity(&out[i]);            \
            return;                                                                           \
        }                                                                                     \
        uint64_t k1[4], k2[4];                                                                \
        for (int i = 0; i < 4; i++) k1[i] = g16_rng_u64(&diff_rng), k2[i] = g16_rng_u64(&diff_rng); \
        g16_##G##_jac_generator(&gen);                                                        \
        g16_##G##_mul(&p, &gen, k1);                                                          \
        g16_##G##_mul(&q, &gen, k2);                                                          \
        g16_##G##_affine qa;                                                                  \
        g16_##G##_jac_to_affine(&qa, &q);                                                     \
        for (size_t i = 0; i < n; i++) {                                                      \
            tmp[i] = p;                                                                       \
            g16_##G##_jac_add_affine(&p, &p, &qa);                                            \
        }                                                                                     \
        g16_##G##_jac_batch_to_affine(out, tmp, n);                                           \
        free(tmp);                                                                            \
        for (size_t i = 0; n > 8 && i < n / 64 + 2; i++) {                                    \
            size_t a = g16_rng_u64(&diff_rng) % n, b = g16_rng_u64(&diff_rng) % n;            \
            switch (i % 3) {                                                                  \
            case 0: g16_##G##_affine_set_infinity(&out[a]); break;                            \
            case 1: out[a] = out[b]; break;                                                   \
            default: g16_##G##_affine_neg(&out[a], &out[b]); break;                           \
            }                                                                                 \
        }                                                                                     \
    }
MAKE_BASES(g1)
MAKE_BASES(g2)

/* cuda_msm_eq_G: the CUDA MSM of group G over the nb bases bp (uploaded here, freed
 * after) equals want; its output is poisoned first and a failing call is a CHECK. */
#define CUDA_MSM_EQ(G, GROUP)                                                                  \
    static int cuda_msm_eq_##G(g16_cuda_ctx *ctx, const g16_##G##_jac *want,                    \
                               const g16_##G##_affine *bp, size_t nb, const g16_fr *sc,         \
                               size_t n, const uint64_t *dens, const g16_cuda_msm_opts *o)      \
    {                                                                                          \
        g16_##G##_jac got;                                                                     \
        g16_cuda_bases *db = NULL;                                                             \
        g16_status s = g16_cuda_bases_upload(ctx, &db, GROUP, bp, nb);                         \
        CHECK(s == G16_OK, "upload: %s", g16_last_error());                                    \
        memset(&got, 0xA5, sizeof got);                                                        \
        s = g16_cuda_msm_##G(ctx, &got, db, sc, n, dens, o);                                   \
        CHECK(s == G16_OK, "cuda msm " #G ": %s", g16_last_error());                           \
        g16_cuda_bases_free(db);                                                               \
        return s == G16_OK && g16_##G##_jac_eq(want, &got);                                    \
    }
CUDA_MSM_EQ(g1, G16_G1)
CUDA_MSM_EQ(g2, G16_G2)

/* dist 0: uniform; 1: Groth16-like (mostly 0 and 1, some small, some r-1);
 * 2: all equal to one random value (one bucket per window); 3: only 0 and 1. */
static void make_scalars(g16_fr *s, size_t n, int dist)
{
    g16_fr same;
    diff_rand_fr(&same);
    for (size_t i = 0; i < n; i++) {
        uint64_t r = g16_rng_u64(&diff_rng) % 16;
        if (dist == 2) s[i] = same;
        else if (dist == 3) { /* only 0s and 1s: nothing left for the buckets */
            if (r & 1) g16_fr_set_one(&s[i]);
            else g16_fr_set_zero(&s[i]);
        }
        else if (dist == 0 && r) diff_rand_fr(&s[i]);
        else if (r < 6) g16_fr_set_zero(&s[i]);
        else if (r < 11) g16_fr_set_one(&s[i]);
        else if (r < 13) g16_fr_from_u64(&s[i], g16_rng_u64(&diff_rng) % 1000);
        else if (r == 13) {
            g16_fr one;
            g16_fr_set_one(&one);
            g16_fr_neg(&s[i], &one); /* r - 1 */
        } else diff_rand_fr(&s[i]);
    }
}

static size_t make_density(uint64_t *d, size_t n)
{
    size_t set = 0;
    for (size_t w = 0; w < (n + 63) / 64; w++) d[w] = g16_rng_u64(&diff_rng) & g16_rng_u64(&diff_rng);
    for (size_t i = 0; i < n; i++) set += (d[i / 64] >> (i % 64)) & 1;
    return set;
}

/* A variant's environment knob (msm_tuning.cuh reads it at every MSM): kv[0] set to
 * kv[1] for the variant, then put back as it was; kv NULL: none. */
typedef struct {
    const char *const *kv;
    int had;
    char saved[16];
} env_knob;

static void knob_set(env_knob *k, const char *const *kv)
{
    const char *old = kv ? getenv(kv[0]) : NULL;
    k->kv = kv, k->had = old != NULL, k->saved[0] = 0;
    if (old) snprintf(k->saved, sizeof k->saved, "%s", old);
    if (kv) setenv(kv[0], kv[1], 1);
}

static void knob_restore(const env_knob *k)
{
    if (!k->kv) return;
    if (k->had) setenv(k->kv[0], k->saved, 1);
    else unsetenv(k->kv[0]);
}

/* One size's G1 MSM inputs: bases, scalars, and a density bitmap with the bases it
 * selects (sub). */
typedef struct g1_inputs {
    size_t n;
    g16_g1_affine *bases, *sub;
    g16_fr *sc;
    uint64_t *dens;
} g1_inputs;

static int g1_inputs_make(g1_inputs *in, size_t n)
{
    in->n = n;
    in->bases = malloc(n * sizeof *in->bases), in->sub = malloc(n * sizeof *in->sub);
    in->sc = malloc(n * sizeof *in->sc);
    in->dens = malloc(((n + 63) / 64) * 8);
    if (!in->bases || !in->sc || !in->dens || !in->sub) {
        CHECK(0, "out of memory");
        return 0;
    }
    make_g1_bases(in->bases, n);
    return 1;
}

static void g1_inputs_free(g1_inputs *in)
{
    free(in->bases), free(in->sub), free(in->sc), free(in->dens);
}

/* Fresh scalars of distribution dist; with use_dens a fresh bitmap.  Returns the
 * bases that go with them (all, or the bitmap's selection) and their count. */
static const g16_g1_affine *g1_inputs_draw(g1_inputs *in, int dist, int use_dens, size_t *nb)
{
    make_scalars(in->sc, in->n, dist);
    *nb = in->n;
    if (!use_dens) return in->bases;
    *nb = make_density(in->dens, in->n);
    for (size_t i = 0, k = 0; i < in->n; i++)
        if ((in->dens[i / 64] >> (i % 64)) & 1) in->sub[k++] = in->bases[i];
    return in->sub;
}

void diff_test_msm_g1(g16_cuda_ctx *ctx, size_t max_n)
{
    static const size_t sizes[] = {1, 2, 3, 7, 64, 100, 1000, 4096, 65536, 1u << 18, 1u << 20};
    for (size_t si = 0; si < sizeof sizes / sizeof *sizes && sizes[si] <= max_n; si++) {
        size_t n = sizes[si];
        g1_inputs in;
        if (!g1_inputs_make(&in, n)) return;
        const g16_fr *sc = in.sc;
        const uint64_t *dens = in.dens;
        int fails = 0;
        for (int v = 0; v < 16; v++) {
            if (n > 65536 && (v == 4 || v == 5)) continue;
            if (n < 1000 && v >= 7) continue;
            int dist = v == 1 || v == 3 || v == 8 || v >= 14 ? 1 : v == 5 ? 2 : v == 6 ? 3 : 0;
            int use_dens = v == 3 || v == 8 || v == 14;
            g16_cuda_msm_opts o = {0, 0, 0};
            g16_msm_opts co = {0};
            if (v == 2) o.window = 5, o.no_split = 1;
            if (v == 4) o.window = 2;
            /* v 7 and 8: the windows of large MSMs (G1 from 2^24 points: 20, 13 windows)
             * at test sizes, uniform and Groth16-like in window groups */
            if (v == 7) o.window = 20;
            if (v == 8) o.window = 18;
            /* v 1, 3 and 8: sorts of at least four windows (4n pairs: the window groups,
             * msm_run); v 14 chunks of a third of the scalars, a window a sort; v 15 the
             * groups off (G16_CUDA_MSM_WGROUP=0): W / 4 chunks of 4n / W scalars (the
             * density's in 64-bit words), each over all windows */
            if (v == 1 || v == 3 || v == 8 || v == 15) o.max_pairs = 4 * n;
            if (v == 14) o.max_pairs = n / 3;
            /* v 9: uniform with level-0 pieces of 64, the length that large dense MSMs
             * (>= 2^27 pairs, msm_run_len) take, at test sizes; v 10: the instance
             * of the flat level 0 that is not the default (compiled for one block a
             * multiprocessor), v 11: blocks of 32; v 12 and 13: pieces of 128 and 256,
             * what dense MSMs of >= 64 and >= 128 a bucket take */
            static const char *const knob[][2] = {{"G16_CUDA_MSM_RUN", "64"},
                                                  {"G16_CUDA_MSM_FLAT_LB", "1"},
                                                  {"G16_CUDA_MSM_FLAT_TPB", "32"},
                                                  {"G16_CUDA_MSM_RUN", "128"},
                                                  {"G16_CUDA_MSM_RUN", "256"},
                                                  {"G16_CUDA_MSM_WGROUP", "1"},
                                                  {"G16_CUDA_MSM_WGROUP", "0"}};
            const char *const *kv = v >= 9 ? knob[v - 9] : NULL;
            env_knob kn;
            knob_set(&kn, kv);
            size_t nb;
            const g16_g1_affine *bp = g1_inputs_draw(&in, dist, use_dens, &nb);
            g16_g1_jac want;
            g16_status s = g16_msm_g1_ex(&want, bp, nb, sc, n, use_dens ? dens : NULL, &co);
            CHECK(s == G16_OK, "cpu msm: %s", g16_last_error());
            int ok = cuda_msm_eq_g1(ctx, &want, bp, nb, sc, n, use_dens ? dens : NULL, &o);
            knob_restore(&kn);
            CHECK(ok, "G1 MSM n=%zu variant %d (dist %d, density %d, window %u, split %d, max pairs %zu) differs",
                  n, v, dist, use_dens, o.window, !o.no_split, o.max_pairs);
            fails += !ok;
        }
        printf("msm g1 n=%zu: %s\n", n, fails ? "FAIL" : "ok");
        fflush(stdout);
        g1_inputs_free(&in);
    }
}

/* Folded bases (g16_cuda_bases_fold): every window's digits in one bucket set over
 * the shifted copies; uniform, Groth16-like (with a density bitmap), all-equal and
 * unsplit scalars, a prefix view of the folded handle, several windows; and the
 * argument errors. */
void diff_test_msm_g1_fold(g16_cuda_ctx *ctx, size_t max_n)
{
    static const size_t sizes[] = {1, 7, 1000, 4096, 65536, 1u << 18};
    static const unsigned windows[] = {0, 8, 13};
    for (size_t si = 0; si < sizeof sizes / sizeof *sizes && sizes[si] <= max_n; si++) {
        size_t n = sizes[si];
        g1_inputs in;
        int fails = 0;
        if (!g1_inputs_make(&in, n)) return;
        for (int v = 0; v < 5; v++) {
            int dist = v == 1 || v == 3 ? 1 : v == 2 ? 2 : 0, use_dens = v == 3;
            unsigned c = windows[v % 3];
            size_t m = v == 4 ? (n + 1) / 2 : n; /* v 4: a prefix view */
            g16_cuda_msm_opts o = {0, v == 1, v == 3 ? 4 * n : 0}; /* v 3: in chunks */
            size_t nb;
            const g16_g1_affine *bp = g1_inputs_draw(&in, dist, use_dens, &nb);
            g16_g1_jac want, got;
            g16_msm_opts co = {0};
            g16_status s = g16_msm_g1_ex(&want, bp, v == 4 ? m : nb, in.sc, m, use_dens ? in.dens : NULL, &co);
            CHECK(s == G16_OK, "cpu msm: %s", g16_last_error());
            g16_cuda_bases *db = NULL, *fb = NULL, *view = NULL;
            s = g16_cuda_bases_upload(ctx, &db, G16_G1, bp, nb);
            if (!s) s = g16_cuda_bases_fold(ctx, &fb, db, c);
            if (!s && v == 4) s = g16_cuda_bases_prefix(&view, fb, m);
            CHECK(s == G16_OK, "upload/fold: %s", g16_last_error());
            memset(&got, 0xA5, sizeof got);
            if (!s) s = g16_cuda_msm_g1(ctx, &got, view ? view : fb, in.sc, m, use_dens ? in.dens : NULL, &o);
            CHECK(s == G16_OK, "cuda msm g1 (folded): %s", g16_last_error());
            int ok = s == G16_OK && g16_g1_jac_eq(&want, &got);
            CHECK(ok, "folded G1 MSM n=%zu variant %d (window %u, dist %d, density %d) differs", m, v,
                  c ? c : G16_CUDA_FOLD_C, dist, use_dens);
            fails += !ok;
            if (v == 0 && fb) { /* errors: another window, folding twice */
                g16_cuda_msm_opts ow = {9, 0, 0};
                g16_cuda_bases *ff = NULL;
                CHECK(g16_cuda_msm_g1(ctx, &got, fb, in.sc, n, NULL, &ow) == G16_ERR_ARG, "window 9 on folded bases");
                CHECK(g16_cuda_bases_fold(ctx, &ff, fb, 0) == G16_ERR_ARG && !ff, "folded twice");
            }
            g16_cuda_bases_free(view), g16_cuda_bases_free(fb), g16_cuda_bases_free(db);
        }
        printf("msm g1 folded n=%zu: %s\n", n, fails ? "FAIL" : "ok");
        fflush(stdout);
        g1_inputs_free(&in);
    }
    g16_g2_affine g2[2];
    make_g2_bases(g2, 2);
    g16_cuda_bases *d2 = NULL, *f2 = NULL;
    CHECK(g16_cuda_bases_upload(ctx, &d2, G16_G2, g2, 2) == G16_OK, "g2 upload");
    CHECK(g16_cuda_bases_fold(ctx, &f2, d2, 0) == G16_ERR_ARG && !f2, "G2 bases folded");
    g16_cuda_bases_free(d2);
}

void diff_test_msm_g2(g16_cuda_ctx *ctx, size_t max_n)
{
    static const size_t sizes[] = {1, 2, 5, 100, 1000, 4096, 65536};
    for (size_t si = 0; si < sizeof sizes / sizeof *sizes && sizes[si] <= max_n; si++) {
        size_t n = sizes[si];
        g16_g2_affine *bases = malloc(n * sizeof *bases), *sub = malloc(n * sizeof *sub);
        g16_fr *sc = malloc(n * sizeof *sc);
        uint64_t *dens = malloc(((n + 63) / 64) * 8);
        if (!bases || !sc || !dens || !sub) {
            CHECK(0, "out of memory");
            return;
        }
        make_g2_bases(bases, n);
        int fails = 0;
        for (int v = 0; v < 13; v++) {
            int dist = v == 1 || v == 3 || (v >= 6 && v <= 9) || v >= 11 ? 1 : 0,
                use_dens = v == 3 || v == 11;
            g16_cuda_msm_opts o = {0, 0, 0};
            if (v == 2) o.window = 6, o.no_split = 1;
            /* v 3: sorts of at least four windows (4n pairs: the window groups); v 11
             * chunks of a third of the scalars, a window a sort; v 12 the groups off
             * (G16_CUDA_MSM_WGROUP=0): W / 4 chunks of 4n / W scalars, each over all
             * windows */
            if (v == 3 || v == 12) o.max_pairs = 4 * n;
            if (v == 11) o.max_pairs = n / 3;
            /* v 4 and 5: the windows of large G2 MSMs (20 from 2^25 points: 13 windows) */
            if (v == 4) o.window = 20;
            if (v == 5) o.window = 18;
            /* v 6 .. 9: Groth16-like scalars (≈ 31% ones) through each G2 kernel set,
             * whatever the defaults: the upper levels and the 1-scalar sum a point a
             * thread (6), the levels over lane pairs (7), the 1-scalar sum too (8), and
             * level 0 a point a thread (9); msm_tuning.cuh; v 10: uniform over lane pairs
             * with pieces of 128, what dense G2 MSMs of >= 64 a bucket take */
            static const char *const knob[][2] = {{"G16_CUDA_MSM_G2_PAIR_UP", "0"},
                                                  {"G16_CUDA_MSM_G2_PAIR_UP", "1"},
                                                  {"G16_CUDA_MSM_G2_PAIR_UP", "2"},
                                                  {"G16_CUDA_MSM_G2_PAIR", "0"},
                                                  {"G16_CUDA_MSM_RUN", "128"},
                                                  {"G16_CUDA_MSM_WGROUP", "1"},
                                                  {"G16_CUDA_MSM_WGROUP", "0"}};
            const char *const *kv = v >= 6 ? knob[v - 6] : NULL;
            env_knob kn;
            knob_set(&kn, kv);
            make_scalars(sc, n, dist);
            size_t nb = n;
            const g16_g2_affine *bp = bases;
            if (use_dens) {
                nb = make_density(dens, n);
                for (size_t i = 0, k = 0; i < n; i++)
                    if ((dens[i / 64] >> (i % 64)) & 1) sub[k++] = bases[i];
                bp = sub;
            }
            g16_g2_jac want;
            g16_status s = g16_msm_g2(&want, bp, nb, sc, n, use_dens ? dens : NULL);
            CHECK(s == G16_OK, "cpu msm: %s", g16_last_error());
            int ok = cuda_msm_eq_g2(ctx, &want, bp, nb, sc, n, use_dens ? dens : NULL, &o);
            knob_restore(&kn);
            CHECK(ok, "G2 MSM n=%zu variant %d (dist %d, density %d, window %u%s%s%s%s) differs", n, v, dist,
                  use_dens, o.window, kv ? ", " : "", kv ? kv[0] : "", kv ? "=" : "", kv ? kv[1] : "");
            fails += !ok;
        }
        printf("msm g2 n=%zu: %s\n", n, fails ? "FAIL" : "ok");
        fflush(stdout);
        free(bases), free(sub), free(sc), free(dens);
    }
}

/* The special cases of a bucket's running sum inside one level-0 chunk (G2 runs it
 * over lane pairs, field_pair.cuh, where both lanes must take every branch together):
 * groups of bases P, P, −2P, O, Q, −Q, Q, Q with one scalar for all, so each window's
 * entries form one run in base order and the sum meets a doubling, a cancellation,
 * an infinite base, a start from infinity and a second doubling; chunks of 2, 3, 4, 5
 * and 16 entries (G16_CUDA_MSM_RUN) cut that pattern at every offset. */
void diff_test_msm_g2_edges(g16_cuda_ctx *ctx)
{
    enum { GROUPS = 24, N = 8 * GROUPS };
    g16_g2_affine *b = malloc(N * sizeof *b);
    g16_fr *sc = malloc(N * sizeof *sc);
    if (!b || !sc) {
        CHECK(0, "out of memory");
        free(b), free(sc);
        return;
    }
    g16_g2_jac gen, p, q, p2;
    g16_g2_jac_generator(&gen);
    for (int g = 0; g < GROUPS; g++) {
        uint64_t k1[4], k2[4];
        for (int i = 0; i < 4; i++) k1[i] = g16_rng_u64(&diff_rng), k2[i] = g16_rng_u64(&diff_rng);
        g16_g2_mul(&p, &gen, k1);
        g16_g2_mul(&q, &gen, k2);
        g16_g2_jac_dbl(&p2, &p);
        g16_g2_jac_neg(&p2, &p2);
        g16_g2_affine *o = b + 8 * g;
        g16_g2_jac_to_affine(&o[0], &p);
        o[1] = o[0];
        g16_g2_jac_to_affine(&o[2], &p2);
        g16_g2_affine_set_infinity(&o[3]);
        g16_g2_jac_to_affine(&o[4], &q);
        g16_g2_affine_neg(&o[5], &o[4]);
        o[6] = o[4];
        o[7] = o[4];
    }
    const char *was = getenv("G16_CUDA_MSM_RUN");
    char *saved = was ? strdup(was) : NULL;
    static const char *runs[] = {"2", "3", "4", "5", "16"};
    int fails = 0;
    for (int r = 0; r < 2 * (int)(sizeof runs / sizeof *runs); r++) {
        make_scalars(sc, N, 2); /* a fresh common scalar: two a chunk length */
        g16_g2_jac want;
        CHECK(g16_msm_g2(&want, b, N, sc, N, NULL) == G16_OK, "cpu msm: %s", g16_last_error());
        setenv("G16_CUDA_MSM_RUN", runs[r / 2], 1);
        g16_cuda_msm_opts o = {0, 0, 0};
        int ok = cuda_msm_eq_g2(ctx, &want, b, N, sc, N, NULL, &o);
        CHECK(ok, "G2 MSM over doublings and cancellations differs (chunks of %s)", runs[r / 2]);
        fails += !ok;
    }
    if (saved) setenv("G16_CUDA_MSM_RUN", saved, 1);
    else unsetenv("G16_CUDA_MSM_RUN");
    free(saved);
    printf("msm g2 edges: %s\n", fails ? "FAIL" : "ok");
    fflush(stdout);
    free(b), free(sc);
}

/* H step then the H-query MSM straight from the device copy of h. */
void diff_test_h_msm(g16_cuda_ctx *ctx)
{
    for (unsigned log_n = 1; log_n <= 16; log_n += 5) {
        size_t n = (size_t)1 << log_n;
        g16_fr *a = malloc(3 * n * sizeof *a), *h = malloc(n * sizeof *h);
        g16_g1_affine *bases = malloc(n * sizeof *bases);
        if (!a || !h || !bases) {
            CHECK(0, "out of memory");
            return;
        }
        for (size_t i = 0; i < 3 * n; i++) diff_rand_fr(&a[i]);
        make_g1_bases(bases, n);
        CHECK(g16_cuda_h_step(ctx, h, a, a + n, a + 2 * n, log_n, 0) == G16_OK, "h step: %s",
              g16_last_error());
        size_t m = n - 1; /* bellperson's H query */
        g16_g1_jac want, got;
        CHECK(g16_msm_g1(&want, bases, m, h, m, NULL) == G16_OK, "cpu msm");
        g16_cuda_bases *db = NULL;
        CHECK(g16_cuda_bases_upload(ctx, &db, G16_G1, bases, m) == G16_OK, "upload");
        memset(&got, 0xA5, sizeof got);
        g16_status s = g16_cuda_msm_g1_h(ctx, &got, db, m, NULL);
        CHECK(s == G16_OK, "msm_g1_h: %s", g16_last_error());
        int ok = s == G16_OK && g16_g1_jac_eq(&want, &got);
        CHECK(ok, "H-query MSM from the device h differs at 2^%u", log_n);
        CHECK(g16_cuda_ntt(ctx, h, log_n, 0, 0, 0, 0) == G16_OK, "ntt");
        CHECK(g16_cuda_msm_g1_h(ctx, &got, db, m, NULL) == G16_ERR_ARG,
              "msm_g1_h accepted a discarded H step result");
        g16_cuda_bases_free(db);
        printf("h step + H msm 2^%u: %s\n", log_n, ok ? "ok" : "FAIL");
        free(a), free(h), free(bases);
    }
}

#if !G16_CURVE_BN254 /* the engine-path sets (resident rows, z split, prefetch): BLS12-381 only */

/* One resident-scalar MSM of test_rows_resident against the CPU (leaves db uploaded). */
#define RESIDENT_CASE(JAC, CPU_MSM, CUDA_MSM, GROUP, EQ, PTS, NAME)                               \
    do {                                                                                         \
        JAC w_, o_;                                                                              \
        CHECK(CPU_MSM(&w_, PTS, nb, z + off, len, dp) == G16_OK, "cpu msm " NAME);                \
        CHECK(g16_cuda_bases_upload(ctx, &db, GROUP, PTS, nb) == G16_OK, "upload " NAME);         \
        memset(&o_, 0xA5, sizeof o_);                                                            \
        s = CUDA_MSM(ctx, &o_, db, off, len, dp, NULL);                                          \
        ok = s == G16_OK && EQ(&w_, &o_);                                                        \
        CHECK(ok, "resident " NAME " MSM 2^%u (density %d) differs", log_n, use_dens);           \
        fails += !ok;                                                                            \
    } while (0)

/* The paths prove_start takes: the H step over the first `rows` entries (the rest
 * of the domain zero), its result also kept on the device only (h NULL) for the
 * H-query MSM; MSMs over resident scalars at an offset, with and without a density
 * bitmap, G1 and G2.  The reference H step is the full-size one over zero-padded
 * vectors, which test_ntt checks against ref_ntt. */
void diff_test_rows_resident(g16_cuda_ctx *ctx)
{
    for (unsigned log_n = 3; log_n <= 15; log_n += 6) {
        const size_t n = (size_t)1 << log_n, rows = n - n / 4 + 1, m = n - 1;
        const size_t off = n / 8, len = n - off - 3;
        g16_fr *abc = calloc(3 * n, sizeof *abc), *hw = malloc(n * sizeof *hw);
        g16_fr *hg = malloc(n * sizeof *hg), *z = malloc(n * sizeof *z), *r3 = malloc(3 * rows * sizeof *z);
        g16_g1_affine *bases = malloc(n * sizeof *bases), *sub = malloc(n * sizeof *sub);
        g16_g2_affine *b2 = malloc(n * sizeof *b2), *s2 = malloc(n * sizeof *s2);
        uint64_t *dens = malloc(((n + 63) / 64) * 8);
        int fails = 0;
        if (!abc || !hw || !hg || !z || !r3 || !bases || !sub || !b2 || !s2 || !dens) {
            CHECK(0, "out of memory");
            return;
        }
        for (size_t k = 0; k < 3; k++)
            for (size_t i = 0; i < rows; i++) diff_rand_fr(&abc[k * n + i]), r3[k * rows + i] = abc[k * n + i];
        CHECK(g16_cuda_h_step(ctx, hw, abc, abc + n, abc + 2 * n, log_n, 0) == G16_OK, "h step: %s",
              g16_last_error());
        memset(hg, 0xA5, n * sizeof *hg);
        g16_status s = g16_cuda_h_step_rows(ctx, hg, r3, r3 + rows, r3 + 2 * rows, rows, log_n, 0);
        CHECK(s == G16_OK, "h step rows: %s", g16_last_error());
        size_t d = diff_first_diff(hg, hw, n);
        CHECK(d == n, "h step over %zu of 2^%u rows differs at %zu", rows, log_n, d);
        fails += d != n;
        make_g1_bases(bases, n);
        g16_g1_jac want, got;
        g16_cuda_bases *db = NULL;
        CHECK(g16_msm_g1(&want, bases, m, hw, m, NULL) == G16_OK, "cpu msm");
        CHECK(g16_cuda_bases_upload(ctx, &db, G16_G1, bases, m) == G16_OK, "upload");
        s = g16_cuda_h_step_rows(ctx, NULL, r3, r3 + rows, r3 + 2 * rows, rows, log_n, 0);
        memset(&got, 0xA5, sizeof got);
        if (s == G16_OK) s = g16_cuda_msm_g1_h(ctx, &got, db, m, NULL);
        int ok = s == G16_OK && g16_g1_jac_eq(&want, &got);
        CHECK(ok, "H-query MSM after the rows H step (h on the device only) differs at 2^%u: %s",
              log_n, s ? g16_last_error() : "wrong sum");
        fails += !ok;
        g16_cuda_bases_free(db);
        make_scalars(z, n, 1);
        CHECK(g16_cuda_scalars_upload(ctx, z, n) == G16_OK, "scalars upload: %s", g16_last_error());
        const int g2 = log_n <= 9;
        if (g2) make_g2_bases(b2, len);
        for (int use_dens = 0; use_dens < 2; use_dens++) {
            size_t nb = use_dens ? make_density(dens, len) : len;
            for (size_t i = 0, k = 0; i < len; i++)
                if (!use_dens || ((dens[i / 64] >> (i % 64)) & 1)) {
                    if (g2) s2[k] = b2[i];
                    sub[k++] = bases[i];
                }
            const uint64_t *dp = use_dens ? dens : NULL;
            RESIDENT_CASE(g16_g1_jac, g16_msm_g1, g16_cuda_msm_g1_resident, G16_G1, g16_g1_jac_eq, sub, "G1");
            CHECK(g16_cuda_msm_g1_resident(ctx, &got, db, n - 2, 3, NULL, NULL) == G16_ERR_ARG,
                  "resident MSM past the held scalars accepted");
            g16_cuda_bases_free(db);
            if (!g2) continue;
            RESIDENT_CASE(g16_g2_jac, g16_msm_g2, g16_cuda_msm_g2_resident, G16_G2, g16_g2_jac_eq, s2, "G2");
            g16_cuda_bases_free(db);
        }
        printf("h step rows + resident msm 2^%u: %s\n", log_n, fails ? "FAIL" : "ok");
        fflush(stdout);
        free(abc), free(hw), free(hg), free(z), free(r3), free(bases), free(sub), free(b2), free(s2), free(dens);
    }
}

/* prove_start's order on the CUDA backend: a, b, c prefetched to the device
 * (g16_cuda_h_prefetch, page-locked inputs) while MSMs over resident scalars run,
 * then the H step with the same arguments.  Also the fallbacks that must stay
 * right: an H step with other buffers, an NTT in between, an explicit drop,
 * pageable inputs (no prefetch at all).  Reference: the full-size H step over
 * zero-padded vectors, as in test_rows_resident. */
void diff_test_h_prefetch(g16_cuda_ctx *ctx)
{
    for (unsigned log_n = 4; log_n <= 16; log_n += 6) {
        const size_t n = (size_t)1 << log_n, rows = n - n / 4 + 1;
        g16_fr *abc = calloc(3 * n, sizeof *abc), *hw = malloc(n * sizeof *hw);
        g16_fr *hg = malloc(n * sizeof *hg), *z = malloc(n * sizeof *z), *pg = malloc(3 * rows * sizeof *pg);
        g16_g1_affine *bases = malloc(n * sizeof *bases);
        void *pin[2] = {NULL, NULL};
        int fails = 0;
        for (int i = 0; i < 2; i++)
            CHECK(g16_cuda_host_alloc(&pin[i], 3 * rows * sizeof(g16_fr)) == G16_OK, "pinned: %s",
                  g16_last_error());
        if (!abc || !hw || !hg || !z || !pg || !bases || !pin[0] || !pin[1]) {
            CHECK(0, "out of memory");
            return;
        }
        g16_fr *r3 = pin[0], *r3b = pin[1];
        for (size_t k = 0; k < 3; k++)
            for (size_t i = 0; i < rows; i++) {
                diff_rand_fr(&abc[k * n + i]);
                r3[k * rows + i] = r3b[k * rows + i] = pg[k * rows + i] = abc[k * n + i];
            }
        CHECK(g16_cuda_h_step(ctx, hw, abc, abc + n, abc + 2 * n, log_n, 0) == G16_OK, "h step: %s",
              g16_last_error());
        make_g1_bases(bases, n);
        make_scalars(z, n, 1);
        g16_g1_jac want, got;
        CHECK(g16_msm_g1(&want, bases, n, z, n, NULL) == G16_OK, "cpu msm");
        g16_cuda_bases *db = NULL;
        CHECK(g16_cuda_bases_upload(ctx, &db, G16_G1, bases, n) == G16_OK, "upload");
        /* case 0: prefetch, MSM, h step (the path); 1: h step over other buffers;
         * 2: an NTT in between; 3: dropped; 4: pageable inputs */
        for (int cs = 0; cs < 5; cs++) {
            const g16_fr *src = cs == 4 ? pg : r3;
            g16_status s = g16_cuda_scalars_upload(ctx, z, n);
            if (!s) s = g16_cuda_h_prefetch(ctx, src, src + rows, src + 2 * rows, rows, log_n);
            CHECK(s == G16_OK, "prefetch case %d: %s", cs, g16_last_error());
            CHECK(g16_cuda_h_prefetched(ctx) == (cs != 4), "prefetch case %d: pending %d", cs,
                  g16_cuda_h_prefetched(ctx));
            memset(&got, 0xA5, sizeof got);
            if (!s) s = g16_cuda_msm_g1_resident(ctx, &got, db, 0, n, NULL, NULL);
            int ok = s == G16_OK && g16_g1_jac_eq(&want, &got);
            CHECK(ok, "MSM beside a prefetch (case %d, 2^%u) differs: %s", cs, log_n,
                  s ? g16_last_error() : "wrong sum");
            fails += !ok;
            if (cs == 1) src = r3b;
            if (cs == 2) {
                memcpy(hg, hw, n * sizeof *hg);
                CHECK(g16_cuda_ntt(ctx, hg, log_n, 0, 0, 0, 0) == G16_OK, "ntt: %s", g16_last_error());
                CHECK(!g16_cuda_h_prefetched(ctx), "an NTT left the prefetch pending");
            }
            if (cs == 3) CHECK(g16_cuda_h_prefetch_drop(ctx) == G16_OK, "drop: %s", g16_last_error());
            memset(hg, 0xA5, n * sizeof *hg);
            s = g16_cuda_h_step_rows(ctx, hg, src, src + rows, src + 2 * rows, rows, log_n, 0);
            size_t d = s ? 0 : diff_first_diff(hg, hw, n);
            CHECK(s == G16_OK && d == n, "h step after prefetch case %d (2^%u) differs at %zu: %s",
                  cs, log_n, d, s ? g16_last_error() : "wrong value");
            CHECK(!g16_cuda_h_prefetched(ctx), "h step left a prefetch pending (case %d)", cs);
            fails += s != G16_OK || d != n;
        }
        printf("h step prefetched beside an msm 2^%u: %s\n", log_n, fails ? "FAIL" : "ok");
        fflush(stdout);
        g16_cuda_bases_free(db);
        g16_cuda_host_free(pin[0]), g16_cuda_host_free(pin[1]);
        free(abc), free(hw), free(hg), free(z), free(pg), free(bases);
    }
}


/* prove_start's split upload of z (g16_cuda_scalars_upload_split): the head goes up
 * at once, the tail on its own stream, and resident MSMs past the head wait for it.
 * Checks, against the CPU: the two MSMs over bases ranges either side of the head
 * (the one past it first, at once) and one across it, with an H-step prefetch enqueued between (its copies wait for
 * the tail); a re-upload while a tail may still travel; pageable scalars (no
 * split); a preloaded density bitmap, whole and in chunks; G2 over a range; and a
 * range past the bases refused. */
void diff_test_z_split(g16_cuda_ctx *ctx)
{
    /* 2^22: a 90 MB tail, still travelling when the first MSM past the head starts */
    static const size_t sizes[] = {1000, 65536, (size_t)1 << 22};
    for (size_t si = 0; si < sizeof sizes / sizeof *sizes; si++) {
        const size_t n = sizes[si], head = n / 3, rows = 64;
        g16_fr *z = NULL, *abc = NULL, *zp = malloc(n * sizeof *zp);
        g16_g1_affine *bases = malloc(n * sizeof *bases);
        int fails = 0;
        if (g16_cuda_host_alloc((void **)&z, n * sizeof *z) != G16_OK ||
            g16_cuda_host_alloc((void **)&abc, 3 * rows * sizeof *abc) != G16_OK || !zp || !bases) {
            CHECK(0, "out of memory");
            g16_cuda_host_free(z), g16_cuda_host_free(abc), free(zp), free(bases);
            return;
        }
        make_g1_bases(bases, n);
        for (size_t i = 0; i < 3 * rows; i++) diff_rand_fr(&abc[i]);
        g16_cuda_bases *db = NULL, *lo = NULL, *hi = NULL, *mid = NULL;
        CHECK(g16_cuda_bases_upload(ctx, &db, G16_G1, bases, n) == G16_OK, "upload: %s", g16_last_error());
        for (int round = 0; round < 2; round++) { /* round 1: re-upload over a pending tail */
            make_scalars(z, n, round);
            /* the references first, so that nothing stands between the upload and the
             * MSM past the head (issued first): without its wait for the tail it reads
             * poison or the last round's scalars */
            g16_g1_jac want[3], got[3], sum;
            const size_t at[3] = {head, 0, head - 5}, len[3] = {n - head, head, 10};
            for (int k = 0; k < 3; k++)
                CHECK(g16_msm_g1(&want[k], bases + at[k], len[k], z + at[k], len[k], NULL) == G16_OK, "cpu msm");
            int split = 0;
            g16_status s = g16_cuda_scalars_upload_split(ctx, z, n, head, &split);
            /* round 1: again at once, so the first tail may still travel */
            if (round == 1 && s == G16_OK) s = g16_cuda_scalars_upload_split(ctx, z, n, head, &split);
            CHECK(s == G16_OK && split, "split upload (n %zu): %s", n, s ? g16_last_error() : "not split");
            if (round == 0) {
                s = g16_cuda_h_prefetch(ctx, abc, abc + rows, abc + 2 * rows, rows, 7);
                CHECK(s == G16_OK, "prefetch: %s", g16_last_error());
            }
            for (int k = 0; k < 3; k++) {
                g16_cuda_bases **v = k == 0 ? &lo : k == 1 ? &hi : &mid;
                s = g16_cuda_bases_range(v, db, at[k], len[k]);
                memset(&got[k], 0xA5, sizeof got[k]);
                if (!s) s = g16_cuda_msm_g1_resident(ctx, &got[k], *v, at[k], len[k], NULL, NULL);
                int ok = s == G16_OK && g16_g1_jac_eq(&want[k], &got[k]);
                CHECK(ok, "split upload n %zu round %d: MSM over [%zu, %zu) differs: %s", n, round, at[k],
                      at[k] + len[k], s ? g16_last_error() : "wrong sum");
                fails += !ok;
                g16_cuda_bases_free(*v), *v = NULL;
            }
            g16_g1_jac_add(&sum, &got[0], &got[1]);
            CHECK(g16_msm_g1(&want[0], bases, n, z, n, NULL) == G16_OK, "cpu msm");
            CHECK(g16_g1_jac_eq(&want[0], &sum), "split halves do not add up to the whole MSM (n %zu)", n);
            fails += !g16_g1_jac_eq(&want[0], &sum);
            if (round == 0) CHECK(g16_cuda_h_prefetch_drop(ctx) == G16_OK, "drop");
        }
        /* pageable scalars: everything goes up, no split */
        make_scalars(zp, n, 0);
        int split = 1;
        CHECK(g16_cuda_scalars_upload_split(ctx, zp, n, head, &split) == G16_OK && !split,
              "pageable scalars split");
        g16_g1_jac w, g;
        CHECK(g16_msm_g1(&w, bases, n, zp, n, NULL) == G16_OK, "cpu msm");
        int ok = g16_cuda_msm_g1_resident(ctx, &g, db, 0, n, NULL, NULL) == G16_OK && g16_g1_jac_eq(&w, &g);
        CHECK(ok, "pageable upload_split MSM differs (n %zu)", n);
        fails += !ok;
        CHECK(g16_cuda_bases_range(&lo, db, n - 2, 3) == G16_ERR_ARG && !lo, "range past the bases accepted");
        { /* a preloaded density bitmap, whole and in chunks (each a part of it) */
            uint64_t *dens = malloc(((n + 63) / 64) * 8);
            g16_g1_affine *sub = malloc(n * sizeof *sub);
            g16_cuda_bases *ds = NULL;
            CHECK(dens && sub, "out of memory");
            if (dens && sub) {
                size_t nb = make_density(dens, n);
                for (size_t i = 0, k = 0; i < n; i++)
                    if ((dens[i / 64] >> (i % 64)) & 1) sub[k++] = bases[i];
                CHECK(g16_msm_g1(&w, sub, nb, zp, n, dens) == G16_OK, "cpu msm");
                g16_status s = g16_cuda_density_preload(ctx, 1, dens, n);
                if (!s) s = g16_cuda_bases_upload(ctx, &ds, G16_G1, sub, nb);
                for (int chunked = 0; chunked < 2 && !s; chunked++) {
                    g16_cuda_msm_opts o = {0, 0, chunked ? 4 * n : 0};
                    memset(&g, 0xA5, sizeof g);
                    s = g16_cuda_msm_g1_resident(ctx, &g, ds, 0, n, dens, &o);
                    ok = s == G16_OK && g16_g1_jac_eq(&w, &g);
                    CHECK(ok, "MSM over a preloaded bitmap (n %zu, chunked %d) differs: %s", n, chunked,
                          s ? g16_last_error() : "wrong sum");
                    fails += !ok;
                }
                CHECK(s == G16_OK, "preloaded bitmap: %s", g16_last_error());
                g16_cuda_density_forget(ctx);
                CHECK(g16_cuda_density_preload(ctx, 2, dens, n) == G16_ERR_ARG, "preload slot 2 accepted");
            }
            g16_cuda_bases_free(ds), free(dens), free(sub);
        }
        if (n <= 1000) { /* G2 over a range of the head */
            g16_g2_affine *b2 = malloc(n * sizeof *b2);
            g16_cuda_bases *d2 = NULL, *r2 = NULL;
            g16_g2_jac w2, g2;
            CHECK(b2 != NULL, "out of memory");
            if (b2) {
                make_g2_bases(b2, n);
                CHECK(g16_cuda_scalars_upload_split(ctx, z, n, head, &split) == G16_OK && split, "split");
                CHECK(g16_msm_g2(&w2, b2 + 7, 100, z + 7, 100, NULL) == G16_OK, "cpu msm g2");
                g16_status s = g16_cuda_bases_upload(ctx, &d2, G16_G2, b2, n);
                if (!s) s = g16_cuda_bases_range(&r2, d2, 7, 100);
                if (!s) s = g16_cuda_msm_g2_resident(ctx, &g2, r2, 7, 100, NULL, NULL);
                ok = s == G16_OK && g16_g2_jac_eq(&w2, &g2);
                CHECK(ok, "G2 MSM over a bases range differs: %s", s ? g16_last_error() : "wrong sum");
                fails += !ok;
                g16_cuda_bases_free(r2), g16_cuda_bases_free(d2), free(b2);
            }
        }
        g16_cuda_bases_free(db);
        printf("split z upload n=%zu: %s\n", n, fails ? "FAIL" : "ok");
        fflush(stdout);
        g16_cuda_host_free(z), g16_cuda_host_free(abc), free(zp), free(bases);
    }
}
#endif
