/* Batched Fp multiplication (fp_batch.h) with AVX-512 IFMA.
 *
 * Why: the scalar mulx kernel needs ~98 cycles per product at throughput (its
 * 168 carry-flag instructions alone occupy two ports for ~84 cycles).  IFMA
 * (vpmadd52luq/huq) multiplies eight 52-bit limb pairs per instruction and
 * accumulates without carry flags, so eight independent products in a radix
 * 2^52 (8 limbs = 416 bits) need ~270 multiply-adds for all eight.
 *
 * Layout: lane k of vector i holds limb i of the k-th element.  Elements come in
 * and go out in the library's 6×64-bit Montgomery form (R = 2^384): gathers and
 * scatters with a 48-byte stride do the transposition, shifts the re-radixing.
 * The Montgomery reduction runs 7 rounds of 52 bits and a last one of 20 bits,
 * 7·52 + 20 = 384, so the result is a·b·2^-384 exactly like g16_fp_mul and
 * nothing needs converting between the two Montgomery domains.
 *
 * Limbs are accumulated unnormalised: each of the 8 rounds adds at most four
 * 52-bit terms to a limb (a·b lo/hi, m·p lo/hi), so a limb stays below 2^57;
 * only the lowest limb's carry is moved up per round (m is computed from its
 * low 52 bits, which is all vpmadd52luq reads anyway). */
#include "field/fp_batch.h"

#include <stdlib.h>
#include <string.h>

#include "field/cpu.h"

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define HAVE_IFMA_BUILD 1
#define IFMA __attribute__((target("avx512f,avx512ifma,avx512vl")))

#define M52 0xfffffffffffffULL

/* p in radix 2^52 and -1/p mod 2^52 (the mulx constant reduced) */
static uint64_t p52[8];
static const uint64_t k0_52 = 0x89f3fffcfffcfffdULL & M52;

static void init_p52(void)
{
    const uint64_t *w = g16_fp_modulus;
    p52[0] = w[0] & M52;
    p52[1] = ((w[0] >> 52) | (w[1] << 12)) & M52;
    p52[2] = ((w[1] >> 40) | (w[2] << 24)) & M52;
    p52[3] = ((w[2] >> 28) | (w[3] << 36)) & M52;
    p52[4] = ((w[3] >> 16) | (w[4] << 48)) & M52;
    p52[5] = (w[4] >> 4) & M52;
    p52[6] = ((w[4] >> 56) | (w[5] << 8)) & M52;
    p52[7] = w[5] >> 44;
}

typedef struct v8 { __m512i l[8]; } v8;

/* 8 elements (or the first ones selected by k) from 48-byte records */
/* the gather/scatter offsets, in 64-bit words, of 8 elements 'stride' elements apart */
static IFMA inline __attribute__((always_inline)) __m512i offsets(size_t stride)
{
    long long s = 6 * (long long)stride;
    return _mm512_setr_epi64(0, s, 2 * s, 3 * s, 4 * s, 5 * s, 6 * s, 7 * s);
}

static IFMA inline __attribute__((always_inline)) void load8(v8 *r, const g16_fp *a, __mmask8 k, __m512i idx)
{
    const __m512i m = _mm512_set1_epi64((long long)M52);
    const __m512i z = _mm512_setzero_si512();
    const long long *b = (const long long *)a->l;
    __m512i w0 = _mm512_mask_i64gather_epi64(z, k, idx, b + 0, 8);
    __m512i w1 = _mm512_mask_i64gather_epi64(z, k, idx, b + 1, 8);
    __m512i w2 = _mm512_mask_i64gather_epi64(z, k, idx, b + 2, 8);
    __m512i w3 = _mm512_mask_i64gather_epi64(z, k, idx, b + 3, 8);
    __m512i w4 = _mm512_mask_i64gather_epi64(z, k, idx, b + 4, 8);
    __m512i w5 = _mm512_mask_i64gather_epi64(z, k, idx, b + 5, 8);
    r->l[0] = _mm512_and_si512(w0, m);
    r->l[1] = _mm512_and_si512(_mm512_or_si512(_mm512_srli_epi64(w0, 52), _mm512_slli_epi64(w1, 12)), m);
    r->l[2] = _mm512_and_si512(_mm512_or_si512(_mm512_srli_epi64(w1, 40), _mm512_slli_epi64(w2, 24)), m);
    r->l[3] = _mm512_and_si512(_mm512_or_si512(_mm512_srli_epi64(w2, 28), _mm512_slli_epi64(w3, 36)), m);
    r->l[4] = _mm512_and_si512(_mm512_or_si512(_mm512_srli_epi64(w3, 16), _mm512_slli_epi64(w4, 48)), m);
    r->l[5] = _mm512_and_si512(_mm512_srli_epi64(w4, 4), m);
    r->l[6] = _mm512_and_si512(_mm512_or_si512(_mm512_srli_epi64(w4, 56), _mm512_slli_epi64(w5, 8)), m);
    r->l[7] = _mm512_srli_epi64(w5, 44);
}

/* limbs normalised (< 2^52) and the value < 2^384 */
static IFMA inline __attribute__((always_inline)) void store8(g16_fp *r, const v8 *a, __mmask8 k, __m512i idx)
{
    long long *b = (long long *)r->l;
    const __m512i *l = a->l;
    __m512i w0 = _mm512_or_si512(l[0], _mm512_slli_epi64(l[1], 52));
    __m512i w1 = _mm512_or_si512(_mm512_srli_epi64(l[1], 12), _mm512_slli_epi64(l[2], 40));
    __m512i w2 = _mm512_or_si512(_mm512_srli_epi64(l[2], 24), _mm512_slli_epi64(l[3], 28));
    __m512i w3 = _mm512_or_si512(_mm512_srli_epi64(l[3], 36), _mm512_slli_epi64(l[4], 16));
    __m512i w4 = _mm512_or_si512(_mm512_or_si512(_mm512_srli_epi64(l[4], 48), _mm512_slli_epi64(l[5], 4)),
                                 _mm512_slli_epi64(l[6], 56));
    __m512i w5 = _mm512_or_si512(_mm512_srli_epi64(l[6], 8), _mm512_slli_epi64(l[7], 44));
    _mm512_mask_i64scatter_epi64(b + 0, k, idx, w0, 8);
    _mm512_mask_i64scatter_epi64(b + 1, k, idx, w1, 8);
    _mm512_mask_i64scatter_epi64(b + 2, k, idx, w2, 8);
    _mm512_mask_i64scatter_epi64(b + 3, k, idx, w3, 8);
    _mm512_mask_i64scatter_epi64(b + 4, k, idx, w4, 8);
    _mm512_mask_i64scatter_epi64(b + 5, k, idx, w5, 8);
}

/* r[v] = a[v]·b[v]·2^-384 mod p for v < NV, fully reduced; a, b limbs < 2^52,
 * values < 2p.  NV independent products are interleaved instruction by
 * instruction: one product's rounds are a chain of dependent multiply-adds
 * (latency 4) on the same few accumulators, so alone it runs at latency. */
#define MONT8(NV)                                                                                   \
    static IFMA inline __attribute__((always_inline)) void mont8_##NV(v8 *r, const v8 *a, const v8 *b) \
    {                                                                                               \
        const __m512i m52 = _mm512_set1_epi64((long long)M52);                                     \
        const __m512i k0 = _mm512_set1_epi64((long long)k0_52);                                    \
        const __m512i z = _mm512_setzero_si512();                                                   \
        __m512i t[NV][9], m[NV];                                                                    \
        for (int v = 0; v < NV; v++)                                                                \
            for (int j = 0; j < 9; j++) t[v][j] = z;                                                \
        for (int i = 0; i < 8; i++) {                                                               \
            for (int j = 0; j < 8; j++)                                                             \
                for (int v = 0; v < NV; v++) {                                                      \
                    t[v][j] = _mm512_madd52lo_epu64(t[v][j], a[v].l[i], b[v].l[j]);                 \
                    t[v][j + 1] = _mm512_madd52hi_epu64(t[v][j + 1], a[v].l[i], b[v].l[j]);         \
                }                                                                                   \
            for (int v = 0; v < NV; v++) {                                                          \
                m[v] = _mm512_madd52lo_epu64(z, t[v][0], k0);                                       \
                if (i == 7) m[v] = _mm512_and_si512(m[v], _mm512_set1_epi64((1 << 20) - 1));      \
            }                                                                                       \
            for (int j = 0; j < 8; j++) {                                                           \
                const __m512i pj = _mm512_set1_epi64((long long)p52[j]);                            \
                for (int v = 0; v < NV; v++) {                                                      \
                    t[v][j] = _mm512_madd52lo_epu64(t[v][j], m[v], pj);                             \
                    t[v][j + 1] = _mm512_madd52hi_epu64(t[v][j + 1], m[v], pj);                     \
                }                                                                                   \
            }                                                                                       \
            if (i < 7) {                                                                            \
                /* t[0] ≡ 0 mod 2^52 now: drop it, keeping its carry */                           \
                for (int v = 0; v < NV; v++) {                                                      \
                    t[v][1] = _mm512_add_epi64(t[v][1], _mm512_srli_epi64(t[v][0], 52));            \
                    for (int j = 0; j < 8; j++) t[v][j] = t[v][j + 1];                              \
                    t[v][8] = z;                                                                    \
                }                                                                                   \
            }                                                                                       \
        }                                                                                           \
        for (int v = 0; v < NV; v++) {                                                              \
            /* divisible by 2^20: normalise, then shift the 9 limbs right by 20 bits */             \
            __m512i *tv = t[v], u[8], d[8], bw = z;                                                 \
            for (int j = 0; j < 8; j++) {                                                           \
                tv[j + 1] = _mm512_add_epi64(tv[j + 1], _mm512_srli_epi64(tv[j], 52));              \
                tv[j] = _mm512_and_si512(tv[j], m52);                                               \
            }                                                                                       \
            for (int j = 0; j < 8; j++)                                                             \
                u[j] = _mm512_and_si512(                                                            \
                    _mm512_or_si512(_mm512_srli_epi64(tv[j], 20), _mm512_slli_epi64(tv[j + 1], 32)), m52); \
            /* u < 1.5p (a·b < 4p², 4p²/2^384 < p/2): subtract p once where u >= p */              \
            for (int j = 0; j < 8; j++) {                                                           \
                d[j] = _mm512_sub_epi64(_mm512_sub_epi64(u[j], _mm512_set1_epi64((long long)p52[j])), bw); \
                bw = _mm512_srli_epi64(d[j], 63);                                                   \
                d[j] = _mm512_and_si512(d[j], m52);                                                 \
            }                                                                                       \
            __mmask8 ge = _mm512_cmpeq_epi64_mask(bw, z);                                           \
            for (int j = 0; j < 8; j++) r[v].l[j] = _mm512_mask_blend_epi64(ge, u[j], d[j]);        \
        }                                                                                           \
    }
MONT8(1)
MONT8(2)

static IFMA void mul_n_ifma(g16_fp *r, size_t rs, const g16_fp *a, size_t as, const g16_fp *b, size_t bs,
                            size_t n)
{
    v8 x[2], y[2], o[2];
    const __m512i ir = offsets(rs), ia = offsets(as), ib = offsets(bs);
    size_t i = 0;
    int sq = b == a && bs == as;
    for (; i + 16 <= n; i += 16, a += 16 * as, b += 16 * bs, r += 16 * rs) {
        load8(&x[0], a, 0xff, ia);
        load8(&x[1], a + 8 * as, 0xff, ia);
        if (sq) {
            y[0] = x[0], y[1] = x[1];
        } else {
            load8(&y[0], b, 0xff, ib);
            load8(&y[1], b + 8 * bs, 0xff, ib);
        }
        mont8_2(o, x, y);
        store8(r, &o[0], 0xff, ir);
        store8(r + 8 * rs, &o[1], 0xff, ir);
    }
    for (; i < n; i += 8, a += 8 * as, b += 8 * bs, r += 8 * rs) {
        __mmask8 k = n - i >= 8 ? 0xff : (__mmask8)((1u << (n - i)) - 1);
        load8(&x[0], a, k, ia);
        load8(&y[0], b, k, ib);
        mont8_1(o, x, y);
        store8(r, &o[0], k, ir);
    }
}

static int probe(void)
{
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512ifma") &&
           __builtin_cpu_supports("avx512vl");
}
#else
static int probe(void) { return 0; }
#endif

int g16_use_ifma;

/* G16_NO_IFMA=1 (measurements only, docs/perf-notes.md): start on the scalar path,
 * so one binary gives both sides of an A/B comparison. */
__attribute__((constructor)) static void fp_ifma_init(void)
{
#ifdef HAVE_IFMA_BUILD
    init_p52();
#endif
    const char *e = getenv("G16_NO_IFMA");
    g16_use_ifma = e && atoi(e) > 0 ? 0 : probe();
}

int g16_cpu_can_ifma(void) { return probe(); }

void g16_fp_batch_force_scalar(int on) { g16_use_ifma = on ? 0 : probe(); }

void g16_fp_mul_s(g16_fp *r, size_t rs, const g16_fp *a, size_t as, const g16_fp *b, size_t bs, size_t n)
{
#ifdef HAVE_IFMA_BUILD
    if (g16_use_ifma) {
        mul_n_ifma(r, rs, a, as, b, bs, n);
        return;
    }
#endif
    for (size_t i = 0; i < n; i++) g16_fp_mul(&r[i * rs], &a[i * as], &b[i * bs]);
}

void g16_fp_mul_n(g16_fp *r, const g16_fp *a, const g16_fp *b, size_t n) { g16_fp_mul_s(r, 1, a, 1, b, 1, n); }

void g16_fp_sqr_n(g16_fp *r, const g16_fp *a, size_t n)
{
#ifdef HAVE_IFMA_BUILD
    if (g16_use_ifma) {
        mul_n_ifma(r, 1, a, 1, a, 1, n);
        return;
    }
#endif
    for (size_t i = 0; i < n; i++) g16_fp_sqr(&r[i], &a[i]);
}
