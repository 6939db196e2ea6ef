// Signed window digits of the device MSM, as __host__ __device__ code so that
// tests/gpu/host_msm.cu checks them on machines without a GPU: for every window
// width the digits of any scalar < r must recombine to the scalar, lie in
// [-2^(c-1), 2^(c-1)], and never carry out of the top window.
#ifndef G16_BACKEND_CUDA_MSM_DIGITS_CUH
#define G16_BACKEND_CUDA_MSM_DIGITS_CUH

#include <stddef.h>
#include <stdint.h>

#include "field.cuh"

// Bits [start, start + c) of the canonical scalar s (c <= 32).
G16_HD uint32_t window_bits(const g16_dfr &s, unsigned start, unsigned c)
{
    unsigned q = start >> 5, sh = start & 31;
    if (q >= 8) return 0;
    uint64_t v = s.l[q];
    if (q + 1 < 8) v |= (uint64_t)s.l[q + 1] << 32;
    return (uint32_t)(v >> sh) & ((1u << c) - 1);
}

// The signed digit of window w: its bits plus the carry from the window below,
// moved into [-B, B] (B = 2^(c-1)) by borrowing 2^c from the window above.
G16_HD int32_t msm_signed_digit(const g16_dfr &s, unsigned w, unsigned c, uint32_t &carry)
{
    const uint32_t B = 1u << (c - 1);
    uint32_t raw = window_bits(s, w * c, c) + carry;
    carry = raw > B;
    return carry ? (int32_t)raw - (int32_t)(2 * B) : (int32_t)raw;
}

// The sorted (key, value) pair of the nonzero digit d of window w for base bi.
// Plain bases: window w owns buckets [w·B, (w+1)·B), key = w·B + |d| − 1, value =
// bi.  Folded bases (fold_stride > 0, g16_cuda_bases_fold): every window shares
// the B buckets and the value picks the shifted copy, key = |d| − 1, value =
// w·fold_stride + bi.  The sign of d is the value's top bit.
G16_HD void msm_pair(int32_t d, unsigned w, uint32_t B, uint32_t bi, size_t fold_stride,
                     uint32_t *key, uint32_t *val)
{
    const uint32_t m = (uint32_t)(d < 0 ? -d : d) - 1, sign = d < 0 ? 0x80000000u : 0u;
    if (fold_stride) {
        *key = m;
        *val = ((uint32_t)(w * fold_stride) + bi) | sign;
    } else {
        *key = w * B + m;
        *val = bi | sign;
    }
}

// Scalar s's pairs (base bi) for windows [w0, w0 + Wc) of its digits, at
// keys/vals[(w - w0)·stride + at]; keys count the group's windows from w0 (the
// plain bases' sentinel for "no digit" is Wc·B, the folded ones' B).  !live
// writes sentinels only.  Returns the carry out of window w0 + Wc − 1, an error
// only where that is the top window.  One function for every group, so that
// tests/gpu/host_msm.cu checks on the host that the groups' pairs are the whole
// MSM's (docs/cuda.md, "Window groups").
G16_HD uint32_t msm_scalar_pairs(uint32_t *keys, uint32_t *vals, const g16_dfr &s, bool live,
                                 uint32_t bi, unsigned c, unsigned w0, unsigned Wc,
                                 size_t fold_stride, size_t at, size_t stride)
{
    const uint32_t B = 1u << (c - 1), sentinel = fold_stride ? B : Wc * B;
    uint32_t carry = 0;  // the digits below w0 only carry into the group's first
    for (unsigned w = 0, we = w0 + Wc; w < we; w++) {
        uint32_t key = sentinel, val = 0;
        const int32_t d = live ? msm_signed_digit(s, w, c, carry) : 0;
        if (w < w0) continue;
        if (d != 0) msm_pair(d, fold_stride ? w : w - w0, B, bi, fold_stride, &key, &val);
        keys[(size_t)(w - w0) * stride + at] = key;
        vals[(size_t)(w - w0) * stride + at] = val;
    }
    return carry;
}

// Windows for c-bit signed digits of scalars < r (2 <= c <= 22): ceil(255/c), plus
// one when the top window's largest value (r's top bits) plus a carry from below
// can exceed B = 2^(c-1) and so carry out (r ≈ 0.905·2^255: c = 3, 5, 15, 17, ...).
// Such an extra window holds only carries (one bucket, up to n entries), which the
// level split of accumulate_buckets spreads over threads.
static inline unsigned msm_windows(unsigned c)
{
    // bits 192..255 of r (BN254's r < 2^254 takes the same count: its top window
    // rarely fills, and the test below adds the carry window where it can)
    const uint64_t r_top = ((uint64_t)g16_fr_params::mod(7) << 32) | g16_fr_params::mod(6);
    unsigned W = (255 + c - 1) / c;
    unsigned k = c * (W - 1);  // >= 255 - c >= 233 for c <= 22
    uint64_t top = r_top >> (k - 192);
    if (top + 1 > (1ull << (c - 1))) W++;
    return W;
}

// Windows a sort takes (a group) when all W windows of n_live pairs each would
// exceed cap pairs: the fewest groups that fit, ceil(W / groups) windows each (the
// last takes what is left).  Grouping windows instead of cutting the scalars
// into chunks keeps one bucket set a window: each group pays the bucket reduction
// of its own windows only, where each chunk of scalars paid a whole MSM's (docs/cuda.md,
// "Window groups").  Needs n_live <= cap; W when everything fits one sort.
static inline unsigned msm_group_windows(unsigned W, size_t n_live, size_t cap)
{
    if (n_live == 0 || (size_t)W * n_live <= cap) return W;
    const size_t per = cap / n_live;  // >= 1 when n_live <= cap
    if (per == 0) return 1;
    const size_t groups = (W + per - 1) / per;
    return (unsigned)((W + groups - 1) / groups);
}

// Whether scalar i (Montgomery form, as stored: 0 is 0, 1 is R mod r) counts towards
// the window size: it has a base (its bit in a density bitmap, when there is one)
// and is neither 0 nor, with split, 1.  No product needed.
G16_HD bool msm_counts(const g16_dfr &v, const uint64_t *dens, size_t i, int split)
{
    if (dens && !((dens[i >> 6] >> (i & 63)) & 1)) return false;
    return !v.is_zero() && !(split && v.is_one());
}

// The window from n, measured on the H200 (docs/cuda.md): c = log2 n − 4 up to 16,
// and 20 from 2^lg_big (G1: 2^24, G2: 2^25).  Larger windows cost more in the bucket
// reduction (W·2^(c−1) buckets) than they save in additions until the reduction
// and level 0 of the accumulation are cheap per bucket.  Session 6 (reduction of
// msm_reduce.cuh, flat level 0 in chunks of 32): G1 2^24 c = 16/20 126.9/118.5 ms,
// 2^26 c = 20/21/22 426/458/455 (sessions 2–5 chose 16 and 19 with a reduction 4×
// slower per bucket).  G2 2^24: c = 16/19 448/445, so G2 keeps 16 there (with the lane
// pairs, eighth session: 16/18 374/378 ms); from 2^25 20 (680 against 755 ms at 16).  c_max
// (tuning) caps the result.
static inline unsigned msm_auto_window(size_t n, unsigned c_max, unsigned lg_big)
{
    unsigned lg = 0;
    while (((size_t)2 << lg) <= n) lg++;
    int c = (int)lg - 4;
    c = c < 4 ? 4 : c > 16 ? 16 : c;
    if (lg >= lg_big) c = 20;
    return (unsigned)c > c_max ? c_max : (unsigned)c;
}

#endif
