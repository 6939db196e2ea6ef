/* The split prove API leaves nothing behind (run it in the ASan/LSan build):
 * buffers go back through the release callback on success and on every error,
 * an early g16_pending_free joins and frees, the pending proof keeps the key
 * alive.  Also checks the H step and the setup's queries against independent
 * formulas (polynomial identity at a random point; Lagrange products). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "curve/curve.h"
#include "field/fp_batch.h"
#include "test_groth16_util.h"

typedef struct { int released; g16_fr *seen[3]; } rel_log;

static void on_release(void *user, struct g16_fr *buf)
{
    rel_log *l = user;
    if (l->released < 3) l->seen[l->released] = buf;
    l->released++;
    free(buf);
}

static g16_status start(g16_pending **p, rel_log *log, g16_key *key, const tg_circ *t,
                        const g16_density *d, uint64_t n_z, uint64_t rows_delta)
{
    g16_prove_input in = tg_input(t, d);
    in.n_rows += rows_delta;
    in.n_z = n_z;
    in.release = on_release;
    in.release_user = log;
    memset(log, 0, sizeof *log);
    return g16_prove_start(p, key, &in);
}

static void test_split(g16_rng *rng)
{
    tg_circ t;
    tg_make(&t, rng, 2, 50);
    g16_density d;
    tg_density(&d, &t);
    g16_key *key;
    CHECK(g16_setup(&key, &t.c, (const uint8_t *)"split", 5) == G16_OK, "setup");
    uint8_t *x = tg_inputs(&t);
    rel_log log;
    g16_pending *p = NULL;

    /* success: all three released by the time start returns, key kept alive */
    CHECK(start(&p, &log, key, &t, &d, t.n_z, 0) == G16_OK, "start: %s", g16_last_error());
    CHECK(log.released == 3, "success: %d buffers released", log.released);
    g16_key_retain(key);
    g16_key_release(key); /* the pending proof's reference must survive this pattern */
    uint8_t proof[192];
    CHECK(g16_prove_finish(proof, p) == G16_OK, "finish");
    CHECK(g16_verify(g16_key_vk(key), proof, x, 2) == G16_OK, "split proof verifies");

    /* errors: wrong assignment length, wrong row count, z[0] != 1, no density */
    p = (g16_pending *)1;
    CHECK(start(&p, &log, key, &t, &d, t.n_z - 1, 0) == G16_ERR_ARG, "short z accepted");
    CHECK(log.released == 3 && p == NULL, "short z: %d released", log.released);
    CHECK(start(&p, &log, key, &t, &d, t.n_z, 1000) == G16_ERR_ARG, "bad rows accepted");
    CHECK(log.released == 3, "bad rows: %d released", log.released);
    g16_fr_set_zero(&t.z[0]);
    CHECK(start(&p, &log, key, &t, &d, t.n_z, 0) == G16_ERR_ARG, "z[0] = 0 accepted");
    CHECK(log.released == 3, "z[0]: %d released", log.released);
    g16_fr_set_one(&t.z[0]);
    g16_density wrong = d;
    wrong.n_aux_in_a += 1;
    CHECK(start(&p, &log, key, &t, &wrong, t.n_z, 0) == G16_ERR_ARG, "wrong density accepted");
    CHECK(log.released == 3, "density: %d released", log.released);

    /* early free, with the caller's key reference dropped first */
    g16_key_retain(key);
    CHECK(start(&p, &log, key, &t, &d, t.n_z, 0) == G16_OK, "start 2");
    g16_key_release(key);
    g16_pending_free(p);
    g16_pending_free(NULL);
    CHECK(g16_prove_finish(proof, NULL) == G16_ERR_ARG, "finish(NULL)");

    /* a pending proof that outlives the caller's only key reference */
    g16_key *k2;
    CHECK(g16_setup(&k2, &t.c, (const uint8_t *)"split", 5) == G16_OK, "setup k2");
    g16_vk *vk2 = g16_vk_copy(g16_key_vk(k2));
    CHECK(start(&p, &log, k2, &t, &d, t.n_z, 0) == G16_OK, "start 3");
    g16_key_release(k2);
    CHECK(g16_prove_finish(proof, p) == G16_OK, "finish 3");
    CHECK(g16_verify(vk2, proof, x, 2) == G16_OK, "proof made after the key was released");
    g16_vk_free(vk2);

    free(x);
    g16_key_release(key);
    tg_density_free(&d);
    tg_free(&t);
}

/* Evaluates the polynomial whose values on the size-N subgroup are v, at x:
 * Σ v_i·L_i(x), L_i(x) = ω^i (x^N − 1) / (N (x − ω^i)).  ω is computed here as
 * 7^((r−1)/N) with the exponent formed by shifting, not by the library. */
static void test_omega(g16_fr *w, unsigned log_n)
{
    uint64_t e[4];
    memcpy(e, g16_fr_modulus, sizeof e);
    e[0] -= 1;
    for (unsigned s = 0; s < log_n; s++)
        for (int i = 0; i < 4; i++) e[i] = (e[i] >> 1) | (i < 3 ? e[i + 1] << 63 : 0);
    g16_fr seven;
    g16_fr_from_u64(&seven, 7);
    g16_fr_pow(w, &seven, e, 4);
}

static void interp_eval(g16_fr *out, const g16_fr *v, uint64_t N, unsigned log_n, const g16_fr *x)
{
    g16_fr w, wi = g16_fr_one_mont, zx, nn, acc;
    test_omega(&w, log_n);
    uint64_t e[1] = {N};
    g16_fr_pow(&zx, x, e, 1);
    g16_fr_sub(&zx, &zx, &g16_fr_one_mont);
    g16_fr_from_u64(&nn, N);
    g16_fr_set_zero(&acc);
    for (uint64_t i = 0; i < N; i++) {
        g16_fr den, t;
        g16_fr_sub(&den, x, &wi);
        g16_fr_mul(&den, &den, &nn);
        g16_fr_inv(&den, &den);
        g16_fr_mul(&t, &wi, &zx);
        g16_fr_mul(&t, &t, &den);
        g16_fr_mul(&t, &t, &v[i]);
        g16_fr_add(&acc, &acc, &t);
        g16_fr_mul(&wi, &wi, &w);
    }
    *out = acc;
}

static void test_h(g16_rng *rng)
{
    for (uint32_t pub = 0; pub < 3; pub++) {
        tg_circ t;
        tg_make(&t, rng, pub, 20 + 9 * pub);
        uint64_t rows = g16_circuit_rows(&t.c);
        unsigned log_n = g16_domain_log(rows);
        uint64_t N = 1ull << log_n;
        g16_fr *a = calloc(N, 32), *b = calloc(N, 32), *c = calloc(N, 32), *h = calloc(N, 32);
        tg_synth(a, b, c, &t);
        memcpy(h, a, N * 32);
        g16_fr *wb = malloc(N * 32), *wc = malloc(N * 32);
        memcpy(wb, b, N * 32);
        memcpy(wc, c, N * 32);
        CHECK(g16_h_coeffs(h, wb, wc, log_n) == G16_OK, "h step");
        g16_fr x, ax, bx, cx, hx, zx, lhs, rhs;
        tg_rand_fr(&x, rng);
        interp_eval(&ax, a, N, log_n, &x);
        interp_eval(&bx, b, N, log_n, &x);
        interp_eval(&cx, c, N, log_n, &x);
        g16_fr_set_zero(&hx);
        for (uint64_t i = N; i-- > 0;) {
            g16_fr_mul(&hx, &hx, &x);
            g16_fr_add(&hx, &hx, &h[i]);
        }
        uint64_t e[1] = {N};
        g16_fr_pow(&zx, &x, e, 1);
        g16_fr_sub(&zx, &zx, &g16_fr_one_mont);
        g16_fr_mul(&lhs, &ax, &bx);
        g16_fr_sub(&lhs, &lhs, &cx);
        g16_fr_mul(&rhs, &hx, &zx);
        CHECK(g16_fr_eq(&lhs, &rhs), "a·b − c != h·Z at a random point (pub %u)", pub);
        CHECK(g16_fr_is_zero(&h[N - 1]), "h has degree N−1 (pub %u)", pub);
        free(a), free(b), free(c), free(h), free(wb), free(wc);
        tg_free(&t);
    }
}

/* The key's queries against their definitions, with τ, α, β, γ, δ re-derived. */
static void test_setup_queries(g16_rng *rng)
{
    tg_circ t;
    tg_make(&t, rng, 2, 9);
    const uint8_t seed[] = "queries";
    g16_key *key;
    CHECK(g16_setup(&key, &t.c, seed, sizeof seed) == G16_OK, "setup");
    g16_fr tau, alpha, beta, gamma, delta;
    g16_derive_scalar(&tau, "tau", seed, sizeof seed);
    g16_derive_scalar(&alpha, "alpha", seed, sizeof seed);
    g16_derive_scalar(&beta, "beta", seed, sizeof seed);
    g16_derive_scalar(&gamma, "gamma", seed, sizeof seed);
    g16_derive_scalar(&delta, "delta", seed, sizeof seed);
    uint64_t rows = g16_circuit_rows(&t.c), n_vars = t.n_z;
    unsigned log_n = g16_domain_log(rows);
    uint64_t N = 1ull << log_n;
    CHECK(key->n_h == N - 1, "h has %zu points", key->n_h);
    /* u_j(τ) etc. by interpolating column j of the (input-row extended) matrices */
    g16_fr *col = calloc(N, 32);
    g16_fr u, v, w, s, tmp;
    size_t ia = 0, ib = 0;
    g16_g1_jac g1, r1;
    g16_g2_jac g2, r2;
    g16_g1_jac_generator(&g1);
    g16_g2_jac_generator(&g2);
    int bad = 0;
    for (uint64_t j = 0; j < n_vars; j++) {
        g16_fr *res[3] = {&u, &v, &w};
        const g16_csr *m[3] = {&t.c.a, &t.c.b, &t.c.c};
        for (int k = 0; k < 3; k++) {
            memset(col, 0, N * 32);
            for (uint64_t r = 0; r < t.c.n_constraints; r++)
                for (uint64_t q = m[k]->row_start[r]; q < m[k]->row_start[r + 1]; q++)
                    if (m[k]->col[q] == j) g16_fr_add(&col[r], &col[r], &t.c.coefs[m[k]->coef[q]]);
            if (k == 0 && j <= t.c.n_pub) g16_fr_set_one(&col[t.c.n_constraints + j]);
            interp_eval(res[k], col, N, log_n, &tau);
        }
        uint64_t lim[4];
        if (!g16_fr_is_zero(&u)) {
            g16_fr_to_canonical(lim, &u);
            g16_g1_mul(&r1, &g1, lim);
            bad += ia >= key->n_a || !g16_g1_jac_eq_affine(&r1, &key->a[ia]);
            ia++;
        }
        if (!g16_fr_is_zero(&v)) {
            g16_fr_to_canonical(lim, &v);
            g16_g1_mul(&r1, &g1, lim);
            bad += ib >= key->n_b_g1 || !g16_g1_jac_eq_affine(&r1, &key->b_g1[ib]);
            g16_g2_mul(&r2, &g2, lim);
            bad += ib >= key->n_b_g2 || !g16_g2_jac_eq_affine(&r2, &key->b_g2[ib]);
            ib++;
        }
        g16_fr_mul(&s, &beta, &u);
        g16_fr_mul(&tmp, &alpha, &v);
        g16_fr_add(&s, &s, &tmp);
        g16_fr_add(&s, &s, &w);
        g16_fr_inv(&tmp, j <= t.c.n_pub ? &gamma : &delta);
        g16_fr_mul(&s, &s, &tmp);
        g16_fr_to_canonical(lim, &s);
        g16_g1_mul(&r1, &g1, lim);
        const g16_g1_affine *want = j <= t.c.n_pub ? &key->vk.ic[j] : &key->l[j - 1 - t.c.n_pub];
        bad += !g16_g1_jac_eq_affine(&r1, want);
    }
    CHECK(bad == 0, "%d query points differ from their definition", bad);
    CHECK(ia == key->n_a && ib == key->n_b_g1, "a/b counts %zu/%zu vs %zu/%zu", ia, ib, key->n_a,
          key->n_b_g1);
    /* h_i = τ^i·Z(τ)/δ */
    g16_fr zt, p;
    uint64_t e[1] = {N};
    g16_fr_pow(&zt, &tau, e, 1);
    g16_fr_sub(&zt, &zt, &g16_fr_one_mont);
    g16_fr_inv(&tmp, &delta);
    g16_fr_mul(&p, &zt, &tmp);
    bad = 0;
    for (size_t i = 0; i < key->n_h; i++) {
        uint64_t lim[4];
        g16_fr_to_canonical(lim, &p);
        g16_g1_mul(&r1, &g1, lim);
        bad += !g16_g1_jac_eq_affine(&r1, &key->h[i]);
        g16_fr_mul(&p, &p, &tau);
    }
    CHECK(bad == 0, "%d h points differ", bad);
    /* vk points */
    uint64_t lim[4];
    g16_fr_to_canonical(lim, &alpha);
    g16_g1_mul(&r1, &g1, lim);
    CHECK(g16_g1_jac_eq_affine(&r1, &key->vk.alpha_g1), "alpha_g1");
    g16_fr_to_canonical(lim, &gamma);
    g16_g2_mul(&r2, &g2, lim);
    CHECK(g16_g2_jac_eq_affine(&r2, &key->vk.gamma_g2), "gamma_g2");
    g16_fr_to_canonical(lim, &delta);
    g16_g2_mul(&r2, &g2, lim);
    CHECK(g16_g2_jac_eq_affine(&r2, &key->vk.delta_g2), "delta_g2");
    free(col);
    g16_key_release(key);
    tg_free(&t);
}

/* Fixed-base multiplication against plain scalar multiplication, incl. 0, 1, r−1,
 * and scalars whose low windows are zero (the accumulator is still empty when
 * the first nonzero digit comes: the vector path sets those lanes apart). */
static void test_fixed_base(g16_rng *rng)
{
    enum { n = 300 };
    g16_fr *s = malloc(n * sizeof *s);
    for (int i = 0; i < n; i++) tg_rand_fr(&s[i], rng);
    g16_fr_set_zero(&s[0]);
    g16_fr_set_one(&s[1]);
    g16_fr_neg(&s[2], &s[1]);
    uint64_t lim[4] = {0xffff, 0, 0, 0};
    g16_fr_from_canonical(&s[3], lim);
    uint64_t high[4] = {0, 7, 0, 0}, top[4] = {0, 0, 0, 1ull << 60};
    g16_fr_from_canonical(&s[4], high);
    g16_fr_from_canonical(&s[5], top);
    g16_g1_affine *o1 = malloc(n * sizeof *o1), base;
    g16_g2_affine *o2 = malloc(n * sizeof *o2), base2;
    g16_g1_affine_generator(&base);
    g16_g2_affine_generator(&base2);
    g16_g1_affine *outs[1] = {o1};
    g16_g2_affine *outs2[1] = {o2};
    const g16_fr *scs[1] = {s};
    size_t ns[1] = {n};
    g16_g1_jac g, r;
    g16_g2_jac g2, r2;
    g16_g1_jac_generator(&g);
    g16_g2_jac_generator(&g2);
    /* both product paths: the batch step, and G1's vector loop where the CPU has IFMA */
    for (int scalar = 0; scalar <= 1; scalar++) {
        g16_fp_batch_force_scalar(scalar);
        memset(o1, 0x5a, n * sizeof *o1);
        memset(o2, 0x5a, n * sizeof *o2);
        CHECK(g16_fixed_base_g1(&base, 1, outs, scs, ns) == G16_OK, "fb g1");
        CHECK(g16_fixed_base_g2(&base2, 1, outs2, scs, ns) == G16_OK, "fb g2");
        int bad = 0;
        for (int i = 0; i < n; i++) {
            g16_fr_to_canonical(lim, &s[i]);
            g16_g1_mul(&r, &g, lim);
            bad += !g16_g1_jac_eq_affine(&r, &o1[i]);
            if (i < 40) {
                g16_g2_mul(&r2, &g2, lim);
                bad += !g16_g2_jac_eq_affine(&r2, &o2[i]);
            }
        }
        CHECK(bad == 0, "%s path: %d fixed-base products differ", scalar ? "scalar" : "vector", bad);
    }
    g16_fp_batch_force_scalar(0);
    free(s), free(o1), free(o2);
}

/* Batches of 1024 scalars inside parallel spans of 8192 (fixed_base.c), so one
 * full span, a partial one, and batches that end mid-span; most of a window's
 * additions in one batch (the product tree of the vector path at its largest),
 * on both product paths.  Checked: every 13th product and all those within 16 of
 * a batch boundary. */
static void test_fixed_base_chunks(g16_rng *rng)
{
    enum { n = 8192 + 1024 + 5 };
    g16_fr *s = malloc(n * sizeof *s);
    g16_g1_affine *o = malloc(n * sizeof *o), base;
    for (int i = 0; i < n; i++) tg_rand_fr(&s[i], rng);
    g16_g1_affine_generator(&base);
    g16_g1_jac g, r;
    g16_g1_jac_generator(&g);
    for (int scalar = 0; scalar <= 1; scalar++) {
        g16_fp_batch_force_scalar(scalar);
        g16_g1_affine *outs[1] = {o};
        const g16_fr *scs[1] = {s};
        size_t ns[1] = {n};
        memset(o, 0x5a, n * sizeof *o);
        CHECK(g16_fixed_base_g1(&base, 1, outs, scs, ns) == G16_OK, "fb g1 chunks");
        int bad = 0, checked = 0;
        for (int i = 0; i < n; i++) {
            int edge = (i + 16) % 1024 < 32;
            if (i % 13 && i > 40 && i < n - 40 && !edge) continue;
            uint64_t lim[4];
            g16_fr_to_canonical(lim, &s[i]);
            g16_g1_mul(&r, &g, lim);
            bad += !g16_g1_jac_eq_affine(&r, &o[i]);
            checked++;
        }
        CHECK(bad == 0, "%s path: %d of %d checked fixed-base products differ",
              scalar ? "scalar" : "array-product", bad, checked);
        /* G2: four full batches and a few */
        enum { n2 = 4096 + 3 };
        g16_g2_affine *o2 = malloc(n2 * sizeof *o2), base2;
        g16_g2_affine_generator(&base2);
        g16_g2_jac g2, r2;
        g16_g2_jac_generator(&g2);
        g16_g2_affine *outs2[1] = {o2};
        size_t ns2[1] = {n2};
        memset(o2, 0x5a, n2 * sizeof *o2);
        CHECK(g16_fixed_base_g2(&base2, 1, outs2, scs, ns2) == G16_OK, "fb g2 chunks");
        bad = checked = 0;
        for (int i = 0; i < n2; i++) {
            if (i % 29 && i > 20 && i < n2 - 20) continue;
            uint64_t lim[4];
            g16_fr_to_canonical(lim, &s[i]);
            g16_g2_mul(&r2, &g2, lim);
            bad += !g16_g2_jac_eq_affine(&r2, &o2[i]);
            checked++;
        }
        CHECK(bad == 0, "%s path, G2: %d of %d checked fixed-base products differ",
              scalar ? "scalar" : "array-product", bad, checked);
        free(o2);
    }
    g16_fp_batch_force_scalar(0);
    free(s), free(o);
}

/* The fixed-base edge paths: the top window's equal-x case (a doubling; only the
 * scalars found by search in docs/groth16.md reach it), a base at infinity, and a
 * base on the curve outside the subgroup (refused). */
static void test_fixed_base_edges(void)
{
    static const char *equal_x = "6c1258acd66282b7ccc627f7f65e27faac425bfd0001a40100000000ffffffff";
    static const int windows[] = {3, 4, 6, 7, 9, 12, 14};
    uint8_t be[32];
    for (int i = 0; i < 32; i++) {
        unsigned v;
        sscanf(equal_x + 2 * i, "%2x", &v);
        be[i] = (uint8_t)v;
    }
    g16_fr k;
    g16_fr_from_be_reduce(&k, be, 32);
    g16_g1_affine base, o1;
    g16_g2_affine base2, o2;
    g16_g1_affine_generator(&base);
    g16_g2_affine_generator(&base2);
    g16_g1_jac g, r;
    g16_g2_jac g2, r2;
    g16_g1_jac_generator(&g);
    g16_g2_jac_generator(&g2);
    g16_g1_mul_fr(&r, &g, &k);
    g16_g2_mul_fr(&r2, &g2, &k);
    g16_g1_affine *outs[1] = {&o1};
    g16_g2_affine *outs2[1] = {&o2};
    const g16_fr *scs[1] = {&k};
    size_t ns[1] = {1};
    char w[8];
    for (int scalar = 0; scalar <= 1; scalar++) { /* both product paths, as above */
        g16_fp_batch_force_scalar(scalar);
        for (size_t i = 0; i < sizeof windows / sizeof windows[0]; i++) {
            snprintf(w, sizeof w, "%d", windows[i]);
            setenv("G16_FB_WINDOW", w, 1);
            CHECK(g16_fixed_base_g1(&base, 1, outs, scs, ns) == G16_OK, "fb g1 w=%s", w);
            CHECK(g16_g1_jac_eq_affine(&r, &o1), "equal-x scalar, G1, w = %s, %s path", w,
                  scalar ? "scalar" : "vector");
            CHECK(g16_fixed_base_g2(&base2, 1, outs2, scs, ns) == G16_OK, "fb g2 w=%s", w);
            CHECK(g16_g2_jac_eq_affine(&r2, &o2), "equal-x scalar, G2, w = %s", w);
        }
    }
    g16_fp_batch_force_scalar(0);
    unsetenv("G16_FB_WINDOW");

    /* base at infinity: every product is the identity */
    g16_g1_affine inf;
    g16_g1_affine_set_infinity(&inf);
    o1 = base;
    CHECK(g16_fixed_base_g1(&inf, 1, outs, scs, ns) == G16_OK, "fb g1 of infinity");
    CHECK(g16_g1_affine_is_infinity(&o1), "k·O = O");

    /* a point of E outside G1: the smallest x with x³ + 4 a square */
    g16_g1_affine bad = {0};
    for (uint64_t x = 1; x < 100; x++) {
        g16_fp xx, t, four, y;
        g16_fp_from_u64(&xx, x);
        g16_fp_from_u64(&four, 4);
        g16_fp_sqr(&t, &xx);
        g16_fp_mul(&t, &t, &xx);
        g16_fp_add(&t, &t, &four);
        if (g16_fp_sqrt(&y, &t)) {
            bad.x = xx;
            bad.y = y;
            break;
        }
    }
    CHECK(g16_g1_affine_on_curve(&bad) && !g16_g1_affine_is_infinity(&bad) &&
              !g16_g1_affine_in_subgroup(&bad), "test point on E, outside G1");
    CHECK(g16_fixed_base_g1(&bad, 1, outs, scs, ns) == G16_ERR_NOT_IN_SUBGROUP,
          "fixed base refuses a base outside the subgroup");
}

int main(void)
{
    g16_rng rng;
    g16_rng_seed(&rng, g16_test_seed(77));
    test_split(&rng);
    test_h(&rng);
    test_setup_queries(&rng);
    test_fixed_base(&rng);
    test_fixed_base_chunks(&rng);
    test_fixed_base_edges();
    return g16_test_finish("groth16_split");
}
