/* Fixed-base scalar multiplication template (included by fixed_base.c for G1
 * and G2).  The includer defines CV(name) (curve function), AFF, JAC and
 * FB_NAME (the exported function name).
 *
 * Method: signed windows of w bits.  Table row k holds d·2^(wk)·P for
 * d = 1 .. 2^(w−1) in affine form, so a scalar costs one affine addition per
 * window (W = ⌊255/w⌋ + 1 windows) and no doublings; the additions of a chunk
 * of scalars share one inversion per window.  w is chosen from n to balance the
 * table's cost (W·2^(w−1) Jacobian additions, memory) against n·W additions.
 * G16_FB_WINDOW=w forces the window (tuning experiments only). */

typedef struct {
    const AFF *tab; /* W rows of 2^(w−1) points */
    unsigned w, windows;
    AFF *out;
    const g16_fr *scalars;
    size_t n;
    void *scratch; /* per worker: table-row Jacobians, or the chunk's digits and products */
    size_t scratch_bytes;
    JAC *rowbase; /* 2^(wk)·P, k < W */
} FB_(ctx);

static void FB_(build_row)(void *vctx, size_t k, unsigned worker)
{
    FB_(ctx) *c = vctx;
    size_t m = (size_t)1 << (c->w - 1);
    JAC *tmp = (JAC *)((uint8_t *)c->scratch + (size_t)worker * c->scratch_bytes);
    tmp[0] = c->rowbase[k];
    for (size_t d = 1; d < m; d++) CV(jac_add)(&tmp[d], &tmp[d - 1], &c->rowbase[k]);
    CV(jac_batch_to_affine)((AFF *)c->tab + k * m, tmp, m);
}

/* Signed base-2^w digits of a canonical scalar < 2^255, in [−2^(w−1), 2^(w−1)]. */
static void FB_(recode)(int32_t *dig, size_t stride, const g16_fr *s, unsigned w, unsigned windows)
{
    uint64_t k[4];
    g16_fr_to_canonical(k, s);
    uint64_t carry = 0, full = (uint64_t)1 << w, half = full >> 1;
    for (unsigned win = 0; win < windows; win++) {
        unsigned bit = win * w;
        uint64_t d = 0;
        if (bit < 256) {
            d = k[bit / 64] >> (bit % 64);
            if (bit % 64 + w > 64 && bit / 64 + 1 < 4) d |= k[bit / 64 + 1] << (64 - bit % 64);
            d &= full - 1;
        }
        d += carry;
        carry = d > half;
        dig[win * stride] = carry ? (int32_t)d - (int32_t)full : (int32_t)d;
    }
}

/* An entry spans two (G1) or three (G2) cache lines: fetch them all. */
static inline void FB_(prefetch)(const AFF *p)
{
    for (size_t o = 0; o < sizeof(AFF); o += 64) __builtin_prefetch((const char *)p + o);
    __builtin_prefetch((const char *)p + sizeof(AFF) - 1);
}

/* The scalars of [b, e) in batch-affine form: every window adds one table point
 * to each accumulator, and the slopes of all those additions share one field
 * inversion (Montgomery's trick), about 6M + 1S an addition instead of the 11
 * of a mixed Jacobian one.  Equal x-coordinates (doubling or cancellation, with
 * negligible probability for random scalars) take a Jacobian detour. */
static void FB_(mul_chunk)(void *vctx, size_t b, size_t e, unsigned worker)
{
    FB_(ctx) *c = vctx;
    size_t m = (size_t)1 << (c->w - 1), n = e - b;
    uint8_t *base = (uint8_t *)c->scratch + (size_t)worker * c->scratch_bytes;
    int32_t *dig = (int32_t *)base;
    FE_T *prod = (FE_T *)(base + FB_CHUNK * c->windows * sizeof(int32_t));
    uint8_t *inf = (uint8_t *)(prod + FB_CHUNK);
    AFF *acc = c->out + b;
    for (size_t i = 0; i < n; i++) {
        FB_(recode)(dig + i, FB_CHUNK, &c->scalars[b + i], c->w, c->windows);
        inf[i] = 1;
    }
    for (unsigned win = 0; win < c->windows; win++) {
        const AFF *row = c->tab + (size_t)win * m;
        FE_T run;
        FE(set_one)(&run);
        /* pass 1: copy into empty accumulators, product of the denominators */
        for (size_t i = 0; i < n; i++) {
            /* table rows are far larger than the caches: fetch a few additions ahead */
            if (i + FB_AHEAD < n) {
                int32_t da = dig[(size_t)win * FB_CHUNK + i + FB_AHEAD];
                if (da) FB_(prefetch)(&row[(da > 0 ? da : -da) - 1]);
            }
            int32_t d = dig[(size_t)win * FB_CHUNK + i];
            if (d == 0) continue;
            const AFF *q = &row[(d > 0 ? d : -d) - 1];
            if (inf[i]) {
                acc[i] = *q;
                if (d < 0) FE(neg)(&acc[i].y, &acc[i].y);
                inf[i] = 0;
                dig[(size_t)win * FB_CHUNK + i] = 0; /* done */
                continue;
            }
            if (FE(eq)(&acc[i].x, &q->x)) {
                JAC j;
                AFF qq = *q;
                if (d < 0) FE(neg)(&qq.y, &qq.y);
                CV(jac_from_affine)(&j, &acc[i]);
                CV(jac_add_affine)(&j, &j, &qq);
                if (CV(jac_is_infinity)(&j))
                    inf[i] = 1;
                else
                    CV(jac_to_affine)(&acc[i], &j);
                dig[(size_t)win * FB_CHUNK + i] = 0;
                continue;
            }
            prod[i] = run;
            FE_T dx;
            FE(sub)(&dx, &q->x, &acc[i].x);
            FE(mul)(&run, &run, &dx);
        }
        FE(inv)(&run, &run);
        /* pass 2, backwards: each inverse denominator, then the addition */
        for (size_t i = n; i-- > 0;) {
            if (i >= FB_AHEAD) {
                int32_t da = dig[(size_t)win * FB_CHUNK + i - FB_AHEAD];
                if (da) FB_(prefetch)(&row[(da > 0 ? da : -da) - 1]);
            }
            int32_t d = dig[(size_t)win * FB_CHUNK + i];
            if (d == 0) continue;
            const AFF *q = &row[(d > 0 ? d : -d) - 1];
            FE_T dx, inv, lam, qy, x3, t;
            FE(sub)(&dx, &q->x, &acc[i].x);
            FE(mul)(&inv, &run, &prod[i]);
            FE(mul)(&run, &run, &dx);
            qy = q->y;
            if (d < 0) FE(neg)(&qy, &qy);
            FE(sub)(&lam, &qy, &acc[i].y);
            FE(mul)(&lam, &lam, &inv);
            FE(sqr)(&x3, &lam);
            FE(sub)(&x3, &x3, &acc[i].x);
            FE(sub)(&x3, &x3, &q->x);
            FE(sub)(&t, &acc[i].x, &x3);
            FE(mul)(&t, &t, &lam);
            FE(sub)(&acc[i].y, &t, &acc[i].y);
            acc[i].x = x3;
        }
    }
    for (size_t i = 0; i < n; i++)
        if (inf[i]) CV(affine_set_infinity)(&acc[i]);
}

g16_status FB_NAME(const AFF *base, size_t jobs, AFF *const *outs, const g16_fr *const *scalars,
                   const size_t *ns)
{
    size_t n = 0;
    for (size_t j = 0; j < jobs; j++) n += ns[j];
    if (n == 0) return G16_OK;
    /* cost in affine-addition units: n·W for the products, and the table's W·2^(w−1)
     * Jacobian additions plus their normalisation, about 3 units each; the table
     * stays under 128 MB */
    unsigned best = 1;
    double best_cost = 1e300;
    for (unsigned w = 2; w <= 16; w++) {
        unsigned W = 255 / w + 1;
        double cost = (double)n * W + 3.0 * W * (double)((size_t)1 << (w - 1));
        if ((double)W * (double)((size_t)1 << (w - 1)) * sizeof(AFF) > 128e6) break;
        if (cost < best_cost) best_cost = cost, best = w;
    }
    const char *force = getenv("G16_FB_WINDOW"); /* tuning experiments only */
    if (force && atoi(force) >= 2 && atoi(force) <= 22) best = (unsigned)atoi(force);
    FB_(ctx) c;
    c.w = best < 2 ? 2 : best;
    c.windows = 255 / c.w + 1;
    size_t m = (size_t)1 << (c.w - 1);
    unsigned T = g16_pool_size(NULL);
    size_t mul_bytes = FB_CHUNK * (c.windows * sizeof(int32_t) + sizeof(FE_T) + 1);
    c.scratch_bytes = m * sizeof(JAC) > mul_bytes ? m * sizeof(JAC) : mul_bytes;
    c.scratch_bytes = (c.scratch_bytes + 63) & ~(size_t)63;
    AFF *tab = malloc((size_t)c.windows * m * sizeof(AFF));
    c.scratch = malloc((size_t)T * c.scratch_bytes);
    c.rowbase = malloc(c.windows * sizeof(JAC));
    if (!tab || !c.scratch || !c.rowbase) {
        free(tab);
        free(c.scratch);
        free(c.rowbase);
        return g16_fail(G16_ERR_NOMEM, "fixed-base table: out of memory");
    }
    c.tab = tab;
    CV(jac_from_affine)(&c.rowbase[0], base);
    for (unsigned k = 1; k < c.windows; k++) {
        c.rowbase[k] = c.rowbase[k - 1];
        for (unsigned j = 0; j < c.w; j++) CV(jac_dbl)(&c.rowbase[k], &c.rowbase[k]);
    }
    g16_pool_tasks(NULL, c.windows, FB_(build_row), &c);
    for (size_t j = 0; j < jobs; j++) {
        c.out = outs[j];
        c.scalars = scalars[j];
        c.n = ns[j];
        g16_parallel_for(ns[j], FB_CHUNK, FB_(mul_chunk), &c);
    }
    free(tab);
    free(c.scratch);
    free(c.rowbase);
    return G16_OK;
}
