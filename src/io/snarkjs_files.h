/* snarkjs's commands at the level of files, for either curve.  The work (read, prove,
 * verify, write) is in snarkjs_files.c, compiled once per curve (g16_sj_* for
 * bls12381, g16_bn254_sj_* for bn128: docs/curve.md); g16_sj_pick reads the curve
 * from the files themselves and returns that curve's functions, so the programs
 * have one dispatch point and a file of one curve given with one of the other is
 * an error before anything is read in full.
 *
 * The types here are the same in both compiles (no field elements or points), so
 * this header must stay out of the BN254 rename list (scripts/gen-sj-names.sh). */
#ifndef G16_IO_SNARKJS_FILES_H
#define G16_IO_SNARKJS_FILES_H

#include <stddef.h>
#include <stdint.h>

#include "g16.h"

typedef struct g16_sj_prove_req {
    const char *zkey, *wtns, *proof, *pub;
    const char *r1cs; /* optional: check the witness against it first */
    /* optional: the backend whose ops table runs the transforms and MSMs, opened for
     * the files' curve (g16_backend_open_curve); NULL: the CPU code directly */
    g16_backend *be;
} g16_sj_prove_req;

/* Seconds spent in each step of the last proof (g16 prove --time). */
typedef struct g16_sj_prove_times {
    double read_wtns, read_zkey, prove, abc, fft, msm_a, msm_b1, msm_b2, msm_c, msm_h;
} g16_sj_prove_times;

/* Reads the witness (checks it against req->r1cs when given), reads and compacts the
 * key, proves with random r and s, writes proof.json and public.json.
 * Out: times (may be NULL).  Returns: G16_OK; G16_ERR_UNSATISFIED when the witness
 * does not satisfy the r1cs (naming the constraint); the readers' errors. */
typedef g16_status g16_sj_prove_fn(const g16_sj_prove_req *req, g16_sj_prove_times *times);
/* Reads verification_key.json, proof.json and public.json and verifies.
 * Returns: G16_OK valid; G16_ERR_UNSATISFIED invalid; G16_ERR_NOT_ON_CURVE /
 * G16_ERR_NOT_IN_SUBGROUP / G16_ERR_NONCANONICAL for a proof or signal that is no
 * valid element (also a verdict: invalid); G16_ERR_FORMAT etc. for unusable files. */
typedef g16_status g16_sj_verify_fn(const char *vk, const char *proof, const char *pub);
/* INSECURE known-tau key (g16_sj_testkey) for the circuit r1cs, written as a .zkey
 * and its verification_key.json. */
typedef g16_status g16_sj_testkey_fn(const char *r1cs, const char *seed, const char *zkey, const char *vk);

g16_sj_prove_fn g16_sj_prove_files, g16_bn254_sj_prove_files;
g16_sj_verify_fn g16_sj_verify_files, g16_bn254_sj_verify_files;
g16_sj_testkey_fn g16_sj_testkey_files, g16_bn254_sj_testkey_files;

/* A proving key held in memory for many proofs (g16d's snarkjs jobs): read and compacted
 * once, then proved against many witnesses.  The key is opaque (the curve's own types). */
typedef struct g16_sj_key_info {
    uint32_t n_vars, n_public;
    uint64_t bytes;       /* host memory the loaded key holds */
    uint64_t prove_bytes; /* an upper bound of what one proof takes besides (g16_sj_prove_bytes) */
} g16_sj_key_info;
typedef g16_status g16_sj_key_load_fn(void **key, g16_sj_key_info *info, const char *zkey);
typedef void g16_sj_key_free_fn(void *key);
/* Reads wtns (its length against the key's), proves with random r and s, writes proof.json
 * and public.json.  Returns: G16_OK; the reader's and prover's errors. */
typedef g16_status g16_sj_key_prove_fn(const void *key, const char *wtns, const char *proof, const char *pub);
/* Out: n, the values in a .wtns of this curve (the whole file read and checked). */
typedef g16_status g16_sj_wtns_count_fn(const char *wtns, uint64_t *n);

g16_sj_key_load_fn g16_sj_key_load, g16_bn254_sj_key_load;
g16_sj_key_free_fn g16_sj_key_free, g16_bn254_sj_key_free;
g16_sj_key_prove_fn g16_sj_key_prove, g16_bn254_sj_key_prove;
g16_sj_wtns_count_fn g16_sj_wtns_count, g16_bn254_sj_wtns_count;

/* snarkjs's name of a curve: "bls12381", "bn128" ("unknown" otherwise). */
const char *g16_sj_curve_name(g16_curve_id id);

typedef struct g16_sj_ops {
    g16_curve_id curve;
    g16_sj_prove_fn *prove;
    g16_sj_verify_fn *verify;
    g16_sj_testkey_fn *testkey;
    g16_sj_key_load_fn *key_load;
    g16_sj_key_free_fn *key_free;
    g16_sj_key_prove_fn *key_prove;
    g16_sj_wtns_count_fn *wtns_count;
} g16_sj_ops;

/* The curve a snarkjs file is for: .r1cs / .wtns / .zkey by the prime of their
 * header, JSON by its "curve" member.
 * Out: curve; known: 0 when the file does not say (public.json, a JSON file without
 * "curve").  Returns: G16_OK; G16_ERR_IO; G16_ERR_FORMAT naming the file (and offset)
 * for a file of neither curve or of no snarkjs kind. */
g16_status g16_sj_file_curve(const char *path, g16_curve_id *curve, int *known);

/* Finds the curve of the given files (NULL entries skipped; files that do not say
 * are skipped too) and returns its functions.  All files that say must agree.
 * Returns: G16_OK; G16_ERR_FORMAT "A is a bn128 file but B is bls12381 ..." for a
 * mix; G16_ERR_ARG when that curve's functions are not in this build; the errors of
 * g16_sj_file_curve. */
g16_status g16_sj_pick(const g16_sj_ops **ops, const char *const *paths, size_t n);

#endif
