/* The H step of the prover: h = (a·b − c)/Z from the evaluations of a, b, c on
 * the size-N subgroup, computed on the coset 7·H where Z = 7^N − 1 is a nonzero
 * constant (bellperson's ifft → coset_fft → mul/sub → divide_by_z_on_coset →
 * icoset_fft), on the NTT layer's domains and transforms.  Split into steps
 * (rather than g16_ntt_h_step on three buffers) so the prover can release each
 * of a, b, c as soon as it is loaded and hold two N-sized buffers, not three. */
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "common/pool.h"
#include "groth16/groth16.h"
#include "ntt/ntt.h"

g16_status g16_h_to_coset(g16_fr *w, unsigned log_n)
{
    const g16_domain *d;
    G16_TRY(g16_domain_get(&d, (int)log_n));
    /* values natural → coefficients natural → coset values bit-reversed; the
     * pointwise steps do not care about order and the inverse takes it back */
    g16_ntt_bit_reverse(d, w);
    g16_ntt_inverse_rn(d, w);
    g16_ntt_coset_forward_nr(d, w);
    return G16_OK;
}

typedef struct {
    g16_fr *wa;
    const g16_fr *wb, *wc;
    g16_fr zinv;
} comb_ctx;

static void do_combine(void *vctx, size_t b, size_t e, unsigned worker)
{
    comb_ctx *c = vctx;
    for (size_t i = b; i < e; i++) {
        g16_fr t = c->wa[i];
        if (c->wb) g16_fr_mul(&t, &t, &c->wb[i]);
        g16_fr_sub(&t, &t, &c->wc[i]);
        g16_fr_mul(&c->wa[i], &t, &c->zinv);
    }
}

g16_status g16_h_combine(g16_fr *wa, const g16_fr *wb, const g16_fr *wc, unsigned log_n)
{
    const g16_domain *d;
    G16_TRY(g16_domain_get(&d, (int)log_n));
    size_t n = (size_t)1 << log_n;
    comb_ctx cc = {wa, wb, wc, {{0}}};
    /* Z on the coset: (7ω^i)^N − 1 = 7^N − 1 for every i. */
    g16_fr seven, one;
    g16_fr_from_u64(&seven, 7);
    g16_fr_set_one(&one);
    uint64_t ex[1] = {n};
    g16_fr_pow(&cc.zinv, &seven, ex, 1);
    g16_fr_sub(&cc.zinv, &cc.zinv, &one);
    g16_fr_inv(&cc.zinv, &cc.zinv);
    g16_parallel_for(n, 4096, do_combine, &cc);
    g16_ntt_coset_inverse_rn(d, wa);
    return G16_OK;
}

typedef struct {
    g16_fr *wa;
    const g16_fr *wb;
} mul_ctx;

static void do_mul(void *vctx, size_t b, size_t e, unsigned worker)
{
    mul_ctx *c = vctx;
    for (size_t i = b; i < e; i++) g16_fr_mul(&c->wa[i], &c->wa[i], &c->wb[i]);
}

void g16_h_mul(g16_fr *wa, const g16_fr *wb, unsigned log_n)
{
    mul_ctx mc = {wa, wb};
    g16_parallel_for((size_t)1 << log_n, 4096, do_mul, &mc);
}

g16_status g16_h_coeffs(g16_fr *wa, g16_fr *wb, g16_fr *wc, unsigned log_n)
{
    G16_TRY(g16_h_to_coset(wa, log_n));
    G16_TRY(g16_h_to_coset(wb, log_n));
    G16_TRY(g16_h_to_coset(wc, log_n));
    return g16_h_combine(wa, wb, wc, log_n);
}
