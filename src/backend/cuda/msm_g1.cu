// G1 MSM entry point and device-resident bases (the kernels: msm_impl.cuh).
#include "msm_impl.cuh"
extern "C" g16_status g16_cuda_bases_upload(g16_cuda_ctx *ctx, g16_cuda_bases **out,
                                            g16_group group, const void *bases, size_t n)
{
    *out = NULL;
    if (!ctx || (n && !bases)) return g16_fail(G16_ERR_ARG, "g16_cuda_bases_upload: NULL argument");
    if (group != G16_G1 && group != G16_G2)
        return g16_fail(G16_ERR_ARG, "g16_cuda_bases_upload: unknown group %d", (int)group);
    G16_TRY(g16_cuda_enter(ctx));
    size_t bytes = n * (group == G16_G1 ? sizeof(g16_g1_affine) : sizeof(g16_g2_affine));
    g16_cuda_bases *b = (g16_cuda_bases *)calloc(1, sizeof *b);
    if (!b) return g16_fail(G16_ERR_NOMEM, "g16_cuda_bases_upload: handle");
    b->group = group;
    b->n = n;
    b->device = ctx->device;
    cudaError_t e = G16_CUDA_MALLOC(&b->dev, bytes ? bytes : 1);
    if (e != cudaSuccess) {
        free(b);
        return g16_cuda_fail(e, "cudaMalloc(bases)", __FILE__, __LINE__);
    }
    g16_status s = g16_cuda_upload(ctx, b->dev, bases, bytes);
    if (s != G16_OK) {
        g16_cuda_bases_free(b);
        return s;
    }
    *out = b;
    return G16_OK;
}

extern "C" g16_status g16_cuda_bases_range(g16_cuda_bases **out, const g16_cuda_bases *b,
                                           size_t start, size_t n)
{
    *out = NULL;
    if (!b || start > b->n || n > b->n - start)
        return g16_fail(G16_ERR_ARG, "g16_cuda_bases_range: [%zu, %zu) of %zu bases", start,
                        start + n, b ? b->n : 0);
    g16_cuda_bases *v = (g16_cuda_bases *)calloc(1, sizeof *v);
    if (!v) return g16_fail(G16_ERR_NOMEM, "g16_cuda_bases_range: handle");
    *v = *b;
    // a folded handle's copy k of base i sits at k·stride + i, so the same offset
    // serves every copy
    const size_t each = b->group == G16_G1 ? sizeof(g16_g1_affine) : sizeof(g16_g2_affine);
    v->dev = (char *)b->dev + start * each;
    v->n = n;
    v->borrowed = 1;
    *out = v;
    return G16_OK;
}

extern "C" g16_status g16_cuda_bases_prefix(g16_cuda_bases **out, const g16_cuda_bases *b,
                                            size_t n)
{
    return g16_cuda_bases_range(out, b, 0, n);
}

// Thread i writes base i's shifted copies: copy 0 is the base, copy k the one
// before it doubled c times, stored affine with one inversion per chunk of
// FOLD_CHUNK copies (a one-off cost per key: ≈ c doublings and 9 products a copy,
// and a Fermat inversion, ≈ 570 products, per chunk).
#define FOLD_CHUNK 8
static __global__ void fold_kernel(g16_dg1_aff *out, const g16_dg1_aff *in, size_t n,
                                   size_t stride, unsigned c, unsigned W)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const g16_dg1_aff p = ld_vec(&in[i]);
    st_vec(&out[i], p);
    g16_dg1_xyzz acc = g16_dg1_xyzz::from_affine(p), q[FOLD_CHUNK];
    g16_dg1_aff a[FOLD_CHUNK];
    g16_dfp scratch[FOLD_CHUNK];
    for (unsigned k0 = 1; k0 < W; k0 += FOLD_CHUNK) {
        const int m = W - k0 < FOLD_CHUNK ? (int)(W - k0) : FOLD_CHUNK;
        for (int j = 0; j < m; j++) q[j] = acc = g16_dxyzz_shift(acc, c);
        g16_dxyzz_batch_affine(a, q, m, scratch);
        for (int j = 0; j < m; j++) st_vec(&out[(size_t)(k0 + j) * stride + i], a[j]);
    }
}

extern "C" g16_status g16_cuda_bases_fold(g16_cuda_ctx *ctx, g16_cuda_bases **out,
                                          const g16_cuda_bases *b, unsigned c)
{
    *out = NULL;
    if (!ctx || !b) return g16_fail(G16_ERR_ARG, "g16_cuda_bases_fold: NULL argument");
    if (b->group != G16_G1) return g16_fail(G16_ERR_ARG, "g16_cuda_bases_fold: G1 bases only");
    if (b->fold_c) return g16_fail(G16_ERR_ARG, "g16_cuda_bases_fold: bases already folded");
    if (!c) c = G16_CUDA_FOLD_C;
    if (c < 2 || c > 22) return g16_fail(G16_ERR_ARG, "g16_cuda_bases_fold: window %u outside [2, 22]", c);
    const unsigned W = msm_windows(c);
    if ((size_t)W * b->n > 0x7fffffffu)
        return g16_fail(G16_ERR_ARG, "g16_cuda_bases_fold: %u copies of %zu bases exceed 2^31", W, b->n);
    G16_TRY(g16_cuda_enter(ctx));
    g16_cuda_bases *f = (g16_cuda_bases *)calloc(1, sizeof *f);
    if (!f) return g16_fail(G16_ERR_NOMEM, "g16_cuda_bases_fold: handle");
    f->group = G16_G1;
    f->device = ctx->device;
    f->n = f->stride = b->n;
    f->fold_c = c;
    f->fold_w = W;
    size_t bytes = (size_t)W * b->n * sizeof(g16_g1_affine);
    cudaError_t e = G16_CUDA_MALLOC(&f->dev, bytes ? bytes : 1);
    if (e != cudaSuccess) {
        free(f);
        return g16_cuda_fail(e, "cudaMalloc(folded bases)", __FILE__, __LINE__);
    }
    if (b->n) {
        fold_kernel<<<grid_for(b->n, 128), 128, 0, ctx->stream>>>(
            (g16_dg1_aff *)f->dev, (const g16_dg1_aff *)b->dev, b->n, b->n, c, W);
        g16_status s = G16_OK;
        cudaError_t le = cudaGetLastError();
        if (le != cudaSuccess) s = g16_cuda_fail(le, "fold_kernel launch", __FILE__, __LINE__);
        if (!s) s = g16_cuda_sync(ctx);
        if (s) {
            g16_cuda_bases_free(f);
            return s;
        }
    }
    *out = f;
    return G16_OK;
}

extern "C" size_t g16_cuda_bases_device_bytes(const g16_cuda_bases *b)
{
    if (!b || b->borrowed) return 0;
    size_t pt = b->group == G16_G1 ? sizeof(g16_g1_affine) : sizeof(g16_g2_affine);
    return b->fold_c ? (size_t)b->fold_w * b->stride * pt : b->n * pt;
}

extern "C" void g16_cuda_bases_free(g16_cuda_bases *b)
{
    if (!b) return;
    if (!b->borrowed) {
        // With several GPUs the caller's thread may have another one current (the
        // key mover, a backend closed after the others were opened).
        int cur = -1;
        if (cudaGetDevice(&cur) != cudaSuccess) cur = -1;
        if (cur != b->device) cudaSetDevice(b->device);
        cudaFree(b->dev);
        if (cur >= 0 && cur != b->device) cudaSetDevice(cur);
    }
    free(b);
}

extern "C" g16_status g16_cuda_msm_g1(g16_cuda_ctx *ctx, g16_g1_jac *out,
                                      const g16_cuda_bases *bases, const g16_fr *scalars, size_t n,
                                      const uint64_t *density, const g16_cuda_msm_opts *opts)
{
    static_assert(sizeof(g16_djac<g16_dfp>) == sizeof(g16_g1_jac), "G1 Jacobian layout");
    return msm_run<g16_dfp>(ctx, (g16_djac<g16_dfp> *)out, bases, scalars, n, density, opts, NULL);
}


extern "C" g16_status g16_cuda_msm_g1_h(g16_cuda_ctx *ctx, g16_g1_jac *out,
                                        const g16_cuda_bases *bases, size_t n,
                                        const g16_cuda_msm_opts *opts)
{
    if (!ctx) return g16_fail(G16_ERR_ARG, "g16_cuda_msm_g1_h: NULL context");
    if (!ctx->last_h || ctx->last_h_curve != G16_CUDA_CURVE)
        return g16_fail(G16_ERR_ARG, "g16_cuda_msm_g1_h: no H step result of this curve on the device");
    if (n > ctx->last_h_n)
        return g16_fail(G16_ERR_ARG, "g16_cuda_msm_g1_h: %zu scalars, the H step made %zu", n,
                        ctx->last_h_n);
    return msm_run<g16_dfp>(ctx, (g16_djac<g16_dfp> *)out, bases, NULL, n, NULL, opts,
                            (const g16_dfr *)ctx->last_h);
}

extern "C" g16_status g16_cuda_scalars_upload_split(g16_cuda_ctx *ctx, const g16_fr *s, size_t n,
                                                    size_t head, int *split)
{
    if (split) *split = 0;
    if (!ctx || (n && !s)) return g16_fail(G16_ERR_ARG, "g16_cuda_scalars_upload: NULL argument");
    G16_TRY(g16_cuda_enter(ctx));
    // a tail still in flight writes SLOT_Z: let it land before the slot is reused
    if (ctx->z_ready < ctx->z_n && ctx->zs) CK(cudaStreamSynchronize(ctx->zs));
    ctx->z_n = ctx->z_ready = 0;
    void *d;
    G16_TRY(g16_cuda_scratch(ctx, &d, SLOT_Z, (n ? n : 1) * sizeof(g16_fr)));
    const bool part = split && head > 0 && head < n && g16_cuda_is_pinned(s);
    G16_TRY(g16_cuda_upload(ctx, d, s, (part ? head : n) * sizeof(g16_fr)));
    if (part) {
        // g16_cuda_upload synchronised the compute stream, so nothing reads SLOT_Z now
        G16_TRY(g16_cuda_copy_stream(ctx));
        CK(cudaMemcpyAsync((g16_fr *)d + head, s + head, (n - head) * sizeof(g16_fr),
                           cudaMemcpyHostToDevice, ctx->zs));
        CK(cudaEventRecord(ctx->ev_z, ctx->zs));
        *split = 1;
    }
    ctx->z_n = n;
    ctx->z_ready = part ? head : n;
    return G16_OK;
}

extern "C" g16_status g16_cuda_density_preload(g16_cuda_ctx *ctx, int which, const uint64_t *bits,
                                               size_t n_bits)
{
    if (!ctx || which < 0 || which > 1 || (n_bits && !bits))
        return g16_fail(G16_ERR_ARG, "g16_cuda_density_preload: bad argument");
    G16_TRY(g16_cuda_enter(ctx));
    ctx->dens_host[which] = NULL;
    const size_t words = (n_bits + 63) / 64;
    void *d;
    G16_TRY(g16_cuda_scratch(ctx, &d, SLOT_DENS0 + which, (words ? words : 1) * 8));
    G16_TRY(g16_cuda_upload(ctx, d, bits, words * 8));
    ctx->dens_host[which] = words ? bits : NULL;
    ctx->dens_words[which] = words;
    return G16_OK;
}

extern "C" void g16_cuda_density_forget(g16_cuda_ctx *ctx)
{
    if (ctx) ctx->dens_host[0] = ctx->dens_host[1] = NULL;
}

extern "C" g16_status g16_cuda_scalars_upload(g16_cuda_ctx *ctx, const g16_fr *s, size_t n)
{
    return g16_cuda_scalars_upload_split(ctx, s, n, n, NULL);
}

extern "C" g16_status g16_cuda_msm_g1_resident(g16_cuda_ctx *ctx, g16_g1_jac *out,
                                               const g16_cuda_bases *bases, size_t offset,
                                               size_t n, const uint64_t *density,
                                               const g16_cuda_msm_opts *opts)
{
    return msm_resident<g16_dfp>(ctx, (g16_djac<g16_dfp> *)out, bases, offset, n, density, opts);
}
