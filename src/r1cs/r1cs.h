/* Circuits in compiled form (R1CS as CSR matrices), witnesses, synthesis.
 *
 * Variables: index 0 is the constant one, 1 .. n_pub the public inputs, then the
 * n_aux private ("aux") variables: n_vars = 1 + n_pub + n_aux.
 *
 * Rows (bellperson's convention): the n_constraints enforced constraints, then
 * one extra row per input variable i = 0 .. n_pub (the constant one included):
 * input_i · 0 = 0.  Those extra rows are implicit (not stored in the matrices);
 * rows = n_constraints + 1 + n_pub is the length of the evaluation vectors a, b, c.
 *
 * Matrices are stored row-compressed: row r of A is the terms
 * (col[k], coefs[coef[k]]) for k in [row_start[r], row_start[r+1]).  Coefficients
 * are indices into one table of distinct Fr values, because real circuits use few
 * distinct coefficients (1, −1, powers of two) and 8 bytes a term instead of 36 is
 * what lets a 2^27-row circuit fit in memory.
 */
#ifndef G16_R1CS_R1CS_H
#define G16_R1CS_R1CS_H

#include <stddef.h>
#include <stdint.h>

#include "field/fr.h"

typedef struct g16_csr {
    uint64_t *row_start; /* n_constraints + 1 entries */
    uint32_t *col;       /* row_start[n_constraints] entries: variable indices < n_vars */
    uint32_t *coef;      /* same count: indices < n_coefs into g16_circuit.coefs */
} g16_csr;

typedef struct g16_circuit {
    uint32_t n_pub;         /* public inputs, the constant one not counted */
    uint32_t n_aux;         /* private variables */
    uint64_t n_constraints; /* enforced constraints, without the per-input rows */
    uint32_t n_coefs;
    g16_fr *coefs;          /* distinct coefficients, Montgomery form */
    g16_csr a, b, c;
    void *owner_;           /* private: how the arrays were allocated (heap or mmap) */
} g16_circuit;

/* Density bitmaps: bit i of word i/64.  A variable is "in" a matrix when it
 * occurs in any of its rows (the implicit input rows put every input in A). */
typedef struct g16_density {
    uint64_t *aux_in_a;    /* n_aux bits */
    uint64_t *inputs_in_b; /* 1 + n_pub bits (the constant one is input 0) */
    uint64_t *aux_in_b;    /* n_aux bits */
    uint64_t n_aux_in_a, n_inputs_in_b, n_aux_in_b; /* popcounts */
} g16_density;

static inline uint64_t g16_circuit_vars(const g16_circuit *c) { return 1ull + c->n_pub + c->n_aux; }
static inline uint64_t g16_circuit_rows(const g16_circuit *c) { return c->n_constraints + 1ull + c->n_pub; }
static inline int g16_bit(const uint64_t *bits, uint64_t i) { return (int)((bits[i >> 6] >> (i & 63)) & 1); }

/* Frees what a circuit owns (heap or mapped file); the struct is zeroed.  NULL ok. */
void g16_circuit_free(g16_circuit *c);

/* Computes the density bitmaps of c (allocated; release with g16_density_free). */
g16_status g16_circuit_density(g16_density *out, const g16_circuit *c);
void g16_density_free(g16_density *d);

/* Synthesis: a = A·z, b = B·z, c = C·z over all rows (the input rows included:
 * a = z_i, b = c = 0), written into caller-provided buffers of
 * g16_circuit_rows(circ) elements each (the engine hands pinned ones).  z has
 * n_z = g16_circuit_vars(circ) entries, z[0] = 1.  Multi-threaded on the default
 * pool.  Returns G16_ERR_ARG when n_z is wrong or z[0] != 1. */
g16_status g16_synthesize(g16_fr *a, g16_fr *b, g16_fr *c, const g16_circuit *circ,
                          const g16_fr *z, size_t n_z);

/* Returns G16_OK when z satisfies every row, else G16_ERR_UNSATISFIED with a
 * message naming the first failing constraint (its index and the three values). */
g16_status g16_circuit_is_satisfied(const g16_circuit *circ, const g16_fr *z, size_t n_z);

#endif
