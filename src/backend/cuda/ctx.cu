// CUDA context: stream, events, memory pool, pinned staging, error conversion.
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "curve.cuh"
#include "internal.cuh"
#include "backend/cuda_settle.h"

extern "C" {
#include "field/fp.h"
#include "field/fr.h"
}

static_assert(sizeof(g16_dfr) == sizeof(g16_fr), "Fr layouts differ");
static_assert(sizeof(g16_dfp) == sizeof(g16_fp), "Fp layouts differ");
static_assert(sizeof(g16_dfp2) == sizeof(g16_fp2), "Fp2 layouts differ");
static_assert(sizeof(g16_dg1_aff) == sizeof(g16_g1_affine), "G1 layouts differ");
static_assert(sizeof(g16_dg2_aff) == sizeof(g16_g2_affine), "G2 layouts differ");

g16_status g16_cuda_fail(cudaError_t e, const char *what, const char *file, int line)
{
    g16_status s = (e == cudaErrorMemoryAllocation) ? G16_ERR_NOMEM : G16_ERR_BACKEND;
    return g16_fail(s, "CUDA: %s failed at %s:%d: %s (%s)", what, file, line,
                    cudaGetErrorName(e), cudaGetErrorString(e));
}

// After a failed operation: waits for everything the context's streams still hold, so no
// copy queued before the failure writes into the staging buffer or reads a host buffer
// after the caller has moved on (the next operation, maybe another job's, reuses both: the
// fault walk saw a pending download land in the next proof's staged data).  Errors are
// ignored and cleared: the failure being reported is the caller's, and the message stays.
extern "C" void g16_cuda_settle(g16_cuda_ctx *ctx)
{
    if (!ctx) return;
    cudaSetDevice(ctx->device);
    cudaStreamSynchronize(ctx->stream);
    if (ctx->copy) cudaStreamSynchronize(ctx->copy);
    if (ctx->zs) cudaStreamSynchronize(ctx->zs);
    cudaGetLastError();
}

g16_status g16_cuda_enter(g16_cuda_ctx *ctx)
{
    CK(cudaSetDevice(ctx->device));
    return G16_OK;
}

extern "C" g16_status g16_cuda_use(g16_cuda_ctx *ctx)
{
    return ctx ? g16_cuda_enter(ctx) : G16_OK;
}

extern "C" g16_status g16_cuda_ctx_create(g16_cuda_ctx **out, int device)
{
    *out = NULL;
    int count = 0;
    cudaError_t e = cudaGetDeviceCount(&count);
    if (e != cudaSuccess)
        return g16_fail(G16_ERR_BACKEND, "CUDA: no usable device: %s", cudaGetErrorString(e));
    if (device < 0 || device >= count)
        return g16_fail(G16_ERR_BACKEND, "CUDA: device %d requested, %d present", device, count);
    g16_cuda_ctx *c = (g16_cuda_ctx *)calloc(1, sizeof *c);
    if (!c) return g16_fail(G16_ERR_NOMEM, "CUDA: context allocation");
    c->device = device;
    c->ntt_radix = 8;  // the default pass kernel (g16_cuda_set_ntt_radix; 8 since session 4)
    g16_status s = G16_OK;
    if ((e = cudaSetDevice(device)) != cudaSuccess ||
        (e = cudaStreamCreateWithFlags(&c->stream, cudaStreamNonBlocking)) != cudaSuccess ||
        (e = cudaEventCreate(&c->ev_start)) != cudaSuccess ||
        (e = cudaEventCreate(&c->ev_kernels)) != cudaSuccess ||
        (e = cudaEventCreate(&c->ev_kernels_end)) != cudaSuccess ||
        (e = cudaEventCreate(&c->ev_end)) != cudaSuccess ||
        // G2 kernels need ~2.5 KB of stack per thread (point routines are calls);
        // fixing the limit up front avoids a resize at their first launch.
        (e = cudaDeviceSetLimit(cudaLimitStackSize, 4096)) != cudaSuccess)
        s = g16_cuda_fail(e, "context setup", __FILE__, __LINE__);
    if (s != G16_OK) {
        g16_cuda_ctx_destroy(c);
        return s;
    }
    *out = c;
    return G16_OK;
}

extern "C" void g16_cuda_ctx_destroy(g16_cuda_ctx *c)
{
    if (!c) return;
    cudaSetDevice(c->device);
    if (c->stream) cudaStreamSynchronize(c->stream);
    if (c->copy) cudaStreamSynchronize(c->copy);
    if (c->zs) cudaStreamSynchronize(c->zs);
    for (int i = 0; i < SLOT_COUNT; i++)
        if (c->slot[i]) cudaFree(c->slot[i]);
    for (int k = 0; k < 2; k++)
        for (int d = 0; d < 2; d++)
            for (int i = 0; i < G16_CUDA_TW_MAX; i++)
                if (c->tw[k][d][i]) cudaFree(c->tw[k][d][i]);
    if (c->pinned) cudaFreeHost(c->pinned);
    if (c->ev_start) cudaEventDestroy(c->ev_start);
    if (c->ev_kernels) cudaEventDestroy(c->ev_kernels);
    if (c->ev_kernels_end) cudaEventDestroy(c->ev_kernels_end);
    if (c->ev_end) cudaEventDestroy(c->ev_end);
    for (int i = 0; i < 3; i++)
        if (c->ev_in[i]) cudaEventDestroy(c->ev_in[i]);
    if (c->ev_pf) cudaEventDestroy(c->ev_pf);
    if (c->ev_z) cudaEventDestroy(c->ev_z);
    if (c->copy) cudaStreamDestroy(c->copy);
    if (c->zs) cudaStreamDestroy(c->zs);
    if (c->stream) cudaStreamDestroy(c->stream);
    free(c);
}

extern "C" g16_status g16_cuda_host_alloc(void **p, size_t bytes)
{
    *p = NULL;
    CK(cudaHostAlloc(p, bytes ? bytes : 1, cudaHostAllocPortable));
    return G16_OK;
}

extern "C" void g16_cuda_host_free(void *p)
{
    if (p) cudaFreeHost(p);
}

g16_status g16_cuda_copy_stream(g16_cuda_ctx *ctx)
{
    if (!ctx->copy) CK(cudaStreamCreateWithFlags(&ctx->copy, cudaStreamNonBlocking));
    for (int i = 0; i < 3; i++)
        if (!ctx->ev_in[i]) CK(cudaEventCreate(&ctx->ev_in[i]));  // timed: G16_CUDA_DEBUG
    if (!ctx->ev_pf) CK(cudaEventCreateWithFlags(&ctx->ev_pf, cudaEventDisableTiming));
    if (!ctx->zs) CK(cudaStreamCreateWithFlags(&ctx->zs, cudaStreamNonBlocking));
    if (!ctx->ev_z) CK(cudaEventCreateWithFlags(&ctx->ev_z, cudaEventDisableTiming));
    return G16_OK;
}

extern "C" g16_status g16_cuda_host_register(void *p, size_t bytes)
{
    if (!p || !bytes) return G16_OK;
    CK(cudaHostRegister(p, bytes, cudaHostRegisterPortable));
    return G16_OK;
}

extern "C" void g16_cuda_host_unregister(void *p)
{
    if (p) cudaHostUnregister(p);
}

extern "C" g16_status g16_cuda_mem_info(g16_cuda_ctx *ctx, size_t *free_b, size_t *total_b)
{
    G16_TRY(g16_cuda_enter(ctx));
    CK(cudaMemGetInfo(free_b, total_b));
    return G16_OK;
}

extern "C" g16_status g16_cuda_set_ntt_radix(g16_cuda_ctx *ctx, int radix)
{
    if (radix != 2 && radix != 4 && radix != 8)
        return g16_fail(G16_ERR_ARG, "g16_cuda_set_ntt_radix: radix %d (2, 4 or 8)", radix);
    ctx->ntt_radix = radix;
    return G16_OK;
}

extern "C" void g16_cuda_set_poison(g16_cuda_ctx *ctx, int on)
{
    ctx->poison = on;
}

extern "C" void g16_cuda_last_times(const g16_cuda_ctx *ctx, float *total_ms, float *kernel_ms)
{
    if (total_ms) *total_ms = ctx->total_ms;
    if (kernel_ms) *kernel_ms = ctx->kernel_ms;
}

g16_status g16_cuda_mark(g16_cuda_ctx *ctx, cudaEvent_t ev)
{
    CK(cudaEventRecord(ev, ctx->stream));
    return G16_OK;
}

g16_status g16_cuda_times_finish(g16_cuda_ctx *ctx)
{
    CK(cudaEventSynchronize(ctx->ev_end));
    CK(cudaEventElapsedTime(&ctx->total_ms, ctx->ev_start, ctx->ev_end));
    CK(cudaEventElapsedTime(&ctx->kernel_ms, ctx->ev_kernels, ctx->ev_kernels_end));
    return G16_OK;
}

g16_status g16_cuda_scratch(g16_cuda_ctx *ctx, void **p, int slot, size_t bytes)
{
    if (bytes == 0) bytes = 1;
    if (ctx->slot_bytes[slot] < bytes) {
        if (ctx->slot[slot]) {
            // The old buffer may still be read by queued work.
            CK(cudaStreamSynchronize(ctx->stream));
            // Forgotten before the free: a free that reports failure must not leave a
            // pointer that the next call frees again or hands out (the fault walk did).
            void *old = ctx->slot[slot];
            ctx->slot[slot] = NULL;
            ctx->slot_bytes[slot] = 0;
            CK(cudaFree(old));
        }
        cudaError_t e = G16_CUDA_MALLOC(&ctx->slot[slot], bytes);
        if (e != cudaSuccess) {
            ctx->slot[slot] = NULL;
            // Say how much was asked and what the card had left, with what this
            // context already holds in its other buffers.
            size_t free_b = 0, total_b = 0, held = 0;
            cudaGetLastError();
            cudaMemGetInfo(&free_b, &total_b);
            for (int i = 0; i < SLOT_COUNT; i++) held += ctx->slot_bytes[i];
            g16_cuda_fail(e, "cudaMalloc(work buffer)", __FILE__, __LINE__);
            return g16_fail_ctx(e == cudaErrorMemoryAllocation ? G16_ERR_NOMEM : G16_ERR_BACKEND,
                                "device work buffer %d of %.2f GB (device: %.2f of %.2f GB free; "
                                "this context's work buffers hold %.2f GB)",
                                slot, bytes / 1e9, free_b / 1e9, total_b / 1e9, held / 1e9);
        }
        ctx->slot_bytes[slot] = bytes;
    }
    *p = ctx->slot[slot];
    if (ctx->poison && slot != SLOT_POW) CK(cudaMemsetAsync(*p, 0xA5, bytes, ctx->stream));
    return G16_OK;
}

g16_status g16_cuda_pinned(g16_cuda_ctx *ctx, void **p, size_t bytes)
{
    if (ctx->pinned_bytes < bytes) {
        CK(cudaStreamSynchronize(ctx->stream));
        void *old = ctx->pinned;  // forgotten first, as in g16_cuda_scratch
        ctx->pinned = NULL;
        ctx->pinned_bytes = 0;
        if (old) CK(cudaFreeHost(old));
        CK(cudaHostAlloc(&ctx->pinned, bytes, cudaHostAllocDefault));
        ctx->pinned_bytes = bytes;
    }
    *p = ctx->pinned;
    return G16_OK;
}

// Chunks of the staging buffer: two halves, so the CPU fills one while the copy
// engine drains the other.
#define STAGE_CHUNK ((size_t)64 << 20)

extern "C" g16_status g16_cuda_stage_reserve(g16_cuda_ctx *ctx)
{
    void *pin;
    return g16_cuda_pinned(ctx, &pin, 2 * STAGE_CHUNK);
}

// 1 when `host` lies in page-locked memory (g16_cuda_host_alloc or registered):
// such buffers are copied directly, at full bus speed, without staging.
int g16_cuda_is_pinned(const void *host)
{
    cudaPointerAttributes a;
    if (cudaPointerGetAttributes(&a, host) != cudaSuccess) {
        cudaGetLastError();  // older runtimes report plain pageable memory as an error
        return 0;
    }
    return a.type == cudaMemoryTypeHost;
}

// A large pageable upload (a key's query: 13 GB at 2^27) is bound by the host's copy
// into the staging buffer, ≈ 5 GB/s on one thread against ≈ 50 GB/s over the bus; the
// alternative, page-locking the source, runs at ≈ 12.5 GB/s and then unlocking costs
// half as much again (docs/BENCHMARKS.md, issue 22).  So several threads copy: each
// owns two slots of the staging buffer, claims the next chunk of the source, fills a
// slot and queues its DMA on the context's stream, and refills a slot only after that
// slot's event.  The caller is worker 0, so a failed thread start only narrows it.
#define PAR_MIN ((size_t)256 << 20)
#define PAR_MAX_THREADS 16

typedef struct par_upload {
    g16_cuda_ctx *ctx;
    char *dev;
    const char *host;
    size_t bytes, slot;
    pthread_mutex_t mu;
    size_t next;      // the next chunk's offset
    g16_status st;    // the first failure, its message in msg
    char msg[256];
} par_upload;

typedef struct par_worker {
    par_upload *u;
    int t;
    pthread_t th;
} par_worker;

static g16_status par_chunks(par_upload *u, char *mine, cudaEvent_t done[2])
{
    CK(cudaSetDevice(u->ctx->device));
    CK(cudaEventCreateWithFlags(&done[0], cudaEventDisableTiming));
    CK(cudaEventCreateWithFlags(&done[1], cudaEventDisableTiming));
    bool used[2] = {false, false};
    for (int k = 0;; k ^= 1) {
        pthread_mutex_lock(&u->mu);
        size_t off = u->next;
        bool stop = u->st != G16_OK || off >= u->bytes;
        if (!stop) u->next += u->slot;
        pthread_mutex_unlock(&u->mu);
        if (stop) break;
        size_t len = u->bytes - off < u->slot ? u->bytes - off : u->slot;
        char *buf = mine + (size_t)k * u->slot;
        if (used[k]) CK(cudaEventSynchronize(done[k]));
        memcpy(buf, u->host + off, len);
        CK(cudaMemcpyAsync(u->dev + off, buf, len, cudaMemcpyHostToDevice, u->ctx->stream));
        CK(cudaEventRecord(done[k], u->ctx->stream));
        used[k] = true;
    }
    return G16_OK;
}

static void *par_run(void *arg)
{
    par_worker *w = (par_worker *)arg;
    par_upload *u = w->u;
    cudaEvent_t done[2] = {NULL, NULL};
    g16_status st = par_chunks(u, (char *)u->ctx->pinned + (size_t)w->t * 2 * u->slot, done);
    // this worker's slots are free only when its last copies are (the caller then
    // synchronises the stream before anyone reuses the buffer)
    for (int i = 0; i < 2; i++)
        if (done[i]) {
            cudaEventSynchronize(done[i]);
            cudaEventDestroy(done[i]);
        }
    if (st != G16_OK) {
        pthread_mutex_lock(&u->mu);
        if (u->st == G16_OK) {
            u->st = st;
            snprintf(u->msg, sizeof u->msg, "%s", g16_last_error());
        }
        pthread_mutex_unlock(&u->mu);
    }
    return NULL;
}

// Workers for a staged upload: G16_CUDA_UPLOAD_THREADS (1 = the single-thread path;
// read at each large upload, so a benchmark can compare counts in one process),
// default 8 (g16_gpu_bench's COPY rows compare 1 to 16 on the H200 host).
static int par_threads(void)
{
    const char *v = getenv("G16_CUDA_UPLOAD_THREADS");
    int t = v ? atoi(v) : 8;
    return t < 1 ? 1 : t > PAR_MAX_THREADS ? PAR_MAX_THREADS : t;
}

static g16_status upload_parallel(g16_cuda_ctx *ctx, void *dev, const void *host, size_t bytes, int nt)
{
    void *pin;
    G16_TRY(g16_cuda_pinned(ctx, &pin, 2 * STAGE_CHUNK));
    par_upload u;
    memset(&u, 0, sizeof u);
    u.ctx = ctx;
    u.dev = (char *)dev;
    u.host = (const char *)host;
    u.bytes = bytes;
    u.slot = (ctx->pinned_bytes / (2 * (size_t)nt)) & ~(size_t)4095;
    pthread_mutex_init(&u.mu, NULL);
    par_worker w[PAR_MAX_THREADS];
    int started = 1;
    for (int t = 0; t < nt; t++) w[t].u = &u, w[t].t = t;
    for (int t = 1; t < nt; t++, started++)
        if (g16_thread_create(&w[t].th, par_run, &w[t]) != 0) break; /* fewer workers serve */
    par_run(&w[0]);
    for (int t = 1; t < started; t++) pthread_join(w[t].th, NULL);
    pthread_mutex_destroy(&u.mu);
    cudaError_t e = cudaStreamSynchronize(ctx->stream);
    if (u.st != G16_OK) return g16_fail(u.st, "%s", u.msg);
    if (e != cudaSuccess) return g16_cuda_fail(e, "host-to-device copy", __FILE__, __LINE__);
    return G16_OK;
}

g16_status g16_cuda_upload(g16_cuda_ctx *ctx, void *dev, const void *host, size_t bytes)
{
    if (bytes == 0) return G16_OK;
    if (g16_cuda_is_pinned(host)) {
        CK(cudaMemcpyAsync(dev, host, bytes, cudaMemcpyHostToDevice, ctx->stream));
        CK(cudaStreamSynchronize(ctx->stream));
        return G16_OK;
    }
    int nt = bytes >= PAR_MIN ? par_threads() : 1;
    if (nt > 1) return upload_parallel(ctx, dev, host, bytes, nt);
    void *pin;
    G16_TRY(g16_cuda_pinned(ctx, &pin, 2 * STAGE_CHUNK));
    cudaEvent_t done[2];
    CK(cudaEventCreateWithFlags(&done[0], cudaEventDisableTiming));
    cudaError_t e = cudaEventCreateWithFlags(&done[1], cudaEventDisableTiming);
    if (e != cudaSuccess) {
        cudaEventDestroy(done[0]);
        return g16_cuda_fail(e, "cudaEventCreate", __FILE__, __LINE__);
    }
    bool used[2] = {false, false};
    size_t off = 0;
    int k = 0;
    while (off < bytes && e == cudaSuccess) {
        size_t len = bytes - off < STAGE_CHUNK ? bytes - off : STAGE_CHUNK;
        char *buf = (char *)pin + (size_t)k * STAGE_CHUNK;
        if (used[k] && (e = cudaEventSynchronize(done[k])) != cudaSuccess) break;
        memcpy(buf, (const char *)host + off, len);
        if ((e = cudaMemcpyAsync((char *)dev + off, buf, len, cudaMemcpyHostToDevice,
                                 ctx->stream)) != cudaSuccess)
            break;
        if ((e = cudaEventRecord(done[k], ctx->stream)) != cudaSuccess) break;
        used[k] = true;
        off += len;
        k ^= 1;
    }
    // The staging buffer must not be rewritten before the last copies finish.
    cudaError_t e2 = cudaStreamSynchronize(ctx->stream);
    cudaEventDestroy(done[0]);
    cudaEventDestroy(done[1]);
    if (e == cudaSuccess) e = e2;
    if (e != cudaSuccess) return g16_cuda_fail(e, "host-to-device copy", __FILE__, __LINE__);
    return G16_OK;
}

g16_status g16_cuda_download(g16_cuda_ctx *ctx, void *host, const void *dev, size_t bytes)
{
    if (bytes == 0) return G16_OK;
    if (g16_cuda_is_pinned(host)) {
        CK(cudaMemcpyAsync(host, dev, bytes, cudaMemcpyDeviceToHost, ctx->stream));
        CK(cudaStreamSynchronize(ctx->stream));
        return G16_OK;
    }
    void *pin;
    G16_TRY(g16_cuda_pinned(ctx, &pin, 2 * STAGE_CHUNK));
    for (size_t off = 0; off < bytes; off += STAGE_CHUNK) {
        size_t len = bytes - off < STAGE_CHUNK ? bytes - off : STAGE_CHUNK;
        CK(cudaMemcpyAsync(pin, (const char *)dev + off, len, cudaMemcpyDeviceToHost,
                           ctx->stream));
        CK(cudaStreamSynchronize(ctx->stream));
        memcpy((char *)host + off, pin, len);
    }
    return G16_OK;
}

g16_status g16_cuda_sync(g16_cuda_ctx *ctx)
{
    CK(cudaStreamSynchronize(ctx->stream));
    CK(cudaGetLastError());
    return G16_OK;
}

// ---- self-test hook --------------------------------------------------------------
template <class F, int OP>
__global__ void field_op_kernel(F *out, const F *a, const F *b, size_t n)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    if (OP == 0) out[i] = a[i] * b[i];
    if (OP == 1) out[i] = a[i] + b[i];
    if (OP == 2) out[i] = a[i] - b[i];
}

template <class F, int OP>
static g16_status field_op(g16_cuda_ctx *ctx, void *out, const void *a, const void *b, size_t n)
{
    size_t bytes = n * sizeof(F);
    void *da, *db, *dc;
    G16_TRY(g16_cuda_scratch(ctx, &da, SLOT_MISC, 3 * bytes));
    db = (char *)da + bytes;
    dc = (char *)db + bytes;
    G16_TRY(g16_cuda_upload(ctx, da, a, bytes));
    G16_TRY(g16_cuda_upload(ctx, db, b, bytes));
    CK(cudaMemsetAsync(dc, 0xA5, bytes, ctx->stream));  // poison
    field_op_kernel<F, OP><<<(unsigned)((n + 127) / 128), 128, 0, ctx->stream>>>(
        (F *)dc, (const F *)da, (const F *)db, n);
    CK_LAUNCH("field_op");
    G16_TRY(g16_cuda_download(ctx, out, dc, bytes));
    return g16_cuda_sync(ctx);
}

extern "C" g16_status g16_cuda_field_op(g16_cuda_ctx *ctx, void *out, const void *a,
                                        const void *b, size_t n, int which)
{
    if (n == 0) return G16_OK;
    if (!ctx || !out || !a || !b) return g16_fail(G16_ERR_ARG, "g16_cuda_field_op: NULL argument");
    G16_TRY(g16_cuda_enter(ctx));
    switch (which) {
    case 0: return field_op<g16_dfr, 0>(ctx, out, a, b, n);
    case 1: return field_op<g16_dfp, 0>(ctx, out, a, b, n);
    case 2: return field_op<g16_dfp2, 0>(ctx, out, a, b, n);
    case 3: return field_op<g16_dfp, 1>(ctx, out, a, b, n);
    case 4: return field_op<g16_dfp, 2>(ctx, out, a, b, n);
    default: return g16_fail(G16_ERR_ARG, "g16_cuda_field_op: unknown op %d", which);
    }
}
