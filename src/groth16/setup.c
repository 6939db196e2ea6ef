/* TEST-ONLY key generation (bellperson's generate_parameters with secrets
 * derived from a seed).  Whoever knows the seed can forge proofs for the key. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/bigmem.h"
#include "common/error.h"
#include "common/pool.h"
#include "curve/curve.h"
#include "groth16/groth16.h"
#include "ntt/ntt.h"

_Thread_local g16_setup_times g16_last_setup_times;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

typedef struct {
    const g16_circuit *circ;
    const g16_fr *lag; /* L_i(τ), i < rows */
    g16_fr *uvw[3];    /* per matrix, n_vars entries */
} qap_ctx;

/* u/v/w_j(τ) = Σ_i M[i][j]·L_i(τ): one task per matrix, so each task owns its
 * output array and the scattered updates need no synchronisation.  (Splitting
 * each matrix by column ranges, so that two threads share the work evenly, was
 * slower: every task then reads its whole matrix, 0.39 -> 0.53 s at 2^20.) */
static void qap_task(void *vctx, size_t m, unsigned worker)
{
    qap_ctx *c = vctx;
    const g16_csr *M = m == 0 ? &c->circ->a : m == 1 ? &c->circ->b : &c->circ->c;
    g16_fr *out = c->uvw[m];
    for (uint64_t i = 0; i < c->circ->n_constraints; i++) {
        for (uint64_t k = M->row_start[i]; k < M->row_start[i + 1]; k++) {
            g16_fr t;
            g16_fr_mul(&t, &c->circ->coefs[M->coef[k]], &c->lag[i]);
            g16_fr_add(&out[M->col[k]], &out[M->col[k]], &t);
        }
    }
    if (m == 0) /* bellperson's input rows input_i · 0 = 0 put L_{n+i} into u_i */
        for (uint64_t j = 0; j <= c->circ->n_pub; j++)
            g16_fr_add(&out[j], &out[j], &c->lag[c->circ->n_constraints + j]);
}

/* Query scalars of the variables: ic_j = (β·u_j + α·v_j + w_j)/γ for the inputs,
 * l_j = (…)/δ for the aux variables, written over w_j (no other reader). */
typedef struct {
    const g16_fr *u, *v;
    g16_fr *w;
    g16_fr alpha, beta, ginv, dinv;
    uint64_t n_in;
} lin_ctx;

static void lin_chunk(void *vctx, size_t b, size_t e, unsigned worker)
{
    lin_ctx *c = vctx;
    for (size_t j = b; j < e; j++) {
        g16_fr t, x;
        g16_fr_mul(&t, &c->beta, &c->u[j]);
        g16_fr_mul(&x, &c->alpha, &c->v[j]);
        g16_fr_add(&t, &t, &x);
        g16_fr_add(&t, &t, &c->w[j]);
        g16_fr_mul(&c->w[j], &t, j < c->n_in ? &c->ginv : &c->dinv);
    }
}

/* h scalars τ^i·Z(τ)/δ: each chunk starts from its own power. */
typedef struct {
    g16_fr *s_h;
    g16_fr tau, p; /* p = Z(τ)/δ */
} hs_ctx;

static void hs_chunk(void *vctx, size_t b, size_t e, unsigned worker)
{
    hs_ctx *c = vctx;
    g16_fr q;
    uint64_t ex[1] = {b};
    g16_fr_pow(&q, &c->tau, ex, 1);
    g16_fr_mul(&q, &q, &c->p);
    for (size_t i = b; i < e; i++) {
        c->s_h[i] = q;
        g16_fr_mul(&q, &q, &c->tau);
    }
}

typedef struct {
    g16_fr *lag;
    g16_fr tau, omega, omega_inv, zt_n; /* zt_n = (τ^N − 1)/N */
    _Atomic int degenerate;
} lag_ctx;

/* L_i(τ) = ω^i·(τ^N − 1) / (N·(τ − ω^i)) for i in [b, e), one inversion per chunk
 * (Montgomery's trick); lag holds the prefix products until the walk back. */
static void lag_chunk(void *vctx, size_t b, size_t e, unsigned worker)
{
    lag_ctx *c = vctx;
    g16_fr wi, acc = g16_fr_one_mont, den;
    uint64_t ex[1] = {b};
    g16_fr_pow(&wi, &c->omega, ex, 1);
    for (size_t i = b; i < e; i++) {
        g16_fr_sub(&den, &c->tau, &wi);
        if (g16_fr_is_zero(&den)) {
            c->degenerate = 1;
            return;
        }
        c->lag[i] = acc;
        g16_fr_mul(&acc, &acc, &den);
        g16_fr_mul(&wi, &wi, &c->omega);
    }
    g16_fr_inv(&acc, &acc);
    for (size_t i = e; i-- > b;) {
        g16_fr inv, t;
        g16_fr_mul(&wi, &wi, &c->omega_inv); /* ω^i */
        g16_fr_sub(&den, &c->tau, &wi);
        g16_fr_mul(&inv, &acc, &c->lag[i]);
        g16_fr_mul(&acc, &acc, &den);
        g16_fr_mul(&t, &wi, &c->zt_n);
        g16_fr_mul(&c->lag[i], &inv, &t);
    }
}

static g16_status lagrange(g16_fr *lag, uint64_t rows, const g16_fr *tau, unsigned log_n)
{
    uint64_t N = (uint64_t)1 << log_n;
    lag_ctx c;
    c.lag = lag;
    c.tau = *tau;
    c.degenerate = 0;
    g16_domain_root(&c.omega, log_n);
    g16_fr_inv(&c.omega_inv, &c.omega);
    g16_fr ninv;
    uint64_t e[1] = {N};
    g16_fr_pow(&c.zt_n, tau, e, 1);
    g16_fr_sub(&c.zt_n, &c.zt_n, &g16_fr_one_mont);
    if (g16_fr_is_zero(&c.zt_n))
        return g16_fail(G16_ERR_ARG, "setup: degenerate seed (tau in the domain)");
    g16_fr_from_u64(&ninv, N);
    g16_fr_inv(&ninv, &ninv);
    g16_fr_mul(&c.zt_n, &c.zt_n, &ninv);
    g16_parallel_for(rows, 1u << 14, lag_chunk, &c);
    if (c.degenerate) return g16_fail(G16_ERR_ARG, "setup: degenerate seed (tau in the domain)");
    return G16_OK;
}

static void g1_mul_gen(g16_g1_affine *out, const g16_fr *k)
{
    g16_g1_jac g, r;
    g16_g1_jac_generator(&g);
    g16_g1_mul_fr(&r, &g, k);
    g16_g1_jac_to_affine(out, &r);
}

static void g2_mul_gen(g16_g2_affine *out, const g16_fr *k)
{
    g16_g2_jac g, r;
    g16_g2_jac_generator(&g);
    g16_g2_mul_fr(&r, &g, k);
    g16_g2_jac_to_affine(out, &r);
}

g16_status g16_setup(g16_key **out, const g16_circuit *circ, const uint8_t *seed, size_t seed_len)
{
    *out = NULL;
    uint64_t rows = g16_circuit_rows(circ), n_vars = g16_circuit_vars(circ);
    unsigned log_n = g16_domain_log(rows);
    if (log_n > G16_NTT_MAX_LOG)
        return g16_fail(G16_ERR_ARG, "setup: %llu rows exceed the largest domain, 2^%d",
                        (unsigned long long)rows, G16_NTT_MAX_LOG);
    uint64_t N = (uint64_t)1 << log_n;
    g16_fr tau, alpha, beta, gamma, delta, ginv, dinv;
    g16_derive_scalar(&tau, "tau", seed, seed_len);
    g16_derive_scalar(&alpha, "alpha", seed, seed_len);
    g16_derive_scalar(&beta, "beta", seed, seed_len);
    g16_derive_scalar(&gamma, "gamma", seed, seed_len);
    g16_derive_scalar(&delta, "delta", seed, seed_len);
    if (g16_fr_is_zero(&tau) || g16_fr_is_zero(&alpha) || g16_fr_is_zero(&beta) ||
        g16_fr_is_zero(&gamma) || g16_fr_is_zero(&delta))
        return g16_fail(G16_ERR_ARG, "setup: degenerate seed (a zero secret)");
    g16_fr_inv(&ginv, &gamma);
    g16_fr_inv(&dinv, &delta);

    g16_status st = G16_OK;
    g16_key *k = NULL;
    /* huge pages: these arrays are written once, and 4 KiB page faults cost as
     * much as the arithmetic here (docs/groth16.md, "Setup").  The query scalars
     * reuse them (fresh memory is the dearer part): lag the h scalars once the QAP
     * values are done, w the ic and l scalars, u and v the a and b ones. */
    g16_fr *lag = g16_big_alloc((rows > N - 1 ? rows : N - 1) * sizeof *lag);
    g16_fr *uvw = g16_big_alloc(3 * n_vars * sizeof *uvw);
    if (!lag || !uvw) {
        st = g16_fail(G16_ERR_NOMEM, "setup: out of memory for %llu variables",
                      (unsigned long long)n_vars);
        goto done;
    }
    memset(uvw, 0, 3 * n_vars * sizeof *uvw);
    g16_setup_times tm = {0};
    double t = now();
    st = lagrange(lag, rows, &tau, log_n);
    if (st) goto done;
    qap_ctx qc = {circ, lag, {uvw, uvw + n_vars, uvw + 2 * n_vars}};
    g16_pool_tasks(NULL, 3, qap_task, &qc);

    tm.qap = now() - t;
    t = now();
    g16_fr *u = qc.uvw[0], *v = qc.uvw[1], *w = qc.uvw[2];
    uint64_t n_in = 1ull + circ->n_pub;
    g16_fr *s_ic = w, *s_l = w + n_in, *s_h = lag, *s_a = u, *s_b = v;
    size_t n_a = 0, n_b = 0;
    lin_ctx lc = {u, v, w, alpha, beta, ginv, dinv, n_in};
    g16_parallel_for(n_vars, 1u << 14, lin_chunk, &lc);
    for (uint64_t j = 0; j < n_vars; j++) {
        if (j >= n_in && g16_fr_is_zero(&s_l[j - n_in])) {
            st = g16_fail(G16_ERR_ARG, "setup: aux variable %llu is unconstrained",
                          (unsigned long long)(j - n_in));
            goto done;
        }
        /* bellperson drops the identity points of a, b_g1, b_g2; compacted in
         * place (n_a ≤ j, so nothing unread is overwritten) */
        if (!g16_fr_is_zero(&u[j])) s_a[n_a++] = u[j];
        if (!g16_fr_is_zero(&v[j])) s_b[n_b++] = v[j];
    }
    {
        hs_ctx hc;
        uint64_t e[1] = {N};
        hc.s_h = s_h;
        hc.tau = tau;
        g16_fr_pow(&hc.p, &tau, e, 1);
        g16_fr_sub(&hc.p, &hc.p, &g16_fr_one_mont);
        g16_fr_mul(&hc.p, &hc.p, &dinv);
        g16_parallel_for(N - 1, 1u << 14, hs_chunk, &hc);
    }
    tm.scalars = now() - t;

    k = g16_key_alloc();
    if (!k) {
        st = G16_ERR_NOMEM;
        goto done;
    }
    st = g16_key_alloc_arrays(k, n_in, N - 1, circ->n_aux, n_a, n_b, n_b);
    if (st) goto done;
    g1_mul_gen(&k->vk.alpha_g1, &alpha);
    g1_mul_gen(&k->vk.beta_g1, &beta);
    g1_mul_gen(&k->vk.delta_g1, &delta);
    g2_mul_gen(&k->vk.beta_g2, &beta);
    g2_mul_gen(&k->vk.gamma_g2, &gamma);
    g2_mul_gen(&k->vk.delta_g2, &delta);
    g16_g1_affine g1;
    g16_g2_affine g2;
    g16_g1_affine_generator(&g1);
    g16_g2_affine_generator(&g2);
    {
        g16_g1_affine *outs[5] = {k->vk.ic, k->h, k->l, k->a, k->b_g1};
        const g16_fr *scs[5] = {s_ic, s_h, s_l, s_a, s_b};
        size_t ns[5] = {n_in, N - 1, circ->n_aux, n_a, n_b};
        t = now();
        st = g16_fixed_base_g1(&g1, 5, outs, scs, ns);
        if (st) goto done;
        tm.g1 = now() - t;
        t = now();
        g16_g2_affine *o2[1] = {k->b_g2};
        const g16_fr *s2[1] = {s_b};
        size_t n2[1] = {n_b};
        st = g16_fixed_base_g2(&g2, 1, o2, s2, n2);
        if (st) goto done;
        tm.g2 = now() - t;
        g16_last_setup_times = tm;
    }
done:
    free(lag);
    free(uvw);
    if (st) {
        g16_key_release(k);
        return st;
    }
    *out = k;
    return G16_OK;
}
