/* Montgomery's trick in radix-2^52 vectors, shared by the batch-affine loops of
 * the MSM (msm_batch_impl.h) and of the setup's fixed-base products
 * (groth16/fixed_base_v8.h). */
#ifndef G16_MSM_BATCH_V8_H
#define G16_MSM_BATCH_V8_H

#include "field/fp_ifma.h"

#ifdef G16_IFMA_BUILD
/* Montgomery's trick over G groups of 8 values (the vector batch loops of both
 * groups): RUN[g] = the running product of chain (lane, g mod 2), and invc[0..1]
 * the inverses of the two sets' totals.  Two sets of 8 chains (even and odd
 * groups), so that consecutive products of the running-product pass are
 * independent (one product alone runs at the multiply-add latency).  Products
 * that only feed further products skip the final subtraction (_lazy). */
static IFMA_TARGET void msm_v8_trick(v8 *RUN, v8 invc[2], const v8 *D, size_t G)
{
    v8 a2[2], b2[2], o2[2];
    if (G) RUN[0] = D[0];
    if (G > 1) RUN[1] = D[1];
    for (size_t g = 2; g < G; g += 2) {
        if (g + 1 < G) {
            a2[0] = RUN[g - 2], a2[1] = RUN[g - 1];
            b2[0] = D[g], b2[1] = D[g + 1];
            mont8_2_lazy(o2, a2, b2);
            RUN[g] = o2[0], RUN[g + 1] = o2[1];
        } else {
            mont8_1_lazy(&RUN[g], &RUN[g - 2], &D[g]);
        }
    }
    if (!G) return;
    /* invert the 16 chain totals together: the product of the two sets, its
     * 8 lanes by a scalar trick around one inversion, then each set's */
    size_t l0 = (G - 1) & ~(size_t)1, l1 = G > 1 ? ((G - 2) | 1) : 0;
    v8 tot8 = RUN[l0], invt;
    /* canonical: the scalar products below may be the portable ones (inputs < p) */
    if (G > 1) mont8_1(&tot8, &RUN[l0], &RUN[l1]);
    g16_fp tot[8], pre[8], iv[8], x;
    store8(tot, &tot8, 0xff, offsets(1));
    pre[0] = tot[0];
    for (int i = 1; i < 8; i++) g16_fp_mul(&pre[i], &pre[i - 1], &tot[i]);
    g16_fp_inv_vartime(&x, &pre[7]);
    for (int i = 7; i > 0; i--) {
        g16_fp_mul(&iv[i], &x, &pre[i - 1]);
        g16_fp_mul(&x, &x, &tot[i]);
    }
    iv[0] = x;
    load8(&invt, iv, 0xff, offsets(1));
    if (G > 1) {
        a2[0] = invt, a2[1] = invt;
        b2[0] = RUN[l1], b2[1] = RUN[l0];
        mont8_2_lazy(o2, a2, b2);
        invc[0] = o2[0], invc[1] = o2[1];
    } else {
        invc[0] = invt;
    }
}

/* The next pair of groups from the top (one of each chain set) in the vector
 * batch loops: their indices gg, lane masks k and negation masks neg, the
 * inverses of their entries of DEN in inv (the chain's inverse times its
 * previous running product), and the chain inverses moved past them.  Returns
 * 1 when there were two groups left (else both slots hold the same group). */
static IFMA_TARGET int msm_v8_next_pair(size_t *g, size_t gg[2], __mmask8 k[2], __mmask8 neg[2],
                                        v8 inv[2], v8 invc[2], const v8 *RUN, const v8 *DEN,
                                        const uint8_t *eneg, size_t m)
{
    v8 one, a2[2], b2[2], o2[2];
    v8_set1(&one, &g16_fp_one_mont);
    int two = *g >= 2;
    gg[0] = *g - 1, gg[1] = two ? *g - 2 : *g - 1;
    *g -= two ? 2 : 1;
    for (int v = 0; v < 2; v++) {
        size_t j0 = 8 * gg[v], c = m - j0 < 8 ? m - j0 : 8;
        k[v] = (__mmask8)((1u << c) - 1), neg[v] = 0;
        for (size_t i = 0; i < c; i++) neg[v] |= (__mmask8)(eneg[j0 + i] << i);
        a2[v] = invc[gg[v] & 1];
        b2[v] = gg[v] >= 2 ? RUN[gg[v] - 2] : one;
    }
    mont8_2_lazy(inv, a2, b2);
    b2[0] = DEN[gg[0]], b2[1] = DEN[gg[1]];
    mont8_2_lazy(o2, a2, b2);
    invc[gg[0] & 1] = o2[0];
    invc[gg[1] & 1] = o2[1];
    return two;
}
#endif
#endif
