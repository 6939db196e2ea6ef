/* Fixed-base scalar multiplication template (included by fixed_base.c for G1
 * and G2).  The includer defines CV(name) (curve function), AFF, JAC and
 * FB_NAME (the exported function name).
 *
 * Method: signed windows of w bits.  Table row k holds d·2^(wk)·P for
 * d = 1 .. 2^(w−1) in affine form, so a scalar costs one mixed addition per
 * window (W = ⌊255/w⌋ + 1 windows) and no doublings; the outputs of a chunk are
 * normalised together with one inversion.  w is chosen from n to balance the
 * table's cost (W·2^(w−1) additions, memory) against n·W additions. */

typedef struct {
    const AFF *tab; /* W rows of 2^(w−1) points */
    unsigned w, windows;
    AFF *out;
    const g16_fr *scalars;
    size_t n;
    JAC *scratch; /* per worker: FB_CHUNK Jacobian points */
    JAC *rowbase; /* 2^(wk)·P, k < W */
} FB_(ctx);

static void FB_(build_row)(void *vctx, size_t k, unsigned worker)
{
    FB_(ctx) *c = vctx;
    size_t m = (size_t)1 << (c->w - 1);
    JAC *tmp = c->scratch + (size_t)worker * (m > FB_CHUNK ? m : FB_CHUNK);
    tmp[0] = c->rowbase[k];
    for (size_t d = 1; d < m; d++) CV(jac_add)(&tmp[d], &tmp[d - 1], &c->rowbase[k]);
    CV(jac_batch_to_affine)((AFF *)c->tab + k * m, tmp, m);
}

static void FB_(mul_chunk)(void *vctx, size_t b, size_t e, unsigned worker)
{
    FB_(ctx) *c = vctx;
    size_t m = (size_t)1 << (c->w - 1);
    JAC *acc = c->scratch + (size_t)worker * (m > FB_CHUNK ? m : FB_CHUNK);
    for (size_t i = b; i < e; i++) {
        uint64_t k[4];
        g16_fr_to_canonical(k, &c->scalars[i]);
        JAC *r = &acc[i - b];
        CV(jac_set_infinity)(r);
        unsigned carry = 0;
        for (unsigned win = 0; win < c->windows; win++) {
            unsigned bit = win * c->w;
            uint64_t d = 0;
            if (bit < 256) {
                d = k[bit / 64] >> (bit % 64);
                if (bit % 64 + c->w > 64 && bit / 64 + 1 < 4) d |= k[bit / 64 + 1] << (64 - bit % 64);
                d &= ((uint64_t)1 << c->w) - 1;
            }
            d += carry;
            if (d == ((uint64_t)1 << c->w)) { /* digit 0, carry 1 */
                carry = 1;
                continue;
            }
            if (d == 0) {
                carry = 0;
                continue;
            }
            const AFF *row = c->tab + (size_t)win * m;
            if (d > m) {
                /* digit d − 2^w < 0: subtract (2^w − d)·row, carry one into the next window */
                AFF neg;
                CV(affine_neg)(&neg, &row[((uint64_t)1 << c->w) - d - 1]);
                CV(jac_add_affine)(r, r, &neg);
                carry = 1;
            } else {
                CV(jac_add_affine)(r, r, &row[d - 1]);
                carry = 0;
            }
        }
    }
    CV(jac_batch_to_affine)(c->out + b, acc, e - b);
}

g16_status FB_NAME(const AFF *base, size_t jobs, AFF *const *outs, const g16_fr *const *scalars,
                   const size_t *ns)
{
    size_t n = 0;
    for (size_t j = 0; j < jobs; j++) n += ns[j];
    if (n == 0) return G16_OK;
    /* cost in additions: n·W + W·2^(w−1); the table stays under ~64 Mi entries·size */
    unsigned best = 1;
    double best_cost = 1e300;
    for (unsigned w = 2; w <= 16; w++) {
        unsigned W = 255 / w + 1;
        double cost = (double)n * W + (double)W * (double)((size_t)1 << (w - 1));
        if ((double)W * (double)((size_t)1 << (w - 1)) * sizeof(AFF) > 128e6) break;
        if (cost < best_cost) best_cost = cost, best = w;
    }
    FB_(ctx) c;
    c.w = best < 2 ? 2 : best;
    c.windows = 255 / c.w + 1;
    size_t m = (size_t)1 << (c.w - 1);
    unsigned T = g16_pool_size(NULL);
    size_t per = m > FB_CHUNK ? m : FB_CHUNK;
    AFF *tab = malloc((size_t)c.windows * m * sizeof(AFF));
    c.scratch = malloc((size_t)T * per * sizeof(JAC));
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
