/* The ψ split of BLS12-381's G2 MSM (msm.h, g16_msm_psi) against the plain MSM, and
 * its two curve-layer pieces (curve.h): the base-|x| digits of a scalar and the
 * images |x|^j·P of affine points.
 *
 * The digits are checked by recombining them (Σ d_j·|x|^j = k, every d_j < |x|) on
 * edge scalars around the powers of |x| and r; the images against |x|^j·P by double
 * and add; the MSM with the split forced on against the split forced off (bit for
 * bit after normalisation) on random and edge scalars (0, 1, r − 1, scalars whose top
 * digits are 0 or whose digits are 1), bases at infinity, duplicate and opposite
 * bases, density bitmaps, the chunk loop, the 0/1 split off, small windows and XYZZ
 * buckets, sizes below and above the automatic threshold (with G16_MSM_PSI=1, as the
 * merged MSM sees it too), on the IFMA and the scalar batch paths.  A wrong digit,
 * a missing sign of ψ or a wrong plane makes the sums differ. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "rand_field.h"
#include "curve/curve.h"
#include "field/fp_batch.h"
#include "field/fr.h"
#include "msm/msm.h"

#if defined(__OPTIMIZE__) && !defined(__SANITIZE_ADDRESS__)
#define BIG 1
#else
#define BIG 0
#endif

static g16_rng rng;

/* --- 256-bit helpers (little-endian limbs) for the digit test ----------------- */

/* r (5 limbs) = a (4 limbs) · m + c */
static void mul_add_1(uint64_t r[5], const uint64_t a[4], uint64_t m, uint64_t c)
{
    unsigned __int128 carry = c;
    for (int i = 0; i < 4; i++) {
        carry += (unsigned __int128)a[i] * m;
        r[i] = (uint64_t)carry;
        carry >>= 64;
    }
    r[4] = (uint64_t)carry;
}

/* Horner: Σ d_j·|x|^j; 0 when it overflows 256 bits */
static int recombine(uint64_t out[4], const uint64_t d[4])
{
    uint64_t acc[4] = {d[3], 0, 0, 0}, t[5];
    for (int j = 2; j >= 0; j--) {
        mul_add_1(t, acc, G16_BLS_X_ABS, d[j]);
        if (t[4]) return 0;
        memcpy(acc, t, sizeof acc);
    }
    memcpy(out, acc, sizeof acc);
    return 1;
}

/* k = a ± small (mod 2^256) */
static void add_small(uint64_t k[4], const uint64_t a[4], int64_t s)
{
    uint64_t carry = 0, add = (uint64_t)s, ext = s < 0 ? ~0ull : 0;
    for (int i = 0; i < 4; i++) {
        unsigned __int128 v = (unsigned __int128)a[i] + (i ? ext : add) + carry;
        k[i] = (uint64_t)v;
        carry = (uint64_t)(v >> 64);
    }
}

static void test_digits(void)
{
    /* |x|^j, j = 0..4 (|x|^4 > r needs all 4 limbs) */
    uint64_t pw[5][4] = {{1, 0, 0, 0}};
    for (int j = 1; j < 5; j++) {
        uint64_t t[5];
        mul_add_1(t, pw[j - 1], G16_BLS_X_ABS, 0);
        memcpy(pw[j], t, sizeof pw[j]);
        CHECK(t[4] == 0, "|x|^%d fits 256 bits", j);
    }
    uint64_t ks[64][4];
    size_t nk = 0;
    for (int j = 0; j < 5; j++)
        for (int64_t s = -2; s <= 2; s++)
            if ((j < 4 || s < 0) && (j || s >= -1)) add_small(ks[nk++], pw[j], s); /* 0 <= k < |x|^4 */
    add_small(ks[nk++], g16_curve_order, -1);
    add_small(ks[nk++], g16_curve_order, -2);
    memset(ks[nk++], 0, sizeof ks[0]);
    for (int i = 0; i < 16; i++, nk++) {
        for (int l = 0; l < 4; l++) ks[nk][l] = g16_rng_u64(&rng);
        ks[nk][3] &= 0x3fffffffffffffffull; /* < 2^254 < |x|^4 */
        if (i & 1) ks[nk][2] = ks[nk][3] = 0; /* top digits 0 */
    }
    for (size_t i = 0; i < nk; i++) {
        uint64_t d[4], back[4];
        g16_bls_x_digits(d, ks[i]);
        int ok = recombine(back, d) && !memcmp(back, ks[i], sizeof back);
        for (int j = 0; j < 4; j++) ok &= d[j] < G16_BLS_X_ABS;
        CHECK(ok, "digits of k = %016llx %016llx %016llx %016llx", (unsigned long long)ks[i][3],
              (unsigned long long)ks[i][2], (unsigned long long)ks[i][1], (unsigned long long)ks[i][0]);
    }
    /* |x|^j itself has the single digit 1 at j */
    for (int j = 0; j < 4; j++) {
        uint64_t d[4];
        g16_bls_x_digits(d, pw[j]);
        for (int i = 0; i < 4; i++) CHECK(d[i] == (uint64_t)(i == j), "digit %d of |x|^%d", i, j);
    }
}

/* --- points ------------------------------------------------------------------- */

static void rand_point_jac(g16_g2_jac *r)
{
    uint64_t k[4];
    for (int i = 0; i < 4; i++) k[i] = g16_rng_u64(&rng);
    g16_g2_jac g;
    g16_g2_jac_generator(&g);
    g16_g2_mul(r, &g, k);
}

/* n subgroup points: a random walk over 8 random multiples of G, normalised at once */
static g16_g2_affine *rand_bases(size_t n)
{
    g16_g2_affine *out = malloc((n ? n : 1) * sizeof *out), qa[8];
    g16_g2_jac *j = malloc((n ? n : 1) * sizeof *j), q[8];
    for (int i = 0; i < 8; i++) rand_point_jac(&q[i]);
    g16_g2_jac_batch_to_affine(qa, q, 8);
    for (size_t i = 0; i < n; i++) {
        if (i < 8)
            j[i] = q[i];
        else
            g16_g2_jac_add_affine(&j[i], &j[i - 1], &qa[g16_rng_u64(&rng) & 7]);
    }
    g16_g2_jac_batch_to_affine(out, j, n);
    free(j);
    return out;
}

static void test_images(void)
{
    enum { N = 41 }; /* around the 8- and 16-lane groups of the batched products */
    g16_g2_affine *p = rand_bases(N), r[3][N];
    g16_g2_affine_set_infinity(&p[5]);
    const uint64_t ax[1] = {G16_BLS_X_ABS}, x2[2] = {0x0000000100000000ULL, 0xac45a4010001a402ULL};
    for (int path = 0; path < 2; path++) {
        g16_fp_batch_force_scalar(path);
        for (size_t n = 0; n <= N; n += (n < 18 ? 1 : 23)) {
            memset(r, 0xa5, sizeof r);
            g16_g2_affine_x_powers(r[0], r[1], r[2], p, n);
            for (size_t i = 0; i < n; i++) {
                g16_g2_jac pj, want;
                g16_g2_jac_from_affine(&pj, &p[i]);
                g16_g2_mul_limbs(&want, &pj, ax, 1);
                CHECK(g16_g2_jac_eq_affine(&want, &r[0][i]), "|x|P, n %zu, i %zu, path %d", n, i, path);
                g16_g2_mul_limbs(&want, &pj, x2, 2);
                CHECK(g16_g2_jac_eq_affine(&want, &r[1][i]), "x^2 P, n %zu, i %zu, path %d", n, i, path);
                g16_g2_mul_limbs(&want, &want, ax, 1);
                CHECK(g16_g2_jac_eq_affine(&want, &r[2][i]), "|x|^3 P, n %zu, i %zu, path %d", n, i, path);
            }
            /* nothing written past n */
            if (n < N) CHECK(((const uint8_t *)&r[0][n])[0] == 0xa5, "r1[%zu] written", n);
        }
    }
    g16_fp_batch_force_scalar(0);
    free(p);
}

/* --- the MSM ------------------------------------------------------------------ */

/* Compares the split (on) with the plain MSM (off) for several option sets; the
 * reference is the plain MSM with XYZZ buckets, another code path again. */
static int compare(const char *what, const g16_g2_affine *b, size_t nb, const g16_fr *s, size_t n,
                   const uint64_t *dens)
{
    static const g16_msm_opts ref_o = {0, G16_MSM_BUCKETS_XYZZ, 0, 0, 0, G16_MSM_PSI_OFF};
    static const g16_msm_opts on[] = {
        {0, G16_MSM_BUCKETS_AUTO, 0, 0, 0, G16_MSM_PSI_ON},
        {0, G16_MSM_BUCKETS_AFFINE, 0, 0, 0, G16_MSM_PSI_ON},
        {0, G16_MSM_BUCKETS_XYZZ, 1, 0, 0, G16_MSM_PSI_ON},  /* no 0/1 split: 1 is the digit 1 */
        {3, G16_MSM_BUCKETS_AFFINE, 0, 0, 0, G16_MSM_PSI_ON}, /* 22 windows, the top one 1 bit */
        {16, G16_MSM_BUCKETS_AFFINE, 0, 0, 0, G16_MSM_PSI_ON}, /* top window: all 16 bits */
        {0, G16_MSM_BUCKETS_AUTO, 0, 0, 64, G16_MSM_PSI_ON},  /* the chunk loop */
        {0, G16_MSM_BUCKETS_AUTO, 0, 0, 0, G16_MSM_PSI_AUTO}, /* G16_MSM_PSI=1: on from 4096 */
    };
    g16_g2_jac ref, got;
    int bad = 0;
    CHECK(g16_msm_g2_ex(&ref, b, nb, s, n, dens, &ref_o) == G16_OK, "%s: reference", what);
    for (size_t v = 0; v < sizeof on / sizeof on[0]; v++) {
        if (on[v].window == 16 && n > 3000 && !BIG) continue; /* 2^16 buckets: slow unoptimised */
        g16_status st = g16_msm_g2_ex(&got, b, nb, s, n, dens, &on[v]);
        int ok = st == G16_OK && g16_g2_jac_eq(&got, &ref);
        CHECK(ok, "%s n=%zu: variant %zu (window %u, buckets %d, no_split %d, chunk %zu) differs", what, n,
              v, on[v].window, (int)on[v].buckets, on[v].no_split, on[v].chunk);
        bad += !ok;
    }
    return bad;
}

/* scalar from canonical limbs (must be < r) */
static void fr_of(g16_fr *r, const uint64_t k[4])
{
    CHECK(g16_fr_from_canonical(r, k) == G16_OK, "%s", "edge scalar below r");
}

static void edge_scalar(g16_fr *r, unsigned which)
{
    uint64_t k[4] = {0};
    switch (which % 12) {
    case 0: break;                                              /* 0 */
    case 1: k[0] = 1; break;                                    /* 1 */
    case 2: add_small(k, g16_curve_order, -1); break;           /* r − 1: all digits large */
    case 3: k[0] = G16_BLS_X_ABS - 1; break;                    /* one digit, |x| − 1 */
    case 4: k[0] = G16_BLS_X_ABS; break;                        /* digits 0, 1 */
    case 5: k[0] = 0x0000000100000000ULL, k[1] = 0xac45a4010001a402ULL; break; /* x²: 0, 0, 1 */
    case 6: k[0] = g16_rng_u64(&rng), k[1] = g16_rng_u64(&rng) >> 2; break;   /* top digits 0 */
    case 7: k[0] = 1, k[1] = 1, k[2] = 1; break;
    case 8: k[0] = 2; break;
    default: g16_test_rand_fr(&rng, r); return;
    }
    fr_of(r, k);
}

static void test_msm(void)
{
    /* random scalars, sizes around the thresholds (4096 for G16_MSM_PSI=1) */
    static const size_t sizes[] = {1, 2, 3, 17, 100, 4095, 4096, 6001};
    size_t maxn = BIG ? 6001 : 300;
    g16_g2_affine *b = rand_bases(maxn);
    g16_fr *s = malloc(maxn * sizeof *s);
    for (size_t i = 0; i < maxn; i++) g16_test_rand_fr(&rng, &s[i]);
    for (size_t t = 0; t < sizeof sizes / sizeof sizes[0]; t++)
        if (sizes[t] <= maxn) compare("random", b, sizes[t], s, sizes[t], NULL);

    /* edge scalars, bases at infinity, duplicate and opposite bases */
    size_t n = BIG ? 5000 : 240;
    for (size_t i = 0; i < n; i++) edge_scalar(&s[i], (unsigned)(g16_rng_u64(&rng) % 13));
    for (size_t i = 0; i < n; i += 7) g16_g2_affine_set_infinity(&b[i]);
    for (size_t i = 3; i < n; i += 11) b[i] = b[1];                      /* duplicates */
    for (size_t i = 5; i < n; i += 13) g16_g2_affine_neg(&b[i], &b[2]);  /* opposites */
    compare("edge", b, n, s, n, NULL);
    /* the same scalar on P and −P: the sum cancels */
    for (size_t i = 0; i + 1 < n; i += 2) {
        g16_g2_affine_neg(&b[i + 1], &b[i]);
        s[i + 1] = s[i];
    }
    compare("cancelling", b, n, s, n, NULL);
    /* one base for every scalar: buckets double */
    g16_g2_affine *q = rand_bases(1);
    for (size_t i = 0; i < n; i++) b[i] = q[0];
    free(q);
    compare("one base", b, n, s, n, NULL);
    free(b);

    /* density bitmaps: bases only for the set bits */
    n = BIG ? 9000 : 300;
    g16_g2_affine *full = rand_bases(n);
    s = realloc(s, n * sizeof *s);
    uint64_t *dens = calloc((n + 63) / 64, 8);
    size_t nb = 0;
    for (size_t i = 0; i < n; i++) {
        g16_test_rand_fr(&rng, &s[i]);
        if (g16_rng_u64(&rng) % 3) {
            dens[i / 64] |= 1ull << (i % 64);
            full[nb++] = full[i];
        }
    }
    compare("density", full, nb, s, n, dens);
    free(full);
    free(dens);
    free(s);
}

/* The merged MSM calls the plain one, which takes the split with G16_MSM_PSI=1. */
static void test_merged(void)
{
    size_t n = BIG ? 6000 : 4200, nd = 50;
    g16_g2_affine *b = rand_bases(n);
    g16_fr *s = malloc(n * sizeof *s), *vals = malloc(nd * sizeof *vals);
    for (size_t i = 0; i < nd; i++) g16_test_rand_fr(&rng, &vals[i]);
    for (size_t i = 0; i < n; i++) s[i] = vals[g16_rng_u64(&rng) % nd];
    g16_g2_jac ref, got;
    g16_msm_opts off = {0, G16_MSM_BUCKETS_AUTO, 0, 0, 0, G16_MSM_PSI_OFF};
    CHECK(g16_msm_g2_ex(&ref, b, n, s, n, NULL, &off) == G16_OK, "%s", "merged: reference");
    CHECK(g16_msm_g2_merged(&got, b, n, s, n, NULL) == G16_OK, "%s", "merged");
    CHECK(g16_g2_jac_eq(&got, &ref), "%s", "merged MSM with the split differs");
    free(b);
    free(s);
    free(vals);
}

int main(void)
{
    g16_rng_seed(&rng, g16_test_seed(0x707369));
    setenv("G16_MSM_PSI", "1", 1); /* the automatic choice takes the split from 4096 */
    test_digits();
    test_images();
    for (int path = 0; path < 2; path++) {
        if (path && !g16_cpu_can_ifma()) break; /* (without IFMA the first pass was scalar) */
        g16_fp_batch_force_scalar(path);
        test_msm();
        test_merged();
    }
    g16_fp_batch_force_scalar(0);
    return g16_test_finish("test_msm_psi");
}
