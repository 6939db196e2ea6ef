/* MSM against the naive sum Σ kᵢ·Pᵢ (curve scalar multiplication) and against
 * itself across every path: bucket forms, windows, the 0/1 split, density bitmaps,
 * edge scalars and bases, linearity at large n.
 *
 * This file is the G1 test and, with TG_* predefined, the body of test_msm_g2.c. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check.h"
#include "rand_field.h"
#include "common/pool.h"
#include "curve/curve.h"
#include "field/fr.h"
#include "msm/msm.h"

#ifndef TG
#define TG g1
#define TF fp
#define TAFF g16_g1_affine
#define TJAC g16_g1_jac
#define TNAME "msm_g1"
#define TDIV 1
#endif

#define T_CAT_(a, b) a##b
#define T_CAT(a, b) T_CAT_(a, b)
#define PT(name) T_CAT(T_CAT(g16_, TG), name)
#define MSM_EX T_CAT(T_CAT(g16_msm_, TG), _ex)
#define MSM T_CAT(g16_msm_, TG)

/* Full-size runs in optimised builds; small ones at -O0 / under ASan. */
#if defined(__OPTIMIZE__) && !defined(__SANITIZE_ADDRESS__)
#define BIG 1
#else
#define BIG 0
#endif

static g16_rng rng;

static void rand_point_jac(TJAC *r)
{
    uint64_t k[4];
    for (int i = 0; i < 4; i++) k[i] = g16_rng_u64(&rng);
    TJAC g;
    PT(_jac_generator)(&g);
    PT(_mul)(r, &g, k);
}

/* n subgroup points, cheaply: 8 random multiples of G, then a random walk that adds
 * one of them at each step, normalised with one inversion. */
static TAFF *rand_bases(size_t n)
{
    TAFF *out = malloc((n ? n : 1) * sizeof *out);
    TJAC *j = malloc((n ? n : 1) * sizeof *j);
    TJAC q[8];
    TAFF qa[8];
    for (int i = 0; i < 8; i++) rand_point_jac(&q[i]);
    PT(_jac_batch_to_affine)(qa, q, 8);
    for (size_t i = 0; i < n; i++) {
        if (i < 8)
            j[i] = q[i];
        else
            PT(_jac_add_affine)(&j[i], &j[i - 1], &qa[g16_rng_u64(&rng) & 7]);
    }
    PT(_jac_batch_to_affine)(out, j, n);
    free(j);
    return out;
}

static void naive(TJAC *r, const TAFF *b, const g16_fr *s, size_t n)
{
    PT(_jac_set_infinity)(r);
    for (size_t i = 0; i < n; i++) {
        uint64_t k[4];
        TJAC p, t;
        g16_fr_to_canonical(k, &s[i]);
        PT(_jac_from_affine)(&p, &b[i]);
        PT(_mul)(&t, &p, k);
        PT(_jac_add)(r, r, &t);
    }
}

static const g16_msm_opts variants[] = {
    {0, G16_MSM_BUCKETS_AUTO, 0, 0, 0, G16_MSM_PSI_AUTO},
    {0, G16_MSM_BUCKETS_AFFINE, 0, 0, 0, G16_MSM_PSI_OFF},
    {0, G16_MSM_BUCKETS_XYZZ, 0, 0, 0, G16_MSM_PSI_OFF},
    {0, G16_MSM_BUCKETS_AFFINE, 1, 0, 0, G16_MSM_PSI_OFF},
    {0, G16_MSM_BUCKETS_XYZZ, 1, 0, 0, G16_MSM_PSI_OFF},
    {3, G16_MSM_BUCKETS_AFFINE, 0, 0, 0, G16_MSM_PSI_OFF},
    {5, G16_MSM_BUCKETS_XYZZ, 0, 0, 0, G16_MSM_PSI_OFF},
    {8, G16_MSM_BUCKETS_AFFINE, 0, 0, 0, G16_MSM_PSI_OFF}, /* 128 buckets: the chained affine reduction */
    {0, G16_MSM_BUCKETS_AUTO, 0, 0, 64, G16_MSM_PSI_OFF}, /* 64 scalars per piece: the chunk loop */
    /* the ψ split (BLS12-381's G2; elsewhere the same as the plain MSM) */
    {0, G16_MSM_BUCKETS_AFFINE, 0, 0, 0, G16_MSM_PSI_ON},
    {0, G16_MSM_BUCKETS_XYZZ, 1, 0, 0, G16_MSM_PSI_ON},
    {5, G16_MSM_BUCKETS_AFFINE, 0, 0, 0, G16_MSM_PSI_ON},
    {0, G16_MSM_BUCKETS_AUTO, 0, 0, 64, G16_MSM_PSI_ON},
};
#define NVAR (sizeof variants / sizeof variants[0])

/* Checks every variant of the MSM against want; returns the number of mismatches. */
static int check_all(const char *what, const TJAC *want, const TAFF *b, size_t nb,
                     const g16_fr *s, size_t n, const uint64_t *dens)
{
    int bad = 0;
    for (size_t v = 0; v < NVAR; v++) {
        TJAC got;
        g16_status st = MSM_EX(&got, b, nb, s, n, dens, &variants[v]);
        CHECK(st == G16_OK, "%s: variant %zu: status %d", what, v, (int)st);
        int ok = PT(_jac_eq)(&got, want);
        CHECK(ok, "%s n=%zu: variant %zu (window %u, buckets %d, no_split %d, psi %d) differs", what, n,
              v, variants[v].window, (int)variants[v].buckets, variants[v].no_split,
              (int)variants[v].psi);
        bad += !ok;
    }
    return bad;
}

static void test_naive_small(void)
{
    static const size_t ns[] = {0, 1, 2, 3, 5, 17, 100};
    for (size_t t = 0; t < sizeof ns / sizeof ns[0]; t++) {
        size_t n = ns[t];
        TAFF *b = rand_bases(n);
        g16_fr *s = malloc((n ? n : 1) * sizeof *s);
        for (size_t i = 0; i < n; i++) g16_test_rand_fr(&rng, &s[i]);
        TJAC want;
        naive(&want, b, s, n);
        check_all("random", &want, b, n, s, n, NULL);
        TJAC got;
        CHECK(MSM(&got, b, n, s, n, NULL) == G16_OK, "default entry n=%zu", n);
        CHECK(PT(_jac_eq)(&got, &want), "default entry n=%zu differs", n);
        free(b);
        free(s);
    }
}

/* 0, 1, r−1, infinity bases, all-equal bases, cancelling pairs. */
static void test_edges(void)
{
    size_t n = 60;
    TAFF *b = rand_bases(n);
    g16_fr *s = malloc(n * sizeof *s);
    g16_fr minus1;
    g16_fr_set_zero(&minus1);
    g16_fr_sub(&minus1, &minus1, &g16_fr_one_mont);
    for (size_t i = 0; i < n; i++) {
        switch (i % 4) {
        case 0: g16_fr_set_zero(&s[i]); break;
        case 1: g16_fr_set_one(&s[i]); break;
        case 2: s[i] = minus1; break;
        default: g16_test_rand_fr(&rng, &s[i]);
        }
    }
    TJAC want;
    naive(&want, b, s, n);
    check_all("0/1/r-1", &want, b, n, s, n, NULL);

    /* r−1 everywhere is −Σ P */
    for (size_t i = 0; i < n; i++) s[i] = minus1;
    naive(&want, b, s, n);
    check_all("all r-1", &want, b, n, s, n, NULL);

    /* bases at infinity: same result as without them */
    for (size_t i = 0; i < n; i++) g16_test_rand_fr(&rng, &s[i]);
    for (size_t i = 0; i < n; i += 3) PT(_affine_set_infinity)(&b[i]);
    naive(&want, b, s, n);
    check_all("infinity bases", &want, b, n, s, n, NULL);

    /* every base equal and many equal scalars: bucket additions must double */
    for (size_t i = 1; i < n; i++) b[i] = b[1];
    for (size_t i = 0; i < n; i++) {
        if (i % 2) s[i] = s[0];
    }
    naive(&want, b, s, n);
    check_all("equal bases", &want, b, n, s, n, NULL);

    /* P and −P with the same scalar cancel: the sum is the lone last term */
    TAFF *c = rand_bases(n);
    for (size_t i = 0; i + 1 < n; i += 2) {
        PT(_affine_neg)(&c[i + 1], &c[i]);
        s[i + 1] = s[i];
    }
    naive(&want, c, s, n);
    CHECK(PT(_jac_is_infinity)(&want), "%s", "cancelling pairs: naive sum not O");
    check_all("cancelling pairs", &want, c, n, s, n, NULL);
    /* all scalars 1 on cancelling pairs: the split path must cancel too */
    for (size_t i = 0; i < n; i++) g16_fr_set_one(&s[i]);
    naive(&want, c, s, n);
    check_all("cancelling ones", &want, c, n, s, n, NULL);
    free(b);
    free(c);
    free(s);
}

/* Every window size and sizes around the affine/XYZZ threshold, against one
 * reference (the naive sum where affordable). */
static void test_windows(void)
{
    size_t n = BIG ? 200 : 40;
    TAFF *b = rand_bases(n);
    g16_fr *s = malloc(n * sizeof *s);
    for (size_t i = 0; i < n; i++) g16_test_rand_fr(&rng, &s[i]);
    TJAC want;
    naive(&want, b, s, n);
    /* large windows cost 2^(c-1) bucket additions each: sample them */
    static const unsigned cs[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 15};
    for (size_t ci = 0; ci < sizeof cs / sizeof cs[0]; ci++) {
        unsigned c = cs[ci];
        if ((!BIG || TDIV > 1) && c > 12) break;
        for (int form = 1; form <= 2; form++) {
            g16_msm_opts o = {c, (g16_msm_buckets)form, 0, 0, 0, G16_MSM_PSI_OFF};
            TJAC got;
            CHECK(MSM_EX(&got, b, n, s, n, NULL, &o) == G16_OK, "window %u", c);
            CHECK(PT(_jac_eq)(&got, &want), "window %u form %d differs", c, form);
        }
    }
    free(b);
    free(s);

    /* sizes around where the automatic choices change */
    static const size_t sizes[] = {31, 32, 33, 255, 256, 257, 2049};
    size_t maxn = BIG ? 2049 : 257;
    b = rand_bases(maxn);
    s = malloc(maxn * sizeof *s);
    for (size_t i = 0; i < maxn; i++) g16_test_rand_fr(&rng, &s[i]);
    for (size_t t = 0; t < sizeof sizes / sizeof sizes[0]; t++) {
        size_t m = sizes[t];
        if (m > maxn) continue;
        g16_msm_opts ox = {4, G16_MSM_BUCKETS_XYZZ, 1, 0, 0, G16_MSM_PSI_OFF};
        TJAC ref, got;
        CHECK(MSM_EX(&ref, b, m, s, m, NULL, &ox) == G16_OK, "ref n=%zu", m);
        check_all("threshold sizes", &ref, b, m, s, m, NULL);
        for (unsigned th = 1; th <= 64 && (m == 257 || (m == 2049 && TDIV == 1)); th *= 4) {
            g16_msm_opts o = {0, G16_MSM_BUCKETS_AUTO, 0, th, 0, G16_MSM_PSI_AUTO};
            CHECK(MSM_EX(&got, b, m, s, m, NULL, &o) == G16_OK, "threads plan %u", th);
            CHECK(PT(_jac_eq)(&got, &ref), "n=%zu planned for %u threads differs", m, th);
        }
    }
    free(b);
    free(s);
}

/* MSM(a·s) = a·MSM(s) at large n, and the bucket forms agree there. */
static void test_linearity(void)
{
    size_t n = BIG ? ((size_t)1 << 14) / TDIV : (size_t)1 << 10;
    TAFF *b = rand_bases(n);
    g16_fr *s = malloc(n * sizeof *s), a;
    for (size_t i = 0; i < n; i++) g16_test_rand_fr(&rng, &s[i]);
    g16_test_rand_fr(&rng, &a);
    TJAC m1, m2, m3, t;
    g16_msm_opts xz = {0, G16_MSM_BUCKETS_XYZZ, 0, 0, 0, G16_MSM_PSI_OFF};
    CHECK(MSM(&m1, b, n, s, n, NULL) == G16_OK, "%s", "linearity msm 1");
    CHECK(MSM_EX(&m3, b, n, s, n, NULL, &xz) == G16_OK, "%s", "linearity msm xyzz");
    CHECK(PT(_jac_eq)(&m1, &m3), "%s", "affine and XYZZ buckets differ at large n");
    for (size_t i = 0; i < n; i++) g16_fr_mul(&s[i], &s[i], &a);
    CHECK(MSM(&m2, b, n, s, n, NULL) == G16_OK, "%s", "linearity msm 2");
    uint64_t ak[4];
    g16_fr_to_canonical(ak, &a);
    PT(_mul)(&t, &m1, ak);
    CHECK(PT(_jac_eq)(&t, &m2), "MSM(a*s) != a*MSM(s) at n=%zu", n);
    free(b);
    free(s);
}

/* The split on mixes of 0, 1 and random scalars equals plain Pippenger. */
static void test_split(void)
{
    size_t n = BIG ? 6000 / TDIV : 400;
    TAFF *b = rand_bases(n);
    g16_fr *s = malloc(n * sizeof *s);
    static const unsigned pct[] = {10, 50, 90};
    for (int zi = 0; zi < 3; zi++) {
        for (int oi = 0; oi < 3; oi++) {
            unsigned pz = pct[zi] / 2, po = pct[oi] / 2; /* keep pz + po <= 90% */
            for (size_t i = 0; i < n; i++) {
                unsigned r = (unsigned)(g16_rng_u64(&rng) % 100);
                if (r < pz)
                    g16_fr_set_zero(&s[i]);
                else if (r < pz + po)
                    g16_fr_set_one(&s[i]);
                else
                    g16_test_rand_fr(&rng, &s[i]);
            }
            g16_msm_opts plain = {0, G16_MSM_BUCKETS_AUTO, 1, 0, 0, G16_MSM_PSI_OFF};
            g16_msm_opts split = {0, G16_MSM_BUCKETS_AUTO, 0, 0, 0, G16_MSM_PSI_AUTO};
            TJAC p, q;
            CHECK(MSM_EX(&p, b, n, s, n, NULL, &plain) == G16_OK, "%s", "plain");
            CHECK(MSM_EX(&q, b, n, s, n, NULL, &split) == G16_OK, "%s", "split");
            CHECK(PT(_jac_eq)(&p, &q), "split differs with %u%% zeros %u%% ones", pz, po);
        }
    }
    /* only zeros and ones */
    for (size_t i = 0; i < n; i++) {
        if (i % 3)
            g16_fr_set_one(&s[i]);
        else
            g16_fr_set_zero(&s[i]);
    }
    TJAC want, got;
    PT(_jac_set_infinity)(&want);
    for (size_t i = 0; i < n; i++) {
        if (i % 3) PT(_jac_add_affine)(&want, &want, &b[i]);
    }
    CHECK(MSM(&got, b, n, s, n, NULL) == G16_OK, "%s", "0/1 only");
    CHECK(PT(_jac_eq)(&got, &want), "%s", "0/1 only: not the sum of the bases with scalar 1");
    free(b);
    free(s);
}

/* Many scalars equal to 1 on equal and opposite bases: the batched sum of the ones
 * must double (Q + Q) and cancel (Q + (−Q)) inside its batches. */
static void test_ones_large(void)
{
    size_t n = 4096;
    TAFF *b = rand_bases(1), *c = malloc(n * sizeof *c);
    g16_fr *s = malloc(n * sizeof *s);
    for (size_t i = 0; i < n; i++) {
        g16_fr_set_one(&s[i]);
        c[i] = b[0];
    }
    TJAC want, got, q;
    uint64_t k[4] = {n, 0, 0, 0};
    PT(_jac_from_affine)(&q, &b[0]);
    PT(_mul)(&want, &q, k);
    CHECK(MSM(&got, c, n, s, n, NULL) == G16_OK, "%s", "equal ones");
    CHECK(PT(_jac_eq)(&got, &want), "%s", "n equal bases with scalar 1: not n*Q");
    for (size_t i = n / 2; i < n; i++) PT(_affine_neg)(&c[i], &b[0]);
    CHECK(MSM(&got, c, n, s, n, NULL) == G16_OK, "%s", "opposite ones");
    CHECK(PT(_jac_is_infinity)(&got), "%s", "Q and -Q halves with scalar 1 do not cancel");
    /* one extra point keeps the sum off infinity */
    g16_fr_set_zero(&s[0]);
    PT(_jac_neg)(&want, &q);
    CHECK(MSM(&got, c, n, s, n, NULL) == G16_OK, "%s", "opposite ones minus one");
    CHECK(PT(_jac_eq)(&got, &want), "%s", "dropping one Q does not leave -Q");
    free(b);
    free(c);
    free(s);
}

/* bases hold only the entries whose density bit is set. */
static void test_density(void)
{
    size_t n = BIG ? 5000 / TDIV : 300;
    TAFF *full = rand_bases(n);
    g16_fr *s = malloc(n * sizeof *s);
    uint64_t *dens = calloc((n + 63) / 64, sizeof *dens);
    TAFF *b = malloc(n * sizeof *b);
    size_t nb = 0;
    for (size_t i = 0; i < n; i++) {
        g16_test_rand_fr(&rng, &s[i]);
        if (i % 5 == 0) g16_fr_set_one(&s[i]);
        if (g16_rng_u64(&rng) % 4 != 0) {
            dens[i / 64] |= (uint64_t)1 << (i % 64);
            b[nb++] = full[i];
        }
    }
    /* reference: the dense MSM with the unselected scalars set to zero */
    g16_fr *sz = malloc(n * sizeof *sz);
    for (size_t i = 0; i < n; i++) {
        sz[i] = s[i];
        if (!((dens[i / 64] >> (i % 64)) & 1)) g16_fr_set_zero(&sz[i]);
    }
    TJAC want;
    if (n <= 300) {
        naive(&want, full, sz, n);
    } else {
        g16_msm_opts ox = {0, G16_MSM_BUCKETS_XYZZ, 1, 0, 0, G16_MSM_PSI_OFF};
        CHECK(MSM_EX(&want, full, n, sz, n, NULL, &ox) == G16_OK, "%s", "dense reference");
    }
    check_all("density", &want, b, nb, s, n, dens);
    TJAC got;
    CHECK(MSM(&got, b, nb + 1, s, n, dens) == G16_ERR_ARG, "%s", "wrong base count accepted");
    g16_msm_opts odd = {0, G16_MSM_BUCKETS_AUTO, 0, 0, 100, G16_MSM_PSI_AUTO};
    CHECK(MSM_EX(&got, b, nb, s, n, dens, &odd) == G16_ERR_ARG, "%s", "chunk of 100 accepted");
    CHECK(MSM(&got, b, nb, s, n, NULL) == G16_ERR_ARG || nb == n, "%s", "bitmap-less count accepted");
    free(full);
    free(s);
    free(sz);
    free(dens);
    free(b);
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

#define TIMED(f)                                                           \
    do {                                                                   \
        double t0_ = now();                                                \
        f();                                                               \
        fprintf(stderr, "%s: %s %.2f s\n", TNAME, #f, now() - t0_);         \
    } while (0)

int main(void)
{
    g16_rng_seed(&rng, g16_test_seed(0x6d736d));
    TIMED(test_naive_small);
    TIMED(test_edges);
    TIMED(test_windows);
    TIMED(test_split);
    TIMED(test_ones_large);
    TIMED(test_density);
    TIMED(test_linearity);
    /* the same results on a one-thread pool (no task split at all) */
    g16_set_threads(1);
    test_naive_small();
    test_split();
    g16_set_threads(0);
    return g16_test_finish(TNAME);
}
