/* snarkjs files: the Groth16 .zkey (binary) and the JSON files
 * verification_key.json, proof.json, public.json, for the curve of the compile
 * (bls12381; bn128 in the BN254 compile, names g16_bn254_sj_*: docs/curve.md).
 * Layouts in docs/formats.md. */
#ifndef G16_IO_SNARKJS_H
#define G16_IO_SNARKJS_H

#include <stddef.h>
#include <stdint.h>

#include "g16.h"
#include "groth16/snarkjs_prove.h"
#include "io/circom.h"

/* Reads a Groth16 .zkey (sections 1-9 by id, in any order; 10 and others ignored).
 * Every section's size is checked against the header's counts; every coordinate
 * must be below p (Montgomery form, as snarkjs writes it) and every point on its
 * curve or (0, 0); the header and IC points must also be in the prime-order
 * subgroup (the big sections are not subgroup-checked: a bad point there can only
 * spoil the prover's own proof, which any verifier then rejects).
 * Returns: G16_OK; G16_ERR_IO; G16_ERR_FORMAT "PATH: section S: offset N: ..."
 * (a key of the other curve: "this is a curve bn128 file, but it is read as
 * bls12381"; a PLONK/FFLONK key: named). */
g16_status g16_sj_zkey_read(g16_sj_pk *pk, const char *path);

/* Writes pk as a .zkey snarkjs can read (sections 1-9 and an empty 10). */
g16_status g16_sj_zkey_write(const g16_sj_pk *pk, const char *path);

/* Reads verification_key.json ("protocol": "groth16", "curve": G16_SJ_CURVE_NAME, nPublic,
 * vk_alpha_1, vk_beta_2, vk_gamma_2, vk_delta_2, IC; other keys ignored).  Points
 * are fully checked: canonical coordinates, z = 1 (or the infinity form), on the
 * curve, in the subgroup.  Returns G16_ERR_FORMAT / _NOT_ON_CURVE / ... with the
 * JSON path of the bad value. */
g16_status g16_sj_vk_read_json(g16_sj_vk *vk, const char *path);
/* Writes the verifying key part of pk as verification_key.json (without
 * vk_alphabeta_12, which snarkjs's verifier does not read). */
g16_status g16_sj_vk_write_json(const g16_sj_pk *pk, const char *path);

/* proof.json: pi_a, pi_b, pi_c (projective, decimal), protocol, curve. */
g16_status g16_sj_proof_read_json(g16_sj_proof *proof, const char *path);
g16_status g16_sj_proof_write_json(const g16_sj_proof *proof, const char *path);

/* public.json: an array of decimal strings, each < r.
 * Out: pub: heap array (free), n: its length. */
g16_status g16_sj_public_read_json(g16_fr **pub, size_t *n, const char *path);
g16_status g16_sj_public_write_json(const g16_fr *pub, size_t n, const char *path);

/* INSECURE, for benchmarks and tests only: builds the Groth16 key snarkjs's
 * `groth16 setup` + a contribution would give, but from a KNOWN tau (and alpha,
 * beta, gamma, delta) derived from the decimal seed text, so anyone who knows the
 * seed can forge proofs.  It exists because snarkjs's own setup takes minutes per
 * key in JS.  The key follows snarkjs's conventions exactly (rows, public rows,
 * H_i = L^{2n}_{2i+1}(tau)/delta); domain = 2^ceil(log2(constraints + nPublic + 1)).
 * Returns: G16_OK; G16_ERR_ARG for a bad seed; G16_ERR_NOMEM. */
g16_status g16_sj_testkey(g16_sj_pk *pk, const g16_circom_r1cs *r, const char *seed);

#endif
