/* snarkjs's evaluation domain: radix-2 NTT with roots from 5, and the odd-point
 * quotient evaluation of its prover.  Separate from the NTT layer because that
 * layer's domain takes its roots from the 2-adic generator 7: both give n-th roots
 * of unity, but different ones, and snarkjs's H points only fit its own. */
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "common/fault.h"
#include "common/pool.h"
#include "ntt/ntt.h"
#include "field/x86_64/inline.h"
#include "groth16/ops.h"
#include "groth16/snarkjs_prove.h"

/* Butterfly additions inline where available (each butterfly is one
 * multiplication and one addition and subtraction). */
#if G16_FP_INLINE
#define FR_ADD g16_fr_add_inl
#define FR_SUB g16_fr_sub_inl
#else
#define FR_ADD g16_fr_add
#define FR_SUB g16_fr_sub
#endif

void g16_sj_root(g16_fr *out, unsigned log_n)
{
    /* (r − 1) >> log_n: r − 1 = 2^s·t (s = G16_SJ_TWO_ADICITY), so the shift never
     * drops a set bit for log_n <= s. */
    uint64_t e[4];
    memcpy(e, g16_fr_modulus, sizeof e);
    e[0] -= 1;
    for (unsigned k = 0; k < log_n; k++) {
        for (int i = 0; i < 3; i++) e[i] = (e[i] >> 1) | (e[i + 1] << 63);
        e[3] >>= 1;
    }
    g16_fr five;
    g16_fr_from_u64(&five, 5);
    g16_fr_pow(out, &five, e, 4);
}

typedef struct stage_ctx {
    g16_fr *x;
    const g16_fr *tw;   /* tw[i] = ω^i, i < n/2 */
    unsigned log_half;  /* butterfly span m = 2^log_half */
    unsigned tw_shift;  /* stage root = ω^(n/2m): index stride */
} stage_ctx;

static void stage_fn(void *vctx, size_t begin, size_t end, unsigned worker)
{
    (void)worker;
    const stage_ctx *c = vctx;
    size_t m = (size_t)1 << c->log_half;
    for (size_t t = begin; t < end; t++) {
        size_t blk = t >> c->log_half, i = t & (m - 1); /* shifts: a division per butterfly costs more than the add */
        g16_fr *u = &c->x[blk * 2 * m + i], *v = u + m, tv;
        g16_fr_mul(&tv, v, &c->tw[i << c->tw_shift]);
        FR_SUB(v, u, &tv);
        FR_ADD(u, u, &tv);
    }
}


/* The first stages touch only blocks of 2^NTT_BLOCK_LOG consecutive elements
 * (32 KiB, L1-sized): one task runs all of them on its block, instead of one
 * parallel pass over the whole vector per stage. */
#define NTT_BLOCK_LOG 10

typedef struct block_ctx {
    g16_fr *x;
    const g16_fr *tw;
    unsigned log_n, stages; /* stages 1..stages run inside each block */
} block_ctx;

static void block_fn(void *vctx, size_t begin, size_t end, unsigned worker)
{
    (void)worker;
    const block_ctx *c = vctx;
    size_t bs = (size_t)1 << c->stages;
    for (size_t blk = begin; blk < end; blk++) {
        g16_fr *xb = c->x + blk * bs;
        for (unsigned s = 1; s <= c->stages; s++) {
            size_t m = (size_t)1 << (s - 1);
            unsigned shift = c->log_n - s;
            for (size_t k = 0; k < bs; k += 2 * m) {
                for (size_t i = 0; i < m; i++) {
                    g16_fr *u = &xb[k + i], *v = u + m, tv;
                    g16_fr_mul(&tv, v, &c->tw[i << shift]);
                    FR_SUB(v, u, &tv);
                    FR_ADD(u, u, &tv);
                }
            }
        }
    }
}

typedef struct scale_ctx {
    g16_fr *x;
    const g16_fr *f;  /* per element, or NULL with k */
    g16_fr k;
} scale_ctx;

static void scale_fn(void *vctx, size_t begin, size_t end, unsigned worker)
{
    (void)worker;
    const scale_ctx *c = vctx;
    for (size_t i = begin; i < end; i++) g16_fr_mul(&c->x[i], &c->x[i], c->f ? &c->f[i] : &c->k);
}

/* Decimation in time over a bit-reversed copy, with one shared twiddle table. */
static void ntt_core(g16_fr *x, unsigned log_n, const g16_fr *tw)
{
    size_t n = (size_t)1 << log_n;
    g16_fr_bit_reverse(x, log_n);
    unsigned first = log_n < NTT_BLOCK_LOG ? log_n : NTT_BLOCK_LOG;
    if (first) {
        block_ctx b = {x, tw, log_n, first};
        g16_parallel_for(n >> first, 1, block_fn, &b);
    }
    for (unsigned s = first + 1; s <= log_n; s++) {
        stage_ctx c = {x, tw, s - 1, log_n - s};
        g16_parallel_for(n / 2, n >= 8192 ? 1024 : n / 2, stage_fn, &c);
    }
}

typedef struct geom_ctx {
    g16_fr *t;
    g16_fr start, ratio;
} geom_ctx;

static void geom_fn(void *vctx, size_t begin, size_t end, unsigned worker)
{
    (void)worker;
    const geom_ctx *c = vctx;
    uint64_t e = begin;
    g16_fr_pow(&c->t[begin], &c->ratio, &e, 1);
    g16_fr_mul(&c->t[begin], &c->t[begin], &c->start);
    for (size_t i = begin + 1; i < end; i++) g16_fr_mul(&c->t[i], &c->t[i - 1], &c->ratio);
}

/* t[i] = start·ratio^i for i < n, in parallel pieces (each starts from a power):
 * the twiddle and coset tables were ~2.6 ms of serial products per quotient at 2^16. */
static void geom_fill(g16_fr *t, size_t n, const g16_fr *start, const g16_fr *ratio)
{
    geom_ctx c = {t, *start, *ratio};
    g16_parallel_for(n, n >= 8192 ? 4096 : n, geom_fn, &c);
}

static g16_status make_twiddles(g16_fr **out, unsigned log_n, int inverse)
{
    size_t half = log_n ? (size_t)1 << (log_n - 1) : 1;
    g16_fr *tw = g16_malloc(half * sizeof *tw), w, one;
    if (!tw) return g16_fail(G16_ERR_NOMEM, "NTT twiddles for 2^%u", log_n);
    g16_sj_root(&w, log_n);
    if (inverse) g16_fr_inv(&w, &w);
    g16_fr_set_one(&one);
    geom_fill(tw, half, &one, &w);
    *out = tw;
    return G16_OK;
}

g16_status g16_sj_ntt(g16_fr *x, unsigned log_n, int inverse)
{
    if (log_n > G16_SJ_TWO_ADICITY)
        return g16_fail(G16_ERR_ARG, "NTT of 2^%u: at most 2^%u", log_n, G16_SJ_TWO_ADICITY);
    g16_fr *tw;
    G16_TRY(make_twiddles(&tw, log_n, inverse));
    ntt_core(x, log_n, tw);
    if (inverse) {
        scale_ctx c = {x, NULL, {{0}}};
        g16_fr_from_u64(&c.k, (uint64_t)1 << log_n);
        g16_fr_inv(&c.k, &c.k);
        g16_parallel_for((size_t)1 << log_n, 0, scale_fn, &c);
    }
    free(tw);
    return G16_OK;
}

typedef struct join_ctx {
    g16_fr *out;
    const g16_fr *a, *b, *c;
} join_ctx;

static void join_fn(void *vctx, size_t begin, size_t end, unsigned worker)
{
    (void)worker;
    const join_ctx *j = vctx;
    for (size_t i = begin; i < end; i++) {
        g16_fr t;
        g16_fr_mul(&t, &j->a[i], &j->b[i]);
        g16_fr_sub(&j->out[i], &t, &j->c[i]);
    }
}

typedef struct quot_ctx {
    g16_fr *v[3];
    const g16_fr *fwd, *inv, *shift;
    unsigned log_n;
} quot_ctx;

/* v[k] := odd-point values of the polynomial with values v[k] on the domain */
static void quot_fn(void *vctx, size_t begin, size_t end, unsigned worker)
{
    (void)worker;
    const quot_ctx *q = vctx;
    size_t n = (size_t)1 << q->log_n;
    for (size_t k = begin; k < end; k++) {
        ntt_core(q->v[k], q->log_n, q->inv);
        scale_ctx sc = {q->v[k], q->shift, {{0}}};
        g16_parallel_for(n, 0, scale_fn, &sc);
        ntt_core(q->v[k], q->log_n, q->fwd);
    }
}

g16_status g16_sj_odd_quotient(g16_fr *out, g16_fr *a, g16_fr *b, g16_fr *c, unsigned log_n)
{
    if (log_n >= G16_SJ_TWO_ADICITY) return g16_fail(G16_ERR_ARG, "domain 2^%u: the odd points need 2^%u-th roots", log_n, log_n + 1);
    size_t n = (size_t)1 << log_n;
    g16_fr *fwd = NULL, *inv = NULL, *shift = g16_malloc(n * sizeof *shift);
    g16_status s = shift ? G16_OK : g16_fail(G16_ERR_NOMEM, "odd-point factors for 2^%u", log_n);
    if (s == G16_OK) s = make_twiddles(&fwd, log_n, 0);
    if (s == G16_OK) s = make_twiddles(&inv, log_n, 1);
    if (s == G16_OK) {
        /* shift[i] = ω_2n^i / n folds the inverse transform's 1/n into the coset move. */
        g16_fr w2, ninv;
        g16_sj_root(&w2, log_n + 1);
        g16_fr_from_u64(&ninv, n);
        g16_fr_inv(&ninv, &ninv);
        geom_fill(shift, n, &ninv, &w2);
        /* a and b as two tasks (each transform runs serially inside its task:
         * nested pool calls run inline), then c on the whole pool: each transform
         * is ~17 parallel sections, and at 2^16 their hand-offs cost ~15 % on
         * two threads */
        quot_ctx q = {{a, b, c}, fwd, inv, shift, log_n};
        g16_parallel_for(2, 1, quot_fn, &q);
        quot_fn(&q, 2, 3, 0);
        join_ctx j = {out, a, b, c};
        g16_parallel_for(n, 0, join_fn, &j);
    }
    free(shift);
    free(fwd);
    free(inv);
    return s;
}

/* 1 when the NTT layer's 2^log_n-th root (the one every backend's ntt op uses) is
 * snarkjs's: on BN254 both come from 5; on BLS12-381 the layer's come from 7. */
static int layer_roots_are_snarkjs(unsigned log_n)
{
    g16_fr a, b;
    g16_fr_root_of_unity(&a, (int)log_n);
    g16_sj_root(&b, log_n);
    return g16_fr_eq(&a, &b);
}

/* One of the layer's natural-order transforms, through be's table or (be NULL) the CPU
 * NTT directly, whose IFMA butterflies the snarkjs FFT above lacks. */
static g16_status layer_ntt(g16_backend *be, g16_fr *v, unsigned log_n, g16_ntt_kind kind)
{
    if (be) return be->ops->ntt(be, v, log_n, kind);
    const g16_domain *d;
    G16_TRY(g16_domain_get(&d, (int)log_n));
    if (kind == G16_NTT_INVERSE)
        g16_ntt_inverse_nn(d, v);
    else
        g16_ntt_forward_nn(d, v);
    return G16_OK;
}

g16_status g16_sj_odd_quotient_on(g16_backend *be, g16_fr *out, g16_fr *a, g16_fr *b, g16_fr *c,
                                  unsigned log_n)
{
    if (log_n >= G16_SJ_TWO_ADICITY || !layer_roots_are_snarkjs(log_n))
        return g16_sj_odd_quotient(out, a, b, c, log_n);
    size_t n = (size_t)1 << log_n;
    g16_fr *shift = g16_malloc(n * sizeof *shift);
    if (!shift) return g16_fail(G16_ERR_NOMEM, "odd-point factors for 2^%u", log_n);
    /* the inverse kind includes 1/n, so shift[i] = ω_2n^i alone */
    g16_fr w2, one;
    g16_sj_root(&w2, log_n + 1);
    g16_fr_set_one(&one);
    geom_fill(shift, n, &one, &w2);
    g16_fr *v[3] = {a, b, c};
    g16_status s = G16_OK;
    for (int k = 0; k < 3 && s == G16_OK; k++) {
        s = layer_ntt(be, v[k], log_n, G16_NTT_INVERSE);
        if (s != G16_OK) break;
        scale_ctx sc = {v[k], shift, {{0}}};
        g16_parallel_for(n, 0, scale_fn, &sc);
        s = layer_ntt(be, v[k], log_n, G16_NTT_FORWARD);
    }
    free(shift);
    if (s != G16_OK) return g16_fail_ctx(s, "snarkjs quotient on backend %s", be ? be->name : "none (the CPU NTT)");
    join_ctx j = {out, a, b, c};
    g16_parallel_for(n, 0, join_fn, &j);
    return G16_OK;
}
