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

g16_status g16_h_combine(g16_fr *wa, const g16_fr *wb, const g16_fr *wc, unsigned log_n)
{
    const g16_domain *d;
    G16_TRY(g16_domain_get(&d, (int)log_n));
    size_t n = (size_t)1 << log_n;
    /* Z on the coset: (7ω^i)^N − 1 = 7^N − 1 for every i. */
    g16_fr seven, one, zinv;
    g16_fr_from_u64(&seven, 7);
    g16_fr_set_one(&one);
    uint64_t ex[1] = {n};
    g16_fr_pow(&zinv, &seven, ex, 1);
    g16_fr_sub(&zinv, &zinv, &one);
    g16_fr_inv(&zinv, &zinv);
    g16_ntt_pointwise(wa, wb, wc, &zinv, n);
    g16_ntt_coset_inverse_rn(d, wa);
    return G16_OK;
}

void g16_h_mul(g16_fr *wa, const g16_fr *wb, unsigned log_n)
{
    g16_ntt_pointwise(wa, wb, NULL, NULL, (size_t)1 << log_n);
}

g16_status g16_h_coeffs(g16_fr *wa, g16_fr *wb, g16_fr *wc, unsigned log_n)
{
    G16_TRY(g16_h_to_coset(wa, log_n));
    G16_TRY(g16_h_to_coset(wb, log_n));
    G16_TRY(g16_h_to_coset(wc, log_n));
    return g16_h_combine(wa, wb, wc, log_n);
}
