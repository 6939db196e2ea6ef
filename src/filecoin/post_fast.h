/* PoSt proving without per-proof circuit building: the matrices of a (kind,
 * sector size) partition are made once and cached, and each proof's witness is
 * written straight from its vanilla proofs.
 *
 * Every circuit sector of a FallbackPoSt circuit is the same code on the same
 * shape, so its rows differ from the first sector's only by where its variables
 * sit: the matrices are one sector built through the general builder (a
 * value-free template), repeated with its input and aux indices shifted.  The
 * witness runs the very gadget code in witness mode (gadgets.h: values written in
 * allocation order, no rows, Poseidon native with the gadget's intermediate
 * values), a group of circuit sectors a task on the default pool, each writing its
 * own slices of z, the group's path hashes first eight at a time (post_batch.h).  Tests check both against the general builder, bit for bit. */
#ifndef G16_FILECOIN_POST_FAST_H
#define G16_FILECOIN_POST_FAST_H

#include "filecoin/post_circuit.h"

/* Where a circuit sector's values come from: sector proof `sector` of `v`, its
 * inclusion proofs first .. first + challenges − 1. */
typedef struct g16_fc_sector_ref {
    const g16_fc_vproof *v;
    uint64_t sector, first;
} g16_fc_sector_ref;

/* The layout of one circuit sector of a configuration. */
typedef struct g16_fc_layout {
    unsigned circuit_sectors; /* a full partition: Window cfg->sectors, Winning cfg->challenges */
    unsigned challenges;      /* a circuit sector: Window cfg->challenges, Winning 1 */
    uint64_t pub, aux, rows;  /* a circuit sector's inputs, aux and rows */
} g16_fc_layout;

g16_status g16_fc_layout_for(g16_fc_layout *out, const g16_fc_post_config *cfg);

/* Out: circ: the circuit of n circuit sectors of this configuration (n = the
 * layout's circuit_sectors for a full partition; fewer to measure), the same
 * matrices g16_fc_post_build makes (heap; g16_circuit_destroy). */
g16_status g16_fc_post_circuit(g16_circuit **circ, const g16_fc_post_config *cfg, unsigned n);

/* A process-wide cache of g16_fc_post_circuit(cfg, full partition), keyed by kind
 * and sector size: built on first use, shared, kept until g16_fc_post_cache_clear.
 * Thread-safe. */
g16_status g16_fc_post_circuit_cached(const g16_circuit **circ, const g16_fc_post_config *cfg);
void g16_fc_post_cache_clear(void);

/* Out: wit: the witness of n circuit sectors whose values come from refs[0 .. n−1]
 * (heap; g16_witness_destroy), multi-threaded.  Returns G16_ERR_ARG, naming the
 * circuit sector, for a sector proof of another shape or with too few proofs. */
g16_status g16_fc_post_witness(g16_witness **wit, const g16_fc_post_config *cfg, const g16_fc_sector_ref *refs,
                               unsigned n);
/* The same; *batched: how many Poseidon gadgets took their trace from the batched
 * path pass (post_batch.h) instead of hashing one at a time (for tests and benches). */
g16_status g16_fc_post_witness_n(g16_witness **wit, uint64_t *batched, const g16_fc_post_config *cfg,
                                 const g16_fc_sector_ref *refs, unsigned n);
/* The same written into z[0 .. n_z − 1] (n_z must be 1 + n × the layout's inputs and aux;
 * z[0] = 1): the engine's producer (post_job.c) writes straight into its own buffer. */
g16_status g16_fc_post_witness_into(g16_fr *z, uint64_t n_z, uint64_t *batched, const g16_fc_post_config *cfg,
                                    const g16_fc_sector_ref *refs, unsigned n);

#endif
