/* Multi-scalar multiplication on G1 and G2: out = Σ scalars[i]·bases[i].
 *
 * Algorithm: Pippenger's bucket method with signed (Booth) window digits in
 * [−2^(c−1), 2^(c−1)], so a window needs only 2^(c−1) buckets; the window c is
 * chosen from the number of non-trivial scalars and the thread count (see
 * docs/msm.md for the measured table).  Work is split over the default thread
 * pool (common/pool.h) by (window, range of points) tasks.  Buckets are kept
 * either in affine form, with independent additions batched so that one field
 * inversion serves a few hundred of them (the default, faster), or in XYZZ form.
 *
 * Scalars are Fr elements in MONTGOMERY form (g16_fr, as synthesis produces
 * them); they are converted to canonical integers internally, a chunk of points
 * at a time, so the extra memory is bounded (about 36 bytes per point of a chunk
 * of at most G16_MSM_CHUNK points) whatever n is.
 *
 * Density (bellperson convention): when `density` is not NULL it is a bitmap of
 * n bits, bit i = (density[i / 64] >> (i % 64)) & 1.  scalars still has n
 * entries, but bases holds only the entries whose bit is set, in order, so
 * n_bases must equal the number of set bits; scalars whose bit is clear are
 * ignored.  Without a bitmap n_bases must equal n.
 *
 * The 0/1 split: scalars equal to 0 are skipped, bases whose scalar is 1 are
 * summed with plain additions, and Pippenger runs on the rest only.  It is on by
 * default; the result is the same group element either way.
 *
 * Bases are affine points of the prime-order subgroup, in Montgomery form;
 * (0, 0) is the point at infinity and is allowed anywhere.  Bases outside the
 * subgroup give an unspecified (but memory-safe) result.
 *
 * Thread safety: the functions only read their inputs; several MSMs may run at
 * once from different threads (they share the default pool, which serialises
 * their parallel sections).
 */
#ifndef G16_MSM_MSM_H
#define G16_MSM_MSM_H

#include <stddef.h>
#include <stdint.h>

#include "curve/point.h"
#include "field/fr.h"
#include "g16.h"

/* Most points converted and processed in one piece (bounds the scratch memory). */
#define G16_MSM_CHUNK ((size_t)1 << 22)

typedef enum g16_msm_buckets {
    G16_MSM_BUCKETS_AUTO = 0,   /* affine buckets for large inputs, XYZZ for small */
    G16_MSM_BUCKETS_AFFINE = 1, /* batch-affine accumulation (one inversion per batch) */
    G16_MSM_BUCKETS_XYZZ = 2    /* XYZZ buckets, mixed additions */
} g16_msm_buckets;

/* The ψ split of BLS12-381's G2 MSMs (docs/msm.md): k·P = Σ_{j<4} d_j·(|x|^j·P) with
 * base-|x| digits d_j < 2^64 (curve.h, g16_bls_x_digits): 4N points with 64-bit
 * scalars (four 16-bit windows) instead of N with 255-bit ones, the images |x|^j·P
 * made while the scalars are prepared.  Same result.  It saves only the bucket
 * reductions of the windows it removes, less than its images cost on the 2-core
 * development machine (and its 16-bit windows' buckets overflow the L2 cache), so
 * the automatic choice leaves it off.  Ignored for G1 and for BN254. */
typedef enum g16_msm_psi {
    G16_MSM_PSI_AUTO = 0, /* off; G16_MSM_PSI=1 (measurements): on from G16_MSM_PSI_FROM bases */
    G16_MSM_PSI_ON = 1,   /* at any size */
    G16_MSM_PSI_OFF = 2   /* never */
} g16_msm_psi;

/* Bases from which G16_MSM_PSI=1 makes the automatic choice take the ψ split. */
#define G16_MSM_PSI_FROM ((size_t)1 << 12)

/* Tuning knobs for tests and benchmarks; the zero value means "automatic". */
typedef struct g16_msm_opts {
    unsigned window;          /* c in [1, G16_MSM_MAX_WINDOW]; 0: from the table */
    g16_msm_buckets buckets;  /* bucket form */
    int no_split;             /* nonzero: treat 1 like any other scalar */
    unsigned threads;         /* plan the window and task split for this many threads
                                 (0: the pool's size); the pool still runs the tasks */
    size_t chunk;             /* scalars prepared and run per piece, a multiple of 64
                                 (0: G16_MSM_CHUNK); small values are for tests */
    g16_msm_psi psi;          /* the ψ split (G2 of BLS12-381) */
} g16_msm_opts;

#define G16_MSM_MAX_WINDOW 20u

/* Returns: an upper bound of the scratch memory (bytes) one MSM of n scalars takes with
 * the default options on the default pool (g16_threads() workers): the scalars'
 * conversion a chunk at a time and each worker's buckets and batches, for group 1 (G1)
 * or 2 (G2).  For callers that charge it to a budget. */
size_t g16_msm_scratch_bytes(size_t n, int group);

/* Computes out = Σ_i scalars[i]·bases[i] with the default options.
 * Out: out: the sum, Jacobian (Z = 0 when the sum is the point at infinity).
 * In:  bases: n_bases affine points (see density); scalars: n Montgomery-form Fr;
 *      density: NULL, or an n-bit bitmap selecting which scalars have a base.
 * Returns: G16_OK; G16_ERR_ARG when a pointer needed for n > 0 is NULL or n_bases
 * does not match n / the bitmap; G16_ERR_NOMEM when scratch memory is missing. */
g16_status g16_msm_g1(g16_g1_jac *out, const g16_g1_affine *bases, size_t n_bases,
                      const g16_fr *scalars, size_t n, const uint64_t *density);
g16_status g16_msm_g2(g16_g2_jac *out, const g16_g2_affine *bases, size_t n_bases,
                      const g16_fr *scalars, size_t n, const uint64_t *density);

/* As above with explicit options (opts NULL = defaults).  Also returns G16_ERR_ARG
 * for a window above G16_MSM_MAX_WINDOW or an unknown bucket form. */
g16_status g16_msm_g1_ex(g16_g1_jac *out, const g16_g1_affine *bases, size_t n_bases,
                         const g16_fr *scalars, size_t n, const uint64_t *density,
                         const g16_msm_opts *opts);
g16_status g16_msm_g2_ex(g16_g2_jac *out, const g16_g2_affine *bases, size_t n_bases,
                         const g16_fr *scalars, size_t n, const uint64_t *density,
                         const g16_msm_opts *opts);

/* Batch-affine additions, the MSM's inner step as a primitive: for j < n,
 * tgt[idx[j]] += (neg[j] ? −pts[j] : pts[j]) in affine form, with one field
 * inversion per batch of up to `cap` (8 additions per vector with AVX-512 IFMA).
 * Contract: the idx[j] of one call are distinct; every tgt[idx[j]] holds a point
 * (not infinity) and st[idx[j]] has bit 0 set; a sum that is the point at
 * infinity clears bit 0 of its st entry (its tgt entry is then meaningless);
 * equal x (doubling, cancelling) is handled.  A handle is used by one thread at
 * a time. */
typedef struct g16_g1_batch g16_g1_batch;
typedef struct g16_g2_batch g16_g2_batch;
g16_status g16_g1_batch_new(g16_g1_batch **out, size_t cap);
g16_status g16_g2_batch_new(g16_g2_batch **out, size_t cap);
void g16_g1_batch_free(g16_g1_batch *b);
void g16_g2_batch_free(g16_g2_batch *b);
void g16_g1_batch_add(g16_g1_batch *b, g16_g1_affine *tgt, uint8_t *st, const uint32_t *idx,
                      const g16_g1_affine *const *pts, const uint8_t *neg, size_t n);
void g16_g2_batch_add(g16_g2_batch *b, g16_g2_affine *tgt, uint8_t *st, const uint32_t *idx,
                      const g16_g2_affine *const *pts, const uint8_t *neg, size_t n);

/* As g16_msm_g1 / g16_msm_g2, with equal scalars merged: the bases of every
 * value that occurs more than once (other than 0 and 1, which the 0/1 split
 * handles) are summed first by batch-affine additions, and Pippenger runs on one
 * point per distinct value.  Same result; worth it where a witness repeats
 * values (Poseidon Merkle paths of one tree: WinningPoSt's 66 challenges of one
 * sector share their upper levels, a third of its witness).  Used only for
 * G16_MSM_MERGE_MIN <= n <= G16_MSM_MERGE_MAX and when it saves at least 1/32
 * of the points; otherwise it is the plain MSM.  Extra memory while it runs:
 * about 64 bytes a scalar for the grouping, a compact copy of the kept scalars
 * and bases, and the grouped bases' sums (summed as a tree, ⌈log2⌉ rounds a
 * group): at most G16_MSM_MERGE_BYTES(n, sizeof base) in all. */
#define G16_MSM_MERGE_MIN ((size_t)1 << 12)
#define G16_MSM_MERGE_MAX ((size_t)1 << 22)
#define G16_MSM_MERGE_BYTES(n, base_bytes) ((size_t)(n) * (65 + 32 + 2 * (base_bytes)) + 4096)
g16_status g16_msm_g1_merged(g16_g1_jac *out, const g16_g1_affine *bases, size_t n_bases,
                             const g16_fr *scalars, size_t n, const uint64_t *density);
g16_status g16_msm_g2_merged(g16_g2_jac *out, const g16_g2_affine *bases, size_t n_bases,
                             const g16_fr *scalars, size_t n, const uint64_t *density);

/* A merged MSM's grouping of equal scalars, made once for several MSMs over the same
 * scalars (the prover's B1 on G1 and B2 on G2: the grouping was ~20 ms a MSM on one
 * core).  g16_msm_merge_plan_new groups s[0, n) as the merged MSM would (density,
 * n_bases: as there) and sets *out to the plan, or to NULL (G16_OK) where merging
 * does not apply (outside G16_MSM_MERGE_MIN..MAX, too few copies, G16_MSM_NO_MERGE).
 * The _merged_plan forms are the merged MSMs with the grouping taken from plan
 * (NULL: the plain MSM); the scalars must be the plan's: the same n, density and
 * values, or, with density NULL, the n_bases selected ones compacted in order
 * (scalar i has base i).  Returns G16_ERR_ARG when the sizes fit neither.  A plan
 * is read-only once made (usable from several threads). */
typedef struct g16_msm_merge_plan g16_msm_merge_plan;
g16_status g16_msm_merge_plan_new(g16_msm_merge_plan **out, const g16_fr *s, size_t n,
                                  const uint64_t *density, size_t n_bases);
void g16_msm_merge_plan_free(g16_msm_merge_plan *plan);
g16_status g16_msm_g1_merged_plan(g16_g1_jac *out, const g16_g1_affine *bases, size_t n_bases,
                                  const g16_fr *scalars, size_t n, const uint64_t *density,
                                  const g16_msm_merge_plan *plan);
g16_status g16_msm_g2_merged_plan(g16_g2_jac *out, const g16_g2_affine *bases, size_t n_bases,
                                  const g16_fr *scalars, size_t n, const uint64_t *density,
                                  const g16_msm_merge_plan *plan);

/* Returns: the window c the automatic choice takes for m non-trivial scalars on
 * `threads` threads in the given group (1 or 2); exposed for tests and docs. */
unsigned g16_msm_pick_window(size_t m, unsigned threads, int group);

#endif
