/* `g16 filecoin post-bench`: one FallbackPoSt partition from a vanilla proof,
 * timed stage by stage: the matrices (once per process), the witness streamed
 * from the vanilla proof, synthesis (A·z, B·z, C·z), a check of every row, and
 * the proof with a TIMING-ONLY key (diag/timing_key.h: the proof is NOT valid
 * and is not verified).  The one sector proof is repeated to the partition's
 * circuit sectors, as a short WindowPoSt partition is padded with its last
 * sector, so a full 32 GiB WindowPoSt partition (2349 circuit sectors,
 * 125,279,217 constraints) can be timed from the one real sector we hold. */
#ifndef G16_DIAG_BENCH_POST_H
#define G16_DIAG_BENCH_POST_H

#include "filecoin/post_fast.h"

typedef struct g16_bench_post_args {
    g16_fc_post_kind kind;
    uint64_t sector_size;   /* bytes */
    const g16_fc_vproof *v; /* its sector proof 0 fills every circuit sector (unless distinct) */
    unsigned sectors;       /* circuit sectors (0: a full partition) */
    int backend;            /* a g16_backend_kind */
    unsigned reps;          /* proofs (>= 1): witness, synthesis and proof each time */
    int progress;           /* nonzero: a line on stderr as each stage ends (long runs) */
    int overlap;            /* nonzero: proofs after the first run their synthesis beside the
                               MSMs over z, as the engine's early device start does */
    int witness_only;       /* nonzero: only the witness, R times (no matrices, key or proof:
                               a full partition's witness fits where its proof does not) */
    int distinct;           /* nonzero: v is not used; each circuit sector gets its own TEST-ONLY
                               synthetic sector proof (g16_fc_vproof_synth: pseudo-random values,
                               as real sectors have; WinningPoSt one sector of 66 challenges), so
                               no value repeats across circuit sectors */
} g16_bench_post_args;

typedef struct g16_bench_post_stage {
    double witness, witness_cpu;  /* wall s, process core-s */
    double synth, synth_cpu;      /* A·z, B·z, C·z */
    double h_ntt, msm_h, msm_l, msm_a, msm_b1, msm_b2, assembly;
    int b2_in_start;              /* B2 ran inside prove_start (device backends) */
    double prove_start, prove;    /* prove_start alone; prove_start to proof bytes */
    double total;                 /* witness + synthesis + prove (wall); overlapped: witness + prove */
    int overlapped;               /* the synthesis ran inside prove (synth_cpu not measured) */
} g16_bench_post_stage;

typedef struct g16_bench_post_result {
    unsigned circuit_sectors, full_sectors; /* measured, and a full partition's */
    uint64_t rows, inputs, aux, domain;     /* rows include the per-input rows */
    uint64_t terms;                         /* nonzeros of A, B and C */
    uint64_t aux_in_a, aux_in_b;            /* aux variables in A / in B: the A and B1/B2 MSMs' sizes */
    double matrices, matrices_cpu;          /* once per process (cached by post-prove) */
    double density, key, upload;            /* density bitmaps; TIMING-ONLY key; its upload */
    size_t matrix_bytes, key_bytes, witness_bytes;
    uint64_t rows_checked;                  /* a∘b = c checked on these rows (all) */
    double check;                           /* seconds of that check (not in total) */
    g16_bench_post_stage first, best;       /* the first proof, the fastest by total */
    unsigned reps, overlapped_reps;         /* proofs; of them with the synthesis overlapped */
    uint64_t witness_batched;               /* Poseidon gadgets a witness took from the batched
                                               path pass (post_batch.h; 0 without AVX-512 IFMA) */
    int witness_only;
    unsigned distinct_sectors;              /* synthetic sector proofs made (--distinct) */
    double distinct_secs;                   /* making them (not in any total) */
    long peak_rss_kb;
    char backend[64];
} g16_bench_post_result;

/* Runs the benchmark.  Returns G16_OK; G16_ERR_UNSATISFIED naming the first
 * row where a·b != c; or the errors of the steps (G16_ERR_NOMEM, backend). */
g16_status g16_bench_post(g16_bench_post_result *out, const g16_bench_post_args *a);

#endif
