/* Eight Fp elements per vector in radix 2^52 with AVX-512 IFMA: the building
 * blocks of fp_ifma.c's batched products and of the MSM's vector batch loop
 * (msm_batch_impl.h).  Internal to the library; every function here needs the CPU
 * features of IFMA_TARGET, so callers reach them only when g16_use_ifma is set
 * (fp_batch.h).
 *
 * Layout: lane k of vector i holds limb i of the k-th element (8 limbs of 52
 * bits, 416 bits).  Values are in the library's Montgomery form (R = 2^384), so
 * converting to and from the 6×64-bit records is only a re-radixing.  The
 * Montgomery reduction runs 7 rounds of 52 bits and a last one of 20 bits,
 * 7·52 + 20 = 384, so products equal g16_fp_mul's bit for bit.
 *
 * Limbs are accumulated unnormalised: each of the 8 rounds adds at most four
 * 52-bit terms to a limb (a·b lo/hi, m·p lo/hi), so a limb stays below 2^57;
 * only the lowest limb's carry is moved up per round (m is computed from its
 * low 52 bits, which is all vpmadd52luq reads anyway).
 *
 * BN254 (the G16_CURVE_BN254 compile, docs/curve.md): the same code with FP_NL = 5
 * limbs of 52 bits (260 bits) over FP_NW = 4 words, R = 2^256 reached by 4 rounds of
 * 52 bits and a last one of FP_LAST = 48. */
#ifndef G16_FIELD_FP_IFMA_H
#define G16_FIELD_FP_IFMA_H

#if defined(__x86_64__) && defined(__GNUC__)
#define G16_IFMA_BUILD 1
#include <immintrin.h>
#include <stdint.h>

#include "field/fp.h"

#define IFMA_TARGET __attribute__((target("avx512f,avx512ifma,avx512vl")))
#define IFMA IFMA_TARGET
#define IFMA_INLINE IFMA_TARGET inline __attribute__((always_inline))

#define M52 0xfffffffffffffULL
/* the 5 limbs of radix 2^52 of a 4-word modulus FP_W0..FP_W3 (an initializer) */
#define FP_LIMBS52_4W                                                                             \
    {                                                                                             \
        FP_W0 & M52, ((FP_W0 >> 52) | (FP_W1 << 12)) & M52, ((FP_W1 >> 40) | (FP_W2 << 24)) & M52, \
            ((FP_W2 >> 28) | (FP_W3 << 36)) & M52, FP_W3 >> 16,                                   \
    }
#if G16_IFMA_FR
/* The including file works on Fr instead (ntt/ntt_ifma.c defines G16_IFMA_FR before the
 * include): both curves' r are below 2^255, so Fr takes BN254's Fp layout, 5 limbs over
 * 4 words with R = 2^256 — the scalar Fr's own R, so the vectors hold the same values.
 * Every product must get inputs below r: with r > 2^254 (BLS12-381), a·b/2^256 is no
 * longer below r once a, b may reach 2r, so the lazy products are not for Fr. */
#include "field/fr.h"
typedef g16_fr ifma_elem;
#define FP_NW 4
#define FP_NL 5
#define FP_LAST 48
#if G16_CURVE_BN254
#define FP_W0 0x43e1f593f0000001ULL
#define FP_W1 0x2833e84879b97091ULL
#define FP_W2 0xb85045b68181585dULL
#define FP_W3 0x30644e72e131a029ULL
#define K0_52 (0xc2e1f593efffffffULL & M52)
#else
#define FP_W0 0xffffffff00000001ULL
#define FP_W1 0x53bda402fffe5bfeULL
#define FP_W2 0x3339d80809a1d805ULL
#define FP_W3 0x73eda753299d7d48ULL
#define K0_52 (0xfffffffeffffffffULL & M52)
#endif
/* r in radix 2^52 (tests/unit/test_ntt_ifma.c checks it against g16_fr_modulus) */
static const uint64_t g16_r52[FP_NL] = FP_LIMBS52_4W;
#define g16_p52 g16_r52
#elif G16_CURVE_BN254
#include "bn254/consts.h"
#define FP_NW 4    /* 64-bit words of an element */
#define FP_NL 5    /* 52-bit limbs */
#define FP_LAST 48 /* bits of the last reduction round: 4·52 + 48 = 256 */
#define FP_W0 0x3c208c16d87cfd47ULL
#define FP_W1 0x97816a916871ca8dULL
#define FP_W2 0xb85045b68181585dULL
#define FP_W3 0x30644e72e131a029ULL
/* p in radix 2^52 (tests/unit/test_field_ifma.c checks it against g16_fp_modulus) */
static const uint64_t g16_p52[FP_NL] = FP_LIMBS52_4W;
#define K0_52 (G16_BN254_FP_N0 & M52)
#else
#define FP_NW 6
#define FP_NL 8
#define FP_LAST 20 /* 7·52 + 20 = 384 */
#define FP_W0 0xb9feffffffffaaabULL
#define FP_W1 0x1eabfffeb153ffffULL
#define FP_W2 0x6730d2a0f6b0f624ULL
#define FP_W3 0x64774b84f38512bfULL
#define FP_W4 0x4b1ba7b6434bacd7ULL
#define FP_W5 0x1a0111ea397fe69aULL
/* p in radix 2^52 (tests/unit/test_field_ifma.c checks it against g16_fp_modulus) */
static const uint64_t g16_p52[8] = {
    FP_W0 & M52,
    ((FP_W0 >> 52) | (FP_W1 << 12)) & M52,
    ((FP_W1 >> 40) | (FP_W2 << 24)) & M52,
    ((FP_W2 >> 28) | (FP_W3 << 36)) & M52,
    ((FP_W3 >> 16) | (FP_W4 << 48)) & M52,
    (FP_W4 >> 4) & M52,
    ((FP_W4 >> 56) | (FP_W5 << 8)) & M52,
    FP_W5 >> 44,
};
/* -1/p mod 2^52 (the mulx constant reduced) */
#define K0_52 (0x89f3fffcfffcfffdULL & M52)
#endif
#if !G16_IFMA_FR
typedef g16_fp ifma_elem;
#endif
#define p52 g16_p52
#define k0_52 K0_52

typedef struct v8 { __m512i l[FP_NL]; } v8;

/* the gather/scatter offsets, in 64-bit words, of 8 elements 'stride' elements apart */
static IFMA_INLINE __m512i offsets(size_t stride)
{
    long long s = FP_NW * (long long)stride;
    return _mm512_setr_epi64(0, s, 2 * s, 3 * s, 4 * s, 5 * s, 6 * s, 7 * s);
}

#if FP_NW == 4
/* 4 words per lane -> 5 limbs */
static IFMA_INLINE void v8_from_words(v8 *r, const __m512i w[FP_NW])
{
    const __m512i m = _mm512_set1_epi64((long long)M52);
    r->l[0] = _mm512_and_si512(w[0], m);
    r->l[1] = _mm512_and_si512(_mm512_or_si512(_mm512_srli_epi64(w[0], 52), _mm512_slli_epi64(w[1], 12)), m);
    r->l[2] = _mm512_and_si512(_mm512_or_si512(_mm512_srli_epi64(w[1], 40), _mm512_slli_epi64(w[2], 24)), m);
    r->l[3] = _mm512_and_si512(_mm512_or_si512(_mm512_srli_epi64(w[2], 28), _mm512_slli_epi64(w[3], 36)), m);
    r->l[4] = _mm512_srli_epi64(w[3], 16);
}

/* limbs normalised (< 2^52) and the value < 2^256 -> 4 words per lane */
static IFMA_INLINE void v8_to_words(__m512i w[FP_NW], const v8 *a)
{
    const __m512i *l = a->l;
    w[0] = _mm512_or_si512(l[0], _mm512_slli_epi64(l[1], 52));
    w[1] = _mm512_or_si512(_mm512_srli_epi64(l[1], 12), _mm512_slli_epi64(l[2], 40));
    w[2] = _mm512_or_si512(_mm512_srli_epi64(l[2], 24), _mm512_slli_epi64(l[3], 28));
    w[3] = _mm512_or_si512(_mm512_srli_epi64(l[3], 36), _mm512_slli_epi64(l[4], 16));
}
#else
/* 6 words per lane -> 8 limbs */
static IFMA_INLINE void v8_from_words(v8 *r, const __m512i w[6])
{
    const __m512i m = _mm512_set1_epi64((long long)M52);
    r->l[0] = _mm512_and_si512(w[0], m);
    r->l[1] = _mm512_and_si512(_mm512_or_si512(_mm512_srli_epi64(w[0], 52), _mm512_slli_epi64(w[1], 12)), m);
    r->l[2] = _mm512_and_si512(_mm512_or_si512(_mm512_srli_epi64(w[1], 40), _mm512_slli_epi64(w[2], 24)), m);
    r->l[3] = _mm512_and_si512(_mm512_or_si512(_mm512_srli_epi64(w[2], 28), _mm512_slli_epi64(w[3], 36)), m);
    r->l[4] = _mm512_and_si512(_mm512_or_si512(_mm512_srli_epi64(w[3], 16), _mm512_slli_epi64(w[4], 48)), m);
    r->l[5] = _mm512_and_si512(_mm512_srli_epi64(w[4], 4), m);
    r->l[6] = _mm512_and_si512(_mm512_or_si512(_mm512_srli_epi64(w[4], 56), _mm512_slli_epi64(w[5], 8)), m);
    r->l[7] = _mm512_srli_epi64(w[5], 44);
}

/* limbs normalised (< 2^52) and the value < 2^384 -> 6 words per lane */
static IFMA_INLINE void v8_to_words(__m512i w[6], const v8 *a)
{
    const __m512i *l = a->l;
    w[0] = _mm512_or_si512(l[0], _mm512_slli_epi64(l[1], 52));
    w[1] = _mm512_or_si512(_mm512_srli_epi64(l[1], 12), _mm512_slli_epi64(l[2], 40));
    w[2] = _mm512_or_si512(_mm512_srli_epi64(l[2], 24), _mm512_slli_epi64(l[3], 28));
    w[3] = _mm512_or_si512(_mm512_srli_epi64(l[3], 36), _mm512_slli_epi64(l[4], 16));
    w[4] = _mm512_or_si512(_mm512_or_si512(_mm512_srli_epi64(l[4], 48), _mm512_slli_epi64(l[5], 4)),
                           _mm512_slli_epi64(l[6], 56));
    w[5] = _mm512_or_si512(_mm512_srli_epi64(l[6], 8), _mm512_slli_epi64(l[7], 44));
}
#endif

/* 8 elements 'idx' words apart from a (lanes outside k read nothing, get 0) */
static IFMA_INLINE void load8(v8 *r, const ifma_elem *a, __mmask8 k, __m512i idx)
{
    const __m512i z = _mm512_setzero_si512();
    const long long *b = (const long long *)a->l;
    __m512i w[FP_NW];
    for (int i = 0; i < FP_NW; i++) w[i] = _mm512_mask_i64gather_epi64(z, k, idx, b + i, 8);
    v8_from_words(r, w);
}

static IFMA_INLINE void store8(ifma_elem *r, const v8 *a, __mmask8 k, __m512i idx)
{
    long long *b = (long long *)r->l;
    __m512i w[FP_NW];
    v8_to_words(w, a);
    for (int i = 0; i < FP_NW; i++) _mm512_mask_i64scatter_epi64(b + i, k, idx, w[i], 8);
}

/* the element at byte address addr[k] + off in lane k (lanes outside k: 0) */
static IFMA_INLINE void v8_gather_at(v8 *r, __m512i addr, size_t off, __mmask8 k)
{
    const __m512i z = _mm512_setzero_si512();
    __m512i w[FP_NW];
    for (int i = 0; i < FP_NW; i++)
        w[i] = _mm512_mask_i64gather_epi64(z, k, _mm512_add_epi64(addr, _mm512_set1_epi64((long long)(off + 8 * i))),
                                           (const void *)0, 1);
    v8_from_words(r, w);
}

static IFMA_INLINE void v8_scatter_at(__m512i addr, size_t off, const v8 *a, __mmask8 k)
{
    __m512i w[FP_NW];
    v8_to_words(w, a);
    for (int i = 0; i < FP_NW; i++)
        _mm512_mask_i64scatter_epi64((void *)0, k, _mm512_add_epi64(addr, _mm512_set1_epi64((long long)(off + 8 * i))),
                                     w[i], 1);
}

/* r = a − b mod p; a, b < p (normalised limbs), r < p.  The borrow of each limb
 * is its sign bit (limbs are below 2^52, so a difference cannot wrap past it). */
static IFMA_INLINE void v8_sub(v8 *r, const v8 *a, const v8 *b)
{
    const __m512i m = _mm512_set1_epi64((long long)M52), z = _mm512_setzero_si512();
    __m512i d[FP_NL], bw = z;
    for (int j = 0; j < FP_NL; j++) {
        d[j] = _mm512_sub_epi64(_mm512_sub_epi64(a->l[j], b->l[j]), bw);
        bw = _mm512_srli_epi64(d[j], 63);
        d[j] = _mm512_and_si512(d[j], m);
    }
    __mmask8 neg = _mm512_test_epi64_mask(bw, bw);
    __m512i c = z;
    for (int j = 0; j < FP_NL; j++) {
        __m512i e = _mm512_add_epi64(_mm512_mask_add_epi64(d[j], neg, d[j], _mm512_set1_epi64((long long)p52[j])), c);
        c = _mm512_srli_epi64(e, 52);
        r->l[j] = _mm512_and_si512(e, m);
    }
}

/* lanes in k: r = −a mod p; other lanes: r = a (a < p) */
static IFMA_INLINE void v8_neg_mask(v8 *r, const v8 *a, __mmask8 k)
{
    const __m512i m = _mm512_set1_epi64((long long)M52);
    __m512i bw = _mm512_setzero_si512(), any = a->l[0];
    for (int j = 1; j < FP_NL; j++) any = _mm512_or_si512(any, a->l[j]);
    k &= _mm512_test_epi64_mask(any, any); /* −0 = 0, not p */
    for (int j = 0; j < FP_NL; j++) {
        __m512i d = _mm512_sub_epi64(_mm512_sub_epi64(_mm512_set1_epi64((long long)p52[j]), a->l[j]), bw);
        bw = _mm512_srli_epi64(d, 63);
        r->l[j] = _mm512_mask_blend_epi64(k, a->l[j], _mm512_and_si512(d, m));
    }
}

/* r = a + b mod p; a, b < p, r < p */
static IFMA_INLINE void v8_add(v8 *r, const v8 *a, const v8 *b)
{
    const __m512i m = _mm512_set1_epi64((long long)M52), z = _mm512_setzero_si512();
    __m512i t[FP_NL], d[FP_NL], c = z, bw = z;
    for (int j = 0; j < FP_NL; j++) {
        t[j] = _mm512_add_epi64(_mm512_add_epi64(a->l[j], b->l[j]), c);
        c = _mm512_srli_epi64(t[j], 52);
        t[j] = _mm512_and_si512(t[j], m);
    }
    for (int j = 0; j < FP_NL; j++) {
        d[j] = _mm512_sub_epi64(_mm512_sub_epi64(t[j], _mm512_set1_epi64((long long)p52[j])), bw);
        bw = _mm512_srli_epi64(d[j], 63);
        d[j] = _mm512_and_si512(d[j], m);
    }
    __mmask8 ge = _mm512_cmpeq_epi64_mask(bw, z); /* a + b >= p: take the difference */
    for (int j = 0; j < FP_NL; j++) r->l[j] = _mm512_mask_blend_epi64(ge, t[j], d[j]);
}

/* the same element in every lane */
static IFMA_INLINE void v8_set1(v8 *r, const ifma_elem *a)
{
    __m512i w[FP_NW];
    for (int i = 0; i < FP_NW; i++) w[i] = _mm512_set1_epi64((long long)a->l[i]);
    v8_from_words(r, w);
}

static IFMA_INLINE void v8_blend(v8 *r, __mmask8 k, const v8 *a, const v8 *b)
{
    for (int j = 0; j < FP_NL; j++) r->l[j] = _mm512_mask_blend_epi64(k, a->l[j], b->l[j]);
}

/* r[v] = a[v]·b[v]·2^-384 mod p (2^-256 for BN254) for v < NV, fully reduced (LAZY:
 * below 1.5p; for BN254 below 2p, as 4p²/2^256 < 0.76p);
 * a, b limbs < 2^52, values < 2p.  NV independent products are interleaved instruction by
 * instruction: one product's rounds are a chain of dependent multiply-adds
 * (latency 4) on the same few accumulators, so alone it runs at latency. */
#define MONT8(NV, LAZY, NAME)                                                                       \
    static IFMA_INLINE void NAME(v8 *r, const v8 *a, const v8 *b)                                   \
    {                                                                                               \
        const __m512i m52 = _mm512_set1_epi64((long long)M52);                                     \
        const __m512i k0 = _mm512_set1_epi64((long long)k0_52);                                    \
        const __m512i z = _mm512_setzero_si512();                                                   \
        __m512i t[NV][FP_NL + 1], m[NV];                                                                    \
        for (int v = 0; v < NV; v++)                                                                \
            for (int j = 0; j < FP_NL + 1; j++) t[v][j] = z;                                                \
        for (int i = 0; i < FP_NL; i++) {                                                           \
            for (int j = 0; j < FP_NL; j++)                                                             \
                for (int v = 0; v < NV; v++) {                                                      \
                    t[v][j] = _mm512_madd52lo_epu64(t[v][j], a[v].l[i], b[v].l[j]);                 \
                    t[v][j + 1] = _mm512_madd52hi_epu64(t[v][j + 1], a[v].l[i], b[v].l[j]);         \
                }                                                                                   \
            for (int v = 0; v < NV; v++) {                                                          \
                m[v] = _mm512_madd52lo_epu64(z, t[v][0], k0);                                       \
                if (i == FP_NL - 1) m[v] = _mm512_and_si512(m[v], _mm512_set1_epi64((1LL << FP_LAST) - 1)); \
            }                                                                                       \
            for (int j = 0; j < FP_NL; j++) {                                                           \
                const __m512i pj = _mm512_set1_epi64((long long)p52[j]);                            \
                for (int v = 0; v < NV; v++) {                                                      \
                    t[v][j] = _mm512_madd52lo_epu64(t[v][j], m[v], pj);                             \
                    t[v][j + 1] = _mm512_madd52hi_epu64(t[v][j + 1], m[v], pj);                     \
                }                                                                                   \
            }                                                                                       \
            if (i < FP_NL - 1) {                                                                          \
                /* t[0] ≡ 0 mod 2^52 now: drop it, keeping its carry */                           \
                for (int v = 0; v < NV; v++) {                                                      \
                    t[v][1] = _mm512_add_epi64(t[v][1], _mm512_srli_epi64(t[v][0], 52));            \
                    for (int j = 0; j < FP_NL; j++) t[v][j] = t[v][j + 1];                              \
                    t[v][FP_NL] = z;                                                                    \
                }                                                                                   \
            }                                                                                       \
        }                                                                                           \
        for (int v = 0; v < NV; v++) {                                                              \
            /* divisible by 2^FP_LAST: normalise, then shift the limbs right by that */          \
            __m512i *tv = t[v], u[FP_NL], d[FP_NL], bw = z;                                                 \
            for (int j = 0; j < FP_NL; j++) {                                                           \
                tv[j + 1] = _mm512_add_epi64(tv[j + 1], _mm512_srli_epi64(tv[j], 52));              \
                tv[j] = _mm512_and_si512(tv[j], m52);                                               \
            }                                                                                       \
            for (int j = 0; j < FP_NL; j++)                                                             \
                u[j] = _mm512_and_si512(                                                            \
                    _mm512_or_si512(_mm512_srli_epi64(tv[j], FP_LAST), _mm512_slli_epi64(tv[j + 1], 52 - FP_LAST)), m52); \
            /* u < 1.5p (a·b < 4p², 4p²/2^384 < p/2): subtract p once where u >= p */              \
            if (LAZY) {                                                                             \
                for (int j = 0; j < FP_NL; j++) r[v].l[j] = u[j];                                       \
                continue;                                                                           \
            }                                                                                       \
            for (int j = 0; j < FP_NL; j++) {                                                           \
                d[j] = _mm512_sub_epi64(_mm512_sub_epi64(u[j], _mm512_set1_epi64((long long)p52[j])), bw); \
                bw = _mm512_srli_epi64(d[j], 63);                                                   \
                d[j] = _mm512_and_si512(d[j], m52);                                                 \
            }                                                                                       \
            __mmask8 ge = _mm512_cmpeq_epi64_mask(bw, z);                                           \
            for (int j = 0; j < FP_NL; j++) r[v].l[j] = _mm512_mask_blend_epi64(ge, u[j], d[j]);        \
        }                                                                                           \
    }
MONT8(1, 0, mont8_1)
MONT8(2, 0, mont8_2)
/* The same without the final subtraction: r < 1.5p, for products that only feed
 * further products (which take inputs below 2p), not v8_add/v8_sub/v8_neg_mask
 * or the words of a stored element that must be canonical. */
MONT8(1, 1, mont8_1_lazy)
MONT8(2, 1, mont8_2_lazy)

#endif
#endif
