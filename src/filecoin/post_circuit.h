/* The FallbackPoSt circuit (storage-proofs-post fallback/circuit.rs) in
 * bellperson's order, built from vanilla proofs or only counted.
 *
 * Per sector: comm_r_last, comm_c, comm_r allocated; comm_r inputized;
 * Poseidon-2(comm_c, comm_r_last) = comm_r; then per challenge the PoR of
 * storage-proofs-core gadgets/por.rs: the leaf, per tree level the index bits,
 * the siblings, insert and Poseidon of the level's arity; the path bits packed
 * into one input; the computed root equal to comm_r_last. */
#ifndef G16_FILECOIN_POST_CIRCUIT_H
#define G16_FILECOIN_POST_CIRCUIT_H

#include "filecoin/gadgets.h"
#include "filecoin/post.h"

typedef struct g16_fc_counts {
    uint64_t constraints; /* enforced rows (the per-input rows not counted, as bellperson's tests count) */
    uint64_t inputs;      /* the constant ONE counted */
    uint64_t aux;
} g16_fc_counts;

/* Synthesizes one circuit sector with `challenges` inclusion proofs into cs.
 * When cs builds, v's sector proof s supplies the values: its inclusion proofs
 * first .. first + challenges − 1, which must exist and have the shape (a
 * WindowPoSt sector takes its 10 from 0; WinningPoSt's 66 circuit sectors take
 * proof j each of the one sector).  When it counts, v may be NULL.
 * Returns G16_ERR_ARG for a vanilla proof of another shape or too few proofs. */
g16_status g16_fc_post_sector(g16_fc_cs *cs, const g16_fc_shape *shape, unsigned challenges,
                              const g16_fc_vproof *v, uint64_t s, uint64_t first);

/* Builds the circuit of a PoSt from one vanilla proof file's sectors: WindowPoSt
 * one circuit sector per sector proof (at most cfg->sectors, no padding),
 * WinningPoSt cfg->challenges circuit sectors of one challenge each from sector
 * proof 0.  Out: the circuit and its witness (heap handles), and the counts. */
g16_status g16_fc_post_build(g16_circuit **circ, g16_witness **wit, g16_fc_counts *counts,
                             const g16_fc_post_config *cfg, const g16_fc_vproof *v);

/* Counts a FallbackPoSt circuit of `sectors` sectors × `challenges` challenges
 * on trees of this shape (one sector synthesized in counting mode: every sector's
 * synthesis is the same code on the same shape). */
g16_status g16_fc_fallback_count(g16_fc_counts *out, const g16_fc_shape *shape, unsigned sectors,
                                 unsigned challenges);

/* Counts the circuit of a PoSt configuration: WindowPoSt is cfg->sectors sectors
 * × cfg->challenges; WinningPoSt is cfg->challenges (66) sectors × 1 challenge. */
g16_status g16_fc_post_count(g16_fc_counts *out, const g16_fc_post_config *cfg);

#endif
