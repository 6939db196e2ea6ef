/* Shared by the r1cs sources only. */
#ifndef G16_R1CS_INTERNAL_H
#define G16_R1CS_INTERNAL_H

#include <stddef.h>

#include "r1cs/r1cs.h"

/* What g16_circuit.owner_ points at when the CSR arrays live in a file mapping.
 * owner_ NULL means every array is its own heap block.  The coefficient table is
 * always a heap block (it is converted to Montgomery form on load). */
typedef struct g16_r1cs_map {
    void *base;
    size_t len;
} g16_r1cs_map;

/* How synthesis multiplies by a coefficient (src/r1cs/eval.c): a kind byte per
 * table entry.  0: a Montgomery product; k in 1 .. G16_COEF_SMALL_MAX: the value is
 * k, computed by doublings and additions (1: the term is added as is);
 * G16_COEF_NEG | k: the value is −k (subtracted). */
#define G16_COEF_SMALL_MAX 127u
#define G16_COEF_NEG 0x80u
enum { G16_COEF_MUL = 0, G16_COEF_ONE = 1, G16_COEF_MINUS_ONE = G16_COEF_NEG | 1 };

/* Out: kinds: n_coefs bytes, the kind of each coefficient (heap). */
g16_status g16_r1cs_coef_kinds_(uint8_t **kinds, const g16_circuit *c);

/* acc = Σ over row r of m: coef·z[col], with kinds from g16_r1cs_coef_kinds_. */
void g16_r1cs_eval_row_(g16_fr *acc, const g16_csr *m, uint64_t r, const g16_fr *coefs,
                        const uint8_t *kinds, const g16_fr *z);

/* G16_ERR_ARG unless z has the circuit's n_vars values and z[0] = 1. */
g16_status g16_r1cs_check_z_(const g16_circuit *circ, const g16_fr *z, size_t n_z);

/* g16_synthesize with every term as a Montgomery product: the reference that the
 * coefficient classes are tested against. */
g16_status g16_synthesize_ref_(g16_fr *a, g16_fr *b, g16_fr *c, const g16_circuit *circ,
                               const g16_fr *z, size_t n_z);

#endif
