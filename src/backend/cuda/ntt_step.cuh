// The index arithmetic of the NTT passes (ntt.cu), as __host__ __device__ code so
// that tests/gpu/host_ntt.cu runs the exact schedule of a pass on the host.
//
// A pass works on bits [lo, lo+k) of the index: its tile holds R = 2^k rows
// (elements 2^lo apart) × C = 2^log_c adjacent columns; tile row r, column c is
// global element base + r·2^lo + c, stored at shared slot r·C + c.  A stage st
// (0 ≤ st < k) pairs rows r and r + 2^st; its twiddle is ω^e with
//   e = (((r mod 2^st)·2^lo + column) · 2^(log_n − lo − st − 1)),
// column = the global low index (block column base + c).
//
// Radix 2: one butterfly per work unit and stage.  Radix 4: two stages per work
// unit (rows b, b+h, b+2h, b+3h, h = 2^s), so each element makes one shared-memory
// round trip per two stages and the block synchronises half as often.
#ifndef G16_BACKEND_CUDA_NTT_STEP_CUH
#define G16_BACKEND_CUDA_NTT_STEP_CUH

#include <string.h>

#include "field.cuh"

#define NTT_LOW_STAGES 10u
#define NTT_HIGH_STAGES 9u
#define NTT_TILE 1024u  // elements per block tile (32 KiB of shared memory)

G16_HD void ntt_ld(g16_dfr &d, const g16_dfr *p)
{
#ifdef __CUDA_ARCH__
    const uint4 *q = (const uint4 *)p;
    uint4 a = q[0], b = q[1];
    d.l[0] = a.x, d.l[1] = a.y, d.l[2] = a.z, d.l[3] = a.w;
    d.l[4] = b.x, d.l[5] = b.y, d.l[6] = b.z, d.l[7] = b.w;
#else
    memcpy(&d, p, sizeof d);
#endif
}
G16_HD void ntt_st(g16_dfr *p, const g16_dfr &d)
{
#ifdef __CUDA_ARCH__
    uint4 *q = (uint4 *)p;
    q[0] = make_uint4(d.l[0], d.l[1], d.l[2], d.l[3]);
    q[1] = make_uint4(d.l[4], d.l[5], d.l[6], d.l[7]);
#else
    memcpy(p, &d, sizeof d);
#endif
}

// Pass plan, from the low bits up: the low pass takes up to `low` stages (10, the
// default; 9 is the A/B knob G16_CUDA_NTT_LOW: whole radix-8 steps) with one
// column; the rest is split evenly into passes of at most `high` stages (9, the
// default: 2^27 in 3 passes, a 9-stage pass has 2-column tiles, 64-byte row
// segments; 8: 4 passes, tiles of ≥ 4 columns, 128-byte segments).
struct ntt_plan {
    unsigned np, lo[8], k[8], log_c[8];
};

G16_HD ntt_plan ntt_make_plan(unsigned log_n, unsigned high = NTT_HIGH_STAGES,
                              unsigned low = NTT_LOW_STAGES)
{
    ntt_plan p;
    p.np = 0;
    if (log_n == 0) return p;
    unsigned k0 = log_n < low ? log_n : low;
    p.lo[0] = 0, p.k[0] = k0, p.np = 1;
    unsigned rest = log_n - k0, lo = k0;
    if (rest) {
        unsigned parts = (rest + high - 1) / high;
        for (unsigned i = 0; i < parts; i++) {
            unsigned k = rest / parts + (i < rest % parts ? 1 : 0);
            p.lo[p.np] = lo, p.k[p.np++] = k;
            lo += k;
        }
    }
    for (unsigned i = 0; i < p.np; i++) {
        // columns: fill the tile, but never more than the 2^lo adjacent entries
        unsigned c = 0;
        while (c < p.lo[i] && (1u << (p.k[i] + c + 1)) <= NTT_TILE) c++;
        p.log_c[i] = c;
    }
    return p;
}

G16_HD uint32_t ntt_tw_index(unsigned log_n, unsigned lo, unsigned st, uint32_t r, uint32_t col)
{
    return (((r & ((1u << st) - 1)) << lo) | col) << (log_n - lo - st - 1);
}

// Steps of a pass: groups of up to lg_r stages (radix 2^lg_r: 1, 2 or 3) cut from
// the bottom, so the group holding stage 0 is always whole; DIT runs them upwards,
// DIF downwards (radix 8 with k = 10: DIT 0-2, 3-5, 6-8, 9; DIF 9, 8-6, 5-3, 2-0).
// In the low pass (lo = 0) the group at stage 0 has uniform trivial twiddles
// (ntt_step3), so keeping it whole in both directions is what lets them be skipped.
G16_HD unsigned ntt_step_count(unsigned k, unsigned lg_r) { return (k + lg_r - 1) / lg_r; }

// Step i: *st = the lowest stage of the group, *g = its number of stages.
G16_HD void ntt_step_at(bool dit, unsigned lg_r, unsigned k, unsigned i, unsigned *st, unsigned *g)
{
    if (!dit) i = ntt_step_count(k, lg_r) - 1 - i;
    *st = i * lg_r;
    *g = k - *st < lg_r ? k - *st : lg_r;
}

// Work units of a step of g stages: (rows / 2^g) × columns.
G16_HD uint32_t ntt_step_units(unsigned k, unsigned log_c, unsigned g)
{
    return (1u << (k - g)) << log_c;
}


// One work unit u of the step with lower stage st (and st+1 when pair).
template <bool DIT>
G16_HD void ntt_step(g16_dfr *s, const g16_dfr *tw, unsigned log_n, unsigned lo, unsigned log_c,
                     uint32_t col_base, unsigned st, bool pair, uint32_t u)
{
    const uint32_t c = u & ((1u << log_c) - 1), v = u >> log_c, col = col_base + c;
    const uint32_t h = 1u << st;
    if (!pair) {
        const uint32_t r0 = ((v >> st) << (st + 1)) | (v & (h - 1)), r1 = r0 + h;
        g16_dfr w, a, b;
        ntt_ld(w, &tw[ntt_tw_index(log_n, lo, st, r0, col)]);
        ntt_ld(a, &s[(r0 << log_c) + c]);
        ntt_ld(b, &s[(r1 << log_c) + c]);
        if (DIT) {
            b = b * w;
            ntt_st(&s[(r0 << log_c) + c], a + b);
            ntt_st(&s[(r1 << log_c) + c], a - b);
        } else {
            ntt_st(&s[(r0 << log_c) + c], a + b);
            ntt_st(&s[(r1 << log_c) + c], (a - b) * w);
        }
        return;
    }
    const uint32_t b0 = ((v >> st) << (st + 2)) | (v & (h - 1));
    g16_dfr x0, x1, x2, x3, w_lo, w_hi0, w_hi1;
    ntt_ld(x0, &s[(b0 << log_c) + c]);
    ntt_ld(x1, &s[((b0 + h) << log_c) + c]);
    ntt_ld(x2, &s[((b0 + 2 * h) << log_c) + c]);
    ntt_ld(x3, &s[((b0 + 3 * h) << log_c) + c]);
    ntt_ld(w_lo, &tw[ntt_tw_index(log_n, lo, st, b0, col)]);
    ntt_ld(w_hi0, &tw[ntt_tw_index(log_n, lo, st + 1, b0, col)]);
    ntt_ld(w_hi1, &tw[ntt_tw_index(log_n, lo, st + 1, b0 + h, col)]);
    if (DIT) {
        // stage st: (x0, x1), (x2, x3); then stage st+1: (x0, x2), (x1, x3)
        g16_dfr t = x1 * w_lo;
        x1 = x0 - t, x0 = x0 + t;
        t = x3 * w_lo;
        x3 = x2 - t, x2 = x2 + t;
        t = x2 * w_hi0;
        x2 = x0 - t, x0 = x0 + t;
        t = x3 * w_hi1;
        x3 = x1 - t, x1 = x1 + t;
    } else {
        // stage st+1: (x0, x2), (x1, x3); then stage st: (x0, x1), (x2, x3)
        g16_dfr t = x0 - x2;
        x0 = x0 + x2, x2 = t * w_hi0;
        t = x1 - x3;
        x1 = x1 + x3, x3 = t * w_hi1;
        t = x0 - x1;
        x0 = x0 + x1, x1 = t * w_lo;
        t = x2 - x3;
        x2 = x2 + x3, x3 = t * w_lo;
    }
    ntt_st(&s[(b0 << log_c) + c], x0);
    ntt_st(&s[((b0 + h) << log_c) + c], x1);
    ntt_st(&s[((b0 + 2 * h) << log_c) + c], x2);
    ntt_st(&s[((b0 + 3 * h) << log_c) + c], x3);
}

// One work unit of a three-stage group (radix 8): rows b0 + t·h, t < 8, h = 2^st.
// Stage st + j pairs t and t + 2^j; its twiddle depends on the lower row modulo
// 2^(st+j), i.e. on t mod 2^j: 1, 2 and 4 twiddles for the three stages, 12
// products for 8 elements (radix 4: 4 for 4).  DIT runs the stages upwards, DIF
// downwards with the product after the difference.  With lo = 0 and st = 0 (the
// column is 0 and b0 ≡ 0 mod 8) twiddle q of every stage is ω^(q·2^(log_n−j−1)):
// q = 0 is ω^0 = 1 for all threads alike, so 7 of the 12 products are skipped —
// 7/8 of a product per element of a transform, ≈ 6% of a 2^27 NTT's products.
template <bool DIT>
G16_HD void ntt_step3(g16_dfr *s, const g16_dfr *tw, unsigned log_n, unsigned lo, unsigned log_c,
                      uint32_t col_base, unsigned st, uint32_t u)
{
    const uint32_t c = u & ((1u << log_c) - 1), v = u >> log_c, col = col_base + c;
    const uint32_t h = 1u << st, b0 = ((v >> st) << (st + 3)) | (v & (h - 1));
    const bool w0_one = lo == 0 && st == 0;
    g16_dfr x[8], w[4];
#pragma unroll
    for (int t = 0; t < 8; t++) ntt_ld(x[t], &s[((b0 + t * h) << log_c) + c]);
#pragma unroll
    for (int jj = 0; jj < 3; jj++) {
        const int j = DIT ? jj : 2 - jj, half = 1 << j;
#pragma unroll
        for (int q = 0; q < half; q++)
            if (q || !w0_one) ntt_ld(w[q], &tw[ntt_tw_index(log_n, lo, st + j, b0 + q * h, col)]);
#pragma unroll
        for (int t = 0; t < 8; t++) {
            if (t & half) continue;
            const int q = t & (half - 1);
            const bool one = q == 0 && w0_one;
            if (DIT) {
                g16_dfr m = x[t + half];
                if (!one) m = m * w[q];
                x[t + half] = x[t] - m;
                x[t] = x[t] + m;
            } else {
                g16_dfr d = x[t] - x[t + half];
                x[t] = x[t] + x[t + half];
                if (one) x[t + half] = d;
                else x[t + half] = d * w[q];
            }
        }
    }
#pragma unroll
    for (int t = 0; t < 8; t++) ntt_st(&s[((b0 + t * h) << log_c) + c], x[t]);
}

#endif
