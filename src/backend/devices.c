/* Which compute backends this build has and which devices they see. */
#include <stdio.h>
#include <string.h>

#include "g16.h"

#ifdef G16_WITH_CUDA
int g16_cuda_probe(int *count, char *names, size_t cap);
#endif

int g16_cuda_built(void)
{
#ifdef G16_WITH_CUDA
    return 1;
#else
    return 0;
#endif
}

int g16_cuda_devices(char *desc, size_t cap)
{
#ifdef G16_WITH_CUDA
    int n = 0;
    g16_cuda_probe(&n, desc, cap);
    return n;
#else
    if (cap) snprintf(desc, cap, "CUDA backend not built");
    return 0;
#endif
}
