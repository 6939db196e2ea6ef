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

#include "field_pair.cuh"
#include "msm_reduce.cuh"

// The chunks of K entries that the run [s, e) meets (0 for an empty run).
G16_HD uint32_t msm_flat_items(uint32_t s, uint32_t e, uint32_t K)
{
    return e > s ? (e - 1) / K - s / K + 1 : 0;
}

// Piece i of the bucket runs [start[b], end[b]) cut into pieces of K (off: the
// exclusive scan of the pieces a run, run_items): its entries [*p, *e).  The bucket is
// the largest b with off[b] <= i (empty buckets share their successor's offset and
// lose the search to it).
G16_HD void msm_piece(uint32_t *p, uint32_t *e, const uint32_t *off, uint32_t nb,
                      const uint32_t *start, const uint32_t *end, uint32_t i, uint32_t K)
{
    uint32_t lo = 0, hi = nb;
    while (hi - lo > 1) {
        const uint32_t mid = lo + (hi - lo) / 2;
        if (off[mid] <= i) lo = mid;
        else hi = mid;
    }
    *p = start[lo] + (i - off[lo]) * K;
    *e = end[lo] < *p + K ? end[lo] : *p + K;
}

// How a level-0 thread reads bases and writes partial sums.  flat_whole: a point a
// thread, stored as the accumulation's field type F.
template <class F>
struct flat_whole {
    typedef F field;
    typedef g16_daff<F> aff;
    typedef g16_dxyzz<F> xyzz;
    G16_HD static g16_daff<F> ld(const aff *p) { return ld_vec(p); }
    G16_HD static void st(xyzz *p, const g16_dxyzz<F> &a) { st_vec(p, a); }
};
#ifdef __CUDACC__
// flat_pair: G2 over a lane pair (field_pair.cuh).  A lane moves its component of each
// coordinate (c0 then c1, 48 bytes each, in the stored layout), so a pair's two loads
// are the 96 adjacent bytes of one coordinate.
template <class FP>
struct flat_pair {
    typedef g16_dfp2_pair_t<FP> field;
    typedef g16_daff<g16_dfp2> aff;
    typedef g16_dxyzz<g16_dfp2> xyzz;
    __device__ static FP ld1(const g16_dfp2 *p) { return ld_vec(&p->c0 + field::odd()); }
    __device__ static void st1(g16_dfp2 *p, const FP &x) { st_vec(&p->c0 + field::odd(), x); }
    __device__ static g16_daff<field> ld(const aff *p) { return {{ld1(&p->x)}, {ld1(&p->y)}}; }
    __device__ static g16_dxyzz<field> ldx(const xyzz *p)
    {
        return {{ld1(&p->x)}, {ld1(&p->y)}, {ld1(&p->zz)}, {ld1(&p->zzz)}};
    }
    __device__ static void st(xyzz *p, const g16_dxyzz<field> &a)
    {
        st1(&p->x, a.x.v);
        st1(&p->y, a.y.v);
        st1(&p->zz, a.zz.v);
        st1(&p->zzz, a.zzz.v);
    }
};
#endif

// Thread t's chunk: entries [tK, min(tK + K, total)), up to the first key >= nb
// (zero digits' sentinels sort last).  With flat_pair both lanes of a pair run it
// for the same t, so every branch is taken by both.
template <class IO>
G16_HD void msm_flat_chunk(typename IO::xyzz *part, const uint32_t *off, const uint32_t *bstart,
                           const uint32_t *keys, const uint32_t *vals, const typename IO::aff *bases,
                           size_t total, uint32_t nb, uint32_t K, uint32_t t)
{
    typedef typename IO::field F;
    size_t p = (size_t)t * K;
    const size_t e = p + K < total ? p + K : total;
    if (p >= e) return;
    uint32_t k = keys[p];
    if (k >= nb) return;
    g16_dxyzz<F> acc = g16_dxyzz<F>::inf();
    for (; p < e; p++) {
        const uint32_t v = vals[p];
        acc = madd<F>(acc, IO::ld(&bases[v & 0x7fffffffu]), (v >> 31) != 0);
        const uint32_t kn = p + 1 < e ? keys[p + 1] : nb;  // the chunk's end flushes too
        if (kn != k) {
            IO::st(&part[off[k] + t - bstart[k] / K], acc);
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
    msm_flat_chunk<flat_whole<F>>(part, off, bstart, keys, vals, bases, total, nb, K, t);
}

#ifdef __CUDACC__
// G2's level 0 over lane pairs (field_pair.cuh): threads 2t and 2t + 1 run chunk t,
// so a launch has 2 × chunks threads; `chunks` counts the chunks.
template <class FP, int MB = 1>
__global__ void __launch_bounds__(128, MB)
    flat_pieces_pair(g16_dxyzz<g16_dfp2> *part, const uint32_t *off, const uint32_t *bstart,
                     const uint32_t *keys, const uint32_t *vals, const g16_daff<g16_dfp2> *bases,
                     size_t total, uint32_t nb, uint32_t K, uint32_t chunks)
{
    const size_t t = ((size_t)blockIdx.x * blockDim.x + threadIdx.x) >> 1;
    if (t >= chunks) return;  // both lanes of a pair leave together
    msm_flat_chunk<flat_pair<FP>>(part, off, bstart, keys, vals, bases, total, nb, K, (uint32_t)t);
}

// G2's levels above level 0 over lane pairs too: one G2 point a thread there (run_pieces,
// bucket_sum_parts on g16_dfp2_hot) spills, and a 2^26 G2 MSM's level 1 cost ≈ 4.6 ns a
// full addition against level 0's 1.24 ns a mixed one (H100, ncu, eleventh session).
// Pair t sums piece t of its bucket's partials (msm_piece), or,
// with `last`, all of bucket t's partials [off[t], off[t + 1]) into buckets[t].
template <class FP, bool LAST>
__global__ void __launch_bounds__(128, 1)
    sum_parts_pair(g16_dxyzz<g16_dfp2> *out, const uint32_t *off, uint32_t nb, uint32_t T,
                   const uint32_t *start, const uint32_t *end, const g16_dxyzz<g16_dfp2> *in,
                   uint32_t K)
{
    typedef flat_pair<FP> IO;
    typedef typename IO::field F;
    const uint32_t i = (uint32_t)(((size_t)blockIdx.x * blockDim.x + threadIdx.x) >> 1);
    if (i >= T) return;  // both lanes of a pair leave together
    uint32_t p, e;
    if (LAST) p = off[i], e = off[i + 1];
    else msm_piece(&p, &e, off, nb, start, end, i, K);
    g16_dxyzz<F> acc = g16_dxyzz<F>::inf();
    for (; p < e; p++) acc = padd<F>(acc, IO::ldx(&in[p]));
    IO::st(&out[i], acc);
}
#endif

#endif
