/* PoSt jobs on the engine: a partition's witness streamed from the vanilla
 * proofs (post_fast.h) and queued with the cached matrices, WinningPoSt at
 * CRITICAL and WindowPoSt at HIGH unless the caller says otherwise (WinningPoSt
 * must be done within seconds of its block; WindowPoSt within its deadline's
 * 30-minute window, ahead of sealing work). */
#ifndef G16_FILECOIN_POST_JOB_H
#define G16_FILECOIN_POST_JOB_H

#include "filecoin/post_plan.h"
#include "g16_engine.h"

/* Returns the default priority of a PoSt kind: CRITICAL for WinningPoSt, HIGH for WindowPoSt. */
g16_priority g16_fc_post_priority(g16_fc_post_kind kind);

/* A submitted PoSt: what must outlive the engine's job (witnesses, partitions). */
typedef struct g16_fc_post_job {
    uint64_t id;       /* the engine's job id */
    g16_priority priority;
    unsigned partitions;
    const g16_circuit *circuit; /* the cached matrices (not owned) */
    g16_witness **wits;         /* one a partition */
    g16_partition *parts;
    double witness_s;           /* seconds spent writing the witnesses */
} g16_fc_post_job;

/* Takes the cached matrices, writes the witness of each partition refs lays out
 * (g16_fc_post_plan: partitions × the layout's circuit sectors) and submits one
 * engine job of all partitions.  prio < 0: the kind's default priority.
 * Out: *job (g16_fc_post_job_free after the job has ended and been awaited).
 * Returns as g16_fc_post_witness and g16_engine_submit. */
g16_status g16_fc_post_submit(g16_fc_post_job **job, g16_engine *e, g16_key *key, const g16_fc_post_config *cfg,
                              const g16_fc_sector_ref *refs, unsigned partitions, int prio);

/* Frees the witnesses and records (not the engine's job: await or cancel it first).  NULL ok. */
void g16_fc_post_job_free(g16_fc_post_job *job);

#endif
