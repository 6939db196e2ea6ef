// The host side of level 0 with affine pair sums (msm_pairs.cuh), for
// accumulate_buckets (msm_impl.cuh, which includes this after its helpers).
#ifndef G16_BACKEND_CUDA_MSM_PAIRS_RUN_CUH
#define G16_BACKEND_CUDA_MSM_PAIRS_RUN_CUH

#include "msm_affine.cuh"
#include "msm_pairs.cuh"

// Level 0 over `chunks` flat chunks of K (even) entries into pt, in slices whose
// suffix products fit pair_mb MiB: per slice the suffixes, one inversion for all its
// blocks, the sums.  G16_ERR_NOMEM when not even one block's slice fits (the caller
// then runs the plain flat level 0).
template <class F>
static g16_status flat_pairs_run(g16_cuda_ctx *ctx, g16_dxyzz<F> *pt, const uint32_t *of,
                                 const uint32_t *cs, const uint32_t *keys, const uint32_t *vals,
                                 const g16_daff<F> *bases, size_t total, uint32_t nb, uint32_t K,
                                 size_t chunks, unsigned pair_mb, unsigned lb)
{
    const size_t row = (size_t)(K / 2) * sizeof(F);  // a chunk's suffix products
    size_t slice = ((size_t)pair_mb << 20) / row;
    slice -= slice % AFF_THREADS;
    if (slice < AFF_THREADS) slice = AFF_THREADS;
    if (slice > chunks) slice = chunks;
    void *pre = NULL, *bpv = NULL, *biv = NULL;
    const size_t max_blocks = (slice + AFF_THREADS - 1) / AFF_THREADS;
    for (;;) {  // the card may not have room for the largest slice: halve it
        g16_status st = g16_cuda_scratch(ctx, &pre, SLOT_MSM_PAIRPRE, slice * row);
        if (st == G16_OK) break;
        if (st != G16_ERR_NOMEM || slice <= AFF_THREADS) return st;
        g16_clear_error();
        slice = slice / 2 - (slice / 2) % AFF_THREADS;
        if (slice < AFF_THREADS) slice = AFF_THREADS;
    }
    G16_TRY(g16_cuda_scratch(ctx, &bpv, SLOT_MSM_AFFBP, max_blocks * sizeof(F)));
    G16_TRY(g16_cuda_scratch(ctx, &biv, SLOT_MSM_AFFBI, max_blocks * sizeof(F)));
    F *bp = (F *)bpv, *bi = (F *)biv;
    for (size_t t0 = 0; t0 < chunks; t0 += slice) {
        const uint32_t n = (uint32_t)(chunks - t0 < slice ? chunks - t0 : slice);
        const unsigned blocks = grid_for(n, AFF_THREADS);
        pair_suffix<F><<<blocks, AFF_THREADS, 0, ctx->stream>>>(bp, (F *)pre, keys, vals, bases, total, nb, K,
                                                                (uint32_t)t0, n);
        CK_LAUNCH("pair_suffix");
        aff_invert<F><<<1, AFF_THREADS, 0, ctx->stream>>>(bi, bp, blocks);
        CK_LAUNCH("aff_invert");
        if (lb > 1)
            flat_pair_pieces<F, 3><<<blocks, AFF_THREADS, 0, ctx->stream>>>(
                pt, of, cs, keys, vals, bases, total, nb, K, (uint32_t)t0, n, (const F *)pre, bi);
        else
            flat_pair_pieces<F, 1><<<blocks, AFF_THREADS, 0, ctx->stream>>>(
                pt, of, cs, keys, vals, bases, total, nb, K, (uint32_t)t0, n, (const F *)pre, bi);
        CK_LAUNCH("flat_pair_pieces");
    }
    return G16_OK;
}

#endif
