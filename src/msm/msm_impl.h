/* Pippenger MSM, one body for G1 and G2.  Included once by msm_g1.c and once by
 * msm_g2.c after defining:
 *   MSM_G     g1 | g2            (curve function prefix, curve/curve.h)
 *   MSM_F     fp | fp2           (field function prefix)
 *   MSM_FE, MSM_AFF, MSM_JAC, MSM_XYZZ   the field and point types
 *   MSM_GROUP 1 | 2
 *
 * Per (window, point range) task the buckets are either
 *  - affine (default for large inputs): additions bucket[b] += ±P are collected
 *    into a batch of independent ones (each bucket at most once per batch) and
 *    done together with ONE field inversion (Montgomery's trick): about 6 M per
 *    addition plus the inversion shared by the batch.  A point whose bucket is
 *    already in the batch waits in a deferred list for the next batch; only when
 *    that list is full (an input that keeps hitting the same buckets) does it go
 *    to a second, XYZZ bucket of the same index (mixed add), so such inputs run at
 *    XYZZ speed instead of one inversion per point.
 *  - XYZZ only: every addition is a mixed XYZZ addition.
 * Each task reduces its buckets to Σ (b+1)·bucket[b] (running sums: chained
 * batch-affine ones for affine buckets, XYZZ ones otherwise); the windows are
 * then combined by doublings (Horner).  The bases whose scalar is 1 are summed
 * by the same batch machinery (ones_mode).  The batch step itself is in
 * msm_batch_impl.h.  See docs/msm.md. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "common/fault.h"
#include "common/pool.h"
#include "curve/curve.h"
#include "field/fp_batch.h"
#include "field/fp_ifma.h"
#include "field/mont.h" /* g16_limbs_eq */
#include "field/x86_64/inline.h"
#include "msm/msm_internal.h"

#define MSM_CAT_(a, b) a##b
#define MSM_CAT(a, b) MSM_CAT_(a, b)
#define PT(name) MSM_CAT(MSM_CAT(g16_, MSM_G), name)
#define FE(name) MSM_CAT(MSM_CAT(g16_, MSM_F), name)
#define LOCAL(name) MSM_CAT(MSM_CAT(MSM_G, _), name)

enum { ST_AFF = 1, ST_INB = 2, ST_XZ = 4 };
enum { K_ADD = 0, K_DBL = 1, K_CANCEL = 2 };
/* Points per task from which batch-affine buckets beat XYZZ ones (measured,
 * docs/msm.md): below, batches stay too small to amortise the inversion. */
#define MSM_AFFINE_FROM (MSM_GROUP == 1 ? 2048u : 1024u)
/* Additions of a batch interleaved stage by stage (see flush_to): 2 gave 6%
 * on G1 2^18 over one at a time, 4 another ~1%. */
#define MSM_ILP 4
/* Most chains of the batch-affine bucket reduction (see reduce_affine). */
#define MSM_CHAINS 512
/* radix-2^52 vectors per group of 8 batch additions on the IFMA path (flush_v8):
 * G1 den, run, xA, xP; G2 den (2), its norm, run, xA (2), xP (2) */
#define V8_PER_GROUP (MSM_GROUP == 1 ? 4 : 8)

/* Per-worker scratch, allocated on the worker's first task and reused. */
typedef struct LOCAL(scratch) {
    MSM_AFF *aff;        /* affine buckets */
    MSM_XYZZ *xz;        /* XYZZ buckets (overflow of the affine ones, or the only ones);
                            allocated on first use: affine runs rarely need them */
    size_t nb;           /* buckets allocated */
    uint8_t *st;         /* ST_* per bucket */
    uint32_t *eb;        /* batch: bucket index */
    const MSM_AFF **ep;  /* batch: the point added */
    uint8_t *eneg, *ekind;
    MSM_FE *den, *acc;   /* batch: denominators and their running products */
    MSM_FE *lam, *w1;    /* batch: λ and products (the IFMA path's whole-batch passes) */
    void *vbuf;          /* IFMA batch: per group of 8, the radix-2^52 vectors (v8) */
    uint32_t *spb;       /* IFMA batch: additions with xA = xP, done apart */
    const MSM_AFF **spp;
    uint8_t *spn;
    uint32_t *pb[2];     /* deferred additions (bucket already queued): bucket, */
    const MSM_AFF **pp[2]; /* point, sign; two lists, swapped at each drain */
    uint8_t *pn[2];
    size_t npend;        /* entries in list 0 */
    uint32_t *ids;       /* reduction: indices of the XYZZ overflow buckets */
    MSM_AFF *tmp;        /* reduction: a batch of them in affine form */
    MSM_AFF *ch;         /* reduction: chain sums run_j, tot_j */
    uint8_t *chst;
    int failed;
} LOCAL(scratch);

/* The ψ split (BLS12-381's G2 only, msm.h and LOCAL(psi_images)): k·P = Σ_j d_j·|x|^j·P
 * with base-|x| digits d_j < 2^64: 4N points in 4 windows of 16 bits instead of N in
 * ~20 of 13. */
#if MSM_GROUP == 2 && !G16_CURVE_BN254
#define MSM_PSI 1
#else
#define MSM_PSI 0
#endif

typedef struct LOCAL(ctx) {
    const MSM_AFF *bases;
    const MSM_AFF *planes[MSM_PSI_PLANES]; /* the ψ split: |x|^j·bases (planes[0] = bases) */
    const msm_prep *p;
    unsigned bits;               /* scalar bits: MSM_FULL_BITS, or MSM_PSI_BITS (p->k64) */
    unsigned c, nw, nparts;
    int affine;
    int ones_mode;               /* sum p->ones instead of Pippenger on the rest */
    int xyzz_reduce;             /* tuning: reduce affine buckets with XYZZ running sums */
    size_t batch, nb_max;
    MSM_XYZZ *wsum;              /* [w * nparts + part] */
    LOCAL(scratch) *scr;         /* one per worker */
} LOCAL(ctx);

/* Additions and subtractions of the batch loop: inline on x86-64 (six per point
 * added; as calls they were ~10% of the MSM's time), the exported functions
 * elsewhere.  An Fp2 element is two Fp components. */
#if G16_FP_INLINE && MSM_GROUP == 1
#define FADD(r, a, b) g16_fp_add_inl(r, a, b)
#define FSUB(r, a, b) g16_fp_sub_inl(r, a, b)
#elif G16_FP_INLINE && MSM_GROUP == 2
#define FADD(r, a, b) \
    (g16_fp_add_inl(&(r)->c0, &(a)->c0, &(b)->c0), g16_fp_add_inl(&(r)->c1, &(a)->c1, &(b)->c1))
#define FSUB(r, a, b) \
    (g16_fp_sub_inl(&(r)->c0, &(a)->c0, &(b)->c0), g16_fp_sub_inl(&(r)->c1, &(a)->c1, &(b)->c1))
#else
#define FADD(r, a, b) FE(_add)(r, a, b)
#define FSUB(r, a, b) FE(_sub)(r, a, b)
#endif
#if G16_FP_INLINE
#define FP_ADD1(r, a, b) g16_fp_add_inl(r, a, b)
#define FP_SUB1(r, a, b) g16_fp_sub_inl(r, a, b)
#else
#define FP_ADD1(r, a, b) g16_fp_add(r, a, b)
#define FP_SUB1(r, a, b) g16_fp_sub(r, a, b)
#endif

/* Fp2 products of the batch loop (G2): on the mulx path, Karatsuba with the
 * sums a0 + a1 left unreduced (the assembly multiplication takes inputs below
 * 2p) and direct calls to the kernel; otherwise the exported functions. */
#if MSM_GROUP == 2 && defined(G16_HAVE_MULX) && G16_FP_INLINE && !G16_CURVE_BN254
static inline void LOCAL(fp2_mul)(g16_fp2 *r, const g16_fp2 *a, const g16_fp2 *b)
{
    if (!g16_use_mulx) {
        g16_fp2_mul(r, a, b);
        return;
    }
    g16_fp t0, t1, s0, s1;
    g16_mulx_mont_384(t0.l, a->c0.l, b->c0.l, g16_fp_modulus, G16_FP_N0);
    g16_mulx_mont_384(t1.l, a->c1.l, b->c1.l, g16_fp_modulus, G16_FP_N0);
    g16_fp_add_nr_inl(&s0, &a->c0, &a->c1);
    g16_fp_add_nr_inl(&s1, &b->c0, &b->c1);
    g16_mulx_mont_384(s0.l, s0.l, s1.l, g16_fp_modulus, G16_FP_N0);
    g16_fp_sub_inl(&r->c0, &t0, &t1);
    g16_fp_sub_inl(&s0, &s0, &t0);
    g16_fp_sub_inl(&r->c1, &s0, &t1);
}
/* (a0 + a1·u)² = (a0 + a1)(a0 − a1) + 2·a0·a1·u */
static inline void LOCAL(fp2_sqr)(g16_fp2 *r, const g16_fp2 *a)
{
    if (!g16_use_mulx) {
        g16_fp2_sqr(r, a);
        return;
    }
    g16_fp s, d, m;
    g16_fp_add_nr_inl(&s, &a->c0, &a->c1);
    g16_fp_sub_inl(&d, &a->c0, &a->c1);
    g16_mulx_mont_384(m.l, a->c0.l, a->c1.l, g16_fp_modulus, G16_FP_N0);
    g16_mulx_mont_384(r->c0.l, s.l, d.l, g16_fp_modulus, G16_FP_N0);
    g16_fp_add_inl(&r->c1, &m, &m);
}
#define FMUL(r, a, b) LOCAL(fp2_mul)(r, a, b)
#define FSQR(r, a) LOCAL(fp2_sqr)(r, a)
#else
#define FMUL(r, a, b) FE(_mul)(r, a, b)
#define FSQR(r, a) FE(_sqr)(r, a)
#endif

/* Equality inline: the exported field functions are out of line, and the batch
 * compares an x coordinate per addition.  An Fp2 element is two Fp components. */
#define FE_K (sizeof(MSM_FE) / sizeof(g16_fp))
static inline int LOCAL(feq)(const MSM_FE *a, const MSM_FE *b)
{
    return g16_limbs_eq((const uint64_t *)a, (const uint64_t *)b, G16_FP_LIMBS * FE_K);
}

static inline int LOCAL(aff_inf)(const MSM_AFF *p)
{
    /* (0,0) is never on the curve, and the only curve points with x = 0 have order 3,
     * so no subgroup point is skipped by mistake; all words must be zero anyway. */
    const uint64_t *w = (const uint64_t *)p;
    uint64_t a = 0;
    for (size_t i = 0; i < sizeof *p / 8; i++) a |= w[i];
    return a == 0;
}

static void LOCAL(scratch_free)(LOCAL(scratch) *s)
{
    free(s->aff);
    free(s->xz);
    free(s->st);
    free(s->eb);
    free(s->ep);
    free(s->eneg);
    free(s->ekind);
    free(s->den);
    free(s->acc);
    free(s->lam);
    free(s->w1);
    free(s->vbuf);
    free(s->spb);
    free(s->spp);
    free(s->spn);
    for (int i = 0; i < 2; i++) {
        free(s->pb[i]);
        free(s->pp[i]);
        free(s->pn[i]);
    }
    free(s->ids);
    free(s->tmp);
    free(s->ch);
    free(s->chst);
    memset(s, 0, sizeof *s);
}

static int LOCAL(scratch_get)(LOCAL(ctx) *x, LOCAL(scratch) *s)
{
    if (s->st) return 1;
    if (s->failed) return 0;
    size_t nb = x->nb_max, B = x->batch;
    s->nb = nb;
    s->st = g16_malloc(nb);
    if (x->affine) {
        s->aff = g16_malloc(nb * sizeof *s->aff);
        s->eb = g16_malloc(B * sizeof *s->eb);
        s->ep = g16_malloc(B * sizeof *s->ep);
        s->eneg = g16_malloc(B);
        s->ekind = g16_malloc(B);
        s->den = g16_malloc(B * sizeof *s->den);
        s->acc = g16_malloc(B * sizeof *s->acc);
        s->lam = g16_malloc(B * sizeof *s->lam);
        s->w1 = g16_malloc(B * sizeof *s->w1);
        s->spb = g16_malloc(B * sizeof *s->spb);
        s->spp = g16_malloc(B * sizeof *s->spp);
        s->spn = g16_malloc(B);
#ifdef G16_IFMA_BUILD
        /* per group of 8 additions: the v8 vectors of flush_v8 and two address vectors */
        if (g16_use_ifma) s->vbuf = g16_aligned_alloc(64, (B / 8 + 1) * (V8_PER_GROUP * sizeof(v8) + 128));
        if (g16_use_ifma && !s->vbuf) s->failed = 1;
#endif
        for (int i = 0; i < 2; i++) {
            s->pb[i] = g16_malloc(B * sizeof *s->pb[i]);
            s->pp[i] = g16_malloc(B * sizeof *s->pp[i]);
            s->pn[i] = g16_malloc(B);
        }
        s->ids = g16_malloc(nb * sizeof *s->ids);
        s->tmp = g16_malloc(B * sizeof *s->tmp);
        s->ch = g16_malloc(2 * MSM_CHAINS * sizeof *s->ch);
        s->chst = g16_malloc(2 * MSM_CHAINS);
    }
    if (!s->st ||
        (x->affine && (!s->aff || !s->eb || !s->ep || !s->eneg || !s->ekind || !s->den || !s->acc || !s->lam || !s->w1 || !s->spb || !s->spp || !s->spn || s->failed ||
                       !s->ids || !s->tmp || !s->ch || !s->chst || !s->pb[0] || !s->pp[0] ||
                       !s->pn[0] || !s->pb[1] || !s->pp[1] || !s->pn[1]))) {
        LOCAL(scratch_free)(s);
        s->failed = 1;
        return 0;
    }
    return 1;
}

/* bucket[b] += ±P into the XYZZ bucket b */
static inline void LOCAL(xz_add)(LOCAL(scratch) *s, uint32_t b, const MSM_AFF *P, int neg)
{
    if (__builtin_expect(!s->xz, 0)) {
        s->xz = g16_malloc(s->nb * sizeof *s->xz);
        if (!s->xz) { /* run() sees the flag and fails the whole MSM */
            s->failed = 1;
            return;
        }
    }
    if (s->st[b] & ST_XZ) {
        if (neg)
            PT(_xyzz_sub_affine)(&s->xz[b], &s->xz[b], P);
        else
            PT(_xyzz_add_affine)(&s->xz[b], &s->xz[b], P);
    } else {
        PT(_xyzz_from_affine)(&s->xz[b], P);
        if (neg) PT(_xyzz_neg)(&s->xz[b], &s->xz[b]);
        s->st[b] |= ST_XZ;
    }
}

/* The batch-affine step (scalar and IFMA vector paths) and its public wrapper. */
#include "msm/msm_batch_impl.h"

/* Σ_b (b+1)·bucket[b] by running sums, from the top bucket down. */
static void LOCAL(reduce)(MSM_XYZZ *out, const LOCAL(scratch) *s, size_t nb)
{
    MSM_XYZZ run, tot;
    PT(_xyzz_set_infinity)(&run);
    PT(_xyzz_set_infinity)(&tot);
    int started = 0;
    for (size_t b = nb; b-- > 0;) {
        uint8_t st = s->st[b];
        if (st & ST_AFF) {
            PT(_xyzz_add_affine)(&run, &run, &s->aff[b]);
            started = 1;
        }
        if (st & ST_XZ) {
            PT(_xyzz_add)(&run, &run, &s->xz[b]);
            started = 1;
        }
        if (started) PT(_xyzz_add)(&tot, &tot, &run);
    }
    *out = tot;
}

/* tgt[b] += ±P: set an empty entry, or queue the addition; when b is already
 * queued (only possible for the bucket array) add into the XYZZ bucket b instead.
 * *j: batch fill. */
static inline void LOCAL(insert_to)(LOCAL(scratch) *s, MSM_AFF *tgt, uint8_t *sts, size_t *j,
                                    size_t B, uint32_t b, const MSM_AFF *P, int neg)
{
    uint8_t st = sts[b];
    if (st & ST_INB) {
        LOCAL(xz_add)(s, b, P, neg);
    } else if (!(st & ST_AFF)) {
        tgt[b].x = P->x;
        if (neg)
            FE(_neg)(&tgt[b].y, &P->y);
        else
            tgt[b].y = P->y;
        sts[b] = st | ST_AFF;
    } else {
        __builtin_prefetch(&tgt[b], 1);
        sts[b] = st | ST_INB;
        s->eb[*j] = b;
        s->ep[*j] = P;
        s->eneg[*j] = (uint8_t)neg;
        if (++*j == B) {
            LOCAL(flush_to)(s, tgt, sts, *j);
            *j = 0;
        }
    }
}

static inline void LOCAL(insert)(LOCAL(scratch) *s, size_t *j, size_t B, uint32_t b,
                                 const MSM_AFF *P, int neg)
{
    LOCAL(insert_to)(s, s->aff, s->st, j, B, b, P, neg);
}

/* Queues bucket[b] += ±P (bucket not queued yet) or sets an empty bucket. */
static inline void LOCAL(enqueue)(LOCAL(scratch) *s, size_t *j, uint32_t b, const MSM_AFF *P,
                                  int neg)
{
    uint8_t st = s->st[b];
    if (!(st & ST_AFF)) {
        s->aff[b].x = P->x;
        if (neg)
            FE(_neg)(&s->aff[b].y, &P->y);
        else
            s->aff[b].y = P->y;
        s->st[b] = st | ST_AFF;
        return;
    }
    __builtin_prefetch(&s->aff[b], 1);
    s->st[b] = st | ST_INB;
    s->eb[*j] = b;
    s->ep[*j] = P;
    s->eneg[*j] = (uint8_t)neg;
    ++*j;
}

/* Runs the queued batch, then moves the deferred additions into the new batch
 * (those whose bucket is free now) or back to the deferred list.  The deferred
 * list holds at most B entries, so the new batch cannot overflow; it is run again
 * while it comes out full. */
static void LOCAL(flush_drain)(LOCAL(scratch) *s, size_t *j, size_t B)
{
    do {
        LOCAL(flush)(s, *j);
        *j = 0;
        size_t n = s->npend;
        uint32_t *pb = s->pb[0];
        const MSM_AFF **pp = s->pp[0];
        uint8_t *pn = s->pn[0];
        s->pb[0] = s->pb[1], s->pp[0] = s->pp[1], s->pn[0] = s->pn[1];
        s->pb[1] = pb, s->pp[1] = pp, s->pn[1] = pn;
        s->npend = 0;
        for (size_t i = 0; i < n; i++) {
            if (s->st[pb[i]] & ST_INB) {
                s->pb[0][s->npend] = pb[i];
                s->pp[0][s->npend] = pp[i];
                s->pn[0][s->npend++] = pn[i];
            } else {
                LOCAL(enqueue)(s, j, pb[i], pp[i], pn[i]);
            }
        }
    } while (*j == B);
}

/* bucket[b] += ±P in the main Pippenger loop.  A point whose bucket is already
 * queued is deferred to a later batch (no extra field work); only when the
 * deferred list is full (an input that keeps hitting few buckets) does it go to
 * the XYZZ bucket b, so such inputs run at XYZZ speed. */
static inline void LOCAL(bucket_add)(LOCAL(scratch) *s, size_t *j, size_t B, uint32_t b,
                                     const MSM_AFF *P, int neg)
{
    if (s->st[b] & ST_INB) {
        if (s->npend < B) {
            s->pb[0][s->npend] = b;
            s->pp[0][s->npend] = P;
            s->pn[0][s->npend++] = (uint8_t)neg;
        } else {
            LOCAL(xz_add)(s, b, P, neg);
        }
        return;
    }
    LOCAL(enqueue)(s, j, b, P, neg);
    if (*j == B) LOCAL(flush_drain)(s, j, B);
}

/* Ends the main loop: runs what is queued; deferred additions left after one more
 * round are few or all on the same buckets, so they go to the XYZZ buckets rather
 * than costing an inversion each. */
static void LOCAL(bucket_finish)(LOCAL(scratch) *s, size_t *j, size_t B)
{
    LOCAL(flush_drain)(s, j, B);
    LOCAL(flush)(s, *j);
    *j = 0;
    for (size_t i = 0; i < s->npend; i++) LOCAL(xz_add)(s, s->pb[0][i], s->pp[0][i], s->pn[0][i]);
    s->npend = 0;
}

/* Σ_b (b+1)·bucket[b] for affine buckets, with batch-affine additions.  The
 * buckets are cut into K chains of L consecutive ones; chain j keeps a running sum
 * run_j and a total tot_j (= Σ_i (i+1)·bucket[jL+i]), and step i updates all K
 * chains at once, so each step is two batches of K independent additions (one
 * inversion each) instead of 2K XYZZ additions.  Then
 * Σ = Σ_j tot_j + L·Σ_j j·run_j.  The XYZZ overflow buckets are first normalised
 * and added into the affine ones. */
static void LOCAL(reduce_affine)(MSM_XYZZ *out, LOCAL(scratch) *s, size_t nb, size_t B)
{
    /* overflow buckets: compact to the front of xz (ids ascending, so in place) */
    size_t cnt = 0, j = 0;
    for (size_t b = 0; b < nb; b++) {
        if (s->st[b] & ST_XZ) {
            s->st[b] &= (uint8_t)~ST_XZ;
            s->ids[cnt] = (uint32_t)b;
            if (cnt != b) s->xz[cnt] = s->xz[b];
            cnt++;
        }
    }
    for (size_t off = 0; off < cnt; off += B) {
        size_t len = cnt - off < B ? cnt - off : B;
        PT(_xyzz_batch_to_affine)(s->tmp, s->xz + off, len);
        for (size_t i = 0; i < len; i++) {
            if (!LOCAL(aff_inf)(&s->tmp[i])) LOCAL(insert)(s, &j, B, s->ids[off + i], &s->tmp[i], 0);
        }
        LOCAL(flush)(s, j); /* tmp is reused by the next piece */
        j = 0;
    }
    /* K chains cost 2·nb/K batches (an inversion each) and ~3K XYZZ additions at
     * the end; the smallest power of two above √(2·nb) balances them (128 chains
     * for 4096 buckets, 512 for 2^15; with the vector batch loop, G2 2^14 on 1
     * thread took 0.131 s with 128 against 0.146 s with 512).  A power of two, so
     * that K·L = nb. */
    size_t K = 1;
    while (4 * K * K <= 8 * nb) K *= 2;
    while (K > nb / 4 || K > MSM_CHAINS || K > B) K /= 2;
    if (!K) K = 1;
    size_t L = nb / K;
    MSM_AFF *ch = s->ch;
    uint8_t *cs = s->chst;
    memset(cs, 0, 2 * K);
    for (size_t i = L; i-- > 0;) {
        for (size_t c = 0; c < K; c++) {
            size_t b = c * L + i;
            if (s->st[b] & ST_AFF) LOCAL(insert_to)(s, ch, cs, &j, B, (uint32_t)c, &s->aff[b], 0);
        }
        LOCAL(flush_to)(s, ch, cs, j);
        j = 0;
        for (size_t c = 0; c < K; c++) {
            if (cs[c] & ST_AFF) LOCAL(insert_to)(s, ch, cs, &j, B, (uint32_t)(K + c), &ch[c], 0);
        }
        LOCAL(flush_to)(s, ch, cs, j);
        j = 0;
    }
    MSM_XYZZ tot, run, u;
    PT(_xyzz_set_infinity)(&tot);
    PT(_xyzz_set_infinity)(&run);
    PT(_xyzz_set_infinity)(&u);
    for (size_t c = K; c-- > 0;) {
        if (cs[K + c] & ST_AFF) PT(_xyzz_add_affine)(&tot, &tot, &ch[K + c]);
        if (c == 0) break;
        if (cs[c] & ST_AFF) PT(_xyzz_add_affine)(&run, &run, &ch[c]);
        PT(_xyzz_add)(&u, &u, &run);
    }
    for (size_t l = L; l > 1; l >>= 1) PT(_xyzz_dbl)(&u, &u);
    PT(_xyzz_add)(out, &tot, &u);
}

/* Σ of every bucket (the ones' sum: no weights). */
static void LOCAL(sum_buckets)(MSM_XYZZ *out, const LOCAL(scratch) *s, size_t nb)
{
    PT(_xyzz_set_infinity)(out);
    for (size_t b = 0; b < nb; b++) {
        if (s->st[b] & ST_AFF) PT(_xyzz_add_affine)(out, out, &s->aff[b]);
        if (s->st[b] & ST_XZ) PT(_xyzz_add)(out, out, &s->xz[b]);
    }
}

/* The base of a prepared entry: in the digit form its plane is in idx's top bits. */
static inline const MSM_AFF *LOCAL(entry_base)(const LOCAL(ctx) *x, uint32_t id)
{
    if (x->p->k64) return x->planes[id >> MSM_PSI_SHIFT] + (id & ((1u << MSM_PSI_SHIFT) - 1));
    return &x->bases[id];
}

static void LOCAL(task)(void *vctx, size_t task, unsigned worker)
{
    LOCAL(ctx) *x = vctx;
    LOCAL(scratch) *s = &x->scr[worker];
    unsigned w = (unsigned)(task / x->nparts), part = (unsigned)(task % x->nparts);
    MSM_XYZZ *out = &x->wsum[task];
    PT(_xyzz_set_infinity)(out);
    if (!LOCAL(scratch_get)(x, s)) return;
    size_t m = x->ones_mode ? x->p->n_ones : x->p->m;
    size_t lo = m * part / x->nparts, hi = m * (part + 1) / x->nparts, j = 0, B = x->batch;
    if (x->ones_mode) {
        /* consecutive points go to consecutive buckets, B of them: a batch never
         * meets the same bucket twice */
        const uint32_t *ones = x->p->ones;
        memset(s->st, 0, B);
        for (size_t i = lo; i < hi; i++) {
            const MSM_AFF *P = &x->bases[ones[i]];
            if (!LOCAL(aff_inf)(P)) LOCAL(insert)(s, &j, B, (uint32_t)((i - lo) % B), P, 0);
        }
        LOCAL(flush)(s, j);
        LOCAL(sum_buckets)(out, s, B);
        return;
    }
    size_t nb = msm_window_buckets_b(x->c, w, x->bits);
    /* The top window can have far fewer buckets than the others (c = 13: 2^8 for
     * its 8 bits, of which scalars below r reach ~230).  A batch cannot hold more
     * distinct buckets than that, so with the common B it never filled: every
     * point after the first ~B went to the deferred list and then to the XYZZ
     * buckets at ~4× the cost of a batched addition.  A quarter of the buckets
     * keeps batches filling. */
    if (B > nb / 4) B = nb / 4 < 16 ? 16 : nb / 4;
    int top = w + 1 == x->nw;
    unsigned c = x->c;
    const uint64_t(*k)[4] = (const uint64_t(*)[4])x->p->k;
    const uint64_t *k64 = x->p->k64;
    const uint32_t *idx = x->p->idx;
    memset(s->st, 0, nb);
    for (size_t i = lo; i < hi; i++) {
        int32_t d = k64 ? msm_digit64(k64[i], w, c, top) : msm_digit(k[i], w, c, top);
        if (!d) continue;
        const MSM_AFF *P = LOCAL(entry_base)(x, idx[i]);
        if (LOCAL(aff_inf)(P)) continue;
        uint32_t b = (uint32_t)((d < 0 ? -d : d) - 1);
        if (x->affine)
            LOCAL(bucket_add)(s, &j, B, b, P, d < 0);
        else
            LOCAL(xz_add)(s, b, P, d < 0);
    }
    if (x->affine) LOCAL(bucket_finish)(s, &j, B);
    if (x->affine && nb >= 64 && !x->xyzz_reduce)
        LOCAL(reduce_affine)(out, s, nb, B);
    else
        LOCAL(reduce)(out, s, nb);
}

/* Runs x's tasks on the pool with per-worker scratch; fills x->wsum. */
static g16_status LOCAL(run)(LOCAL(ctx) *x, size_t ntasks)
{
    unsigned nworkers = g16_pool_size(NULL);
    x->wsum = g16_malloc(ntasks * sizeof *x->wsum);
    x->scr = g16_calloc(nworkers, sizeof *x->scr);
    if (!x->wsum || !x->scr) {
        free(x->wsum);
        free(x->scr);
        x->wsum = NULL;
        return g16_fail(G16_ERR_NOMEM, "msm: no memory for %zu partial sums", ntasks);
    }
    g16_pool_tasks(NULL, ntasks, LOCAL(task), x);
    int failed = 0;
    for (unsigned i = 0; i < nworkers; i++) {
        failed |= x->scr[i].failed;
        LOCAL(scratch_free)(&x->scr[i]);
    }
    free(x->scr);
    if (failed) {
        free(x->wsum);
        x->wsum = NULL;
        return g16_fail(G16_ERR_NOMEM, "msm: no memory for %zu buckets per thread", x->nb_max);
    }
    return G16_OK;
}

/* Pippenger on p's rest; adds the result into *acc.  planes: the ψ split's images
 * when p is in the digit form (planes[0] = bases), else NULL. */
static g16_status LOCAL(pippenger)(MSM_XYZZ *acc, const MSM_AFF *bases,
                                   const MSM_AFF *const *planes, const msm_prep *p,
                                   const g16_msm_opts *o, unsigned threads)
{
    if (!p->m) return G16_OK;
    LOCAL(ctx) x;
    memset(&x, 0, sizeof x);
    x.bases = bases;
    if (planes) memcpy(x.planes, planes, sizeof x.planes);
    x.p = p;
    x.bits = p->k64 ? MSM_PSI_BITS : MSM_FULL_BITS;
    x.c = o->window ? o->window : g16_msm_window_bits(p->m, threads, x.bits);
    x.nw = msm_windows_b(x.c, x.bits);
    x.nparts = g16_msm_parts(x.c, threads, p->m, x.bits);
    x.affine = o->buckets == G16_MSM_BUCKETS_AFFINE ||
               (o->buckets == G16_MSM_BUCKETS_AUTO && p->m / x.nparts >= MSM_AFFINE_FROM);
    x.nb_max = msm_window_buckets_b(x.c, 0, x.bits);
    if (msm_window_buckets_b(x.c, x.nw - 1, x.bits) > x.nb_max)
        x.nb_max = msm_window_buckets_b(x.c, x.nw - 1, x.bits);
    /* A batch of B amortises one inversion (~480 M) over B additions; a point whose
     * bucket is already in the batch (probability ~B/(2·buckets)) waits for a later
     * batch, which costs no field work but keeps a batch from filling with distinct
     * buckets when B nears the bucket count: B = sqrt(128·buckets), at most half the
     * buckets and 4096 (measured, docs/msm.md). */
    {
        size_t nb0 = msm_window_buckets_b(x.c, 0, x.bits), cap = nb0 / 2 < 4096 ? nb0 / 2 : 4096;
        x.batch = (size_t)sqrt(128.0 * (double)nb0);
        if (x.batch > cap) x.batch = cap;
        if (x.batch < 16) x.batch = 16;
    }
    const char *bs = getenv("G16_MSM_BATCH"); /* tuning hooks, see docs/msm.md */
    if (bs && atoi(bs) > 0) x.batch = (size_t)atoi(bs);
    bs = getenv("G16_MSM_XYZZ_REDUCE");
    x.xyzz_reduce = bs && atoi(bs) > 0;
    G16_TRY(LOCAL(run)(&x, (size_t)x.nw * x.nparts));
    MSM_XYZZ r;
    PT(_xyzz_set_infinity)(&r);
    for (unsigned w = x.nw; w-- > 0;) {
        for (unsigned d = 0; d < x.c && w + 1 < x.nw; d++) PT(_xyzz_dbl)(&r, &r);
        for (unsigned q = 0; q < x.nparts; q++) PT(_xyzz_add)(&r, &r, &x.wsum[(size_t)w * x.nparts + q]);
    }
    free(x.wsum);
    PT(_xyzz_add)(acc, acc, &r);
    return G16_OK;
}

/* Σ of the bases whose scalar is 1, with batch-affine additions; adds into *acc. */
static g16_status LOCAL(sum_ones)(MSM_XYZZ *acc, const MSM_AFF *bases, const msm_prep *p,
                                  unsigned threads)
{
    if (!p->n_ones) return G16_OK;
    LOCAL(ctx) x;
    memset(&x, 0, sizeof x);
    x.bases = bases;
    x.p = p;
    x.ones_mode = 1;
    x.affine = 1;
    x.batch = x.nb_max = 1024;
    x.nparts = (unsigned)(p->n_ones / 4096 + 1);
    if (x.nparts > threads) x.nparts = threads;
    G16_TRY(LOCAL(run)(&x, x.nparts));
    for (unsigned q = 0; q < x.nparts; q++) PT(_xyzz_add)(acc, acc, &x.wsum[q]);
    free(x.wsum);
    return G16_OK;
}

#if MSM_PSI
/* The ψ split's images, made during the scalar preparation (on the pool's
 * workers) for just the bases that have a non-zero digit j >= 1 (a scalar 0, 1
 * or below |x| needs none): planes[j][i] = |x|^j·bases[i] = (−ψ)^j(bases[i]).
 * About 10 Fp products a base, batched (curve.h, g16_g2_affine_x_powers); the
 * bases are copied in and the images out, MSM_PSI_BATCH at a time. */
typedef struct LOCAL(psi_tab) {
    const MSM_AFF *bases;
    MSM_AFF *t;  /* planes 1..3, n each */
    size_t n;
} LOCAL(psi_tab);

static void LOCAL(psi_images)(void *vctx, const uint32_t *idx, size_t n)
{
    LOCAL(psi_tab) *x = vctx;
    MSM_AFF in[MSM_PSI_BATCH], out[MSM_PSI_PLANES - 1][MSM_PSI_BATCH];
    if (n > MSM_PSI_BATCH) return; /* (the preparation sends at most that) */
    memset(in, 0, sizeof in); /* (for the compiler: only n are read; 6 KiB, ~1% of the products) */
    for (size_t i = 0; i < n; i++) in[i] = x->bases[idx[i]];
    g16_g2_affine_x_powers(out[0], out[1], out[2], in, n);
    for (size_t j = 0; j + 1 < MSM_PSI_PLANES; j++)
        for (size_t i = 0; i < n; i++) x->t[j * x->n + idx[i]] = out[j][i];
}

/* G16_MSM_PSI=1 makes the automatic choice take the split (from G16_MSM_PSI_FROM
 * bases), for A/B measurements in one binary; read once. */
static int LOCAL(psi_env_on)(void)
{
    static int v = -1;
    if (v < 0) v = getenv("G16_MSM_PSI") != NULL && atoi(getenv("G16_MSM_PSI")) > 0;
    return v;
}
#endif

g16_status MSM_CAT(MSM_CAT(g16_msm_, MSM_G), _ex)(MSM_JAC *out, const MSM_AFF *bases,
                                                   size_t n_bases, const g16_fr *scalars, size_t n,
                                                   const uint64_t *density,
                                                   const g16_msm_opts *opts)
{
    static const g16_msm_opts dflt;
    const g16_msm_opts *o = opts ? opts : &dflt;
    if (!out) return g16_fail(G16_ERR_ARG, "msm: out is NULL");
    PT(_jac_set_infinity)(out);
    if (o->window > G16_MSM_MAX_WINDOW)
        return g16_fail(G16_ERR_ARG, "msm: window %u above %u", o->window, G16_MSM_MAX_WINDOW);
    if (o->buckets != G16_MSM_BUCKETS_AUTO && o->buckets != G16_MSM_BUCKETS_AFFINE &&
        o->buckets != G16_MSM_BUCKETS_XYZZ)
        return g16_fail(G16_ERR_ARG, "msm: unknown bucket form %d", (int)o->buckets);
    if (o->chunk % 64)
        return g16_fail(G16_ERR_ARG, "msm: chunk %zu is not a multiple of 64", o->chunk);
    if (o->psi != G16_MSM_PSI_AUTO && o->psi != G16_MSM_PSI_ON && o->psi != G16_MSM_PSI_OFF)
        return g16_fail(G16_ERR_ARG, "msm: unknown psi choice %d", (int)o->psi);
    if (n && !scalars) return g16_fail(G16_ERR_ARG, "msm: scalars is NULL with n = %zu", n);
    size_t want = density ? g16_msm_popcount(density, n) : n;
    if (n_bases != want)
        return g16_fail(G16_ERR_ARG, "msm: %zu bases given, %s needs %zu", n_bases,
                        density ? "the density bitmap" : "n", want);
    if (n_bases && !bases) return g16_fail(G16_ERR_ARG, "msm: bases is NULL with %zu bases", n_bases);
    if (n_bases > UINT32_MAX) return g16_fail(G16_ERR_ARG, "msm: %zu bases, at most 2^32 - 1", n_bases);
    if (!n) return G16_OK;

    unsigned threads = g16_pool_size(NULL);
    if (o->threads) threads = o->threads; /* plan for that many; the pool runs the tasks */
    size_t chunk = o->chunk ? o->chunk : G16_MSM_CHUNK;
    if (chunk > n) chunk = n;
    int psi = 0;
    const MSM_AFF *planes[MSM_PSI_PLANES] = {bases};
#if MSM_PSI
    LOCAL(psi_tab) tab = {bases, NULL, n_bases};
    psi = o->psi == G16_MSM_PSI_ON ||
          (o->psi == G16_MSM_PSI_AUTO && n_bases >= G16_MSM_PSI_FROM && LOCAL(psi_env_on)());
    if (!n_bases || n_bases >= (size_t)1 << MSM_PSI_SHIFT) psi = 0; /* the plane must fit in idx */
    if (psi) {
        /* (2 MiB pages cut the page faults, ~half the images' cost, but the first
         * touch of fresh huge pages took 0.7 s of compaction here: not used) */
        tab.t = g16_malloc((MSM_PSI_PLANES - 1) * n_bases * sizeof *tab.t);
        if (!tab.t) return g16_fail(G16_ERR_NOMEM, "msm: no memory for the psi images of %zu bases", n_bases);
        for (size_t j = 1; j < MSM_PSI_PLANES; j++) planes[j] = tab.t + (j - 1) * n_bases;
    }
#endif
    msm_prep p;
    if (g16_msm_prep_alloc(&p, chunk, psi) != G16_OK) {
#if MSM_PSI
        free(tab.t);
#endif
        return g16_fail(G16_ERR_NOMEM, "msm: no memory for %zu prepared scalars", chunk);
    }
#if MSM_PSI
    if (psi) p.psi_fn = LOCAL(psi_images), p.psi_ctx = &tab;
#endif
    MSM_XYZZ acc;
    PT(_xyzz_set_infinity)(&acc);
    g16_status s = G16_OK;
    size_t base0 = 0;
    for (size_t at = 0; at < n && s == G16_OK; at += chunk) {
        size_t len = n - at < chunk ? n - at : chunk;
        const uint64_t *dens = density ? density + at / 64 : NULL;
        s = g16_msm_prep_fill(&p, scalars + at, len, dens, base0, !o->no_split);
        if (s != G16_OK) {
            s = g16_fail(G16_ERR_NOMEM, "msm: no memory to prepare scalars");
            break;
        }
        base0 += dens ? g16_msm_popcount(dens, len) : len;
        s = LOCAL(sum_ones)(&acc, bases, &p, threads);
        if (s == G16_OK) s = LOCAL(pippenger)(&acc, bases, psi ? planes : NULL, &p, o, threads);
    }
    g16_msm_prep_free(&p);
#if MSM_PSI
    free(tab.t);
#endif
    if (s == G16_OK) PT(_xyzz_to_jac)(out, &acc);
    return s;
}

g16_status MSM_CAT(g16_msm_, MSM_G)(MSM_JAC *out, const MSM_AFF *bases, size_t n_bases,
                                     const g16_fr *scalars, size_t n, const uint64_t *density)
{
    return MSM_CAT(MSM_CAT(g16_msm_, MSM_G), _ex)(out, bases, n_bases, scalars, n, density, NULL);
}
