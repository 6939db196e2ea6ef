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

/* A submitted PoSt: what must outlive the engine's job. */
typedef struct g16_fc_post_job {
    uint64_t id;       /* the engine's job id */
    g16_priority priority;
    unsigned partitions;
    const g16_circuit *circuit; /* the cached matrices (not owned) */
    g16_fc_post_config cfg;
    g16_fc_layout lay;
    g16_fc_sector_ref *refs;    /* a copy of the layout (partitions × circuit sectors) */
    g16_fc_vproof *owned;       /* vanilla proofs handed over (g16_fc_post_job_own), or NULL */
    size_t n_owned;
    g16_partition *parts;
    double *fill_s;             /* seconds each partition's witness took (written by the engine) */
} g16_fc_post_job;

/* Takes the cached matrices and submits one engine job of all partitions refs lays out
 * (g16_fc_post_plan: partitions × the layout's circuit sectors).  A partition's witness
 * is written by the engine when the partition is admitted to synthesis, straight into
 * its buffer (g16_partition.witness_fill), so no partition holds memory before its
 * turn and the witness of partition k + 1 is made while partition k proves.  The
 * vanilla proofs refs points into must stay valid until the job has ended (or be handed
 * over with g16_fc_post_job_own).  prio < 0: the kind's default priority.
 * Out: *job (g16_fc_post_job_free after the job has ended and been awaited).
 * Returns as g16_engine_submit; a vanilla proof of the wrong shape fails the engine's
 * job at synthesis with g16_fc_post_witness's message. */
g16_status g16_fc_post_submit(g16_fc_post_job **job, g16_engine *e, g16_key *key, const g16_fc_post_config *cfg,
                              const g16_fc_sector_ref *refs, unsigned partitions, int prio);

/* The job takes ownership of v[0 .. n − 1] (freed with it). */
void g16_fc_post_job_own(g16_fc_post_job *job, g16_fc_vproof *v, size_t n);

/* Out: in: partition part's public inputs (the circuit's n_pub, 32 bytes big-endian
 * each), from the vanilla proofs: per circuit sector comm_r, then each challenge's
 * leaf index (the path's index bits packed, as the circuit packs them).  Returns
 * G16_ERR_ARG for a partition the job does not have or a proof not of the circuit's
 * shape. */
g16_status g16_fc_post_job_inputs(const g16_fc_post_job *job, unsigned part, uint8_t *in);

/* Seconds the engine spent writing the job's witnesses so far (summed over partitions). */
double g16_fc_post_job_witness_s(const g16_fc_post_job *job);

/* Frees the records and any owned vanilla proofs (not the engine's job: await or cancel it
 * first).  NULL ok. */
void g16_fc_post_job_free(g16_fc_post_job *job);

#endif
