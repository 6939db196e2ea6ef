/* The NTT's butterflies eight at a time with AVX-512 IFMA (ntt_internal.h).
 *
 * Why: a transform is ~(n/2)·log n Fr products, and the scalar mulx product is most of
 * its time (the WinningPoSt profile: 13.5% of a proof in g16_mulx_mont_256, docs/
 * perf-notes.md).  Eight independent products in radix 2^52 cost about as much as two
 * or three scalar ones.  Butterflies of one stage are independent, and for 8 consecutive
 * offsets j their legs are 8 consecutive elements: 4 plain loads and a transposition
 * (two permutes and a blend a word) give the lanes, no gathers.  Only the twiddles,
 * tw[j·st] with a stride, are gathered.
 *
 * Values stay in Montgomery form with R = 2^256 in both radices (fp_ifma.h with
 * G16_IFMA_FR), every product gets reduced inputs and gives a reduced output, so each
 * lane computes exactly what the scalar butterfly computes, bit for bit (the tests
 * compare the two paths).  The scalar code multiplies by nothing where the twiddle
 * index is 0; here that lane multiplies by tw[0] = 1, which returns the same value. */
#define G16_IFMA_FR 1
#include "field/fp_ifma.h"

#include "field/fp_batch.h"
#include "ntt/ntt_internal.h"

#ifdef G16_IFMA_BUILD

/* 8 consecutive elements -> lanes */
static IFMA_INLINE void ld8(v8 *r, const g16_fr *x)
{
    const __m512i l0 = _mm512_loadu_si512((const void *)x), l1 = _mm512_loadu_si512((const void *)(x + 2));
    const __m512i l2 = _mm512_loadu_si512((const void *)(x + 4)), l3 = _mm512_loadu_si512((const void *)(x + 6));
    __m512i w[4];
    for (int k = 0; k < 4; k++) {
        /* word k of elements 0-3 from (l0, l1) into lanes 0-3, of elements 4-7 from (l2, l3)
         * into lanes 4-7 */
        const __m512i idx = _mm512_setr_epi64(k, 4 + k, 8 + k, 12 + k, k, 4 + k, 8 + k, 12 + k);
        w[k] = _mm512_mask_blend_epi64(0xf0, _mm512_permutex2var_epi64(l0, idx, l1),
                                       _mm512_permutex2var_epi64(l2, idx, l3));
    }
    v8_from_words(r, w);
}

/* lanes -> 8 consecutive elements */
static IFMA_INLINE void st8(g16_fr *x, const v8 *a)
{
    __m512i w[4];
    v8_to_words(w, a);
    for (int m = 0; m < 4; m++) {
        /* elements 2m, 2m+1: words 0, 1 from (w0, w1) into lanes 0, 1, 4, 5; words 2, 3
         * from (w2, w3) into lanes 2, 3, 6, 7 */
        const __m512i idx = _mm512_setr_epi64(2 * m, 8 + 2 * m, 2 * m, 8 + 2 * m, 2 * m + 1, 9 + 2 * m, 2 * m + 1,
                                              9 + 2 * m);
        const __m512i v = _mm512_mask_blend_epi64(0xcc, _mm512_permutex2var_epi64(w[0], idx, w[1]),
                                                  _mm512_permutex2var_epi64(w[2], idx, w[3]));
        _mm512_storeu_si512((void *)(x + 2 * m), v);
    }
}

/* The twiddles of a butterfly with half h at the offsets e of the lanes: ω^e = tw[e·st],
 * or for the inverse tw[(h − e)·st] (the sign is the caller's), index 0 where e = 0. */
static IFMA_INLINE void twid_e(v8 *r, const g16_fr *tw, __m512i e, size_t h, size_t st, int inv)
{
    __m512i idx;
    if (inv) {
        idx = _mm512_sub_epi64(_mm512_set1_epi64((long long)h), e);
        idx = _mm512_maskz_mov_epi64(_mm512_test_epi64_mask(e, e), idx);
    } else {
        idx = e;
    }
    /* element index · st · 4 words (st is a power of two) */
    idx = _mm512_sll_epi64(idx, _mm_cvtsi64_si128(2 + __builtin_ctzll((unsigned long long)st)));
    load8(r, tw, 0xff, idx);
}

/* ... at offsets j..j+7 */
static IFMA_INLINE void twid(v8 *r, const g16_fr *tw, size_t j, size_t h, size_t st, int inv)
{
    const __m512i lane = _mm512_setr_epi64(0, 1, 2, 3, 4, 5, 6, 7);
    twid_e(r, tw, _mm512_add_epi64(_mm512_set1_epi64((long long)j), lane), h, st, inv);
}

/* lanes of a butterfly group starting at offset j whose inverse sign flips: all but
 * e = 0 (only lane 0 of j = 0 can have it) */
static inline __mmask8 flip(size_t j, int inv) { return !inv ? 0 : j == 0 ? 0xfe : 0xff; }

/* DIF butterflies on two pairs: x' = x + y, y' = ±(x − y)·w */
static IFMA_INLINE void dif2x(v8 *x0, v8 *y0, const v8 *w0, __mmask8 f0, v8 *x1, v8 *y1, const v8 *w1, __mmask8 f1)
{
    v8 d[2], w[2] = {*w0, *w1}, o[2];
    v8_sub(&d[0], x0, y0);
    v8_add(x0, x0, y0);
    v8_sub(&d[1], x1, y1);
    v8_add(x1, x1, y1);
    if (f0) v8_neg_mask(&d[0], &d[0], f0);
    if (f1) v8_neg_mask(&d[1], &d[1], f1);
    mont8_2(o, d, w);
    *y0 = o[0];
    *y1 = o[1];
}

/* DIT butterflies on two pairs: t = y·w, (x, y) = (x + t, x − t), swapped in the lanes
 * of f (the inverse's sign) */
static IFMA_INLINE void dit2x(v8 *x0, v8 *y0, const v8 *w0, __mmask8 f0, v8 *x1, v8 *y1, const v8 *w1, __mmask8 f1)
{
    v8 t[2], in[2] = {*y0, *y1}, w[2] = {*w0, *w1}, s, d;
    mont8_2(t, in, w);
    v8_add(&s, x0, &t[0]);
    v8_sub(&d, x0, &t[0]);
    v8_blend(x0, f0, &s, &d);
    v8_blend(y0, f0, &d, &s);
    v8_add(&s, x1, &t[1]);
    v8_sub(&d, x1, &t[1]);
    v8_blend(x1, f1, &s, &d);
    v8_blend(y1, f1, &d, &s);
}

/* Fused scaling: f[k] holds the factors of leg k's lanes; step = ratio^8 (NULL: constant). */
typedef struct vscale {
    v8 f[4], step;
    int geo;
} vscale;

static IFMA_TARGET void vscale_init(vscale *v, const g16_ntt_scale *sc, size_t i0, size_t gap, int legs)
{
    g16_fr rp[8], lanes[8];
    v->geo = sc->has_ratio;
    rp[0] = g16_fr_one_mont;
    for (int l = 1; l < 8; l++) g16_fr_mul(&rp[l], &rp[l - 1], &sc->ratio);
    if (v->geo) {
        g16_fr r8;
        g16_fr_mul(&r8, &rp[7], &sc->ratio);
        v8_set1(&v->step, &r8);
    }
    for (int k = 0; k < legs; k++) {
        g16_fr base = sc->c0;
        if (v->geo) {
            uint64_t e = (uint64_t)(i0 + (size_t)k * gap);
            g16_fr_pow(&base, &sc->ratio, &e, 1);
            g16_fr_mul(&base, &base, &sc->c0);
        }
        for (int l = 0; l < 8; l++) {
            if (v->geo)
                g16_fr_mul(&lanes[l], &base, &rp[l]);
            else
                lanes[l] = base;
        }
        ld8(&v->f[k], lanes);
    }
}

/* x[k] *= f[k] for the legs, then f advances by 8 indices */
static IFMA_INLINE void vscale_apply(vscale *v, v8 *x, int legs)
{
    for (int k = 0; k < legs; k += 2) {
        v8 in[2] = {x[k], x[k + 1]}, o[2];
        mont8_2(o, in, &v->f[k]);
        x[k] = o[0];
        x[k + 1] = o[1];
        if (v->geo) {
            v8 st[2] = {v->step, v->step};
            mont8_2(o, &v->f[k], st);
            v->f[k] = o[0];
            v->f[k + 1] = o[1];
        }
    }
}

/* The twiddles of a radix-4 item group at offsets j..j+7 (quarter q) and the lanes
 * whose inverse sign flips. */
typedef struct tw4 {
    v8 w0, w1, w2;
    __mmask8 f, f1;
} tw4;

static IFMA_INLINE void tw4_load(tw4 *t, const g16_fr *tw, size_t j, size_t q, size_t st, int inv)
{
    twid(&t->w0, tw, j, 2 * q, st, inv);     /* size 4q, offsets j */
    twid(&t->w1, tw, j + q, 2 * q, st, inv); /* size 4q, offsets j + q */
    twid(&t->w2, tw, j, q, 2 * st, inv);     /* size 2q, offsets j */
    t->f = flip(j, inv);
    t->f1 = flip(j + q, inv);
}

/* One radix-4 item group: 8 offsets of the block at x (legs x + k·q). */
static IFMA_INLINE void group4(g16_fr *x, size_t q, const tw4 *t, int dif, vscale *vs)
{
    v8 a[4];
    const v8 *w0 = &t->w0, *w1 = &t->w1, *w2 = &t->w2;
    const __mmask8 f = t->f, f1 = t->f1;
    for (int k = 0; k < 4; k++) ld8(&a[k], x + k * q);
    if (dif) {
        if (vs) vscale_apply(vs, a, 4);
        dif2x(&a[0], &a[2], w0, f, &a[1], &a[3], w1, f1);
        dif2x(&a[0], &a[1], w2, f, &a[2], &a[3], w2, f);
    } else {
        dit2x(&a[0], &a[1], w2, f, &a[2], &a[3], w2, f);
        dit2x(&a[0], &a[2], w0, f, &a[1], &a[3], w1, f1);
        if (vs) vscale_apply(vs, a, 4);
    }
    for (int k = 0; k < 4; k++) st8(x + k * q, &a[k]);
}

/* One radix-2 item group: offsets j..j+7 (legs x, x + h). */
static IFMA_INLINE void group2(g16_fr *x, size_t h, const g16_fr *tw, size_t j, size_t st, int inv, int dif,
                               vscale *vs)
{
    v8 a[2], w;
    ld8(&a[0], x);
    ld8(&a[1], x + h);
    twid(&w, tw, j, h, st, inv);
    const __mmask8 f = flip(j, inv);
    v8 d, o[1];
    if (dif) {
        if (vs) vscale_apply(vs, a, 2);
        v8_sub(&d, &a[0], &a[1]);
        v8_add(&a[0], &a[0], &a[1]);
        if (f) v8_neg_mask(&d, &d, f);
        mont8_1(o, &d, &w);
        a[1] = o[0];
    } else {
        v8 s;
        mont8_1(o, &a[1], &w);
        v8_add(&s, &a[0], &o[0]);
        v8_sub(&d, &a[0], &o[0]);
        v8_blend(&a[0], f, &s, &d);
        v8_blend(&a[1], f, &d, &s);
        if (vs) vscale_apply(vs, a, 2);
    }
    st8(x, &a[0]);
    st8(x + h, &a[1]);
}

static IFMA_TARGET void pass_v8(g16_fr *a, size_t s, int radix, size_t b, size_t e, const g16_fr *tw, size_t st,
                                int inv, int dif, const g16_ntt_scale *sc)
{
    const size_t q = s / (size_t)radix;
    vscale vs, *vp = NULL;
    if (sc && sc->on) {
        vscale_init(&vs, sc, b, q, radix);
        vp = &vs;
    }
    if (radix == 4 && !vp && b % q == 0 && e % q == 0) {
        /* whole blocks (the in-cache stages): every block has the same offsets, so each
         * group's twiddles are gathered once for all of them */
        for (size_t j = 0; j < q; j += 8) {
            tw4 t4;
            tw4_load(&t4, tw, j, q, st, inv);
            for (size_t blk = b / q; blk < e / q; blk++) group4(a + blk * s + j, q, &t4, dif, NULL);
        }
        return;
    }
    for (size_t t = b; t < e; t += 8) {
        const size_t blk = t / q, j = t % q;
        g16_fr *x = a + blk * s + j;
        if (radix == 4) {
            tw4 t4;
            tw4_load(&t4, tw, j, q, st, inv);
            group4(x, q, &t4, dif, vp);
        } else {
            group2(x, q, tw, j, st, inv, dif, vp);
        }
    }
}

/* The last three DIF stages of a block (halves 4, 2, 1), or the first three DIT ones
 * (1, 2, 4), 16 elements at a time in registers: they pair elements of the same
 * aligned group of 8, so two groups' lanes are permuted into the pairs' x and y sides
 * (elements with bit h clear / set), butterflied eight at a time, and permuted back.
 * The offsets within the sub-transform, hence twiddles and signs, are the same for
 * every chunk. */
typedef struct tail_stage {
    __m512i to_x, to_y, back0, back1; /* permutations over (group 0, group 1) / (x, y) */
    v8 w;                             /* twiddles of the x lanes */
    __mmask8 f;                       /* lanes whose inverse sign flips */
    int mul;                          /* 0 for h = 1: every twiddle is ω^0 */
} tail_stage;

static IFMA_TARGET void tail_init(tail_stage *t, unsigned h, const g16_fr *tw, size_t B, int inv)
{
    long long x[8], y[8], b[16], e[8];
    int nx = 0, ny = 0;
    for (int i = 0; i < 16; i++) {
        if (i & (int)h) {
            b[i] = 8 + ny;
            y[ny++] = i;
        } else {
            b[i] = nx;
            e[nx] = i & (int)(2 * h - 1);
            x[nx++] = i;
        }
    }
    t->to_x = _mm512_loadu_si512((const void *)x);
    t->to_y = _mm512_loadu_si512((const void *)y);
    t->back0 = _mm512_loadu_si512((const void *)b);
    t->back1 = _mm512_loadu_si512((const void *)(b + 8));
    const __m512i ev = _mm512_loadu_si512((const void *)e);
    twid_e(&t->w, tw, ev, h, B / (2 * h), inv);
    t->f = inv ? _mm512_test_epi64_mask(ev, ev) : 0;
    t->mul = h > 1;
}

static IFMA_INLINE void perm(v8 *r, const v8 *a, __m512i idx, const v8 *b)
{
    for (int k = 0; k < FP_NL; k++) r->l[k] = _mm512_permutex2var_epi64(a->l[k], idx, b->l[k]);
}

static IFMA_INLINE void tail_bf(const tail_stage *t, v8 g[2], int dif)
{
    v8 x, y, d, s, o[1];
    perm(&x, &g[0], t->to_x, &g[1]);
    perm(&y, &g[0], t->to_y, &g[1]);
    if (dif) {
        v8_sub(&d, &x, &y);
        v8_add(&x, &x, &y);
        if (t->f) v8_neg_mask(&d, &d, t->f);
        if (t->mul) {
            mont8_1(o, &d, &t->w);
            y = o[0];
        } else {
            y = d;
        }
    } else {
        if (t->mul) {
            mont8_1(o, &y, &t->w);
            y = o[0];
        }
        v8_add(&s, &x, &y);
        v8_sub(&d, &x, &y);
        v8_blend(&x, t->f, &s, &d);
        v8_blend(&y, t->f, &d, &s);
    }
    perm(&g[0], &x, t->back0, &y);
    perm(&g[1], &x, t->back1, &y);
}

static IFMA_TARGET void tail_v8(g16_fr *x, size_t B, const g16_fr *tw, int inv, int dif)
{
    tail_stage ts[3];
    for (int k = 0; k < 3; k++) tail_init(&ts[k], dif ? 4u >> k : 1u << k, tw, B, inv);
    for (size_t o = 0; o < B; o += 16) {
        v8 g[2];
        ld8(&g[0], x + o);
        ld8(&g[1], x + o + 8);
        for (int k = 0; k < 3; k++) tail_bf(&ts[k], g, dif);
        st8(x + o, &g[0]);
        st8(x + o + 8, &g[1]);
    }
}

static IFMA_TARGET void hq_v8(g16_fr *a, const g16_fr *b, const g16_fr *c, const g16_fr *z, size_t i0, size_t i1)
{
    v8 zz[2];
    if (z) {
        v8_set1(&zz[0], z);
        zz[1] = zz[0];
    }
    for (size_t i = i0; i < i1; i += 16) {
        v8 x[2], y[2], o[2];
        ld8(&x[0], a + i);
        ld8(&x[1], a + i + 8);
        if (b) {
            ld8(&y[0], b + i);
            ld8(&y[1], b + i + 8);
            mont8_2(o, x, y);
            x[0] = o[0], x[1] = o[1];
        }
        if (c) {
            ld8(&y[0], c + i);
            v8_sub(&x[0], &x[0], &y[0]);
            ld8(&y[1], c + i + 8);
            v8_sub(&x[1], &x[1], &y[1]);
        }
        if (z) {
            mont8_2(o, x, zz);
            x[0] = o[0], x[1] = o[1];
        }
        st8(a + i, &x[0]);
        st8(a + i + 8, &x[1]);
    }
}
#endif

int g16_ntt_v8_pass(g16_fr *a, size_t s, int radix, size_t b, size_t e, const g16_fr *tw, size_t st, int inv,
                    int dif, const g16_ntt_scale *sc)
{
#ifdef G16_IFMA_BUILD
    const size_t q = s / (size_t)radix;
    if (!g16_use_ifma || q % 8 || b % 8 || e % 8) return 0;
    /* a scaled pass is one block (the whole transform): the factors run geometrically */
    if (sc && sc->on && e > q) return 0;
    pass_v8(a, s, radix, b, e, tw, st, inv, dif, sc);
    return 1;
#else
    (void)a, (void)s, (void)radix, (void)b, (void)e, (void)tw, (void)st, (void)inv, (void)dif, (void)sc;
    return 0;
#endif
}

int g16_ntt_v8_block(g16_fr *x, int block_log, const g16_fr *tw, int inv, int dif)
{
#ifdef G16_IFMA_BUILD
    if (!g16_use_ifma || block_log < 4) return 0;
    const size_t B = (size_t)1 << block_log;
    /* radix-4 passes while a quarter is 8 lanes or more; a radix-2 pass where one stage
     * is left above the tail's three */
    if (dif) {
        size_t s = B;
        for (; s / 4 >= 8; s /= 4) pass_v8(x, s, 4, 0, B / 4, tw, B / s, inv, 1, NULL);
        if (s == 16) pass_v8(x, 16, 2, 0, B / 2, tw, B / 16, inv, 1, NULL);
        tail_v8(x, B, tw, inv, 1);
    } else {
        tail_v8(x, B, tw, inv, 0);
        size_t s = 32;
        if ((block_log - 3) & 1) {
            pass_v8(x, 16, 2, 0, B / 2, tw, B / 16, inv, 0, NULL);
            s = 64;
        }
        for (; s <= B; s *= 4) pass_v8(x, s, 4, 0, B / 4, tw, B / s, inv, 0, NULL);
    }
    return 1;
#else
    (void)x, (void)block_log, (void)tw, (void)inv, (void)dif;
    return 0;
#endif
}

int g16_ntt_v8_hq(g16_fr *a, const g16_fr *b, const g16_fr *c, const g16_fr *z, size_t i0, size_t i1)
{
#ifdef G16_IFMA_BUILD
    if (!g16_use_ifma || i0 % 16 || i1 % 16) return 0;
    hq_v8(a, b, c, z, i0, i1);
    return 1;
#else
    (void)a, (void)b, (void)c, (void)z, (void)i0, (void)i1;
    return 0;
#endif
}
