/* Circuit gadgets in bellperson's allocation and constraint order: one code path
 * that either builds (a g16_builder, with values) or only counts (no builder, no
 * values), so the counts `g16 filecoin circuit --count` prints come from the very
 * code that builds the circuit.
 *
 * bellperson's conventions kept here: a gadget allocates its result before it
 * enforces the row that defines it; rows are emitted in call order; an input is
 * allocated by alloc_input, then tied to its aux twin by one row. */
#ifndef G16_FILECOIN_GADGETS_H
#define G16_FILECOIN_GADGETS_H

#include <stddef.h>
#include <stdint.h>

#include "filecoin/poseidon.h"
#include "r1cs/r1cs.h"

/* Three modes: b set: build (variables with values, rows); wpub/waux set: witness
 * only (values written in allocation order through the two cursors, no rows: the
 * fast path once the matrices are cached); neither: count only (no values). */
typedef struct g16_fc_hash_log g16_fc_hash_log;
typedef struct g16_fc_pretrace g16_fc_pretrace;

typedef struct g16_fc_cs {
    g16_builder *b;
    g16_fr *wpub, *waux; /* witness mode: where the next input / aux value goes */
    uint64_t inputs, aux, constraints;
    g16_fc_hash_log *log; /* counting, optional: each Poseidon gadget's aux offset and arity */
    g16_fc_pretrace *pre; /* witness, optional: Poseidon traces a batched pass wrote (post_batch.h) */
} g16_fc_cs;

/* The Poseidon gadgets of a count, in call order: where each one's values start
 * (cs->aux when it was called) and its arity. */
struct g16_fc_hash_log {
    uint64_t *off;
    unsigned char *arity;
    size_t n, cap;
};
void g16_fc_hash_log_free(g16_fc_hash_log *log);

/* For one circuit sector's witness: the gadgets of `log` whose traces are already in
 * the witness (done[k]), starting at aux0 + log->off[k], with the inputs they hashed
 * (in[8k ..]).  In witness mode the Poseidon gadget at entry `next` takes the trace
 * when it sits at that place and gets the same inputs, and hashes itself otherwise,
 * so a wrong or missing entry costs time, never a wrong value. */
struct g16_fc_pretrace {
    const g16_fc_hash_log *log;
    const g16_fr *aux0;
    const g16_fr *in;
    const unsigned char *done;
    size_t next;
    uint64_t hits;
};

/* An allocated variable and its value (the value is meaningless when counting). */
typedef struct g16_fc_num {
    g16_var var;
    g16_fr val;
} g16_fc_num;

static inline int g16_fc_building(const g16_fc_cs *cs) { return cs->b != NULL; }
static inline int g16_fc_witnessing(const g16_fc_cs *cs) { return cs->waux != NULL; }

/* Allocates an aux / input variable holding *val (NULL when counting, or zero
 * when building the value-free template of a circuit's shape). */
g16_status g16_fc_alloc(g16_fc_cs *cs, g16_fc_num *out, const g16_fr *val);
g16_status g16_fc_alloc_input(g16_fc_cs *cs, g16_fc_num *out, const g16_fr *val);
/* (Σ a)·(Σ b) = (Σ c); counts one constraint. */
g16_status g16_fc_enforce(g16_fc_cs *cs, const g16_term *a, size_t na, const g16_term *b, size_t nb,
                          const g16_term *c, size_t nc);

/* AllocatedBit::alloc: the bit, then (1 − x)·x = 0. */
g16_status g16_fc_alloc_bit(g16_fc_cs *cs, g16_fc_num *out, int bit);
/* AllocatedBit::and (x·y = r) and ::nor ((1 − x)·(1 − y) = r). */
g16_status g16_fc_and(g16_fc_cs *cs, g16_fc_num *out, const g16_fc_num *x, const g16_fc_num *y);
g16_status g16_fc_nor(g16_fc_cs *cs, g16_fc_num *out, const g16_fc_num *x, const g16_fc_num *y);
/* insertion.rs pick: out = cond ? a : b, with (b − a)·cond = (b − out). */
g16_status g16_fc_pick(g16_fc_cs *cs, g16_fc_num *out, const g16_fc_num *cond, const g16_fc_num *a,
                       const g16_fc_num *b);
/* insertion.rs insert for arity 2, 4, 8 (2, 8, 22 rows): out[0 .. arity − 1] is
 * siblings with element placed at the position bits (little-endian) name. */
g16_status g16_fc_insert(g16_fc_cs *cs, g16_fc_num *out, const g16_fc_num *element, const g16_fc_num *bits,
                         const g16_fc_num *siblings, unsigned arity);
/* multipack::pack_into_inputs: one input per 254 bits, each tied by one row. */
g16_status g16_fc_pack_into_inputs(g16_fc_cs *cs, const g16_fc_num *bits, size_t n);
/* AllocatedNum::inputize: a new input equal to x (one row). */
g16_status g16_fc_inputize(g16_fc_cs *cs, const g16_fc_num *x);
/* constraint::equal: a·1 = b. */
g16_status g16_fc_equal(g16_fc_cs *cs, const g16_fc_num *a, const g16_fc_num *b);

/* neptune's legacy circuit::poseidon_hash over in[0 .. arity − 1]: the tag's
 * S-box is a constant, each other S-box costs 3 rows, and a linear-combination
 * input is first allocated (one row); the digest is allocated at the end.
 * 311 / 377 / 505 / 598 rows for arity 2 / 4 / 8 / 11. */
g16_status g16_fc_poseidon_gadget(g16_fc_cs *cs, g16_fc_num *out, const g16_poseidon *p, const g16_fc_num *in);

#endif
