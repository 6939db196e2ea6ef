/* Eight Poseidon traces at once with AVX-512 IFMA (poseidon.h, g16_poseidon_hash_trace8).
 *
 * Why: a WindowPoSt partition's witness is ~235,000 arity-8 hashes, ≈ 2,000 Fr products
 * each, and the scalar mulx product was all of its time (1.0 s of a 6.2 s partition on
 * the H200 host, before any GPU work can start).  The PoR paths of different challenges
 * are independent, so eight of them run in the eight lanes of fp_ifma.h's Fr vectors
 * (radix 2^52, R = 2^256 as the scalar Fr), one level at a time.
 *
 * Every step is the scalar trace's (poseidon.c, g16_poseidon_hash_trace) on reduced
 * values with reduced results, so each lane writes exactly the scalar values, bit for
 * bit (tests/unit/test_poseidon_ifma.c compares every arity and lane count).  The
 * constants are kept in radix 2^52 and broadcast from memory where used. */
#define G16_IFMA_FR 1
#include "field/fp_ifma.h"

#include <pthread.h>
#include <stdlib.h>

#include "field/fp_batch.h"
#include "filecoin/poseidon.h"

size_t g16_poseidon_trace_len(const g16_poseidon *p)
{
    unsigned t = p->t;
    /* round 0: 3 values for each input S-box; later full rounds 4 an S-box; partial
     * rounds 4; the digest */
    return (size_t)3 * (t - 1) + (size_t)4 * t * (p->rf - 1) + (size_t)4 * p->rp + 1;
}

#ifdef G16_IFMA_BUILD

typedef uint64_t limbs[FP_NL];

/* One arity's constants in radix 2^52, laid out as g16_poseidon's. */
typedef struct ptab {
    limbs tag;
    limbs *crc, *w_hat, *v_rest;
    limbs mds[G16_POSEIDON_MAX_T][G16_POSEIDON_MAX_T], pre_sparse[G16_POSEIDON_MAX_T][G16_POSEIDON_MAX_T];
} ptab;

static void to_limbs(limbs out, const g16_fr *a)
{
    const uint64_t *w = a->l;
    out[0] = w[0] & M52;
    out[1] = ((w[0] >> 52) | (w[1] << 12)) & M52;
    out[2] = ((w[1] >> 40) | (w[2] << 24)) & M52;
    out[3] = ((w[2] >> 28) | (w[3] << 36)) & M52;
    out[4] = w[3] >> 16;
}

static limbs *to_limbs_n(const g16_fr *a, size_t n)
{
    limbs *r = malloc((n ? n : 1) * sizeof *r);
    if (r)
        for (size_t i = 0; i < n; i++) to_limbs(r[i], &a[i]);
    return r;
}

static ptab g_tab[4];
static int g_tab_ok[4];
static pthread_once_t g_tab_once[4] = {PTHREAD_ONCE_INIT, PTHREAD_ONCE_INIT, PTHREAD_ONCE_INIT, PTHREAD_ONCE_INIT};
static const unsigned g_tab_arity[4] = {2, 4, 8, 11};

static void tab_build(unsigned slot)
{
    const g16_poseidon *p = g16_poseidon_get(g_tab_arity[slot]);
    if (!p) return;
    ptab *b = &g_tab[slot];
    unsigned t = p->t;
    to_limbs(b->tag, &p->tag);
    for (unsigned i = 0; i < t; i++)
        for (unsigned j = 0; j < t; j++) {
            to_limbs(b->mds[i][j], &p->mds[i][j]);
            to_limbs(b->pre_sparse[i][j], &p->pre_sparse[i][j]);
        }
    b->crc = to_limbs_n(p->crc, p->n_crc);
    b->w_hat = to_limbs_n(p->w_hat, (size_t)p->rp * t);
    b->v_rest = to_limbs_n(p->v_rest, (size_t)p->rp * (t - 1));
    g_tab_ok[slot] = b->crc && b->w_hat && b->v_rest;
}

static void tab0(void) { tab_build(0); }
static void tab1(void) { tab_build(1); }
static void tab2(void) { tab_build(2); }
static void tab3(void) { tab_build(3); }

static const ptab *tab_get(unsigned arity)
{
    static void (*const fns[4])(void) = {tab0, tab1, tab2, tab3};
    for (unsigned s = 0; s < 4; s++)
        if (g_tab_arity[s] == arity) {
            pthread_once(&g_tab_once[s], fns[s]);
            return g_tab_ok[s] ? &g_tab[s] : NULL;
        }
    return NULL;
}

static IFMA_INLINE void bcast(v8 *r, const limbs c)
{
    for (int j = 0; j < FP_NL; j++) r->l[j] = _mm512_set1_epi64((long long)c[j]);
}

/* The output cursor: value `at` of every lane's trace. */
typedef struct sink {
    g16_fr *aux[8];
    unsigned lanes;
    size_t at;
} sink;

/* Stores lanes 0..lanes−1 of a at aux[k][at]: the words of the 8 lanes transposed by
 * pairs of lanes into 256-bit records. */
static IFMA_INLINE void emit(sink *o, const v8 *a)
{
    __m512i w[4];
    v8_to_words(w, a);
    const __m512i lo = _mm512_unpacklo_epi64(w[0], w[1]), hi = _mm512_unpackhi_epi64(w[0], w[1]);
    const __m512i lo2 = _mm512_unpacklo_epi64(w[2], w[3]), hi2 = _mm512_unpackhi_epi64(w[2], w[3]);
    /* lo's 128-bit blocks hold words 0, 1 of lanes 0, 2, 4, 6; lo2's words 2, 3 of the same */
    const __m512i i01 = _mm512_setr_epi64(0, 1, 8, 9, 2, 3, 10, 11), i23 = _mm512_setr_epi64(4, 5, 12, 13, 6, 7, 14, 15);
    __m512i q[4] = {_mm512_permutex2var_epi64(lo, i01, lo2), _mm512_permutex2var_epi64(hi, i01, hi2),
                    _mm512_permutex2var_epi64(lo, i23, lo2), _mm512_permutex2var_epi64(hi, i23, hi2)};
    /* q[0]: lanes 0, 2; q[1]: 1, 3; q[2]: 4, 6; q[3]: 5, 7 */
    for (unsigned k = 0; k < o->lanes; k++) {
        const __m512i v = q[(k & 1) | ((k >> 2) << 1)];
        const __m256i r = (k & 2) ? _mm512_extracti64x4_epi64(v, 1) : _mm512_castsi512_si256(v);
        _mm256_storeu_si256((__m256i *)(void *)&o->aux[k][o->at], r);
    }
    o->at++;
}

static IFMA_INLINE void mul2(v8 *r0, v8 *r1, const v8 *a0, const v8 *b0, const v8 *a1, const v8 *b1)
{
    v8 a[2] = {*a0, *a1}, b[2] = {*b0, *b1}, r[2];
    mont8_2(r, a, b);
    *r0 = r[0];
    *r1 = r[1];
}

/* S-boxes of s[i] for i in [lo, hi), as trace_sbox: l (when alloc), l², l⁴, l⁵ + post
 * (post NULL: none), the products two at a time. */
static IFMA_INLINE void sboxes(sink *o, v8 *s, unsigned lo, unsigned hi, const limbs *post, int alloc)
{
    v8 x[G16_POSEIDON_MAX_T], l2[G16_POSEIDON_MAX_T], l4[G16_POSEIDON_MAX_T];
    unsigned i;
    for (i = lo; i < hi; i++) x[i] = s[i];
    for (i = lo; i + 1 < hi; i += 2) mul2(&l2[i], &l2[i + 1], &x[i], &x[i], &x[i + 1], &x[i + 1]);
    if (i < hi) mont8_1(&l2[i], &x[i], &x[i]);
    for (i = lo; i + 1 < hi; i += 2) mul2(&l4[i], &l4[i + 1], &l2[i], &l2[i], &l2[i + 1], &l2[i + 1]);
    if (i < hi) mont8_1(&l4[i], &l2[i], &l2[i]);
    for (i = lo; i + 1 < hi; i += 2) mul2(&s[i], &s[i + 1], &l4[i], &x[i], &l4[i + 1], &x[i + 1]);
    if (i < hi) mont8_1(&s[i], &l4[i], &x[i]);
    for (i = lo; i < hi; i++) {
        if (post) {
            v8 k;
            bcast(&k, post[i]);
            v8_add(&s[i], &s[i], &k);
        }
        if (alloc) emit(o, &x[i]);
        emit(o, &l2[i]);
        emit(o, &l4[i]);
        emit(o, &s[i]);
    }
}

/* r = Σ_k a[k]·c[k]·2^-256 mod r for n ≤ 12 lanes-wide terms, each c[k] a constant:
 * the products' 10 columns summed unreduced, one Montgomery reduction for the sum.
 * Why it is exact: a column gets at most 10 terms below 2^52 a product, so 12 products
 * stay below 2^59; the reduction's rounds (fp_ifma.h's, on the summed columns) give
 * u = (T + m·r)/2^256 < T/2^256 + r < (12·0.46 + 1)·r < 8r for T < 12r², and three
 * conditional subtractions of 4r, 2r, r leave the reduced value, the scalar's bit for bit.
 * A product costs half its multiply-adds this way (the reduction's half is shared). */
static const uint64_t r52x[3][FP_NL] = {
    /* 4r, 2r, r in radix 2^52 (4r < 2^257: the top limb holds it) */
    {(FP_W0 << 2) & M52, ((FP_W0 >> 50) | (FP_W1 << 14)) & M52, ((FP_W1 >> 38) | (FP_W2 << 26)) & M52,
     ((FP_W2 >> 26) | (FP_W3 << 38)) & M52, FP_W3 >> 14},
    {(FP_W0 << 1) & M52, ((FP_W0 >> 51) | (FP_W1 << 13)) & M52, ((FP_W1 >> 39) | (FP_W2 << 25)) & M52,
     ((FP_W2 >> 27) | (FP_W3 << 37)) & M52, FP_W3 >> 15},
    FP_LIMBS52_4W,
};

static IFMA_INLINE void dot8(v8 *r, const v8 *const *a, const limbs *const *c, unsigned n)
{
    const __m512i m52 = _mm512_set1_epi64((long long)M52), k0 = _mm512_set1_epi64((long long)k0_52);
    const __m512i z = _mm512_setzero_si512();
    __m512i t[2 * FP_NL + 1];
    for (int j = 0; j < 2 * FP_NL + 1; j++) t[j] = z;
    for (unsigned k = 0; k < n; k++)
        for (int j = 0; j < FP_NL; j++) {
            const __m512i cj = _mm512_set1_epi64((long long)(*c[k])[j]);
            for (int i = 0; i < FP_NL; i++) {
                t[i + j] = _mm512_madd52lo_epu64(t[i + j], a[k]->l[i], cj);
                t[i + j + 1] = _mm512_madd52hi_epu64(t[i + j + 1], a[k]->l[i], cj);
            }
        }
    /* the reduction rounds, sliding down one column a round as MONT8 does */
    __m512i *u = t;
    for (int i = 0; i < FP_NL; i++) {
        __m512i m = _mm512_madd52lo_epu64(z, u[0], k0);
        if (i == FP_NL - 1) m = _mm512_and_si512(m, _mm512_set1_epi64((1LL << FP_LAST) - 1));
        for (int j = 0; j < FP_NL; j++) {
            const __m512i pj = _mm512_set1_epi64((long long)p52[j]);
            u[j] = _mm512_madd52lo_epu64(u[j], m, pj);
            u[j + 1] = _mm512_madd52hi_epu64(u[j + 1], m, pj);
        }
        if (i < FP_NL - 1) {
            u[1] = _mm512_add_epi64(u[1], _mm512_srli_epi64(u[0], 52));
            u++;
        }
    }
    /* u[0 .. FP_NL + 1] is divisible by 2^FP_LAST: normalise, shift right by it */
    for (int j = 0; j < FP_NL + 1; j++) {
        u[j + 1] = _mm512_add_epi64(u[j + 1], _mm512_srli_epi64(u[j], 52));
        u[j] = _mm512_and_si512(u[j], m52);
    }
    __m512i x[FP_NL];
    for (int j = 0; j < FP_NL; j++)
        x[j] = _mm512_and_si512(
            _mm512_or_si512(_mm512_srli_epi64(u[j], FP_LAST), _mm512_slli_epi64(u[j + 1], 52 - FP_LAST)), m52);
    for (int q = 0; q < 3; q++) {
        __m512i d[FP_NL], bw = z;
        for (int j = 0; j < FP_NL; j++) {
            d[j] = _mm512_sub_epi64(_mm512_sub_epi64(x[j], _mm512_set1_epi64((long long)r52x[q][j])), bw);
            bw = _mm512_srli_epi64(d[j], 63);
            d[j] = _mm512_and_si512(d[j], m52);
        }
        const __mmask8 ge = _mm512_cmpeq_epi64_mask(bw, z);
        for (int j = 0; j < FP_NL; j++) x[j] = _mm512_mask_blend_epi64(ge, x[j], d[j]);
    }
    for (int j = 0; j < FP_NL; j++) r->l[j] = x[j];
}

/* s = s · m (a t × t matrix acting on a row vector) */
static IFMA_INLINE void vec_mat8(v8 *s, const limbs m[G16_POSEIDON_MAX_T][G16_POSEIDON_MAX_T], unsigned t)
{
    v8 r[G16_POSEIDON_MAX_T];
    const v8 *a[G16_POSEIDON_MAX_T];
    const limbs *c[G16_POSEIDON_MAX_T];
    for (unsigned i = 0; i < t; i++) a[i] = &s[i];
    for (unsigned j = 0; j < t; j++) {
        for (unsigned i = 0; i < t; i++) c[i] = &m[i][j];
        dot8(&r[j], a, c, t);
    }
    for (unsigned j = 0; j < t; j++) s[j] = r[j];
}

/* One partial round's sparse matrix: s0' = Σ s_j·w_j, s_j' = s_j + s0·v_(j−1). */
static IFMA_INLINE void sparse8(v8 *s, const limbs *w, const limbs *v, unsigned t)
{
    v8 x0 = s[0], c0, c1, q0, q1;
    const v8 *a[G16_POSEIDON_MAX_T];
    const limbs *c[G16_POSEIDON_MAX_T];
    a[0] = &x0;
    for (unsigned j = 0; j < t; j++) {
        if (j) a[j] = &s[j];
        c[j] = &w[j];
    }
    v8 acc;
    dot8(&acc, a, c, t);
    unsigned j = 1;
    for (; j + 1 < t; j += 2) {
        bcast(&c0, v[j - 1]);
        bcast(&c1, v[j]);
        mul2(&q0, &q1, &x0, &c0, &x0, &c1);
        v8_add(&s[j], &s[j], &q0);
        v8_add(&s[j + 1], &s[j + 1], &q1);
    }
    if (j < t) {
        bcast(&c0, v[j - 1]);
        mont8_1(&q0, &x0, &c0);
        v8_add(&s[j], &s[j], &q0);
    }
    s[0] = acc;
}

static IFMA size_t trace8(const g16_poseidon *p, const ptab *b, const g16_fr *const in[8], g16_fr *const aux[8],
                          unsigned lanes)
{
    unsigned t = p->t, half = p->rf / 2;
    sink o = {.lanes = lanes, .at = 0};
    for (unsigned k = 0; k < 8; k++) o.aux[k] = aux[k < lanes ? k : 0];
    v8 s[G16_POSEIDON_MAX_T], c;
    bcast(&s[0], b->tag);
    for (unsigned i = 0; i < p->arity; i++) {
        /* element i of every lane's input: a gather of 4 words a lane */
        __m512i idx = _mm512_setzero_si512();
        long long base[8];
        for (unsigned k = 0; k < 8; k++) base[k] = (long long)(uintptr_t)&in[k < lanes ? k : 0][i];
        idx = _mm512_loadu_si512((const void *)base);
        v8_gather_at(&s[i + 1], idx, 0, 0xff);
    }
    const limbs *k = b->crc;
    for (unsigned i = 0; i < t; i++) {
        bcast(&c, k[i]);
        v8_add(&s[i], &s[i], &c);
    }
    k += t;
    /* round 0: the tag's S-box is not traced, the inputs' are without l */
    {
        v8 l2, l4;
        mont8_1(&l2, &s[0], &s[0]);
        mont8_1(&l4, &l2, &l2);
        mont8_1(&s[0], &l4, &s[0]);
        bcast(&c, k[0]);
        v8_add(&s[0], &s[0], &c);
    }
    sboxes(&o, s, 1, t, k, 0);
    k += t;
    vec_mat8(s, half == 1 ? b->pre_sparse : b->mds, t);
    for (unsigned r = 1; r < half; r++) {
        sboxes(&o, s, 0, t, k, 1);
        k += t;
        vec_mat8(s, r + 1 == half ? b->pre_sparse : b->mds, t);
    }
    for (unsigned r = 0; r < p->rp; r++) {
        sboxes(&o, s, 0, 1, k++, 1);
        sparse8(s, &b->w_hat[(size_t)r * t], &b->v_rest[(size_t)r * (t - 1)], t);
    }
    for (unsigned r = 0; r < half; r++) {
        int last = r + 1 == half;
        sboxes(&o, s, 0, t, last ? NULL : k, 1);
        if (!last) k += t;
        vec_mat8(s, b->mds, t);
    }
    emit(&o, &s[1]);
    return o.at;
}

size_t g16_poseidon_hash_trace8(const g16_poseidon *p, const g16_fr *const in[8], g16_fr *const aux[8],
                                unsigned lanes)
{
    if (!g16_use_ifma || lanes == 0 || lanes > 8) return 0;
    const ptab *b = tab_get(p->arity);
    if (!b) return 0;
    return trace8(p, b, in, aux, lanes);
}

#else

size_t g16_poseidon_hash_trace8(const g16_poseidon *p, const g16_fr *const in[8], g16_fr *const aux[8],
                                unsigned lanes)
{
    (void)p, (void)in, (void)aux, (void)lanes;
    return 0;
}

#endif
