/* Public API, part of g16.h: Groth16 keys, proving (split API), verification.
 *
 * Conventions follow bellperson / Filecoin exactly: keys in bellperson's .params
 * layout (docs/groth16.md), 192-byte proofs A (G1 compressed) ‖ B (G2 compressed)
 * ‖ C (G1 compressed), public inputs without the implicit leading one.
 *
 * Types are opaque.  struct g16_circuit, g16_density and g16_fr are the circuit
 * layer's types (src/r1cs/r1cs.h, src/field/fr.h); the engine passes them through.
 */
#ifndef G16_GROTH16_PUBLIC_H
#define G16_GROTH16_PUBLIC_H

#include "g16.h"

#ifdef __cplusplus
extern "C" {
#endif

struct g16_circuit;
struct g16_density;
struct g16_fr;

typedef struct g16_key g16_key;         /* proving key (with its vk), reference counted */
typedef struct g16_vk g16_vk;           /* verifying key */
typedef struct g16_pending g16_pending; /* a proof whose last steps run in the background */

#define G16_PROOF_BYTES 192

/* Counts of a key's sections (bellperson's Parameters). */
typedef struct g16_key_info {
    uint64_t n_ic, n_h, n_l, n_a, n_b_g1, n_b_g2;
} g16_key_info;

/* ---------------------------------------------------------------- setup
 * TEST-ONLY.  Generates a proving key for circ whose secrets τ, α, β, γ, δ are
 * derived from seed (SHA-256, see docs/groth16.md): anyone who knows the seed
 * knows the toxic waste and can forge proofs.  Never use such a key for anything
 * but tests and benchmarks.
 * Out: out: the key (one reference; g16_key_release).
 * Returns: G16_OK; G16_ERR_ARG for an unconstrained aux variable (its l point
 * would be the identity, which bellperson refuses too) or a degenerate seed;
 * G16_ERR_NOMEM. */
g16_status g16_setup(g16_key **out, const struct g16_circuit *circ, const uint8_t *seed,
                     size_t seed_len);

void g16_key_retain(g16_key *key);
/* Drops one reference; the last one frees the key.  NULL is ignored. */
void g16_key_release(g16_key *key);
void g16_key_get_info(g16_key_info *out, const g16_key *key);
/* Returns: the key's verifying key (owned by the key). */
const g16_vk *g16_key_vk(const g16_key *key);

/* Returns: a standalone copy of a vk (g16_vk_free), or NULL when out of memory. */
g16_vk *g16_vk_copy(const g16_vk *vk);
void g16_vk_free(g16_vk *vk);
/* Returns: the number of public inputs the vk expects (IC points − 1). */
uint64_t g16_vk_inputs(const g16_vk *vk);

/* ---------------------------------------------------------------- files
 * .params: bellperson's Parameters::write layout; .vk: its VerifyingKey::write.
 * Readers map the file, check every count against its size, decode on all threads
 * and validate each point: on the curve always, in the subgroup when flags has
 * G16_PARAMS_CHECK_SUBGROUP, not the identity in h, l, a, b_g1, b_g2 (allowed in
 * the vk, as in bellperson).  Errors (G16_ERR_IO, _FORMAT, or the point's reason)
 * name the file, section, point index and byte offset. */
#define G16_PARAMS_CHECK_SUBGROUP 1u

g16_status g16_params_write(const char *path, const g16_key *key);
g16_status g16_params_read(g16_key **out, const char *path, unsigned flags);
/* A .params file's layout, checked without decoding its queries: the vk is decoded
 * and validated, then each query's count is checked against the bytes left, and no
 * bytes may trail b_g2.  Seconds instead of minutes for the multi-GiB keys of real
 * circuits (`g16 info --quick`); g16_params_read still checks every point.
 * Out: counts and each query's byte offset (h, l, a, b_g1, b_g2).  Errors as
 * g16_params_read's, naming the section and offset. */
typedef struct g16_params_layout {
    uint64_t n_ic, n_h, n_l, n_a, n_b_g1, n_b_g2;
    uint64_t off[5];
    uint64_t size;
} g16_params_layout;
g16_status g16_params_scan(g16_params_layout *out, const char *path);
g16_status g16_vk_write(const char *path, const g16_vk *vk);
/* Reads a .vk file, or the vk part of a .params file (the layouts start alike;
 * trailing bytes are allowed only when allow_trailing is nonzero). */
g16_status g16_vk_read(g16_vk **out, const char *path, unsigned flags, int allow_trailing);

/* ---------------------------------------------------------------- key cache
 * A .g16k file holds a proving key in the prover's in-memory form (affine
 * Montgomery points), sections page-aligned, every byte covered by XXH3 checksums,
 * and the size and a fingerprint (XXH3-128 of the vk bytes and the query counts)
 * of the .params it was made from (layout: docs/formats.md).  Reading it maps the
 * file: the key's queries point into the mapping (zero-copy; nothing is decoded),
 * so loading costs one pass of checksums over the file, or nothing with
 * G16_KEY_CACHE_TRUST.  The file is native: written and read on a little-endian
 * 64-bit machine of this build's point layout (anything else is refused).
 *
 * G16_KEY_CACHE_TRUST skips the payload checksums (the header's own checksum and
 * every size are still checked): for a cache this machine wrote and nobody else
 * can write.  A corrupted payload is then not detected and gives wrong proofs
 * (which g16_verify and the engine's self-check reject), never a crash. */
#define G16_KEY_CACHE_TRUST 0x100u

/* Writes key to path atomically (a temporary file in the same folder, fsync'd,
 * then renamed over path).  source_params: the .params the key was read from,
 * whose size and fingerprint go into the header (NULL: none recorded; such a
 * cache is never valid for g16_key_load_cached).
 * Returns: G16_OK; G16_ERR_IO (message names the file and the failing call);
 * the .params scan's error for an unreadable source_params. */
g16_status g16_key_cache_write(const char *path, const g16_key *key, const char *source_params);

/* Maps a .g16k file.  flags: 0 or G16_KEY_CACHE_TRUST.
 * Out: out: the key (one reference; g16_key_release unmaps the file).
 * Returns: G16_OK; G16_ERR_IO; G16_ERR_FORMAT with "PATH: offset N: what, expected
 * X" for a bad magic, version, layout, size or checksum. */
g16_status g16_key_cache_read(g16_key **out, const char *path, unsigned flags);

/* Checks, from the headers only, that the cache at cache_path was made from the
 * .params at params_path (same size and fingerprint).  Returns G16_OK;
 * G16_ERR_FORMAT "... is stale: made from ..." or the header's error; G16_ERR_IO. */
g16_status g16_key_cache_check(const char *cache_path, const char *params_path);

/* A .params through its cache: maps cache_path when it is valid for params_path
 * (g16_key_cache_check, then g16_key_cache_read with flags), else reads params_path
 * (g16_params_read with flags & G16_PARAMS_CHECK_SUBGROUP) and writes the cache
 * (g16_key_cache_write).  Failing to write the cache is not an error: the key read
 * from the .params is returned (g16_key_is_mapped says which way it came).
 * Returns: G16_OK, or g16_params_read's error. */
g16_status g16_key_load_cached(g16_key **out, const char *params_path, const char *cache_path,
                               unsigned flags);

/* Returns: nonzero when the key's queries live in a key cache mapping. */
int g16_key_is_mapped(const g16_key *key);

/* What a .g16k header says (g16 info).  Returns as g16_key_cache_read, without
 * reading the payload. */
typedef struct g16_key_cache_info {
    uint32_t version;
    uint64_t n_ic, n_h, n_l, n_a, n_b_g1, n_b_g2;
    uint64_t file_bytes, chunk_bytes, n_chunks;
    uint64_t source_bytes;    /* 0: no source recorded */
    uint8_t source_fp[16];    /* XXH3-128 of the source's vk bytes and counts (big-endian) */
} g16_key_cache_info;
g16_status g16_key_cache_info_read(g16_key_cache_info *out, const char *path);

/* Proof files are the raw 192·k bytes of k proofs. */

/* Reads a proof file.  Out: out (malloc'd, free()), k proofs.
 * Returns: G16_OK; G16_ERR_IO; G16_ERR_FORMAT when the size is 0 or not a multiple
 * of 192 (the message gives the offset past the last whole proof); with validate,
 * the decoding reason of the first bad point, naming the proof, point and offset. */
g16_status g16_proof_file_read(uint8_t **out, size_t *k, const char *path, int validate);
g16_status g16_proof_file_write(const char *path, const uint8_t *proofs, size_t k);
/* Decodes and fully checks the three points of one proof (subgroup included).
 * index/base_off/path only label the error message (path may be NULL). */
g16_status g16_proof_check(const uint8_t proof[G16_PROOF_BYTES], size_t index, size_t base_off,
                           const char *path);

/* TEST-ONLY deterministic proof randomness: rs = r ‖ s (64 bytes, big-endian,
 * reduced) derived from seed like the setup's secrets (labels "r" and "s"). */
void g16_derive_rs(uint8_t rs[64], const uint8_t *seed, size_t seed_len);

/* ---------------------------------------------------------------- proving
 * Split API: g16_prove_start runs the H step and the G1 MSMs and returns a pending
 * proof whose G2 MSM and assembly run on a background thread; g16_prove_finish
 * waits for it.  The pending proof owns copies of everything the background work
 * reads and holds a reference to the key. */

/* Releases a buffer of evaluations handed to prove_start (e.g. back to a pinned pool). */
typedef void (*g16_release_fn)(void *user, struct g16_fr *buf);

typedef struct g16_prove_input {
    const struct g16_density *density; /* the circuit's density bitmaps */
    /* Synthesis output: n_rows evaluations each (rows = n_constraints + 1 + n_pub).
     * OWNERSHIP PASSES to g16_prove_start on every path, success or error: each is
     * released through release(release_user, buf) as soon as the H step is done
     * with it (release NULL: free()).  NULL buffers are not released. */
    struct g16_fr *a, *b, *c;
    uint64_t n_rows;
    g16_release_fn release;
    void *release_user;
    /* The full assignment, z[0] = 1, then inputs, then aux; only read during the call. */
    const struct g16_fr *z;
    uint64_t n_z;
    /* NULL: r, s fresh from getrandom().  Otherwise 64 bytes r ‖ s, big-endian,
     * reduced mod the group order: deterministic proofs for tests. */
    const uint8_t *rs;
    /* Where the NTTs and MSMs run (g16_backend_open); NULL: the CPU.  The pending
     * proof's background B2 MSM runs there too. */
    g16_backend *backend;
    /* NULL: a, b, c are complete at the call.  Otherwise their buffers are still
     * being written by another thread (the engine starts a device on a partition
     * whose z is ready while its synthesis runs): the MSMs over z run first, then
     * abc_wait(abc_user) is called before anything reads a, b or c, and before a
     * failed call releases them (it may be called more than once); a status other
     * than G16_OK ends the call with it (a, b, c are still released). */
    g16_status (*abc_wait)(void *user);
    /* Optional with abc_wait: nonzero once a, b, c are complete (never blocks; then
     * abc_wait returns at once).  A device backend asks it before its last MSM and, if
     * so, moves a, b, c to the device beside that MSM instead of after it. */
    int (*abc_ready)(void *user);
    void *abc_user;
} g16_prove_input;

/* Out: out: the pending proof (g16_prove_finish or g16_pending_free).
 * Returns: G16_OK; G16_ERR_ARG when counts disagree with the key (n_z, n_rows vs
 * the h query, density popcounts vs the a/b queries); G16_ERR_NOMEM; G16_ERR_IO
 * when getrandom fails. */
g16_status g16_prove_start(g16_pending **out, g16_key *key, const g16_prove_input *in);

/* Waits for the background work and writes the proof; frees the pending proof in
 * every case.  Returns G16_OK or the background work's error. */
g16_status g16_prove_finish(uint8_t proof[G16_PROOF_BYTES], g16_pending *p);

/* Abandons a pending proof: joins its thread and frees everything.  NULL ok. */
void g16_pending_free(g16_pending *p);

/* Proves a circuit with a witness in one call (density, synthesis, prove_start,
 * prove_finish).  rs as in g16_prove_input (NULL: fresh randomness).
 * Returns as g16_prove_start; G16_ERR_ARG when the witness does not fit. */
struct g16_witness;
g16_status g16_prove(uint8_t proof[G16_PROOF_BYTES], g16_key *key, const struct g16_circuit *circ,
                     const struct g16_witness *wit, const uint8_t *rs);
/* As g16_prove on a backend (NULL: the CPU). */
g16_status g16_prove_on(uint8_t proof[G16_PROOF_BYTES], g16_key *key,
                        const struct g16_circuit *circ, const struct g16_witness *wit,
                        const uint8_t *rs, g16_backend *backend);

/* ---------------------------------------------------------------- verifying
 * inputs: n_inputs public inputs as 32-byte big-endian integers < r (the implicit
 * leading one excluded).  Proof points are fully validated (subgroup included).
 * Returns: G16_OK for a valid proof; G16_ERR_UNSATISFIED when the pairing
 * equation fails; a decoding reason (G16_ERR_FLAGS, _NOT_ON_CURVE,
 * _NOT_IN_SUBGROUP, ...) for malformed proof bytes; G16_ERR_ARG for a wrong input
 * count or an input >= r. */
g16_status g16_verify(const g16_vk *vk, const uint8_t proof[G16_PROOF_BYTES],
                      const uint8_t *inputs, size_t n_inputs);

/* Verifies k proofs at once with a random 128-bit linear combination and one
 * multi-pairing.  proofs: 192·k bytes; inputs: k·n_inputs big-endian values.
 * Returns as g16_verify (G16_ERR_UNSATISFIED when the batch does not verify: some
 * proof is invalid, with probability 1 − 2^−128). */
g16_status g16_verify_batch(const g16_vk *vk, const uint8_t *proofs, size_t k,
                            const uint8_t *inputs, size_t n_inputs);

/* ---------------------------------------------------------------- bench
 * `g16 bench prove`: generate a synthetic circuit and witness (g16_circuit_generate),
 * TEST-ONLY setup, then one proof through the split API, timed stage by stage. */
typedef struct g16_bench_prove_args {
    unsigned log_n;     /* rows = 2^log_n */
    int profile;        /* a g16_profile value (include/g16_circuit.h) */
    uint32_t n_pub;     /* public inputs */
    uint64_t seed;
    unsigned threads;   /* 0: the default */
    int backend;        /* a g16_backend_kind (0: auto) */
    int timing_key;     /* nonzero: TIMING-ONLY key of tiled points instead of the
                           setup (for sizes whose setup would take minutes); the
                           proof is then not valid and is not verified */
    unsigned reps;      /* proofs made (>= 1); the fastest prove_start is reported,
                           so device backends show warm figures (key resident) */
} g16_bench_prove_args;

typedef struct g16_bench_prove_result {
    uint64_t rows, n_aux, n_a, n_b;     /* circuit and key sizes */
    double generate, setup, synthesis;  /* seconds */
    double setup_qap, setup_scalars, setup_g1, setup_g2; /* parts of setup */
    double h_ntt, msm_h, msm_l, msm_a, msm_b1, msm_b2, assembly;
    double prove_start, prove_total;    /* prove_start alone; synthesis to proof bytes */
    int b2_in_start;                    /* msm_b2 ran inside prove_start (device backends) */
    double verify;
    int valid;                          /* the proof verified */
    long peak_rss_kb;                   /* getrusage ru_maxrss after the run */
    char backend[64];                   /* the backend that proved */
    double first_prove_start;           /* the first rep's prove_start (cold) */
} g16_bench_prove_result;

g16_status g16_bench_prove(g16_bench_prove_result *out, const g16_bench_prove_args *a);

#ifdef __cplusplus
}
#endif
#endif
