/* The batch-affine step of the Pippenger template (msm_impl.h, which includes
 * this file once per group after defining the scratch, the point/field macros
 * and scratch_get): queued additions tgt[eb[j]] += ±ep[j] done with one field
 * inversion per batch, on the scalar mulx path (flush_scalar) or eight at a time
 * in radix-2^52 vectors with AVX-512 IFMA (flush_v8), and the same step exported
 * as g16_g1/g2_batch_add (msm.h) for the setup's fixed-base products.  Split from
 * msm_impl.h, whose rest is the bucket scheduling, reductions and entry points. */

/* Denominator of entry j (xP − xA, or 2yA to double, or 1 for a cancellation)
 * and its kind. */
static inline void LOCAL(den_of)(LOCAL(scratch) *s, const MSM_AFF *tgt, size_t j)
{
    const MSM_AFF *A = &tgt[s->eb[j]], *P = s->ep[j];
    MSM_FE *den = s->den, qy;
    if (!LOCAL(feq)(&A->x, &P->x)) {
        FSUB(&den[j], &P->x, &A->x);
        s->ekind[j] = K_ADD;
        return;
    }
    if (s->eneg[j])
        FE(_neg)(&qy, &P->y);
    else
        qy = P->y;
    /* same x: P = A doubles, P = −A cancels (so does 2A for a 2-torsion A) */
    if (LOCAL(feq)(&A->y, &qy) && !FE(_is_zero)(&qy)) {
        FADD(&den[j], &A->y, &A->y);
        s->ekind[j] = K_DBL;
    } else {
        FE(_set_one)(&den[j]);
        s->ekind[j] = K_CANCEL;
    }
}

/* Performs the n queued affine additions tgt[eb[j]] += ±ep[j] with one inversion;
 * tgt/st are the bucket array and its states (or the reduction's chain sums). */
static void LOCAL(flush_scalar)(LOCAL(scratch) *s, MSM_AFF *tgt, uint8_t *sts, size_t n)
{
    if (!n) return;
    MSM_FE *den = s->den, *acc = s->acc, inv;
    for (size_t j = 0; j < n; j++) {
        LOCAL(den_of)(s, tgt, j);
#if MSM_GROUP == 2
        /* Fp2: batch-invert the Fp norms N = c0² + c1² and use 1/d = conj(d)/N:
         * 7 Fp multiplications per element instead of 3 Fp2 ones (9). */
        g16_fp t0;
        g16_fp_sqr(&acc[j].c1, &den[j].c0);
        g16_fp_sqr(&t0, &den[j].c1);
        FP_ADD1(&acc[j].c1, &acc[j].c1, &t0);
        /* running products lazily reduced (< 2p), the last one canonical for the inversion */
        if (!j)
            acc[0].c0 = acc[0].c1;
        else if (j + 1 < n)
            g16_fp_mul_lazy(&acc[j].c0, &acc[j - 1].c0, &acc[j].c1);
        else
            g16_fp_mul(&acc[j].c0, &acc[j - 1].c0, &acc[j].c1);
#else
        if (!j)
            acc[0] = den[0];
        else if (j + 1 < n)
            g16_fp_mul_lazy(&acc[j], &acc[j - 1], &den[j]);
        else
            FE(_mul)(&acc[j], &acc[j - 1], &den[j]);
#endif
    }
#if MSM_GROUP == 2
    g16_fp invn;
    g16_fp_inv_vartime(&invn, &acc[n - 1].c0);
    (void)inv;
#else
    g16_fp_inv_vartime(&inv, &acc[n - 1]);
#endif
    /* 1/den[j] for every j, stored over den[j] (no longer needed once inv has
     * moved past it) */
    for (size_t j = n; j-- > 0;) {
        MSM_FE ij;
#if MSM_GROUP == 2
        g16_fp in;
        if (j) {
            g16_fp_mul_lazy(&in, &invn, &acc[j - 1].c0);
            g16_fp_mul_lazy(&invn, &invn, &acc[j].c1);
        } else {
            in = invn;
        }
        g16_fp_mul(&ij.c0, &den[j].c0, &in);
        g16_fp_mul(&ij.c1, &den[j].c1, &in);
        g16_fp_neg(&ij.c1, &ij.c1);
#else
        if (j) {
            g16_fp_mul_lazy(&ij, &inv, &acc[j - 1]);
            g16_fp_mul_lazy(&inv, &inv, &den[j]);
        } else {
            ij = inv;
        }
#endif
        den[j] = ij;
    }
    /* The additions themselves, MSM_ILP at a time, stage by stage: each one is a
     * chain of dependent multiplications (λ, λ², λ·(xA − x3)) too long for the
     * out-of-order window to overlap with the next one's, so done one by one they
     * ran at multiplication latency; interleaved, at throughput (measured: the
     * fully reducing products cost ~54 ns each in the one-by-one loop). */
    for (size_t j = n; j > 0;) {
        MSM_AFF *A[MSM_ILP];
        const MSM_AFF *P[MSM_ILP];
        const MSM_FE *ij[MSM_ILP];
        MSM_FE num[MSM_ILP], lam[MSM_ILP], x3[MSM_ILP], q[MSM_ILP];
        int flip[MSM_ILP], m = 0;
        while (j > 0 && m < MSM_ILP) {
            --j;
            uint32_t b = s->eb[j];
            sts[b] &= (uint8_t)~ST_INB;
            if (s->ekind[j] == K_CANCEL) {
                sts[b] &= (uint8_t)~ST_AFF;
                continue;
            }
            MSM_AFF *a = &tgt[b];
            const MSM_AFF *p = s->ep[j];
            /* Adding −P: λ = (−yP − yA)/(xP − xA) = −λ' with λ' = (yP + yA)/(xP − xA); λ²
             * is the same and y3 = λ'·(x3 − xA) − yA, so the negation is never computed. */
            flip[m] = 0;
            if (s->ekind[j] == K_ADD) {
                flip[m] = s->eneg[j];
                if (flip[m])
                    FADD(&num[m], &p->y, &a->y);
                else
                    FSUB(&num[m], &p->y, &a->y);
            } else { /* doubling: λ = 3x²/2y */
                FE(_sqr)(&num[m], &a->x);
                FADD(&lam[m], &num[m], &num[m]);
                FADD(&num[m], &num[m], &lam[m]);
            }
            A[m] = a, P[m] = p, ij[m] = &den[j];
            m++;
        }
        for (int k = 0; k < m; k++) {
#if MSM_GROUP == 1
            g16_fp_mul_lazy(&lam[k], &num[k], ij[k]); /* only multiplied: λ², λ·(…) reduce */
#else
            FMUL(&lam[k], &num[k], ij[k]);
#endif
        }
        /* x3 = λ² − xA − xP;  y3 = λ·(xA − x3) − yA */
        for (int k = 0; k < m; k++) FSQR(&x3[k], &lam[k]);
        for (int k = 0; k < m; k++) {
            FSUB(&x3[k], &x3[k], &A[k]->x);
            FSUB(&x3[k], &x3[k], &P[k]->x);
            if (flip[k])
                FSUB(&q[k], &x3[k], &A[k]->x);
            else
                FSUB(&q[k], &A[k]->x, &x3[k]);
            A[k]->x = x3[k];
        }
        for (int k = 0; k < m; k++) FMUL(&q[k], &q[k], &lam[k]);
        for (int k = 0; k < m; k++) FSUB(&A[k]->y, &q[k], &A[k]->y);
    }
}

#include "msm/batch_v8.h"

#ifdef G16_IFMA_BUILD
/* The vector batch loops (flush_v8, both groups): additions with xA = xP
 * (doubling, cancelling; rare) are set apart for flush_scalar; returns how many
 * stay in s->eb/ep/eneg, *ns how many went to s->spb/spp/spn. */
static size_t LOCAL(v8_split)(LOCAL(scratch) *s, const MSM_AFF *tgt, size_t n, size_t *ns)
{
    size_t m = 0, k = 0;
    for (size_t j = 0; j < n; j++) {
        const MSM_AFF *A = &tgt[s->eb[j]], *P = s->ep[j];
        if (__builtin_expect(LOCAL(feq)(&A->x, &P->x), 0)) {
            s->spb[k] = s->eb[j], s->spp[k] = P, s->spn[k++] = s->eneg[j];
        } else {
            s->eb[m] = s->eb[j], s->ep[m] = P, s->eneg[m++] = s->eneg[j];
        }
    }
    *ns = k;
    return m;
}

/* Group g of the m additions: the addresses of its 8 targets and points as
 * vectors (lanes past the end repeat the group's first entry); returns the mask
 * of its live lanes. */
static IFMA_TARGET __mmask8 LOCAL(v8_addrs)(const LOCAL(scratch) *s, const MSM_AFF *tgt, size_t m,
                                            size_t g, __m512i *ada, __m512i *adp)
{
    size_t j0 = 8 * g, c = m - j0 < 8 ? m - j0 : 8;
    uint64_t aa[8], ap[8];
    for (size_t i = 0; i < 8; i++) {
        size_t j = j0 + (i < c ? i : 0);
        aa[i] = (uint64_t)(uintptr_t)&tgt[s->eb[j]];
        ap[i] = (uint64_t)(uintptr_t)s->ep[j];
    }
    *ada = _mm512_loadu_si512(aa);
    *adp = _mm512_loadu_si512(ap);
    return (__mmask8)((1u << c) - 1);
}

/* The end of a vector batch: the m vector additions leave the batch, the ns set
 * apart by v8_split (xA = xP) run through flush_scalar. */
static void LOCAL(v8_finish)(LOCAL(scratch) *s, MSM_AFF *tgt, uint8_t *sts, size_t m, size_t ns)
{
    for (size_t j = 0; j < m; j++) sts[s->eb[j]] &= (uint8_t)~ST_INB;
    if (ns) {
        memcpy(s->eb, s->spb, ns * sizeof *s->eb);
        memcpy(s->ep, s->spp, ns * sizeof *s->ep);
        memcpy(s->eneg, s->spn, ns);
        LOCAL(flush_scalar)(s, tgt, sts, ns);
    }
}
#endif

#if MSM_GROUP == 1 && defined(G16_IFMA_BUILD)

/* G1's flush_to with every step in radix-2^52 vectors, 8 additions per vector
 * (fp_ifma.h): the points are gathered straight from the buckets and bases and
 * the sums scattered back, so the only conversions are those six per addition,
 * and the subtractions run 8 lanes wide too.  Additions with xA = xP (doubling,
 * cancelling; rare) are set apart and done by flush_scalar afterwards: they touch
 * their own buckets only.  Montgomery's trick runs in the 8 lanes (entry j in
 * chain j mod 8); lanes past the end of the batch hold 1. */
static IFMA_TARGET void LOCAL(flush_v8)(LOCAL(scratch) *s, MSM_AFF *tgt, uint8_t *sts, size_t n)
{
    size_t ns, m = LOCAL(v8_split)(s, tgt, n, &ns);
    size_t G = (m + 7) / 8;
    v8 *D = s->vbuf, *RUN = D + G, *AX = RUN + G, *PX = AX + G;
    __m512i *ADA = (__m512i *)(PX + G), *ADP = ADA + G;
    v8 one, invc[2];
    v8_set1(&one, &g16_fp_one_mont);
    for (size_t g = 0; g < G; g++) {
        size_t c = m - 8 * g < 8 ? m - 8 * g : 8;
        __mmask8 k = LOCAL(v8_addrs)(s, tgt, m, g, &ADA[g], &ADP[g]);
        v8_gather_at(&AX[g], ADA[g], 0, k);
        v8_gather_at(&PX[g], ADP[g], 0, k);
        v8_sub(&D[g], &PX[g], &AX[g]);
        if (c < 8) v8_blend(&D[g], k, &one, &D[g]);
    }
    msm_v8_trick(RUN, invc, D, G);
    /* from the top, two groups (one of each set) at a time, interleaved */
    for (size_t g = G; g > 0;) {
        size_t gg[2];
        __mmask8 k[2], neg[2];
        v8 ij[2], py[2], ay[2], lam[2], x3[2], q[2];
        int two = msm_v8_next_pair(&g, gg, k, neg, ij, invc, RUN, D, s->eneg, m);
        for (int v = 0; v < 2; v++) {
            v8_gather_at(&py[v], ADP[gg[v]], sizeof(g16_fp), k[v]);
            v8_gather_at(&ay[v], ADA[gg[v]], sizeof(g16_fp), k[v]);
            v8_neg_mask(&py[v], &py[v], neg[v]); /* adding −P */
            v8_sub(&py[v], &py[v], &ay[v]);
        }
        mont8_2_lazy(lam, py, ij);
        /* x3 = λ² − xA − xP;  y3 = λ·(xA − x3) − yA */
        mont8_2(x3, lam, lam);
        for (int v = 0; v < 2; v++) {
            v8_sub(&x3[v], &x3[v], &AX[gg[v]]);
            v8_sub(&x3[v], &x3[v], &PX[gg[v]]);
            v8_sub(&q[v], &AX[gg[v]], &x3[v]);
        }
        mont8_2(q, q, lam);
        for (int v = 0; v < 1 + two; v++) {
            v8_sub(&q[v], &q[v], &ay[v]);
            v8_scatter_at(ADA[gg[v]], 0, &x3[v], k[v]);
            v8_scatter_at(ADA[gg[v]], sizeof(g16_fp), &q[v], k[v]);
        }
    }
    LOCAL(v8_finish)(s, tgt, sts, m, ns);
}
#endif

#if MSM_GROUP == 2 && defined(G16_IFMA_BUILD)

typedef struct { v8 c0, c1; } LOCAL(v8x2);

/* r[v] = a[v]·b[v] in Fp2 for both v (Karatsuba: 3 products each, paired) */
static IFMA_INLINE void LOCAL(fp2_mul2)(LOCAL(v8x2) r[2], const LOCAL(v8x2) a[2], const LOCAL(v8x2) b[2])
{
    v8 x[2], y[2], t0[2], t1[2], sm[2];
    x[0] = a[0].c0, x[1] = a[1].c0, y[0] = b[0].c0, y[1] = b[1].c0;
    mont8_2(t0, x, y);
    x[0] = a[0].c1, x[1] = a[1].c1, y[0] = b[0].c1, y[1] = b[1].c1;
    mont8_2(t1, x, y);
    for (int v = 0; v < 2; v++) {
        v8_add(&x[v], &a[v].c0, &a[v].c1);
        v8_add(&y[v], &b[v].c0, &b[v].c1);
    }
    mont8_2(sm, x, y);
    for (int v = 0; v < 2; v++) {
        v8_sub(&r[v].c0, &t0[v], &t1[v]);
        v8_sub(&sm[v], &sm[v], &t0[v]);
        v8_sub(&r[v].c1, &sm[v], &t1[v]);
    }
}

/* G2's flush_to in radix-2^52 vectors, as G1's (see there), an Fp2 element
 * being two vectors.  The batch inverts the Fp norms N = c0² + c1² and uses
 * 1/d = conj(d)/N: 15 Fp products per addition. */
static IFMA_TARGET void LOCAL(flush_v8)(LOCAL(scratch) *s, MSM_AFF *tgt, uint8_t *sts, size_t n)
{
    size_t ns, m = LOCAL(v8_split)(s, tgt, n, &ns);
    size_t G = (m + 7) / 8;
    LOCAL(v8x2) *D = s->vbuf, *AX = D + G, *PX = AX + G;
    v8 *NRM = (v8 *)(PX + G), *RUN = NRM + G;
    __m512i *ADA = (__m512i *)(RUN + G), *ADP = ADA + G;
    v8 one, invc[2], a2[2], b2[2], o2[2];
    v8_set1(&one, &g16_fp_one_mont);
    for (size_t g = 0; g < G; g++) {
        size_t c = m - 8 * g < 8 ? m - 8 * g : 8;
        __mmask8 k = LOCAL(v8_addrs)(s, tgt, m, g, &ADA[g], &ADP[g]);
        v8_gather_at(&AX[g].c0, ADA[g], 0, k);
        v8_gather_at(&AX[g].c1, ADA[g], sizeof(g16_fp), k);
        v8_gather_at(&PX[g].c0, ADP[g], 0, k);
        v8_gather_at(&PX[g].c1, ADP[g], sizeof(g16_fp), k);
        v8_sub(&D[g].c0, &PX[g].c0, &AX[g].c0);
        v8_sub(&D[g].c1, &PX[g].c1, &AX[g].c1);
        a2[0] = D[g].c0, a2[1] = D[g].c1;
        mont8_2(o2, a2, a2);
        v8_add(&NRM[g], &o2[0], &o2[1]);
        if (c < 8) v8_blend(&NRM[g], k, &one, &NRM[g]);
    }
    /* Montgomery's trick on the norms, two sets of 8 chains as in G1 */
    msm_v8_trick(RUN, invc, NRM, G);
    for (size_t g = G; g > 0;) {
        size_t gg[2];
        __mmask8 k[2], neg[2];
        v8 in[2]; /* 1/N */
        LOCAL(v8x2) ij[2], py[2], ay[2], lam[2], x3[2], q[2];
        int two = msm_v8_next_pair(&g, gg, k, neg, in, invc, RUN, NRM, s->eneg, m);
        /* 1/den = conj(den)/N */
        a2[0] = D[gg[0]].c0, a2[1] = D[gg[1]].c0;
        mont8_2(o2, a2, in);
        ij[0].c0 = o2[0], ij[1].c0 = o2[1];
        a2[0] = D[gg[0]].c1, a2[1] = D[gg[1]].c1;
        mont8_2(o2, a2, in);
        for (int v = 0; v < 2; v++) {
            v8_neg_mask(&ij[v].c1, &o2[v], 0xff);
            v8_gather_at(&py[v].c0, ADP[gg[v]], 2 * sizeof(g16_fp), k[v]);
            v8_gather_at(&py[v].c1, ADP[gg[v]], 3 * sizeof(g16_fp), k[v]);
            v8_gather_at(&ay[v].c0, ADA[gg[v]], 2 * sizeof(g16_fp), k[v]);
            v8_gather_at(&ay[v].c1, ADA[gg[v]], 3 * sizeof(g16_fp), k[v]);
            v8_neg_mask(&py[v].c0, &py[v].c0, neg[v]); /* adding −P */
            v8_neg_mask(&py[v].c1, &py[v].c1, neg[v]);
            v8_sub(&py[v].c0, &py[v].c0, &ay[v].c0);
            v8_sub(&py[v].c1, &py[v].c1, &ay[v].c1);
        }
        LOCAL(fp2_mul2)(lam, py, ij);
        /* λ² = (λ0 + λ1)(λ0 − λ1) + 2·λ0·λ1·u */
        for (int v = 0; v < 2; v++) {
            v8_add(&a2[v], &lam[v].c0, &lam[v].c1);
            v8_sub(&b2[v], &lam[v].c0, &lam[v].c1);
        }
        mont8_2(o2, a2, b2);
        a2[0] = lam[0].c0, a2[1] = lam[1].c0, b2[0] = lam[0].c1, b2[1] = lam[1].c1;
        mont8_2(in, a2, b2);
        for (int v = 0; v < 2; v++) {
            x3[v].c0 = o2[v];
            v8_add(&x3[v].c1, &in[v], &in[v]);
            /* x3 = λ² − xA − xP;  q = xA − x3 */
            v8_sub(&x3[v].c0, &x3[v].c0, &AX[gg[v]].c0);
            v8_sub(&x3[v].c1, &x3[v].c1, &AX[gg[v]].c1);
            v8_sub(&x3[v].c0, &x3[v].c0, &PX[gg[v]].c0);
            v8_sub(&x3[v].c1, &x3[v].c1, &PX[gg[v]].c1);
            v8_sub(&q[v].c0, &AX[gg[v]].c0, &x3[v].c0);
            v8_sub(&q[v].c1, &AX[gg[v]].c1, &x3[v].c1);
        }
        LOCAL(fp2_mul2)(q, q, lam);
        for (int v = 0; v < 1 + two; v++) {
            v8_sub(&q[v].c0, &q[v].c0, &ay[v].c0);
            v8_sub(&q[v].c1, &q[v].c1, &ay[v].c1);
            v8_scatter_at(ADA[gg[v]], 0, &x3[v].c0, k[v]);
            v8_scatter_at(ADA[gg[v]], sizeof(g16_fp), &x3[v].c1, k[v]);
            v8_scatter_at(ADA[gg[v]], 2 * sizeof(g16_fp), &q[v].c0, k[v]);
            v8_scatter_at(ADA[gg[v]], 3 * sizeof(g16_fp), &q[v].c1, k[v]);
        }
    }
    LOCAL(v8_finish)(s, tgt, sts, m, ns);
}
#endif

/* Performs the n queued affine additions tgt[eb[j]] += ±ep[j] with one inversion
 * (tgt/st as for flush_scalar), on the fastest path the CPU has. */
static void LOCAL(flush_to)(LOCAL(scratch) *s, MSM_AFF *tgt, uint8_t *sts, size_t n)
{
    if (!n) return;
#ifdef G16_IFMA_BUILD
    if (g16_use_ifma && s->vbuf) {
        LOCAL(flush_v8)(s, tgt, sts, n);
        return;
    }
#endif
    LOCAL(flush_scalar)(s, tgt, sts, n);
}

static inline void LOCAL(flush)(LOCAL(scratch) *s, size_t n)
{
    LOCAL(flush_to)(s, s->aff, s->st, n);
}

/* ---------------------------------------------------------------- batch additions
 * The batch-affine step of the MSM as a library primitive (msm.h), for callers
 * with many independent additions (the test setup's fixed-base products): one
 * code path, vectorised where the CPU has IFMA, for every batch-affine loop. */
struct MSM_CAT(MSM_CAT(g16_, MSM_G), _batch) {
    LOCAL(scratch) s;
    size_t cap;
};

g16_status MSM_CAT(MSM_CAT(g16_, MSM_G), _batch_new)(MSM_CAT(MSM_CAT(g16_, MSM_G), _batch) **out,
                                                      size_t cap)
{
    *out = NULL;
    MSM_CAT(MSM_CAT(g16_, MSM_G), _batch) *b = calloc(1, sizeof *b);
    if (!b) return g16_fail(G16_ERR_NOMEM, "batch additions: out of memory");
    LOCAL(ctx) x;
    memset(&x, 0, sizeof x);
    x.affine = 1;
    x.nb_max = 1; /* the bucket arrays are not used: targets are the caller's */
    x.batch = cap ? cap : 1;
    if (!LOCAL(scratch_get)(&x, &b->s)) {
        free(b);
        return g16_fail(G16_ERR_NOMEM, "batch additions: no memory for %zu", cap);
    }
    b->cap = x.batch;
    *out = b;
    return G16_OK;
}

void MSM_CAT(MSM_CAT(g16_, MSM_G), _batch_free)(MSM_CAT(MSM_CAT(g16_, MSM_G), _batch) *b)
{
    if (!b) return;
    LOCAL(scratch_free)(&b->s);
    free(b);
}

void MSM_CAT(MSM_CAT(g16_, MSM_G), _batch_add)(MSM_CAT(MSM_CAT(g16_, MSM_G), _batch) *b,
                                                MSM_AFF *tgt, uint8_t *st, const uint32_t *idx,
                                                const MSM_AFF *const *pts, const uint8_t *neg,
                                                size_t n)
{
    LOCAL(scratch) *s = &b->s;
    for (size_t at = 0; at < n; at += b->cap) {
        size_t m = n - at < b->cap ? n - at : b->cap;
        for (size_t j = 0; j < m; j++) {
            s->eb[j] = idx[at + j];
            s->ep[j] = pts[at + j];
            s->eneg[j] = neg[at + j];
            st[idx[at + j]] |= ST_INB;
        }
        LOCAL(flush_to)(s, tgt, st, m);
    }
}
