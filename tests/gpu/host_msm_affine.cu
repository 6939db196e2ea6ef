// The batch-affine bucket accumulation of the device G1 MSM (msm_affine.cuh, opt-in
// G16_CUDA_MSM_AFFINE=1) run on the HOST: the per-thread halves of a round, the
// block trees and the one-block inversion of the block products are the kernels' own
// code (msm_affine_round.cuh), run here thread by thread and level by level in the
// kernels' order; the rounds around them mirror accumulate_buckets_affine's
// bookkeeping (pairs and outputs per bucket, their exclusive scans, odd points
// carried over).  Every bucket's result is
// compared with the CPU sum of its run: runs of 0 to 5,000 points (so pairs of one
// bucket span threads and blocks), repeated bases (doublings), a base and its
// negation (cancellations), and bases at infinity.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/cuda/msm_affine_round.cuh"

extern "C" {
#include "check.h"
#include "curve/curve.h"
#include "field/fp.h"
}

typedef g16_daff<g16_dfp> A;

// aff_invert's code for the AFF_THREADS threads of its one block: bi = 1 / bp over m
// values, g = ⌈m / AFF_THREADS⌉ a thread.
static void invert_block(g16_dfp *bi, const g16_dfp *bp, size_t m)
{
    static g16_dfp node[2 * AFF_THREADS], inv[2 * AFF_THREADS];
    const size_t g = (m + AFF_THREADS - 1) / AFF_THREADS;
    for (unsigned t = 0; t < AFF_THREADS; t++) {
        size_t lo = t * g < m ? t * g : m, hi = lo + g < m ? lo + g : m;
        node[AFF_THREADS + t] = aff_group_fwd(bi, bp, lo, hi);
    }
    for (unsigned half = AFF_THREADS / 2; half >= 1; half /= 2)
        for (unsigned t = 0; t < AFF_THREADS; t++) aff_tree_up(node, half, t);
    inv[1] = node[1].inv();
    for (unsigned half = 1; half < AFF_THREADS; half *= 2)
        for (unsigned t = 0; t < AFF_THREADS; t++) aff_tree_down(inv, node, half, t);
    for (unsigned t = 0; t < AFF_THREADS; t++) {
        size_t lo = t * g < m ? t * g : m, hi = lo + g < m ? lo + g : m;
        aff_group_bwd(bi, bp, lo, hi, inv[AFF_THREADS + t]);
    }
}

// One round of the accumulation over the runs (off, len); returns the pairs it added.
template <bool FIRST>
static uint32_t round_host(A *out, const A *in, const A *bases, const uint32_t *vals, uint32_t *off,
                           uint32_t *len, uint32_t nb)
{
    uint32_t *pair_off = (uint32_t *)calloc(nb + 1, 4), *out_off = (uint32_t *)calloc(nb + 1, 4);
    for (uint32_t b = 0; b < nb; b++) {
        pair_off[b + 1] = pair_off[b] + len[b] / 2;
        out_off[b + 1] = out_off[b] + (len[b] + 1) / 2;
    }
    const uint32_t P = pair_off[nb];
    if (P) {
        const size_t per_block = (size_t)AFF_G * AFF_THREADS, blocks = (P + per_block - 1) / per_block;
        static g16_dfp node[2 * AFF_THREADS], inv[2 * AFF_THREADS], part[AFF_THREADS][AFF_G];
        static uint32_t src[AFF_THREADS][AFF_G], dst[AFF_THREADS][AFF_G], cnt[AFF_THREADS];
        g16_dfp *bp = (g16_dfp *)malloc(blocks * sizeof *bp), *bi = (g16_dfp *)malloc(blocks * sizeof *bi);
        // kernel 1 (aff_products): each block's product of denominators
        for (size_t blk = 0; blk < blocks; blk++) {
            for (unsigned t = 0; t < AFF_THREADS; t++)
                aff_forward<g16_dfp, FIRST>(&node[AFF_THREADS + t], src[t], dst[t], part[t],
                                            (blk * AFF_THREADS + t) * AFF_G, P, in, bases, vals, off,
                                            pair_off, out_off, nb);
            for (unsigned half = AFF_THREADS / 2; half >= 1; half /= 2)
                for (unsigned t = 0; t < AFF_THREADS; t++) aff_tree_up(node, half, t);
            bp[blk] = node[1];
        }
        // kernel 2 (aff_invert, one block): bi = 1 / bp with one inversion
        invert_block(bi, bp, blocks);
        // kernel 3 (aff_sums): the forward half again, the tree down from bi, the sums
        for (size_t blk = 0; blk < blocks; blk++) {
            for (unsigned t = 0; t < AFF_THREADS; t++)
                cnt[t] = aff_forward<g16_dfp, FIRST>(&node[AFF_THREADS + t], src[t], dst[t], part[t],
                                                     (blk * AFF_THREADS + t) * AFF_G, P, in, bases, vals,
                                                     off, pair_off, out_off, nb);
            for (unsigned half = AFF_THREADS / 2; half >= 1; half /= 2)
                for (unsigned t = 0; t < AFF_THREADS; t++) aff_tree_up(node, half, t);
            inv[1] = bi[blk];
            for (unsigned half = 1; half < AFF_THREADS; half *= 2)
                for (unsigned t = 0; t < AFF_THREADS; t++) aff_tree_down(inv, node, half, t);
            for (unsigned t = 0; t < AFF_THREADS; t++)
                aff_backward<g16_dfp, FIRST>(out, inv[AFF_THREADS + t], cnt[t], src[t], dst[t], part[t], in,
                                             bases, vals);
        }
        free(bp), free(bi);
        for (uint32_t b = 0; b < nb; b++)
            if (len[b] & 1) aff_store(&out[out_off[b] + len[b] / 2],
                                      aff_load<g16_dfp, FIRST>(in, bases, vals, off[b] + len[b] - 1));
        for (uint32_t b = 0; b < nb; b++) off[b] = out_off[b], len[b] = (len[b] + 1) / 2;
    }
    free(pair_off), free(out_off);
    return P;
}

int main(void)
{
    g16_rng rng;
    g16_rng_seed(&rng, g16_test_seed(11));
    // bases: 97 multiples of G, a few at infinity
    const uint32_t m = 97;
    g16_g1_affine *hb = (g16_g1_affine *)malloc(m * sizeof *hb);
    g16_g1_jac g, acc, *tj = (g16_g1_jac *)malloc(m * sizeof *tj);
    g16_g1_jac_generator(&g);
    uint64_t k0[4] = {g16_rng_u64(&rng), g16_rng_u64(&rng), 0, 0};
    g16_g1_mul(&acc, &g, k0);
    for (uint32_t i = 0; i < m; i++) tj[i] = acc, g16_g1_jac_add(&acc, &acc, &g);
    g16_g1_jac_batch_to_affine(hb, tj, m);
    for (uint32_t i = 0; i < m; i += 31) g16_g1_affine_set_infinity(&hb[i]);
    // buckets: lengths 0..40, and three long runs across threads and blocks
    const uint32_t nb = 60;
    uint32_t len0[nb], start[nb], total = 0;
    for (uint32_t b = 0; b < nb; b++) {
        len0[b] = (uint32_t)(g16_rng_u64(&rng) % 41);
        if (b == 7) len0[b] = 2100;
        if (b == 8) len0[b] = 5000;
        if (b == 30) len0[b] = 33;
        start[b] = total;
        total += len0[b];
    }
    uint32_t *vals = (uint32_t *)malloc(total * 4);
    for (uint32_t b = 0; b < nb; b++)
        for (uint32_t i = 0; i < len0[b]; i++) {
            uint32_t e = start[b] + i, r = (uint32_t)g16_rng_u64(&rng);
            vals[e] = (r % m) | (r & 0x80000000u);
            // adjacent equal (a doubling) or opposite (a cancellation) in some runs
            if (i % 2 == 1 && b % 5 == 1) vals[e] = vals[e - 1];
            if (i % 2 == 1 && b % 5 == 2) vals[e] = vals[e - 1] ^ 0x80000000u;
        }
    // the CPU's sums
    g16_g1_jac *want = (g16_g1_jac *)malloc(nb * sizeof *want);
    for (uint32_t b = 0; b < nb; b++) {
        g16_g1_jac_set_infinity(&want[b]);
        for (uint32_t i = 0; i < len0[b]; i++) {
            uint32_t v = vals[start[b] + i];
            g16_g1_affine q = hb[v & 0x7fffffffu];
            if (v >> 31) g16_g1_affine_neg(&q, &q);
            g16_g1_jac_add_affine(&want[b], &want[b], &q);
        }
    }
    // the rounds
    A *bases = (A *)hb, *bufs[2];
    bufs[0] = (A *)malloc((total / 2 + nb + 1) * sizeof(A));
    bufs[1] = (A *)malloc((total / 4 + nb + 1) * sizeof(A));
    uint32_t off[nb], len[nb];
    memcpy(off, start, sizeof off);
    memcpy(len, len0, sizeof len);
    const A *in = NULL;
    int r = 0;
    for (;; r++) {
        A *out = bufs[r & 1];
        uint32_t P = r == 0 ? round_host<true>(out, in, bases, vals, off, len, nb)
                            : round_host<false>(out, in, bases, vals, off, len, nb);
        if (!P) break;
        in = out;
        CHECK(r < 40, "rounds do not converge");
        if (r >= 40) break;
    }
    CHECK(r == 13, "rounds: %d (the 5,000-point run needs 13)", r);
    int bad = 0;
    for (uint32_t b = 0; b < nb; b++) {
        CHECK(len[b] == (len0[b] ? 1u : 0u), "bucket %u: %u points left", b, len[b]);
        A got = {g16_dfp::zero(), g16_dfp::zero()};
        if (len[b]) got = r == 0 ? aff_load<g16_dfp, true>(in, bases, vals, off[b]) : in[off[b]];
        g16_g1_affine ga;
        memcpy(&ga, &got, sizeof ga);
        int ok = g16_g1_jac_eq_affine(&want[b], &ga);
        bad += !ok;
        CHECK(ok, "bucket %u (%u points): batch-affine sum differs from the CPU's", b, len0[b]);
    }
    printf("batch-affine rounds: %d rounds, %u buckets, %u points, %d wrong\n", r, nb, total, bad);
    // the one-block inversion with several values a thread (g > 1), as for rounds of
    // more than AFF_THREADS blocks: every value's inverse, against single inversions
    {
        const size_t mv = 1000, g = (mv + AFF_THREADS - 1) / AFF_THREADS;
        g16_dfp *v = (g16_dfp *)malloc(mv * sizeof *v), *iv = (g16_dfp *)malloc(mv * sizeof *iv);
        for (size_t j = 0; j < mv; j++) {
            g16_fp x;
            uint64_t l[6];
            for (int i = 0; i < 6; i++) l[i] = g16_rng_u64(&rng);
            l[5] &= 0x0fffffffffffffffULL;
            g16_fp_from_canonical(&x, l);
            memcpy(&v[j], &x, sizeof x);
        }
        invert_block(iv, v, mv);
        size_t wrong = 0;
        for (size_t j = 0; j < mv; j++) wrong += !(iv[j] * v[j]).is_one();
        CHECK(wrong == 0, "block inversion of %zu values (%zu a thread): %zu wrong", mv, g, wrong);
        free(v), free(iv);
    }
    free(hb), free(tj), free(vals), free(want), free(bufs[0]), free(bufs[1]);
    return g16_test_finish("host_msm_affine");
}
