/* INSECURE known-tau Groth16 keys in snarkjs's layout, for benchmarks and tests
 * (see g16_sj_testkey in snarkjs.h).  The formulas are those of snarkjs's setup,
 * evaluated directly at tau instead of through a powers-of-tau file:
 *   L_j(τ) = ω^j (τⁿ − 1) / (n (τ − ω^j))                 Lagrange basis, n points
 *   u_k, v_k, w_k = Σ_rows coef · L_row(τ)                A, B, C columns at τ
 *   A_k = u_k·G1, B1_k = v_k·G1, B2_k = v_k·G2
 *   IC_k = (β u_k + α v_k + w_k)/γ · G1 (public), C_k = (…)/δ · G1 (private)
 *   H_i = x_i (τ^{2n} − 1) / (2n (τ − x_i) δ) · G1,  x_i = ω_2n ω_n^i
 *         (= L^{2n}_{2i+1}(τ)/δ, the odd half of the 2n-point Lagrange basis). */
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "common/pool.h"
#include "curve/curve.h"
#include "io/snarkjs.h"

static void batch_inv(g16_fr *x, size_t n)
{
    if (!n) return;
    g16_fr *pre = malloc(n * sizeof *pre), acc, t;
    if (!pre) { /* fall back to one inversion each */
        for (size_t i = 0; i < n; i++) g16_fr_inv(&x[i], &x[i]);
        return;
    }
    g16_fr_set_one(&acc);
    for (size_t i = 0; i < n; i++) {
        pre[i] = acc;
        g16_fr_mul(&acc, &acc, &x[i]);
    }
    g16_fr_inv(&acc, &acc);
    for (size_t i = n; i-- > 0;) {
        g16_fr_mul(&t, &acc, &pre[i]);
        g16_fr_mul(&acc, &acc, &x[i]);
        x[i] = t;
    }
    free(pre);
}

typedef struct mul_ctx {
    const g16_fr *k;
    g16_g1_jac *o1;
    g16_g2_jac *o2;
} mul_ctx;

static void mul_g1_fn(void *vctx, size_t b, size_t e, unsigned worker)
{
    (void)worker;
    const mul_ctx *c = vctx;
    g16_g1_jac g;
    g16_g1_jac_generator(&g);
    for (size_t i = b; i < e; i++) {
        uint64_t k[4];
        g16_fr_to_canonical(k, &c->k[i]);
        g16_g1_mul(&c->o1[i], &g, k);
    }
}

static void mul_g2_fn(void *vctx, size_t b, size_t e, unsigned worker)
{
    (void)worker;
    const mul_ctx *c = vctx;
    g16_g2_jac g;
    g16_g2_jac_generator(&g);
    for (size_t i = b; i < e; i++) {
        uint64_t k[4];
        g16_fr_to_canonical(k, &c->k[i]);
        g16_g2_mul(&c->o2[i], &g, k);
    }
}

/* secret k of the seed: (seed + k)^5 + k, distinct and nonzero for the five uses */
static void derive(g16_fr *out, uint64_t seed, uint64_t k)
{
    g16_fr x, t;
    g16_fr_from_u64(&x, seed + k);
    g16_fr_sqr(&t, &x);
    g16_fr_sqr(&t, &t);
    g16_fr_mul(&t, &t, &x);
    g16_fr_from_u64(&x, k);
    g16_fr_add(out, &t, &x);
}

static g16_status g1_points(g16_g1_affine *out, const g16_fr *k, size_t n)
{
    g16_g1_jac *j = malloc((n ? n : 1) * sizeof *j);
    if (!j) return g16_fail(G16_ERR_NOMEM, "testkey: %zu G1 points", n);
    mul_ctx c = {k, j, NULL};
    g16_parallel_for(n, 64, mul_g1_fn, &c);
    g16_g1_jac_batch_to_affine(out, j, n);
    free(j);
    return G16_OK;
}

static g16_status g2_points(g16_g2_affine *out, const g16_fr *k, size_t n)
{
    g16_g2_jac *j = malloc((n ? n : 1) * sizeof *j);
    if (!j) return g16_fail(G16_ERR_NOMEM, "testkey: %zu G2 points", n);
    mul_ctx c = {k, NULL, j};
    g16_parallel_for(n, 32, mul_g2_fn, &c);
    g16_g2_jac_batch_to_affine(out, j, n);
    free(j);
    return G16_OK;
}

static g16_status build(g16_sj_pk *pk, const g16_circom_r1cs *r, uint64_t seed, g16_fr *scratch[6])
{
    uint32_t n_pub = g16_circom_r1cs_n_public(r), nv = r->n_wires, npriv = nv - n_pub - 1;
    uint64_t rows = (uint64_t)r->n_constraints + n_pub + 1;
    unsigned log_n = 0;
    while ((1ull << log_n) < rows) log_n++;
    unsigned max_log = G16_SJ_TWO_ADICITY - 1 < 30 ? G16_SJ_TWO_ADICITY - 1 : 30;
    if (log_n > max_log)
        return g16_fail(G16_ERR_ARG, "testkey: %llu rows need a domain above 2^%u", (unsigned long long)rows, max_log);
    size_t n = (size_t)1 << log_n;
    pk->n_vars = nv;
    pk->n_public = n_pub;
    pk->domain_size = (uint32_t)n;
    pk->log_n = log_n;

    g16_fr tau, alpha, beta, gamma, delta, one, t, zt, z2t;
    derive(&tau, seed, 1);
    derive(&alpha, seed, 2);
    derive(&beta, seed, 3);
    derive(&gamma, seed, 4);
    derive(&delta, seed, 5);
    g16_fr_set_one(&one);
    uint64_t e = n;
    g16_fr_pow(&zt, &tau, &e, 1);
    g16_fr_sqr(&z2t, &zt);
    g16_fr_sub(&z2t, &z2t, &one); /* τ^{2n} − 1 */
    g16_fr_sub(&zt, &zt, &one);   /* τ^n − 1 */
    if (g16_fr_is_zero(&z2t)) return g16_fail(G16_ERR_ARG, "testkey: this seed's tau is a root of unity");

    /* Lagrange basis at τ (n points) */
    g16_fr *L = scratch[0], *den = scratch[1], w, wj;
    g16_sj_root(&w, log_n);
    g16_fr nn;
    g16_fr_from_u64(&nn, n);
    g16_fr_set_one(&wj);
    for (size_t j = 0; j < n; j++) {
        L[j] = wj;
        g16_fr_sub(&t, &tau, &wj);
        g16_fr_mul(&den[j], &t, &nn);
        g16_fr_mul(&wj, &wj, &w);
    }
    batch_inv(den, n);
    for (size_t j = 0; j < n; j++) {
        g16_fr_mul(&L[j], &L[j], &zt);
        g16_fr_mul(&L[j], &L[j], &den[j]);
    }

    /* columns at τ and the coefficient list */
    g16_fr *u = scratch[2], *v = scratch[3], *wc = scratch[4];
    memset(u, 0, nv * sizeof *u);
    memset(v, 0, nv * sizeof *v);
    memset(wc, 0, nv * sizeof *wc);
    uint64_t nab = 0;
    for (uint64_t k = 0; k < r->n_constraints; k++) nab += r->lc_start[3 * k + 2] - r->lc_start[3 * k];
    pk->n_coefs = nab + n_pub + 1;
    pk->coefs = malloc(pk->n_coefs * sizeof *pk->coefs);
    if (!pk->coefs) return g16_fail(G16_ERR_NOMEM, "testkey: coefficients");
    uint64_t ci = 0;
    g16_fr *col[3] = {u, v, wc};
    for (uint32_t k = 0; k < r->n_constraints; k++)
        for (uint32_t m = 0; m < 3; m++)
            for (uint64_t q = r->lc_start[3ull * k + m]; q < r->lc_start[3ull * k + m + 1]; q++) {
                g16_fr_mul(&t, &r->coef[q], &L[k]);
                g16_fr_add(&col[m][r->wire[q]], &col[m][r->wire[q]], &t);
                if (m < 2) pk->coefs[ci++] = (g16_sj_coef){m, k, r->wire[q], r->coef[q]};
            }
    for (uint32_t k = 0; k <= n_pub; k++) {
        g16_fr_add(&u[k], &u[k], &L[r->n_constraints + k]);
        pk->coefs[ci++] = (g16_sj_coef){0, r->n_constraints + k, k, one};
    }

    /* every G1 scalar in one array: A | B1 | IC | C | H */
    size_t total = 2 * (size_t)nv + n_pub + 1 + npriv + n;
    g16_fr *ks = scratch[5], ginv, dinv;
    g16_fr_inv(&ginv, &gamma);
    g16_fr_inv(&dinv, &delta);
    memcpy(ks, u, nv * sizeof *ks);
    memcpy(ks + nv, v, nv * sizeof *ks);
    for (uint32_t k = 0; k < nv; k++) {
        g16_fr s1, s2;
        g16_fr_mul(&s1, &beta, &u[k]);
        g16_fr_mul(&s2, &alpha, &v[k]);
        g16_fr_add(&s1, &s1, &s2);
        g16_fr_add(&s1, &s1, &wc[k]);
        g16_fr_mul(&ks[2 * nv + k], &s1, k <= n_pub ? &ginv : &dinv);
    }
    g16_fr *h = ks + 2 * (size_t)nv + n_pub + 1 + npriv, w2, xi;
    g16_sj_root(&w2, log_n + 1);
    xi = w2;
    g16_fr two_n;
    g16_fr_from_u64(&two_n, 2 * (uint64_t)n);
    for (size_t i = 0; i < n; i++) {
        h[i] = xi;
        g16_fr_sub(&t, &tau, &xi);
        g16_fr_mul(&den[i], &t, &two_n);
        g16_fr_mul(&den[i], &den[i], &delta);
        g16_fr_mul(&xi, &xi, &w);
    }
    batch_inv(den, n);
    for (size_t i = 0; i < n; i++) {
        g16_fr_mul(&h[i], &h[i], &z2t);
        g16_fr_mul(&h[i], &h[i], &den[i]);
    }

    g16_g1_affine *g1 = malloc(total * sizeof *g1);
    pk->b2 = malloc(nv * sizeof *pk->b2);
    if (!g1 || !pk->b2) {
        free(g1);
        return g16_fail(G16_ERR_NOMEM, "testkey: points");
    }
    g16_status s = g1_points(g1, ks, total);
    if (s == G16_OK) s = g2_points(pk->b2, v, nv);
    if (s == G16_OK) {
        pk->a = malloc(nv * sizeof *pk->a);
        pk->b1 = malloc(nv * sizeof *pk->b1);
        pk->ic = malloc((n_pub + 1) * sizeof *pk->ic);
        pk->c = malloc((npriv ? npriv : 1) * sizeof *pk->c);
        pk->h = malloc(n * sizeof *pk->h);
        if (!pk->a || !pk->b1 || !pk->ic || !pk->c || !pk->h) s = g16_fail(G16_ERR_NOMEM, "testkey: points");
    }
    if (s == G16_OK) {
        memcpy(pk->a, g1, nv * sizeof *g1);
        memcpy(pk->b1, g1 + nv, nv * sizeof *g1);
        memcpy(pk->ic, g1 + 2 * nv, (n_pub + 1) * sizeof *g1);
        memcpy(pk->c, g1 + 2 * nv + n_pub + 1, npriv * sizeof *g1);
        memcpy(pk->h, g1 + 2 * nv + n_pub + 1 + npriv, n * sizeof *g1);
        /* α, β, γ, δ as points */
        g16_fr sc[4] = {alpha, beta, delta, one};
        g16_g1_affine p1[4];
        g16_g2_affine p2[4];
        g16_fr sc2[4] = {beta, gamma, delta, one};
        s = g1_points(p1, sc, 4);
        if (s == G16_OK) s = g2_points(p2, sc2, 4);
        pk->alpha1 = p1[0], pk->beta1 = p1[1], pk->delta1 = p1[2];
        pk->beta2 = p2[0], pk->gamma2 = p2[1], pk->delta2 = p2[2];
    }
    free(g1);
    return s;
}

g16_status g16_sj_testkey(g16_sj_pk *pk, const g16_circom_r1cs *r, const char *seed_text)
{
    memset(pk, 0, sizeof *pk);
    char *end;
    unsigned long long seed = strtoull(seed_text, &end, 10);
    if (!*seed_text || *end) return g16_fail(G16_ERR_ARG, "testkey: tau seed '%s' is not a decimal number", seed_text);
    uint32_t n_pub = g16_circom_r1cs_n_public(r);
    uint64_t rows = (uint64_t)r->n_constraints + n_pub + 1;
    size_t n = 1;
    while (n < rows) n <<= 1;
    size_t nv = r->n_wires;
    size_t sizes[6] = {n, n, nv, nv, nv, 2 * nv + n_pub + 1 + (nv - n_pub - 1) + n};
    g16_fr *scratch[6] = {0};
    g16_status s = G16_OK;
    for (int i = 0; i < 6; i++)
        if (!(scratch[i] = malloc(sizes[i] * sizeof(g16_fr)))) s = g16_fail(G16_ERR_NOMEM, "testkey: scratch");
    if (s == G16_OK) s = build(pk, r, seed, scratch);
    for (int i = 0; i < 6; i++) free(scratch[i]);
    if (s != G16_OK) g16_sj_pk_free(pk);
    return s;
}
