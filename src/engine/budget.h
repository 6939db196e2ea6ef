/* The budget (budget.c): what a partition reserves, the charges of circuits and
 * witnesses (each once while admitted partitions use it), and admission; mu held
 * unless noted. */
#ifndef G16_ENGINE_BUDGET_H
#define G16_ENGINE_BUDGET_H

#include "engine/keys.h"

/* Sets p->aux_bytes / scratch_bytes for its current attempt (first: the device's
 * backend; the retry: the CPU backend). */
void g16_part_attempt_sizes(g16_part *p);
/* Sizes p for its circuit and the engine's backends (both attempts); no lock needed. */
void g16_part_size(g16_part *p, const g16_engine *e);
/* What p's current attempt reserves, its key, circuit and witness left out. */
size_t g16_part_total(const g16_part *p);
/* Bytes charged for a witness of circuit c, and for circuit c itself (its arrays
 * and its density bitmaps). */
size_t g16_witness_bytes_(const g16_circuit *c);
size_t g16_circuit_charge_(const g16_circuit *c);
/* Names p's circuit and witness in the charge table (at submit) / forgets them (at
 * job end).  Returns G16_OK or G16_ERR_NOMEM. */
g16_status g16_objs_ref(g16_engine *e, g16_part *p);
void g16_objs_unref(g16_engine *e, g16_part *p);
/* Admits p if its reservation (with its key, circuit and witness when not charged
 * yet) fits the budget now; returns 0 when it does not. */
int g16_admit(g16_engine *e, g16_part *p);
/* Gives back p's use of its key, circuit and witness (their charge with the last use). */
void g16_part_unuse_shared(g16_engine *e, g16_part *p);
/* Out: out: the density bitmaps of p's circuit, computed by the first partition
 * that asks while others wait; valid while p is admitted.  mu not held.
 * Returns G16_OK or g16_circuit_density's error. */
g16_status g16_part_density(g16_engine *e, g16_part *p, const g16_density **out);

#endif
