/* Number-theoretic transforms over Fr on the CPU thread pool.
 *
 * Domains.  H = <ω> of size n = 2^log_n, 0 <= log_n <= G16_NTT_MAX_LOG (Fr has
 * 2-adicity 32; 28 is the largest size the prover needs).  ω = 7^((r-1)/2^32)
 * raised to 2^(32-log_n): 7 is the multiplicative generator bellperson and
 * zkcrypto use, so our evaluation points are theirs.  The coset is g·H with
 * g = 7.  BN254 (G16_CURVE_BN254, docs/curve.md): 2-adicity 28, ω from 5 (the
 * smallest non-residue, as snarkjs), coset generator 5.  A domain is created once per size, cached for the life of the
 * process and shared by all threads (it is immutable once returned).
 *
 * Orders.  A vector of length n is either in natural order (index i holds
 * element i) or bit-reversed order (index i holds element bitrev_log_n(i)).
 *   _nr: natural in, bit-reversed out (decimation in frequency, Gentleman-Sande)
 *   _rn: bit-reversed in, natural out (decimation in time, Cooley-Tukey)
 *   _nn: natural in and out (one extra reordering pass)
 * forward_nr followed by inverse_rn (or forward_rn after inverse_nr) is the
 * identity with no reordering pass.
 *
 * Semantics, for coefficients c_0..c_{n-1} and values v_0..v_{n-1}, natural order:
 *   forward:        v_i = sum_j c_j ω^(ij)           (evaluation on H)
 *   inverse:        c_j = n^-1 sum_i v_i ω^(-ij)     (interpolation from H)
 *   coset forward:  v_i = sum_j c_j (g ω^i)^j        (evaluation on g·H)
 *   coset inverse:  inverse of coset forward.
 * Coset scaling (g^i, and n^-1 g^-i) is fused into the first / last pass.
 *
 * All transforms are in place on a caller array of exactly d->n elements (fully
 * reduced Montgomery form), run on the default thread pool, and may be called
 * from several threads at once on different arrays.  Called from inside a
 * pool callback they run serially on that thread (see common/pool.h).
 */
#ifndef G16_NTT_NTT_H
#define G16_NTT_NTT_H

#include <stddef.h>

#include "field/fr.h"
#include "g16.h"

#define G16_NTT_MAX_LOG 28

/* The multiplicative generator whose powers give the roots of unity and the coset (see
 * above); the CUDA NTT (backend/cuda/ntt.cu) uses the same one. */
#if G16_CURVE_BN254
#define G16_NTT_GENERATOR 5
#else
#define G16_NTT_GENERATOR 7
#endif

typedef struct g16_domain {
    int log_n;
    size_t n;
    g16_fr omega;      /* generator of H, order n */
    g16_fr omega_inv;
    g16_fr n_inv;
    g16_fr g;          /* coset generator: 7 (BN254: 5) */
    g16_fr g_inv;
    /* tw[j] = ω^j for j < n/2 (empty when n == 1).  Inverse twiddles are read
     * from it too: ω^-j = -ω^(n/2 - j), and the sign folds into the butterfly,
     * so a domain holds 16·n bytes of tables, half the size of one vector. */
    const g16_fr *tw;
    /* ω_B^j for j < B/2, B = min(n, block size): the in-cache stages' table */
    const g16_fr *tw_block;
    int block_log;
} g16_domain;

/* Returns the cached domain of size 2^log_n, building it (on the pool) on first use.
 * Out: out: shared, immutable, valid until the process ends.
 * Returns: G16_OK; G16_ERR_ARG when log_n is outside 0..G16_NTT_MAX_LOG;
 * G16_ERR_NOMEM when the twiddle table cannot be allocated. */
g16_status g16_domain_get(const g16_domain **out, int log_n);

/* Out: out: a primitive 2^log_n-th root of unity, ω as used by the domains.
 * In: log_n: 0..32. */
void g16_fr_root_of_unity(g16_fr *out, int log_n);

/* The transforms: a holds d->n elements; see the header comment for orders. */
void g16_ntt_forward_nr(const g16_domain *d, g16_fr *a);
void g16_ntt_forward_rn(const g16_domain *d, g16_fr *a);
void g16_ntt_forward_nn(const g16_domain *d, g16_fr *a);
void g16_ntt_inverse_nr(const g16_domain *d, g16_fr *a);
void g16_ntt_inverse_rn(const g16_domain *d, g16_fr *a);
void g16_ntt_inverse_nn(const g16_domain *d, g16_fr *a);
/* Natural coefficients in, values on g·H out in bit-reversed order. */
void g16_ntt_coset_forward_nr(const g16_domain *d, g16_fr *a);
void g16_ntt_coset_forward_nn(const g16_domain *d, g16_fr *a);
/* Values on g·H in bit-reversed order in, natural coefficients out. */
void g16_ntt_coset_inverse_rn(const g16_domain *d, g16_fr *a);
void g16_ntt_coset_inverse_nn(const g16_domain *d, g16_fr *a);

/* Permutes a (d->n elements) from natural to bit-reversed order or back. */
void g16_ntt_bit_reverse(const g16_domain *d, g16_fr *a);
/* The same for 2^log_n elements without a domain (multi-threaded). */
void g16_fr_bit_reverse(g16_fr *a, unsigned log_n);

/* a[i] = (a[i]·b[i] − c[i])·z for i < n, on the pool (IFMA where available): the H
 * step's pointwise part.  b NULL: no product; c NULL: nothing subtracted; z NULL: no
 * scaling.  a may not overlap b or c except as the same array. */
void g16_ntt_pointwise(g16_fr *a, const g16_fr *b, const g16_fr *c, const g16_fr *z, size_t n);


/* The Groth16 H polynomial: given the evaluations of A·z, B·z, C·z on H, writes to
 * a the coefficients (natural order) of h = (a·b - c) / Z_H, Z_H = x^n - 1.
 * In: a, b, c: d->n values each, in bit-reversed order when bitrev_in (as
 * synthesis can write them, so the chain needs no reordering at all), else in
 * natural order (three reordering passes are added).
 * Out: a: h's coefficients; b and c are clobbered.  Runs 7 transforms:
 * inverse_rn and coset_forward_nr on each of a, b, c (n^-1 of the inverse folded
 * into the coset scaling), the pointwise step on the coset in bit-reversed order,
 * then coset_inverse_rn.
 * Returns: G16_OK (the coset never meets H, so Z_H is never 0 there). */
g16_status g16_ntt_h_step(const g16_domain *d, g16_fr *a, g16_fr *b, g16_fr *c, int bitrev_in);

#endif
