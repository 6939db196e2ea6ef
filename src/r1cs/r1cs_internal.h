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

/* How synthesis multiplies by a coefficient: most are ±1, which need no product. */
enum { G16_COEF_MUL = 0, G16_COEF_ONE = 1, G16_COEF_MINUS_ONE = 2 };

/* Out: kinds: n_coefs bytes, the G16_COEF_* kind of each coefficient (heap). */
g16_status g16_r1cs_coef_kinds_(uint8_t **kinds, const g16_circuit *c);

/* acc = Σ over row r of m: coef·z[col], with kinds from g16_r1cs_coef_kinds_. */
void g16_r1cs_eval_row_(g16_fr *acc, const g16_csr *m, uint64_t r, const g16_fr *coefs,
                        const uint8_t *kinds, const g16_fr *z);

#endif
