// Level 0 of the bucket accumulation in flat chunks (host and device code;
// tests/gpu/host_msm_reduce.cu runs it on the host against the CPU curve).
//
// The sorted (key = bucket, value = base index | sign) pairs are cut into chunks of
// K entries regardless of the buckets, one thread each, so every thread adds K
// points.  Cutting each bucket's run into pieces of K instead (run_pieces) leaves a
// short last piece per bucket, and a warp runs as long as its longest piece: at
// c = 20 and 2^24 points (≈ 32 points a bucket) level 0 took 102 ms for 218 M
// additions against 106 ms for 268 M at c = 16 (ncu, session 6).
//
// A thread writes one partial sum per bucket its chunk meets.  Bucket b's partials
// are contiguous: chunk t writes at off[b] + t − ⌊s_b / K⌋, where [s_b, e_b) is the
// bucket's run and off the exclusive scan of msm_flat_items, so the next levels
// (run_pieces over partial sums, bucket_sum_parts) take them as they are.
#ifndef G16_BACKEND_CUDA_MSM_FLAT_CUH
#define G16_BACKEND_CUDA_MSM_FLAT_CUH

#include "msm_reduce.cuh"

// The chunks of K entries that the run [s, e) meets (0 for an empty run).
G16_HD uint32_t msm_flat_items(uint32_t s, uint32_t e, uint32_t K)
{
    return e > s ? (e - 1) / K - s / K + 1 : 0;
}

// Thread t's chunk: entries [tK, min(tK + K, total)), up to the first key >= nb
// (zero digits' sentinels sort last).
template <class F>
G16_HD void msm_flat_chunk(g16_dxyzz<F> *part, const uint32_t *off, const uint32_t *bstart,
                           const uint32_t *keys, const uint32_t *vals, const g16_daff<F> *bases,
                           size_t total, uint32_t nb, uint32_t K, uint32_t t)
{
    size_t p = (size_t)t * K;
    const size_t e = p + K < total ? p + K : total;
    if (p >= e) return;
    uint32_t k = keys[p];
    if (k >= nb) return;
    g16_dxyzz<F> acc = g16_dxyzz<F>::inf();
    for (; p < e; p++) {
        const uint32_t v = vals[p];
        acc = madd<F>(acc, ld_vec(&bases[v & 0x7fffffffu]), (v >> 31) != 0);
        const uint32_t kn = p + 1 < e ? keys[p + 1] : nb;  // the chunk's end flushes too
        if (kn != k) {
            st_vec(&part[off[k] + t - bstart[k] / K], acc);
            if (kn >= nb) break;
            acc = g16_dxyzz<F>::inf();
            k = kn;
        }
    }
}

// items[b] = the flat chunks of K entries bucket b's run meets.
static __global__ void flat_items(uint32_t *items, const uint32_t *start, const uint32_t *end,
                                  uint32_t nb, uint32_t K)
{
    uint32_t b = blockIdx.x * blockDim.x + threadIdx.x;
    if (b > nb) return;
    items[b] = b < nb ? msm_flat_items(start[b], end[b], K) : 0;
}

// Level 0 in flat chunks of K sorted entries, one thread each.  MB: the blocks of
// 128 a multiprocessor must hold.  G1 runs MB = 3 (≤ 168 registers, 36 B spilled:
// twelve warps a multiprocessor) by default: ≈ 2.5% faster at 2^24 and 2^26 than the compiler's
// 192 registers (two blocks of 128), while blocks of 64 at 192 registers (ten warps
// instead of eight) gained nothing (session 10).  G16_CUDA_MSM_FLAT_LB, msm_tuning.cuh.
template <class F, int MB = 1>
__global__ void __launch_bounds__(128, MB)
    flat_pieces(g16_dxyzz<F> *part, const uint32_t *off, const uint32_t *bstart, const uint32_t *keys,
                const uint32_t *vals, const g16_daff<F> *bases, size_t total, uint32_t nb, uint32_t K,
                uint32_t threads)
{
    uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= threads) return;
    msm_flat_chunk<F>(part, off, bstart, keys, vals, bases, total, nb, K, t);
}

#endif
