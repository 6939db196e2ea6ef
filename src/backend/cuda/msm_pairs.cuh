// Level 0 of the G1 bucket accumulation with affine pair sums (host and device code;
// tests/gpu/host_msm_reduce.cu runs it on the host against the CPU curve).
//
// Why: level 0 (flat chunks of K sorted entries, msm_flat.cuh) is ≈ 80% of a dense G1
// MSM and runs at the card's product rate: each entry is one XYZZ mixed addition, 10
// products.  Two entries of one bucket can instead be added in affine form first
// (λ = (y2 − y1)/(x2 − x1): 3 products once the inverse is known, plus 2 for its share
// of Montgomery's trick and 1 to build the trick's chain) and their sum mixed into the
// bucket: 16 products for two entries instead of 20.  The inverses come in one
// inversion per slice of chunks, shared grid-wide (aff_invert, msm_affine.cuh), so
// the only other cost is a pass that reads the pairs' x coordinates.
//
// How, per slice of chunks (thread t owns chunk t: entries [tK, tK + K), K even, so
// its pairs are (tK + 2j, tK + 2j + 1)):
//   1. pair_suffix: thread t walks its pairs backwards and stores the suffix products
//      pre[j] = Π_{i ≥ j} d_i of the denominators d_i = x2 − x1 of the pairs that are
//      summed (msm_pair_x_ok; others count as 1); the block's product of the threads'
//      pre[0] goes to bp[block] through a tree in shared memory;
//   2. aff_invert: the inverses of all block products with one inversion;
//   3. flat_pair_pieces: the block's tree again, walked down from the block's inverse
//      to 1/pre[0] for each thread; then the chunk in order as msm_flat_chunk does,
//      each summed pair's inverse being J · pre[j + 1] with J = 1/pre[j] carried along
//      (J · d_j is 1/pre[j + 1]).
// A pair is summed when both entries are live entries of one bucket and x1 ≠ x2 with
// neither x 0 (x = 0 is infinity or (0, ±2)): doublings, P + (−P) and infinity go
// through the XYZZ addition one entry at a time, which handles them.  Both kernels
// test exactly that, on the same bytes.
#ifndef G16_BACKEND_CUDA_MSM_PAIRS_CUH
#define G16_BACKEND_CUDA_MSM_PAIRS_CUH

#include "msm_affine_round.cuh"
#include "msm_flat.cuh"

// The x coordinate of an affine point (16-byte loads on the device).
template <class F>
G16_HD F msm_ld_x(const g16_daff<F> *p)
{
#ifdef __CUDA_ARCH__
    static_assert(sizeof(F) % 16 == 0, "coordinates are whole 16-byte pieces");
    union {
        F f;
        uint4 v[sizeof(F) / 16];
    } u;
    const uint4 *s = reinterpret_cast<const uint4 *>(&p->x);
#pragma unroll
    for (int i = 0; i < (int)(sizeof(F) / 16); i++) u.v[i] = __ldg(s + i);
    return u.f;
#else
    return p->x;
#endif
}

template <class F>
G16_HD bool msm_pair_x_ok(const F &x1, const F &x2)
{
    return !x1.is_zero() && !x2.is_zero() && !x1.eq(x2);
}

// Step 1 for thread t (slot u of the slice, pre's rows `stride` apart): stores the
// suffix products of its chunk's pairs and returns the first (1 for no summed pair).
template <class F>
G16_HD F msm_pair_suffix(F *pre, size_t stride, uint32_t u, const uint32_t *keys, const uint32_t *vals,
                         const g16_daff<F> *bases, size_t total, uint32_t nb, uint32_t K, uint32_t t)
{
    const size_t p0 = (size_t)t * K, e = p0 + K < total ? p0 + K : total;
    F s = F::one();
    if (p0 >= e) return s;
    for (uint32_t j = (uint32_t)((e - p0 + 1) / 2); j-- > 0;) {
        const size_t p = p0 + 2 * (size_t)j;
        if (p + 1 < e && keys[p] == keys[p + 1] && keys[p] < nb) {
            const F x1 = msm_ld_x(&bases[vals[p] & 0x7fffffffu]),
                    x2 = msm_ld_x(&bases[vals[p + 1] & 0x7fffffffu]);
            if (msm_pair_x_ok(x1, x2)) s = s * (x2 - x1);
        }
        pre[j * stride + u] = s;
    }
    return s;
}

// Step 3 for thread t, given inv = 1/pre[0]: msm_flat_chunk's partial sums, with the
// summed pairs added in affine form first.  The chunk is a stream of items, each one
// mixed addition: a summed pair, or one entry (a pair that is not summed gives two).
// One addition site keeps the warp together: the first version, with a second path
// adding a pair's two entries, ran both paths in most iterations (a warp of 32
// chunks of 16 pairs almost always holds a pair across a bucket boundary) and took
// G1 2^24 from 109 to 267 ms (session 11, call 2).
template <class F>
G16_HD void msm_flat_pair_chunk(g16_dxyzz<F> *part, const uint32_t *off, const uint32_t *bstart,
                                const uint32_t *keys, const uint32_t *vals, const g16_daff<F> *bases,
                                size_t total, uint32_t nb, uint32_t K, uint32_t t, const F *pre,
                                size_t stride, uint32_t u, F inv)
{
    const size_t p0 = (size_t)t * K, e = p0 + K < total ? p0 + K : total;
    if (p0 >= e) return;
    uint32_t k = keys[p0];
    if (k >= nb) return;
    const uint32_t np = (uint32_t)((e - p0 + 1) / 2);
    g16_dxyzz<F> acc = g16_dxyzz<F>::inf();
    for (size_t p = p0; p < e;) {  // keys[p] == k < nb here
        const uint32_t v1 = vals[p];
        g16_daff<F> q = ld_vec(&bases[v1 & 0x7fffffffu]);
        bool neg = (v1 >> 31) != 0, summed = false;
        const uint32_t j = (uint32_t)((p - p0) / 2);
        if (((p - p0) & 1) == 0 && p + 1 < e && keys[p + 1] == k) {
            const uint32_t v2 = vals[p + 1];
            const g16_daff<F> b = ld_vec(&bases[v2 & 0x7fffffffu]);
            if (msm_pair_x_ok(q.x, b.x)) {
                const F y1 = neg ? q.y.neg() : q.y, y2 = v2 >> 31 ? b.y.neg() : b.y;
                const F d = b.x - q.x;
                const F dinv = j + 1 < np ? inv * pre[(j + 1) * stride + u] : inv;
                inv = inv * d;
                const F lam = (y2 - y1) * dinv;
                const F x3 = lam.sqr() - q.x - b.x;
                q.y = lam * (q.x - x3) - y1;
                q.x = x3;
                neg = false;
                summed = true;
            }
        }
        acc = madd<F>(acc, q, neg);
        p += summed ? 2 : 1;
        const uint32_t kn = p < e ? keys[p] : nb;  // the chunk's end flushes too
        if (kn != k) {
            st_vec(&part[off[k] + t - bstart[k] / K], acc);
            if (kn >= nb) return;
            acc = g16_dxyzz<F>::inf();
            k = kn;
        }
    }
}

#ifdef __CUDACC__
// Step 1 over the slice's threads [t0, t0 + n): bp[block] = its threads' product.
template <class F>
__global__ void __launch_bounds__(AFF_THREADS)
    pair_suffix(F *bp, F *pre, const uint32_t *keys, const uint32_t *vals, const g16_daff<F> *bases,
                size_t total, uint32_t nb, uint32_t K, uint32_t t0, uint32_t n)
{
    __shared__ F node[2 * AFF_THREADS];
    const uint32_t u = blockIdx.x * AFF_THREADS + threadIdx.x;
    F s = F::one();
    if (u < n) s = msm_pair_suffix<F>(pre, n, u, keys, vals, bases, total, nb, K, t0 + u);
    node[AFF_THREADS + threadIdx.x] = s;
    for (unsigned half = AFF_THREADS / 2; half >= 1; half /= 2) {
        __syncthreads();
        aff_tree_up(node, half, threadIdx.x);
    }
    if (threadIdx.x == 0) bp[blockIdx.x] = node[1];
}

// Step 3 over the same threads; bi[block] = 1 / bp[block] (aff_invert).  MB as for
// flat_pieces.
template <class F, int MB>
__global__ void __launch_bounds__(AFF_THREADS, MB)
    flat_pair_pieces(g16_dxyzz<F> *part, const uint32_t *off, const uint32_t *bstart, const uint32_t *keys,
                     const uint32_t *vals, const g16_daff<F> *bases, size_t total, uint32_t nb, uint32_t K,
                     uint32_t t0, uint32_t n, const F *pre, const F *bi)
{
    __shared__ F node[2 * AFF_THREADS], inv[2 * AFF_THREADS];
    const uint32_t u = blockIdx.x * AFF_THREADS + threadIdx.x;
    node[AFF_THREADS + threadIdx.x] = u < n ? pre[u] : F::one();
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
    if (u < n)
        msm_flat_pair_chunk<F>(part, off, bstart, keys, vals, bases, total, nb, K, t0 + u, pre, n, u,
                               inv[AFF_THREADS + threadIdx.x]);
}
#endif

#endif
