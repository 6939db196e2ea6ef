/* Radix-2 NTT with cache blocking.
 *
 * Stages whose butterflies span more than one block (sub-transform size s > B)
 * are done two at a time (a radix-4 pass: each element is loaded once for two
 * stages), as parallel loops over the whole array; the remaining log B stages
 * are done block by block, each block by one thread while it sits in L2.  For
 * n = 2^20 and B = 2^15 that is 3 full passes instead of 20.
 *
 * Inverse transforms read the forward table: ω_s^-e = -ω_s^(s/2-e), and the
 * sign is folded into the butterfly (x-y becomes y-x, or + and - swap).
 */
#include <string.h>

#include "common/pool.h"
#include "ntt/ntt.h"
#include "ntt/ntt_internal.h"

int g16_ntt_block_log = 15;

/* Items per chunk of an outer pass: large enough to amortise the per-chunk
 * power computation of fused scaling, small enough to balance threads. */
#define PASS_GRAIN 4096

typedef g16_ntt_scale scale;

/* ---------------------------------------------------------------------------
 * Butterflies.  tw holds ω_m^k for k < m/2 of some m; a sub-transform of size s
 * with half h = s/2 reads ω_s^e = tw[e·st] with st = m/s. */

static inline void bf_dif(g16_fr *x, g16_fr *y, const g16_fr *tw, size_t e, size_t h, size_t st,
                          int inv)
{
    g16_fr d;
    if (e == 0) {
        g16_fr_sub(&d, x, y);
        g16_fr_add(x, x, y);
        *y = d;
    } else if (!inv) {
        g16_fr_sub(&d, x, y);
        g16_fr_add(x, x, y);
        g16_fr_mul(y, &d, &tw[e * st]);
    } else {
        g16_fr_sub(&d, y, x);
        g16_fr_add(x, x, y);
        g16_fr_mul(y, &d, &tw[(h - e) * st]);
    }
}

static inline void bf_dit(g16_fr *x, g16_fr *y, const g16_fr *tw, size_t e, size_t h, size_t st,
                          int inv)
{
    g16_fr t;
    if (e == 0) {
        t = *y;
        g16_fr_sub(y, x, &t);
        g16_fr_add(x, x, &t);
    } else if (!inv) {
        g16_fr_mul(&t, y, &tw[e * st]);
        g16_fr_sub(y, x, &t);
        g16_fr_add(x, x, &t);
    } else {
        g16_fr_mul(&t, y, &tw[(h - e) * st]);
        g16_fr_add(y, x, &t);
        g16_fr_sub(x, x, &t);
    }
}

/* Two stages on x[0], x[q], x[2q], x[3q]: sub-transform sizes 4q then 2q (DIF),
 * or 2q then 4q (DIT); ω_4q^e = tw[e·st]. */
static inline void dif4(g16_fr *x, size_t q, const g16_fr *tw, size_t j, size_t st, int inv)
{
    bf_dif(&x[0], &x[2 * q], tw, j, 2 * q, st, inv);
    bf_dif(&x[q], &x[3 * q], tw, j + q, 2 * q, st, inv);
    bf_dif(&x[0], &x[q], tw, j, q, 2 * st, inv);
    bf_dif(&x[2 * q], &x[3 * q], tw, j, q, 2 * st, inv);
}

static inline void dit4(g16_fr *x, size_t q, const g16_fr *tw, size_t j, size_t st, int inv)
{
    bf_dit(&x[0], &x[q], tw, j, q, 2 * st, inv);
    bf_dit(&x[2 * q], &x[3 * q], tw, j, q, 2 * st, inv);
    bf_dit(&x[0], &x[2 * q], tw, j, 2 * q, st, inv);
    bf_dit(&x[q], &x[3 * q], tw, j + q, 2 * q, st, inv);
}

/* Running factors for `streams` element streams starting at indices i0 + k·gap. */
typedef struct runner {
    g16_fr p[4];
    const scale *sc;
} runner;

static void runner_init(runner *r, const scale *sc, size_t i0, size_t gap, int streams)
{
    r->sc = sc;
    for (int k = 0; k < streams; k++) {
        if (sc->has_ratio) {
            uint64_t e = (uint64_t)(i0 + (size_t)k * gap);
            g16_fr_pow(&r->p[k], &sc->ratio, &e, 1);
            g16_fr_mul(&r->p[k], &r->p[k], &sc->c0);
        } else {
            r->p[k] = sc->c0;
        }
    }
}

static inline void runner_apply(runner *r, int k, g16_fr *x)
{
    g16_fr_mul(x, x, &r->p[k]);
    if (r->sc->has_ratio) g16_fr_mul(&r->p[k], &r->p[k], &r->sc->ratio);
}

/* ---------------------------------------------------------------------------
 * Passes. */

typedef struct pass_ctx {
    const g16_domain *d;
    g16_fr *a;
    size_t s;          /* sub-transform size of the pass's larger stage */
    int inv;
    const scale *sc;   /* fused scaling, applied only by the pass with s == n */
} pass_ctx;

static const scale *pass_scale(const pass_ctx *c)
{
    return c->s == c->d->n && c->sc && c->sc->on ? c->sc : NULL;
}

/* Items are (block, j) pairs, j < q: t -> block t / q, offset j = t % q. */
static void dif4_range(void *arg, size_t b, size_t e, unsigned worker)
{
    const pass_ctx *c = arg;
    size_t s = c->s, q = s / 4, st = c->d->n / s;
    const g16_fr *tw = c->d->tw;
    const scale *sc = pass_scale(c);
    if (g16_ntt_v8_pass(c->a, s, 4, b, e, tw, st, c->inv, 1, sc)) return;
    runner r;
    if (sc) runner_init(&r, sc, b, q, 4);  /* s == n: one block, j = t */
    size_t j = b % q, blk = b / q;
    for (size_t t = b; t < e; t++) {
        g16_fr *x = c->a + blk * s + j;
        if (sc)
            for (int k = 0; k < 4; k++) runner_apply(&r, k, &x[k * q]);
        dif4(x, q, tw, j, st, c->inv);
        if (++j == q) {
            j = 0;
            blk++;
        }
    }
}

static void dit4_range(void *arg, size_t b, size_t e, unsigned worker)
{
    const pass_ctx *c = arg;
    size_t s = c->s, q = s / 4, st = c->d->n / s;
    const g16_fr *tw = c->d->tw;
    const scale *sc = pass_scale(c);
    if (g16_ntt_v8_pass(c->a, s, 4, b, e, tw, st, c->inv, 0, sc)) return;
    runner r;
    if (sc) runner_init(&r, sc, b, q, 4);
    size_t j = b % q, blk = b / q;
    for (size_t t = b; t < e; t++) {
        g16_fr *x = c->a + blk * s + j;
        dit4(x, q, tw, j, st, c->inv);
        if (sc)
            for (int k = 0; k < 4; k++) runner_apply(&r, k, &x[k * q]);
        if (++j == q) {
            j = 0;
            blk++;
        }
    }
}

static void r2_range(void *arg, size_t b, size_t e, int dif)
{
    const pass_ctx *c = arg;
    size_t s = c->s, h = s / 2, st = c->d->n / s;
    const g16_fr *tw = c->d->tw;
    const scale *sc = pass_scale(c);
    if (g16_ntt_v8_pass(c->a, s, 2, b, e, tw, st, c->inv, dif, sc)) return;
    runner r;
    if (sc) runner_init(&r, sc, b, h, 2);
    size_t j = b % h, blk = b / h;
    for (size_t t = b; t < e; t++) {
        g16_fr *x = c->a + blk * s + j;
        if (dif) {
            if (sc) {
                runner_apply(&r, 0, &x[0]);
                runner_apply(&r, 1, &x[h]);
            }
            bf_dif(&x[0], &x[h], tw, j, h, st, c->inv);
        } else {
            bf_dit(&x[0], &x[h], tw, j, h, st, c->inv);
            if (sc) {
                runner_apply(&r, 0, &x[0]);
                runner_apply(&r, 1, &x[h]);
            }
        }
        if (++j == h) {
            j = 0;
            blk++;
        }
    }
}

static void dif2_range(void *arg, size_t b, size_t e, unsigned w) { r2_range(arg, b, e, 1); }
static void dit2_range(void *arg, size_t b, size_t e, unsigned w) { r2_range(arg, b, e, 0); }

static void scale_block(g16_fr *x, size_t len, const scale *sc)
{
    runner r;
    runner_init(&r, sc, 0, 0, 1);
    for (size_t i = 0; i < len; i++) runner_apply(&r, 0, &x[i]);
}

/* All stages of sub-size <= B on blocks [b, e) of B elements, two per sweep. */
static void blocks_range(void *arg, size_t b, size_t e, int dif)
{
    const pass_ctx *c = arg;
    size_t B = (size_t)1 << c->d->block_log;
    const g16_fr *tw = c->d->tw_block;
    /* with a single block no outer pass ran: the fused scaling happens here */
    const scale *sc = B == c->d->n && c->sc && c->sc->on ? c->sc : NULL;
    for (size_t blk = b; blk < e; blk++) {
        g16_fr *x = c->a + blk * B;
        if (dif && sc) scale_block(x, B, sc);
        if (g16_ntt_v8_block(x, c->d->block_log, tw, c->inv, dif)) {
            if (!dif && sc) scale_block(x, B, sc);
            continue;
        }
        if (dif) {
            size_t s = B;
            for (; s >= 4; s /= 4) {
                size_t q = s / 4, st = B / s;
                for (size_t o = 0; o < B; o += s)
                    for (size_t j = 0; j < q; j++) dif4(&x[o + j], q, tw, j, st, c->inv);
            }
            if (s == 2)
                for (size_t o = 0; o < B; o += 2) bf_dif(&x[o], &x[o + 1], tw, 0, 1, B / 2, c->inv);
        } else {
            size_t s = 4;
            if (c->d->block_log & 1) {
                for (size_t o = 0; o < B; o += 2) bf_dit(&x[o], &x[o + 1], tw, 0, 1, B / 2, c->inv);
                s = 8;
            }
            for (; s <= B; s *= 4) {
                size_t q = s / 4, st = B / s;
                for (size_t o = 0; o < B; o += s)
                    for (size_t j = 0; j < q; j++) dit4(&x[o + j], q, tw, j, st, c->inv);
            }
            if (sc) scale_block(x, B, sc);
        }
    }
}

static void difb_range(void *arg, size_t b, size_t e, unsigned w) { blocks_range(arg, b, e, 1); }
static void ditb_range(void *arg, size_t b, size_t e, unsigned w) { blocks_range(arg, b, e, 0); }

/* Natural in, bit-reversed out; `pre` scales the input (natural indices). */
static void run_dif(const g16_domain *d, g16_fr *a, int inv, const scale *pre)
{
    size_t n = d->n, B = (size_t)1 << d->block_log;
    if (n == 1) {
        if (pre && pre->on) scale_block(a, 1, pre);
        return;
    }
    pass_ctx c = {d, a, n, inv, pre};
    if ((d->log_n - d->block_log) & 1) {
        g16_parallel_for(n / 2, PASS_GRAIN, dif2_range, &c);
        c.s /= 2;
    }
    for (; c.s > B; c.s /= 4) g16_parallel_for(n / 4, PASS_GRAIN, dif4_range, &c);
    g16_parallel_for(n / B, 1, difb_range, &c);
}

/* Bit-reversed in, natural out; `post` scales the output (natural indices). */
static void run_dit(const g16_domain *d, g16_fr *a, int inv, const scale *post)
{
    size_t n = d->n, B = (size_t)1 << d->block_log;
    if (n == 1) {
        if (post && post->on) scale_block(a, 1, post);
        return;
    }
    pass_ctx c = {d, a, B, inv, post};
    g16_parallel_for(n / B, 1, ditb_range, &c);
    if ((d->log_n - d->block_log) & 1) {
        c.s = 2 * B;
        g16_parallel_for(n / 2, PASS_GRAIN, dit2_range, &c);
    }
    for (c.s *= 4; c.s <= n; c.s *= 4) g16_parallel_for(n / 4, PASS_GRAIN, dit4_range, &c);
}

static scale scale_const(const g16_fr *c0)
{
    scale s = {1, 0, *c0, *c0};
    return s;
}

static scale scale_geo(const g16_fr *c0, const g16_fr *ratio)
{
    scale s = {1, 1, *c0, *ratio};
    return s;
}

void g16_ntt_forward_nr(const g16_domain *d, g16_fr *a) { run_dif(d, a, 0, NULL); }

void g16_ntt_forward_rn(const g16_domain *d, g16_fr *a) { run_dit(d, a, 0, NULL); }

void g16_ntt_forward_nn(const g16_domain *d, g16_fr *a)
{
    run_dif(d, a, 0, NULL);
    g16_ntt_bit_reverse(d, a);
}

void g16_ntt_inverse_nr(const g16_domain *d, g16_fr *a)
{
    scale s = scale_const(&d->n_inv);
    run_dif(d, a, 1, &s);
}

void g16_ntt_inverse_rn(const g16_domain *d, g16_fr *a)
{
    scale s = scale_const(&d->n_inv);
    run_dit(d, a, 1, &s);
}

void g16_ntt_inverse_nn(const g16_domain *d, g16_fr *a)
{
    g16_ntt_bit_reverse(d, a);
    g16_ntt_inverse_rn(d, a);
}

void g16_ntt_coset_forward_nr(const g16_domain *d, g16_fr *a)
{
    scale s = scale_geo(&g16_fr_one_mont, &d->g);
    run_dif(d, a, 0, &s);
}

void g16_ntt_coset_forward_nn(const g16_domain *d, g16_fr *a)
{
    g16_ntt_coset_forward_nr(d, a);
    g16_ntt_bit_reverse(d, a);
}

void g16_ntt_coset_inverse_rn(const g16_domain *d, g16_fr *a)
{
    scale s = scale_geo(&d->n_inv, &d->g_inv);
    run_dit(d, a, 1, &s);
}

void g16_ntt_coset_inverse_nn(const g16_domain *d, g16_fr *a)
{
    g16_ntt_bit_reverse(d, a);
    g16_ntt_coset_inverse_rn(d, a);
}

/* ---------------------------------------------------------------------------
 * Reordering and the H step. */

static inline size_t bitrev(size_t i, int bits)
{
    uint64_t v = (uint64_t)i;
    v = ((v >> 1) & 0x5555555555555555ULL) | ((v & 0x5555555555555555ULL) << 1);
    v = ((v >> 2) & 0x3333333333333333ULL) | ((v & 0x3333333333333333ULL) << 2);
    v = ((v >> 4) & 0x0f0f0f0f0f0f0f0fULL) | ((v & 0x0f0f0f0f0f0f0f0fULL) << 4);
    v = __builtin_bswap64(v);
    return bits ? (size_t)(v >> (64 - bits)) : 0;
}

typedef struct rev_ctx {
    g16_fr *a;
    int bits;
} rev_ctx;

static void rev_range(void *arg, size_t b, size_t e, unsigned worker)
{
    const rev_ctx *c = arg;
    for (size_t i = b; i < e; i++) {
        size_t j = bitrev(i, c->bits);
        if (i < j) {
            g16_fr t = c->a[i];
            c->a[i] = c->a[j];
            c->a[j] = t;
        }
    }
}

void g16_fr_bit_reverse(g16_fr *a, unsigned log_n)
{
    if (log_n == 0) return;
    rev_ctx c = {a, (int)log_n};
    g16_parallel_for((size_t)1 << log_n, 1 << 14, rev_range, &c);
}

void g16_ntt_bit_reverse(const g16_domain *d, g16_fr *a)
{
    g16_fr_bit_reverse(a, (unsigned)d->log_n);
}

typedef struct pw_ctx {
    g16_fr *a;
    const g16_fr *b, *c, *z;
} pw_ctx;

static void pw_range(void *arg, size_t b, size_t e, unsigned worker)
{
    const pw_ctx *h = arg;
    if (g16_ntt_v8_hq(h->a, h->b, h->c, h->z, b, e)) return;
    for (size_t i = b; i < e; i++) {
        g16_fr t = h->a[i];
        if (h->b) g16_fr_mul(&t, &t, &h->b[i]);
        if (h->c) g16_fr_sub(&t, &t, &h->c[i]);
        if (h->z) g16_fr_mul(&t, &t, h->z);
        h->a[i] = t;
    }
}

void g16_ntt_pointwise(g16_fr *a, const g16_fr *b, const g16_fr *c, const g16_fr *z, size_t n)
{
    pw_ctx h = {a, b, c, z};
    g16_parallel_for(n, 1 << 13, pw_range, &h);
}

g16_status g16_ntt_h_step(const g16_domain *d, g16_fr *a, g16_fr *b, g16_fr *c, int bitrev_in)
{
    g16_fr *v[3] = {a, b, c};
    /* n^-1 of the inverse transform rides on the coset scaling: c_j·n^-1·g^j */
    scale coset_in = scale_geo(&d->n_inv, &d->g);
    for (int k = 0; k < 3; k++) {
        if (!bitrev_in) g16_ntt_bit_reverse(d, v[k]);
        run_dit(d, v[k], 1, NULL);
        run_dif(d, v[k], 0, &coset_in);
    }
    /* Z_H(g·ω^i) = g^n - 1 at every point of the coset */
    g16_fr zinv = d->g;
    for (int i = 0; i < d->log_n; i++) g16_fr_sqr(&zinv, &zinv);
    g16_fr_sub(&zinv, &zinv, &g16_fr_one_mont);
    g16_fr_inv(&zinv, &zinv);
    g16_ntt_pointwise(a, b, c, &zinv, d->n);
    g16_ntt_coset_inverse_rn(d, a);
    return G16_OK;
}
