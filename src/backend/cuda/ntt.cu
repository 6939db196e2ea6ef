// Fr NTT and the Groth16 H step on the device.
//
// Transforms run several stages per kernel (radix 8 by default: three stages per
// shared-memory round trip, ntt_step.cuh): a block loads a tile of
// 2^k rows (elements 2^lo apart) × C adjacent columns into shared memory, runs
// the k stages whose butterfly distances are 2^lo .. 2^(lo+k-1) there, and writes
// the tile back, so a 2^27 transform makes 3 passes over device memory.  The low
// pass (lo = 0) takes 10 stages with C = 1; the upper passes take ≤ 9 stages with
// C = 1024 / 2^k columns, so each row segment read is ≥ 64 contiguous bytes
// (G16_CUDA_NTT_HIGH=8: ≤ 8 stages, ≥ 128 bytes, 4 passes at 2^27, 1.5% slower).
//
// Orders: Gentleman–Sande (DIF) maps natural → bit-reversed and Cooley–Tukey (DIT)
// bit-reversed → natural, so the H step (inverse, coset forward, pointwise, coset
// inverse) needs no reordering until its final output, where the reorder is fused
// with the last scaling.  Twiddles ω^m (m < n/2) are tabulated once per size and
// direction and cached in the context.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <chrono>
#include <new>

#include "internal.cuh"
#include "ntt_step.cuh"

extern "C" {
#include "field/fr.h"
#include "ntt/ntt.h"
}

// The roots of unity and the coset generator are the CPU NTT layer's (ntt/ntt.h: from 7
// on BLS12-381, from 5 on BN254).  This file is compiled once per curve
// (src/bn254/cuda_sources.txt); the context's twiddle cache is indexed by G16_CUDA_CURVE.

__device__ __forceinline__ uint32_t bitrev(uint32_t j, unsigned log_n)
{
    return log_n ? __brev(j) >> (32 - log_n) : 0;
}

// One pass of k stages on bits [lo, lo+k) of the index (ntt_step.cuh has the
// index arithmetic); LGR stages per shared-memory round trip (radix 2^LGR).
template <bool DIT, int LGR>
__global__ void __launch_bounds__(512) ntt_pass(g16_dfr *x, const g16_dfr *tw, unsigned log_n,
                                                unsigned lo, unsigned k, unsigned log_c)
{
    extern __shared__ uint4 smem_raw[];
    g16_dfr *s = (g16_dfr *)smem_raw;
    const uint32_t C = 1u << log_c, nb_low = 1u << (lo - log_c), tile = 1u << (k + log_c);
    const uint32_t lg = blockIdx.x & (nb_low - 1), hi = blockIdx.x >> (lo - log_c);
    const size_t base = ((size_t)hi << (lo + k)) + (size_t)lg * C;
    const uint32_t nthr = blockDim.x;
    for (uint32_t t = threadIdx.x; t < tile; t += nthr) {
        g16_dfr v;
        ntt_ld(v, &x[base + ((size_t)(t >> log_c) << lo) + (t & (C - 1))]);
        ntt_st(&s[t], v);
    }
    __syncthreads();
    const unsigned steps = ntt_step_count(k, LGR);
    for (unsigned i = 0; i < steps; i++) {
        unsigned stage, g;
        ntt_step_at(DIT, LGR, k, i, &stage, &g);
        const uint32_t units = ntt_step_units(k, log_c, g);
        for (uint32_t u = threadIdx.x; u < units; u += nthr) {
            if (LGR == 3 && g == 3) ntt_step3<DIT>(s, tw, log_n, lo, log_c, lg * C, stage, u);
            else ntt_step<DIT>(s, tw, log_n, lo, log_c, lg * C, stage, g == 2, u);
        }
        __syncthreads();
    }
    for (uint32_t t = threadIdx.x; t < tile; t += nthr) {
        g16_dfr v;
        ntt_ld(v, &s[t]);
        ntt_st(&x[base + ((size_t)(t >> log_c) << lo) + (t & (C - 1))], v);
    }
}

__global__ void fill_twiddles(g16_dfr *w, const g16_dfr *pow_t, size_t m)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < m) ntt_st(&w[i], g16_pow_lookup(pow_t, (uint32_t)i));
}

// out[scatter ? bitrev(j) : j] = in[j] · f · base^(in_bitrev ? bitrev(j) : j),
// with f and base folded into the power table.  out may equal in when !scatter.
__global__ void scale_kernel(g16_dfr *out, const g16_dfr *in, const g16_dfr *pow_t, unsigned log_n,
                             int in_bitrev, int scatter)
{
    size_t j = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (j >> log_n) return;
    uint32_t rj = bitrev((uint32_t)j, log_n);
    g16_dfr v;
    ntt_ld(v, &in[j]);
    v = v * g16_pow_lookup(pow_t, in_bitrev ? rj : (uint32_t)j);
    ntt_st(&out[scatter ? rj : j], v);
}

// The same for bit-reversed input (in_bitrev), with a running power: lane l of a warp
// takes the elements j = l + 32·bitrev(q) (over log_n − 5 bits) for G16_SCALE_RUN
// consecutive q, whose coefficient index k = bitrev(j) = bitrev5(l)·2^(log_n−5) + q
// runs consecutively, so each factor is the previous one times base: two products an
// element instead of the table's three, and a warp still reads 32 adjacent elements.
// (The coset scalings of a 2^26 H step: 4 × 4.2 ms with the table, session 7's ncu.)
// log_n ≥ 10; out may equal in when !scatter.
#define G16_SCALE_RUN 16
__global__ void scale_run_kernel(g16_dfr *out, const g16_dfr *in, const g16_dfr *pow_t,
                                 g16_dfr base, unsigned log_n, int scatter)
{
    const size_t gt = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    const uint32_t lane = (uint32_t)gt & 31, q0 = (uint32_t)(gt >> 5) * G16_SCALE_RUN;
    const unsigned lq = log_n - 5;
    if (q0 >> lq) return;
    const uint32_t hi = bitrev(lane, 5) << lq;
    g16_dfr f = g16_pow_lookup(pow_t, hi + q0);
#pragma unroll 4
    for (uint32_t q = q0; q < q0 + G16_SCALE_RUN; q++) {
        const uint32_t j = lane + (bitrev(q, lq) << 5);
        g16_dfr v;
        ntt_ld(v, &in[j]);
        ntt_st(&out[scatter ? hi + q : j], v * f);
        f = f * base;
    }
}

// scale_kernel with in_bitrev, through scale_run_kernel where the size allows.
static g16_status scale_bitrev(g16_cuda_ctx *ctx, g16_dfr *out, const g16_dfr *in,
                               const g16_dfr *pow_t, const g16_fr &base, unsigned log_n,
                               int scatter);

__global__ void permute_kernel(g16_dfr *out, const g16_dfr *in, unsigned log_n)
{
    size_t j = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (j >> log_n) return;
    g16_dfr v;
    ntt_ld(v, &in[j]);
    ntt_st(&out[bitrev((uint32_t)j, log_n)], v);
}

// a = (a·b − c)·zinv on the coset.
__global__ void h_pointwise(g16_dfr *a, const g16_dfr *b, const g16_dfr *c, g16_dfr zinv, size_t n)
{
    size_t j = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (j >= n) return;
    g16_dfr x, y, z;
    ntt_ld(x, &a[j]);
    ntt_ld(y, &b[j]);
    ntt_ld(z, &c[j]);
    ntt_st(&a[j], (x * y - z) * zinv);
}

// ---- host side ------------------------------------------------------------------
static inline unsigned grid_for(size_t n, unsigned threads)
{
    return (unsigned)((n + threads - 1) / threads);
}

static g16_dfr dfr_of(const g16_fr &h)
{
    g16_dfr r;
    memcpy(&r, &h, sizeof r);
    return r;
}

static g16_status scale_bitrev(g16_cuda_ctx *ctx, g16_dfr *out, const g16_dfr *in,
                               const g16_dfr *pow_t, const g16_fr &base, unsigned log_n,
                               int scatter)
{
    const size_t n = (size_t)1 << log_n;
    if (log_n >= 10 && !getenv("G16_CUDA_SCALE_TABLE")) {
        scale_run_kernel<<<grid_for(n / G16_SCALE_RUN, 256), 256, 0, ctx->stream>>>(
            out, in, pow_t, dfr_of(base), log_n, scatter);
        CK_LAUNCH("scale_run_kernel");
    } else {
        scale_kernel<<<grid_for(n, 256), 256, 0, ctx->stream>>>(out, in, pow_t, log_n, 1, scatter);
        CK_LAUNCH("scale_kernel");
    }
    return G16_OK;
}

// ω_n (or its inverse) for n = 2^log_n, the CPU layer's root.
static g16_fr root_of_unity(unsigned log_n, int inverse)
{
    g16_fr w;
    g16_fr_root_of_unity(&w, (int)log_n);
    if (inverse) g16_fr_inv(&w, &w);
    return w;
}

// The host side of a power table (internal.cuh's g16_pow_lookup): T[i] = f·b^i,
// T[1024 + i] = b^(1024·i), T[2048 + i] = b^(2^20·i), with this curve's Fr.
static void pow_table_host(g16_dfr *t, const g16_dfr *base, const g16_dfr *f)
{
    g16_fr b, step, acc;
    memcpy(&b, base, sizeof b);
    memcpy(&acc, f, sizeof acc);
    for (int i = 0; i < 1024; i++) {
        memcpy(&t[i], &acc, sizeof acc);
        g16_fr_mul(&acc, &acc, &b);
    }
    for (int level = 1; level < 3; level++) {
        step = b;
        for (int i = 0; i < 10 * level; i++) g16_fr_sqr(&step, &step);
        g16_fr_set_one(&acc);
        for (int i = 0; i < 1024; i++) {
            memcpy(&t[1024 * level + i], &acc, sizeof acc);
            g16_fr_mul(&acc, &acc, &step);
        }
    }
}

// Uploads the power table of (base, f) into table slot `which` (0..3) of SLOT_POW.
static g16_status pow_table(g16_cuda_ctx *ctx, g16_dfr **out, int which, const g16_fr &base,
                            const g16_fr &f)
{
    static_assert(sizeof(g16_dfr) == 32, "Fr size");
    void *p;
    G16_TRY(g16_cuda_scratch(ctx, &p, SLOT_POW, 4 * G16_POW_TABLE * sizeof(g16_dfr)));
    g16_dfr *host = new (std::nothrow) g16_dfr[G16_POW_TABLE];
    if (!host) return g16_fail(G16_ERR_NOMEM, "CUDA NTT: power table");
    g16_dfr b = dfr_of(base), ff = dfr_of(f);
    pow_table_host(host, &b, &ff);
    g16_dfr *dev = (g16_dfr *)p + (size_t)which * G16_POW_TABLE;
    g16_status s = g16_cuda_upload(ctx, dev, host, G16_POW_TABLE * sizeof(g16_dfr));
    delete[] host;
    *out = dev;
    return s;
}

static g16_status twiddles(g16_cuda_ctx *ctx, const g16_dfr **out, unsigned log_n, int inverse)
{
    if (!ctx->tw[G16_CUDA_CURVE][inverse][log_n]) {
        size_t m = log_n ? (size_t)1 << (log_n - 1) : 1;
        g16_dfr *w;
        CK(cudaMalloc((void **)&w, m * sizeof(g16_dfr)));
        g16_fr one;
        g16_fr_set_one(&one);
        g16_dfr *pt;
        g16_status s = pow_table(ctx, &pt, 3, root_of_unity(log_n, inverse), one);
        if (s == G16_OK) {
            fill_twiddles<<<grid_for(m, 256), 256, 0, ctx->stream>>>(w, pt, m);
            cudaError_t e = cudaGetLastError();
            if (e == cudaSuccess) e = cudaStreamSynchronize(ctx->stream);
            if (e != cudaSuccess) s = g16_cuda_fail(e, "fill_twiddles", __FILE__, __LINE__);
        }
        if (s != G16_OK) {
            cudaFree(w);
            return s;
        }
        ctx->tw[G16_CUDA_CURVE][inverse][log_n] = w;
    }
    *out = (const g16_dfr *)ctx->tw[G16_CUDA_CURVE][inverse][log_n];
    return G16_OK;
}

// All stages: DIF (natural -> bit-reversed) or DIT (bit-reversed -> natural).
static g16_status run_passes(g16_cuda_ctx *ctx, g16_dfr *x, unsigned log_n, int inverse, bool dit)
{
    if (log_n == 0) return G16_OK;
    const g16_dfr *tw;
    G16_TRY(twiddles(ctx, &tw, log_n, inverse));
    // G16_CUDA_NTT_HIGH=8 or 9: the longest upper pass (A/B knob; see ntt_make_plan).
    const char *hv = getenv("G16_CUDA_NTT_HIGH");
    const unsigned high = hv && (atoi(hv) == 8 || atoi(hv) == 9) ? (unsigned)atoi(hv) : NTT_HIGH_STAGES;
    // G16_CUDA_NTT_LOW=9 or 10: the low pass's stages (A/B knob).
    const char *lv = getenv("G16_CUDA_NTT_LOW");
    const unsigned low = lv && (atoi(lv) == 9 || atoi(lv) == 10) ? (unsigned)atoi(lv) : NTT_LOW_STAGES;
    const ntt_plan plan = ntt_make_plan(log_n, high, low);
    const int lgr = ctx->ntt_radix == 8 ? 3 : ctx->ntt_radix == 4 ? 2 : 1;
    for (unsigned i = 0; i < plan.np; i++) {
        unsigned p = dit ? i : plan.np - 1 - i, lo = plan.lo[p], k = plan.k[p], lc = plan.log_c[p];
        size_t tile = (size_t)1 << (k + lc);
        unsigned blocks = (unsigned)(((size_t)1 << log_n) / tile);
        unsigned threads = (unsigned)(tile >> lgr);
        if (threads == 0) threads = 1;
        size_t sm = tile * sizeof(g16_dfr);
#define NTT_LAUNCH(D, L) ntt_pass<D, L><<<blocks, threads, sm, ctx->stream>>>(x, tw, log_n, lo, k, lc)
        if (dit) {
            if (lgr == 3) NTT_LAUNCH(true, 3);
            else if (lgr == 2) NTT_LAUNCH(true, 2);
            else NTT_LAUNCH(true, 1);
        } else {
            if (lgr == 3) NTT_LAUNCH(false, 3);
            else if (lgr == 2) NTT_LAUNCH(false, 2);
            else NTT_LAUNCH(false, 1);
        }
#undef NTT_LAUNCH
        CK_LAUNCH("ntt_pass");
    }
    return G16_OK;
}

// Transform of the device array x (tmp: scratch of the same size); *res is x or tmp.
static g16_status ntt_dev(g16_cuda_ctx *ctx, g16_dfr **res, g16_dfr *x, g16_dfr *tmp,
                          unsigned log_n, int inverse, int coset, int in_bitrev, int out_bitrev)
{
    size_t n = (size_t)1 << log_n;
    unsigned gb = grid_for(n, 256);
    g16_fr gen, one, ninv;
    g16_fr_from_u64(&gen, G16_NTT_GENERATOR);
    g16_fr_set_one(&one);
    g16_fr_from_u64(&ninv, n);
    g16_fr_inv(&ninv, &ninv);
    g16_dfr *pt;
    if (!inverse && coset) {
        G16_TRY(pow_table(ctx, &pt, 0, gen, one));
        scale_kernel<<<gb, 256, 0, ctx->stream>>>(x, x, pt, log_n, in_bitrev, 0);
        CK_LAUNCH("scale_kernel");
    }
    G16_TRY(run_passes(ctx, x, log_n, inverse, in_bitrev != 0));
    int now_bitrev = !in_bitrev;
    *res = x;
    if (inverse) {
        g16_fr base = one;
        if (coset) g16_fr_inv(&base, &gen);
        G16_TRY(pow_table(ctx, &pt, 0, base, ninv));
        int scatter = now_bitrev != out_bitrev;
        scale_kernel<<<gb, 256, 0, ctx->stream>>>(scatter ? tmp : x, x, pt, log_n, now_bitrev,
                                                  scatter);
        CK_LAUNCH("scale_kernel");
        if (scatter) *res = tmp;
    } else if (now_bitrev != out_bitrev) {
        permute_kernel<<<gb, 256, 0, ctx->stream>>>(tmp, x, log_n);
        CK_LAUNCH("permute_kernel");
        *res = tmp;
    }
    return G16_OK;
}

extern "C" g16_status g16_cuda_ntt(g16_cuda_ctx *ctx, g16_fr *data, unsigned log_n, int inverse,
                                   int coset, int in_bitrev, int out_bitrev)
{
    if (!ctx || !data) return g16_fail(G16_ERR_ARG, "g16_cuda_ntt: NULL argument");
    if (log_n > G16_CUDA_NTT_MAX_LOG)
        return g16_fail(G16_ERR_ARG, "g16_cuda_ntt: log_n %u above %u", log_n, G16_CUDA_NTT_MAX_LOG);
    G16_TRY(g16_cuda_enter(ctx));
    G16_TRY(g16_cuda_h_prefetch_drop(ctx));  // SLOT_NTT_A is about to be reused
    ctx->last_h = NULL;  // the pool buffers are about to be reused
    size_t bytes = sizeof(g16_fr) << log_n;
    void *x, *t;
    G16_TRY(g16_cuda_scratch(ctx, &x, SLOT_NTT_A, bytes));
    G16_TRY(g16_cuda_scratch(ctx, &t, SLOT_NTT_T, bytes));
    // Tables first, so that the timed region holds only the transform.
    const g16_dfr *tw = NULL;
    if (log_n) G16_TRY(twiddles(ctx, &tw, log_n, inverse));
    G16_TRY(g16_cuda_mark(ctx, ctx->ev_start));
    G16_TRY(g16_cuda_upload(ctx, x, data, bytes));
    G16_TRY(g16_cuda_mark(ctx, ctx->ev_kernels));
    g16_dfr *res = (g16_dfr *)x;
    G16_TRY(ntt_dev(ctx, &res, (g16_dfr *)x, (g16_dfr *)t, log_n, inverse, coset, in_bitrev,
                    out_bitrev));
    G16_TRY(g16_cuda_mark(ctx, ctx->ev_kernels_end));
    G16_TRY(g16_cuda_download(ctx, data, res, bytes));
    G16_TRY(g16_cuda_mark(ctx, ctx->ev_end));
    G16_TRY(g16_cuda_sync(ctx));
    return g16_cuda_times_finish(ctx);
}

extern "C" g16_status g16_cuda_h_step(g16_cuda_ctx *ctx, g16_fr *h, const g16_fr *a,
                                      const g16_fr *b, const g16_fr *c, unsigned log_n,
                                      int bitrev_in)
{
    if (!h) return g16_fail(G16_ERR_ARG, "g16_cuda_h_step: NULL argument");
    if (log_n > G16_CUDA_NTT_MAX_LOG)
        return g16_fail(G16_ERR_ARG, "g16_cuda_h_step: log_n %u above %u", log_n,
                        G16_CUDA_NTT_MAX_LOG);
    return g16_cuda_h_step_rows(ctx, h, a, b, c, (size_t)1 << log_n, log_n, bitrev_in);
}

static g16_status h_args_check(const g16_cuda_ctx *ctx, const g16_fr *a, const g16_fr *b,
                               const g16_fr *c, size_t rows, unsigned log_n, int bitrev_in)
{
    if (!ctx || !a || !b || !c) return g16_fail(G16_ERR_ARG, "g16_cuda_h_step: NULL argument");
    if (log_n > G16_CUDA_NTT_MAX_LOG)
        return g16_fail(G16_ERR_ARG, "g16_cuda_h_step: log_n %u above %u", log_n,
                        G16_CUDA_NTT_MAX_LOG);
    if (rows > ((size_t)1 << log_n) || (bitrev_in && rows != ((size_t)1 << log_n)))
        return g16_fail(G16_ERR_ARG, "g16_cuda_h_step: %zu rows for a domain of 2^%u%s", rows,
                        log_n, bitrev_in ? " (bit-reversed input must be full)" : "");
    return G16_OK;
}

// Whether uploads may run on the copy stream beside kernels: page-locked inputs, and
// not switched off with G16_CUDA_OVERLAP=0 (for A/B runs).
static bool overlap_ok(const g16_fr *a, const g16_fr *b, const g16_fr *c)
{
    const char *ov = getenv("G16_CUDA_OVERLAP");
    return !(ov && atoi(ov) == 0) && g16_cuda_is_pinned(a) && g16_cuda_is_pinned(b) &&
           g16_cuda_is_pinned(c);
}

// The input copies of an H step from page-locked a, b, c: on the copy stream, after
// the compute stream's work so far (the buffers may still be read by it), except
// a's when a_on_compute (the H-first order); ev_in[i] marks the end of copy i.
// Chunked in the hope that the small uploads the compute stream makes meanwhile
// would pass between chunks; they do not (session 10: a density bitmap uploaded
// meanwhile waited for the copies), so prove_start makes its uploads first
// (g16_cuda_density_preload, the head of z).
static g16_status h_copies(g16_cuda_ctx *ctx, void *const *d, const g16_fr *const *src,
                           size_t rows, size_t bytes, bool a_on_compute)
{
    const size_t rbytes = rows * sizeof(g16_fr), chunk = (size_t)128 << 20;
    G16_TRY(g16_cuda_copy_stream(ctx));
    CK(cudaEventRecord(ctx->ev_pf, ctx->stream));
    CK(cudaStreamWaitEvent(ctx->copy, ctx->ev_pf, 0));
    // after a split scalar upload's tail, which would otherwise share the bus with them
    if (ctx->z_ready < ctx->z_n) CK(cudaStreamWaitEvent(ctx->copy, ctx->ev_z, 0));
    for (int i = 0; i < 3; i++) {
        cudaStream_t cs = i == 0 && a_on_compute ? ctx->stream : ctx->copy;
        for (size_t o = 0; o < rbytes; o += chunk)
            CK(cudaMemcpyAsync((char *)d[i] + o, (const char *)src[i] + o,
                               rbytes - o < chunk ? rbytes - o : chunk, cudaMemcpyHostToDevice, cs));
        if (rbytes < bytes) CK(cudaMemsetAsync((char *)d[i] + rbytes, 0, bytes - rbytes, cs));
        CK(cudaEventRecord(ctx->ev_in[i], cs));
    }
    return G16_OK;
}

// Waits for the copy stream (a prefetch's copies); with z_tail also for a split
// scalar upload's tail, which h_prefetch leaves running (the MSMs overlap it).
static g16_status prefetch_end(g16_cuda_ctx *ctx, bool z_tail)
{
    ctx->pf.on = 0;
    if (ctx->copy) CK(cudaStreamSynchronize(ctx->copy));
    if (z_tail && ctx->zs) CK(cudaStreamSynchronize(ctx->zs));
    return G16_OK;
}

extern "C" g16_status g16_cuda_h_prefetch_drop(g16_cuda_ctx *ctx)
{
    return prefetch_end(ctx, true);
}

extern "C" int g16_cuda_h_prefetched(const g16_cuda_ctx *ctx)
{
    return ctx && ctx->pf.on;
}

static g16_status h_prefetch(g16_cuda_ctx *ctx, const g16_fr *a, const g16_fr *b,
                             const g16_fr *c, size_t rows, unsigned log_n)
{
    G16_TRY(h_args_check(ctx, a, b, c, rows, log_n, 0));
    G16_TRY(g16_cuda_enter(ctx));
    G16_TRY(prefetch_end(ctx, false));
    if (!overlap_ok(a, b, c)) return G16_OK;  // the h step copies them itself
    ctx->last_h = NULL;  // its buffer is about to be overwritten
    const size_t bytes = sizeof(g16_fr) << log_n;
    void *d[3];
    for (int i = 0; i < 3; i++) G16_TRY(g16_cuda_scratch(ctx, &d[i], SLOT_NTT_A + i, bytes));
    const g16_fr *src[3] = {a, b, c};
    G16_TRY(h_copies(ctx, d, src, rows, bytes, false));
    for (int i = 0; i < 3; i++) ctx->pf.src[i] = src[i];
    ctx->pf.rows = rows;
    ctx->pf.log_n = log_n;
    ctx->pf.on = 1;
    return G16_OK;
}

extern "C" g16_status g16_cuda_h_prefetch(g16_cuda_ctx *ctx, const g16_fr *a, const g16_fr *b,
                                          const g16_fr *c, size_t rows, unsigned log_n)
{
    g16_status st = h_prefetch(ctx, a, b, c, rows, log_n);
    // A failure after some copies were queued: they must end before the caller may
    // free a, b, c.
    if (st && ctx) g16_cuda_h_prefetch_drop(ctx);
    return st;
}

static g16_status h_step_rows(g16_cuda_ctx *ctx, g16_fr *h, const g16_fr *a, const g16_fr *b,
                              const g16_fr *c, size_t rows, unsigned log_n, int bitrev_in)
{
    G16_TRY(h_args_check(ctx, a, b, c, rows, log_n, bitrev_in));
    G16_TRY(g16_cuda_enter(ctx));
    ctx->last_h = NULL;
    // Inputs already on their way (g16_cuda_h_prefetch with these very arguments)?
    const bool pre = ctx->pf.on && ctx->pf.src[0] == a && ctx->pf.src[1] == b &&
                     ctx->pf.src[2] == c && ctx->pf.rows == rows && ctx->pf.log_n == log_n &&
                     !bitrev_in;
    if (!pre) G16_TRY(g16_cuda_h_prefetch_drop(ctx));
    size_t n = (size_t)1 << log_n, bytes = n * sizeof(g16_fr);
    void *d[4];
    for (int i = 0; i < 3; i++) {
        if (pre) d[i] = ctx->slot[SLOT_NTT_A + i];  // sized (and poisoned) by the prefetch
        else G16_TRY(g16_cuda_scratch(ctx, &d[i], SLOT_NTT_A + i, bytes));
    }
    G16_TRY(g16_cuda_scratch(ctx, &d[3], SLOT_NTT_T, bytes));
    const g16_dfr *tw;
    if (log_n) {
        G16_TRY(twiddles(ctx, &tw, log_n, 0));
        G16_TRY(twiddles(ctx, &tw, log_n, 1));
    }
    // Z = g^n - 1 on the coset, and the scaling tables: coefficient k of each
    // input times n^-1·g^k (inverse NTT and coset shift in one multiplication),
    // and n^-1·g^-k for the result.
    g16_fr gen, ginv, one, ninv, z;
    g16_fr_from_u64(&gen, G16_NTT_GENERATOR);
    g16_fr_inv(&ginv, &gen);
    g16_fr_set_one(&one);
    g16_fr_from_u64(&ninv, n);
    g16_fr_inv(&ninv, &ninv);
    uint64_t e[1] = {n};
    g16_fr_pow(&z, &gen, e, 1);
    g16_fr_sub(&z, &z, &one);
    g16_fr_inv(&z, &z);
    g16_dfr *t_in, *t_out;
    G16_TRY(pow_table(ctx, &t_in, 1, gen, ninv));
    G16_TRY(pow_table(ctx, &t_out, 2, ginv, ninv));
    G16_TRY(g16_cuda_mark(ctx, ctx->ev_start));
    const g16_fr *src[3] = {a, b, c};
    const size_t rbytes = rows * sizeof(g16_fr);
    // With page-locked inputs, b and c are copied on a second stream while a's
    // copy and transforms run on the compute stream; each input's transforms wait
    // for its copy's event.  H200, 2^26: the H step 313 -> 236 ms (session 4).  a's
    // copy must stay on the compute stream: with all three on the copy stream the
    // compute stream did not start until that stream had drained (measured with
    // events; cause unknown) and nothing overlapped.  G16_CUDA_OVERLAP=0: off.
    // With a prefetch the copies are already queued on the copy stream (all three:
    // the compute stream has the MSMs' work to do meanwhile).
    const char *ov = getenv("G16_CUDA_OVERLAP");
    const bool overlap = !pre && overlap_ok(a, b, c);
    // G16_CUDA_DEBUG: whether the overlap is taken and where the copies end.
    const bool debug = getenv("G16_CUDA_DEBUG") != NULL;
    if (debug)
        fprintf(stderr, "g16 cuda h_step 2^%u: prefetched %d, overlap %d (G16_CUDA_OVERLAP=%s, "
                "pinned a %d b %d c %d)\n", log_n, (int)pre, (int)overlap, ov ? ov : "unset",
                g16_cuda_is_pinned(a), g16_cuda_is_pinned(b),
                g16_cuda_is_pinned(c));
    const auto enq0 = std::chrono::steady_clock::now();
    if (pre) {
        ctx->pf.on = 0;  // consumed: the waits below order the transforms after the copies
    } else if (overlap) {
        G16_TRY(h_copies(ctx, d, src, rows, bytes, true));
    } else {
        for (int i = 0; i < 3; i++) {
            G16_TRY(g16_cuda_upload(ctx, d[i], src[i], rbytes));
            if (rbytes < bytes) CK(cudaMemsetAsync((char *)d[i] + rbytes, 0, bytes - rbytes, ctx->stream));
        }
    }
    const float enq_ms =
        std::chrono::duration<float, std::milli>(std::chrono::steady_clock::now() - enq0).count();
    G16_TRY(g16_cuda_mark(ctx, ctx->ev_kernels));
    unsigned gb = grid_for(n, 256);
    // Natural values: DIF gives bit-reversed coefficients, DIT back to natural
    // coset values.  Bit-reversed values: DIT gives natural coefficients, DIF
    // bit-reversed coset values.  The pointwise step is order-blind, and the
    // last inverse lands in natural order either way (scattered in the first case).
    const bool dit_first = bitrev_in != 0;
    for (int i = 0; i < 3; i++) {
        g16_dfr *x = (g16_dfr *)d[i];
        if (overlap || pre) CK(cudaStreamWaitEvent(ctx->stream, ctx->ev_in[i], 0));
        G16_TRY(run_passes(ctx, x, log_n, 1, dit_first));
        if (dit_first) {
            scale_kernel<<<gb, 256, 0, ctx->stream>>>(x, x, t_in, log_n, 0, 0);
            CK_LAUNCH("scale_kernel");
        } else {
            G16_TRY(scale_bitrev(ctx, x, x, t_in, gen, log_n, 0));
        }
        G16_TRY(run_passes(ctx, x, log_n, 0, !dit_first));
    }
    h_pointwise<<<gb, 256, 0, ctx->stream>>>((g16_dfr *)d[0], (const g16_dfr *)d[1],
                                             (const g16_dfr *)d[2], dfr_of(z), n);
    CK_LAUNCH("h_pointwise");
    G16_TRY(run_passes(ctx, (g16_dfr *)d[0], log_n, 1, dit_first));
    // natural input: bit-reversed coefficients, scattered to natural order;
    // bit-reversed input: already natural, scaled in place.
    if (dit_first) {
        scale_kernel<<<gb, 256, 0, ctx->stream>>>((g16_dfr *)d[0], (const g16_dfr *)d[0], t_out,
                                                  log_n, 0, 0);
        CK_LAUNCH("scale_kernel");
    } else {
        G16_TRY(scale_bitrev(ctx, (g16_dfr *)d[3], (const g16_dfr *)d[0], t_out, ginv, log_n, 1));
    }
    G16_TRY(g16_cuda_mark(ctx, ctx->ev_kernels_end));
    if (h) G16_TRY(g16_cuda_download(ctx, h, dit_first ? d[0] : d[3], bytes));
    G16_TRY(g16_cuda_mark(ctx, ctx->ev_end));
    G16_TRY(g16_cuda_sync(ctx));
    ctx->last_h = dit_first ? d[0] : d[3];
    ctx->last_h_curve = G16_CUDA_CURVE;
    ctx->last_h_n = n;
    if (debug && (overlap || pre)) {
        float t[4] = {0, 0, 0, 0};
        for (int i = 0; i < 3; i++) cudaEventElapsedTime(&t[i], ctx->ev_start, ctx->ev_in[i]);
        cudaEventElapsedTime(&t[3], ctx->ev_start, ctx->ev_kernels);
        fprintf(stderr, "g16 cuda h_step 2^%u: copies enqueued in %.2f ms (host); from the start, "
                "copies done at %.2f / %.2f / %.2f ms, kernels marked at %.2f ms\n",
                log_n, enq_ms, t[0], t[1], t[2], t[3]);
    }
    return g16_cuda_times_finish(ctx);
}

extern "C" g16_status g16_cuda_h_step_rows(g16_cuda_ctx *ctx, g16_fr *h, const g16_fr *a,
                                           const g16_fr *b, const g16_fr *c, size_t rows,
                                           unsigned log_n, int bitrev_in)
{
    g16_status st = h_step_rows(ctx, h, a, b, c, rows, log_n, bitrev_in);
    // On a failure, copies from a, b, c may still be queued (prefetched or overlapped):
    // they end before the caller frees those buffers.
    if (st && ctx) g16_cuda_h_prefetch_drop(ctx);
    return st;
}
