/* The PoR path hashes of several circuit sectors, eight at a time (post_fast.c's witness).
 *
 * A circuit sector's witness is mostly the traces of its path hashes: per challenge, one
 * Poseidon a tree level, each fed by the digest below it.  Chains of different
 * challenges (and sectors) are independent, so this pass walks them level by level,
 * eight chains a call of g16_poseidon_hash_trace8, and writes each trace where the
 * witness pass will find it (g16_fc_pretrace, gadgets.h).  The witness pass still runs
 * every gadget; a Poseidon gadget whose trace is there with its inputs skips the hash.
 *
 * Where the batch cannot help (no IFMA, a proof not of the circuit's shape) it writes
 * nothing and marks nothing: the witness pass then does all the work, and reports a
 * wrong proof exactly as before. */
#ifndef G16_FILECOIN_POST_BATCH_H
#define G16_FILECOIN_POST_BATCH_H

#include "filecoin/post_fast.h"

/* What one circuit sector of a configuration hashes, from counting it once. */
typedef struct g16_fc_batch_plan {
    g16_fc_hash_log log;  /* every Poseidon gadget of a circuit sector */
    unsigned challenges;  /* chains a circuit sector */
    unsigned levels;      /* hashes a chain */
    unsigned arity[64];   /* of level l */
    size_t first_path;    /* log entry of chain 0, level 0; chain c level l: first_path + c·levels + l */
    int usable;           /* the log has that shape */
    g16_fc_shape shape;
} g16_fc_batch_plan;

/* Out: plan for cfg (free with g16_fc_batch_plan_free). */
g16_status g16_fc_batch_plan_make(g16_fc_batch_plan *plan, const g16_fc_post_config *cfg, unsigned challenges);
void g16_fc_batch_plan_free(g16_fc_batch_plan *plan);

/* Circuit sectors a group should hold so that its chains fill whole vectors. */
unsigned g16_fc_batch_group(const g16_fc_batch_plan *plan);

/* Writes the path traces of circuit sectors refs[0 .. m − 1], whose aux values start at
 * aux0[j] in the witness, and sets pre[j] to describe them (pre[j].in and .done point
 * into scratch, which must hold g16_fc_batch_scratch(plan, m) bytes and outlive the
 * witness pass).  Best effort: a sector it cannot do gets an empty pre[j]. */
size_t g16_fc_batch_scratch(const g16_fc_batch_plan *plan, unsigned m);
void g16_fc_batch_paths(const g16_fc_batch_plan *plan, const g16_fc_sector_ref *refs, g16_fr *const *aux0,
                        unsigned m, g16_fc_pretrace *pre, void *scratch);

#endif
