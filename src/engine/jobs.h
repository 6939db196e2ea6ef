/* Jobs (jobs.c): submit, the job table (status, per-partition status, await,
 * cancel), the sorted partition lists, and the release rules that bring every
 * counter back down; mu held unless noted. */
#ifndef G16_ENGINE_JOBS_H
#define G16_ENGINE_JOBS_H

#include "engine/budget.h"
#include "engine/trace.h"

/* 1 when the job is DONE, FAILED or CANCELLED. */
int g16_job_ended(const g16_job *j);
/* Inserts into a sorted list (queue / waiting: priority, job order, index). */
void g16_part_insert(g16_part **list, g16_part *p);
/* Takes the head of a list (NULL when empty). */
g16_part *g16_part_pop(g16_part **list);
/* Enters public stage s at time now, adding the time of the stage left. */
void g16_part_enter(g16_part *p, g16_part_stage s, double now);
/* Gives back one of p's buffers (to the pool when mapped, to the budget when only
 * reserved), counted out of counter c. */
void g16_part_put_buf(g16_engine *e, g16_buf *b, g16_counter c);
/* Gives back everything p holds; the job's in-flight count is left to the caller. */
void g16_part_release_holdings(g16_engine *e, g16_part *p);
/* Releases everything the partition holds and counts it out of its job. */
void g16_part_release(g16_engine *e, g16_part *p);
/* Marks the job failed (first error wins) and drops its queued and waiting partitions. */
void g16_job_fail(g16_engine *e, g16_job *j, g16_stage stage, g16_status st, const char *msg);
/* Drops a job's queued and waiting partitions. */
void g16_job_drop_queued(g16_engine *e, g16_job *j);
/* One partition fewer in flight; ends the job when it was the last. */
void g16_job_part_out(g16_engine *e, g16_job *j);

#endif
