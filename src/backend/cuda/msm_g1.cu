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
    cudaError_t e = cudaMalloc(&b->dev, bytes ? bytes : 1);
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

extern "C" g16_status g16_cuda_bases_prefix(g16_cuda_bases **out, const g16_cuda_bases *b,
                                            size_t n)
{
    *out = NULL;
    if (!b || n > b->n) return g16_fail(G16_ERR_ARG, "g16_cuda_bases_prefix: bad prefix length");
    g16_cuda_bases *v = (g16_cuda_bases *)calloc(1, sizeof *v);
    if (!v) return g16_fail(G16_ERR_NOMEM, "g16_cuda_bases_prefix: handle");
    *v = *b;
    v->n = n;
    v->borrowed = 1;
    *out = v;
    return G16_OK;
}

extern "C" void g16_cuda_bases_free(g16_cuda_bases *b)
{
    if (!b) return;
    if (!b->borrowed) cudaFree(b->dev);
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
    if (!ctx->last_h)
        return g16_fail(G16_ERR_ARG, "g16_cuda_msm_g1_h: no H step result on the device");
    if (n > ctx->last_h_n)
        return g16_fail(G16_ERR_ARG, "g16_cuda_msm_g1_h: %zu scalars, the H step made %zu", n,
                        ctx->last_h_n);
    return msm_run<g16_dfp>(ctx, (g16_djac<g16_dfp> *)out, bases, NULL, n, NULL, opts,
                            ctx->last_h);
}

extern "C" g16_status g16_cuda_scalars_upload(g16_cuda_ctx *ctx, const g16_fr *s, size_t n)
{
    if (!ctx || (n && !s)) return g16_fail(G16_ERR_ARG, "g16_cuda_scalars_upload: NULL argument");
    G16_TRY(g16_cuda_enter(ctx));
    ctx->z_n = 0;
    void *d;
    G16_TRY(g16_cuda_scratch(ctx, &d, SLOT_Z, (n ? n : 1) * sizeof(g16_fr)));
    G16_TRY(g16_cuda_upload(ctx, d, s, n * sizeof(g16_fr)));
    ctx->z_n = n;
    return G16_OK;
}

extern "C" g16_status g16_cuda_msm_g1_resident(g16_cuda_ctx *ctx, g16_g1_jac *out,
                                               const g16_cuda_bases *bases, size_t offset,
                                               size_t n, const uint64_t *density,
                                               const g16_cuda_msm_opts *opts)
{
    return msm_resident<g16_dfp>(ctx, (g16_djac<g16_dfp> *)out, bases, offset, n, density, opts);
}
