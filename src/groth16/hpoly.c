/* The H step of the prover: h = (a·b − c)/Z from the evaluations of a, b, c on
 * the size-N subgroup, computed on the coset 7·H where Z = 7^N − 1 is a nonzero
 * constant (bellperson's ifft → coset_fft → mul/sub → divide_by_z_on_coset →
 * icoset_fft).
 *
 * The transforms here are a plain radix-2 NTT, natural order in and out, split
 * over the default pool stage by stage.  The domain (ω from generator 7) is the
 * one the NTT layer defines; when that layer's transforms are available they
 * should replace these (same results, faster). */
#include <stdlib.h>
#include <string.h>

#include "common/pool.h"
#include "groth16/groth16.h"

typedef struct {
    g16_fr *w;
    const g16_fr *tw; /* ω^j (or ω^−j), j < N/2 */
    size_t half, stride, n;
    unsigned log_n;
} stage_ctx;

static size_t bitrev(size_t x, unsigned bits)
{
    size_t r = 0;
    for (unsigned i = 0; i < bits; i++, x >>= 1) r = (r << 1) | (x & 1);
    return r;
}

static void do_bitrev(void *vctx, size_t b, size_t e, unsigned worker)
{
    stage_ctx *c = vctx;
    for (size_t i = b; i < e; i++) {
        size_t j = bitrev(i, c->log_n);
        if (i < j) {
            g16_fr t = c->w[i];
            c->w[i] = c->w[j];
            c->w[j] = t;
        }
    }
}

/* Butterflies k in [b, e) of one stage: k = block·half + offset. */
static void do_stage(void *vctx, size_t b, size_t e, unsigned worker)
{
    stage_ctx *c = vctx;
    for (size_t k = b; k < e; k++) {
        size_t blk = k / c->half, off = k % c->half;
        size_t i = blk * 2 * c->half + off, j = i + c->half;
        g16_fr t;
        g16_fr_mul(&t, &c->w[j], &c->tw[off * c->stride]);
        g16_fr_sub(&c->w[j], &c->w[i], &t);
        g16_fr_add(&c->w[i], &c->w[i], &t);
    }
}

typedef struct {
    g16_fr *w;
    g16_fr g, scale; /* multiply entry i by scale·g^i */
} pow_ctx;

static void do_powscale(void *vctx, size_t b, size_t e, unsigned worker)
{
    pow_ctx *c = vctx;
    g16_fr f;
    uint64_t ex[1] = {b};
    g16_fr_pow(&f, &c->g, ex, 1);
    g16_fr_mul(&f, &f, &c->scale);
    for (size_t i = b; i < e; i++) {
        g16_fr_mul(&c->w[i], &c->w[i], &f);
        g16_fr_mul(&f, &f, &c->g);
    }
}

typedef struct {
    g16_fr *tw;
    g16_fr root;
} tw_ctx;

static void do_twiddles(void *vctx, size_t b, size_t e, unsigned worker)
{
    tw_ctx *c = vctx;
    uint64_t ex[1] = {b};
    g16_fr f;
    g16_fr_pow(&f, &c->root, ex, 1);
    for (size_t i = b; i < e; i++) {
        c->tw[i] = f;
        g16_fr_mul(&f, &f, &c->root);
    }
}

void g16_h_ntt(g16_fr *w, unsigned log_n, int inverse, int coset)
{
    size_t n = (size_t)1 << log_n;
    g16_fr seven;
    g16_fr_from_u64(&seven, 7);
    if (coset && !inverse) {
        pow_ctx pc = {w, seven, g16_fr_one_mont};
        g16_parallel_for(n, 4096, do_powscale, &pc);
    }
    if (n > 1) {
        tw_ctx tc;
        g16_domain_root(&tc.root, log_n);
        if (inverse) g16_fr_inv(&tc.root, &tc.root);
        /* Twiddles cost N/2 muls per transform: small next to the N/2·log N butterflies. */
        tc.tw = malloc((n / 2) * sizeof *tc.tw);
        if (!tc.tw) abort(); /* sized like the buffers the caller already holds */
        g16_parallel_for(n / 2, 4096, do_twiddles, &tc);
        stage_ctx sc = {w, tc.tw, 0, 0, n, log_n};
        g16_parallel_for(n, 8192, do_bitrev, &sc);
        for (size_t half = 1; half < n; half *= 2) {
            sc.half = half;
            sc.stride = n / (2 * half);
            g16_parallel_for(n / 2, 4096, do_stage, &sc);
        }
        free(tc.tw);
    }
    if (inverse) {
        pow_ctx pc;
        pc.w = w;
        g16_fr_from_u64(&pc.scale, n);
        g16_fr_inv(&pc.scale, &pc.scale);
        if (coset)
            g16_fr_inv(&pc.g, &seven);
        else
            pc.g = g16_fr_one_mont;
        g16_parallel_for(n, 4096, do_powscale, &pc);
    }
}

void g16_h_to_coset(g16_fr *w, unsigned log_n)
{
    g16_h_ntt(w, log_n, 1, 0);
    g16_h_ntt(w, log_n, 0, 1);
}

typedef struct {
    g16_fr *wa;
    const g16_fr *wb, *wc;
    g16_fr zinv;
} comb_ctx;

static void do_combine(void *vctx, size_t b, size_t e, unsigned worker)
{
    comb_ctx *c = vctx;
    for (size_t i = b; i < e; i++) {
        g16_fr t = c->wa[i];
        if (c->wb) g16_fr_mul(&t, &t, &c->wb[i]);
        g16_fr_sub(&t, &t, &c->wc[i]);
        g16_fr_mul(&c->wa[i], &t, &c->zinv);
    }
}

void g16_h_combine(g16_fr *wa, const g16_fr *wb, const g16_fr *wc, unsigned log_n)
{
    size_t n = (size_t)1 << log_n;
    comb_ctx cc = {wa, wb, wc, {{0}}};
    /* Z on the coset: (7ω^i)^N − 1 = 7^N − 1 for every i. */
    g16_fr seven, one;
    g16_fr_from_u64(&seven, 7);
    g16_fr_set_one(&one);
    uint64_t ex[1] = {n};
    g16_fr_pow(&cc.zinv, &seven, ex, 1);
    g16_fr_sub(&cc.zinv, &cc.zinv, &one);
    g16_fr_inv(&cc.zinv, &cc.zinv);
    g16_parallel_for(n, 4096, do_combine, &cc);
    g16_h_ntt(wa, log_n, 1, 1);
}

typedef struct {
    g16_fr *wa;
    const g16_fr *wb;
} mul_ctx;

static void do_mul(void *vctx, size_t b, size_t e, unsigned worker)
{
    mul_ctx *c = vctx;
    for (size_t i = b; i < e; i++) g16_fr_mul(&c->wa[i], &c->wa[i], &c->wb[i]);
}

void g16_h_mul(g16_fr *wa, const g16_fr *wb, unsigned log_n)
{
    mul_ctx mc = {wa, wb};
    g16_parallel_for((size_t)1 << log_n, 4096, do_mul, &mc);
}

void g16_h_coeffs(g16_fr *wa, g16_fr *wb, g16_fr *wc, unsigned log_n)
{
    g16_h_to_coset(wa, log_n);
    g16_h_to_coset(wb, log_n);
    g16_h_to_coset(wc, log_n);
    g16_h_combine(wa, wb, wc, log_n);
}
