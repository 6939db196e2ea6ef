/* The stage workers (workers.c): synthesis (admission), device (prove_start under
 * the device lock) and finalizers (prove_finish, self-check). */
#ifndef G16_ENGINE_WORKERS_H
#define G16_ENGINE_WORKERS_H

#include "engine/jobs.h"

/* A worker thread's body: arg is its g16_worker. */
void *g16_worker_main(void *arg);

#endif
