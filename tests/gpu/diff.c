/* Differential test: CUDA backend vs CPU reference, bit for bit, on fresh random
 * inputs (seed from the clock unless G16_TEST_SEED is set; printed either way).
 *
 *   g16_gpu_diff [--quick | --cpu-only | --ntt-only LOG | --fold-only N | --g2-only N]
 *   (--cpu-only: the CPU references alone; --ntt-only: the NTT set up to 2^LOG alone, e.g.
 *   to check a G16_CUDA_NTT_* knob; --fold-only: the folded-bases MSM set up to N points
 *   alone; --g2-only: the G2 MSM set up to N points and its edge chunks, e.g. to check a
 *   G16_CUDA_MSM_G2_PAIR mode)
 *
 * Covers: device field ops (Fr, Fp, Fp2 mul; Fp add/sub) incl. 0, 1, p-1;
 * NTT sizes 2^0..2^22 in every direction/coset/order combination against a
 * plain radix-2 CPU NTT (itself checked against the O(n²) DFT at small sizes);
 * the H step; G1 MSM 1..2^20 and G2 MSM 1..2^16 against the CPU MSM (msm/msm.h)
 * with edge scalars 0, 1, r-1, repeated and opposite bases, infinity bases,
 * density bitmaps, forced windows and the 0/1 split on and off.  Every device
 * buffer is poisoned (0xA5) before each operation and every host output is
 * poisoned before the call.  Exit code 0 only when every check passed; each
 * failure prints what differed.  The MSM sets live in diff_msm.c (diff.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "backend/cuda_ops.h"
#include "diff.h"

int g16_cuda_probe(int *count, char *names, size_t cap); /* cuda/probe.cu */
#include "check.h"
#include "curve/curve.h"
#include "field/fp.h"
#include "field/fp2.h"
#include "field/fr.h"
#include "msm/msm.h"
#ifdef G16_HAVE_CPU_NTT
#include "ntt/ntt.h"
#endif

g16_rng diff_rng;

void diff_rand_fr(g16_fr *r)
{
    uint64_t l[4];
    do { /* uniform below r: BN254's r < 2^254, BLS12-381's < 2^255 */
        for (int i = 0; i < 4; i++) l[i] = g16_rng_u64(&diff_rng);
        l[3] &= 0x3fffffffffffffffULL;
    } while (g16_fr_from_canonical(r, l) != G16_OK);
}
/* The NTT's generator (roots of unity and coset) and Fr's 2-adicity, as ntt/ntt.h has
 * them for each curve. */
#if G16_CURVE_BN254
#define REF_GEN 5
#define REF_TWO_ADICITY 28
#else
#define REF_GEN 7
#define REF_TWO_ADICITY 32
#endif

#if !G16_CURVE_BN254 /* the device field-op hook (ctx.cu) is BLS12-381's only */
static void rand_fp(g16_fp *r)
{
    uint64_t l[6];
    for (int i = 0; i < 6; i++) l[i] = g16_rng_u64(&diff_rng);
    l[5] &= 0x0fffffffffffffffULL;
    g16_fp_from_canonical(r, l);
}

#endif

/* ---- reference NTT (plain radix-2, natural order in and out) ---------------- */
static g16_fr root_of_unity(unsigned log_n)
{
    /* REF_GEN^((r-1)/2^REF_TWO_ADICITY), squared down to order 2^log_n */
    uint64_t e[4];
    for (int i = 0; i < 4; i++) {
        uint64_t lo = (i == 0 ? g16_fr_modulus[0] - 1 : g16_fr_modulus[i]) >> REF_TWO_ADICITY;
        e[i] = lo | (i < 3 ? g16_fr_modulus[i + 1] << (64 - REF_TWO_ADICITY) : 0);
    }
    g16_fr g, w;
    g16_fr_from_u64(&g, REF_GEN);
    g16_fr_pow(&w, &g, e, 4);
    for (unsigned i = log_n; i < REF_TWO_ADICITY; i++) g16_fr_sqr(&w, &w);
    return w;
}

static size_t brev(size_t j, unsigned log_n)
{
    size_t r = 0;
    for (unsigned i = 0; i < log_n; i++) r |= ((j >> i) & 1) << (log_n - 1 - i);
    return r;
}

static void permute(g16_fr *x, unsigned log_n)
{
    size_t n = (size_t)1 << log_n;
    for (size_t j = 0; j < n; j++) {
        size_t k = brev(j, log_n);
        if (k > j) {
            g16_fr t = x[j];
            x[j] = x[k], x[k] = t;
        }
    }
}

/* natural -> natural; inverse includes n^-1; coset scales coefficients by g^±k. */
static void ref_ntt(g16_fr *x, unsigned log_n, int inverse, int coset)
{
    size_t n = (size_t)1 << log_n;
    g16_fr g, one, t;
    g16_fr_from_u64(&g, REF_GEN);
    g16_fr_set_one(&one);
    if (coset && !inverse) {
        g16_fr p = one;
        for (size_t k = 0; k < n; k++) g16_fr_mul(&x[k], &x[k], &p), g16_fr_mul(&p, &p, &g);
    }
    permute(x, log_n);
    for (unsigned s = 1; s <= log_n; s++) {
        size_t len = (size_t)1 << s;
        g16_fr wl = root_of_unity(s);
        if (inverse) g16_fr_inv(&wl, &wl);
        for (size_t i = 0; i < n; i += len) {
            g16_fr w = one;
            for (size_t j = 0; j < len / 2; j++) {
                g16_fr u = x[i + j], v;
                g16_fr_mul(&v, &x[i + j + len / 2], &w);
                g16_fr_add(&x[i + j], &u, &v);
                g16_fr_sub(&x[i + j + len / 2], &u, &v);
                g16_fr_mul(&w, &w, &wl);
            }
        }
    }
    if (inverse) {
        g16_fr ninv, gi, p;
        g16_fr_from_u64(&ninv, n);
        g16_fr_inv(&ninv, &ninv);
        g16_fr_inv(&gi, &g);
        p = ninv;
        for (size_t k = 0; k < n; k++) {
            g16_fr_mul(&x[k], &x[k], &p);
            if (coset) g16_fr_mul(&p, &p, &gi);
        }
    }
    (void)t;
}

/* Checks ref_ntt itself against the O(n²) definition at small sizes. */
static void check_reference(void)
{
    for (unsigned log_n = 0; log_n <= 5; log_n++) {
        size_t n = (size_t)1 << log_n;
        g16_fr x[32], y[32], w = root_of_unity(log_n), g;
        g16_fr_from_u64(&g, REF_GEN);
        for (size_t i = 0; i < n; i++) diff_rand_fr(&x[i]), y[i] = x[i];
        ref_ntt(y, log_n, 0, 1);
        for (size_t i = 0; i < n; i++) {
            g16_fr pt, acc, p, t;
            uint64_t e[1] = {i};
            g16_fr_pow(&pt, &w, e, 1);
            g16_fr_mul(&pt, &pt, &g); /* g·ω^i */
            g16_fr_set_zero(&acc);
            g16_fr_set_one(&p);
            for (size_t k = 0; k < n; k++) {
                g16_fr_mul(&t, &x[k], &p);
                g16_fr_add(&acc, &acc, &t);
                g16_fr_mul(&p, &p, &pt);
            }
            CHECK(g16_fr_eq(&acc, &y[i]), "reference coset NTT 2^%u differs from the DFT at %zu",
                  log_n, i);
        }
        ref_ntt(y, log_n, 1, 1);
        CHECK(memcmp(x, y, n * sizeof *x) == 0, "reference coset round trip 2^%u", log_n);
    }
}

size_t diff_first_diff(const g16_fr *a, const g16_fr *b, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (memcmp(&a[i], &b[i], sizeof *a)) return i;
    return n;
}

/* ---- tests ---------------------------------------------------------------------- */
#if !G16_CURVE_BN254
static void test_field(g16_cuda_ctx *ctx)
{
    enum { N = 100000 };
    g16_fp2 *a = malloc(N * sizeof *a), *b = malloc(N * sizeof *b), *o = malloc(N * sizeof *o);
    g16_fp2 *w = malloc(N * sizeof *w);
    if (!a || !b || !o || !w) {
        CHECK(0, "out of memory");
        return;
    }
    for (int op = 0; op < 5; op++) {
        size_t sz = op == 0 ? sizeof(g16_fr) : op == 2 ? sizeof(g16_fp2) : sizeof(g16_fp);
        for (size_t i = 0; i < N; i++) {
            char *pa = (char *)a + i * sz, *pb = (char *)b + i * sz;
            if (op == 0) {
                g16_fr x, y, z;
                diff_rand_fr(&x), diff_rand_fr(&y);
                if (i < 9) { /* 0, 1, r-1 against each other */
                    g16_fr e[3];
                    g16_fr_set_zero(&e[0]), g16_fr_set_one(&e[1]), g16_fr_neg(&e[2], &e[1]);
                    x = e[i / 3], y = e[i % 3];
                }
                memcpy(pa, &x, sz), memcpy(pb, &y, sz);
                g16_fr_mul(&z, &x, &y);
                memcpy((char *)w + i * sz, &z, sz);
            } else if (op == 2) {
                g16_fp2 x, y, z;
                rand_fp(&x.c0), rand_fp(&x.c1), rand_fp(&y.c0), rand_fp(&y.c1);
                memcpy(pa, &x, sz), memcpy(pb, &y, sz);
                g16_fp2_mul(&z, &x, &y);
                memcpy((char *)w + i * sz, &z, sz);
            } else {
                g16_fp x, y, z;
                rand_fp(&x), rand_fp(&y);
                if (i < 9) {
                    g16_fp e[3];
                    g16_fp_set_zero(&e[0]), g16_fp_set_one(&e[1]), g16_fp_neg(&e[2], &e[1]);
                    x = e[i / 3], y = e[i % 3];
                }
                memcpy(pa, &x, sz), memcpy(pb, &y, sz);
                if (op == 1) g16_fp_mul(&z, &x, &y);
                if (op == 3) g16_fp_add(&z, &x, &y);
                if (op == 4) g16_fp_sub(&z, &x, &y);
                memcpy((char *)w + i * sz, &z, sz);
            }
        }
        memset(o, 0xA5, N * sz);
        g16_status s = g16_cuda_field_op(ctx, o, a, b, N, op);
        CHECK(s == G16_OK, "field op %d: %s", op, g16_last_error());
        size_t bad = 0, first = N;
        for (size_t i = 0; i < N; i++)
            if (memcmp((char *)o + i * sz, (char *)w + i * sz, sz)) {
                if (!bad) first = i;
                bad++;
            }
        CHECK(bad == 0, "field op %d: %zu of %d differ (first at %zu)", op, bad, N, first);
        printf("field op %d (%s): %s\n", op,
               (const char *[]){"Fr mul", "Fp mul", "Fp2 mul", "Fp add", "Fp sub"}[op],
               bad ? "FAIL" : "ok");
    }
    free(a), free(b), free(o), free(w);
}

#endif

static void test_ntt(g16_cuda_ctx *ctx, unsigned max_log)
{
    for (unsigned log_n = 0; log_n <= max_log; log_n++) {
        size_t n = (size_t)1 << log_n;
        g16_fr *x = malloc(n * sizeof *x), *want = malloc(n * sizeof *x), *got = malloc(n * sizeof *x);
        if (!x || !want || !got) {
            CHECK(0, "out of memory");
            return;
        }
        int fails = 0;
        for (int mode = 0; mode < 16; mode++) {
            int inverse = mode & 1, coset = (mode >> 1) & 1, ib = (mode >> 2) & 1, ob = (mode >> 3) & 1;
            if (log_n > 16 && (ib || ob) && mode != 4 && mode != 9) continue; /* keep big sizes short */
            for (size_t i = 0; i < n; i++) diff_rand_fr(&x[i]);
            memcpy(want, x, n * sizeof *x);
            ref_ntt(want, log_n, inverse, coset);
            if (ob) permute(want, log_n);
#ifdef G16_HAVE_CPU_NTT
            if (!ib && !ob) { /* the CPU backend's NTT agrees with the reference too */
                const g16_domain *dom;
                memcpy(got, x, n * sizeof *x);
                CHECK(g16_domain_get(&dom, (int)log_n) == G16_OK, "domain: %s", g16_last_error());
                if (inverse && coset) g16_ntt_coset_inverse_nn(dom, got);
                else if (inverse) g16_ntt_inverse_nn(dom, got);
                else if (coset) g16_ntt_coset_forward_nn(dom, got);
                else g16_ntt_forward_nn(dom, got);
                size_t dc = diff_first_diff(got, want, n);
                CHECK(dc == n, "CPU ntt 2^%u inverse=%d coset=%d differs from the reference at %zu",
                      log_n, inverse, coset, dc);
            }
#endif
            if (!ctx) continue; /* --cpu-only */
            memcpy(got, x, n * sizeof *x);
            if (ib) permute(got, log_n);
            g16_status s = g16_cuda_ntt(ctx, got, log_n, inverse, coset, ib, ob);
            CHECK(s == G16_OK, "ntt 2^%u: %s", log_n, g16_last_error());
            size_t d = diff_first_diff(got, want, n);
            CHECK(d == n, "ntt 2^%u inverse=%d coset=%d in_bitrev=%d out_bitrev=%d differs at %zu",
                  log_n, inverse, coset, ib, ob, d);
            fails += d != n;
        }
        /* H step; at odd sizes from page-locked inputs, which take the overlapped
         * copies (b and c on the copy stream), at even sizes from pageable ones */
        const int pin = ctx && (log_n & 1);
        g16_fr *a = NULL, *b = NULL, *c = NULL;
        if (pin) {
            if (g16_cuda_host_alloc((void **)&a, n * sizeof *a) || g16_cuda_host_alloc((void **)&b, n * sizeof *a) ||
                g16_cuda_host_alloc((void **)&c, n * sizeof *a))
                CHECK(0, "host_alloc: %s", g16_last_error());
        } else {
            a = malloc(n * sizeof *a), b = malloc(n * sizeof *a), c = malloc(n * sizeof *a);
        }
        if (a && b && c) {
            for (size_t i = 0; i < n; i++) diff_rand_fr(&a[i]), diff_rand_fr(&b[i]), diff_rand_fr(&c[i]);
            g16_fr *ra = want, *rb = x, *rc = malloc(n * sizeof *a);
            if (rc) {
                memcpy(ra, a, n * sizeof *a), memcpy(rb, b, n * sizeof *a), memcpy(rc, c, n * sizeof *a);
                ref_ntt(ra, log_n, 1, 0), ref_ntt(ra, log_n, 0, 1);
                ref_ntt(rb, log_n, 1, 0), ref_ntt(rb, log_n, 0, 1);
                ref_ntt(rc, log_n, 1, 0), ref_ntt(rc, log_n, 0, 1);
                g16_fr z, g, one;
                g16_fr_from_u64(&g, REF_GEN);
                g16_fr_set_one(&one);
                uint64_t e[1] = {n};
                g16_fr_pow(&z, &g, e, 1);
                g16_fr_sub(&z, &z, &one);
                g16_fr_inv(&z, &z);
                for (size_t i = 0; i < n; i++) {
                    g16_fr_mul(&ra[i], &ra[i], &rb[i]);
                    g16_fr_sub(&ra[i], &ra[i], &rc[i]);
                    g16_fr_mul(&ra[i], &ra[i], &z);
                }
                ref_ntt(ra, log_n, 1, 1);
                for (int br = 0; br < 2; br++) {
                    /* br: inputs handed over in bit-reversed order */
                    if (br) permute(a, log_n), permute(b, log_n), permute(c, log_n);
                    if (!ctx) continue;
                    memset(got, 0xA5, n * sizeof *got);
                    g16_status s = g16_cuda_h_step(ctx, got, a, b, c, log_n, br);
                    CHECK(s == G16_OK, "h step 2^%u: %s", log_n, g16_last_error());
                    size_t d = diff_first_diff(got, ra, n);
                    CHECK(d == n, "h step 2^%u (bitrev_in %d) differs at %zu", log_n, br, d);
                    fails += d != n;
                }
#ifdef G16_HAVE_CPU_NTT
                { /* and the CPU backend's H step (a, b, c are bit-reversed now) */
                    const g16_domain *dom;
                    CHECK(g16_domain_get(&dom, (int)log_n) == G16_OK, "domain");
                    CHECK(g16_ntt_h_step(dom, a, b, c, 1) == G16_OK, "cpu h step");
                    size_t d = diff_first_diff(a, ra, n);
                    CHECK(d == n, "CPU h step 2^%u differs from the reference at %zu", log_n, d);
                }
#endif
                free(rc);
            }
        }
        if (pin)
            g16_cuda_host_free(a), g16_cuda_host_free(b), g16_cuda_host_free(c);
        else
            free(a), free(b), free(c);
        printf("ntt + h step 2^%u%s: %s\n", log_n, pin ? " (page-locked)" : "", fails ? "FAIL" : "ok");
        fflush(stdout);
        free(x), free(want), free(got);
    }
}


/* The direct-copy path for page-locked buffers gives the same bytes. */
static void test_pinned(g16_cuda_ctx *ctx)
{
    const unsigned log_n = 12;
    size_t n = (size_t)1 << log_n;
    g16_fr *x = NULL, *want = malloc(n * sizeof *want);
    CHECK(g16_cuda_host_alloc((void **)&x, n * sizeof *x) == G16_OK, "host_alloc: %s",
          g16_last_error());
    if (!x || !want) return;
    for (size_t i = 0; i < n; i++) diff_rand_fr(&x[i]);
    memcpy(want, x, n * sizeof *x);
    ref_ntt(want, log_n, 0, 1);
    CHECK(g16_cuda_ntt(ctx, x, log_n, 0, 1, 0, 0) == G16_OK, "pinned ntt: %s", g16_last_error());
    size_t d = diff_first_diff(x, want, n);
    CHECK(d == n, "pinned coset NTT differs at %zu", d);
    printf("pinned buffers: %s\n", d == n ? "ok" : "FAIL");
    g16_cuda_host_free(x);
    free(want);
}


static void test_errors(g16_cuda_ctx *ctx)
{
    g16_fr x[4];
    CHECK(g16_cuda_ntt(ctx, x, 31, 0, 0, 0, 0) == G16_ERR_ARG, "log_n 31 accepted");
    g16_g1_affine p[2];
    g16_g1_affine_set_infinity(&p[0]), g16_g1_affine_set_infinity(&p[1]);
    g16_cuda_bases *db = NULL;
    CHECK(g16_cuda_bases_upload(ctx, &db, G16_G1, p, 2) == G16_OK, "upload");
    g16_g2_jac o2;
    g16_fr_set_one(&x[0]), g16_fr_set_one(&x[1]);
    CHECK(g16_cuda_msm_g2(ctx, &o2, db, x, 2, NULL, NULL) == G16_ERR_ARG, "G1 bases taken for G2");
    g16_g1_jac o1;
    CHECK(g16_cuda_msm_g1(ctx, &o1, db, x, 3, NULL, NULL) == G16_ERR_ARG, "n_bases mismatch accepted");
    CHECK(g16_cuda_msm_g1(ctx, &o1, db, x, 2, NULL, NULL) == G16_OK && g16_g1_jac_is_infinity(&o1),
          "sum of infinities is not infinity");
    g16_cuda_bases_free(db);
}

#if G16_CURVE_BN254
/* g16_gpu_diff_bn254 [--quick | --cpu-only]: BN254's device NTT, H step and MSMs (the
 * same sets as BLS12-381's but the field-op hook and the engine-path sets) against the
 * reference and the CPU's BN254 code. */
int main(int argc, char **argv)
{
    int quick = argc > 1 && !strcmp(argv[1], "--quick");
    g16_rng_seed(&diff_rng, g16_test_seed((uint64_t)time(NULL)));
    if (argc > 1 && !strcmp(argv[1], "--cpu-only")) {
        check_reference();
        test_ntt(NULL, 12);
        return g16_test_finish("g16_gpu_diff_bn254 --cpu-only");
    }
    char desc[512];
    int ndev = 0;
    g16_cuda_probe(&ndev, desc, sizeof desc);
    printf("devices: %d (%s)\n", ndev, desc);
    g16_cuda_ctx *ctx = NULL;
    if (g16_cuda_ctx_create(&ctx, 0) != G16_OK) {
        fprintf(stderr, "FAIL: no CUDA context: %s\n", g16_last_error());
        return 1;
    }
    g16_cuda_set_poison(ctx, 1);
    check_reference();
    test_errors(ctx);
    test_pinned(ctx);
    test_ntt(ctx, quick ? 12 : 20);
    diff_test_msm_g1(ctx, quick ? 4096 : (size_t)1 << 20);
    diff_test_msm_g1_fold(ctx, quick ? 4096 : (size_t)1 << 18);
    diff_test_msm_g2(ctx, quick ? 1000 : 65536);
    diff_test_msm_g2_edges(ctx);
    diff_test_h_msm(ctx);
    g16_cuda_ctx_destroy(ctx);
    return g16_test_finish("g16_gpu_diff_bn254");
}
#else
int main(int argc, char **argv)
{
    int quick = argc > 1 && !strcmp(argv[1], "--quick");
    int cpu_only = argc > 1 && !strcmp(argv[1], "--cpu-only");
    g16_rng_seed(&diff_rng, g16_test_seed((uint64_t)time(NULL)));
    char desc[512];
    int ndev = 0;
    g16_cuda_probe(&ndev, desc, sizeof desc);
    printf("devices: %d (%s)\n", ndev, desc);
    g16_cuda_ctx *ctx = NULL;
    if (cpu_only) { /* the references alone (no device): reference NTT vs DFT and CPU NTT */
        check_reference();
        test_ntt(NULL, 12);
        return g16_test_finish("g16_gpu_diff --cpu-only");
    }
    g16_status s = g16_cuda_ctx_create(&ctx, 0);
    if (s != G16_OK) {
        fprintf(stderr, "FAIL: no CUDA context: %s\n", g16_last_error());
        return 1;
    }
    g16_cuda_set_poison(ctx, 1);
    if (argc > 2 && !strcmp(argv[1], "--ntt-only")) {
        const char *rv = getenv("G16_CUDA_NTT_RADIX"); /* e.g. 8: that pass kernel's set */
        if (rv) CHECK(g16_cuda_set_ntt_radix(ctx, atoi(rv)) == G16_OK, "radix %s", rv);
        test_ntt(ctx, (unsigned)atoi(argv[2]));
        g16_cuda_ctx_destroy(ctx);
        return g16_test_finish("g16_gpu_diff --ntt-only");
    }
    if (argc > 2 && !strcmp(argv[1], "--g2-only")) { /* G2 MSMs: G16_CUDA_MSM_G2_PAIR A/Bs */
        diff_test_msm_g2(ctx, (size_t)atoll(argv[2]));
        diff_test_msm_g2_edges(ctx);
        g16_cuda_ctx_destroy(ctx);
        return g16_test_finish("g16_gpu_diff --g2-only");
    }
    if (argc > 2 && !strcmp(argv[1], "--fold-only")) {
        diff_test_msm_g1_fold(ctx, (size_t)atoll(argv[2]));
        g16_cuda_ctx_destroy(ctx);
        return g16_test_finish("g16_gpu_diff --fold-only");
    }
    check_reference();
    test_field(ctx);
    test_errors(ctx);
    test_pinned(ctx);
    test_ntt(ctx, quick ? 12 : 20);  /* the default pass kernel (radix 8) */
    printf("-- NTT again with the radix-2 pass kernel\n");
    CHECK(g16_cuda_set_ntt_radix(ctx, 2) == G16_OK, "radix 2");
    test_ntt(ctx, quick ? 12 : 20);
    printf("-- NTT again with the radix-4 pass kernel\n");
    CHECK(g16_cuda_set_ntt_radix(ctx, 4) == G16_OK, "radix 4");
    test_ntt(ctx, quick ? 12 : 20);
    CHECK(g16_cuda_set_ntt_radix(ctx, 8) == G16_OK, "radix 8");
    CHECK(g16_cuda_set_ntt_radix(ctx, 3) == G16_ERR_ARG, "radix 3 accepted");
    diff_test_msm_g1(ctx, quick ? 4096 : (size_t)1 << 20);
    diff_test_msm_g1_fold(ctx, quick ? 4096 : (size_t)1 << 18);
    diff_test_msm_g2(ctx, quick ? 1000 : 65536);
    diff_test_msm_g2_edges(ctx);
    diff_test_h_msm(ctx);
    diff_test_rows_resident(ctx);
    diff_test_z_split(ctx);
    diff_test_h_prefetch(ctx);
    g16_cuda_ctx_destroy(ctx);
    return g16_test_finish("g16_gpu_diff");
}
#endif
