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

/* Bytes the circuit's arrays take in memory (CSR arrays and coefficient table, each
 * rounded up to whole pages): what holding it costs, mapped from a file or not. */
size_t g16_circuit_bytes(const g16_circuit *c);

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

/* ---------------------------------------------------------------------------
 * Witnesses.  The public header declares g16_witness as an opaque handle; code
 * inside the library reads it directly. */
struct g16_witness {
    uint64_t n;     /* values: n_vars of the circuit it belongs to */
    uint32_t n_pub; /* z[1 .. n_pub] are the public inputs */
    g16_fr *z;      /* Montgomery form, z[0] = 1; heap, or a mapping of z_map bytes */
    size_t z_map;   /* nonzero: z is a g16_big_map mapping of this length */
};

/* Heap-allocates an empty circuit / a witness of n values (zeroed, z[0] = 1). */
g16_status g16_circuit_alloc_(g16_circuit **out);
g16_status g16_witness_alloc_(g16_witness **out, uint64_t n, uint32_t n_pub);

/* Allocates the CSR arrays of one matrix with n_rows rows and nnz terms on the heap
 * (row_start[n_rows] = nnz is set; the rest is left to the caller). */
g16_status g16_csr_alloc_(g16_csr *m, uint64_t n_rows, uint64_t nnz);

/* ---------------------------------------------------------------------------
 * Builder: constraints one at a time, the way circuit code emits them.
 *
 * Variables are named by g16_var handles: G16_VAR_ONE for the constant, and the
 * handles returned by alloc_input / alloc_aux.  Inputs and aux variables may be
 * allocated in any order; finish numbers them as the CSR layout requires (one,
 * inputs in allocation order, aux in allocation order). */
typedef uint32_t g16_var;
#define G16_VAR_ONE ((g16_var)0)

/* A term of a linear combination: coef · var. */
typedef struct g16_term {
    g16_var var;
    g16_fr coef; /* Montgomery form */
} g16_term;

typedef struct g16_builder g16_builder;

/* Out: out: an empty builder (release with g16_builder_free). */
g16_status g16_builder_new(g16_builder **out);
void g16_builder_free(g16_builder *b);

/* Allocates a public input / a private variable holding `value` (Montgomery).
 * Out: var: its handle.  Returns G16_ERR_ARG past 2^31 - 1 of either kind. */
g16_status g16_builder_alloc_input(g16_builder *b, g16_var *var, const g16_fr *value);
g16_status g16_builder_alloc_aux(g16_builder *b, g16_var *var, const g16_fr *value);

/* Adds the constraint (Σ a)·(Σ b) = (Σ c).  In each combination, terms naming the
 * same variable are merged (coefficients added) and terms whose coefficient is or
 * becomes zero are dropped; coefficients are interned in the circuit's table.
 * The values are not checked here (see g16_circuit_is_satisfied).
 * Returns G16_ERR_ARG for a handle this builder did not hand out. */
g16_status g16_builder_enforce(g16_builder *b, const g16_term *a, size_t na,
                               const g16_term *bt, size_t nb, const g16_term *c, size_t nc);

/* Number of variables / constraints so far (the constant one counted in vars). */
uint64_t g16_builder_vars(const g16_builder *b);
uint64_t g16_builder_constraints(const g16_builder *b);

/* Out: circ, wit: the circuit in CSR form and its assignment (z[0] = 1, inputs,
 * then aux), both heap handles (g16_circuit_destroy / g16_witness_destroy).
 * The builder is left empty and may be freed or reused. */
g16_status g16_builder_finish(g16_builder *b, g16_circuit **circ, g16_witness **wit);

/* Maps a builder handle to the variable index finish will give it, given the
 * inputs allocated so far: call it after the last alloc_input, before finish. */
uint64_t g16_builder_var_index(const g16_builder *b, g16_var v);

/* ---------------------------------------------------------------------------
 * Files (layouts in docs/r1cs.md).  Both readers reject every malformed file
 * with G16_ERR_FORMAT and a message "PATH: offset N: what was expected", or
 * G16_ERR_IO when the file cannot be opened or read. */

/* Reads a compiled circuit: the file is mapped and row_start/col/coef point into
 * the mapping (read-only: do not write through them); the coefficient table is
 * copied to the heap in Montgomery form.  Every count, index and coefficient is
 * validated before return. */
g16_status g16_circuit_read(g16_circuit *out, const char *path);
g16_status g16_circuit_write(const g16_circuit *c, const char *path);

/* Total terms of one matrix. */
static inline uint64_t g16_csr_nnz(const g16_csr *m, uint64_t n_constraints)
{
    return m->row_start ? m->row_start[n_constraints] : 0;
}

#endif
