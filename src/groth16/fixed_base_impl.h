/* Fixed-base scalar multiplication template (included by fixed_base.c for G1
 * and G2).  The includer defines CV(name) (curve function), FE(name) (field
 * function), FE_T, AFF, JAC, FB_(name) (local names), FB_NAME (the exported
 * function) and FB_GROUP (1 or 2), and fixed_base.c the tuning constants
 * (FB_CHUNK, FB_AHEAD, FB_ILP, FB_MAX_W, FB_MAX_WINDOWS, FB_TABLE_BYTES,
 * FB_ENTRY_COST).
 *
 * Method: windows of w bits, W = ⌈255/w⌉ of them.  Row k of the table holds
 * d·2^(wk)·P for d = 1 .. 2^(w−1) in affine form (the top row, unsigned, up to
 * 2^t for its t bits), so a scalar costs one affine addition per non-zero
 * window after its first and no doublings.  The additions of a chunk of scalars
 * share one inversion per window (batch-affine, as the MSM's buckets): 5M + 1S
 * per addition plus the 3M of Montgomery's trick, against 7M + 4S for a mixed
 * Jacobian addition.  The table is built the same way (row entries h+1 .. 2h
 * are entries 1 .. h plus entry h, one batch each), a third of the cost of
 * Jacobian additions and their normalisation.  w minimises n·(W−1) additions
 * plus the table's entries (each one batch-affine addition, plus the page
 * faults and cache misses of its memory), the table staying under
 * FB_TABLE_BYTES.  G16_FB_WINDOW=w forces the window (tuning experiments only).
 *
 * Equal x-coordinates: the table rows never meet one (distinct small multiples
 * of a point of prime order r).  In the products the running sum is Σ_{j<k}
 * d_j·2^(wj)·P with |Σ| < 2^(wk) ≤ |d_k|·2^(wk), so Σ ≡ ±d_k·2^(wk) (mod r) needs
 * |Σ ∓ d_k·2^(wk)| ≥ r, which only the top window can reach (a doubling, for
 * scalars 2d·2^(wk) − r whose recoding gives the top digit d: an exhaustive
 * search finds none for w = 13, 15, 16, 17, a partial one finds two scalars
 * that do it for w = 3, 4, 6, 7, 9, 12, 14, 18, 21, 22); those go through a
 * Jacobian addition. */

#if G16_FP_INLINE && FB_GROUP == 1
#define FB_ADD(r, a, b) g16_fp_add_inl(r, a, b)
#define FB_SUB(r, a, b) g16_fp_sub_inl(r, a, b)
#elif G16_FP_INLINE && FB_GROUP == 2
#define FB_ADD(r, a, b) \
    (g16_fp_add_inl(&(r)->c0, &(a)->c0, &(b)->c0), g16_fp_add_inl(&(r)->c1, &(a)->c1, &(b)->c1))
#define FB_SUB(r, a, b) \
    (g16_fp_sub_inl(&(r)->c0, &(a)->c0, &(b)->c0), g16_fp_sub_inl(&(r)->c1, &(a)->c1, &(b)->c1))
#else
#define FB_ADD(r, a, b) FE(add)(r, a, b)
#define FB_SUB(r, a, b) FE(sub)(r, a, b)
#endif
#if G16_FP_INLINE
#define FB_ADD1(r, a, b) g16_fp_add_inl(r, a, b)
#define FB_SUB1(r, a, b) g16_fp_sub_inl(r, a, b)
#else
#define FB_ADD1(r, a, b) g16_fp_add(r, a, b)
#define FB_SUB1(r, a, b) g16_fp_sub(r, a, b)
#endif
#if FB_GROUP == 1
/* λ only feeds multiplications (λ², λ·(…)), which accept the lazy (< 2p) form */
#define FB_MUL_LAM(r, a, b) g16_fp_mul_lazy(r, a, b)
#else
#define FB_MUL_LAM(r, a, b) FE(mul)(r, a, b)
#endif
#define FB_FEQ(a, b) \
    g16_limbs_eq((const uint64_t *)(a), (const uint64_t *)(b), sizeof(FE_T) / sizeof(uint64_t))

typedef struct {
    AFF *tab;
    size_t off[FB_MAX_WINDOWS + 1]; /* row k: tab[off[k] .. off[k+1]) */
    unsigned w, windows;
    AFF *out;
    const g16_fr *scalars;
    uint8_t *scratch; /* per worker, scratch_bytes each */
    size_t scratch_bytes;
    AFF *rowbase; /* 2^(wk)·P, k < W */
} FB_(ctx);

/* den[i] = 1/den[i] for i < n, all non-zero, with one inversion.  G1: results
 * lazily reduced (< 2p), fine as multiplication inputs.  G2: the Fp norms
 * c0² + c1² are batch-inverted and 1/d = conj(d)/N (7 Fp multiplications per
 * element instead of 3 Fp2 ones, 9).  pre: 2n Fp of scratch.
 *
 * The running products form FB_ILP interleaved chains (element i in chain
 * i mod FB_ILP): one chain is a sequence of dependent multiplications and runs
 * at their latency, interleaved ones at their throughput. */
static void FB_(batch_inv)(FE_T *den, g16_fp *pre, size_t n)
{
    if (!n) return;
    size_t K = n >= 2 * FB_ILP ? FB_ILP : 1;
    g16_fp inv[FB_ILP], t;
#if FB_GROUP == 1
    const g16_fp *v = (const g16_fp *)den;
    for (size_t i = 0; i < n; i++) {
        if (i < K)
            pre[i] = den[i];
        else
            g16_fp_mul_lazy(&pre[i], &pre[i - K], &den[i]);
    }
#else
    g16_fp *v = pre + n; /* the norms */
    for (size_t i = 0; i < n; i++) {
        g16_fp_sqr(&v[i], &den[i].c0);
        g16_fp_sqr(&t, &den[i].c1);
#if G16_FP_INLINE
        g16_fp_add_inl(&v[i], &v[i], &t);
#else
        g16_fp_add(&v[i], &v[i], &t);
#endif
        if (i < K)
            pre[i] = v[i];
        else
            g16_fp_mul_lazy(&pre[i], &pre[i - K], &v[i]);
    }
#endif
    /* the chains' totals (pre of each chain's last element), inverted together */
    const g16_fp *tot[FB_ILP];
    for (size_t j = n - K; j < n; j++) tot[j % K] = &pre[j];
    if (K == 1) {
        g16_fp_mul(&t, tot[0], &g16_fp_one_mont); /* canonical for the inversion */
        g16_fp_inv_vartime(&inv[0], &t);
    } else {
        g16_fp p01, p23, all, i01, i23;
        g16_fp_mul_lazy(&p01, tot[0], tot[1]);
        g16_fp_mul_lazy(&p23, tot[2], tot[3]);
        g16_fp_mul(&all, &p01, &p23);
        g16_fp_inv_vartime(&all, &all);
        g16_fp_mul_lazy(&i01, &all, &p23);
        g16_fp_mul_lazy(&i23, &all, &p01);
        g16_fp_mul_lazy(&inv[0], &i01, tot[1]);
        g16_fp_mul_lazy(&inv[1], &i01, tot[0]);
        g16_fp_mul_lazy(&inv[2], &i23, tot[3]);
        g16_fp_mul_lazy(&inv[3], &i23, tot[2]);
    }
    for (size_t i = n; i-- > 0;) {
        g16_fp *iv = &inv[i % K];
        if (i >= K) {
            g16_fp_mul_lazy(&t, iv, &pre[i - K]);
            g16_fp_mul_lazy(iv, iv, &v[i]);
        } else {
            t = *iv;
        }
#if FB_GROUP == 1
        den[i] = t;
#else
        g16_fp_mul(&den[i].c0, &den[i].c0, &t);
        g16_fp_mul(&den[i].c1, &den[i].c1, &t);
        g16_fp_neg(&den[i].c1, &den[i].c1);
#endif
    }
}

/* out[k] = P[k] + Q[k] for k < m ≤ FB_ILP, given λ's numerator num[k] and the
 * inverse inv[k] of its denominator; flip[k]: Q[k] is really −Q[k] and num is
 * yQ + yP (then λ = −λ' with λ' = num·inv: λ² is the same and
 * y3 = λ'·(x3 − xP) − yP, so −Q is never formed).  out[k] may be P[k].  The
 * additions go stage by stage: each is a chain of dependent products (λ, λ²,
 * λ·(xP − x3)), which one at a time run at multiplication latency. */
static inline void FB_(add_n)(AFF *const *out, const AFF *const *P, const AFF *const *Q,
                              const FE_T *num, const FE_T *const *inv, const int *flip, int m)
{
    FE_T lam[FB_ILP], x3[FB_ILP], t[FB_ILP];
    for (int k = 0; k < m; k++) FB_MUL_LAM(&lam[k], &num[k], inv[k]);
    for (int k = 0; k < m; k++) FE(sqr)(&x3[k], &lam[k]);
    for (int k = 0; k < m; k++) {
        FB_SUB(&x3[k], &x3[k], &P[k]->x);
        FB_SUB(&x3[k], &x3[k], &Q[k]->x);
        if (flip[k])
            FB_SUB(&t[k], &x3[k], &P[k]->x);
        else
            FB_SUB(&t[k], &P[k]->x, &x3[k]);
    }
    for (int k = 0; k < m; k++) FE(mul)(&t[k], &t[k], &lam[k]);
    for (int k = 0; k < m; k++) {
        FB_SUB(&out[k]->y, &t[k], &P[k]->y);
        out[k]->x = x3[k];
    }
}

/* Row k: e[d−1] = d·base_k.  Stage h computes e[h .. 2h) as e[i] + e[h−1] for
 * i < h (the last one a doubling), all with one inversion. */
static void FB_(build_row)(void *vctx, size_t k, unsigned worker)
{
    FB_(ctx) *c = vctx;
    AFF *e = c->tab + c->off[k];
    size_t len = c->off[k + 1] - c->off[k];
    FE_T *den = (FE_T *)(c->scratch + (size_t)worker * c->scratch_bytes);
    g16_fp *pre = (g16_fp *)(den + (len + 1) / 2);
    e[0] = c->rowbase[k];
    for (size_t h = 1; h < len; h *= 2) {
        size_t cnt = len - h < h ? len - h : h;
        const AFF *q = &e[h - 1];
        for (size_t i = 0; i < cnt; i++) {
            if (i + 1 == h)
                FB_ADD(&den[i], &q->y, &q->y);
            else
                FB_SUB(&den[i], &e[i].x, &q->x);
        }
        FB_(batch_inv)(den, pre, cnt);
        for (size_t i = 0; i < cnt; i += FB_ILP) {
            AFF *o[FB_ILP];
            const AFF *P[FB_ILP], *Q[FB_ILP];
            const FE_T *iv[FB_ILP];
            FE_T num[FB_ILP];
            int flip[FB_ILP] = {0}, m = 0;
            for (size_t k = i; k < cnt && k < i + FB_ILP; k++, m++) {
                if (k + 1 == h) { /* λ = 3x²/(2y) */
                    FE_T x2;
                    FE(sqr)(&x2, &q->x);
                    FB_ADD(&num[m], &x2, &x2);
                    FB_ADD(&num[m], &num[m], &x2);
                } else {
                    FB_SUB(&num[m], &e[k].y, &q->y);
                }
                o[m] = &e[h + k], P[m] = &e[k], Q[m] = q, iv[m] = &den[k];
            }
            FB_(add_n)(o, P, Q, num, iv, flip, m);
        }
    }
}

/* Base-2^w digits of a canonical scalar < 2^255: signed in [−2^(w−1)+1, 2^(w−1)]
 * below the top window, the top one unsigned (at most 2^t). */
static void FB_(recode)(int32_t *dig, size_t stride, const g16_fr *s, unsigned w, unsigned windows)
{
    uint64_t k[5];
    g16_fr_to_canonical(k, s);
    k[4] = 0;
    uint64_t carry = 0, full = (uint64_t)1 << w, half = full >> 1;
    for (unsigned win = 0; win < windows; win++) {
        unsigned bit = win * w;
        uint64_t d = k[bit / 64] >> (bit % 64);
        if (bit % 64 + w > 64) d |= k[bit / 64 + 1] << (64 - bit % 64);
        d = (d & (full - 1)) + carry;
        carry = win + 1 < windows && d > half;
        dig[win * stride] = carry ? (int32_t)d - (int32_t)full : (int32_t)d;
    }
}

/* An entry spans two (G1) or three (G2) cache lines: fetch them all. */
static inline void FB_(prefetch)(const AFF *p)
{
    for (size_t o = 0; o < sizeof(AFF); o += 64) __builtin_prefetch((const char *)p + o);
    __builtin_prefetch((const char *)p + sizeof(AFF) - 1);
}

static inline const AFF *FB_(entry)(const AFF *row, int32_t d) { return &row[(d > 0 ? d : -d) - 1]; }

#ifndef FB_TREE_INV_DEFINED
#define FB_TREE_INV_DEFINED
/* v[k] = 1/v[k] for k < cnt (all non-zero), with array products only: a product
 * tree built level by level (level l+1 holds the products of level l's pairs, an
 * odd element carried), one inversion at the root, and the tree unwound (a
 * child's inverse is its parent's inverse times its sibling).  About 3 products
 * per element, as Montgomery's trick, but as a few long array products instead
 * of one dependent chain.  tree: 2·cnt + 64 elements; tmp: cnt. */
static void fb_tree_inv(g16_fp *v, size_t cnt, g16_fp *tree, g16_fp *tmp)
{
    if (!cnt) return;
    size_t off[40], len[40];
    unsigned L = 0;
    memcpy(tree, v, cnt * sizeof *v);
    off[0] = 0, len[0] = cnt;
    while (len[L] > 1) {
        size_t m = len[L], pairs = m / 2, o = off[L] + m;
        g16_fp_mul_s(tree + o, 1, tree + off[L], 2, tree + off[L] + 1, 2, pairs);
        if (m & 1) tree[o + pairs] = tree[off[L] + m - 1];
        L++;
        off[L] = o, len[L] = pairs + (m & 1);
    }
    g16_fp_inv_vartime(&tree[off[L]], &tree[off[L]]); /* array products are fully reduced */
    for (unsigned l = L; l-- > 0;) {
        size_t m = len[l], pairs = m / 2;
        g16_fp *V = tree + off[l], *I = tree + off[l + 1];
        g16_fp_mul_s(tmp, 2, I, 1, V + 1, 2, pairs);
        g16_fp_mul_s(tmp + 1, 2, I, 1, V, 2, pairs);
        if (m & 1) tmp[m - 1] = I[pairs];
        memcpy(V, tmp, m * sizeof *V);
    }
    memcpy(v, tree, cnt * sizeof *v);
}
#endif

#if FB_GROUP == 2
/* Fp2 array products on the component arrays (an Fp2 array is an Fp array with
 * c0 at even and c1 at odd positions): r = a·b by Karatsuba (3 products),
 * r = a² as (a0 + a1)(a0 − a1), 2·a0·a1 (2 products).  r may equal a or b.
 * t: 5·n Fp of scratch. */
static void fb_fp2_mul_arr(g16_fp2 *r, const g16_fp2 *a, const g16_fp2 *b, size_t n, g16_fp *t)
{
    g16_fp *t0 = t, *t1 = t0 + n, *t2 = t1 + n, *sa = t2 + n, *sb = sa + n;
    const g16_fp *af = (const g16_fp *)a, *bf = (const g16_fp *)b;
    for (size_t k = 0; k < n; k++) {
        FB_ADD1(&sa[k], &a[k].c0, &a[k].c1);
        FB_ADD1(&sb[k], &b[k].c0, &b[k].c1);
    }
    g16_fp_mul_s(t0, 1, af, 2, bf, 2, n);
    g16_fp_mul_s(t1, 1, af + 1, 2, bf + 1, 2, n);
    g16_fp_mul_n(t2, sa, sb, n);
    for (size_t k = 0; k < n; k++) {
        FB_SUB1(&r[k].c0, &t0[k], &t1[k]);
        FB_SUB1(&t2[k], &t2[k], &t0[k]);
        FB_SUB1(&r[k].c1, &t2[k], &t1[k]);
    }
}

static void fb_fp2_sqr_arr(g16_fp2 *r, const g16_fp2 *a, size_t n, g16_fp *t)
{
    g16_fp *sa = t, *da = sa + n, *p = da + n;
    for (size_t k = 0; k < n; k++) {
        FB_ADD1(&sa[k], &a[k].c0, &a[k].c1);
        FB_SUB1(&da[k], &a[k].c0, &a[k].c1);
    }
    g16_fp_mul_s(p, 1, (const g16_fp *)a, 2, (const g16_fp *)a + 1, 2, n); /* a0·a1 */
    g16_fp_mul_s((g16_fp *)r, 2, sa, 1, da, 1, n);
    for (size_t k = 0; k < n; k++) FB_ADD1(&r[k].c1, &p[k], &p[k]);
}
#endif

/* The cnt additions of one window, acc[idx[k]] += ±(its table entry), with every
 * product made as an array product (g16_fp_mul_n / _s: eight at a time with
 * AVX-512 IFMA, three times the scalar kernel's throughput): the operands are
 * gathered into arrays, the denominators den[k] = x_Q − x_A inverted with the
 * product tree (G2: through the Fp norms, 1/d = conj(d)/N), then λ, λ² and
 * λ·(x_A − x_3) as array products.  ws: FB_VEC_ELEMS Fp of scratch. */
static void FB_(add_vec)(AFF *acc, const AFF *row, const int32_t *dw, const uint32_t *idx,
                         FE_T *den, size_t cnt, g16_fp *ws)
{
    if (!cnt) return;
    FE_T *ax = (FE_T *)ws, *ay = ax + FB_CHUNK, *qx = ay + FB_CHUNK, *num = qx + FB_CHUNK;
    FE_T *x3 = num + FB_CHUNK, *t = x3 + FB_CHUNK;
    g16_fp *tree = (g16_fp *)(t + FB_CHUNK), *tmp = tree + 2 * FB_CHUNK + 64;
    for (size_t k = 0; k < cnt; k++) {
        int32_t d = dw[idx[k]];
        const AFF *A = &acc[idx[k]], *Q = FB_(entry)(row, d);
        ax[k] = A->x, ay[k] = A->y, qx[k] = Q->x;
        if (d < 0)
            FB_ADD(&num[k], &Q->y, &A->y); /* −Q: λ = −(y_Q + y_A)/(x_Q − x_A) */
        else
            FB_SUB(&num[k], &Q->y, &A->y);
    }
#if FB_GROUP == 1
    fb_tree_inv(den, cnt, tree, tmp);
    g16_fp_mul_n(num, num, den, cnt); /* λ' = num / den (λ = ±λ') */
    g16_fp_sqr_n(x3, num, cnt);
#else
    /* norms N = d0² + d1², inverted; 1/d = (d0·N⁻¹, −d1·N⁻¹) */
    g16_fp *nrm = tmp + FB_CHUNK, *n1 = nrm + FB_CHUNK, *scr = n1 + FB_CHUNK;
    const g16_fp *df = (const g16_fp *)den;
    g16_fp_mul_s(nrm, 1, df, 2, df, 2, cnt);
    g16_fp_mul_s(n1, 1, df + 1, 2, df + 1, 2, cnt);
    for (size_t k = 0; k < cnt; k++) FB_ADD1(&nrm[k], &nrm[k], &n1[k]);
    fb_tree_inv(nrm, cnt, tree, tmp);
    g16_fp_mul_s((g16_fp *)den, 2, df, 2, nrm, 1, cnt);
    g16_fp_mul_s((g16_fp *)den + 1, 2, df + 1, 2, nrm, 1, cnt);
    for (size_t k = 0; k < cnt; k++) g16_fp_neg(&den[k].c1, &den[k].c1);
    fb_fp2_mul_arr(num, num, den, cnt, scr);
    fb_fp2_sqr_arr(x3, num, cnt, scr);
#endif
    for (size_t k = 0; k < cnt; k++) {
        FB_SUB(&x3[k], &x3[k], &ax[k]);
        FB_SUB(&x3[k], &x3[k], &qx[k]);
        if (dw[idx[k]] < 0)
            FB_SUB(&t[k], &x3[k], &ax[k]);
        else
            FB_SUB(&t[k], &ax[k], &x3[k]);
    }
#if FB_GROUP == 1
    g16_fp_mul_n(t, t, num, cnt);
#else
    fb_fp2_mul_arr(t, t, num, cnt, scr);
#endif
    for (size_t k = 0; k < cnt; k++) {
        AFF *A = &acc[idx[k]];
        FB_SUB(&A->y, &t[k], &ay[k]);
        A->x = x3[k];
    }
}
/* ax, ay, qx, num, x3, t (6 FE_T arrays), the tree (2·FB_CHUNK + 64) and tmp
 * (FB_CHUNK); G2 also the norms (2·FB_CHUNK) and the Fp2 products' scratch (5). */
#if FB_GROUP == 1
#define FB_VEC_ELEMS (9 * FB_CHUNK + 64)
#else
#define FB_VEC_ELEMS (12 * FB_CHUNK + 3 * FB_CHUNK + 64 + 2 * FB_CHUNK + 5 * FB_CHUNK)
#endif

/* The scalars of [b, e): per window, pass 1 starts empty accumulators and
 * collects the denominators of the others' additions; one batch inversion;
 * pass 2 performs the additions. */
static void FB_(mul_chunk)(void *vctx, size_t b, size_t e, unsigned worker)
{
    FB_(ctx) *c = vctx;
    size_t n = e - b;
    uint8_t *base = c->scratch + (size_t)worker * c->scratch_bytes;
    FE_T *den = (FE_T *)base;
    g16_fp *pre = (g16_fp *)(den + FB_CHUNK);
    int32_t *dig = (int32_t *)(pre + 2 * FB_CHUNK);
    uint32_t *idx = (uint32_t *)(dig + (size_t)FB_CHUNK * c->windows);
    uint8_t *inf = (uint8_t *)(idx + FB_CHUNK);
    g16_fp *vws = (g16_fp *)(((uintptr_t)(inf + FB_CHUNK) + 63) & ~(uintptr_t)63);
    AFF *acc = c->out + b;
    for (size_t i = 0; i < n; i++) {
        FB_(recode)(dig + i, FB_CHUNK, &c->scalars[b + i], c->w, c->windows);
        inf[i] = 1;
    }
    for (unsigned win = 0; win < c->windows; win++) {
        const AFF *row = c->tab + c->off[win];
        const int32_t *dw = dig + (size_t)win * FB_CHUNK;
        size_t cnt = 0;
        for (size_t i = 0; i < n; i++) {
            /* the rows are far larger than L1/L2: fetch a few additions ahead */
            if (i + FB_AHEAD < n && dw[i + FB_AHEAD]) FB_(prefetch)(FB_(entry)(row, dw[i + FB_AHEAD]));
            int32_t d = dw[i];
            if (d == 0) continue;
            const AFF *q = FB_(entry)(row, d);
            AFF *A = &acc[i];
            if (inf[i]) {
                *A = *q;
                if (d < 0) FE(neg)(&A->y, &A->y);
                inf[i] = 0;
            } else if (FB_FEQ(&A->x, &q->x)) { /* ±A: see the top of the file */
                JAC j;
                AFF qq = *q;
                if (d < 0) FE(neg)(&qq.y, &qq.y);
                CV(jac_from_affine)(&j, A);
                CV(jac_add_affine)(&j, &j, &qq);
                if (CV(jac_is_infinity)(&j))
                    inf[i] = 1;
                else
                    CV(jac_to_affine)(A, &j);
            } else {
                FB_SUB(&den[cnt], &q->x, &A->x);
                idx[cnt++] = (uint32_t)i;
            }
        }
        if (g16_use_ifma) {
            FB_(add_vec)(acc, row, dw, idx, den, cnt, vws);
            continue;
        }
        FB_(batch_inv)(den, pre, cnt);
        for (size_t j = 0; j < cnt; j += FB_ILP) {
            AFF *A[FB_ILP];
            const AFF *Q[FB_ILP];
            const FE_T *iv[FB_ILP];
            FE_T num[FB_ILP];
            int flip[FB_ILP], m = 0;
            for (size_t k = j; k < cnt && k < j + FB_ILP; k++, m++) {
                if (k + FB_AHEAD < cnt) FB_(prefetch)(FB_(entry)(row, dw[idx[k + FB_AHEAD]]));
                size_t i = idx[k];
                int32_t d = dw[i];
                A[m] = &acc[i], Q[m] = FB_(entry)(row, d), iv[m] = &den[k], flip[m] = d < 0;
                if (d < 0)
                    FB_ADD(&num[m], &Q[m]->y, &A[m]->y);
                else
                    FB_SUB(&num[m], &Q[m]->y, &A[m]->y);
            }
            FB_(add_n)(A, (const AFF *const *)A, Q, num, iv, flip, m);
        }
    }
    for (size_t i = 0; i < n; i++)
        if (inf[i]) CV(affine_set_infinity)(&acc[i]);
}

/* Table layout for window w: fills off[0 .. W], returns W. */
static unsigned FB_(layout)(size_t *off, unsigned w)
{
    unsigned W = (255 + w - 1) / w, t = 255 - (W - 1) * w;
    off[0] = 0;
    for (unsigned k = 0; k < W; k++) off[k + 1] = off[k] + ((size_t)1 << (k + 1 < W ? w - 1 : t));
    return W;
}

g16_status FB_NAME(const AFF *base, size_t jobs, AFF *const *outs, const g16_fr *const *scalars,
                   const size_t *ns)
{
    size_t n = 0;
    for (size_t j = 0; j < jobs; j++) n += ns[j];
    if (n == 0) return G16_OK;
    if (CV(affine_is_infinity)(base)) {
        for (size_t j = 0; j < jobs; j++)
            for (size_t i = 0; i < ns[j]; i++) CV(affine_set_infinity)(&outs[j][i]);
        return G16_OK;
    }
    if (!CV(affine_in_subgroup)(base))
        return g16_fail(G16_ERR_NOT_IN_SUBGROUP, "fixed-base: base point not in the subgroup");
    FB_(ctx) c;
    /* cost in affine additions: n·(W−1) for the products, FB_ENTRY_COST per table entry */
    unsigned best = 2;
    double best_cost = 1e300;
    for (unsigned w = 2; w <= FB_MAX_W; w++) {
        unsigned W = FB_(layout)(c.off, w);
        double entries = (double)c.off[W];
        if (entries * sizeof(AFF) > FB_TABLE_BYTES) continue;
        double cost = (double)n * (W - 1) + FB_ENTRY_COST * entries;
        if (cost < best_cost) best_cost = cost, best = w;
    }
    const char *force = getenv("G16_FB_WINDOW"); /* tuning experiments only */
    if (force && atoi(force) >= 2 && atoi(force) <= FB_MAX_W) best = (unsigned)atoi(force);
    c.w = best;
    c.windows = FB_(layout)(c.off, c.w);
    size_t entries = c.off[c.windows], longest = 0;
    for (unsigned k = 0; k < c.windows; k++)
        if (c.off[k + 1] - c.off[k] > longest) longest = c.off[k + 1] - c.off[k];
    unsigned T = g16_pool_size(NULL);
    size_t half = (longest + 1) / 2;
    size_t build_bytes = half * (sizeof(FE_T) + 2 * sizeof(g16_fp));
    size_t mul_bytes = FB_CHUNK * (sizeof(FE_T) + 2 * sizeof(g16_fp) + c.windows * sizeof(int32_t) +
                                   sizeof(uint32_t) + 1) +
                       64 + FB_VEC_ELEMS * sizeof(g16_fp);
    c.scratch_bytes = build_bytes > mul_bytes ? build_bytes : mul_bytes;
    c.scratch_bytes = (c.scratch_bytes + 63) & ~(size_t)63;
    AFF *tab = malloc(entries * sizeof(AFF));
    c.scratch = malloc((size_t)T * c.scratch_bytes);
    c.rowbase = malloc(c.windows * sizeof(AFF));
    JAC *rj = malloc(c.windows * sizeof(JAC));
    if (!tab || !c.scratch || !c.rowbase || !rj) {
        free(tab);
        free(c.scratch);
        free(c.rowbase);
        free(rj);
        return g16_fail(G16_ERR_NOMEM, "fixed-base table: out of memory (%zu entries)", entries);
    }
    c.tab = tab;
    CV(jac_from_affine)(&rj[0], base);
    for (unsigned k = 1; k < c.windows; k++) {
        rj[k] = rj[k - 1];
        for (unsigned j = 0; j < c.w; j++) CV(jac_dbl)(&rj[k], &rj[k]);
    }
    CV(jac_batch_to_affine)(c.rowbase, rj, c.windows);
    free(rj);
    g16_pool_tasks(NULL, c.windows, FB_(build_row), &c);
    for (size_t j = 0; j < jobs; j++) {
        c.out = outs[j];
        c.scalars = scalars[j];
        g16_parallel_for(ns[j], FB_CHUNK, FB_(mul_chunk), &c);
    }
    free(tab);
    free(c.scratch);
    free(c.rowbase);
    return G16_OK;
}

#undef FB_VEC_ELEMS
#undef FB_ADD1
#undef FB_SUB1
#undef FB_ADD
#undef FB_SUB
#undef FB_MUL_LAM
#undef FB_FEQ
