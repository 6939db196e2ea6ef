// Shared by the CUDA backend's .cu files: the context (stream, events, memory
// pool, pinned staging), error checking and the power tables used by the NTT.
#ifndef G16_BACKEND_CUDA_INTERNAL_CUH
#define G16_BACKEND_CUDA_INTERNAL_CUH

#include <cuda_runtime.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "backend/cuda_ops.h"
#include "field.cuh"

extern "C" {
#include "common/error.h"
#include "common/fault.h"
}

// Records a CUDA failure as a g16 status (NOMEM for allocation failures).
g16_status g16_cuda_fail(cudaError_t e, const char *what, const char *file, int line);

// Test-only fault injection (common/fault.h): device and page-locked allocations fail
// without being made; any other call is made and then reported failed, so that what
// it started is in flight as after a real error.  Without G16_FAULT_INJECT: nothing.
#ifdef G16_FAULT_INJECT
static inline cudaError_t g16_cuda_fault_pre(const char *call)
{
    if (!strncmp(call, "cudaMalloc", 10))
        return g16_fault_hit(G16_FAULT_DEV_ALLOC) ? cudaErrorMemoryAllocation : cudaSuccess;
    if (!strncmp(call, "cudaHostAlloc", 13) || !strncmp(call, "cudaHostRegister", 16))
        return g16_fault_hit(G16_FAULT_PAGELOCK) ? cudaErrorMemoryAllocation : cudaSuccess;
    return cudaSuccess;
}
static inline cudaError_t g16_cuda_fault_post(const char *call)
{
    if (!strncmp(call, "cudaMalloc", 10) || !strncmp(call, "cudaHost", 8)) return cudaSuccess;
    if (!strcmp(call, "cudaGetLastError()"))
        return g16_fault_hit(G16_FAULT_KERNEL) ? cudaErrorLaunchFailure : cudaSuccess;
    return g16_fault_hit(G16_FAULT_DEV_CALL) ? cudaErrorUnknown : cudaSuccess;
}
#endif

// Evaluates a CUDA call; on failure returns its status from the enclosing function.
#ifdef G16_FAULT_INJECT
#define CK(call)                                                              \
    do {                                                                      \
        cudaError_t ck_e_ = g16_cuda_fault_pre(#call);                        \
        if (ck_e_ == cudaSuccess) ck_e_ = (call);                             \
        if (ck_e_ == cudaSuccess) ck_e_ = g16_cuda_fault_post(#call);         \
        if (ck_e_ != cudaSuccess) return g16_cuda_fail(ck_e_, #call, __FILE__, __LINE__); \
    } while (0)
// The device allocation of an unchecked-by-CK call site, behind the hook.
#define G16_CUDA_MALLOC(pp, bytes) \
    (g16_fault_hit(G16_FAULT_DEV_ALLOC) ? cudaErrorMemoryAllocation : cudaMalloc((pp), (bytes)))
#else
#define CK(call)                                                              \
    do {                                                                      \
        cudaError_t ck_e_ = (call);                                           \
        if (ck_e_ != cudaSuccess) return g16_cuda_fail(ck_e_, #call, __FILE__, __LINE__); \
    } while (0)
#define G16_CUDA_MALLOC(pp, bytes) cudaMalloc((pp), (bytes))
#endif
// Checks the launch just made (configuration errors appear here, faults later at
// the next synchronisation, which is checked too).
#define CK_LAUNCH(name) CK(cudaGetLastError())

// Memory-pool slots: each is a device buffer kept between calls and grown when a
// larger one is needed, so steady-state proving does no cudaMalloc.
enum g16_cuda_slot {
    SLOT_NTT_A, SLOT_NTT_B, SLOT_NTT_C, SLOT_NTT_T,
    SLOT_POW,          // power tables of the scaling kernels
    SLOT_MSM_SCAL, SLOT_MSM_KEYS0, SLOT_MSM_KEYS1, SLOT_MSM_VALS0, SLOT_MSM_VALS1,
    SLOT_MSM_BSTART, SLOT_MSM_BEND, SLOT_MSM_BUCKETS, SLOT_MSM_SEG, SLOT_MSM_WIN,
    SLOT_MSM_ONES, SLOT_MSM_ONESP, SLOT_MSM_DENS, SLOT_MSM_RANK, SLOT_MSM_CUB,
    SLOT_MSM_COUNT, SLOT_MSM_ITEMS, SLOT_MSM_OFF0, SLOT_MSM_OFF1, SLOT_MSM_PART0,
    SLOT_MSM_PART1, SLOT_MSM_LIVE, SLOT_MSM_POS, SLOT_MSM_AFF0, SLOT_MSM_AFF1, SLOT_MSM_AFFBP, SLOT_MSM_AFFBI, SLOT_Z, SLOT_DENS0, SLOT_DENS1, SLOT_MISC,
    SLOT_COUNT
};

#define G16_CUDA_TW_MAX 31  // twiddle tables cached per log_n (and direction)

// This compile's curve as a number (0 BLS12-381, 1 BN254): the curve-generic .cu
// files are compiled once per curve and share one context (src/bn254/cuda_sources.txt).
#if G16_CURVE_BN254
#define G16_CUDA_CURVE 1
#else
#define G16_CUDA_CURVE 0
#endif

struct g16_cuda_ctx {
    int device;
    cudaStream_t stream;
    cudaEvent_t ev_start, ev_kernels, ev_kernels_end, ev_end;
    float total_ms, kernel_ms;
    int poison;
    int ntt_radix;
    // the last H step's coefficients, still in the pool (g16_dfr of the curve
    // last_h_curve says: ntt.cu and msm_g1.cu are compiled once per curve)
    const void *last_h;
    int last_h_curve;
    size_t last_h_n;
    size_t z_n;       // scalars held by g16_cuda_scalars_upload (SLOT_Z)
    size_t z_ready;   // of which the compute stream may read [0, z_ready) now; the
                      // rest travels on zs until ev_z (upload_split)
    void *slot[SLOT_COUNT];
    size_t slot_bytes[SLOT_COUNT];
    cudaStream_t copy;     // second stream for uploads overlapped with kernels (lazy)
    cudaEvent_t ev_in[3];  // one per overlapped upload (lazy)
    cudaEvent_t ev_pf;     // the compute stream's point where a prefetch may start (lazy)
    cudaStream_t zs;       // a split scalar upload's tail (lazy; its own stream, so that
                           // a prefetch's wait for the copy stream does not wait for it)
    cudaEvent_t ev_z;      // the end of that tail (lazy)
    const void *dens_host[2];  // bitmaps copied by g16_cuda_density_preload (SLOT_DENS0/1)
    size_t dens_words[2];
    // The H step's inputs whose copies g16_cuda_h_prefetch started on the copy stream
    // (into SLOT_NTT_A..C, ev_in[i] at each end): the next h step with exactly these
    // arguments uses them; anything else first waits for the copies (h_prefetch_drop).
    struct {
        const void *src[3];
        size_t rows;
        unsigned log_n;
        int on;
    } pf;
    void *pinned;          // host staging buffer (page-locked)
    size_t pinned_bytes;
    // [curve][inverse][log_n]: ω^m, m < n/2; curve 0 BLS12-381, 1 BN254 (ntt.cu is
    // compiled once per curve and both share the context).  Stored as raw bytes of
    // the curve's Fr: void, as g16_dfr is a different type in each compile.
    void *tw[2][2][G16_CUDA_TW_MAX];
};

struct g16_cuda_bases {
    g16_group group;
    size_t n;
    void *dev;
    int borrowed;  // a prefix view: dev belongs to another handle
    int device;    // the GPU dev lives on: freed there (another thread may free it)
    // Folded (g16_cuda_bases_fold): dev holds fold_w shifted copies, copy k at
    // dev[k·stride .. k·stride + n) = 2^(fold_c·k)·P_i; 0 for plain bases.
    unsigned fold_c, fold_w;
    size_t stride;
};

// Timing marks on ctx's stream (see g16_cuda_last_times); t_finish reads them back.
g16_status g16_cuda_mark(g16_cuda_ctx *ctx, cudaEvent_t ev);
g16_status g16_cuda_times_finish(g16_cuda_ctx *ctx);

// Makes ctx's device current for the calling thread.
g16_status g16_cuda_enter(g16_cuda_ctx *ctx);
// Returns in *p a device buffer of at least `bytes` for `slot` (contents undefined).
g16_status g16_cuda_scratch(g16_cuda_ctx *ctx, void **p, int slot, size_t bytes);
// Returns in *p a page-locked host buffer of at least `bytes`.
g16_status g16_cuda_pinned(g16_cuda_ctx *ctx, void **p, size_t bytes);
// 1 when host lies in page-locked memory (cudaHostAlloc'd or registered).
int g16_cuda_is_pinned(const void *host);
// The copy stream and its events, created on first use.
g16_status g16_cuda_copy_stream(g16_cuda_ctx *ctx);
// Copies host -> device through the pinned buffer (chunked, so the host memcpy of
// one chunk overlaps the DMA of the previous one).
g16_status g16_cuda_upload(g16_cuda_ctx *ctx, void *dev, const void *host, size_t bytes);
// Copies device -> host through the pinned buffer; synchronises the stream.
g16_status g16_cuda_download(g16_cuda_ctx *ctx, void *host, const void *dev, size_t bytes);
// Waits for the stream and turns a pending fault into a status.
g16_status g16_cuda_sync(g16_cuda_ctx *ctx);

// Device power table of `base`: T[i] = f·base^i, T[1024+i] = base^(1024 i),
// T[2048+i] = base^(2^20 i) (i < 1024), so base^k·f = T[k&1023]·T[1024+(k>>10&1023)]
// ·T[2048+(k>>20)] for k < 2^30.  Built on the host with the CPU field code
// (ntt.cu's pow_table_host, with the Fr of its compile's curve).
#define G16_POW_TABLE 3072

G16_HD g16_dfr g16_pow_lookup(const g16_dfr *t, uint32_t k)
{
    return t[k & 1023] * t[1024 + ((k >> 10) & 1023)] * t[2048 + (k >> 20)];
}

#endif
