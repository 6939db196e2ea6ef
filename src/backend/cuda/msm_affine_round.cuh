// One round of the batch-affine bucket accumulation (msm_affine.cuh), per thread,
// as __host__ __device__ code: the kernel runs it on the device and
// tests/gpu/host_msm_affine.cu runs the same code on the host, thread by thread,
// against the CPU curve library.
#ifndef G16_BACKEND_CUDA_MSM_AFFINE_ROUND_CUH
#define G16_BACKEND_CUDA_MSM_AFFINE_ROUND_CUH

#include <string.h>

#include "curve.cuh"

#define AFF_G 16u        // pairs per thread
#define AFF_THREADS 128u // threads per block: one inversion per AFF_G · AFF_THREADS pairs

// Element e of this round's input: a sorted value (round 0: base index | sign) or a
// point of the previous round.  16-byte loads on the device (the structs are only
// 4-byte aligned, see ld_vec in msm_reduce.cuh).
template <class F, bool FIRST>
G16_HD g16_daff<F> aff_load(const g16_daff<F> *in, const g16_daff<F> *bases, const uint32_t *vals,
                            uint32_t e)
{
    const g16_daff<F> *src = FIRST ? &bases[vals[e] & 0x7fffffffu] : &in[e];
    g16_daff<F> p;
#ifdef __CUDA_ARCH__
    static_assert(sizeof p % 16 == 0, "points are whole 16-byte pieces");
    const uint4 *q = reinterpret_cast<const uint4 *>(src);
    uint4 *o = reinterpret_cast<uint4 *>(&p);
#pragma unroll
    for (int i = 0; i < (int)(sizeof p / 16); i++) o[i] = __ldg(q + i);
#else
    memcpy(&p, src, sizeof p);
#endif
    if (FIRST && (vals[e] >> 31)) p.y = p.y.neg();
    return p;
}
template <class F>
G16_HD void aff_store(g16_daff<F> *dst, const g16_daff<F> &p)
{
#ifdef __CUDA_ARCH__
    const uint4 *q = reinterpret_cast<const uint4 *>(&p);
    uint4 *o = reinterpret_cast<uint4 *>(dst);
#pragma unroll
    for (int i = 0; i < (int)(sizeof p / 16); i++) o[i] = q[i];
#else
    memcpy(dst, &p, sizeof p);
#endif
}

// Forward half for the thread whose first pair is p0 (of P): the element and
// output indices of its pairs, the prefix products part[k] = d_0 · … · d_k of their
// denominators, and (returned) their count; *prod = the product of all (1 if none).
// Pair p of bucket b (pair_off[b] <= p < pair_off[b + 1]) adds elements
// cur_off[b] + 2k and + 2k + 1 (k = p − pair_off[b]) into out[out_off[b] + k].
template <class F, bool FIRST>
G16_HD uint32_t aff_forward(F *prod, uint32_t *src, uint32_t *dst, F *part, size_t p0, uint32_t P,
                            const g16_daff<F> *in, const g16_daff<F> *bases, const uint32_t *vals,
                            const uint32_t *cur_off, const uint32_t *pair_off, const uint32_t *out_off,
                            uint32_t nb)
{
    F acc = F::one();
    const uint32_t cnt = p0 >= P ? 0 : (uint32_t)(P - p0 < AFF_G ? P - p0 : AFF_G);
    if (cnt) {
        // the bucket of the first pair: the largest b with pair_off[b] <= p0
        uint32_t lo = 0, hi = nb;
        while (hi - lo > 1) {
            uint32_t mid = lo + (hi - lo) / 2;
            if (pair_off[mid] <= p0) lo = mid;
            else hi = mid;
        }
        uint32_t b = lo;
        for (uint32_t k = 0; k < cnt; k++) {
            const uint32_t p = (uint32_t)p0 + k;
            while (pair_off[b + 1] <= p) b++;
            const uint32_t j = p - pair_off[b];
            src[k] = cur_off[b] + 2 * j;
            dst[k] = out_off[b] + j;
            F d;
            g16_daff_add_den(&d, aff_load<F, FIRST>(in, bases, vals, src[k]),
                             aff_load<F, FIRST>(in, bases, vals, src[k] + 1));
            acc = acc * d;
            part[k] = acc;
        }
    }
    *prod = acc;
    return cnt;
}

// The block's products as a tree in shared memory (heap layout over 2·AFF_THREADS
// entries: leaves at AFF_THREADS + t, node i = node[2i] · node[2i+1], the root at 1),
// built level by level (`half` = AFF_THREADS/2, …, 1; thread t < half computes node
// half + t; the kernel synchronises between levels), and the leaves' inverses from
// the root's: inv[2i] = inv[i] · node[2i+1], inv[2i+1] = inv[i] · node[2i]
// (`half` = 1, 2, …, AFF_THREADS/2).  Critical path log2(AFF_THREADS) products and
// about two products a thread in all: no thread runs a long serial chain.
template <class F>
G16_HD void aff_tree_up(F *node, unsigned half, unsigned t)
{
    if (t < half) node[half + t] = node[2 * (half + t)] * node[2 * (half + t) + 1];
}
template <class F>
G16_HD void aff_tree_down(F *inv, const F *node, unsigned half, unsigned t)
{
    if (t < half) {
        const unsigned i = half + t;
        inv[2 * i] = inv[i] * node[2 * i + 1];
        inv[2 * i + 1] = inv[i] * node[2 * i];
    }
}

// One thread's part of inverting m values v[0..m) in place with the one inversion
// of their total (the round's second kernel, one block): the thread's contiguous
// group [lo, hi) in two passes around the tree of the groups' products.
// Pass 1: v[j] <- the product of the group's values before j; returns the group's
// product.  Pass 2 (inv = 1 / the group's product): v[j] <- 1 / (original v[j]).
// orig: the original values (read again in pass 2).
template <class F>
G16_HD F aff_group_fwd(F *v, const F *orig, size_t lo, size_t hi)
{
    F acc = F::one();
    for (size_t j = lo; j < hi; j++) {
        const F x = orig[j];
        v[j] = acc;
        acc = acc * x;
    }
    return acc;
}
template <class F>
G16_HD void aff_group_bwd(F *v, const F *orig, size_t lo, size_t hi, F inv)
{
    for (size_t j = hi; j-- > lo;) {
        const F t = inv * v[j];
        inv = inv * orig[j];
        v[j] = t;
    }
}

// Backward half: inv = 1 / (the thread's product); peels off each pair's inverse
// and writes the sums.
template <class F, bool FIRST>
G16_HD void aff_backward(g16_daff<F> *out, F inv, uint32_t cnt, const uint32_t *src, const uint32_t *dst,
                         const F *part, const g16_daff<F> *in, const g16_daff<F> *bases,
                         const uint32_t *vals)
{
    for (uint32_t k = cnt; k-- > 0;) {
        const g16_daff<F> a = aff_load<F, FIRST>(in, bases, vals, src[k]);
        const g16_daff<F> c = aff_load<F, FIRST>(in, bases, vals, src[k] + 1);
        F d;
        const int kind = g16_daff_add_den(&d, a, c);
        const F dinv = k ? inv * part[k - 1] : inv;
        inv = inv * d;
        aff_store(&out[dst[k]], g16_daff_add_fin(a, c, dinv, kind));
    }
}

#endif
