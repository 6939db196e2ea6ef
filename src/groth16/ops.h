/* The compute operations of proving, as a table that a backend implements.
 *
 * The groth16 layer defines what it needs (this table) and the backend layer
 * above it provides the tables (src/backend/: the CPU one, the CUDA one), so the
 * prover never includes a backend.  g16_cpu_backend() below is the reference
 * implementation on the ntt and msm layers, used when a caller names no backend.
 *
 * Every operation returns a g16_status with a message (g16_last_error) and
 * produces results equal to the CPU's bit for bit (points compared after
 * normalisation: projective representatives may differ).  A backend object may
 * be shared by several threads: implementations serialise what must be.
 */
#ifndef G16_GROTH16_OPS_H
#define G16_GROTH16_OPS_H

#include "groth16/groth16.h"

/* The NTT kinds of the table; natural order in and out (conventions: src/ntt/ntt.h). */
typedef enum g16_ntt_kind {
    G16_NTT_FORWARD = 0,       /* coefficients -> values on H */
    G16_NTT_INVERSE = 1,       /* values on H -> coefficients (n^-1 included) */
    G16_NTT_COSET_FORWARD = 2, /* coefficients -> values on g·H */
    G16_NTT_COSET_INVERSE = 3  /* values on g·H -> coefficients */
} g16_ntt_kind;

typedef struct g16_backend_ops {
    /* ---- generic operations, host memory in and out */
    /* data: 2^log_n elements transformed in place. */
    g16_status (*ntt)(g16_backend *be, g16_fr *data, unsigned log_n, g16_ntt_kind kind);
    /* a <- coefficients of (a·b − c)/Z_H from evaluations a, b, c on H (natural
     * order); b and c are clobbered (g16_ntt_h_step's contract). */
    g16_status (*h_step)(g16_backend *be, g16_fr *a, g16_fr *b, g16_fr *c, unsigned log_n);
    /* out = Σ s[i]·bases[i] (msm/msm.h's conventions, density NULL or n bits). */
    g16_status (*msm_g1)(g16_backend *be, g16_g1_jac *out, const g16_g1_affine *bases,
                         size_t n_bases, const g16_fr *s, size_t n, const uint64_t *density);
    g16_status (*msm_g2)(g16_backend *be, g16_g2_jac *out, const g16_g2_affine *bases,
                         size_t n_bases, const g16_fr *s, size_t n, const uint64_t *density);
    /* out = Σ_{i < n, bit i set} bases[i]: the 0/1 part of a Groth16 MSM. */
    g16_status (*batch_add_g1)(g16_backend *be, g16_g1_jac *out, const g16_g1_affine *bases,
                               size_t n, const uint64_t *bits);

    /* ---- prove_start's parts, over a key's queries (a backend may keep them
     * resident on its device, keyed by the key's serial) */
    /* The H step and the H-query MSM: a, b, c (in->n_rows rows each, padded to
     * 2^log_n here) are consumed: released through in->release (or free) as soon
     * as the backend is done with them, on every path; the fields are then NULL. */
    g16_status (*prove_h)(g16_backend *be, g16_g1_jac *out, const g16_key *key,
                          g16_prove_input *in, unsigned log_n, g16_prove_times *tm);
    /* The L, A and B1 MSMs of one proof over its assignment z (n_z entries):
     * L over z's aux part, A and B1 over z with the bitmaps abits / bbits (n_z
     * bits each).  One call, so a device backend copies z once and no other
     * thread's work interleaves.  b2: NULL, or (only for backends that set
     * g2_in_start) where the B2 MSM over z and bbits goes, computed in the same
     * call from the device's copy of z. */
    g16_status (*prove_msms_g1)(g16_backend *be, g16_g1_jac *l, g16_g1_jac *a, g16_g1_jac *b1,
                                g16_g2_jac *b2, const g16_key *key, const g16_fr *z, size_t n_z,
                                const uint64_t *abits, const uint64_t *bbits,
                                g16_prove_times *tm);
    /* Optional (NULL: prove_h, then prove_msms_g1): both in one call, H last, for a
     * backend that moves a, b, c to its device while the MSMs run.  Outputs as
     * those two (h: the H MSM); a, b, c consumed as by prove_h; z is in->z (in->n_z
     * entries). */
    g16_status (*prove_all)(g16_backend *be, g16_g1_jac *h, g16_g1_jac *l, g16_g1_jac *a,
                            g16_g1_jac *b1, g16_g2_jac *b2, const g16_key *key,
                            g16_prove_input *in, unsigned log_n, const uint64_t *abits,
                            const uint64_t *bbits, g16_prove_times *tm);
    /* Optional (NULL: prove_msms_g1, in->abc_wait, then prove_h): prove_all's work for
     * an early proof (in->abc_wait set: a, b, c still being written), for a backend
     * that can move a, b, c beside its last MSMs when in->abc_ready says they are
     * complete.  Calls in->abc_wait before anything reads a, b or c; consumes them as
     * prove_h does once they are complete (prove_start releases what is left on
     * failure). */
    g16_status (*prove_early)(g16_backend *be, g16_g1_jac *h, g16_g1_jac *l, g16_g1_jac *a,
                              g16_g1_jac *b1, g16_g2_jac *b2, const g16_key *key,
                              g16_prove_input *in, unsigned log_n, const uint64_t *abits,
                              const uint64_t *bbits, g16_prove_times *tm);
    /* Set by backends that run B2 inside prove_msms_g1 (a device holding z: no
     * compacted host copy of z, which at 2^26 rows took half a second of
     * prove_start).  Otherwise the pending proof runs prove_msm_g2 in the
     * background over the compacted B scalars. */
    int g2_in_start;
    /* The B2 MSM over the compacted scalars of the B-dense variables (run by the
     * pending proof's background thread). */
    g16_status (*prove_msm_g2)(g16_backend *be, g16_g2_jac *out, const g16_key *key,
                               const g16_fr *s, size_t n);
    /* Optional (NULL: prove_msms_g1 and prove_msm_g2): the same two with a per-proof
     * hint that the first leaves in *hint (NULL allowed) for the second, released
     * with hint_free after the second or when the proof is dropped.  The CPU backend
     * hands on the B scalars' grouping of equal values (msm.h, g16_msm_merge_plan),
     * so its merged B1 and B2 MSMs group them once (~20 ms of one core a proof). */
    g16_status (*prove_msms_g1_hinted)(g16_backend *be, g16_g1_jac *l, g16_g1_jac *a,
                                       g16_g1_jac *b1, const g16_key *key, const g16_fr *z,
                                       size_t n_z, const uint64_t *abits, const uint64_t *bbits,
                                       g16_prove_times *tm, void **hint);
    g16_status (*prove_msm_g2_hinted)(g16_backend *be, g16_g2_jac *out, const g16_key *key,
                                      const g16_fr *s, size_t n, const void *hint);
    void (*hint_free)(void *hint);
    /* Host memory one proof needs on this backend beyond a, b, c and z, for a
     * domain of N rows and n_vars variables: *scratch while prove_start runs,
     * *pending from prove_start until prove_finish (the pending proof's copies).
     * The engine reserves these from its budget (docs/engine.md). */
    void (*host_need)(g16_backend *be, uint64_t N, uint64_t n_vars, size_t *scratch,
                      size_t *pending);
    /* Host memory the backend itself holds for as long as it is open (a device
     * context, its pinned staging buffers), measured at open; the engine takes it
     * off the budget.  NULL: none. */
    size_t (*host_fixed)(g16_backend *be);
    /* Forgets anything held for a key (its serial), e.g. resident bases; may be NULL. */
    void (*key_evict)(g16_backend *be, uint64_t key_serial);
    /* Copies every query of key to the device now (idempotent: what is resident stays),
     * so that a later prove_start on it copies no key bytes; may be NULL (nothing to
     * copy, as on the CPU).  Takes the backend's lock per query, so proofs of other
     * keys interleave.  Returns G16_OK, or G16_ERR_NOMEM/BACKEND. */
    g16_status (*key_upload)(g16_backend *be, const g16_key *key);
    /* 1 when every query of the key (its serial) is resident now; may be NULL (0).
     * Cheap and never waits for a running proof. */
    int (*key_resident)(g16_backend *be, uint64_t key_serial);
} g16_backend_ops;

struct g16_backend {
    const g16_backend_ops *ops;
    char name[64]; /* "cpu", "cuda:0 (NVIDIA H200)", ... */
    /* The g16_curve_id whose types the table computes over: the curve of the compile
     * that made it (G16_BACKEND_CURVE; BN254's tables come from the BN254 compile of
     * ops_cpu.c and the backend sources, docs/curve.md).  0 (a zero-initialised
     * wrapper, as tests make) means BLS12-381: read it through g16_backend_curve_of. */
    int curve;
};

static inline int g16_backend_curve_of(const g16_backend *be)
{
    return be->curve ? be->curve : G16_CURVE_ID_BLS12_381;
}

#if G16_CURVE_BN254
#define G16_BACKEND_CURVE G16_CURVE_ID_BN254
#else
#define G16_BACKEND_CURVE G16_CURVE_ID_BLS12_381
#endif

/* The CPU reference backend (a process-wide object; never freed). */
g16_backend *g16_cpu_backend(void);

/* batch_add_g1 for any table: be's own msm_g1 over all-one scalars with bits as
 * the density (the MSMs' 0/1 split turns that into a batch addition). */
g16_status g16_batch_add_by_msm(g16_backend *be, g16_g1_jac *out, const g16_g1_affine *bases,
                                size_t n, const uint64_t *bits);

/* Releases an evaluation buffer handed to prove_start (in->release or free). */
void g16_prove_release(const g16_prove_input *in, g16_fr **buf);

#endif
