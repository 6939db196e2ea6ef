/* Scalar preparation for the MSM: canonical form, density, the 0/1 split. */
#include <stdlib.h>
#include <string.h>

#include "common/bigmem.h"
#include "common/pool.h"
#include "common/fault.h"
#include "curve/curve.h"
#include "msm/msm_internal.h"

/* Blocks are whole bitmap words so a block's first base index is a prefix popcount. */
#define PREP_BLOCK 4096u

g16_status g16_msm_prep_alloc(msm_prep *p, size_t cap, int psi)
{
    memset(p, 0, sizeof *p);
    if (!cap) cap = 1;
#if G16_CURVE_BN254
    if (psi) return G16_ERR_ARG; /* BLS12-381's G2 only */
#endif
    if (psi)
        p->k64 = g16_big_alloc(MSM_PSI_PLANES * cap * sizeof *p->k64);
    else
        p->k = g16_big_alloc(cap * sizeof *p->k);
    p->idx = g16_big_alloc((psi ? MSM_PSI_PLANES : 1) * cap * sizeof *p->idx);
    p->ones = g16_big_alloc(cap * sizeof *p->ones);
    p->cap = cap;
    if ((!p->k && !p->k64) || !p->idx || !p->ones) {
        g16_msm_prep_free(p);
        return G16_ERR_NOMEM;
    }
    return G16_OK;
}

void g16_msm_prep_free(msm_prep *p)
{
    free(p->k);
    free(p->k64);
    free(p->idx);
    free(p->ones);
    memset(p, 0, sizeof *p);
}

size_t g16_msm_popcount(const uint64_t *bitmap, size_t n)
{
    size_t c = 0;
    for (size_t i = 0; i < n / 64; i++) c += (size_t)__builtin_popcountll(bitmap[i]);
    if (n % 64) c += (size_t)__builtin_popcountll(bitmap[n / 64] & (((uint64_t)1 << (n % 64)) - 1));
    return c;
}

typedef struct prep_ctx {
    msm_prep *p;
    const g16_fr *scalars;
    size_t count;
    const uint64_t *density;
    size_t *base_at;    /* per block: base index of its first selected scalar */
    size_t *n_rest;     /* per block: rest entries written at the block's offset */
    size_t *n_one;
    int split;
} prep_ctx;

static void prep_blocks(void *vctx, size_t b0, size_t b1, unsigned worker)
{
    prep_ctx *x = vctx;
    msm_prep *p = x->p;
    static const uint64_t one[4] = {1, 0, 0, 0};
    for (size_t b = b0; b < b1; b++) {
        size_t s = b * PREP_BLOCK, e = s + PREP_BLOCK;
        if (e > x->count) e = x->count;
        size_t base = x->base_at[b], nr = 0, no = 0, rs = p->k64 ? MSM_PSI_PLANES * s : s;
        uint32_t need[MSM_PSI_BATCH]; /* digit form: bases that need their images */
        size_t nneed = 0;
        for (size_t i = s; i < e; i++) {
            if (x->density && !((x->density[i >> 6] >> (i & 63)) & 1)) continue;
            uint32_t bi = (uint32_t)base++;
            uint64_t k[4];
            g16_fr_to_canonical(k, &x->scalars[i]);
            if (!(k[0] | k[1] | k[2] | k[3])) continue;
            if (x->split && !memcmp(k, one, sizeof k)) {
                p->ones[s + no++] = bi;
                continue;
            }
#if !G16_CURVE_BN254
            if (p->k64) {
                /* a small scalar (< |x|) has one digit, so it costs what it did */
                uint64_t d[MSM_PSI_PLANES];
                g16_bls_x_digits(d, k);
                for (uint32_t j = 0; j < MSM_PSI_PLANES; j++) {
                    if (!d[j]) continue;
                    p->k64[rs + nr] = d[j];
                    p->idx[rs + nr] = (j << MSM_PSI_SHIFT) | bi;
                    nr++;
                }
                if (d[1] | d[2] | d[3]) {
                    need[nneed++] = bi;
                    if (nneed == MSM_PSI_BATCH) p->psi_fn(p->psi_ctx, need, nneed), nneed = 0;
                }
                continue;
            }
#endif
            memcpy(p->k[rs + nr], k, sizeof k);
            p->idx[rs + nr] = bi;
            nr++;
        }
        if (nneed) p->psi_fn(p->psi_ctx, need, nneed);
        x->n_rest[b] = nr;
        x->n_one[b] = no;
    }
}

g16_status g16_msm_prep_fill(msm_prep *p, const g16_fr *scalars, size_t count,
                             const uint64_t *density, size_t base0, int split)
{
    size_t nblk = (count + PREP_BLOCK - 1) / PREP_BLOCK;
    size_t *tmp = g16_malloc(3 * (nblk ? nblk : 1) * sizeof *tmp);
    p->m = p->n_ones = 0;
    if (!tmp) return G16_ERR_NOMEM;
    prep_ctx x = {p, scalars, count, density, tmp, tmp + nblk, tmp + 2 * nblk, split};
    size_t base = base0;
    for (size_t b = 0; b < nblk; b++) {
        tmp[b] = base;
        size_t len = count - b * PREP_BLOCK < PREP_BLOCK ? count - b * PREP_BLOCK : PREP_BLOCK;
        base += density ? g16_msm_popcount(density + b * (PREP_BLOCK / 64), len) : len;
    }
    g16_parallel_for(nblk, 1, prep_blocks, &x);
    /* pack the blocks' outputs to the front, in block order (memmove: ranges overlap) */
    size_t m = 0, no = 0;
    for (size_t b = 0; b < nblk; b++) {
        size_t s = b * PREP_BLOCK, rs = p->k64 ? MSM_PSI_PLANES * s : s;
        if (m != rs) {
            if (p->k64)
                memmove(p->k64 + m, p->k64 + rs, x.n_rest[b] * sizeof *p->k64);
            else
                memmove(p->k[m], p->k[rs], x.n_rest[b] * sizeof *p->k);
            memmove(p->idx + m, p->idx + rs, x.n_rest[b] * sizeof *p->idx);
        }
        if (no != s) memmove(p->ones + no, p->ones + s, x.n_one[b] * sizeof *p->ones);
        m += x.n_rest[b];
        no += x.n_one[b];
    }
    p->m = m;
    p->n_ones = no;
    free(tmp);
    return G16_OK;
}
