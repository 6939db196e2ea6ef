/* g16 — Groth16 proving engine for BLS12-381.  Public API.
 *
 * Conventions (see docs/API.md):
 *  - Every function that can fail returns a g16_status.  On failure a message
 *    with context (file, offset, what was expected) is kept per thread and can
 *    be read with g16_last_error() until the next failing call on that thread.
 *  - Arguments are ordered: context, outputs, in/out, inputs; an array's length
 *    follows the array.
 */
#ifndef G16_H
#define G16_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define G16_VERSION_MAJOR 0
#define G16_VERSION_MINOR 1
#define G16_VERSION_PATCH 0
#define G16_VERSION_STRING "0.1.0"

typedef enum g16_status {
    G16_OK = 0,
    G16_ERR_ARG = 1,            /* a caller passed an invalid argument */
    G16_ERR_NOMEM = 2,          /* an allocation failed */
    G16_ERR_IO = 3,             /* a file could not be read or written */
    G16_ERR_FORMAT = 4,         /* a file or string is malformed */
    /* Point and field-element decoding: one code per reason a value is refused. */
    G16_ERR_LENGTH = 10,        /* wrong number of bytes for this encoding */
    G16_ERR_FLAGS = 11,         /* compression/infinity/sign flag bits inconsistent */
    G16_ERR_NONCANONICAL = 12,  /* a coordinate or field element is >= the modulus */
    G16_ERR_NOT_ON_CURVE = 13,  /* the coordinates do not satisfy the curve equation */
    G16_ERR_NOT_IN_SUBGROUP = 14, /* on the curve but not in the prime-order subgroup */
    G16_ERR_INFINITY = 15,      /* infinity flag set but other bits are not zero */
    G16_ERR_UNSATISFIED = 16,   /* a witness does not satisfy its circuit */
    G16_ERR_BACKEND = 20,       /* a compute backend failed or is unavailable */
    G16_ERR_INTERNAL = 30,      /* an invariant did not hold: a bug in g16 */
    G16_ERR_TIMEOUT = 40,       /* a wait ran out before the work finished */
    G16_ERR_CANCELLED = 41      /* the work was cancelled */
} g16_status;

/* The pairing-friendly curves, for choosing one at run time (docs/curve.md).
 * (The _ID_ keeps these apart from the build macro G16_CURVE_BN254, which marks
 * the BN254 compile of the shared sources.) */
typedef enum g16_curve_id {
    G16_CURVE_ID_BLS12_381 = 1, /* the default everywhere */
    G16_CURVE_ID_BN254 = 2      /* alt_bn128, snarkjs/circom's "bn128" */
} g16_curve_id;

/* Returns: "bls12-381" or "bn254" ("?" for anything else). */
const char *g16_curve_name(g16_curve_id c);
/* Parses a curve name: "bls12-381" (or "bls12_381", "bls12381"), "bn254" (or "bn128",
 * "alt_bn128").  Returns: G16_OK, or G16_ERR_ARG naming the accepted names. */
g16_status g16_curve_parse(const char *name, g16_curve_id *out);

/* Returns: a static, human-readable name for a status code ("not on curve"). */
const char *g16_status_str(g16_status s);

/* Returns: the message of the last failure on the calling thread, or "" if none.
 * The pointer is valid until the next g16 call on this thread. */
const char *g16_last_error(void);

/* Returns: the library version string (G16_VERSION_STRING of the built library). */
const char *g16_version(void);

/* Returns: a static, human-readable description of the field-arithmetic path in use
 * ("x86-64 mulx/adx" or "portable C", followed by ", AVX-512 IFMA batches" when the
 * batched products run on IFMA). */
const char *g16_arith_path(void);

/* Returns: 1 when this library was built with the CUDA backend. */
int g16_cuda_built(void);

/* Returns: the number of CUDA devices visible now (0 without a driver or GPU).
 * Out: desc: a one-line description of the devices, or why there are none. */
int g16_cuda_devices(char *desc, size_t cap);

/* ---------------------------------------------------------------------------
 * Compute backends.  A backend runs the heavy operations of proving (NTTs, the H
 * step, MSMs, the 0/1 batch addition); the CPU backend is always built and is the
 * reference, the CUDA backend exists when the build found nvcc and is usable only
 * where a GPU is present.  Results are equal to the CPU's bit for bit.
 * ------------------------------------------------------------------------- */
typedef struct g16_backend g16_backend;
typedef enum g16_backend_kind {
    G16_BACKEND_AUTO = 0, /* CUDA when a GPU is present, else the CPU */
    G16_BACKEND_CPU = 1,
    G16_BACKEND_CUDA = 2
} g16_backend_kind;

/* Parses "cpu", "cuda" or "auto".  Returns G16_OK or G16_ERR_ARG (message names
 * the accepted words). */
g16_status g16_backend_parse(const char *s, g16_backend_kind *out);

/* Opens a backend.  device: the GPU index for CUDA (ignored for the CPU).
 * Returns G16_OK; G16_ERR_BACKEND for CUDA when the build has no CUDA backend or
 * no GPU is visible (the message says which); G16_ERR_NOMEM.  The CPU backend
 * is one shared object; closing it is a no-op.  A backend may be used by several
 * threads at once (device work is serialised inside); it must outlive every
 * pending proof started on it. */
g16_status g16_backend_open(g16_backend **out, g16_backend_kind kind, int device);
void g16_backend_close(g16_backend *be);
/* As g16_backend_open for one curve's types: a backend computes over the curve it
 * was opened for (g16_backend_open: BLS12-381), and the snarkjs prover of a bn128
 * zkey needs a BN254 one.  g16_backend_close closes either. */
g16_status g16_backend_open_curve(g16_backend **out, g16_curve_id curve, g16_backend_kind kind,
                                  int device);
/* The curve be computes over. */
g16_curve_id g16_backend_curve(const g16_backend *be);
/* Returns: "cpu" or "cuda:<index> (<device name>)". */
const char *g16_backend_name(const g16_backend *be);

/* ---------------------------------------------------------------------------
 * Curve checks for people verifying keys and proofs by hand (`g16 ec`).
 * Groups are named by G16_G1 / G16_G2.  Points are exchanged as encodings in
 * the ZCash/bellperson/blst format: compressed 48/96 bytes, uncompressed 96/192.
 * ------------------------------------------------------------------------- */
typedef enum g16_group { G16_G1 = 1, G16_G2 = 2 } g16_group;

/* Parses a decimal or 0x-prefixed hexadecimal integer of any length and reduces it
 * modulo r (the group order).
 * Out: out32: 32 bytes, big-endian canonical value of the scalar mod r.
 * Returns: G16_OK, or G16_ERR_FORMAT when text is not a number. */
g16_status g16_scalar_parse(uint8_t out32[32], const char *text);

/* Computes scalar·generator of the group and writes its compressed encoding.
 * Out: out: 48 (G1) or 96 (G2) bytes.  In: scalar32: canonical big-endian scalar < r. */
g16_status g16_ec_mul_generator(uint8_t *out, size_t out_len, g16_group group,
                                const uint8_t scalar32[32]);

/* Decodes and fully checks a point encoding (length tells group and form).
 * Out: group (may be NULL): which group the encoding belongs to.
 * Returns: G16_OK for a valid point, else the reason (G16_ERR_LENGTH, _FLAGS,
 * _NONCANONICAL, _NOT_ON_CURVE, _NOT_IN_SUBGROUP, _INFINITY). */
g16_status g16_ec_check(g16_group *group, const uint8_t *enc, size_t len);

/* Computes the pairing e(P, Q) of a G1 and a G2 point given as encodings.
 * Out: out576: the 12 Fp coefficients of the result, 48 bytes big-endian each, in the
 * order c0.c0.c0, c0.c0.c1, c0.c1.c0, c0.c1.c1, c0.c2.c0, c0.c2.c1, c1.c0.c0, …, c1.c2.c1. */
g16_status g16_ec_pairing(uint8_t out576[576], const uint8_t *g1, size_t g1_len,
                          const uint8_t *g2, size_t g2_len);

#if !G16_CURVE_BN254 /* (a BN254 compile sees its own renamed versions of the above) */
/* The same four on BN254 (`g16 ec --curve bn254`; docs/curve.md).  Encodings: G1 32
 * bytes compressed (gnark flags) or 64 uncompressed (x ‖ y, EIP-196), G2 64 or 128
 * (c1 before c0, EIP-197); g16_bn254_ec_mul_generator writes the form out_len names;
 * the pairing is 384 bytes: the 12 Fp coefficients, 32 bytes each, same order. */
g16_status g16_bn254_scalar_parse(uint8_t out32[32], const char *text);
g16_status g16_bn254_ec_mul_generator(uint8_t *out, size_t out_len, g16_group group,
                                      const uint8_t scalar32[32]);
g16_status g16_bn254_ec_check(g16_group *group, const uint8_t *enc, size_t len);
g16_status g16_bn254_ec_pairing(uint8_t *out384, const uint8_t *g1, size_t g1_len,
                                const uint8_t *g2, size_t g2_len);
#endif

/* ---------------------------------------------------------------------------
 * Self-test and micro-benchmarks (`g16 selftest`, `g16 bench field`).
 * ------------------------------------------------------------------------- */
typedef struct g16_check_result {
    const char *name;   /* what was checked */
    int passed;         /* 1 if the known answer matched */
    char detail[96];    /* on failure: what differed */
} g16_check_result;

/* Runs the built-in known-answer checks.
 * Out: results: up to cap entries; count: how many checks exist (may exceed cap).
 * Returns: G16_OK when every check passed, G16_ERR_INTERNAL otherwise. */
g16_status g16_selftest(g16_check_result *results, size_t cap, size_t *count);

typedef struct g16_bench_result {
    const char *op;     /* e.g. "fp_mul" */
    double ns;          /* median nanoseconds per operation */
    uint64_t iters;     /* operations per timed run */
} g16_bench_result;

/* Times the field, curve and pairing operations.
 * In: quick: nonzero for fewer repetitions (used by selftest).
 * Out: results: up to cap entries; count: number of entries produced. */
g16_status g16_bench_field(g16_bench_result *results, size_t cap, size_t *count, int quick);

/* ---------------------------------------------------------------------------
 * Threads.  g16 runs its CPU kernels on one process-wide pool of worker threads,
 * created on first use.  Its size is, in order: the last g16_set_threads(n > 0),
 * else the environment variable G16_THREADS, else the number of online CPUs.
 * ------------------------------------------------------------------------- */

/* Sets the worker count for the pool; takes effect at the next parallel call
 * (the pool is rebuilt).  n = 0 returns to the default.  Not to be called while a
 * parallel call is running on another thread. */
g16_status g16_set_threads(unsigned n);

/* Returns: the number of threads parallel calls use now. */
unsigned g16_threads(void);

/* ---------------------------------------------------------------------------
 * Kernel benchmarks (`g16 bench ntt`, `g16 bench msm`).
 * ------------------------------------------------------------------------- */
typedef struct g16_bench_kernel_args {
    int log_n;          /* size: 2^log_n elements / points */
    unsigned threads;   /* 0: the default thread count */
    int reps;           /* timed repetitions, the median is reported; 0: automatic */
    int coset;          /* NTT: time the coset transform */
    g16_group group;    /* MSM: G16_G1 or G16_G2 */
    double ones;        /* MSM: fraction of scalars equal to 1 */
    double zeros;       /* MSM: fraction of scalars equal to 0 */
    uint64_t seed;      /* input generation */
} g16_bench_kernel_args;

/* Times one forward NTT of 2^log_n random Fr elements (in place, natural order in,
 * bit-reversed out, or coset when a->coset).  Out: seconds: median wall time. */
g16_status g16_bench_ntt(double *seconds, const g16_bench_kernel_args *a);

/* Times one MSM of 2^log_n random bases and scalars (full-width, with the requested
 * fractions of 0 and 1).  Out: seconds: median wall time. */
g16_status g16_bench_msm(double *seconds, const g16_bench_kernel_args *a);

#if !G16_CURVE_BN254
/* The same three on BN254 (`g16 bench field|ntt|msm --curve bn254`, docs/curve.md). */
g16_status g16_bn254_bench_field(g16_bench_result *results, size_t cap, size_t *count, int quick);
g16_status g16_bn254_bench_ntt(double *seconds, const g16_bench_kernel_args *a);
g16_status g16_bn254_bench_msm(double *seconds, const g16_bench_kernel_args *a);
#endif

#ifdef __cplusplus
}
#endif
#include "g16_circuit.h"
#include "g16_groth16.h"
#include "g16_engine.h"

#endif /* G16_H */
