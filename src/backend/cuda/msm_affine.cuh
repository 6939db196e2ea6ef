// Batch-affine bucket accumulation for the G1 MSM (opt-in: G16_CUDA_MSM_AFFINE=1;
// written in session 4; its per-thread code and block step run on the host in
// tests/gpu/host_msm_affine.cu against the CPU; run on the card in session 5:
// right, but slower than XYZZ, 148.7 against 129 ms at 2^24; docs/cuda.md, Left).
//
// Why: the XYZZ accumulation costs 10 products per mixed addition and already runs
// at about the card's multiplication rate; an affine addition costs 3 (λ, λ², the
// new y) plus 3 for Montgomery's trick, when the inversion is shared by enough
// additions.  Here one inversion serves a whole round.
//
// How: rounds.  Each bucket's run of points is halved per round: pairs (2k, 2k+1)
// of the run are added, an odd last point is carried over, until every run has at
// most one point.  Round 0 reads the sorted values (base index | sign) straight from
// the bases; later rounds read the previous round's affine points.  Thread t takes
// pairs [16t, 16t + 16) of the round's pair list (pair offsets per bucket: an
// exclusive scan; a thread's pairs may span buckets).  Three kernels a round:
// aff_products (each block's product of its pairs' denominators, through a tree in
// shared memory), aff_invert (one block: the inverses of all block products with
// ONE Fermat inversion), aff_sums (the denominators again, the block's tree walked
// down from its inverse to each thread's, and each thread's pairs walked back,
// writing the sums).  An inversion per block was the first design and was dropped
// before it ran: thread 0's serial Fermat chain (≈ 570 products at one lane of a
// warp) would have cost about twice the block's useful work in issue slots.
// Special cases (doubling, P + (−P), infinity) come from g16_daff_add_den /
// g16_daff_add_fin (curve.cuh).
#ifndef G16_BACKEND_CUDA_MSM_AFFINE_CUH
#define G16_BACKEND_CUDA_MSM_AFFINE_CUH

#include "msm_affine_round.cuh"

// The round's first kernel: block blk's product of denominators into bp[blk].
template <class F, bool FIRST>
__global__ void __launch_bounds__(AFF_THREADS)
    aff_products(F *bp, const g16_daff<F> *in, const g16_daff<F> *bases, const uint32_t *vals,
                 const uint32_t *cur_off, const uint32_t *pair_off, const uint32_t *out_off, uint32_t nb,
                 uint32_t P)
{
    __shared__ F node[2 * AFF_THREADS];
    const size_t p0 = ((size_t)blockIdx.x * AFF_THREADS + threadIdx.x) * AFF_G;
    uint32_t src[AFF_G], dst[AFF_G];
    F part[AFF_G];
    aff_forward<F, FIRST>(&node[AFF_THREADS + threadIdx.x], src, dst, part, p0, P, in, bases, vals,
                          cur_off, pair_off, out_off, nb);
    for (unsigned half = AFF_THREADS / 2; half >= 1; half /= 2) {
        __syncthreads();
        aff_tree_up(node, half, threadIdx.x);
    }
    if (threadIdx.x == 0) bp[blockIdx.x] = node[1];
}

// The second: bi[blk] = 1 / bp[blk] for the m blocks, one inversion in all (one block).
template <class F>
__global__ void __launch_bounds__(AFF_THREADS) aff_invert(F *bi, const F *bp, uint32_t m)
{
    __shared__ F node[2 * AFF_THREADS], inv[2 * AFF_THREADS];
    const size_t g = ((size_t)m + AFF_THREADS - 1) / AFF_THREADS, lo = threadIdx.x * g;
    const size_t hi = lo + g < m ? lo + g : m, l = lo < m ? lo : m;
    node[AFF_THREADS + threadIdx.x] = aff_group_fwd(bi, bp, l, hi);
    for (unsigned half = AFF_THREADS / 2; half >= 1; half /= 2) {
        __syncthreads();
        aff_tree_up(node, half, threadIdx.x);
    }
    __syncthreads();
    if (threadIdx.x == 0) inv[1] = node[1].inv();  // the round's one inversion
    for (unsigned half = 1; half < AFF_THREADS; half *= 2) {
        __syncthreads();
        aff_tree_down(inv, node, half, threadIdx.x);
    }
    __syncthreads();
    aff_group_bwd(bi, bp, l, hi, inv[AFF_THREADS + threadIdx.x]);
}

// The third: the forward half again (cheaper than keeping its products in memory),
// the block's tree down from bi[blk], and the backward half writing the sums.
template <class F, bool FIRST>
__global__ void __launch_bounds__(AFF_THREADS)
    aff_sums(g16_daff<F> *out, const F *bi, const g16_daff<F> *in, const g16_daff<F> *bases,
             const uint32_t *vals, const uint32_t *cur_off, const uint32_t *pair_off,
             const uint32_t *out_off, uint32_t nb, uint32_t P)
{
    __shared__ F node[2 * AFF_THREADS], inv[2 * AFF_THREADS];
    const size_t p0 = ((size_t)blockIdx.x * AFF_THREADS + threadIdx.x) * AFF_G;
    uint32_t src[AFF_G], dst[AFF_G];
    F part[AFF_G];
    const uint32_t cnt = aff_forward<F, FIRST>(&node[AFF_THREADS + threadIdx.x], src, dst, part, p0, P,
                                               in, bases, vals, cur_off, pair_off, out_off, nb);
    for (unsigned half = AFF_THREADS / 2; half >= 1; half /= 2) {
        __syncthreads();
        aff_tree_up(node, half, threadIdx.x);
    }
    if (threadIdx.x == 0) inv[1] = bi[blockIdx.x];
    for (unsigned half = 1; half < AFF_THREADS; half *= 2) {
        __syncthreads();
        aff_tree_down(inv, node, half, threadIdx.x);
    }
    __syncthreads();
    aff_backward<F, FIRST>(out, inv[AFF_THREADS + threadIdx.x], cnt, src, dst, part, in, bases, vals);
}

// Per bucket: pairs and outputs of this round (entry nb = 0 for the scans), and the
// odd last element carried over.
static __global__ void aff_counts(uint32_t *npairs, uint32_t *nout, const uint32_t *len, uint32_t nb)
{
    uint32_t b = blockIdx.x * blockDim.x + threadIdx.x;
    if (b > nb) return;
    const uint32_t l = b < nb ? len[b] : 0;
    npairs[b] = l / 2;
    nout[b] = (l + 1) / 2;
}
template <class F, bool FIRST>
__global__ void aff_odd(g16_daff<F> *out, const g16_daff<F> *in, const g16_daff<F> *bases,
                        const uint32_t *vals, const uint32_t *cur_off, const uint32_t *len,
                        const uint32_t *out_off, uint32_t nb)
{
    uint32_t b = blockIdx.x * blockDim.x + threadIdx.x;
    if (b >= nb || !(len[b] & 1)) return;
    aff_store(&out[out_off[b] + len[b] / 2], aff_load<F, FIRST>(in, bases, vals, cur_off[b] + len[b] - 1));
}
// Round 0's runs from the bucket bounds.
static __global__ void aff_start(uint32_t *off, uint32_t *len, const uint32_t *bstart,
                                 const uint32_t *bend, uint32_t nb)
{
    uint32_t b = blockIdx.x * blockDim.x + threadIdx.x;
    if (b >= nb) return;
    off[b] = bstart[b];
    len[b] = bend[b] - bstart[b];
}
// buckets[b] = the run's one point (or infinity).
template <class F, bool FIRST>
__global__ void aff_finish(g16_dxyzz<F> *buckets, const g16_daff<F> *in, const g16_daff<F> *bases,
                           const uint32_t *vals, const uint32_t *cur_off, const uint32_t *len, uint32_t nb)
{
    uint32_t b = blockIdx.x * blockDim.x + threadIdx.x;
    if (b >= nb) return;
    g16_dxyzz<F> r = g16_dxyzz<F>::inf();
    if (len[b]) r = g16_dxyzz<F>::from_affine(aff_load<F, FIRST>(in, bases, vals, cur_off[b]));
    st_vec(&buckets[b], r);
}

// accumulate_buckets' contract (msm_impl.cuh) by affine rounds.  Device memory: two
// point arrays of ≈ total/2 and total/4 points (PART0, PART1) and five per-bucket
// arrays.  tmp: CUB scratch for a scan over nb + 1 entries.
template <class F>
static g16_status accumulate_buckets_affine(g16_cuda_ctx *ctx, g16_dxyzz<F> *buckets,
                                            const g16_daff<F> *bases, const uint32_t *vals,
                                            const uint32_t *bstart, const uint32_t *bend, uint32_t nb,
                                            size_t total, void *tmp, size_t tmp_bytes)
{
    typedef g16_daff<F> A;
    void *pa, *pb, *u[5], *bpv, *biv;
    // Round r's outputs number at most total/2^(r+1) + nb: even rounds write PART0,
    // odd rounds PART1.
    G16_TRY(g16_cuda_scratch(ctx, &pa, SLOT_MSM_PART0, (total / 2 + nb + 1) * sizeof(A)));
    G16_TRY(g16_cuda_scratch(ctx, &pb, SLOT_MSM_PART1, (total / 4 + nb + 1) * sizeof(A)));
    const int slots[5] = {SLOT_MSM_ITEMS, SLOT_MSM_OFF0, SLOT_MSM_OFF1, SLOT_MSM_AFF0, SLOT_MSM_AFF1};
    for (int i = 0; i < 5; i++) G16_TRY(g16_cuda_scratch(ctx, &u[i], slots[i], ((size_t)nb + 1) * 4));
    uint32_t *off = (uint32_t *)u[0], *len = (uint32_t *)u[1], *npairs = (uint32_t *)u[2],
             *pair_off = (uint32_t *)u[3], *out_off = (uint32_t *)u[4];
    uint32_t *hv = NULL;
    G16_TRY(g16_cuda_pinned(ctx, (void **)&hv, sizeof *hv));
    const unsigned gb = grid_for(nb, 256), gb1 = grid_for((size_t)nb + 1, 256);
    aff_start<<<gb, 256, 0, ctx->stream>>>(off, len, bstart, bend, nb);
    CK_LAUNCH("aff_start");
    const A *in = NULL;
    A *outs[2] = {(A *)pa, (A *)pb};
    for (int r = 0;; r++) {
        // len becomes this round's outputs per bucket once the pairs are placed
        aff_counts<<<gb1, 256, 0, ctx->stream>>>(npairs, out_off, len, nb);
        CK_LAUNCH("aff_counts");
        CK(cub::DeviceScan::ExclusiveSum(tmp, tmp_bytes, npairs, pair_off, (int)nb + 1, ctx->stream));
        CK(cudaMemcpyAsync(hv, pair_off + nb, sizeof *hv, cudaMemcpyDeviceToHost, ctx->stream));
        G16_TRY(g16_cuda_sync(ctx));
        const uint32_t P = *hv;
        if (P == 0) {  // every run holds at most one point
            if (r == 0) aff_finish<F, true><<<gb, 256, 0, ctx->stream>>>(buckets, in, bases, vals, off, len, nb);
            else aff_finish<F, false><<<gb, 256, 0, ctx->stream>>>(buckets, in, bases, vals, off, len, nb);
            CK_LAUNCH("aff_finish");
            return G16_OK;
        }
        if (r > 64) return g16_fail(G16_ERR_BACKEND, "msm (affine): bucket rounds do not converge");
        // out_off holds the outputs per bucket: keep them as next round's lengths
        // (npairs is free again after the scan) and scan them into offsets.
        CK(cudaMemcpyAsync(npairs, out_off, ((size_t)nb + 1) * 4, cudaMemcpyDeviceToDevice, ctx->stream));
        CK(cub::DeviceScan::ExclusiveSum(tmp, tmp_bytes, npairs, out_off, (int)nb + 1, ctx->stream));
        A *out = outs[r & 1];
        const unsigned blocks = (unsigned)(((size_t)P + (size_t)AFF_G * AFF_THREADS - 1) / ((size_t)AFF_G * AFF_THREADS));
        G16_TRY(g16_cuda_scratch(ctx, &bpv, SLOT_MSM_AFFBP, (size_t)blocks * sizeof(F)));
        G16_TRY(g16_cuda_scratch(ctx, &biv, SLOT_MSM_AFFBI, (size_t)blocks * sizeof(F)));
        F *bp = (F *)bpv, *bi = (F *)biv;
        if (r == 0)
            aff_products<F, true><<<blocks, AFF_THREADS, 0, ctx->stream>>>(bp, in, bases, vals, off, pair_off, out_off, nb, P);
        else
            aff_products<F, false><<<blocks, AFF_THREADS, 0, ctx->stream>>>(bp, in, bases, vals, off, pair_off, out_off, nb, P);
        CK_LAUNCH("aff_products");
        aff_invert<F><<<1, AFF_THREADS, 0, ctx->stream>>>(bi, bp, blocks);
        CK_LAUNCH("aff_invert");
        if (r == 0) {
            aff_sums<F, true><<<blocks, AFF_THREADS, 0, ctx->stream>>>(out, bi, in, bases, vals, off, pair_off, out_off, nb, P);
            CK_LAUNCH("aff_sums");
            aff_odd<F, true><<<gb, 256, 0, ctx->stream>>>(out, in, bases, vals, off, len, out_off, nb);
        } else {
            aff_sums<F, false><<<blocks, AFF_THREADS, 0, ctx->stream>>>(out, bi, in, bases, vals, off, pair_off, out_off, nb, P);
            CK_LAUNCH("aff_sums");
            aff_odd<F, false><<<gb, 256, 0, ctx->stream>>>(out, in, bases, vals, off, len, out_off, nb);
        }
        CK_LAUNCH("aff_odd");
        // next round: runs at out_off with npairs' copy of the output counts as lengths
        uint32_t *t = off;
        off = out_off, out_off = t;
        t = len;
        len = npairs, npairs = t;
        in = out;
    }
}

#endif
