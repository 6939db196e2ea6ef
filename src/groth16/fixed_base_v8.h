/* The G1 fixed-base products of one span in radix-2^52 vectors (AVX-512 IFMA),
 * included by fixed_base.c after the G1 instance of fixed_base_impl.h, whose
 * context, digits and table it uses.  The products of fixed_base_impl.h go
 * through the MSM's batch step, which gathers each accumulator from an array of
 * affine points, converts it to radix 2^52 and scatters the sum back, twice per
 * addition (x, then y).  Here the span's accumulators stay in radix 2^52 for all
 * the windows, eight consecutive scalars to a vector (lane k of group g is
 * scalar 8g + k), so they are plain vector loads and stores; only the table
 * entries are gathered.  Same arithmetic as the batch step (λ, λ², λ·(xA − x3),
 * Montgomery's trick in two sets of chains), so the same points, bit for bit.
 *
 * Lanes that cannot take the affine formula — an accumulator still empty (the
 * point at infinity, x = 0: no point of the prime-order group has x = 0), or
 * equal x (a doubling or a cancellation, possible in the top window only) — are
 * set apart per batch and added with the Jacobian formulas, one by one. */
#ifndef G16_GROTH16_FIXED_BASE_V8_H
#define G16_GROTH16_FIXED_BASE_V8_H

#ifdef G16_IFMA_BUILD
#include "field/fp_batch.h"
#include "msm/batch_v8.h"

/* Groups of 8 scalars per batch (one inversion each, per window). */
#define FBV_BATCH_GROUPS (FB_CHUNK / 8)

/* Per-worker scratch of the vector path (64-byte aligned). */
typedef struct {
    v8 *ax, *ay;        /* accumulators, FB_SPAN / 8 groups */
    v8 *d, *run, *px;   /* per group of a batch: xP − xA, running products, xP */
    __m512i *adp;       /* per group of a batch: entry addresses */
    __mmask8 *live;     /* per group of a batch: lanes the affine formula adds */
    uint8_t *eneg;      /* per lane of a batch: the digit is negative */
} fbv_scratch;

static size_t fbv_bytes(void)
{
    size_t g = FB_SPAN / 8, b = FBV_BATCH_GROUPS;
    return (2 * g + 3 * b) * sizeof(v8) + b * sizeof(__m512i) + b * 64 + 8 * b + 64;
}

static fbv_scratch fbv_at(uint8_t *base)
{
    fbv_scratch s;
    size_t g = FB_SPAN / 8, b = FBV_BATCH_GROUPS;
    s.ax = (v8 *)base;
    s.ay = s.ax + g;
    s.d = s.ay + g;
    s.run = s.d + b;
    s.px = s.run + b;
    s.adp = (__m512i *)(s.px + b);
    s.live = (__mmask8 *)(s.adp + b);
    s.eneg = (uint8_t *)s.live + b * 64;
    return s;
}

/* Lane k of a group as an affine point, and back. */
static IFMA_TARGET void fbv_lane_get(g16_g1_affine *p, const v8 *x, const v8 *y, int k)
{
    __m512i w[6];
    uint64_t t[8];
    v8_to_words(w, x);
    for (int i = 0; i < 6; i++) _mm512_storeu_si512(t, w[i]), p->x.l[i] = t[k];
    v8_to_words(w, y);
    for (int i = 0; i < 6; i++) _mm512_storeu_si512(t, w[i]), p->y.l[i] = t[k];
}

static IFMA_TARGET void fbv_lane_set(v8 *x, v8 *y, int k, const g16_g1_affine *p)
{
    __m512i w[6];
    __mmask8 m = (__mmask8)(1u << k);
    v8 t;
    for (int i = 0; i < 6; i++) w[i] = _mm512_set1_epi64((long long)p->x.l[i]);
    v8_from_words(&t, w);
    v8_blend(x, m, x, &t);
    for (int i = 0; i < 6; i++) w[i] = _mm512_set1_epi64((long long)p->y.l[i]);
    v8_from_words(&t, w);
    v8_blend(y, m, y, &t);
}

/* acc += ±q for one lane, any case (empty accumulator, doubling, cancelling). */
static IFMA_TARGET void fbv_lane_add(v8 *x, v8 *y, int k, const g16_g1_affine *q, int neg)
{
    g16_g1_affine a, qq = *q;
    if (neg) g16_fp_neg(&qq.y, &qq.y);
    fbv_lane_get(&a, x, y, k);
    if (g16_g1_affine_is_infinity(&a)) {
        a = qq;
    } else {
        g16_g1_jac j;
        g16_g1_jac_from_affine(&j, &a);
        g16_g1_jac_add_affine(&j, &j, &qq);
        g16_g1_jac_to_affine(&a, &j);
    }
    fbv_lane_set(x, y, k, &a);
}

/* Entry addresses of group g's digits dw[8g .. 8g+8) in row (masked lanes: 0 digit). */
static IFMA_TARGET __mmask8 fbv_addrs(__m512i *ad, __mmask8 *negm, const int32_t *dw, const uint8_t *row)
{
    __m256i d = _mm256_loadu_si256((const __m256i *)dw);
    __mmask8 nz = _mm256_test_epi32_mask(d, d);
    *negm = _mm256_cmplt_epi32_mask(d, _mm256_setzero_si256());
    __m512i e = _mm512_cvtepi32_epi64(_mm256_abs_epi32(d));
    e = _mm512_sub_epi64(e, _mm512_set1_epi64(1));
    /* ·96 = ·64 + ·32 */
    e = _mm512_add_epi64(_mm512_slli_epi64(e, 6), _mm512_slli_epi64(e, 5));
    *ad = _mm512_add_epi64(e, _mm512_set1_epi64((long long)(uintptr_t)row));
    return nz;
}

/* Groups ahead whose table entries pass 1 prefetches (1, 2 and 4 measured the
 * same; without it the 2^20 setup took 3.95 s, against 3.10 s with it and 3.62 s
 * on the batch step). */
#define FBV_AHEAD 4
/* Both lines of the entries of 8 digits (a zero digit fetches the row's start).
 * Written out on purpose: a tidier version through fixed_base_impl.h's
 * FB_(entry)/FB_(prefetch), with the scratch's live/eneg slots packed, made the
 * 2^20 setup 30% slower (3.84 against 2.85 s, interleaved; the cause was not
 * found, each change alone was still slow). */
static inline void fbv_prefetch(const int32_t *dw, const uint8_t *row)
{
    for (int l = 0; l < 8; l++) {
        int32_t d = dw[l] > 0 ? dw[l] : -dw[l];
        const uint8_t *p = row + (size_t)(d ? d - 1 : 0) * sizeof(g16_g1_affine);
        __builtin_prefetch(p);
        __builtin_prefetch(p + sizeof(g16_g1_affine) - 1);
    }
}

static IFMA_TARGET __mmask8 fbv_is_zero(const v8 *a)
{
    __m512i o = a->l[0];
    for (int j = 1; j < 8; j++) o = _mm512_or_si512(o, a->l[j]);
    return _mm512_testn_epi64_mask(o, o);
}

/* The span [b, e) of c, all windows, on the vector path. */
static IFMA_TARGET void fbv_mul_span(const fb_g1_ctx *c, const fb_g1_span *sp, const int32_t *dig,
                                     uint8_t *vbase)
{
    fbv_scratch s = fbv_at(vbase);
    size_t n = sp->e - sp->b, G = (n + 7) / 8;
    v8 one;
    v8_set1(&one, &g16_fp_one_mont);
    for (unsigned win = 0; win < c->windows; win++) {
        const uint8_t *row = (const uint8_t *)(c->tab + c->off[win]);
        const int32_t *dw = dig + (size_t)win * FB_DSTRIDE;
        if (win == 0) { /* the accumulators take their first entry */
            for (size_t g = 0; g < G; g++) {
                __m512i ad;
                __mmask8 ng, k = fbv_addrs(&ad, &ng, dw + 8 * g, row);
                if (8 * g + 8 > n) k &= (__mmask8)((1u << (n - 8 * g)) - 1);
                v8_gather_at(&s.ax[g], ad, 0, k); /* masked lanes: 0 = empty */
                v8_gather_at(&s.ay[g], ad, 48, k);
                v8_neg_mask(&s.ay[g], &s.ay[g], ng);
            }
            continue;
        }
        for (size_t g0 = 0; g0 < G; g0 += FBV_BATCH_GROUPS) {
            size_t GB = G - g0 < FBV_BATCH_GROUPS ? G - g0 : FBV_BATCH_GROUPS;
            /* pass 1: xP − xA, the lanes set apart */
            for (size_t q = 0; q < GB; q++) {
                size_t g = g0 + q;
                if (g + FBV_AHEAD < G) /* the entries are DRAM misses: fetch ahead */
                    fbv_prefetch(dw + 8 * (g + FBV_AHEAD), row);
                __mmask8 ng, k = fbv_addrs(&s.adp[q], &ng, dw + 8 * g, row);
                if (8 * g + 8 > n) k &= (__mmask8)((1u << (n - 8 * g)) - 1);
                v8_gather_at(&s.px[q], s.adp[q], 0, k);
                v8_sub(&s.d[q], &s.px[q], &s.ax[g]);
                __mmask8 odd = k & (fbv_is_zero(&s.ax[g]) | fbv_is_zero(&s.d[q]));
                s.live[q] = k & (__mmask8)~odd;
                for (int l = 0; l < 8; l++) s.eneg[8 * q + l] = (uint8_t)((ng >> l) & 1);
                v8_blend(&s.d[q], s.live[q], &one, &s.d[q]);
                for (int l = 0; odd && l < 8; l++) { /* rare: empty, doubling, cancelling */
                    int32_t d = dw[8 * g + l];
                    if (!(odd >> l & 1)) continue;
                    const uint8_t *e = row + (size_t)((d > 0 ? d : -d) - 1) * sizeof(g16_g1_affine);
                    fbv_lane_add(&s.ax[g], &s.ay[g], l, (const g16_g1_affine *)e, d < 0);
                }
            }
            v8 invc[2];
            msm_v8_trick(s.run, invc, s.d, GB);
            /* pass 2, from the top, two groups (one of each chain set) at a time */
            for (size_t q = GB; q > 0;) {
                size_t gg[2];
                __mmask8 k[2], neg[2];
                v8 ij[2], py[2], ay[2], lam[2], x3[2], qv[2];
                int two = msm_v8_next_pair(&q, gg, k, neg, ij, invc, s.run, s.d, s.eneg, 8 * GB);
                for (int v = 0; v < 2; v++) {
                    size_t g = g0 + gg[v];
                    v8_gather_at(&py[v], s.adp[gg[v]], 48, s.live[gg[v]]);
                    ay[v] = s.ay[g];
                    v8_neg_mask(&py[v], &py[v], neg[v]); /* adding −P */
                    v8_sub(&py[v], &py[v], &ay[v]);
                }
                mont8_2_lazy(lam, py, ij);
                /* x3 = λ² − xA − xP;  y3 = λ·(xA − x3) − yA */
                mont8_2(x3, lam, lam);
                for (int v = 0; v < 2; v++) {
                    size_t g = g0 + gg[v];
                    v8_sub(&x3[v], &x3[v], &s.ax[g]);
                    v8_sub(&x3[v], &x3[v], &s.px[gg[v]]);
                    v8_sub(&qv[v], &s.ax[g], &x3[v]);
                }
                mont8_2(qv, qv, lam);
                for (int v = 0; v < 1 + two; v++) {
                    size_t g = g0 + gg[v];
                    v8_sub(&qv[v], &qv[v], &ay[v]);
                    v8_blend(&s.ax[g], s.live[gg[v]], &s.ax[g], &x3[v]);
                    v8_blend(&s.ay[g], s.live[gg[v]], &s.ay[g], &qv[v]);
                }
            }
        }
    }
    /* out: 6 words a coordinate, lanes of empty accumulators (0, 0) = infinity */
    g16_g1_affine *out = sp->out + sp->b;
    __m512i idx = offsets(2); /* 8 points, 12 words apart */
    for (size_t g = 0; g < G; g++) {
        __mmask8 k = 8 * g + 8 > n ? (__mmask8)((1u << (n - 8 * g)) - 1) : 0xff;
        store8(&out[8 * g].x, &s.ax[g], k, idx);
        store8(&out[8 * g].y, &s.ay[g], k, idx);
    }
}
#endif
#endif
