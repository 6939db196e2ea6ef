// G1/G2 multi-scalar multiplication on the device: Pippenger with signed window
// digits, (bucket, point) pairs sorted by bucket with CUB's radix sort, XYZZ
// buckets (one thread per bucket), segmented running-sum bucket reduction, and
// the 0/1 split (bases of 1-scalars summed by a parallel batch addition).
//
// Data flow for n scalars, window c, W = floor(255/c) + 1 windows, B = 2^(c-1)
// buckets per window:
//   digits:     one thread per scalar: Montgomery -> canonical, zero/one test,
//               signed digits d_w in [-B, B]; emits key = w·B + |d_w| - 1 and
//               value = base index | sign·2^31 for each nonzero digit (a sentinel
//               key W·B otherwise).  With a density bitmap the base index is the
//               rank of the scalar's bit (per-word popcount prefix sums).
//   sort:       CUB radix sort of the W·n pairs on the key bits.
//   bounds:     start/end of each bucket's run in the sorted array.
//   accumulate: one thread per bucket adds (or subtracts) its affine bases.
//   reduce:     Σ_b b·S_b per window: running sums over segments of L buckets,
//               then over chunks of segments (msm_reduce.cuh);
//   combine:    one block per window sums its chunks; the host (CPU curve
//               code) combines the windows (Horner, c doublings each) and adds
//               the 1-scalar sum.
#ifndef G16_BACKEND_CUDA_MSM_IMPL_CUH
#define G16_BACKEND_CUDA_MSM_IMPL_CUH

#include <chrono>
#include <cub/cub.cuh>
#include <stdlib.h>
#include <string.h>
#include <type_traits>

#include "curve.cuh"
#include "msm_flat.cuh"
#include "msm_ones.cuh"
#include "msm_reduce.cuh"
#include "internal.cuh"
#include "msm_digits.cuh"
#include "msm_traits.cuh"
#include "msm_tuning.cuh"

extern "C" {
#include "curve/curve.h"
}

static __global__ void popc_words(uint32_t *cnt, const uint64_t *dens, size_t words, size_t n)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= words) return;
    uint64_t w = dens[i];
    size_t lim = n - i * 64;  // bits of this word that belong to the n scalars
    if (lim < 64) w &= (1ull << lim) - 1;
    cnt[i] = (uint32_t)__popcll(w);
}

// Scalar i as the buckets see it: its canonical value *s and base index *bi, and
// whether it is live (has a base, is not 0, and is not a 1 split off to the batch
// addition: *one).
__device__ __forceinline__ bool msm_scalar(g16_dfr *s, uint32_t *bi, bool *one, const g16_dfr *scal,
                                           size_t i, const uint64_t *dens, const uint32_t *rank,
                                           int split)
{
    *bi = (uint32_t)i;
    *one = false;
    if (dens) {
        uint64_t w = dens[i >> 6], below = w & ((1ull << (i & 63)) - 1);
        if (!((w >> (i & 63)) & 1)) return false;
        *bi = rank[i >> 6] + (uint32_t)__popcll(below);
    }
    g16_dfr one_canon = g16_dfr::zero();
    one_canon.l[0] = 1;
    *s = scal[i] * one_canon;  // x·R · 1 · R^-1: the canonical integer
    if (s->is_zero()) return false;
    if (split && s->l[0] == 1) {
        bool is_one = true;
#pragma unroll
        for (int k = 1; k < 8; k++) is_one = is_one && s->l[k] == 0;
        if (is_one) {
            *one = true;
            return false;
        }
    }
    return true;
}

// live[i] = 1 for the scalars that get bucket pairs, 0 otherwise (live[n] = 0): its
// exclusive scan places scalar i's pairs, so 0s, 1s and scalars without a base
// take no room in the sort (a Groth16 assignment is half 0s and 1s).
static __global__ void msm_live(uint32_t *live, const g16_dfr *scal, size_t n, const uint64_t *dens,
                                const uint32_t *rank, int split)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i > n) return;
    g16_dfr s;
    uint32_t bi;
    bool one;
    live[i] = i < n && msm_scalar(&s, &bi, &one, scal, i, dens, rank, split);
}

// *cnt += the scalars of scal[0..n) that count towards the window (msm_counts): a
// bound on the live count that msm_run sizes the window by.
static __global__ void msm_count_nontrivial(uint32_t *cnt, const g16_dfr *scal, size_t n,
                                            const uint64_t *dens, int split)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    bool t = false;
    if (i < n) {
        g16_dfr v = scal[i];
        t = msm_counts(v, dens, i, split);
    }
    int k = __syncthreads_count(t);
    if (threadIdx.x == 0 && k) atomicAdd(cnt, (uint32_t)k);
}

// The pairs of live scalar i in windows [w0, w0 + Wc) of its W, at pos[i] of each
// window's run of stride entries (pos NULL: at i, stride n, every scalar with
// sentinels for no digit); keys count the group's windows from w0.  The 1-scalars
// go to ones in the group of window 0 only.
static __global__ void msm_digits(uint32_t *keys, uint32_t *vals, uint32_t *ones, uint32_t *ones_count,
                                  const g16_dfr *scal, size_t n, const uint64_t *dens,
                                  const uint32_t *rank, unsigned c, unsigned W, unsigned w0,
                                  unsigned Wc, int split, size_t fold_stride, const uint32_t *pos,
                                  size_t stride)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    g16_dfr s;
    uint32_t bi;
    bool one;
    bool live = msm_scalar(&s, &bi, &one, scal, i, dens, rank, split);
    if (one && w0 == 0) ones[atomicAdd(ones_count, 1u)] = bi;
    if (pos && !live) return;
    const uint32_t carry = msm_scalar_pairs(keys, vals, s, live, bi, c, w0, Wc, fold_stride,
                                            pos ? pos[i] : i, stride);
    // A carry out of the top window would drop 2^(cW) from the scalar: the host
    // sizes W so that it cannot happen (msm_windows); this flag turns a future
    // mistake there into an error instead of a wrong sum.
    if (carry && w0 + Wc == W) atomicOr(ones_count + 1, 1u);
}

static __global__ void bucket_bounds(uint32_t *bstart, uint32_t *bend, const uint32_t *keys, size_t total,
                              uint32_t nb)
{
    size_t p = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (p >= total) return;
    uint32_t k = keys[p];
    if (k >= nb) return;
    if (p == 0 || keys[p - 1] != k) bstart[k] = (uint32_t)p;
    if (p == total - 1 || keys[p + 1] != k) bend[k] = (uint32_t)(p + 1);
}

template <class F>
__global__ void bucket_accumulate(g16_dxyzz<F> *buckets, const g16_daff<F> *bases,
                                  const uint32_t *vals, const uint32_t *bstart,
                                  const uint32_t *bend, uint32_t nb)
{
    uint32_t k = blockIdx.x * blockDim.x + threadIdx.x;
    if (k >= nb) return;
    g16_dxyzz<F> acc = g16_dxyzz<F>::inf();
    for (uint32_t p = bstart[k], e = bend[k]; p < e; p++) {
        uint32_t v = vals[p];
        acc = madd<F>(acc, ld_vec(&bases[v & 0x7fffffffu]), (v >> 31) != 0);
    }
    st_vec(&buckets[k], acc);
}

// Long runs.  A bucket's run can hold most of the n points (all-equal scalars, the
// narrow top window, a witness full of one small value), and one thread adding
// them in sequence takes seconds.  So a run longer than MSM_RUN_LEN is cut into
// pieces of MSM_RUN_LEN entries, one thread per piece, and the pieces' partial
// sums become the next level's runs (per bucket: [off[b], off[b+1]) of the
// partial array), until every run fits one thread.  Each level divides the
// longest run by MSM_RUN_LEN.
// Default piece length (G16_CUDA_MSM_RUN overrides), measured on the H200 at 2^24:
// with pieces cut from each bucket's run (sessions 2–5), c = 20 took 181/194/201 ms
// with pieces of 16/32/64 and c = 18 171/166 ms with 8/16 (short pieces: fewer idle
// lanes at the ragged end of a run).  Level 0 in flat chunks (session 6) has no
// ragged ends: 32 beat 16 at c = 16 and 20 (126.9/118.5 against 129.6/120.9 ms), at
// 2^26 (426 against 431) and in a 2^26 proof (1.020 against 1.027 s).  MSM_RUN_LEN
// (msm_traits.cuh) is G1's, 64 to 256 for dense G1 MSMs (msm_run_len); G2 16, or 64
// to 128 for dense G2 MSMs over lane pairs.

// items[b] = pieces of bucket b's run [start[b], end[b]); items[nb] = 0 so that
// the exclusive scan's last entry is the total.
static __global__ void run_items(uint32_t *items, const uint32_t *start, const uint32_t *end,
                                 uint32_t nb, uint32_t K)
{
    uint32_t b = blockIdx.x * blockDim.x + threadIdx.x;
    if (b > nb) return;
    items[b] = b < nb ? (end[b] - start[b] + K - 1) / K : 0;
}

// part[i] = sum of piece i; off is the exclusive scan of items (off[nb] = T).
// AFF: the runs hold (base index | sign) values, else XYZZ partial sums.
template <class F, bool AFF, int MINB>
__global__ void __launch_bounds__(128, MINB)
    run_pieces(g16_dxyzz<F> *part, const uint32_t *off, uint32_t nb, uint32_t T,
               const uint32_t *start, const uint32_t *end, const g16_daff<F> *bases,
               const uint32_t *vals, const g16_dxyzz<F> *in, uint32_t K)
{
    uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= T) return;
    uint32_t p, e;
    msm_piece(&p, &e, off, nb, start, end, i, K);
    g16_dxyzz<F> acc = g16_dxyzz<F>::inf();
    if (AFF) {
        for (; p < e; p++) {
            uint32_t v = vals[p];
            acc = madd<F>(acc, ld_vec(&bases[v & 0x7fffffffu]), (v >> 31) != 0);
        }
    } else {
        for (; p < e; p++) acc = padd<F>(acc, ld_vec(&in[p]));
    }
    st_vec(&part[i], acc);
}

// The last level: one thread per bucket adds its (at most K) partials.
template <class F>
__global__ void bucket_sum_parts(g16_dxyzz<F> *buckets, const g16_dxyzz<F> *in,
                                 const uint32_t *off, uint32_t nb)
{
    uint32_t k = blockIdx.x * blockDim.x + threadIdx.x;
    if (k >= nb) return;
    g16_dxyzz<F> acc = g16_dxyzz<F>::inf();
    for (uint32_t p = off[k], e = off[k + 1]; p < e; p++) acc = padd<F>(acc, ld_vec(&in[p]));
    st_vec(&buckets[k], acc);
}

// out[g] = Σ_{i < m} in[g·m + i]; one block per group.
template <class F>
__global__ void block_sum(g16_dxyzz<F> *out, const g16_dxyzz<F> *in, uint32_t m)
{
    extern __shared__ uint4 smem_raw[];
    g16_dxyzz<F> *sh = (g16_dxyzz<F> *)smem_raw;
    const g16_dxyzz<F> *src = in + (size_t)blockIdx.x * m;
    g16_dxyzz<F> acc = g16_dxyzz<F>::inf();
    for (uint32_t i = threadIdx.x; i < m; i += blockDim.x) acc = acc.add(src[i]);
    sh[threadIdx.x] = acc;
    __syncthreads();
    for (unsigned half = blockDim.x / 2; half > 0; half /= 2) {
        if (threadIdx.x < half) sh[threadIdx.x] = sh[threadIdx.x].add(sh[threadIdx.x + half]);
        __syncthreads();
    }
    if (threadIdx.x == 0) out[blockIdx.x] = sh[0];
}

#include "msm_host.cuh"

// ---- host side --------------------------------------------------------------------
static inline unsigned grid_for(size_t n, unsigned threads)
{
    return (unsigned)((n + threads - 1) / threads);
}

// The device copy of density[0, words) when a bitmap preloaded by
// g16_cuda_density_preload holds it (a chunk's bitmap is a part of one), else NULL.
static void *density_preloaded(const g16_cuda_ctx *ctx, const uint64_t *density, size_t words)
{
    const uintptr_t d = (uintptr_t)density;
    for (int i = 0; i < 2; i++) {
        const uintptr_t h = (uintptr_t)ctx->dens_host[i];
        if (h && d >= h && (d - h) % 8 == 0 && (d - h) / 8 + words <= ctx->dens_words[i])
            return (uint64_t *)ctx->slot[SLOT_DENS0 + i] + (d - h) / 8;
    }
    return NULL;
}

// Set bits among the first n of a bitmap.
static inline size_t popcount_bits(const uint64_t *bits, size_t n)
{
    size_t k = 0;
    for (size_t i = 0; i < n / 64; i++) k += (size_t)__builtin_popcountll(bits[i]);
    if (n % 64) k += (size_t)__builtin_popcountll(bits[n / 64] & ((1ull << (n % 64)) - 1));
    return k;
}

// Pairs sorted in one go.  A larger MSM runs in chunks of scalars (msm_run): the
// sort's keys and values and the level-0 partial sums take about 28 bytes a pair
// for G1 (40 for G2), and at 2^27 rows the H query's 1.9 G pairs would have needed
// 53 GB beside a 47 GB resident key (session 4: out of device memory).  It also
// keeps a sort under CUB's 2^31 items.  2^30 pairs: up to 2^26 scalars at the
// automatic window still run in one chunk.
#define MSM_MAX_PAIRS ((size_t)1 << 30)
// Scalars a chunk at most (msm_run): the per-scalar buffers (host scalars' copy 32
// bytes, the live flags, places and 1-scalar list 12) grow with a chunk, not the sort.
#define MSM_MAX_SCALARS ((size_t)1 << 27)

// Fills buckets[b] = the sum of bucket b's run [bstart[b], bend[b]) of the sorted
// values, cutting long runs into levels of pieces (see run_pieces).  tmp: CUB
// scratch of tmp_bytes (enough for a scan and a max over nb + 1 entries).
template <class F>
static g16_status accumulate_buckets(g16_cuda_ctx *ctx, g16_dxyzz<F> *buckets,
                                     const g16_daff<F> *bases, const uint32_t *keys,
                                     const uint32_t *vals, const uint32_t *bstart,
                                     const uint32_t *bend, uint32_t nb, size_t total, void *tmp,
                                     size_t tmp_bytes)
{
    typedef g16_dxyzz<F> X;
    // The accumulation kernels run on the field type with inlined products (the
    // same bytes; hot_field).
    typedef typename hot_field<F>::type H;
    typedef g16_dxyzz<H> XH;
    typedef g16_daff<H> AH;
    static_assert(sizeof(XH) == sizeof(X) && sizeof(AH) == sizeof(g16_daff<F>), "one layout");
    void *items, *off[2], *part[2];
    const msm_tuning tu = msm_tuning_get();
    const bool pairs = std::is_same<F, g16_dfp2>::value && tu.g2_pair && tu.flat;
    const uint32_t K = tu.run_len ? tu.run_len : msm_run_len<F>(total, nb, pairs, tu.dense_max);
    // Pieces of level 0 <= entries / K + one per bucket (its last piece); of level
    // l + 1 <= pieces of level l / K + nb + 1.  Levels alternate between two
    // buffers, so the odd levels' buffer needs only the level-1 bound (at 2^27 rows
    // that is ~2 GB where the level-0 bound is ~22 GB).
    // Flat chunks (msm_flat.cuh): a run of m entries meets at most ⌈m / K⌉ + 1 chunks.
    const size_t max_pieces0 = total / K + (tu.flat ? 2 * (size_t)nb : nb) + 1,
                 max_pieces1 = max_pieces0 / K + nb + 1;
    G16_TRY(g16_cuda_scratch(ctx, &items, SLOT_MSM_ITEMS, ((size_t)nb + 1) * 4));
    G16_TRY(g16_cuda_scratch(ctx, &off[0], SLOT_MSM_OFF0, ((size_t)nb + 1) * 4));
    G16_TRY(g16_cuda_scratch(ctx, &off[1], SLOT_MSM_OFF1, ((size_t)nb + 1) * 4));
    uint32_t *hv = NULL;  // [0] the longest run in pieces, [1] the number of pieces
    G16_TRY(g16_cuda_pinned(ctx, (void **)&hv, 2 * sizeof *hv));
    const uint32_t *cs = bstart, *ce = bend;  // this level's runs
    const X *in = NULL;                       // NULL: level 0 (sorted values)
    for (int lvl = 0;; lvl++) {
        uint32_t *it = (uint32_t *)items, *of = (uint32_t *)off[lvl & 1];
        run_items<<<grid_for((size_t)nb + 1, 256), 256, 0, ctx->stream>>>(it, cs, ce, nb, K);
        CK_LAUNCH("run_items");
        CK(cub::DeviceReduce::Max(tmp, tmp_bytes, it, of + nb, (int)nb + 1, ctx->stream));
        CK(cudaMemcpyAsync(&hv[0], of + nb, 4, cudaMemcpyDeviceToHost, ctx->stream));
        CK(cub::DeviceScan::ExclusiveSum(tmp, tmp_bytes, it, of, (int)nb + 1, ctx->stream));
        CK(cudaMemcpyAsync(&hv[1], of + nb, 4, cudaMemcpyDeviceToHost, ctx->stream));
        G16_TRY(g16_cuda_sync(ctx));
        if (hv[0] <= 1) {  // every run fits one thread
            if (!in) {
                bucket_accumulate<H><<<grid_for(nb, 128), 128, 0, ctx->stream>>>(
                    (XH *)buckets, (const AH *)bases, vals, cs, ce, nb);
                CK_LAUNCH("bucket_accumulate");
            } else if (pairs && tu.g2_pair_up) {
                if constexpr (std::is_same<F, g16_dfp2>::value) {
                    sum_parts_pair<g16_dfp, true><<<grid_for(2 * (size_t)nb, 128), 128, 0, ctx->stream>>>(
                        buckets, cs, nb, nb, NULL, NULL, in, K);
                    CK_LAUNCH("sum_parts_pair");
                }
            } else {
                bucket_sum_parts<H><<<grid_for(nb, 128), 128, 0, ctx->stream>>>(
                    (XH *)buckets, (const XH *)in, cs, nb);
                CK_LAUNCH("bucket_sum_parts");
            }
            return G16_OK;
        }
        const bool flat = !in && tu.flat;
        if (flat) {  // the pieces are the flat chunks' partial sums instead
            flat_items<<<grid_for((size_t)nb + 1, 256), 256, 0, ctx->stream>>>(it, cs, ce, nb, K);
            CK_LAUNCH("flat_items");
            CK(cub::DeviceScan::ExclusiveSum(tmp, tmp_bytes, it, of, (int)nb + 1, ctx->stream));
            CK(cudaMemcpyAsync(&hv[1], of + nb, 4, cudaMemcpyDeviceToHost, ctx->stream));
            G16_TRY(g16_cuda_sync(ctx));
        }
        uint32_t T = hv[1];
        const size_t max_pieces = lvl & 1 ? max_pieces1 : max_pieces0;
        if (lvl > 40 || T > max_pieces)  // cannot happen: each level divides the longest run
            return g16_fail(G16_ERR_BACKEND, "msm: bucket levels do not converge (%u pieces)", T);
        G16_TRY(g16_cuda_scratch(ctx, &part[lvl & 1], lvl & 1 ? SLOT_MSM_PART1 : SLOT_MSM_PART0,
                                 max_pieces * sizeof(X)));
        X *pt = (X *)part[lvl & 1];
        // G1 may trade registers for occupancy (4 blocks of 128 per SM: 128 registers,
        // some spilled) when tuning asks; G2 keeps the compiler's choice.
        if (flat) {
            const size_t chunks = (total + K - 1) / K;
            if (chunks > 0xffffffffu) return g16_fail(G16_ERR_BACKEND, "msm: %zu flat chunks", chunks);
            const unsigned tpb = tu.flat_tpb;
            if (tu.flat_lb > 1 && std::is_same<F, g16_dfp>::value) {  // G2 spills at 255 already
                if constexpr (std::is_same<F, g16_dfp>::value)
                    flat_pieces<F, 3><<<grid_for(chunks, tpb), tpb, 0, ctx->stream>>>(
                        pt, of, cs, keys, vals, bases, total, nb, K, (uint32_t)chunks);
            } else if (pairs) {
                if constexpr (std::is_same<F, g16_dfp2>::value) {
                    const unsigned g = grid_for(2 * chunks, tpb);
                    if (tu.g2_pair == 4)
                        flat_pieces_pair<g16_dfp, 4><<<g, tpb, 0, ctx->stream>>>(
                            pt, of, cs, keys, vals, bases, total, nb, K, (uint32_t)chunks);
                    else if (tu.g2_pair == 3)
                        flat_pieces_pair<g16_dfp, 3><<<g, tpb, 0, ctx->stream>>>(
                            pt, of, cs, keys, vals, bases, total, nb, K, (uint32_t)chunks);
                    else
                        flat_pieces_pair<g16_dfp, 1><<<g, tpb, 0, ctx->stream>>>(
                            pt, of, cs, keys, vals, bases, total, nb, K, (uint32_t)chunks);
                }
            } else {
                flat_pieces<H><<<grid_for(chunks, tpb), tpb, 0, ctx->stream>>>(
                    (XH *)pt, of, cs, keys, vals, (const AH *)bases, total, nb, K, (uint32_t)chunks);
            }
        } else if (!in && tu.occupancy && std::is_same<F, g16_dfp>::value) {
            if constexpr (std::is_same<F, g16_dfp>::value)  // no G2 instance to compile
                run_pieces<F, true, 4><<<grid_for(T, 128), 128, 0, ctx->stream>>>(
                    pt, of, nb, T, cs, ce, bases, vals, NULL, K);
        } else if (!in) {
            run_pieces<H, true, 1><<<grid_for(T, 128), 128, 0, ctx->stream>>>(
                (XH *)pt, of, nb, T, cs, ce, (const AH *)bases, vals, NULL, K);
        } else if (pairs && tu.g2_pair_up) {
            if constexpr (std::is_same<F, g16_dfp2>::value)
                sum_parts_pair<g16_dfp, false><<<grid_for(2 * (size_t)T, 128), 128, 0, ctx->stream>>>(
                    pt, of, nb, T, cs, ce, in, K);
        } else {
            run_pieces<H, false, 1><<<grid_for(T, 128), 128, 0, ctx->stream>>>(
                (XH *)pt, of, nb, T, cs, ce, NULL, NULL, (const XH *)in, K);
        }
        CK_LAUNCH(flat ? "flat_pieces" : "run_pieces");
        cs = of;
        ce = of + 1;
        in = pt;
    }
}

#include "msm_affine.cuh"

// One MSM over n scalars (host `scalars` or device `dev_scalars`) and their bases
// bs, for msm_run: hw[0..Wr) the window sums, hw[Wr] the sum of the 1-scalars' bases.
// Its windows go through the sort and the buckets in groups of at most cap pairs
// (msm_group_windows; one group when they fit): the scalars' upload, count and
// placement happen once, the digits, sort, accumulation and reduction once a group.
// The wrong-result injector (common/fault.h, g16_fault_wrong_arm): flips the low bit of
// each of the four coordinates of one bucket (window 0's second, whose weight is never
// 0), so an empty bucket becomes a point off the curve and a full one another value.
static __global__ void corrupt_bucket(uint32_t *b, unsigned words_per_coord)
{
    for (unsigned k = 0; k < 4; k++) b[k * words_per_coord] ^= 1;
}

// *out = the sum of the bases of the 1-scalars listed in ones (count cnt[0]), through
// onesp (blocks partial sums).
template <class F>
static g16_status ones_sum(g16_cuda_ctx *ctx, g16_dxyzz<F> *out, g16_dxyzz<F> *onesp,
                           const g16_daff<F> *bs, const uint32_t *ones, const uint32_t *cnt,
                           unsigned blocks)
{
    typedef g16_dxyzz<F> X;
    typedef typename hot_field<F>::type H;
    const msm_tuning tu = msm_tuning_get();
    const int bt = msm_traits<F>::block_sum_threads;
    bool done = false;
    if constexpr (std::is_same<F, g16_dfp2>::value) {
        if (tu.g2_pair && tu.flat && tu.g2_pair_up == 2) {  // where level 0 runs over pairs
            ones_partial_pair<g16_dfp><<<blocks, MSM_ONES_BLOCK, MSM_ONES_BLOCK / 2 * sizeof(X),
                                         ctx->stream>>>(onesp, bs, ones, cnt);
            CK_LAUNCH("ones_partial_pair");
            done = true;
        }
    }
    if (!done) {
        ones_partial<H><<<blocks, MSM_ONES_BLOCK, MSM_ONES_BLOCK * sizeof(X), ctx->stream>>>(
            (g16_dxyzz<H> *)onesp, (const g16_daff<H> *)bs, ones, cnt);
        CK_LAUNCH("ones_partial");
    }
    block_sum<F><<<1, bt, bt * sizeof(X), ctx->stream>>>(out, (const X *)onesp, blocks);
    CK_LAUNCH("block_sum");
    return G16_OK;
}

template <class F>
static g16_status msm_chunk(g16_cuda_ctx *ctx, g16_dxyzz<F> *hw, const g16_daff<F> *bs,
                            const g16_fr *scalars, const g16_dfr *dev_scalars, size_t n,
                            const uint64_t *density, unsigned c, unsigned W, unsigned Wr,
                            int split, size_t fold, size_t cap, const char *fn)
{
    typedef g16_dxyzz<F> X;
    const msm_tuning tu = msm_tuning_get();
    const msm_shape sh = msm_shape_of(c, Wr, tu.seg_len);  // all windows: sizes the buffers
    const uint32_t nb = sh.nb, S = sh.S, nt = sh.nt;
    const unsigned end_bit = sh.end_bit;
    const size_t words = (n + 63) / 64;
    // the bound on a sort's pairs; a group's Wc · (live scalars) once they are counted
    size_t total = (size_t)W * n < cap ? (size_t)W * n : cap;
    unsigned ones_thr = msm_traits<F>::ones_threads;
    while (ones_thr > MSM_ONES_BLOCK && ones_thr / 8 >= n) ones_thr /= 2;
    const unsigned ones_blocks = ones_thr / MSM_ONES_BLOCK;

    void *scal, *k0, *k1, *v0, *v1, *bstart, *bend, *bk, *seg, *win, *ones, *onesp, *dens = NULL,
         *rank = NULL, *cnt, *tmp, *live, *pos;
    if (dev_scalars) scal = (void *)dev_scalars;
    else G16_TRY(g16_cuda_scratch(ctx, &scal, SLOT_MSM_SCAL, n * sizeof(g16_fr)));
    G16_TRY(g16_cuda_scratch(ctx, &k0, SLOT_MSM_KEYS0, total * 4));
    G16_TRY(g16_cuda_scratch(ctx, &k1, SLOT_MSM_KEYS1, total * 4));
    G16_TRY(g16_cuda_scratch(ctx, &v0, SLOT_MSM_VALS0, total * 4));
    G16_TRY(g16_cuda_scratch(ctx, &v1, SLOT_MSM_VALS1, total * 4));
    G16_TRY(g16_cuda_scratch(ctx, &bstart, SLOT_MSM_BSTART, (size_t)nb * 4));
    G16_TRY(g16_cuda_scratch(ctx, &bend, SLOT_MSM_BEND, (size_t)nb * 4));
    G16_TRY(g16_cuda_scratch(ctx, &bk, SLOT_MSM_BUCKETS, (size_t)nb * sizeof(X)));
    G16_TRY(g16_cuda_scratch(ctx, &seg, SLOT_MSM_SEG, ((size_t)2 * S + nt) * Wr * sizeof(X)));
    G16_TRY(g16_cuda_scratch(ctx, &win, SLOT_MSM_WIN, ((size_t)Wr + 2) * sizeof(X)));
    G16_TRY(g16_cuda_scratch(ctx, &ones, SLOT_MSM_ONES, n * 4));
    G16_TRY(g16_cuda_scratch(ctx, &onesp, SLOT_MSM_ONESP, ones_blocks * sizeof(X)));
    G16_TRY(g16_cuda_scratch(ctx, &cnt, SLOT_MSM_COUNT, 64));
    G16_TRY(g16_cuda_scratch(ctx, &live, SLOT_MSM_LIVE, (n + 1) * 4));
    G16_TRY(g16_cuda_scratch(ctx, &pos, SLOT_MSM_POS, (n + 1) * 4));
    void *dens_pre = density ? density_preloaded(ctx, density, words) : NULL;
    if (density) {
        if (dens_pre) dens = dens_pre;
        else G16_TRY(g16_cuda_scratch(ctx, &dens, SLOT_MSM_DENS, words * 8));
        G16_TRY(g16_cuda_scratch(ctx, &rank, SLOT_MSM_RANK, words * 8));
    }
    // CUB scratch: the larger of the sort's and the scan's.
    cub::DoubleBuffer<uint32_t> dk((uint32_t *)k0, (uint32_t *)k1), dv((uint32_t *)v0, (uint32_t *)v1);
    size_t sort_bytes = 0, scan_bytes = 0;
    CK(cub::DeviceRadixSort::SortPairs(NULL, sort_bytes, dk, dv, (int)total, 0, (int)end_bit,
                                       ctx->stream));
    if (density)
        CK(cub::DeviceScan::ExclusiveSum(NULL, scan_bytes, (uint32_t *)rank, (uint32_t *)rank + words,
                                         (int)words, ctx->stream));
    size_t live_bytes = 0;
    CK(cub::DeviceScan::ExclusiveSum(NULL, live_bytes, (uint32_t *)live, (uint32_t *)pos, (int)n + 1,
                                     ctx->stream));
    if (live_bytes > scan_bytes) scan_bytes = live_bytes;
    size_t tmp_bytes = sort_bytes > scan_bytes ? sort_bytes : scan_bytes, lvl_bytes = 0;
    CK(cub::DeviceScan::ExclusiveSum(NULL, lvl_bytes, (uint32_t *)bstart, (uint32_t *)bend,
                                     (int)nb + 1, ctx->stream));
    tmp_bytes = tmp_bytes > lvl_bytes ? tmp_bytes : lvl_bytes;
    CK(cub::DeviceReduce::Max(NULL, lvl_bytes, (uint32_t *)bstart, (uint32_t *)bend, (int)nb + 1,
                              ctx->stream));
    tmp_bytes = tmp_bytes > lvl_bytes ? tmp_bytes : lvl_bytes;
    G16_TRY(g16_cuda_scratch(ctx, &tmp, SLOT_MSM_CUB, tmp_bytes));

    G16_TRY(g16_cuda_mark(ctx, ctx->ev_start));
    if (!dev_scalars) G16_TRY(g16_cuda_upload(ctx, scal, scalars, n * sizeof(g16_fr)));
    if (density && !dens_pre) G16_TRY(g16_cuda_upload(ctx, dens, density, words * 8));
    G16_TRY(g16_cuda_mark(ctx, ctx->ev_kernels));

    const uint32_t *rk = NULL;
    if (density) {
        popc_words<<<grid_for(words, 256), 256, 0, ctx->stream>>>((uint32_t *)rank,
                                                                  (const uint64_t *)dens, words, n);
        CK_LAUNCH("popc_words");
        CK(cub::DeviceScan::ExclusiveSum(tmp, tmp_bytes, (uint32_t *)rank, (uint32_t *)rank + words,
                                         (int)words, ctx->stream));
        rk = (const uint32_t *)rank + words;
    }
    // Count and place the live scalars: only they get pairs (n_live read back).
    msm_live<<<grid_for(n + 1, 256), 256, 0, ctx->stream>>>((uint32_t *)live, (const g16_dfr *)scal, n,
                                                             (const uint64_t *)dens, rk, split);
    CK_LAUNCH("msm_live");
    CK(cub::DeviceScan::ExclusiveSum(tmp, tmp_bytes, (uint32_t *)live, (uint32_t *)pos, (int)n + 1,
                                     ctx->stream));
    uint32_t *hn = NULL;
    G16_TRY(g16_cuda_pinned(ctx, (void **)&hn, sizeof *hn));
    CK(cudaMemcpyAsync(hn, (uint32_t *)pos + n, sizeof *hn, cudaMemcpyDeviceToHost, ctx->stream));
    G16_TRY(g16_cuda_sync(ctx));
    const size_t n_live = *hn;
    if (n_live > total && !fold)  // msm_run's chunks keep n <= cap
        return g16_fail(G16_ERR_BACKEND, "%s: %zu live scalars over a sort of %zu pairs", fn, n_live, total);
    const unsigned Wg = fold ? W : msm_group_windows(W, n_live, total);
    X *sacc = (X *)seg, *srun = sacc + (size_t)Wr * S, *segy = srun + (size_t)Wr * S;
    msm_seg_off<F> so = {X::inf(), X::inf()};
    if (tu.seg_off) msm_seg_offsets(&so);
    const int bt = msm_traits<F>::block_sum_threads;
    for (unsigned w0 = 0; w0 < W; w0 += Wg) {
        const unsigned Wc = W - w0 < Wg ? W - w0 : Wg, Wrc = fold ? 1 : Wc;
        const msm_shape gs = msm_shape_of(c, Wrc, tu.seg_len);
        const size_t gtotal = (size_t)Wc * n_live;
        cub::DoubleBuffer<uint32_t> gk((uint32_t *)k0, (uint32_t *)k1), gv((uint32_t *)v0, (uint32_t *)v1);
        CK(cudaMemsetAsync(cnt, 0, 64, ctx->stream));
        msm_digits<<<grid_for(n, 256), 256, 0, ctx->stream>>>(
            (uint32_t *)k0, (uint32_t *)v0, (uint32_t *)ones, (uint32_t *)cnt, (const g16_dfr *)scal, n,
            (const uint64_t *)dens, rk, c, W, w0, Wc, split, fold, (const uint32_t *)pos, n_live);
        CK_LAUNCH("msm_digits");
        CK(cudaMemsetAsync(bstart, 0, (size_t)gs.nb * 4, ctx->stream));
        CK(cudaMemsetAsync(bend, 0, (size_t)gs.nb * 4, ctx->stream));
        if (gtotal) {  // else every bucket stays empty
            CK(cub::DeviceRadixSort::SortPairs(tmp, tmp_bytes, gk, gv, (int)gtotal, 0, (int)gs.end_bit,
                                               ctx->stream));
            bucket_bounds<<<grid_for(gtotal, 256), 256, 0, ctx->stream>>>(
                (uint32_t *)bstart, (uint32_t *)bend, gk.Current(), gtotal, gs.nb);
            CK_LAUNCH("bucket_bounds");
        }
        bool accumulated = false;
        if constexpr (std::is_same<F, g16_dfp>::value) {
            if (tu.affine) {  // opt-in (msm_affine.cuh)
                G16_TRY(accumulate_buckets_affine<F>(ctx, (X *)bk, bs, gv.Current(), (const uint32_t *)bstart,
                                                     (const uint32_t *)bend, gs.nb, gtotal, tmp, tmp_bytes));
                accumulated = true;
            }
        }
        if (!accumulated)
            G16_TRY(accumulate_buckets<F>(ctx, (X *)bk, bs, gk.Current(), gv.Current(),
                                          (const uint32_t *)bstart, (const uint32_t *)bend, gs.nb, gtotal,
                                          tmp, tmp_bytes));
        if (g16_fault_wrong_take()) {  // test-only, always 0 without G16_FAULT_INJECT
            corrupt_bucket<<<1, 1, 0, ctx->stream>>>((uint32_t *)((X *)bk + 1), (unsigned)(sizeof(X) / 16));
            CK_LAUNCH("corrupt_bucket");
        }
        bucket_reduce<F><<<grid_for((size_t)Wrc * gs.S, 64), 64, 0, ctx->stream>>>(
            sacc, srun, (const X *)bk, gs.B, gs.L, gs.S, Wrc, so);
        CK_LAUNCH("bucket_reduce");
        seg_combine<F><<<grid_for((size_t)Wrc * gs.nt, 64), 64, 0, ctx->stream>>>(
            segy, sacc, srun, gs.S, gs.lg_l, MSM_SEG_CHUNK, gs.nt, Wrc);
        CK_LAUNCH("seg_combine");
        block_sum<F><<<Wrc, bt, bt * sizeof(X), ctx->stream>>>((X *)win + (fold ? 0 : w0), segy, gs.nt);
        CK_LAUNCH("block_sum");
        if (w0 == 0) G16_TRY(ones_sum<F>(ctx, (X *)win + Wr, (X *)onesp, bs, (const uint32_t *)ones,
                                         (const uint32_t *)cnt, ones_blocks));
    }
    uint32_t hflag[2];
    CK(cudaMemcpyAsync(hw, win, (Wr + 1) * sizeof(X), cudaMemcpyDeviceToHost, ctx->stream));
    CK(cudaMemcpyAsync(hflag, cnt, sizeof hflag, cudaMemcpyDeviceToHost, ctx->stream));
    G16_TRY(g16_cuda_mark(ctx, ctx->ev_kernels_end));
    G16_TRY(g16_cuda_mark(ctx, ctx->ev_end));
    G16_TRY(g16_cuda_sync(ctx));
    if (hflag[1])
        return g16_fail(G16_ERR_BACKEND, "%s: internal error: a digit carried out of window %u "
                        "(c = %u)", fn, W - 1, c);
    return g16_cuda_times_finish(ctx);
}

// *k = the device scalars of x[0..n) that count towards the window (msm_counts; the
// host's density bitmap, when given, is uploaded for it: n/8 bytes).
static g16_status count_nontrivial(g16_cuda_ctx *ctx, size_t *k, const g16_dfr *x, size_t n,
                                   const uint64_t *density, int split)
{
    void *cnt, *dens = NULL;
    uint32_t *h = NULL;
    G16_TRY(g16_cuda_enter(ctx));  // msm_run calls this before its own enter
    G16_TRY(g16_cuda_scratch(ctx, &cnt, SLOT_MSM_COUNT, 64));
    G16_TRY(g16_cuda_pinned(ctx, (void **)&h, sizeof *h));
    if (density) {
        const size_t words = (n + 63) / 64;
        if (!(dens = density_preloaded(ctx, density, words))) {
            G16_TRY(g16_cuda_scratch(ctx, &dens, SLOT_MSM_DENS, words * 8));
            G16_TRY(g16_cuda_upload(ctx, dens, density, words * 8));
        }
    }
    CK(cudaMemsetAsync(cnt, 0, 4, ctx->stream));
    msm_count_nontrivial<<<grid_for(n, 256), 256, 0, ctx->stream>>>((uint32_t *)cnt, x, n,
                                                                    (const uint64_t *)dens, split);
    CK_LAUNCH("msm_count_nontrivial");
    CK(cudaMemcpyAsync(h, cnt, sizeof *h, cudaMemcpyDeviceToHost, ctx->stream));
    G16_TRY(g16_cuda_sync(ctx));
    *k = *h;
    return G16_OK;
}

// dev_scalars: when not NULL, the n scalars are already on the device there
// (scalars is then ignored and nothing is copied in).
template <class F>
static g16_status msm_run(g16_cuda_ctx *ctx, g16_djac<F> *out, const g16_cuda_bases *bases,
                          const g16_fr *scalars, size_t n, const uint64_t *density,
                          const g16_cuda_msm_opts *opts, const g16_dfr *dev_scalars)
{
    typedef g16_dxyzz<F> X;
    typedef g16_daff<F> A;
    const char *fn = msm_traits<F>::group == G16_G1 ? "g16_cuda_msm_g1" : "g16_cuda_msm_g2";
    if (!ctx || !out || !bases || (n && !scalars && !dev_scalars))
        return g16_fail(G16_ERR_ARG, "%s: NULL argument", fn);
    if (bases->group != msm_traits<F>::group)
        return g16_fail(G16_ERR_ARG, "%s: bases belong to the other group", fn);
    const size_t want = density ? popcount_bits(density, n) : n;
    if (want != bases->n)
        return g16_fail(G16_ERR_ARG, "%s: %zu bases for %zu scalars with a base", fn, bases->n, want);
    const msm_tuning tu = msm_tuning_get();
    // The window follows the points the MSM can add, not the scalars: behind a
    // density bitmap (a proof's A, B1, B2 queries) they are its set bits.  At 2^26
    // rows that picks c = 16 for A (59 M points) and B (17 M) where the scalar count
    // picked 19: prove_start 1.152 -> 1.098 s on the H200 (session 5; B MSMs -30%).
    // Device scalars (a proof's): by the scalars that can get pairs (at most the bases),
    // rounded up from 2/3 of a power of two, when that can change the window. An H
    // query's 2^26 - 1 scalars then count as 2^26 (session 6: c = 19, its MSM 0.496 ->
    // 0.471 s; c = 20 now), and a B1 query of 17 M bases, most scalars 0 or 1, should
    // get 16, not the 20 of 2^24 dense points (its MSM took 0.043 s at 20, 0.029 at 16;
    // session 6's last call found it still at 20: the count ignored the bitmap, so it
    // was capped by the bases; reading the bitmap, session 7 measured 0.044 -> 0.031 s).
    // The count is a pass over the scalars (≈ 1.4 ms at 2^26), so only where it matters.
    const unsigned big = tu.lg_big ? tu.lg_big : msm_traits<F>::lg_big_window;
    size_t size_c = want;
    const size_t floor_c = want < ((size_t)1 << 20) ? want : (size_t)1 << 20;
    if (tu.live_window && dev_scalars && !(opts && opts->window) && !bases->fold_c &&
        msm_auto_window(want + want / 2, tu.c_max, big) != msm_auto_window(floor_c, tu.c_max, big)) {
        size_t k = 0;
        G16_TRY(count_nontrivial(ctx, &k, dev_scalars, n, density, !(opts && opts->no_split)));
        size_c = k < want ? k : want;
        size_c += size_c / 2;
    }
    unsigned c = opts && opts->window ? opts->window : msm_auto_window(size_c, tu.c_max, big);
    if (!(opts && opts->window) && c < tu.c_min) c = tu.c_min;
    // Folded bases fix the window, and all windows share one bucket set (Wr = 1
    // set to reduce; the host's Horner combination then has nothing to do).
    const size_t fold = bases->fold_c ? bases->stride : 0;
    if (fold) {
        if (opts && opts->window && opts->window != bases->fold_c)
            return g16_fail(G16_ERR_ARG, "%s: window %u asked of bases folded for %u", fn,
                            opts->window, bases->fold_c);
        c = bases->fold_c;
    }
    if (c < 2 || c > 22) return g16_fail(G16_ERR_ARG, "%s: window %u outside [2, 22]", fn, c);
    const int split = !(opts && opts->no_split);
    const unsigned W = msm_windows(c), Wr = fold ? 1 : W;
    if (fold && (bases->fold_w != W || (size_t)W * bases->stride > 0x7fffffffu))
        return g16_fail(G16_ERR_ARG, "%s: folded bases of %u copies, window %u needs %u", fn,
                        bases->fold_w, c, W);
    G16_TRY(g16_cuda_enter(ctx));
    if (n == 0) {
        out->x = F::one(), out->y = F::one(), out->z = F::zero();
        ctx->total_ms = ctx->kernel_ms = 0;
        return G16_OK;
    }
    // Chunks of scalars (a multiple of 64, so that a chunk's density bitmap starts on
    // a word), each a whole MSM over its bases; their window sums and 1-scalar sums add
    // up on the host before the one combination.  A chunk's windows go through the
    // sort in groups of at most max_pairs pairs (msm_chunk), so a chunk takes up to
    // max_pairs scalars (at most MSM_MAX_SCALARS): one chunk for every MSM of a
    // proof up to 2^27 rows.  Folded bases share one bucket set over all windows, so
    // their chunks keep all W windows (max_pairs / W scalars), as every MSM does with
    // the window groups off (G16_CUDA_MSM_WGROUP=0, msm_tuning.cuh).
    size_t max_pairs = opts && opts->max_pairs ? opts->max_pairs : MSM_MAX_PAIRS;
    if (max_pairs > MSM_MAX_PAIRS) max_pairs = MSM_MAX_PAIRS;
    // The affine rounds hold ≈ 0.75 points (72 bytes) a pair besides the sort.
    if (std::is_same<F, g16_dfp>::value && tu.affine && max_pairs > ((size_t)1 << 28))
        max_pairs = (size_t)1 << 28;
    const bool groups = tu.wgroups && !fold;
    size_t m = groups ? (max_pairs < MSM_MAX_SCALARS ? max_pairs : MSM_MAX_SCALARS) : max_pairs / W;
    m &= ~(size_t)63;
    if (m < 64) m = 64;
    // a sort's pairs: every window of a chunk when they do not group, else at least
    // one window of it
    const size_t cap = !groups ? (size_t)W * m : max_pairs > m ? max_pairs : m;
    X acc[255 / 2 + 3];  // Wr <= 129 window sums and the 1-scalar sum
    float total_ms = 0, kernel_ms = 0;
    const A *bs = (const A *)bases->dev;
    for (size_t s0 = 0, r0 = 0; s0 < n; s0 += m) {
        const size_t nc = n - s0 < m ? n - s0 : m;
        const uint64_t *dc = density ? density + s0 / 64 : NULL;
        X hw[255 / 2 + 3];
        G16_TRY(msm_chunk<F>(ctx, hw, bs + r0, scalars ? scalars + s0 : NULL,
                             dev_scalars ? dev_scalars + s0 : NULL, nc, dc, c, W, Wr, split, fold, cap,
                             fn));
        total_ms += ctx->total_ms;
        kernel_ms += ctx->kernel_ms;
        if (s0 == 0) memcpy(acc, hw, (Wr + 1) * sizeof(X));
        else msm_accumulate(acc, hw, Wr + 1);
        r0 += density ? popcount_bits(dc, nc) : nc;
    }
    auto t0 = std::chrono::steady_clock::now();
    msm_combine(out, acc, Wr, c, &acc[Wr]);
    float host_ms =
        std::chrono::duration<float, std::milli>(std::chrono::steady_clock::now() - t0).count();
    ctx->kernel_ms = kernel_ms + host_ms;  // the combination is part of the operation's time
    ctx->total_ms = total_ms + host_ms;
    return G16_OK;
}

// An MSM over the scalars held by g16_cuda_scalars_upload (SLOT_Z).
template <class F>
static g16_status msm_resident(g16_cuda_ctx *ctx, g16_djac<F> *out, const g16_cuda_bases *bases,
                               size_t offset, size_t n, const uint64_t *density,
                               const g16_cuda_msm_opts *opts)
{
    if (!ctx) return g16_fail(G16_ERR_ARG, "g16_cuda_msm_resident: NULL context");
    if (offset > ctx->z_n || n > ctx->z_n - offset)
        return g16_fail(G16_ERR_ARG,
                        "g16_cuda_msm_resident: scalars [%zu, %zu) but %zu are on the device",
                        offset, offset + n, ctx->z_n);
    if (offset + n > ctx->z_ready) {  // past the head of a split upload: wait for its tail
        G16_TRY(g16_cuda_enter(ctx));
        CK(cudaStreamWaitEvent(ctx->stream, ctx->ev_z, 0));
        ctx->z_ready = ctx->z_n;
    }
    const g16_dfr *z = (const g16_dfr *)ctx->slot[SLOT_Z] + offset;
    return msm_run<F>(ctx, out, bases, NULL, n, density, opts, z);
}

#endif
