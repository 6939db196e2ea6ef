// CUDA device discovery.  Compiled whenever nvcc exists (CI compiles it with
// -arch=sm_90 and cannot run it); every CUDA failure becomes a return value.
#include <cuda_runtime.h>
#include <stdio.h>

extern "C" int g16_cuda_probe(int *count, char *names, size_t cap)
{
    int n = 0;
    *count = 0;
    if (cap) names[0] = 0;
    cudaError_t e = cudaGetDeviceCount(&n);
    if (e != cudaSuccess) {
        // No driver or no device: not an error for a CPU-only machine.
        if (cap) snprintf(names, cap, "%s", cudaGetErrorString(e));
        return 0;
    }
    size_t used = 0;
    for (int i = 0; i < n; i++) {
        cudaDeviceProp p;
        if (cudaGetDeviceProperties(&p, i) != cudaSuccess) continue;
        int w = snprintf(names + used, used < cap ? cap - used : 0, "%s%d: %s (sm_%d%d, %.0f GiB)",
                         i ? "; " : "", i, p.name, p.major, p.minor,
                         p.totalGlobalMem / (1024.0 * 1024.0 * 1024.0));
        if (w > 0) used += (size_t)w;
    }
    *count = n;
    return 1;
}
