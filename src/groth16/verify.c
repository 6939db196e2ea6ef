/* Verification: e(A,B) = e(α,β)·e(Σ x_i·IC_i, γ)·e(C,δ), checked as one
 * multi-pairing e(−A,B)·e(α,β)·e(acc,γ)·e(C,δ) = 1 with β, γ, δ prepared. */
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include "common/error.h"
#include "common/fault.h"
#include "curve/curve.h"
#include "groth16/groth16.h"
#include "msm/msm.h"

typedef struct {
    g16_g1_affine a, c;
    g16_g2_affine b;
} proof_pts;

static g16_status decode_proof(proof_pts *p, const uint8_t *bytes, size_t index)
{
    g16_status st;
    if ((st = g16_g1_decode(&p->a, bytes, 48, 0)))
        return g16_fail_ctx(st, "proof %zu: A (bytes 0..47)", index);
    if ((st = g16_g2_decode(&p->b, bytes + 48, 96, 0)))
        return g16_fail_ctx(st, "proof %zu: B (bytes 48..143)", index);
    if ((st = g16_g1_decode(&p->c, bytes + 144, 48, 0)))
        return g16_fail_ctx(st, "proof %zu: C (bytes 144..191)", index);
    return G16_OK;
}

/* The prepared β₂, γ₂, δ₂: the vk's own when it has them, else made here. */
static g16_status get_prepared(const g16_vk *vk, g16_g2_prepared **own, const g16_g2_prepared **out)
{
    *own = NULL;
    if (vk->prep) {
        *out = vk->prep;
        return G16_OK;
    }
    g16_g2_prepared *p = g16_malloc(3 * sizeof *p);
    if (!p) return g16_fail(G16_ERR_NOMEM, "verify: out of memory");
    g16_g2_prepare(&p[0], &vk->beta_g2);
    g16_g2_prepare(&p[1], &vk->gamma_g2);
    g16_g2_prepare(&p[2], &vk->delta_g2);
    *own = p;
    *out = p;
    return G16_OK;
}

static g16_status parse_inputs(g16_fr *x, const uint8_t *inputs, size_t n, size_t proof_index)
{
    for (size_t i = 0; i < n; i++)
        if (g16_fr_from_be(&x[i], inputs + 32 * i) != G16_OK)
            return g16_fail(G16_ERR_ARG, "proof %zu: public input %zu is not below the group order",
                            proof_index, i);
    return G16_OK;
}

static g16_status check(const g16_vk *vk, const g16_g1_affine *p, const g16_g2_affine *q,
                        size_t n, const g16_g1_affine acc_c_alpha[3])
{
    g16_g2_prepared *own;
    const g16_g2_prepared *prep = NULL;
    G16_TRY(get_prepared(vk, &own, &prep));
    const g16_g2_prepared *qp[3] = {&prep[0], &prep[1], &prep[2]};
    /* pp order matches qp: α with β, acc with γ, C with δ */
    int ok = g16_pairing_check_mixed(p, q, n, acc_c_alpha, qp, 3);
    free(own);
    return ok ? G16_OK : g16_fail(G16_ERR_UNSATISFIED, "proof does not verify");
}

g16_status g16_verify(const g16_vk *vk, const uint8_t proof[G16_PROOF_BYTES],
                      const uint8_t *inputs, size_t n_inputs)
{
    return g16_verify_batch(vk, proof, 1, inputs, n_inputs);
}

g16_status g16_verify_batch(const g16_vk *vk, const uint8_t *proofs, size_t k,
                            const uint8_t *inputs, size_t n_inputs)
{
    if (!vk || (k && !proofs) || (k && n_inputs && !inputs))
        return g16_fail(G16_ERR_ARG, "verify: missing vk, proof or inputs");
    if (vk->n_ic != n_inputs + 1)
        return g16_fail(G16_ERR_ARG, "verify: %zu public inputs given, the vk expects %zu",
                        n_inputs, vk->n_ic ? vk->n_ic - 1 : 0);
    if (k == 0) return G16_OK;
    g16_status st = G16_OK;
    proof_pts *pp = g16_malloc(k * sizeof *pp);
    g16_fr *x = g16_malloc((n_inputs + 1) * sizeof *x);
    g16_fr *sum = g16_calloc(n_inputs + 1, sizeof *sum); /* Σ_k ρ_k·x_{k,i} */
    g16_fr *rho = g16_malloc(k * sizeof *rho);
    g16_g1_affine *negA = g16_malloc(k * sizeof *negA);
    g16_g2_affine *B = g16_malloc(k * sizeof *B);
    g16_g1_affine *Cs = g16_malloc(k * sizeof *Cs);
    if (!pp || !x || !sum || !rho || !negA || !B || !Cs) {
        st = g16_fail(G16_ERR_NOMEM, "verify: out of memory for %zu proofs", k);
        goto done;
    }
    for (size_t j = 0; j < k; j++) {
        if ((st = decode_proof(&pp[j], proofs + (size_t)G16_PROOF_BYTES * j, j))) goto done;
        if ((st = parse_inputs(x + 1, inputs + 32 * n_inputs * j, n_inputs, j))) goto done;
        x[0] = g16_fr_one_mont;
        if (k == 1) {
            rho[j] = g16_fr_one_mont; /* a single proof needs no combination */
        } else {
            uint8_t rb[16];
            size_t got = 0;
            while (got < sizeof rb) {
                ssize_t n = getrandom(rb + got, sizeof rb - got, 0);
                if (n < 0) {
                    st = g16_fail(G16_ERR_IO, "verify: getrandom failed");
                    goto done;
                }
                got += (size_t)n;
            }
            g16_fr_from_be_reduce(&rho[j], rb, sizeof rb);
        }
        for (size_t i = 0; i <= n_inputs; i++) {
            g16_fr t;
            g16_fr_mul(&t, &rho[j], &x[i]);
            g16_fr_add(&sum[i], &sum[i], &t);
        }
        g16_g1_jac ja, ra;
        uint64_t l[4];
        g16_fr_to_canonical(l, &rho[j]);
        g16_g1_jac_from_affine(&ja, &pp[j].a);
        g16_g1_mul(&ra, &ja, l);
        g16_g1_jac_neg(&ra, &ra);
        g16_g1_jac_to_affine(&negA[j], &ra);
        B[j] = pp[j].b;
        Cs[j] = pp[j].c;
    }
    {
        g16_g1_jac acc, csum, asum, ja;
        if ((st = g16_msm_g1(&acc, vk->ic, vk->n_ic, sum, n_inputs + 1, NULL))) goto done;
        if ((st = g16_msm_g1(&csum, Cs, k, rho, k, NULL))) goto done;
        g16_fr rs;
        g16_fr_set_zero(&rs);
        for (size_t j = 0; j < k; j++) g16_fr_add(&rs, &rs, &rho[j]);
        uint64_t l[4];
        g16_fr_to_canonical(l, &rs);
        g16_g1_jac_from_affine(&ja, &vk->alpha_g1);
        g16_g1_mul(&asum, &ja, l);
        g16_g1_affine three[3];
        g16_g1_jac_to_affine(&three[0], &asum);
        g16_g1_jac_to_affine(&three[1], &acc);
        g16_g1_jac_to_affine(&three[2], &csum);
        st = check(vk, negA, B, k, three);
        if (st && k > 1) st = g16_fail(G16_ERR_UNSATISFIED, "batch of %zu proofs does not verify", k);
    }
done:
    free(pp);
    free(x);
    free(sum);
    free(rho);
    free(negA);
    free(B);
    free(Cs);
    return st;
}
