/* Groth16 in snarkjs's convention: its proving key (as a .zkey holds it), its
 * prover, and verification with its verifying key.  docs/formats.md sets the
 * convention beside bellperson's; in short:
 *
 *  - rows: the circuit's constraints, then one row per public signal k = 0..nPublic
 *    (the constant one included) with A = w_k, B = C = 0;
 *  - the key holds A and B coefficients only; c = a∘b row by row, which holds for
 *    a satisfying witness (the prover does not check it: see g16_circom_r1cs_check);
 *  - domain of n = domainSize points ω_n^i, ω_n = 5^((r−1)/n) (5: the smallest
 *    quadratic non-residue mod r, as ffjavascript picks it; NOT the generator 7);
 *  - p = a·b − c is evaluated on the odd points ω_2n·ω_n^i (iNTT, scale coefficient
 *    i by ω_2n^i, NTT), where Z(x) = xⁿ − 1 = −2; the H points already carry that
 *    factor and 1/δ (H_i = L^{2n}_{2i+1}(τ)/δ), so H = Σ p_i·H_i with no division.
 *
 * Points are affine, Montgomery form, (0, 0) the point at infinity (curve/point.h). */
#ifndef G16_GROTH16_SNARKJS_PROVE_H
#define G16_GROTH16_SNARKJS_PROVE_H

#include <stddef.h>
#include <stdint.h>

#include "curve/point.h"
#include "field/fr.h"
#include "g16.h"

/* snarkjs's name of the curve of this compile, and the 2-adicity of its r (the
 * largest power-of-two domain; the prover also needs the 2n-th roots). */
#if G16_CURVE_BN254
#define G16_SJ_CURVE_NAME "bn128"
#define G16_SJ_TWO_ADICITY 28
#else
#define G16_SJ_CURVE_NAME "bls12381"
#define G16_SJ_TWO_ADICITY 32
#endif

/* One entry of the A/B coefficient list: matrix m (0 = A, 1 = B) at row, signal. */
typedef struct g16_sj_coef {
    uint32_t m, row, signal;
    g16_fr value;   /* the coefficient itself, Montgomery form */
} g16_sj_coef;

typedef struct g16_sj_pk {
    uint32_t n_vars;       /* witness length, the constant one included */
    uint32_t n_public;     /* public signals, the constant one not counted */
    uint32_t domain_size;  /* n, a power of two */
    uint32_t log_n;
    g16_g1_affine alpha1, beta1, delta1;
    g16_g2_affine beta2, gamma2, delta2;
    g16_g1_affine *ic;     /* n_public + 1 (verifying key) */
    uint64_t n_coefs;
    g16_sj_coef *coefs;
    g16_g1_affine *a, *b1; /* n_vars each */
    g16_g2_affine *b2;     /* n_vars */
    g16_g1_affine *c;      /* n_vars − n_public − 1 (private signals) */
    g16_g1_affine *h;      /* domain_size */
    /* Set by g16_sj_pk_compact: bit k of dens_a / dens_b says A_k / B_k is finite;
     * a, b1, b2 then hold only those points, in order (n_a, n_b of them). */
    uint64_t *dens_a, *dens_b;
    uint64_t n_a, n_b;
} g16_sj_pk;

/* Drops the points at infinity from A, B1 and B2 (a third of B in Poseidon
 * circuits), so the MSMs skip them; the prover passes the density bitmaps.  B1 and
 * B2 must be infinite at the same indices (they are in any key snarkjs or
 * g16_sj_testkey makes: both are v_k(τ) times a generator); otherwise B is left
 * whole.  A compacted key cannot be written back (g16_sj_zkey_write refuses it).
 * Returns: G16_OK; G16_ERR_NOMEM (the key is unchanged). */
g16_status g16_sj_pk_compact(g16_sj_pk *pk);

typedef struct g16_sj_vk {
    uint32_t n_public;
    g16_g1_affine alpha1;
    g16_g2_affine beta2, gamma2, delta2;
    g16_g1_affine *ic;     /* n_public + 1 */
} g16_sj_vk;

typedef struct g16_sj_proof {
    g16_g1_affine a, c;
    g16_g2_affine b;
} g16_sj_proof;

/* Releases the arrays of a key (the struct is zeroed).  NULL members are fine. */
void g16_sj_pk_free(g16_sj_pk *pk);
void g16_sj_vk_free(g16_sj_vk *vk);

/* Step timings of the last g16_sj_prove on this thread (seconds), for benchmarks. */
typedef struct g16_sj_timing {
    double abc, fft, msm_a, msm_b1, msm_b2, msm_c, msm_h, total;
} g16_sj_timing;
const g16_sj_timing *g16_sj_last_timing(void);

/* Returns: an upper bound of the host memory g16_sj_prove takes for one proof with pk
 * (the witness, its vectors, the quotient's twiddles and the MSMs' scratch), for callers
 * that charge it to a budget. */
uint64_t g16_sj_prove_bytes(const g16_sj_pk *pk);

/* Proves with snarkjs's math (see above).
 * Out: proof: affine π_A, π_B, π_C.
 * In:  pk: a key whose coefficient rows/signals were checked by its reader
 *      (row < domain_size, signal < n_vars); w: n_w witness values, Montgomery form,
 *      w[0] = 1; r, s: the blinding scalars (random for a real proof).
 * Returns: G16_OK; G16_ERR_ARG when n_w != n_vars or w[0] != 1; G16_ERR_NOMEM. */
g16_status g16_sj_prove(g16_sj_proof *proof, const g16_sj_pk *pk, const g16_fr *w, size_t n_w,
                        const g16_fr *r, const g16_fr *s);

/* As g16_sj_prove with the quotient's transforms and the MSMs on backend be (the CPU's
 * or a device's, of this compile's curve: g16_backend_open_curve).  The transforms go
 * to be only where its NTT's roots are snarkjs's (BN254; BLS12-381's backends use roots
 * from 7, so there they stay on the host).  be NULL: g16_sj_prove.
 * Returns also G16_ERR_ARG for a backend of the other curve; be's errors. */
g16_status g16_sj_prove_on(g16_backend *be, g16_sj_proof *proof, const g16_sj_pk *pk, const g16_fr *w,
                           size_t n_w, const g16_fr *r, const g16_fr *s);

/* Verifies e(A, B) = e(α, β)·e(Σ x_i·IC_i, γ)·e(C, δ) with x_0 = 1.
 * In: vk, proof: points already checked (on the curve and in the subgroup, which the
 *     JSON readers do); pub: n_pub public signals, Montgomery form.
 * Returns: G16_OK for a valid proof; G16_ERR_UNSATISFIED ("proof rejected") for an
 * invalid one; G16_ERR_ARG when n_pub != vk->n_public. */
g16_status g16_sj_verify(const g16_sj_vk *vk, const g16_sj_proof *proof, const g16_fr *pub, size_t n_pub);

/* The snarkjs domain's roots: out = 5^((r−1)/2^log_n), a primitive 2^log_n-th root
 * of unity (log_n <= G16_SJ_TWO_ADICITY; 5 is a non-residue mod r on both curves). */
void g16_sj_root(g16_fr *out, unsigned log_n);

/* In-place radix-2 NTT over Fr of length 2^log_n, natural order in and out:
 * x_j <- Σ_i x_i·ω^(ij) with ω = g16_sj_root(log_n), or ω⁻¹ and a 1/n factor when
 * inverse is nonzero.  Multi-threaded on the default pool.  Returns G16_ERR_NOMEM. */
g16_status g16_sj_ntt(g16_fr *x, unsigned log_n, int inverse);

/* The prover's quotient step, exposed for tests: given a, b, c (evaluations on the
 * n-point domain, each destroyed), writes p_i = A(x_i)·B(x_i) − C(x_i) on the odd
 * points x_i = ω_2n·ω_n^i into out (n elements). */
g16_status g16_sj_odd_quotient(g16_fr *out, g16_fr *a, g16_fr *b, g16_fr *c, unsigned log_n);
/* The same with the NTT layer's transforms when its roots are snarkjs's (BN254; see
 * g16_sj_prove_on): be's ntt op, or with be NULL the CPU NTT directly; otherwise
 * g16_sj_odd_quotient. */
g16_status g16_sj_odd_quotient_on(g16_backend *be, g16_fr *out, g16_fr *a, g16_fr *b, g16_fr *c,
                                  unsigned log_n);

#endif
