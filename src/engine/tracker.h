/* The engine's clock, its buffer tracker (atomic counters with peaks) and the
 * budget's reserved-bytes counter (tracker.c).  The lowest of the engine's
 * headers: every other file may use it, it uses none of them. */
#ifndef G16_ENGINE_TRACKER_H
#define G16_ENGINE_TRACKER_H

#include "engine/engine.h"

/* Engine clock: seconds since the engine was created. */
double g16_engine_now(const g16_engine *e);
/* The clock the engine's origin is taken from (CLOCK_MONOTONIC, seconds). */
double g16_engine_mono(void);

/* Adds delta to counter c and raises its peak. */
void g16_tracker_add(g16_tracker *t, g16_counter c, int64_t delta);
int64_t g16_tracker_get(const g16_tracker *t, g16_counter c);
/* Writes one debug line "engine: <what>: synth=.. waiting=.. ..." to stderr when debug is on. */
void g16_tracker_log(const g16_tracker *t, const char *what, uint64_t job, uint32_t part);

/* Charges bytes to the budget (negative: gives them back); mu held. */
void g16_budget_charge(g16_engine *e, int64_t bytes);

#endif
