/* Groth16 prover and verifier in snarkjs's convention (see snarkjs_prove.h). */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/error.h"
#include "common/fault.h"
#include "common/pool.h"
#include "curve/curve.h"
#include "groth16/ops.h"
#include "groth16/snarkjs_prove.h"
#include "msm/msm.h"
#include "pairing/pairing.h"

static _Thread_local g16_sj_timing last_timing;

const g16_sj_timing *g16_sj_last_timing(void) { return &last_timing; }

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

void g16_sj_pk_free(g16_sj_pk *pk)
{
    if (!pk) return;
    free(pk->ic);
    free(pk->coefs);
    free(pk->a);
    free(pk->b1);
    free(pk->b2);
    free(pk->c);
    free(pk->h);
    free(pk->dens_a);
    free(pk->dens_b);
    memset(pk, 0, sizeof *pk);
}

void g16_sj_vk_free(g16_sj_vk *vk)
{
    if (!vk) return;
    free(vk->ic);
    memset(vk, 0, sizeof *vk);
}

g16_status g16_sj_pk_compact(g16_sj_pk *pk)
{
    if (pk->dens_a || pk->dens_b) return G16_OK;
    size_t n = pk->n_vars, words = (n + 63) / 64;
    int b_same = 1;
    for (size_t k = 0; k < n && b_same; k++)
        b_same = g16_g1_affine_is_infinity(&pk->b1[k]) == g16_g2_affine_is_infinity(&pk->b2[k]);
    uint64_t *da = g16_calloc(words ? words : 1, 8), *db = b_same ? g16_calloc(words ? words : 1, 8) : NULL;
    if (!da || (b_same && !db)) {
        free(da);
        free(db);
        return g16_fail(G16_ERR_NOMEM, "density bitmaps for %zu variables", n);
    }
    uint64_t na = 0, nb = 0;
    for (size_t k = 0; k < n; k++) {
        if (!g16_g1_affine_is_infinity(&pk->a[k])) {
            da[k / 64] |= 1ull << (k % 64);
            pk->a[na++] = pk->a[k];
        }
        if (db && !g16_g1_affine_is_infinity(&pk->b1[k])) {
            db[k / 64] |= 1ull << (k % 64);
            pk->b1[nb] = pk->b1[k];
            pk->b2[nb++] = pk->b2[k];
        }
    }
    pk->dens_a = da, pk->n_a = na;
    if (db) pk->dens_b = db, pk->n_b = nb;
    return G16_OK;
}

typedef struct ab_ctx {
    g16_fr *out[2], *c;
    const g16_sj_pk *pk;
    const g16_fr *w;
} ab_ctx;

/* a[row] += coef·w[signal] over the list (one pass: the two matrices' entries
 * are interleaved, and two tasks each skipping the other's half measured slower
 * than this: 0.019 against 0.011 s at 2^16) */
static void build_ab(const ab_ctx *x)
{
    for (uint64_t i = 0; i < x->pk->n_coefs; i++) {
        const g16_sj_coef *e = &x->pk->coefs[i];
        g16_fr t;
        g16_fr_mul(&t, &e->value, &x->w[e->signal]);
        g16_fr_add(&x->out[e->m][e->row], &x->out[e->m][e->row], &t);
    }
}

/* c = a∘b row by row */
static void build_c_fn(void *vctx, size_t begin, size_t end, unsigned worker)
{
    (void)worker;
    const ab_ctx *x = vctx;
    for (size_t i = begin; i < end; i++) g16_fr_mul(&x->c[i], &x->out[0][i], &x->out[1][i]);
}

/* The MSMs through be's table, or the msm layer directly (be NULL). */
static g16_status msm1(g16_backend *be, g16_g1_jac *out, const g16_g1_affine *bases, size_t nb,
                       const g16_fr *sc, size_t n, const uint64_t *dens)
{
    return be ? be->ops->msm_g1(be, out, bases, nb, sc, n, dens) : g16_msm_g1(out, bases, nb, sc, n, dens);
}

static g16_status msm2(g16_backend *be, g16_g2_jac *out, const g16_g2_affine *bases, size_t nb,
                       const g16_fr *sc, size_t n, const uint64_t *dens)
{
    return be ? be->ops->msm_g2(be, out, bases, nb, sc, n, dens) : g16_msm_g2(out, bases, nb, sc, n, dens);
}

g16_status g16_sj_prove(g16_sj_proof *proof, const g16_sj_pk *pk, const g16_fr *w, size_t n_w,
                        const g16_fr *r, const g16_fr *s)
{
    return g16_sj_prove_on(NULL, proof, pk, w, n_w, r, s);
}

g16_status g16_sj_prove_on(g16_backend *be, g16_sj_proof *proof, const g16_sj_pk *pk, const g16_fr *w,
                           size_t n_w, const g16_fr *r, const g16_fr *s)
{
    memset(&last_timing, 0, sizeof last_timing);
    if (be && g16_backend_curve_of(be) != G16_BACKEND_CURVE)
        return g16_fail(G16_ERR_ARG, "backend %s computes over %s, the key is %s", be->name,
                        g16_curve_name((g16_curve_id)g16_backend_curve_of(be)),
                        g16_curve_name(G16_BACKEND_CURVE));
    if (n_w != pk->n_vars)
        return g16_fail(G16_ERR_ARG, "the witness has %zu values, the key expects %u", n_w, pk->n_vars);
    if (!g16_fr_is_one(&w[0])) return g16_fail(G16_ERR_ARG, "witness value 0 is not 1");
    double t0 = now(), t;
    size_t n = pk->domain_size;
    g16_fr *abc = g16_calloc(3 * n, sizeof *abc), *p = g16_malloc(n * sizeof *p);
    if (!abc || !p) {
        free(abc);
        free(p);
        return g16_fail(G16_ERR_NOMEM, "prover vectors for a domain of %zu", n);
    }
    g16_fr *a = abc, *b = abc + n, *c = abc + 2 * n;
    ab_ctx abx = {{a, b}, c, pk, w};
    build_ab(&abx);
    g16_parallel_for(n, n >= 8192 ? 4096 : n, build_c_fn, &abx);
    last_timing.abc = (t = now()) - t0;
    g16_status st = g16_sj_odd_quotient_on(be, p, a, b, c, pk->log_n);
    free(abc);
    last_timing.fft = now() - t;
    if (st != G16_OK) {
        free(p);
        return st;
    }

    g16_g1_jac A, B1, C, H;
    g16_g2_jac B2;
    uint32_t n_priv = pk->n_vars - pk->n_public - 1;
    t = now();
    st = msm1(be, &A, pk->a, pk->dens_a ? pk->n_a : pk->n_vars, w, pk->n_vars, pk->dens_a);
    last_timing.msm_a = now() - t, t = now();
    if (st == G16_OK) st = msm1(be, &B1, pk->b1, pk->dens_b ? pk->n_b : pk->n_vars, w, pk->n_vars, pk->dens_b);
    last_timing.msm_b1 = now() - t, t = now();
    if (st == G16_OK) st = msm2(be, &B2, pk->b2, pk->dens_b ? pk->n_b : pk->n_vars, w, pk->n_vars, pk->dens_b);
    last_timing.msm_b2 = now() - t, t = now();
    if (st == G16_OK) st = msm1(be, &C, pk->c, n_priv, w + pk->n_public + 1, n_priv, NULL);
    last_timing.msm_c = now() - t, t = now();
    if (st == G16_OK) st = msm1(be, &H, pk->h, n, p, n, NULL);
    last_timing.msm_h = now() - t;
    free(p);
    if (st != G16_OK) return g16_fail_ctx(st, "snarkjs prover MSM");

    /* π_A = α + A + r·δ₁;  π_B = β₂ + B₂ + s·δ₂;  B₁ = β₁ + B₁ + s·δ₁;
     * π_C = C + H + s·π_A + r·B₁ − r·s·δ₁. */
    g16_g1_jac d1, tmp, piA, piC;
    g16_g2_jac d2, tmp2, piB;
    g16_g1_jac_from_affine(&d1, &pk->delta1);
    g16_g2_jac_from_affine(&d2, &pk->delta2);
    g16_g1_jac_add_affine(&piA, &A, &pk->alpha1);
    g16_g1_mul_fr(&tmp, &d1, r);
    g16_g1_jac_add(&piA, &piA, &tmp);
    g16_g2_jac_add_affine(&piB, &B2, &pk->beta2);
    g16_g2_mul_fr(&tmp2, &d2, s);
    g16_g2_jac_add(&piB, &piB, &tmp2);
    g16_g1_jac_add_affine(&B1, &B1, &pk->beta1);
    g16_g1_mul_fr(&tmp, &d1, s);
    g16_g1_jac_add(&B1, &B1, &tmp);
    g16_g1_jac_add(&piC, &C, &H);
    g16_g1_mul_fr(&tmp, &piA, s);
    g16_g1_jac_add(&piC, &piC, &tmp);
    g16_g1_mul_fr(&tmp, &B1, r);
    g16_g1_jac_add(&piC, &piC, &tmp);
    g16_fr rs;
    g16_fr_mul(&rs, r, s);
    g16_fr_neg(&rs, &rs);
    g16_g1_mul_fr(&tmp, &d1, &rs);
    g16_g1_jac_add(&piC, &piC, &tmp);
    g16_g1_jac_to_affine(&proof->a, &piA);
    g16_g2_jac_to_affine(&proof->b, &piB);
    g16_g1_jac_to_affine(&proof->c, &piC);
    last_timing.total = now() - t0;
    return G16_OK;
}

g16_status g16_sj_verify(const g16_sj_vk *vk, const g16_sj_proof *proof, const g16_fr *pub, size_t n_pub)
{
    if (n_pub != vk->n_public)
        return g16_fail(G16_ERR_ARG, "%zu public signals, the verifying key expects %u", n_pub, vk->n_public);
    g16_g1_jac acc, t, base;
    g16_g1_jac_from_affine(&acc, &vk->ic[0]);
    for (size_t i = 0; i < n_pub; i++) {
        g16_g1_jac_from_affine(&base, &vk->ic[i + 1]);
        g16_g1_mul_fr(&t, &base, &pub[i]);
        g16_g1_jac_add(&acc, &acc, &t);
    }
    g16_g1_affine p[4];
    g16_g2_affine q[4];
    g16_g1_affine_neg(&p[0], &proof->a);
    q[0] = proof->b;
    p[1] = vk->alpha1;
    q[1] = vk->beta2;
    g16_g1_jac_to_affine(&p[2], &acc);
    q[2] = vk->gamma2;
    p[3] = proof->c;
    q[3] = vk->delta2;
    if (!g16_pairing_check(p, q, 4)) return g16_fail(G16_ERR_UNSATISFIED, "proof rejected: the pairing check fails");
    return G16_OK;
}

uint64_t g16_sj_prove_bytes(const g16_sj_pk *pk)
{
    uint64_t n = pk->domain_size, v = pk->n_vars, big = n > v ? n : v;
    /* w (read by the caller), a, b, c and the quotient (4n), the coset factors (n) and
     * both twiddle tables (n/2 each); one MSM at a time: the largest one's scratch,
     * planned as G2 (the bigger buckets) */
    return sizeof(g16_fr) * (v + 6 * n) + g16_msm_scratch_bytes((size_t)big, 2);
}
