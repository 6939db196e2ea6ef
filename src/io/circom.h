/* circom's compiled circuit (.r1cs) and snarkjs's witness (.wtns), for the curve of
 * the compile (bls12381; bn128 in the BN254 compile: docs/curve.md).
 * Layouts, with what each field means, in docs/formats.md. */
#ifndef G16_IO_CIRCOM_H
#define G16_IO_CIRCOM_H

#include <stddef.h>
#include <stdint.h>

#include "field/fr.h"
#include "g16.h"

/* Wires: 0 is the constant one, then nPubOut outputs, nPubIn public inputs,
 * nPrvIn private inputs, then the rest.  Constraint k is A_k·B_k = C_k with each
 * side a linear combination over the wires. */
typedef struct g16_circom_r1cs {
    uint32_t n_wires, n_pub_out, n_pub_in, n_prv_in, n_constraints;
    uint64_t n_labels;
    /* Combination j = 3k + m (m = 0 A, 1 B, 2 C) is terms [lc_start[j], lc_start[j+1]). */
    uint64_t *lc_start;  /* 3·n_constraints + 1 */
    uint32_t *wire;      /* per term, < n_wires */
    g16_fr *coef;        /* per term, Montgomery form */
    uint64_t *label;     /* n_wires labels (section 3), NULL when the file has none */
} g16_circom_r1cs;

/* Reads a .r1cs file: header (1), constraints (2), wire-to-label map (3, optional);
 * other sections (custom gates) are refused, since their constraints are not R1CS.
 * Returns: G16_OK; G16_ERR_IO; G16_ERR_FORMAT "PATH: section S: offset N: ..." for
 * any malformed part (a file of the other curve: "this is a curve bn128 file, but
 * it is read as bls12381 ..."). */
g16_status g16_circom_r1cs_read(g16_circom_r1cs *out, const char *path);
void g16_circom_r1cs_free(g16_circom_r1cs *r);

/* Public signals: outputs then public inputs (the constant one not counted). */
static inline uint32_t g16_circom_r1cs_n_public(const g16_circom_r1cs *r) { return r->n_pub_out + r->n_pub_in; }

/* Checks every constraint against the witness w (n_w values, Montgomery form).
 * Returns: G16_OK; G16_ERR_ARG when n_w != n_wires or w[0] != 1;
 * G16_ERR_UNSATISFIED "constraint K of N not satisfied: A·B = X·Y, C = Z" naming
 * the first failing one (K counts from 0, values in decimal). */
g16_status g16_circom_r1cs_check(const g16_circom_r1cs *r, const g16_fr *w, size_t n_w);

typedef struct g16_circom_wtns {
    uint64_t n;   /* values */
    g16_fr *w;    /* Montgomery form; w[0] = 1 in a valid witness */
} g16_circom_wtns;

/* Reads a .wtns file (section 1: n8, prime, count; section 2: the values, LE,
 * standard form).  Values >= r are refused (G16_ERR_FORMAT naming the index).
 * Returns as g16_circom_r1cs_read; also refuses a witness whose w[0] is not 1. */
g16_status g16_circom_wtns_read(g16_circom_wtns *out, const char *path);
void g16_circom_wtns_free(g16_circom_wtns *w);

/* Writes an Fr element as a decimal string (at most 78 digits + NUL). */
void g16_fr_to_decimal(char out[80], const g16_fr *a);

#endif
