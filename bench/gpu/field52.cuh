// Two BLS12-381 Fp Montgomery products that use Hopper's FP64 pipe (for
// bench/gpu/pipes_probe.cu only: both measured slower than field.cuh's product).
//
// Why it was tried: field.cuh's 12 x 32-bit product is bound by IMAD.WIDE (9.45 SM
// clocks a product on the H100), while the FP64 pipe (64 DFMA a clock an SM) idles.
// Here operands are 8 limbs of 52 bits held in doubles; a limb product's two halves
// come from two DFMA.RZ with the 2^104 / 2^52 offsets (exact: every intermediate is
// an integer on the right grid below 2^105), and the halves are summed as 64-bit
// integers (the doubles' bit patterns; their exponent bits are a constant a column,
// taken off once).  mul52: all products on FP64.  mul52h: a·b on the IMAD pipe (rows
// as operator*, no reduction steps), only the reduction on FP64.
//
// Measured (fourteenth session, H100, docs/BENCHMARKS.md): 11.32 (mul52) and 15.39
// (mul52h) SM clocks a product against 9.45; with mul52h in the operators (commit
// 78aaa83) a G1 MSM 2^24 took 235.5 ms against 110.3.  The integer side (the 64-bit
// column sums, the limb conversions, and in mul52h the IMAD rows' carries spilled to
// predicates between rows) costs more issue slots than the IMAD products it replaces.
//
// Contract as g16_mont::operator*: a, b fully reduced 12 x 32-bit words, result
// a·b·2^-384 mod p fully reduced.  R is 2^416 here, so a enters shifted left by 32 bits
// (a·2^32 < 2^413): REDC(a·2^32·b) = a·b·2^-384, and a·2^32·b < 2^416·p keeps the
// result below 2p (one conditional subtraction).
#ifndef G16_BENCH_FIELD52_CUH
#define G16_BENCH_FIELD52_CUH

#include <stdint.h>

#include "field.cuh"

#define M52 0xfffffffffffffull
#define B_LO 0x4330000000000000ull  // bit pattern of 2^52 (+ a 52-bit integer)
#define B_HI 0x4670000000000000ull  // bit pattern of 2^104 (+ a 52-bit integer · 2^52)

__device__ __forceinline__ double m52_d(uint64_t x)  // x < 2^52, exactly
{
    return __longlong_as_double((long long)(x | B_LO)) - 0x1p52;
}

// The 52-bit window of w (NW words) starting at bit s (s may be negative: zeros below).
template <int NW = 12>
__device__ __forceinline__ uint64_t m52_win(const uint32_t *w, int s)
{
    if (s < 0) return ((uint64_t)w[0] << -s) & M52;
    const int k = s >> 5, off = s & 31;
    uint64_t v = ((uint64_t)(k + 1 < NW ? w[k + 1] : 0) << 32 | w[k]) >> off;
    if (off + 52 > 64 && k + 2 < NW) v |= (uint64_t)w[k + 2] << (64 - off);
    return v & M52;
}

// Terms a column k of 16 receives: lo halves of the m(k) products and m(k) reductions,
// hi halves of those of column k-1.
__host__ __device__ constexpr int m52_m(int k) { return k < 0 || k > 14 ? 0 : (k <= 7 ? k + 1 : 15 - k); }
__host__ __device__ constexpr uint64_t m52_bias(int k, int with_product)
{
    return (uint64_t)((1 + with_product) * m52_m(k)) * B_LO +
           (uint64_t)((1 + with_product) * m52_m(k - 1)) * B_HI;
}

__device__ __forceinline__ void m52_prod(double a, double b, uint64_t &lo, uint64_t &hi)
{
    const double h = __fma_rz(a, b, 0x1p104);
    const double l = __fma_rz(a, b, (0x1p104 + 0x1p52) - h);
    hi = (uint64_t)__double_as_longlong(h);
    lo = (uint64_t)__double_as_longlong(l);
}

template <class M, int P> __device__ __forceinline__ M m52_redc(uint64_t *c);

template <class M>
__device__ __forceinline__ M mul52(const M &A, const M &B)
{
    double a[8], b[8];
#pragma unroll
    for (int i = 0; i < 8; i++) a[i] = m52_d(m52_win(A.l, 52 * i - 32)), b[i] = m52_d(m52_win(B.l, 52 * i));
    uint64_t c[16];
#pragma unroll
    for (int k = 0; k < 16; k++) c[k] = 0;
#pragma unroll
    for (int i = 0; i < 8; i++)
#pragma unroll
        for (int j = 0; j < 8; j++) {
            uint64_t lo, hi;
            m52_prod(a[i], b[j], lo, hi);
            c[i + j] += lo;
            c[i + j + 1] += hi;
        }
    return m52_redc<M, 1>(c);
}

// Columns 0..15 (column k's exponent bits: m52_bias(k, P) with P = 1 when the product's
// halves are in them too) reduced by 2^416: eight word steps, then limbs 8..15 to 12 words.
template <class M, int P>
__device__ __forceinline__ M m52_redc(uint64_t *c)
{
    const double N[8] = {(double)0xeffffffffaaabull, (double)0xfeb153ffffb9full,
                         (double)0x6b0f6241eabffull, (double)0x12bf6730d2a0full,
                         (double)0x764774b84f385ull, (double)0x1ba7b6434bacdull,
                         (double)0x1ea397fe69a4bull, (double)0x1a011ull};
    const double NP = (double)0x3fffcfffcfffdull;  // -p^-1 mod 2^52
#pragma unroll
    for (int i = 0; i < 8; i++) {
        // q = (c_i mod 2^52)·(-p^-1) mod 2^52: the exponent bits of the bias are above bit 52.
        const double t = m52_d(c[i] & M52);
        const double h = __fma_rz(t, NP, 0x1p104);
        const double q = __fma_rz(t, NP, (0x1p104 + 0x1p52) - h) - 0x1p52;
#pragma unroll
        for (int j = 0; j < 8; j++) {
            uint64_t lo, hi;
            m52_prod(q, N[j], lo, hi);
            c[i + j] += lo;
            c[i + j + 1] += hi;
        }
        c[i + 1] += (c[i] - m52_bias(i, P)) >> 52;
    }
    uint64_t r[8], carry = 0;
#pragma unroll
    for (int k = 0; k < 8; k++) {
        const uint64_t v = c[8 + k] - m52_bias(8 + k, P) + carry;
        r[k] = v & M52, carry = v >> 52;
    }
    uint32_t w[12];
#pragma unroll
    for (int t = 0; t < 12; t++) {
        const int s = 32 * t, i = s / 52, off = s % 52;
        uint64_t v = r[i] >> off;
        if (off + 32 > 52 && i + 1 < 8) v |= r[i + 1] << (52 - off);
        w[t] = (uint32_t)v;
    }
    return M::reduce_once(w, (uint32_t)(r[7] >> 20));
}

// t·2^-384 mod p, fully reduced, for t < 2^763 in 24 words (a product, a square or a
// sum of two products made on the IMAD pipe): t·2^32 < 2^795 in 16 limbs of 52 bits,
// reduced by R = 2^416 on the FP64 pipe ((t·2^32 + q·p)/R < 2^379 + p < 2p).
template <class M>
__device__ __forceinline__ M m52_redc_wide(const uint32_t *t)
{
    uint64_t c[16];
#pragma unroll
    for (int k = 0; k < 16; k++) c[k] = m52_win<24>(t, 52 * k - 32);
    return m52_redc<M, 0>(c);
}

// a·b (plus c·d when SOP) in 24 words: operator*'s rows without its reduction steps.
template <class M, bool SOP>
__device__ __forceinline__ void m52_wide(uint32_t *t, const M &a, const M &b, const M &c, const M &d)
{
    uint32_t ev[12], od[12], pend = 0;
#pragma unroll
    for (int k = 0; k < 12; k++) ev[k] = od[k] = 0;
#pragma unroll
    for (int i = 0; i < 12; i++) {
        M::template row<true>(ev, od, pend, a, b.l[i]);
        if (SOP) M::template row<false>(ev, od, 0, c, d.l[i]);
        t[i] = ev[0];
        M::redc_shift(ev, od, pend);
    }
    M::redc_fold(ev, od, pend);
#pragma unroll
    for (int k = 0; k < 12; k++) t[12 + k] = ev[k];
}

// The product with a·b on the IMAD pipe (12 x 32-bit rows, as operator*) and the
// reduction on the FP64 pipe.
template <class M>
__device__ __forceinline__ M mul52h(const M &A, const M &B)
{
    uint32_t t[24];
    m52_wide<M, false>(t, A, B, A, B);
    return m52_redc_wide<M>(t);
}
template <class M>
__device__ __forceinline__ M sop52h(const M &A, const M &B, const M &C, const M &D)
{
    uint32_t t[24];
    m52_wide<M, true>(t, A, B, C, D);
    return m52_redc_wide<M>(t);
}
#endif
