/* The CUDA backend's recovery after a failed operation (src/backend/cuda/ctx.cu). */
#ifndef G16_BACKEND_CUDA_SETTLE_H
#define G16_BACKEND_CUDA_SETTLE_H

#include "backend/cuda_ops.h"

#ifdef __cplusplus
extern "C" {
#endif

/* After a failed operation on ctx: waits for every copy and kernel its streams still hold
 * (errors ignored and cleared, the thread's message kept), so nothing in flight touches the
 * staging buffer or a host buffer once the caller returns; NULL is ignored. */
void g16_cuda_settle(g16_cuda_ctx *ctx);

#ifdef __cplusplus
}
#endif
#endif
