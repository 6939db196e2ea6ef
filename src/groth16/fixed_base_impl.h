/* Fixed-base scalar multiplication template (included by fixed_base.c for G1
 * and G2).  The includer defines CV(name) (curve function), FE(name) (field
 * function), FE_T, AFF, JAC, FB_(name) (local names), FB_NAME (the exported
 * function) and FB_GROUP (1 or 2), and fixed_base.c the tuning constants
 * (FB_CHUNK, FB_SPAN, FB_AHEAD, FB_MAX_W, FB_MAX_WINDOWS, FB_TABLE_BYTES, FB_ENTRY_COST).
 *
 * Method: windows of w bits, W = ⌈255/w⌉ of them.  Row k of the table holds
 * d·2^(wk)·P for d = 1 .. 2^(w−1) in affine form (the top row, unsigned, up to
 * 2^t for its t bits), so a scalar costs one affine addition per non-zero
 * window after its first and no doublings.  The additions of a chunk of scalars
 * share one inversion per window: they go through the MSM's batch-affine step
 * (g16_g1_batch_add / g16_g2_batch_add, msm.h: 5M + 1S per addition plus the 3M
 * of Montgomery's trick, eight additions per vector with AVX-512 IFMA), against
 * 7M + 4S for a mixed Jacobian addition.  The table is built the same way (row
 * entries h+1 .. 2h are entries 1 .. h plus entry h, one batch each).  w minimises n·(W−1) additions
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
 * that do it for w = 3, 4, 6, 7, 9, 12, 14, 18, 21, 22); the batch step handles
 * them (doubling, or a cancelled sum: infinity). */

/* One parallel task: products [b, e) of one job. */
typedef struct {
    AFF *out;
    const g16_fr *scalars;
    size_t b, e;
} FB_(span);

typedef struct {
    AFF *tab;
    size_t off[FB_MAX_WINDOWS + 1]; /* row k: tab[off[k] .. off[k+1]) */
    unsigned w, windows;
    FB_(span) *spans;
    uint8_t *scratch; /* per worker, scratch_bytes each */
    uint8_t *vscratch; /* per worker, vscratch_bytes each: the vector path's (FB_VSPAN) */
    size_t scratch_bytes, vscratch_bytes;
    CV(batch) **bh;   /* per worker: the batch-addition handle */
    AFF *rowbase;     /* 2^(wk)·P, k < W */
} FB_(ctx);

/* Per-worker scratch for the batch additions of n targets among m slots. */
typedef struct {
    uint32_t *idx;
    const AFF **pts;
    uint8_t *neg, *st;
} FB_(lists);

static FB_(lists) FB_(lists_at)(uint8_t *base, size_t n, size_t m)
{
    FB_(lists) l;
    l.pts = (const AFF **)base;
    l.idx = (uint32_t *)(l.pts + n);
    l.neg = (uint8_t *)(l.idx + n);
    l.st = l.neg + n;
    (void)m;
    return l;
}

static size_t FB_(lists_bytes)(size_t n, size_t m)
{
    return n * (sizeof(AFF *) + sizeof(uint32_t) + 1) + m;
}

/* Row k: e[d−1] = d·base_k.  Stage h computes e[h .. 2h) as e[i] + e[h−1] for
 * i < h (the last one a doubling), one batch. */
static void FB_(build_row)(void *vctx, size_t k, unsigned worker)
{
    FB_(ctx) *c = vctx;
    AFF *e = c->tab + c->off[k];
    size_t len = c->off[k + 1] - c->off[k];
    FB_(lists) l = FB_(lists_at)(c->scratch + (size_t)worker * c->scratch_bytes, len / 2 + 1, len);
    e[0] = c->rowbase[k];
    for (size_t h = 1; h < len; h *= 2) {
        size_t cnt = len - h < h ? len - h : h;
        for (size_t i = 0; i < cnt; i++) {
            e[h + i] = e[i];
            l.st[h + i] = 1;
            l.idx[i] = (uint32_t)(h + i);
            l.pts[i] = &e[h - 1];
            l.neg[i] = 0;
        }
        CV(batch_add)(c->bh[worker], e, l.st, l.idx, l.pts, l.neg, cnt);
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
    /* the carry is a coin flip: computed without a branch (a mispredicted one per
     * window made this loop a twentieth of the setup) */
    for (unsigned win = 0; win < windows; win++) {
        unsigned bit = win * w;
        uint64_t d = k[bit / 64] >> (bit % 64);
        if (bit % 64 + w > 64) d |= k[bit / 64 + 1] << (64 - bit % 64);
        d = (d & (full - 1)) + carry;
        carry = (half - d) >> 63; /* d > half; d ≤ 2^w, so no wrap past it */
        if (win + 1 == windows) carry = 0;
        dig[win * stride] = (int32_t)d - (int32_t)(carry << w);
    }
}

/* An entry spans two (G1) or three (G2) cache lines: fetch them all. */
static inline void FB_(prefetch)(const AFF *p)
{
    for (size_t o = 0; o < sizeof(AFF); o += 64) __builtin_prefetch((const char *)p + o);
    __builtin_prefetch((const char *)p + sizeof(AFF) - 1);
}

#ifndef FB_DSTRIDE
/* Digits of window k at dig[k·FB_DSTRIDE ..]: one cache line more than a span, so
 * that the rows of digits do not all start in the same L1 set (measured: no
 * difference at 2^20 either way; it costs 64 bytes a window). */
#define FB_DSTRIDE (FB_SPAN + 16)
#endif

static inline const AFF *FB_(entry)(const AFF *row, int32_t d) { return &row[(d > 0 ? d : -d) - 1]; }

/* Span t (at most FB_SPAN products), window by window: per window, batches
 * of FB_CHUNK, in which an empty accumulator takes its entry and the others are
 * added in one batch (st[i] bit 0: acc[i] holds a point).  Window-major over the
 * whole span so that only one row of the table is being read at a time: a row
 * (a few MB) stays in the last-level cache, where cycling through all the rows
 * for each small chunk made nearly every entry a DRAM miss. */
static void FB_(mul_span)(void *vctx, size_t t, unsigned worker)
{
    FB_(ctx) *c = vctx;
    const FB_(span) *sp = &c->spans[t];
    size_t b = sp->b, n = sp->e - sp->b;
    uint8_t *base = c->scratch + (size_t)worker * c->scratch_bytes;
    int32_t *dig = (int32_t *)base;
    FB_(lists) l = FB_(lists_at)((uint8_t *)(dig + (size_t)FB_DSTRIDE * c->windows), FB_CHUNK, FB_SPAN);
    AFF *acc = sp->out + b;
    for (size_t i = 0; i < n; i++) {
        FB_(recode)(dig + i, FB_DSTRIDE, &sp->scalars[b + i], c->w, c->windows);
        l.st[i] = 0;
    }
#ifdef FB_VSPAN
    if (c->vscratch) {
        FB_VSPAN(c, sp, dig, c->vscratch + (size_t)worker * c->vscratch_bytes);
        return;
    }
#endif
    for (unsigned win = 0; win < c->windows; win++) {
        const AFF *row = c->tab + c->off[win];
        const int32_t *dw = dig + (size_t)win * FB_DSTRIDE;
        for (size_t i0 = 0; i0 < n; i0 += FB_CHUNK) {
            size_t i1 = n - i0 < FB_CHUNK ? n : i0 + FB_CHUNK, cnt = 0;
            for (size_t i = i0; i < i1; i++) {
                /* entries are random within the row: fetch a few additions ahead */
                if (i + FB_AHEAD < n && dw[i + FB_AHEAD]) FB_(prefetch)(FB_(entry)(row, dw[i + FB_AHEAD]));
                int32_t d = dw[i];
                if (d == 0) continue;
                const AFF *q = FB_(entry)(row, d);
                if (!(l.st[i] & 1)) {
                    acc[i] = *q;
                    if (d < 0) FE(neg)(&acc[i].y, &acc[i].y);
                    l.st[i] = 1;
                } else {
                    l.idx[cnt] = (uint32_t)i, l.pts[cnt] = q, l.neg[cnt++] = d < 0;
                }
            }
            CV(batch_add)(c->bh[worker], acc, l.st, l.idx, l.pts, l.neg, cnt);
        }
    }
    for (size_t i = 0; i < n; i++)
        if (!(l.st[i] & 1)) CV(affine_set_infinity)(&acc[i]);
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
    memset(&c, 0, sizeof c);
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
    size_t build_bytes = FB_(lists_bytes)(longest / 2 + 1, longest);
    size_t mul_bytes = (size_t)FB_DSTRIDE * c.windows * sizeof(int32_t) + FB_(lists_bytes)(FB_CHUNK, FB_SPAN);
    c.scratch_bytes = build_bytes > mul_bytes ? build_bytes : mul_bytes;
    c.scratch_bytes = (c.scratch_bytes + 63) & ~(size_t)63;
    AFF *tab = g16_big_alloc(entries * sizeof(AFF));
    c.scratch = g16_malloc((size_t)T * c.scratch_bytes);
#ifdef FB_VSPAN
    c.vscratch_bytes = FB_VSCRATCH; /* 0, or an allocation that fails: the batch-step path */
    c.vscratch = c.vscratch_bytes ? g16_aligned_alloc(64, (size_t)T * c.vscratch_bytes) : NULL;
#endif
    c.rowbase = g16_malloc(c.windows * sizeof(AFF));
    c.bh = g16_calloc(T, sizeof *c.bh);
    size_t nspans = 0;
    for (size_t j = 0; j < jobs; j++) nspans += (ns[j] + FB_SPAN - 1) / FB_SPAN;
    c.spans = g16_malloc(nspans * sizeof *c.spans);
    JAC *rj = g16_malloc(c.windows * sizeof(JAC));
    g16_status st = G16_OK;
    if (!tab || !c.scratch || !c.rowbase || !rj || !c.bh || !c.spans)
        st = g16_fail(G16_ERR_NOMEM, "fixed-base table: out of memory (%zu entries)", entries);
    for (unsigned i = 0; st == G16_OK && i < T; i++) st = CV(batch_new)(&c.bh[i], FB_CHUNK);
    if (st == G16_OK) {
        c.tab = tab;
        CV(jac_from_affine)(&rj[0], base);
        for (unsigned k = 1; k < c.windows; k++) {
            rj[k] = rj[k - 1];
            for (unsigned j = 0; j < c.w; j++) CV(jac_dbl)(&rj[k], &rj[k]);
        }
        CV(jac_batch_to_affine)(c.rowbase, rj, c.windows);
        g16_pool_tasks(NULL, c.windows, FB_(build_row), &c);
        /* every job's spans in one parallel call: one tail of idle threads, not one per job */
        size_t t = 0;
        for (size_t j = 0; j < jobs; j++)
            for (size_t b = 0; b < ns[j]; b += FB_SPAN)
                c.spans[t++] = (FB_(span)){outs[j], scalars[j], b, ns[j] - b < FB_SPAN ? ns[j] : b + FB_SPAN};
        g16_pool_tasks(NULL, t, FB_(mul_span), &c);
    }
    for (unsigned i = 0; c.bh && i < T; i++) CV(batch_free)(c.bh[i]);
    free(c.bh);
    free(rj);
    free(tab);
    free(c.scratch);
    free(c.vscratch);
    free(c.rowbase);
    free(c.spans);
    return st;
}
