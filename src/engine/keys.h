/* Keys in the engine (keys.c): their charge, holds and tiers, and the key mover
 * thread that uploads and forgets device copies; mu held unless noted. */
#ifndef G16_ENGINE_KEYS_H
#define G16_ENGINE_KEYS_H

#include "engine/bufpool.h"

/* Bytes of a key's sections (what the budget charges for it). */
size_t g16_key_bytes(const g16_key *k);
/* Whether the key's entry is charged to the budget now. */
static inline int g16_keyent_charged(const g16_keyent *ke)
{
    return ke->held || ke->inflight > 0;
}
/* One admitted partition fewer uses ke: gives its charge back when that was the last
 * use of an unheld key. */
void g16_keyent_unuse(g16_engine *e, g16_keyent *ke);
/* One live job fewer uses ke: frees the entry when it was the last and no hold is
 * left (and queues the forgetting of dropped device copies). */
void g16_keyent_job_out(g16_engine *e, g16_keyent *ke);
/* Queues uploads of key to every device that keeps device copies (no-op on CPU engines). */
void g16_keys_upload(g16_engine *e, g16_key *key);
g16_status g16_keys_start(g16_engine *e); /* mu not held */
void g16_keys_stop(g16_engine *e);        /* mu not held; e->stop set: drains the task queue */
/* Releases every entry and its hold (at destroy, no job left). */
void g16_keys_free(g16_engine *e);

#endif
