/* Public API, part of g16.h: circuits (compiled R1CS), witnesses, synthetic circuit generation.
 *
 * Handles: g16_circuit and g16_witness are opaque here (the library's own code
 * sees their layout in src/r1cs/r1cs.h; the struct names are the same, so a
 * pointer passes between the two without casts).  Every handle returned by a
 * function below is owned by the caller and released with the matching
 * *_destroy function.  File layouts: docs/r1cs.md. */
#ifndef G16_CIRCUIT_PUBLIC_H
#define G16_CIRCUIT_PUBLIC_H

#include "g16.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct g16_circuit g16_circuit;
typedef struct g16_witness g16_witness;

/* Shape of a circuit, as `g16 circuit gen` and `g16 info` print it. */
typedef struct g16_circuit_info {
    uint32_t n_pub;          /* public inputs, the constant one not counted */
    uint32_t n_aux;          /* private variables */
    uint64_t n_vars;         /* 1 + n_pub + n_aux */
    uint64_t n_constraints;  /* enforced constraints */
    uint64_t rows;           /* n_constraints + 1 + n_pub: length of a, b, c */
    uint32_t n_coefs;        /* distinct coefficients */
    uint64_t nnz_a, nnz_b, nnz_c; /* stored terms per matrix */
} g16_circuit_info;

/* Out: out: the counts of c. */
void g16_circuit_get_info(g16_circuit_info *out, const g16_circuit *c);

/* Frees a circuit handle (its arrays or file mapping, then the handle).  NULL ok. */
void g16_circuit_destroy(g16_circuit *c);

/* Reads / writes a compiled circuit file (.g16c).  The reader maps the file,
 * validates every count, index and coefficient, and fails with G16_ERR_FORMAT
 * ("PATH: offset N: expected ...") or G16_ERR_IO.
 * Out: out: a new handle. */
g16_status g16_circuit_load(g16_circuit **out, const char *path);
g16_status g16_circuit_save(const g16_circuit *c, const char *path);

/* Frees a witness handle.  NULL ok. */
void g16_witness_destroy(g16_witness *w);

/* Returns: the number of values (n_vars of its circuit) / of public inputs. */
uint64_t g16_witness_len(const g16_witness *w);
uint32_t g16_witness_pub(const g16_witness *w);

/* Out: out32: value i (0 is the constant one, 1..n_pub the public inputs),
 * 32 bytes big-endian canonical.  Returns G16_ERR_ARG when i is out of range. */
g16_status g16_witness_get(uint8_t out32[32], const g16_witness *w, uint64_t i);

/* Reads / writes a witness file (.g16w): the values, 32-byte little-endian
 * canonical each, validated (< r, value 0 = 1) on read. */
g16_status g16_witness_load(g16_witness **out, const char *path);
/* Checks a witness file's header and size without reading its values (a submit-time check).
 * Out: n: the number of values, n_pub: of public inputs.  Errors as g16_witness_load's. */
g16_status g16_witness_peek(uint64_t *n, uint32_t *n_pub, const char *path);
/* Out: out: the n_pub public inputs of a witness file (values 1 .. n_pub), 32 bytes big-endian
 * each, read without the rest.  Errors as g16_witness_load's; G16_ERR_FORMAT when the file has
 * another number of inputs. */
g16_status g16_witness_inputs(uint8_t *out, uint32_t n_pub, const char *path);
g16_status g16_witness_save(const g16_witness *w, const char *path);

/* Returns: G16_OK when w satisfies every constraint of c; G16_ERR_UNSATISFIED
 * with a message naming the first failing constraint and its three values
 * (a·z, b·z, c·z); G16_ERR_ARG when the witness length does not match. */
g16_status g16_circuit_check(const g16_circuit *c, const g16_witness *w);

/* Synthetic circuits for tests and benchmarks (docs/r1cs.md describes each). */
typedef enum g16_profile {
    G16_PROFILE_POREP = 1, /* shaped like a Filecoin PoRep partition: bits, packing, a few products */
    G16_PROFILE_DENSE = 2, /* full-width random values, several terms per row */
    G16_PROFILE_BITS = 3   /* almost every private value a bit */
} g16_profile;

/* Returns: the profile named "porep", "dense" or "bits" in *out, or G16_ERR_ARG. */
g16_status g16_profile_parse(g16_profile *out, const char *name);
/* Returns: the profile's name, or "?" for an unknown value. */
const char *g16_profile_name(g16_profile p);

typedef struct g16_circuit_gen_args {
    g16_profile profile;
    unsigned log_n;   /* rows = 2^log_n exactly (the input rows included), 2 .. 31 */
    uint32_t n_pub;   /* public inputs; needs n_pub + 2 <= 2^log_n */
    uint64_t seed;    /* the same arguments give the same circuit and witness */
} g16_circuit_gen_args;

/* Generates a circuit of n_constraints = 2^log_n - 1 - n_pub constraints and a
 * witness that satisfies it, multi-threaded, deterministic for given args
 * whatever the thread count.
 * Out: circ, wit: new handles (wit may be NULL when only the circuit is wanted).
 * Returns: G16_ERR_ARG for a bad profile, log_n or n_pub; G16_ERR_NOMEM. */
g16_status g16_circuit_generate(g16_circuit **circ, g16_witness **wit,
                                const g16_circuit_gen_args *args);

#ifdef __cplusplus
}
#endif
#endif
