/* The CUDA backend's C boundary (implemented by the .cu files of src/backend/cuda).
 *
 * Every function returns a g16_status and never exits or aborts: a CUDA failure
 * (no device, launch error, out of device memory, ...) becomes G16_ERR_BACKEND or
 * G16_ERR_NOMEM with a message (g16_last_error) naming the call, file and line.
 * Only present when the build has CUDA (G16_WITH_CUDA); callers must check
 * g16_cuda_built() / g16_cuda_devices() before use.
 *
 * Data layouts are the CPU's (field/fr.h, curve/point.h): Montgomery form, fully
 * reduced, little-endian limbs; a device array is a byte copy of the host array,
 * so results equal the CPU's bit for bit.
 *
 * NTT conventions (they match the CPU NTT of src/ntt/): size n = 2^log_n,
 * 0 <= log_n <= G16_CUDA_NTT_MAX_LOG; ω_n = g^((r-1)/2^32) squared (32 - log_n)
 * times with the multiplicative generator g = 7; the coset is g·H.
 *   forward:  X[i] = Σ_k x[k]·ω^(ik)
 *   inverse:  x[k] = n^-1 Σ_i X[i]·ω^(-ik)
 *   coset forward: X[i] = Σ_k x[k]·(g·ω^i)^k   (coefficient k scaled by g^k first)
 *   coset inverse: the inverse of coset forward (scales coefficient k by n^-1·g^-k).
 * Orders: in_bitrev / out_bitrev say whether the input / output array is in
 * bit-reversed order (position j holds entry bitrev(j)); natural otherwise.  The
 * cheap pairs are natural -> bit-reversed and bit-reversed -> natural (no
 * reordering pass); the other two add one permutation pass.
 *
 * Thread safety: a context is used by one thread at a time; separate contexts
 * (even on the same device) are independent.
 */
#ifndef G16_BACKEND_CUDA_OPS_H
#define G16_BACKEND_CUDA_OPS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#include "curve/point.h"
#include "field/fr.h"
#include "g16.h"

#if G16_CURVE_BN254
#define G16_CUDA_NTT_MAX_LOG 28u /* BN254's Fr has 2-adicity 28 */
#else
#define G16_CUDA_NTT_MAX_LOG 30u
#endif

typedef struct g16_cuda_ctx g16_cuda_ctx;
typedef struct g16_cuda_bases g16_cuda_bases;

/* Creates a context on device `device` (its own stream, memory pool and pinned
 * staging buffer).  Returns G16_OK; G16_ERR_BACKEND when there is no such device
 * or the driver fails; G16_ERR_NOMEM. */
g16_status g16_cuda_ctx_create(g16_cuda_ctx **out, int device);
/* Frees everything the context holds (NULL is allowed). */
void g16_cuda_ctx_destroy(g16_cuda_ctx *ctx);
/* Makes the context's GPU the calling thread's current one, for calls that take no
 * context (host registration): with several GPUs a thread that never chose one would
 * otherwise open a context on GPU 0, used or not.  Returns G16_OK or G16_ERR_BACKEND. */
g16_status g16_cuda_use(g16_cuda_ctx *ctx);

/* Allocates the context's pinned staging buffer now rather than at the first
 * copy from pageable memory, so that a caller measuring the context's host
 * footprint right after creating it sees all of it.  Returns G16_OK,
 * G16_ERR_NOMEM or G16_ERR_BACKEND. */
g16_status g16_cuda_stage_reserve(g16_cuda_ctx *ctx);

/* Page-locked host memory for buffers the device reads or writes (a, b, c, h,
 * scalars): the operations copy such buffers directly at full bus speed instead
 * of staging them through the context's pinned buffer with a host memcpy.
 * Returns G16_OK, G16_ERR_NOMEM or G16_ERR_BACKEND. */
g16_status g16_cuda_host_alloc(void **p, size_t bytes);
void g16_cuda_host_free(void *p);

/* NTT pass kernel: radix 8 (three stages per shared-memory round trip; the
 * default since session 4: 2^27 in 41.2 ms against 45.1 for radix 4 on the H200),
 * radix 4 (two stages per round trip; the session-3 default) or radix 2 (one
 * stage per round trip).  All are validated on the host by
 * tests/gpu/host_ntt.cu and on the GPU by the differential test.  Returns
 * G16_ERR_ARG for other values. */
g16_status g16_cuda_set_ntt_radix(g16_cuda_ctx *ctx, int radix);

/* Test aid: when on, every pool buffer handed to an operation is first filled
 * with the byte 0xA5, so output an operation forgets to write cannot pass as
 * correct by reusing the previous call's result. */
void g16_cuda_set_poison(g16_cuda_ctx *ctx, int on);

/* Timing of the last operation on ctx, measured with CUDA events on its stream:
 * *total_ms from the first host-to-device copy to the last device-to-host copy,
 * *kernel_ms the device work alone (inputs already on the device).  Either
 * pointer may be NULL. */
void g16_cuda_last_times(const g16_cuda_ctx *ctx, float *total_ms, float *kernel_ms);

/* NTT of n = 2^log_n elements in place (host memory).  See the conventions above.
 * Returns G16_OK; G16_ERR_ARG for log_n > G16_CUDA_NTT_MAX_LOG or data NULL. */
g16_status g16_cuda_ntt(g16_cuda_ctx *ctx, g16_fr *data, unsigned log_n, int inverse,
                        int coset, int in_bitrev, int out_bitrev);

/* The Groth16 H step on a domain of n = 2^log_n (the CPU's g16_ntt_h_step):
 * a, b, c are evaluations on H, in bit-reversed order when bitrev_in (as
 * synthesis can write them; then no pass reorders anything), else natural;
 * h gets the n coefficients, natural order, of
 *   h = coset_inverse((coset_forward(inverse(a))·coset_forward(inverse(b))
 *                      − coset_forward(inverse(c))) · Z^-1),  Z = g^n − 1.
 * h may alias a, b or c.  Returns G16_OK; G16_ERR_ARG; G16_ERR_BACKEND/NOMEM. */
g16_status g16_cuda_h_step(g16_cuda_ctx *ctx, g16_fr *h, const g16_fr *a, const g16_fr *b,
                           const g16_fr *c, unsigned log_n, int bitrev_in);

/* As g16_cuda_h_step with only the first `rows` entries of a, b, c given (the
 * rest of the domain is zero; natural order only: bitrev_in needs rows = n) and
 * h NULL allowed: the coefficients then stay on the device only, for
 * g16_cuda_msm_g1_h (prove_start's H part copies nothing back). */
g16_status g16_cuda_h_step_rows(g16_cuda_ctx *ctx, g16_fr *h, const g16_fr *a, const g16_fr *b,
                                const g16_fr *c, size_t rows, unsigned log_n, int bitrev_in);

/* Starts the copies of an H step's inputs (natural order, `rows` rows of a domain
 * of 2^log_n) to the device on a second stream and returns at once, so that other
 * work on ctx (the proof's MSMs) runs while they travel; the next
 * g16_cuda_h_step_rows with exactly these arguments then only waits for them.
 * Taken only for page-locked a, b, c (and not with G16_CUDA_OVERLAP=0); otherwise
 * it does nothing and the h step copies as usual.  a, b, c must stay valid and
 * unchanged until that h step returns or g16_cuda_h_prefetch_drop; an NTT call on
 * ctx drops the prefetch first.  Returns G16_OK, G16_ERR_ARG (as h_step_rows),
 * G16_ERR_BACKEND or G16_ERR_NOMEM (then nothing is left in flight). */
g16_status g16_cuda_h_prefetch(g16_cuda_ctx *ctx, const g16_fr *a, const g16_fr *b,
                               const g16_fr *c, size_t rows, unsigned log_n);
/* Waits for a pending prefetch's copies (and a split scalar upload's tail) and
 * forgets it: call it before freeing the inputs of a prefetch whose h step will
 * not run (an error in between). */
g16_status g16_cuda_h_prefetch_drop(g16_cuda_ctx *ctx);
/* 1 while a prefetch is pending (taken and not yet used or dropped): for tests. */
int g16_cuda_h_prefetched(const g16_cuda_ctx *ctx);
/* Device-resident bases (uploaded once, e.g. a proving key's query).  group is
 * G16_G1 (g16_g1_affine) or G16_G2 (g16_g2_affine); (0,0) = infinity allowed. */
g16_status g16_cuda_bases_upload(g16_cuda_ctx *ctx, g16_cuda_bases **out, g16_group group,
                                 const void *bases, size_t n);
/* A handle over the first n bases of b (no copy; b must outlive it; free it with
 * g16_cuda_bases_free, which then frees only the handle).  Returns G16_ERR_ARG
 * for n > b's count. */
g16_status g16_cuda_bases_prefix(g16_cuda_bases **out, const g16_cuda_bases *b, size_t n);
/* The same over bases [start, start + n) of b (plain or folded). */
g16_status g16_cuda_bases_range(g16_cuda_bases **out, const g16_cuda_bases *b, size_t start,
                                size_t n);
void g16_cuda_bases_free(g16_cuda_bases *b);

/* Folded G1 bases for window c (0: G16_CUDA_FOLD_C): the W = windows(c) shifted
 * copies 2^(c·k)·P_i (k < W) of b's points, computed on the device (XYZZ doublings,
 * one Fermat inversion per point) and stored affine, W times b's memory.  An MSM
 * over the folded handle adds every window's digits into ONE set of 2^(c−1)
 * buckets: no per-window bucket reduction, so c can be large (fewer windows, fewer
 * additions per scalar); the handle fixes the window (opts->window must be 0 or c).
 * Prefix views of it work as for plain bases.  Opt-in: validated on the H200 in
 * session 4, where 2^24 took 118 ms against 129 for plain bases (docs/cuda.md).
 * Returns G16_ERR_ARG for G2 bases or c outside [2, 22]; G16_ERR_NOMEM/BACKEND. */
#define G16_CUDA_FOLD_C 22
/* Device bytes held by b's own allocation (0 for a prefix view). */
size_t g16_cuda_bases_device_bytes(const g16_cuda_bases *b);
g16_status g16_cuda_bases_fold(g16_cuda_ctx *ctx, g16_cuda_bases **out, const g16_cuda_bases *b,
                               unsigned c);

/* MSM knobs; the zero value means automatic. */
typedef struct g16_cuda_msm_opts {
    unsigned window;  /* c in [2, 22]; 0: from n */
    int no_split;     /* nonzero: 1-scalars go through the buckets like any other */
    size_t max_pairs; /* (bucket, point) pairs per sort; 0: 2^30 (also the cap).  A larger
                         MSM sorts its windows in groups that fit, over chunks of at most
                         max_pairs and 2^27 scalars whose sums add up (with
                         G16_CUDA_MSM_WGROUP=0: chunks of max_pairs / windows scalars,
                         each over all windows): it bounds the device memory of the sort
                         (tests set it low to exercise the chunks and groups) */
} g16_cuda_msm_opts;

/* out = Σ scalars[i]·bases[i], with the CPU MSM's conventions (msm/msm.h):
 * scalars are n Montgomery-form Fr in host memory; density NULL or an n-bit
 * bitmap selecting the scalars that have a base (bases then holds exactly the
 * set bits' points, in order).  Zero scalars are skipped; with the split on,
 * the bases of 1-scalars are summed by a parallel batch addition and Pippenger
 * (signed digits, bucket sort, XYZZ buckets) runs on the rest.
 * Out: out: the sum in Jacobian form (Z = 0 at infinity); compare after
 * normalisation (the projective scaling differs from the CPU's).
 * Returns G16_OK; G16_ERR_ARG when the bases' group is wrong, n_bases does not
 * match n / the bitmap, or opts->window is out of range; G16_ERR_BACKEND/NOMEM. */
g16_status g16_cuda_msm_g1(g16_cuda_ctx *ctx, g16_g1_jac *out, const g16_cuda_bases *bases,
                           const g16_fr *scalars, size_t n, const uint64_t *density,
                           const g16_cuda_msm_opts *opts);
g16_status g16_cuda_msm_g2(g16_cuda_ctx *ctx, g16_g2_jac *out, const g16_cuda_bases *bases,
                           const g16_fr *scalars, size_t n, const uint64_t *density,
                           const g16_cuda_msm_opts *opts);

/* out = Σ_{i<n} h_i·bases[i] over the coefficients h of the last g16_cuda_h_step
 * on ctx, read where they still lie on the device (no copy): the H-query MSM of
 * prove_start (bellperson's H query has domain size − 1 points).  Any other NTT
 * call on ctx in between discards them.  Returns G16_ERR_ARG when no H step
 * result is held or n exceeds its size; otherwise as g16_cuda_msm_g1. */
g16_status g16_cuda_msm_g1_h(g16_cuda_ctx *ctx, g16_g1_jac *out, const g16_cuda_bases *bases,
                             size_t n, const g16_cuda_msm_opts *opts);

/* Copies n scalars (e.g. a proof's assignment z) to a buffer of ctx that stays on
 * the device until the next call, for g16_cuda_msm_g1_resident: the L, A and B1
 * MSMs of one proof read z from there instead of copying it three times. */
g16_status g16_cuda_scalars_upload(g16_cuda_ctx *ctx, const g16_fr *s, size_t n);
/* As g16_cuda_scalars_upload, but when s is page-locked and 0 < head < n, only
 * s[0, head) is copied before it returns: the rest travels on a stream of its own
 * (a later H-step prefetch's copies wait for it: they share the bus), and the
 * first resident MSM that reads past head makes the compute stream wait for it,
 * so an MSM over the head overlaps the copy (prove_start's first MSM otherwise
 * waits for all of z: 40 ms at 2^26).  *split says whether it did that (0:
 * everything was copied, as the plain call).  s must stay valid and unchanged
 * until a resident MSM past head, the next upload, g16_cuda_h_prefetch_drop or
 * g16_cuda_ctx_destroy has run. */
g16_status g16_cuda_scalars_upload_split(g16_cuda_ctx *ctx, const g16_fr *s, size_t n, size_t head,
                                         int *split);
/* Copies density bitmap `which` (0 or 1) of n_bits bits to the device now; until
 * g16_cuda_density_forget (or the next preload of `which`), MSMs given these bits
 * (or a chunk of them) read that copy instead of uploading their own.  Why:
 * uploads made while the H-step prefetch's gigabytes travel wait behind them
 * (session 10: a 2^26 proof's A MSM took 13 ms longer when it began earlier in
 * the copies), so prove_start sends its bitmaps before any long copy.  The bits
 * must not change before the forget. */
g16_status g16_cuda_density_preload(g16_cuda_ctx *ctx, int which, const uint64_t *bits, size_t n_bits);
void g16_cuda_density_forget(g16_cuda_ctx *ctx);
/* As g16_cuda_msm_g1 over the resident scalars [offset, offset + n).  Returns
 * G16_ERR_ARG when they are not held (or a later g16_cuda_scalars_upload was
 * shorter). */
g16_status g16_cuda_msm_g1_resident(g16_cuda_ctx *ctx, g16_g1_jac *out,
                                    const g16_cuda_bases *bases, size_t offset, size_t n,
                                    const uint64_t *density, const g16_cuda_msm_opts *opts);
g16_status g16_cuda_msm_g2_resident(g16_cuda_ctx *ctx, g16_g2_jac *out,
                                    const g16_cuda_bases *bases, size_t offset, size_t n,
                                    const uint64_t *density, const g16_cuda_msm_opts *opts);

/* Page-locks an existing host buffer (cudaHostRegister) so copies from and to it
 * run at full bus speed; undo with g16_cuda_host_unregister before freeing it. */
g16_status g16_cuda_host_register(void *p, size_t bytes);
void g16_cuda_host_unregister(void *p);

/* Device memory: free and total bytes of ctx's device. */
g16_status g16_cuda_mem_info(g16_cuda_ctx *ctx, size_t *free_b, size_t *total_b);

/* Self-test hook for the differential test: out[i] = a[i]·b[i] computed on the
 * device, elementwise, for which = 0 (Fr), 1 (Fp), 2 (Fp2), 3 (Fp add), 4 (Fp sub);
 * n elements of the field's size (32, 48 or 96 bytes). */
g16_status g16_cuda_field_op(g16_cuda_ctx *ctx, void *out, const void *a, const void *b,
                             size_t n, int which);

#ifdef __cplusplus
}
#endif

#endif
