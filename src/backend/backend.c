/* Opening and naming backends: the CPU one (groth16/ops_cpu.c, always there) and
 * the CUDA one (cuda_backend.c, when built and a GPU is visible).  Compiled once per
 * curve (src/bn254/backend_sources.txt); the BLS12-381 compile's close takes
 * either curve's backend (curves.c opens them). */
#include <string.h>

#include "backend/backend.h"
#include "common/error.h"

g16_status g16_backend_parse(const char *s, g16_backend_kind *out)
{
    if (s && !strcmp(s, "cpu")) *out = G16_BACKEND_CPU;
    else if (s && !strcmp(s, "cuda")) *out = G16_BACKEND_CUDA;
    else if (s && !strcmp(s, "auto")) *out = G16_BACKEND_AUTO;
    else return g16_fail(G16_ERR_ARG, "backend '%s': expected cpu, cuda or auto", s ? s : "");
    return G16_OK;
}

g16_status g16_backend_open(g16_backend **out, g16_backend_kind kind, int device)
{
    *out = NULL;
    char desc[256];
    switch (kind) {
    case G16_BACKEND_CPU:
        *out = g16_cpu_backend();
        return G16_OK;
    case G16_BACKEND_CUDA:
        if (!g16_cuda_built())
            return g16_fail(G16_ERR_BACKEND,
                            "backend cuda: this build has no CUDA backend (configured without "
                            "nvcc, or with G16_CUDA=OFF)");
        if (g16_cuda_devices(desc, sizeof desc) <= device || device < 0)
            return g16_fail(G16_ERR_BACKEND, "backend cuda: no GPU %d (%s)", device, desc);
        return g16_cuda_backend_open(out, device);
    case G16_BACKEND_AUTO:
        if (g16_cuda_built() && g16_cuda_devices(desc, sizeof desc) > (device < 0 ? 0 : device))
            return g16_cuda_backend_open(out, device < 0 ? 0 : device);
        *out = g16_cpu_backend();
        return G16_OK;
    }
    return g16_fail(G16_ERR_ARG, "backend: unknown kind %d", (int)kind);
}

#if !G16_CURVE_BN254 && G16_WITH_BN254_BACKEND
void g16_bn254_backend_close(g16_backend *be); /* this file's BN254 compile */
#endif

void g16_backend_close(g16_backend *be)
{
    if (!be || be == g16_cpu_backend()) return;
#if !G16_CURVE_BN254 && G16_WITH_BN254_BACKEND
    if (g16_backend_curve_of(be) == G16_CURVE_ID_BN254) {
        g16_bn254_backend_close(be);
        return;
    }
#endif
    g16_cuda_backend_close(be);
}

const char *g16_backend_name(const g16_backend *be)
{
    return be ? be->name : "cpu";
}
