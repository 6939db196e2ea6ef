/* The merged MSM (g16_msm_g1_merged / _g2_merged) against the plain one, which
 * test_msm_g1.c checks against the naive sum: many repeats of few values, 0s and
 * 1s among them, density bitmaps, groups whose bases double, cancel to infinity
 * and contain infinity, one huge group, inputs with no repeats (the plain path)
 * and below the size threshold, and a wrong base count; one plan for the scalars
 * with a bitmap and compacted (B1 and B2); some of it again on 1 and 5
 * threads (the grouping's hash table in 1 and 4 slot ranges).
 *
 * This file is the G1 test and, with TG_* predefined, the body of test_msm_merge_g2.c. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "rand_field.h"
#include "common/pool.h"
#include "curve/curve.h"
#include "field/fr.h"
#include "msm/msm.h"

#ifndef TG
#define TG g1
#define TAFF g16_g1_affine
#define TJAC g16_g1_jac
#define TNAME "msm_merge"
#endif

#define T_CAT_(a, b) a##b
#define T_CAT(a, b) T_CAT_(a, b)
#define PT(name) T_CAT(T_CAT(g16_, TG), name)
#define MSM T_CAT(g16_msm_, TG)
#define MERGED T_CAT(T_CAT(g16_msm_, TG), _merged)
#define MERGED_PLAN T_CAT(T_CAT(g16_msm_, TG), _merged_plan)

static g16_rng rng;

/* n subgroup points: a random walk over 8 random multiples of G, normalised at once. */
static TAFF *rand_bases(size_t n)
{
    TAFF *out = malloc(n * sizeof *out);
    TJAC *j = malloc(n * sizeof *j), q[8], g;
    TAFF qa[8];
    PT(_jac_generator)(&g);
    for (int i = 0; i < 8; i++) {
        uint64_t k[4];
        for (int t = 0; t < 4; t++) k[t] = g16_rng_u64(&rng);
        PT(_mul)(&q[i], &g, k);
    }
    PT(_jac_batch_to_affine)(qa, q, 8);
    for (size_t i = 0; i < n; i++) {
        if (i < 8) j[i] = q[i];
        else PT(_jac_add_affine)(&j[i], &j[i - 1], &qa[g16_rng_u64(&rng) & 7]);
    }
    PT(_jac_batch_to_affine)(out, j, n);
    free(j);
    return out;
}

/* merged == plain for these inputs; returns 1 when equal. */
static int same(const char *what, const TAFF *b, size_t nb, const g16_fr *s, size_t n, const uint64_t *dens)
{
    TJAC want, got;
    g16_status st1 = MSM(&want, b, nb, s, n, dens);
    g16_status st2 = MERGED(&got, b, nb, s, n, dens);
    CHECK(st1 == G16_OK && st2 == G16_OK, "%s: status %d / %d", what, (int)st1, (int)st2);
    int ok = PT(_jac_eq)(&got, &want);
    CHECK(ok, "%s (n = %zu): merged differs from plain", what, n);
    return ok;
}

/* scalars drawn from `distinct` random values, with `zeros` and `ones` in 1000 */
static void fill(g16_fr *s, size_t n, size_t distinct, unsigned zeros, unsigned ones)
{
    g16_fr *pool = malloc(distinct * sizeof *pool);
    for (size_t v = 0; v < distinct; v++) g16_test_rand_fr(&rng, &pool[v]);
    for (size_t i = 0; i < n; i++) {
        unsigned r = (unsigned)(g16_rng_u64(&rng) % 1000);
        if (r < zeros) g16_fr_set_zero(&s[i]);
        else if (r < zeros + ones) g16_fr_set_one(&s[i]);
        else s[i] = pool[g16_rng_u64(&rng) % distinct];
    }
    free(pool);
}

static void test_repeats(void)
{
    static const size_t ns[] = {4096, 5000, 20011};
    static const size_t ds[] = {1, 7, 300, 3000};
    for (size_t t = 0; t < sizeof ns / sizeof ns[0]; t++)
        for (size_t u = 0; u < sizeof ds / sizeof ds[0]; u++) {
            size_t n = ns[t];
            TAFF *b = rand_bases(n);
            g16_fr *s = malloc(n * sizeof *s);
            fill(s, n, ds[u], 100, 50);
            same("repeats", b, n, s, n, NULL);
            fill(s, n, ds[u], 0, 0);
            same("repeats, no 0/1", b, n, s, n, NULL);
            free(b);
            free(s);
        }
}

/* small repeated values (left lone: merging them saves nothing) among repeated
 * full-width ones (merged) */
static void test_small_values(void)
{
    size_t n = 8192;
    TAFF *b = rand_bases(n);
    g16_fr *s = malloc(n * sizeof *s);
    fill(s, n, 50, 0, 0);
    for (size_t i = 0; i < n; i += 2) g16_fr_from_u64(&s[i], 2 + (g16_rng_u64(&rng) % 300));
    for (size_t i = 1; i < n; i += 8) g16_fr_from_u64(&s[i], 0xffffffffull + (i % 3)); /* 2^32 − 1, 2^32, 2^32 + 1 */
    same("small repeated values", b, n, s, n, NULL);
    free(b);
    free(s);
}

/* a third of the half-repeated scalars without a base (bellperson density) */
static void test_density(void)
{
    size_t n = 9000, words = (n + 63) / 64, nb = 0;
    uint64_t *dens = calloc(words, 8);
    for (size_t i = 0; i < n; i++)
        if (i % 3 != 1) dens[i >> 6] |= 1ull << (i & 63), nb++;
    TAFF *b = rand_bases(nb);
    g16_fr *s = malloc(n * sizeof *s);
    fill(s, n, 500, 50, 50);
    for (size_t i = 0; i < n; i += 2) g16_test_rand_fr(&rng, &s[i]); /* half lone */
    same("density", b, nb, s, n, dens);
    TJAC got;
    CHECK(MERGED(&got, b, nb - 1, s, n, dens) == G16_ERR_ARG, "%s", "a wrong base count is refused");
    free(dens);
    free(b);
    free(s);
}

/* one grouping for two MSMs (the prover's B1 and B2): the plan made with a bitmap
 * serves the same scalars with the bitmap and the selected ones compacted */
static void test_shared_plan(void)
{
    size_t n = 9000, words = (n + 63) / 64, nb = 0;
    uint64_t *dens = calloc(words, 8);
    for (size_t i = 0; i < n; i++)
        if (i % 5 != 2) dens[i >> 6] |= 1ull << (i & 63), nb++;
    TAFF *b = rand_bases(nb);
    g16_fr *s = malloc(n * sizeof *s), *zb = malloc(nb * sizeof *zb);
    fill(s, n, 300, 60, 60);
    for (size_t i = 0, k = 0; i < n; i++)
        if ((dens[i >> 6] >> (i & 63)) & 1) zb[k++] = s[i];
    g16_msm_merge_plan *plan = NULL;
    CHECK(g16_msm_merge_plan_new(&plan, s, n, dens, nb) == G16_OK && plan, "%s", "plan made");
    TJAC want, got;
    CHECK(MSM(&want, b, nb, s, n, dens) == G16_OK, "%s", "plain");
    CHECK(MERGED_PLAN(&got, b, nb, s, n, dens, plan) == G16_OK, "%s", "planned, bitmap");
    CHECK(PT(_jac_eq)(&got, &want), "%s", "planned MSM with the bitmap differs");
    CHECK(MERGED_PLAN(&got, b, nb, zb, nb, NULL, plan) == G16_OK, "%s", "planned, compacted");
    CHECK(PT(_jac_eq)(&got, &want), "%s", "planned MSM over the compacted scalars differs");
    CHECK(MERGED_PLAN(&got, b, nb, zb, nb - 1, NULL, plan) == G16_ERR_ARG, "%s", "wrong size refused");
    CHECK(MERGED_PLAN(&got, b, nb, s, n - 64, dens, plan) == G16_ERR_ARG, "%s", "wrong n refused");
    g16_msm_merge_plan_free(plan);
    /* no copies: no plan, and the planned form is the plain MSM */
    for (size_t i = 0; i < n; i++) g16_test_rand_fr(&rng, &s[i]);
    CHECK(g16_msm_merge_plan_new(&plan, s, n, dens, nb) == G16_OK && !plan, "%s", "no plan for random scalars");
    CHECK(MSM(&want, b, nb, s, n, dens) == G16_OK, "%s", "plain");
    CHECK(MERGED_PLAN(&got, b, nb, s, n, dens, NULL) == G16_OK && PT(_jac_eq)(&got, &want), "%s",
          "planned MSM without a plan");
    free(dens);
    free(b);
    free(s);
    free(zb);
}

/* groups of one value over equal bases (doublings), P and −P (a sum reaching
 * infinity, then restarting), infinity bases inside groups, and one group of
 * almost every point */
static void test_degenerate(void)
{
    size_t n = 6000;
    TAFF *b = rand_bases(n);
    g16_fr *s = malloc(n * sizeof *s);
    fill(s, n, 40, 0, 0);
    for (size_t i = 0; i < 600; i++) b[i] = b[600]; /* equal bases, and their scalars repeat */
    for (size_t i = 1000; i < 1400; i += 2) {     /* pairs P, −P with one value: sums cancel */
        PT(_affine_neg)(&b[i + 1], &b[i]);
        s[i + 1] = s[i] = s[1000];
    }
    for (size_t i = 2000; i < 2100; i++) PT(_affine_set_infinity)(&b[i]);
    same("degenerate", b, n, s, n, NULL);
    /* every P_i of value v paired with −P_i: the value's whole sum is infinity */
    for (size_t i = 3000; i < 3400; i += 2) {
        PT(_affine_neg)(&b[i + 1], &b[i]);
        s[i] = s[i + 1] = s[5999];
    }
    g16_fr v = s[5999];
    for (size_t i = 0; i < n; i++)
        if (!memcmp(&s[i], &v, sizeof v) && (i < 3000 || i >= 3400)) g16_test_rand_fr(&rng, &s[i]);
    same("a group summing to infinity", b, n, s, n, NULL);
    for (size_t i = 0; i < n; i++) s[i] = s[0];
    g16_test_rand_fr(&rng, &s[17]);
    same("one huge group", b, n, s, n, NULL);
    free(b);
    free(s);
}

/* no repeats (the plain path inside), and below G16_MSM_MERGE_MIN */
static void test_plain_paths(void)
{
    size_t n = 5000;
    TAFF *b = rand_bases(n);
    g16_fr *s = malloc(n * sizeof *s);
    for (size_t i = 0; i < n; i++) g16_test_rand_fr(&rng, &s[i]);
    same("no repeats", b, n, s, n, NULL);
    fill(s, 100, 3, 10, 10);
    same("small", b, 100, s, 100, NULL);
    free(b);
    free(s);
}

int main(void)
{
    g16_rng_seed(&rng, g16_test_seed(0x6d7267));
    test_repeats();
    test_small_values();
    test_density();
    test_shared_plan();
    test_degenerate();
    test_plain_paths();
    /* the grouping cuts its hash table into one slot range a thread (a power of two):
     * again with one range (the serial pass) and with four */
    static const unsigned threads[] = {1, 5};
    for (size_t t = 0; t < sizeof threads / sizeof threads[0]; t++) {
        CHECK(g16_set_threads(threads[t]) == G16_OK, "%u threads", threads[t]);
        test_small_values();
        test_density();
        test_shared_plan();
        test_degenerate();
    }
    return g16_test_finish(TNAME);
}
