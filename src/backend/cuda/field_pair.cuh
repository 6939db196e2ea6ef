// Fp2 spread over a pair of adjacent lanes (device only): the even lane of the pair
// holds c0, the odd lane c1, so a G2 XYZZ point costs each lane 48 registers instead
// of 96.  One thread a G2 point spills 244–380 B at 255 registers in level 0 of the
// accumulation and runs it at about half the product rate G1 reaches (docs/cuda.md);
// a pair has the registers of two threads for the same work.
//
// Products exchange the partner's half with 12 shuffles an operand and split the
// schoolbook product by component:
//   even lane  c0 = a0·b0 − a1·b1,   odd lane  c1 = a1·b0 + a0·b1,
// each one sum of two products with one Montgomery reduction (g16_mont::sop: 3N²
// wide products), so the pair does 6N² like Karatsuba's three products (3 × 2N²),
// without Karatsuba's additions.  Squares: (a0 + a1)(a0 − a1) on the even lane,
// (2a1)·a0 on the odd one: one product each.
//
// Both lanes of a pair must take the same branches: every test that decides one
// (is_zero, eq) is the AND over the pair, and shuffles name only the pair's two
// lanes, so pairs of one warp may diverge from each other.  Blocks must have an even
// number of threads (lane pairs are threadIdx.x ^ 1).
#ifndef G16_BACKEND_CUDA_FIELD_PAIR_CUH
#define G16_BACKEND_CUDA_FIELD_PAIR_CUH

#include "curve.cuh"

#ifdef __CUDACC__
// A template over the Fp type only so that its BN254 compile (g16_cuda_bn254) gets
// names of its own (scripts/gen-cuda-names.sh says why that matters).
template <class FP>
struct g16_dfp2_pair_t {
    typedef g16_dfp2_pair_t P2;
    FP v;  // this lane's component: c0 on the even lane, c1 on the odd one

    static constexpr bool inl = true;  // point additions inline (msm_reduce.cuh madd)

    __device__ static uint32_t odd() { return threadIdx.x & 1u; }
    __device__ static unsigned pair_mask() { return 3u << ((threadIdx.x & 31u) & ~1u); }
    __device__ static FP other(const FP &a)
    {
        FP r;
        const unsigned m = pair_mask();
#pragma unroll
        for (int i = 0; i < FP::N; i++) r.l[i] = __shfl_xor_sync(m, a.l[i], 1);
        return r;
    }
    __device__ static bool both(bool b)
    {
        return __shfl_xor_sync(pair_mask(), (int)b, 1) != 0 && b;
    }
    __device__ static FP sel(uint32_t s, const FP &a, const FP &b)
    {
        FP r;
#pragma unroll
        for (int i = 0; i < FP::N; i++) r.l[i] = s ? a.l[i] : b.l[i];
        return r;
    }

    __device__ static P2 zero() { return {FP::zero()}; }
    __device__ static P2 one() { return {odd() ? FP::zero() : FP::one()}; }
    __device__ bool is_zero() const { return both(v.is_zero()); }
    __device__ bool eq(const P2 &b) const { return both(v.eq(b.v)); }
    __device__ friend P2 operator+(const P2 &a, const P2 &b) { return {a.v + b.v}; }
    __device__ friend P2 operator-(const P2 &a, const P2 &b) { return {a.v - b.v}; }
    __device__ P2 dbl() const { return {v.dbl()}; }
    __device__ P2 neg() const { return {v.neg()}; }

    // even: a0·b0 + a1·(−b1); odd: a1·b0 + a0·b1 (the lane's own a first).
    __device__ friend P2 operator*(const P2 &a, const P2 &b)
    {
        const uint32_t o = odd();
        const FP ao = other(a.v), bo = other(b.v);
        const FP x = sel(o, bo, b.v), y = sel(o, b.v, FP::zero() - bo);
#if G16_CURVE_BN254  // sop's bound (m < 2^(32N−3)) does not hold for BN254's p
        return {a.v * x + ao * y};
#else
        return {FP::sop(a.v, x, ao, y)};
#endif
    }
    // even: (a0 + a1)(a0 − a1); odd: (a1 + a1)·a0.
    __device__ P2 sqr() const
    {
        const uint32_t o = odd();
        const FP w = other(v);
        return {(v + sel(o, v, w)) * sel(o, w, v - w)};
    }
};
typedef g16_dfp2_pair_t<g16_dfp> g16_dfp2_pair;
#endif

#endif
