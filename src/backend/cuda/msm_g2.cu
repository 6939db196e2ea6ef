// G2 MSM entry point (the kernels: msm_impl.cuh); its own file so that the G1
// and G2 instantiations compile in parallel.
#include "msm_impl.cuh"
extern "C" g16_status g16_cuda_msm_g2(g16_cuda_ctx *ctx, g16_g2_jac *out,
                                      const g16_cuda_bases *bases, const g16_fr *scalars, size_t n,
                                      const uint64_t *density, const g16_cuda_msm_opts *opts)
{
    static_assert(sizeof(g16_djac<g16_dfp2>) == sizeof(g16_g2_jac), "G2 Jacobian layout");
    return msm_run<g16_dfp2>(ctx, (g16_djac<g16_dfp2> *)out, bases, scalars, n, density, opts,
                             NULL);
}

extern "C" g16_status g16_cuda_msm_g2_resident(g16_cuda_ctx *ctx, g16_g2_jac *out,
                                               const g16_cuda_bases *bases, size_t offset,
                                               size_t n, const uint64_t *density,
                                               const g16_cuda_msm_opts *opts)
{
    return msm_resident<g16_dfp2>(ctx, (g16_djac<g16_dfp2> *)out, bases, offset, n, density,
                                  opts);
}
