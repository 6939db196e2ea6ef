// The sum of the bases whose scalar is 1 (the digits give those no pairs: a 1 would
// cost W window additions where the sum costs one), as partials a block for
// block_sum (msm_impl.cuh).
#ifndef G16_BACKEND_CUDA_MSM_ONES_CUH
#define G16_BACKEND_CUDA_MSM_ONES_CUH

#include "msm_flat.cuh"
#include "msm_reduce.cuh"

// Threads a block of the 1-scalar sum.
#define MSM_ONES_BLOCK 128u

// The 1-scalar sum: each thread adds a strided share of the bases whose scalar is 1,
// then the block adds up its threads' sums: one partial per block.  Run on the
// inlined field type (hot_field) and sized to fill the card: with calls and 16 K
// (G1) / 8 K (G2) threads, i.e. 2–4 warps an SM, a 2^26 proof's 1-scalar sums took
// 65 ms of kernels, and the single-block sum of their 16 K partials 1–3.5 ms an MSM
// (ncu, session 7).
template <class F>
__global__ void __launch_bounds__(MSM_ONES_BLOCK, 1)
    ones_partial(g16_dxyzz<F> *part, const g16_daff<F> *bases, const uint32_t *ones,
                 const uint32_t *ones_count)
{
    extern __shared__ uint4 smem_raw[];
    g16_dxyzz<F> *sh = (g16_dxyzz<F> *)smem_raw;
    uint32_t t = blockIdx.x * blockDim.x + threadIdx.x, stride = gridDim.x * blockDim.x;
    uint32_t cnt = *ones_count;
    g16_dxyzz<F> acc = g16_dxyzz<F>::inf();
    for (uint32_t i = t; i < cnt; i += stride) acc = madd<F>(acc, ld_vec(&bases[ones[i]]), false);
    sh[threadIdx.x] = acc;
    __syncthreads();
    for (unsigned half = blockDim.x / 2; half > 0; half /= 2) {
        if (threadIdx.x < half) sh[threadIdx.x] = padd<F>(sh[threadIdx.x], sh[threadIdx.x + half]);
        __syncthreads();
    }
    if (threadIdx.x == 0) st_vec(&part[blockIdx.x], sh[0]);
}

// G2's 1-scalar sum over lane pairs (field_pair.cuh): one G2 point a thread spills
// here (268 B) as in the bucket levels; over pairs B2 of a 2^26 porep proof took 47.0
// against 48.5 ms (H100, twelfth session: the sum is less of that B2 than the spills
// suggested).  Pair q of
// a block is threads 2q and 2q + 1; the block's tree over its pairs lives in shared
// memory, read with plain loads (ld_vec's read-only path is for global memory).
template <class FP>
__global__ void __launch_bounds__(MSM_ONES_BLOCK, 1)
    ones_partial_pair(g16_dxyzz<g16_dfp2> *part, const g16_daff<g16_dfp2> *bases,
                      const uint32_t *ones, const uint32_t *ones_count)
{
    typedef flat_pair<FP> IO;
    typedef typename IO::field P2;
    typedef g16_dxyzz<g16_dfp2> X;
    extern __shared__ uint4 smem_raw[];
    X *sh = (X *)smem_raw;
    const uint32_t o = P2::odd(), q = threadIdx.x >> 1, np = blockDim.x >> 1;
    const uint32_t stride = gridDim.x * np, cnt = *ones_count;
    g16_dxyzz<P2> acc = g16_dxyzz<P2>::inf();
    for (uint32_t i = blockIdx.x * np + q; i < cnt; i += stride)
        acc = madd<P2>(acc, IO::ld(&bases[ones[i]]), false);
    const auto put = [&](X *d, const g16_dxyzz<P2> &a) {
        (&d->x.c0)[o] = a.x.v, (&d->y.c0)[o] = a.y.v, (&d->zz.c0)[o] = a.zz.v, (&d->zzz.c0)[o] = a.zzz.v;
    };
    const auto get = [&](const X *d) -> g16_dxyzz<P2> {
        return {{(&d->x.c0)[o]}, {(&d->y.c0)[o]}, {(&d->zz.c0)[o]}, {(&d->zzz.c0)[o]}};
    };
    put(&sh[q], acc);
    __syncthreads();
    for (uint32_t half = np / 2; half > 0; half /= 2) {
        if (q < half) put(&sh[q], padd<P2>(get(&sh[q]), get(&sh[q + half])));
        __syncthreads();
    }
    if (q == 0) IO::st(&part[blockIdx.x], get(&sh[0]));
}

#endif
