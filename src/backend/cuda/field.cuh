// Device field arithmetic for BLS12-381: Fp (12 x 32-bit limbs), Fr (8 x 32-bit
// limbs) and Fp2 (BN254 with G16_CURVE_BN254: Fp and Fr of 8 limbs each, below), over the SAME bytes as the CPU's g16_fp / g16_fr (Montgomery
// form with R = 2^384 / 2^256, little-endian, fully reduced), so a device array
// is a plain copy of a host array and results compare with memcmp.
//
// Multiplication: Montgomery CIOS with products kept in two accumulators, one for
// the limbs a[j] with j even and one for j odd.  Every 32x32 product then lands on
// an aligned (lo, hi) word pair of one accumulator, so each product is one
// mad.lo.cc/madc.hi.cc pair that ptxas fuses into a single IMAD.WIDE.U32 (KERNELS.md:
// 26.2 G Fp-mul/s on the H200 against 17.6 G/s for separate lo and hi chains).
// After each step the accumulators swap roles (dividing by 2^32 moves the odd one
// to even positions) so no shift pass is needed.
//
// Every function is __host__ __device__: on the host the PTX carry instructions
// are emulated in C (same instruction sequence, explicit carry flag), so the exact
// device algorithm is unit-tested on machines without a GPU (tests/gpu/host_field.cu).
#ifndef G16_BACKEND_CUDA_FIELD_CUH
#define G16_BACKEND_CUDA_FIELD_CUH

#include <stdint.h>

#define G16_HD __host__ __device__ __forceinline__

// --- carry-chain primitives ------------------------------------------------------
// Device: one PTX instruction each; the carry flag lives between consecutive asm
// statements of one chain (nothing that clobbers it is emitted in between).
// Host: the same semantics with the flag in the caller's local `cf`.
#ifdef __CUDA_ARCH__
#define CF_DECL
#define MADLO_CC(d, a, b)  asm volatile("mad.lo.cc.u32 %0, %1, %2, %0;" : "+r"(d) : "r"(a), "r"(b))
#define MADHI_CC(d, a, b)  asm volatile("mad.hi.cc.u32 %0, %1, %2, %0;" : "+r"(d) : "r"(a), "r"(b))
#define MADCLO_CC(d, a, b) asm volatile("madc.lo.cc.u32 %0, %1, %2, %0;" : "+r"(d) : "r"(a), "r"(b))
#define MADCHI_CC(d, a, b) asm volatile("madc.hi.cc.u32 %0, %1, %2, %0;" : "+r"(d) : "r"(a), "r"(b))
#define ADD_CC(d, a)       asm volatile("add.cc.u32 %0, %0, %1;" : "+r"(d) : "r"(a))
#define ADDC_CC(d, a)      asm volatile("addc.cc.u32 %0, %0, %1;" : "+r"(d) : "r"(a))
#define ADDC(d, a)         asm volatile("addc.u32 %0, %0, %1;" : "+r"(d) : "r"(a))
#define SUB_CC(d, a)       asm volatile("sub.cc.u32 %0, %0, %1;" : "+r"(d) : "r"(a))
#define SUBC_CC(d, a)      asm volatile("subc.cc.u32 %0, %0, %1;" : "+r"(d) : "r"(a))
#define SUBC(d, a)         asm volatile("subc.u32 %0, %0, %1;" : "+r"(d) : "r"(a))
#else
#define CF_DECL uint32_t cf = 0;
#define G16_EMU_(d, v, cin)                                     \
    do {                                                        \
        uint64_t t_ = (uint64_t)(d) + (uint64_t)(v) + (cin);    \
        (d) = (uint32_t)t_;                                     \
        cf = (uint32_t)(t_ >> 32);                              \
    } while (0)
#define LO_(a, b) ((uint32_t)((uint64_t)(a) * (b)))
#define HI_(a, b) ((uint32_t)(((uint64_t)(a) * (b)) >> 32))
#define MADLO_CC(d, a, b)  G16_EMU_(d, LO_(a, b), 0)
#define MADHI_CC(d, a, b)  G16_EMU_(d, HI_(a, b), 0)
#define MADCLO_CC(d, a, b) G16_EMU_(d, LO_(a, b), cf)
#define MADCHI_CC(d, a, b) G16_EMU_(d, HI_(a, b), cf)
#define ADD_CC(d, a)       G16_EMU_(d, a, 0)
#define ADDC_CC(d, a)      G16_EMU_(d, a, cf)
#define ADDC(d, a)         G16_EMU_(d, a, cf)
// Subtraction: the flag is the borrow (PTX subc computes a - (b + CF)).
#define G16_EMUS_(d, v, bin)                                    \
    do {                                                        \
        uint64_t t_ = (uint64_t)(d) - (uint64_t)(v) - (bin);    \
        (d) = (uint32_t)t_;                                     \
        cf = (uint32_t)(t_ >> 63);                              \
    } while (0)
#define SUB_CC(d, a)       G16_EMUS_(d, a, 0)
#define SUBC_CC(d, a)      G16_EMUS_(d, a, cf)
#define SUBC(d, a)         G16_EMUS_(d, a, cf)
#endif

// --- moduli -------------------------------------------------------------------------
#if G16_CURVE_BN254
// BN254 (docs/curve.md): the same templates over the 254-bit Fp and Fr, 8 limbs each,
// the constants split from src/bn254/consts.h's 64-bit words.  The parameter structs
// get their own names so that every kernel templated on them mangles apart from the
// BLS12-381 instantiation in the same binary.
#include "bn254/consts.h"
#define G16_LIMB32_(arr, i) ((uint32_t)((arr)[(i) / 2] >> (32 * ((i) % 2))))
struct g16_bn254_fp_params {
    static constexpr int N = 8;
    static constexpr uint32_t N0 = (uint32_t)G16_BN254_FP_N0;  // -p^-1 mod 2^32
    G16_HD static uint32_t mod(int i)
    {
        const uint64_t m[4] = G16_BN254_FP_MODULUS;
        return G16_LIMB32_(m, i);
    }
    G16_HD static uint32_t one(int i)
    {
        const uint64_t m[4] = G16_BN254_FP_ONE_MONT;
        return G16_LIMB32_(m, i);
    }
};
struct g16_bn254_fr_params {
    static constexpr int N = 8;
    static constexpr uint32_t N0 = (uint32_t)G16_BN254_FR_N0;
    G16_HD static uint32_t mod(int i)
    {
        const uint64_t m[4] = G16_BN254_FR_MODULUS;
        return G16_LIMB32_(m, i);
    }
    G16_HD static uint32_t one(int i)
    {
        const uint64_t m[4] = G16_BN254_FR_ONE_MONT;
        return G16_LIMB32_(m, i);
    }
};
#define g16_fp_params g16_bn254_fp_params
#define g16_fr_params g16_bn254_fr_params
#else
struct g16_fp_params {
    static constexpr int N = 12;
    static constexpr uint32_t N0 = 0xfffcfffdu;  // -p^-1 mod 2^32
    G16_HD static uint32_t mod(int i)
    {
        const uint32_t m[12] = {0xffffaaabu, 0xb9feffffu, 0xb153ffffu, 0x1eabfffeu,
                                0xf6b0f624u, 0x6730d2a0u, 0xf38512bfu, 0x64774b84u,
                                0x434bacd7u, 0x4b1ba7b6u, 0x397fe69au, 0x1a0111eau};
        return m[i];
    }
    // R mod p (Montgomery one).
    G16_HD static uint32_t one(int i)
    {
        const uint32_t m[12] = {0x0002fffdu, 0x76090000u, 0xc40c0002u, 0xebf4000bu,
                                0x53c758bau, 0x5f489857u, 0x70525745u, 0x77ce5853u,
                                0xa256ec6du, 0x5c071a97u, 0xfa80e493u, 0x15f65ec3u};
        return m[i];
    }
};

struct g16_fr_params {
    static constexpr int N = 8;
    static constexpr uint32_t N0 = 0xffffffffu;  // -r^-1 mod 2^32
    G16_HD static uint32_t mod(int i)
    {
        const uint32_t m[8] = {0x00000001u, 0xffffffffu, 0xfffe5bfeu, 0x53bda402u,
                               0x09a1d805u, 0x3339d808u, 0x299d7d48u, 0x73eda753u};
        return m[i];
    }
    G16_HD static uint32_t one(int i)
    {
        const uint32_t m[8] = {0xfffffffeu, 0x00000001u, 0x00034802u, 0x5884b7fau,
                               0xecbc4ff5u, 0x998c4fefu, 0xacc5056fu, 0x1824b159u};
        return m[i];
    }
};
#endif

// --- one prime field ------------------------------------------------------------------
template <class P>
struct g16_mont {
    static constexpr int N = P::N;
    // Products are always inlined (as g16_dfp2_t<INL>::inl says for Fp2; msm_impl's
    // bucket loops inline their point additions where it is true).
    static constexpr bool inl = true;
    uint32_t l[N];

    G16_HD static g16_mont zero()
    {
        g16_mont r;
#pragma unroll
        for (int i = 0; i < N; i++) r.l[i] = 0;
        return r;
    }
    G16_HD static g16_mont one()
    {
        g16_mont r;
#pragma unroll
        for (int i = 0; i < N; i++) r.l[i] = P::one(i);
        return r;
    }
    G16_HD bool is_zero() const
    {
        uint32_t acc = 0;
#pragma unroll
        for (int i = 0; i < N; i++) acc |= l[i];
        return acc == 0;
    }
    G16_HD bool eq(const g16_mont &b) const
    {
        uint32_t acc = 0;
#pragma unroll
        for (int i = 0; i < N; i++) acc |= l[i] ^ b.l[i];
        return acc == 0;
    }
    G16_HD bool is_one() const { return eq(one()); }

    // Additions and subtractions are single carry chains (add.cc/addc, sub.cc/subc:
    // one instruction per limb) and a select; plain C with 64-bit temporaries took
    // three to four instructions per limb, which in an NTT butterfly (one product,
    // one sum, one difference) was as many instructions as the product.

    // r = x - m if x >= m else x, for x < 2m held in N words plus a top word.
    G16_HD static g16_mont reduce_once(const uint32_t *x, uint32_t top)
    {
        CF_DECL
        g16_mont r;
#pragma unroll
        for (int i = 0; i < N; i++) r.l[i] = x[i];
        SUB_CC(r.l[0], P::mod(0));
#pragma unroll
        for (int i = 1; i < N; i++) SUBC_CC(r.l[i], P::mod(i));
        // The borrow out of the top word says x < m: keep x (mask all ones).
        SUBC_CC(top, 0u);
        uint32_t keep = 0;
        SUBC(keep, 0u);
#pragma unroll
        for (int i = 0; i < N; i++) r.l[i] = keep ? x[i] : r.l[i];
        return r;
    }

    G16_HD friend g16_mont operator+(const g16_mont &a, const g16_mont &b)
    {
        CF_DECL
        uint32_t s[N], top = 0;
#pragma unroll
        for (int i = 0; i < N; i++) s[i] = a.l[i];
        ADD_CC(s[0], b.l[0]);
#pragma unroll
        for (int i = 1; i < N; i++) ADDC_CC(s[i], b.l[i]);
        ADDC(top, 0u);
        return reduce_once(s, top);
    }
    G16_HD friend g16_mont operator-(const g16_mont &a, const g16_mont &b)
    {
        CF_DECL
        g16_mont r;
#pragma unroll
        for (int i = 0; i < N; i++) r.l[i] = a.l[i];
        SUB_CC(r.l[0], b.l[0]);
#pragma unroll
        for (int i = 1; i < N; i++) SUBC_CC(r.l[i], b.l[i]);
        // Add m back when a < b (mask all ones on a borrow).
        uint32_t mask = 0;
        SUBC(mask, 0u);
        ADD_CC(r.l[0], P::mod(0) & mask);
#pragma unroll
        for (int i = 1; i < N; i++) ADDC_CC(r.l[i], P::mod(i) & mask);
        return r;
    }
    G16_HD g16_mont dbl() const { return *this + *this; }
    G16_HD g16_mont neg() const { return is_zero() ? *this : zero() - *this; }

    // A reduction step's even products q·m[j] (j even) into ev, whose carry out is
    // word N, the top of od.
    G16_HD static void redc_even(uint32_t *ev, uint32_t *od, uint32_t q)
    {
        CF_DECL
        MADLO_CC(ev[0], P::mod(0), q);
        MADCHI_CC(ev[1], P::mod(0), q);
#pragma unroll
        for (int j = 2; j < N; j += 2) {
            MADCLO_CC(ev[j], P::mod(j), q);
            MADCHI_CC(ev[j + 1], P::mod(j), q);
        }
        ADDC(od[N - 1], 0u);
    }
    // A reduction step's odd products q·m[j] (j odd) into od (words 1..N); with PEND
    // the pending word is first added to ev[0] and its carry enters this chain at
    // word 1 (the square's reduction, which has no product chain to carry it).
    template <bool PEND>
    G16_HD static void redc_odd(uint32_t *ev, uint32_t *od, uint32_t q, uint32_t pend)
    {
        CF_DECL
        if constexpr (PEND) {
            ADD_CC(ev[0], pend);
            MADCLO_CC(od[0], P::mod(1), q);
        } else {
            MADLO_CC(od[0], P::mod(1), q);
        }
        MADCHI_CC(od[1], P::mod(1), q);
#pragma unroll
        for (int j = 3; j < N; j += 2) {
            MADCLO_CC(od[j - 1], P::mod(j), q);
            MADCHI_CC(od[j], P::mod(j), q);
        }
    }
    // One reduction step's division by 2^32 (ev[0] is 0 by then): od moves to the
    // even slots, ev[1] becomes the pending word of position 0, ev[2..] the odd slots.
    G16_HD static void redc_shift(uint32_t *ev, uint32_t *od, uint32_t &pend)
    {
        pend = ev[1];
        uint32_t t[N];
#pragma unroll
        for (int k = 0; k < N; k++) t[k] = od[k];
#pragma unroll
        for (int k = 0; k < N - 2; k++) od[k] = ev[k + 2];
        od[N - 2] = 0;
        od[N - 1] = 0;
#pragma unroll
        for (int k = 0; k < N; k++) ev[k] = t[k];
    }
    // ev (+ its top word, returned) = ev + od·2^32 + pend.
    G16_HD static uint32_t redc_fold(uint32_t *ev, const uint32_t *od, uint32_t pend)
    {
        CF_DECL
        uint32_t top = 0;
        ADD_CC(ev[0], pend);
#pragma unroll
        for (int k = 1; k < N; k++) ADDC_CC(ev[k], od[k - 1]);
        ADDC(top, od[N - 1]);
        return top;
    }

    // One row of a product, a·bi, into the state T = ev + od·2^32 (+ pend): the odd
    // products (a[j], j odd) into od, the even ones into ev with their carry out into
    // word N (the top of od).  With FIRST the pending word is added to ev[0] and its
    // carry enters the odd chain.  The odd chain's carry out of word N is dropped: it
    // is zero while T stays below 2^(32(N+1)) (see operator* and sop for the bounds).
    template <bool FIRST>
    G16_HD static void row(uint32_t *ev, uint32_t *od, uint32_t pend, const g16_mont &a, uint32_t bi)
    {
        CF_DECL
        if constexpr (FIRST) {
            ADD_CC(ev[0], pend);
            MADCLO_CC(od[0], a.l[1], bi);
        } else {
            MADLO_CC(od[0], a.l[1], bi);
        }
        MADCHI_CC(od[1], a.l[1], bi);
#pragma unroll
        for (int j = 3; j < N; j += 2) {
            MADCLO_CC(od[j - 1], a.l[j], bi);
            MADCHI_CC(od[j], a.l[j], bi);
        }
        MADLO_CC(ev[0], a.l[0], bi);
        MADCHI_CC(ev[1], a.l[0], bi);
#pragma unroll
        for (int j = 2; j < N; j += 2) {
            MADCLO_CC(ev[j], a.l[j], bi);
            MADCHI_CC(ev[j + 1], a.l[j], bi);
        }
        ADDC(od[N - 1], 0u);
    }
    // One reduction step: q·m cancels word 0, then the division by 2^32.
    G16_HD static void redc_step(uint32_t *ev, uint32_t *od, uint32_t &pend)
    {
        const uint32_t q = ev[0] * P::N0;
        redc_even(ev, od, q);
        redc_odd<false>(ev, od, q, 0);
        redc_shift(ev, od, pend);
    }

    // Montgomery product a·b·2^(-32N) mod m, fully reduced.  See the file comment;
    // the state between steps is T = ev + od·2^32 (+ the pending word `pend` at
    // position 0), with ev covering words 0..N-1 and od words 1..N.  m < 2^(32N-1)
    // for both fields keeps T + a·b_i + q·m below 2^(32(N+1)), so the top carries
    // that are dropped are provably zero.
    G16_HD friend g16_mont operator*(const g16_mont &a, const g16_mont &b)
    {
        uint32_t ev[N], od[N], pend = 0;
#pragma unroll
        for (int k = 0; k < N; k++) ev[k] = od[k] = 0;
#pragma unroll
        for (int i = 0; i < N; i++) {
            row<true>(ev, od, pend, a, b.l[i]);
            redc_step(ev, od, pend);
        }
        const uint32_t top = redc_fold(ev, od, pend);
        return reduce_once(ev, top);
    }

    // (a·b + c·d)·2^(-32N) mod m with ONE reduction: both products' rows enter each
    // step before its q·m, so a sum of two products costs 3N² wide products instead of
    // 4N² (the Y of a point addition, R·(Q − X3) − Y1·PPP, is sop(R, Q − X3, Y1, −PPP)).
    // Bounds (all inputs < m, m < 2^(32N−3) as for p): the state stays below 3m, so
    // T + (a + c + m)·(2^32 − 1) < 2^(32(N+1)) and the dropped carries are zero; the
    // end value is (ab + cd + Q·m)/R < m·(1 + 2m/R) < 2m, so one subtraction is left.
    // Only for Fp: Fr's r is above 2^(32N−3) (r ≈ 0.45·2^255).
    G16_HD static g16_mont sop(const g16_mont &a, const g16_mont &b, const g16_mont &c,
                                const g16_mont &d)
    {
        static_assert(N == 12, "sop's bounds need m < 2^(32N-3): Fp only");
        uint32_t ev[N], od[N], pend = 0;
#pragma unroll
        for (int k = 0; k < N; k++) ev[k] = od[k] = 0;
#pragma unroll
        for (int i = 0; i < N; i++) {
            row<true>(ev, od, pend, a, b.l[i]);
            row<false>(ev, od, 0, c, d.l[i]);
            redc_step(ev, od, pend);
        }
        const uint32_t top = redc_fold(ev, od, pend);
        return reduce_once(ev, top);
    }
    // One chain of the square's off-diagonal row i: a[i]·a[j] for j = i+g, i+g+2, …
    // < N into acc words i+j (lo) and i+j+1 (hi), its carry into the word after the
    // last hi (see sqr for why that word cannot overflow).
    G16_HD static void sqr_chain(uint32_t *acc, const uint32_t *a, int i, int g)
    {
        CF_DECL
        MADLO_CC(acc[2 * i + g], a[i], a[i + g]);
        MADCHI_CC(acc[2 * i + g + 1], a[i], a[i + g]);
#pragma unroll
        for (int j = i + g + 2; j < N; j += 2) {
            MADCLO_CC(acc[i + j], a[i], a[j]);
            MADCHI_CC(acc[i + j + 1], a[i], a[j]);
        }
        const int last = (N - 1 - (i + g)) % 2 == 0 ? N - 1 : N - 2;
        ADDC(acc[i + last + 2], 0u);
    }

    // Montgomery square: the off-diagonal products a_i·a_j (i < j) once, doubled, plus
    // the diagonal, then N reduction steps: N(N−1)/2 + N + N² = 222 wide products for
    // Fp against the product's 2N² = 288.  Off-diagonal row i in two chains by the
    // parity of j − i, so that, as in the product, each chain's (lo, hi) words are
    // adjacent: j − i odd starts at the odd word 2i+1 (od), even at 2i+2 (ev).  A
    // chain's carry goes into the word after its last hi, at ≥ i + N, where earlier
    // rows left only carries (rows i' < i end at word i' + N), so it cannot overflow.
    // Reduction of the low half t_lo as in the product's reduction half (q taken
    // with the pending word), then + t_hi: (t_lo + Q·m)/R ≤ m and t_hi < m, so one
    // conditional subtraction is left.
    G16_HD g16_mont sqr() const
    {
        CF_DECL
        const uint32_t *a = l;
        uint32_t od[2 * N], ev[2 * N];
#pragma unroll
        for (int k = 0; k < 2 * N; k++) od[k] = ev[k] = 0;
#pragma unroll
        for (int i = 0; i < N - 1; i++) {
            sqr_chain(od, a, i, 1);
            if (i + 2 < N) sqr_chain(ev, a, i, 2);
        }
        // t = 2·(ev + od) + Σ a_i²·2^(64i)   (2N words; a² < 2^(64N))
        uint32_t t[2 * N];
        ADD_CC(ev[0], od[0]);
#pragma unroll
        for (int k = 1; k < 2 * N; k++) ADDC_CC(ev[k], od[k]);
        t[0] = ev[0] << 1;
#pragma unroll
        for (int k = 1; k < 2 * N; k++) t[k] = (ev[k] << 1) | (ev[k - 1] >> 31);
        MADLO_CC(t[0], a[0], a[0]);
        MADCHI_CC(t[1], a[0], a[0]);
#pragma unroll
        for (int i = 1; i < N; i++) {
            MADCLO_CC(t[2 * i], a[i], a[i]);
            MADCHI_CC(t[2 * i + 1], a[i], a[i]);
        }
        // Reduce t_lo: state T = e + o·2^32 + pend, as in operator*.
        uint32_t e[N], o[N], pend = 0;
#pragma unroll
        for (int k = 0; k < N; k++) e[k] = t[k], o[k] = 0;
#pragma unroll
        for (int i = 0; i < N; i++) {
            const uint32_t q = (e[0] + pend) * P::N0;
            redc_odd<true>(e, o, q, pend);
            redc_even(e, o, q);
            redc_shift(e, o, pend);
        }
        uint32_t top = redc_fold(e, o, pend);
        ADD_CC(e[0], t[N]);
#pragma unroll
        for (int k = 1; k < N; k++) ADDC_CC(e[k], t[N + k]);
        ADDC(top, 0u);
        return reduce_once(e, top);
    }

    // this^(m-2) = this^-1 (Fermat; 0 for 0): square-and-multiply over the bits of
    // m - 2 from the top.  ~1.5·32N products: for one-off conversions (the shifted
    // bases of the folded MSM), not for loops.
    G16_HD g16_mont inv() const
    {
        uint32_t e[N];
        uint32_t borrow = 2;
#pragma unroll
        for (int i = 0; i < N; i++) {
            uint64_t d = (uint64_t)P::mod(i) - borrow;
            e[i] = (uint32_t)d;
            borrow = (uint32_t)(d >> 63);
        }
        g16_mont r = one();
        for (int i = N - 1; i >= 0; i--)
            for (int b = 31; b >= 0; b--) {
                r = r.sqr();
                if ((e[i] >> b) & 1) r = r * *this;
            }
        return r;
    }

    // a^e for a small exponent given as a 64-bit integer (twiddle tables, tests).
    G16_HD g16_mont pow_u64(uint64_t e) const
    {
        g16_mont r = one(), x = *this;
        while (e) {
            if (e & 1) r = r * x;
            x = x.sqr();
            e >>= 1;
        }
        return r;
    }
};

typedef g16_mont<g16_fp_params> g16_dfp;
typedef g16_mont<g16_fr_params> g16_dfr;

// a·b − c·d: for Fp one reduction for both products (g16_mont::sop with m − d; for
// d = 0, 0 − d is 0), otherwise (Fp2) the two products.
template <class F>
G16_HD F g16_mul_sub(const F &a, const F &b, const F &c, const F &d)
{
    return a * b - c * d;
}
#if !G16_CURVE_BN254  // BN254's p ≈ 0.19·2^256 is above sop's bound (2^(32N−3))
template <>
G16_HD g16_dfp g16_mul_sub<g16_dfp>(const g16_dfp &a, const g16_dfp &b, const g16_dfp &c,
                                    const g16_dfp &d)
{
    return g16_dfp::sop(a, b, c, g16_dfp::zero() - d);
}
#endif

// --- Fp2 = Fp[u]/(u^2 + 1) -----------------------------------------------------------
// Two types over the same bytes: INL = true inlines the products (the G2 MSM's
// bucket-accumulation kernels, where the additions are the whole work), INL = false
// makes them real calls (every other kernel: bucket reduction, 1-scalar sums, the
// field-op tests).  Inlined everywhere, the random-scalar G2 MSM ran 17% faster on
// the H200 but a proof's B2 MSM (sparse scalars: more of its time outside the
// accumulation) 21% slower; inlined, the bucket reduction spills (1.7 KB stack,
// 772 B of spill loads), hence the split.  Build knob G16_CUDA_G2_INLINE: 0 calls everywhere, 1 (the default) the
// split, 2 inlined everywhere.  Products are Karatsuba (3 Fp products), squares 2.
#ifndef G16_CUDA_G2_INLINE
#define G16_CUDA_G2_INLINE 1
#endif
template <bool INL>
struct g16_dfp2_t {
    g16_dfp c0, c1;

    G16_HD static g16_dfp2_t zero() { return {g16_dfp::zero(), g16_dfp::zero()}; }
    G16_HD static g16_dfp2_t one() { return {g16_dfp::one(), g16_dfp::zero()}; }
    G16_HD bool is_zero() const { return c0.is_zero() && c1.is_zero(); }
    G16_HD bool eq(const g16_dfp2_t &b) const { return c0.eq(b.c0) && c1.eq(b.c1); }
    G16_HD friend g16_dfp2_t operator+(const g16_dfp2_t &a, const g16_dfp2_t &b)
    {
        return {a.c0 + b.c0, a.c1 + b.c1};
    }
    G16_HD friend g16_dfp2_t operator-(const g16_dfp2_t &a, const g16_dfp2_t &b)
    {
        return {a.c0 - b.c0, a.c1 - b.c1};
    }
    G16_HD g16_dfp2_t dbl() const { return {c0.dbl(), c1.dbl()}; }
    G16_HD g16_dfp2_t neg() const { return {c0.neg(), c1.neg()}; }
    G16_HD static g16_dfp2_t mul_inl(const g16_dfp2_t &a, const g16_dfp2_t &b)
    {
        g16_dfp t0 = a.c0 * b.c0, t1 = a.c1 * b.c1;
        g16_dfp t2 = (a.c0 + a.c1) * (b.c0 + b.c1);
        return {t0 - t1, t2 - t0 - t1};
    }
    // (c0 + c1 u)^2 = (c0 + c1)(c0 - c1) + 2 c0 c1 u.
    G16_HD static g16_dfp2_t sqr_inl(const g16_dfp2_t &a)
    {
        g16_dfp t = a.c0 * a.c1;
        return {(a.c0 + a.c1) * (a.c0 - a.c1), t.dbl()};
    }
    __host__ __device__ __noinline__ static g16_dfp2_t mul_call(const g16_dfp2_t &a,
                                                                const g16_dfp2_t &b)
    {
        return mul_inl(a, b);
    }
    __host__ __device__ __noinline__ static g16_dfp2_t sqr_call(const g16_dfp2_t &a)
    {
        return sqr_inl(a);
    }
    static constexpr bool inl = G16_CUDA_G2_INLINE >= 2 || (INL && G16_CUDA_G2_INLINE >= 1);
    G16_HD friend g16_dfp2_t operator*(const g16_dfp2_t &a, const g16_dfp2_t &b)
    {
        if constexpr (inl) return mul_inl(a, b);
        else return mul_call(a, b);
    }
    G16_HD g16_dfp2_t sqr() const
    {
        if constexpr (inl) return sqr_inl(*this);
        else return sqr_call(*this);
    }
};
typedef g16_dfp2_t<false> g16_dfp2;     // products as calls
typedef g16_dfp2_t<true> g16_dfp2_hot;  // products inlined (see above)
static_assert(sizeof(g16_dfp2) == sizeof(g16_dfp2_hot), "one layout for both Fp2 types");

#endif
