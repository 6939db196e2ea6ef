/* Groth16 over BLS12-381, bellperson/Filecoin conventions: internal interface.
 *
 * Keys.  A proving key (g16_key) holds the verifying key and the five query
 * arrays exactly as bellperson's Parameters do, decoded to affine Montgomery
 * points ((0,0) = infinity):
 *   h[N-1]                     τ^i·Z(τ)/δ·G1, N the domain size, Z(τ) = τ^N − 1
 *   l[n_aux]                   (β·u_j + α·v_j + w_j)/δ·G1 for the aux variables
 *   a[1 + n_pub + |aux_in_a|]  u_j·G1: every input, then the aux variables in A
 *   b_g1, b_g2                 v_j·G1 / v_j·G2: the inputs in B, then the aux in B
 *   vk.ic[1 + n_pub]           (β·u_j + α·v_j + w_j)/γ·G1 for the inputs (one included)
 * Queries a, b_g1, b_g2 keep only the variables set in the density bitmaps
 * (bellperson drops the identity points, which for a random τ are exactly those
 * variables), in variable order; the prover skips the same variables through the
 * bitmaps.  Keys are reference counted (g16_key_retain / g16_key_release) so a
 * pending proof can keep one alive after the caller lets go of it.
 *
 * The public part (opaque types, prove/verify/setup entry points) is in
 * include/g16_groth16.h; this header adds the layout for the io layer and tests.
 */
#ifndef G16_GROTH16_GROTH16_H
#define G16_GROTH16_GROTH16_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "curve/point.h"
#include "field/fr.h"
#include "g16.h"
#include "pairing/pairing.h"
#include "r1cs/r1cs.h"

struct g16_vk {
    g16_g1_affine alpha_g1, beta_g1, delta_g1;
    g16_g2_affine beta_g2, gamma_g2, delta_g2;
    g16_g1_affine *ic;
    size_t n_ic;
    /* Verifier state, filled by g16_vk_prepare (NULL until then). */
    g16_g2_prepared *prep; /* β₂, γ₂, δ₂ prepared (3 entries) */
};

struct g16_key {
    _Atomic long refs;
    uint64_t serial; /* unique per key in this process: backends cache resident bases by it */
    g16_vk vk;
    g16_g1_affine *h, *l, *a, *b_g1;
    g16_g2_affine *b_g2;
    size_t n_h, n_l, n_a, n_b_g1, n_b_g2;
    /* Non-NULL when the queries point into a read-only file mapping (a key cache,
     * src/io/keycache.c): releasing the key unmaps it instead of freeing them.  The
     * vk (ic included) is always on the heap. */
    void *map;
    size_t map_bytes;
};

/* Returns: a zeroed key with one reference, or NULL (G16_ERR_NOMEM recorded). */
g16_key *g16_key_alloc(void);

/* Allocates the vk's IC array and the query arrays for the given counts
 * (contents uninitialised).  Returns G16_OK or G16_ERR_NOMEM. */
g16_status g16_key_alloc_arrays(g16_key *k, size_t n_ic, size_t n_h, size_t n_l, size_t n_a,
                                size_t n_b_g1, size_t n_b_g2);

/* Frees the arrays of a vk embedded in a key or standalone (not the struct). */
void g16_vk_clear(g16_vk *vk);

/* Computes the prepared G2 points of vk (idempotent).  Returns G16_OK or NOMEM. */
g16_status g16_vk_prepare(g16_vk *vk);

/* Derives a test-only secret from a seed: the 512-bit big-endian string
 * SHA-256("g16 test setup v1" ‖ label ‖ 0x00 ‖ 0x00 ‖ seed) ‖
 * SHA-256("g16 test setup v1" ‖ label ‖ 0x00 ‖ 0x01 ‖ seed) reduced mod r.  Used for τ, α, β, γ, δ (labels "tau", "alpha", …) and the
 * deterministic r, s of tests. */
void g16_derive_scalar(g16_fr *out, const char *label, const uint8_t *seed, size_t seed_len);

/* SHA-256 (FIPS 180-4) of one message given as up to 4 pieces (NULL/0 allowed). */
void g16_sha256(uint8_t out[32], const void *p0, size_t n0, const void *p1, size_t n1,
                const void *p2, size_t n2, const void *p3, size_t n3);

/* The size-N subgroup generator ω_N = 7^((r−1)/2^32) squared 32 − log_n times,
 * the same root the NTT layer uses (so setup and prover agree on the domain). */
void g16_domain_root(g16_fr *omega, unsigned log_n);

/* Returns: log2 of the smallest power of two >= rows (rows >= 1). */
unsigned g16_domain_log(uint64_t rows);

/* The H step in place: on entry wa, wb hold the evaluations a, b on the domain
 * (N = 2^log_n entries, zero-padded past the rows); wc likewise holds c.  On
 * return wa holds the coefficients of h = (a·b − c)/Z; wb and wc are scratch.
 * Multi-threaded on the default pool.  Returns G16_OK, or G16_ERR_ARG /
 * G16_ERR_NOMEM from the NTT layer's domain (log_n above G16_NTT_MAX_LOG). */
g16_status g16_h_coeffs(g16_fr *wa, g16_fr *wb, g16_fr *wc, unsigned log_n);

/* The H step in pieces, so a, b, c can be released one at a time:
 * g16_h_to_coset(w): inverse NTT then forward coset NTT (evaluations on 7·H,
 * in bit-reversed order: the pointwise steps and g16_h_combine expect that). */
g16_status g16_h_to_coset(g16_fr *w, unsigned log_n);
/* wa = (wa·wb − wc)/Z on the coset (wb NULL: wa already holds a·b), then the
 * inverse coset NTT, leaving the coefficients of h in wa. */
g16_status g16_h_combine(g16_fr *wa, const g16_fr *wb, const g16_fr *wc, unsigned log_n);
/* wa = wa·wb pointwise (lets the prover drop b before c is loaded). */
void g16_h_mul(g16_fr *wa, const g16_fr *wb, unsigned log_n);

/* Fixed-base scalar multiplication: for each job j, outs[j][i] = scalars[j][i]·base
 * (affine, batch normalised) for ns[j] Montgomery-form scalars; one window table,
 * sized from the total count, serves every job.  Multi-threaded on the default
 * pool.  base must be in the prime-order subgroup (refused with
 * G16_ERR_NOT_IN_SUBGROUP otherwise); a base at infinity gives infinity outputs.
 * Returns G16_OK, G16_ERR_NOT_IN_SUBGROUP or G16_ERR_NOMEM. */
g16_status g16_fixed_base_g1(const g16_g1_affine *base, size_t jobs, g16_g1_affine *const *outs,
                             const g16_fr *const *scalars, const size_t *ns);
g16_status g16_fixed_base_g2(const g16_g2_affine *base, size_t jobs, g16_g2_affine *const *outs,
                             const g16_fr *const *scalars, const size_t *ns);

/* Timing of the last prove_start/finish on the calling thread (bench prove). */
typedef struct g16_prove_times {
    double h_ntt, msm_h, msm_l, msm_a, msm_b1, msm_b2, assembly, start_total;
    int b2_in_start; /* the backend ran B2 inside prove_start (ops.h g2_in_start) */
} g16_prove_times;
extern _Thread_local g16_prove_times g16_last_prove_times;

/* Timing of the last g16_setup on the calling thread (bench prove). */
typedef struct g16_setup_times {
    double qap, scalars, g1, g2;
} g16_setup_times;
extern _Thread_local g16_setup_times g16_last_setup_times;

#endif
