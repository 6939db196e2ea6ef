// Bucket reduction of the device MSM: a window's B buckets S_0..S_{B-1} (bucket
// index b holds the points of digit b + 1) become Σ (b + 1)·S_b.  Host and device
// code (tests/gpu/host_msm_reduce.cu runs it on the host against the CPU curve).
//
// Two steps of running sums, so every thread of both is busy and no thread
// multiplies by a long scalar:
//   1. segments of L buckets (L a power of two), one thread each:
//        run_j = Σ_{i<L} S_{jL+i},   acc_j = Σ_{i<L} (i + 1)·S_{jL+i}
//      (running sums, 2L additions);
//   2. chunks of q consecutive segments [j0, j1), one thread each:
//        Σ_j acc_j + L·Σ_j j·run_j
//      since bucket jL + i has weight (i + 1) + jL.  Σ_j j·run_j is again running
//      sums, Σ (j - j0)·run_j, plus j0·Σ run_j by double-and-add (j0 < S: a short
//      scalar, once per chunk of q segments), and L· is log2 L doublings.
//   The chunks' results are then summed (block_sum in msm_impl.cuh).
// Until session 6 each segment added (jL)·run_j by double-and-add itself: about
// c - 1 doublings per L buckets (+40% on the reduction at L = 32), and at c = 16
// only W·B/32 = 16 K threads ran, too few to fill the card.
#ifndef G16_BACKEND_CUDA_MSM_REDUCE_CUH
#define G16_BACKEND_CUDA_MSM_REDUCE_CUH

#include "curve.cuh"

// Points move between registers and device memory in 16-byte pieces: their sizes
// are multiples of 16 (G1 affine 96, XYZZ 192 bytes) and every device array of
// points starts 16-byte aligned (cudaMalloc), but the structs' alignment is only
// 4, so plain copies compiled to one 4-byte load per word (24 per G1 base).
template <class T>
G16_HD T ld_vec(const T *p)
{
#ifdef __CUDA_ARCH__
    static_assert(sizeof(T) % 16 == 0, "points are whole 16-byte pieces");
    union {
        T t;
        uint4 v[sizeof(T) / 16];
    } u;
    const uint4 *s = reinterpret_cast<const uint4 *>(p);
#pragma unroll
    for (int i = 0; i < (int)(sizeof(T) / 16); i++) u.v[i] = __ldg(s + i);
    return u.t;
#else
    return *p;
#endif
}
template <class T>
G16_HD void st_vec(T *p, const T &x)
{
#ifdef __CUDA_ARCH__
    union {
        T t;
        uint4 v[sizeof(T) / 16];
    } u;
    u.t = x;
    uint4 *d = reinterpret_cast<uint4 *>(p);
#pragma unroll
    for (int i = 0; i < (int)(sizeof(T) / 16); i++) d[i] = u.v[i];
#else
    *p = x;
#endif
}

// Point additions inlined where the field type's products are (F::inl): G1, and
// G2's g16_dfp2_hot (msm_impl.cuh, hot_field); as calls, the point routines pass
// 192- or 384-byte points through local memory.
template <class F>
G16_HD g16_dxyzz<F> madd(const g16_dxyzz<F> &a, const g16_daff<F> &q, bool neg)
{
    if constexpr (F::inl) return a.add_affine_inl(q, neg);
    else return a.add_affine(q, neg);
}
template <class F>
G16_HD g16_dxyzz<F> padd(const g16_dxyzz<F> &a, const g16_dxyzz<F> &b)
{
    if constexpr (F::inl) return a.add_inl(b);
    else return a.add(b);
}

// Segments a thread of step 2 combines.
#define MSM_SEG_CHUNK 16u

// The bucket layout of one MSM chunk at window c with Wr bucket sets: B buckets a set,
// nb in all (keys 0..nb−1, nb the zero digits' sentinel, so a sort on end_bit bits);
// segments of L buckets (the power of two at most seg_len, at most B), S a set, and nt
// chunks of MSM_SEG_CHUNK segments a set; L = 2^lg_l.
struct msm_shape {
    uint32_t B, nb, S, L, nt;
    unsigned end_bit, lg_l;
};
G16_HD msm_shape msm_shape_of(unsigned c, unsigned Wr, uint32_t seg_len)
{
    msm_shape h;
    h.B = 1u << (c - 1);
    h.nb = Wr * h.B;
    h.end_bit = 1;
    while (((uint64_t)1 << h.end_bit) <= h.nb) h.end_bit++;  // the sentinel nb must fit too
    uint32_t seg = 1;
    while (seg * 2 <= seg_len && seg < (1u << 30)) seg *= 2;  // a power of two
    h.S = h.B > seg ? h.B / seg : 1;
    h.L = h.B / h.S;
    h.nt = (h.S + MSM_SEG_CHUNK - 1) / MSM_SEG_CHUNK;
    h.lg_l = 0;
    while ((1u << h.lg_l) < h.L) h.lg_l++;
    return h;
}

// Where step 1's sum a starts, and what takes it back off.  From infinity, a segment
// whose buckets are mostly empty (a short WindowPoSt partition padded by repeating its
// last sector: few distinct scalars, so most of a window's 2^19 buckets stay empty)
// makes a == r one step after its first full bucket, and padd doubles; warps whose
// lanes branch between addition and doubling took 32 ms for a G1 reduction at c = 20
// where distinct scalars take 8 (ncu, H100, thirteenth session).  Started at a fixed
// point of unknown discrete log (ta), a meets r only by a relation nobody can find,
// and fa = −ta takes it off at the end.  r still starts at infinity: an empty bucket
// then costs a uniform skip, not an addition (the top window's are mostly empty: with
// r at an offset too, a dense reduction took 20% longer), and r can still meet an
// equal bucket (such a sparse reduction now takes 12 ms, not 8).  Any ta gives the right
// sums (padd stays complete); tests/gpu/host_msm_reduce.cu runs infinity and a ta
// equal to a bucket too.
template <class F>
struct msm_seg_off {
    g16_dxyzz<F> ta, fa;
};

// Step 1 for the segment b[0..L): *run = Σ b_i, *acc = Σ (i + 1)·b_i.
template <class F>
G16_HD void msm_seg_sums(g16_dxyzz<F> *acc, g16_dxyzz<F> *run, const g16_dxyzz<F> *b, uint32_t L,
                         const msm_seg_off<F> &o)
{
    g16_dxyzz<F> r = g16_dxyzz<F>::inf(), a = o.ta;
    for (uint32_t i = L; i-- > 0;) {
        r = padd<F>(r, ld_vec(&b[i]));
        a = padd<F>(a, r);
    }
    *acc = padd<F>(a, o.fa), *run = r;
}

// Step 2 for the segments [j0, j1) of one window (acc, run: its step-1 sums):
// Σ_j acc_j + 2^lg_l · Σ_j j·run_j.
template <class F>
G16_HD g16_dxyzz<F> msm_seg_combine(const g16_dxyzz<F> *acc, const g16_dxyzz<F> *run, uint32_t j0,
                                    uint32_t j1, unsigned lg_l)
{
    typedef g16_dxyzz<F> X;
    X p = X::inf(), a = X::inf(), r = X::inf();
    for (uint32_t j = j1; j-- > j0;) {
        a = padd<F>(a, r);  // a gains the runs above j once more: Σ (j' - j0)·run_j'
        r = padd<F>(r, ld_vec(&run[j]));
        p = padd<F>(p, ld_vec(&acc[j]));
    }
    X m = X::inf();  // j0·r
    int top = -1;
    while (top < 31 && (j0 >> (top + 1))) top++;
    for (int bit = top; bit >= 0; bit--) {
        m = m.dbl();
        if ((j0 >> bit) & 1) m = padd<F>(m, r);
    }
    a = padd<F>(a, m);
    for (unsigned k = 0; k < lg_l; k++) a = a.dbl();
    return padd<F>(p, a);
}

// Step 1 for segment j of window w, t = w·S + j:
// sacc[t] = Σ (i + 1)·S_{jL+i}, srun[t] = Σ S_{jL+i}.
template <class F>
__global__ void bucket_reduce(g16_dxyzz<F> *sacc, g16_dxyzz<F> *srun, const g16_dxyzz<F> *buckets,
                              uint32_t B, uint32_t L, uint32_t S, uint32_t W, const msm_seg_off<F> o)
{
    uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= W * S) return;
    uint32_t w = t / S, j = t % S;
    g16_dxyzz<F> a, r;
    msm_seg_sums<F>(&a, &r, buckets + (size_t)w * B + (size_t)j * L, L, o);
    st_vec(&sacc[t], a);
    st_vec(&srun[t], r);
}

// Step 2: y[w·nt + u] = the chunk [u·q, u·q + q) of window w's S segments.
template <class F>
__global__ void seg_combine(g16_dxyzz<F> *y, const g16_dxyzz<F> *sacc, const g16_dxyzz<F> *srun,
                            uint32_t S, unsigned lg_l, uint32_t q, uint32_t nt, uint32_t W)
{
    uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= W * nt) return;
    uint32_t w = t / nt, j0 = (t % nt) * q, j1 = j0 + q < S ? j0 + q : S;
    st_vec(&y[t], msm_seg_combine<F>(sacc + (size_t)w * S, srun + (size_t)w * S, j0, j1, lg_l));
}

#endif
