/* PoSt jobs on the engine (post_job.h). */
#include "filecoin/post_job.h"

#include <stdlib.h>
#include <time.h>

#include "common/error.h"

g16_priority g16_fc_post_priority(g16_fc_post_kind kind)
{
    return kind == G16_FC_WINNING ? G16_PRIO_CRITICAL : G16_PRIO_HIGH;
}

void g16_fc_post_job_free(g16_fc_post_job *job)
{
    if (!job) return;
    for (unsigned p = 0; job->wits && p < job->partitions; p++) g16_witness_destroy(job->wits[p]);
    free(job->wits);
    free(job->parts);
    free(job);
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

g16_status g16_fc_post_submit(g16_fc_post_job **out, g16_engine *e, g16_key *key, const g16_fc_post_config *cfg,
                              const g16_fc_sector_ref *refs, unsigned parts, int prio)
{
    *out = NULL;
    if (prio > (int)G16_PRIO_LOW) return g16_fail(G16_ERR_ARG, "post job: priority %d", prio);
    if (parts == 0) return g16_fail(G16_ERR_ARG, "post job: no partition");
    g16_fc_layout lay;
    g16_status st = g16_fc_layout_for(&lay, cfg);
    g16_fc_post_job *job = calloc(1, sizeof *job);
    if (st == G16_OK && !job) st = g16_fail(G16_ERR_NOMEM, "post job");
    if (st == G16_OK) {
        job->partitions = parts;
        job->priority = prio < 0 ? g16_fc_post_priority(cfg->kind) : (g16_priority)prio;
        job->wits = calloc(parts, sizeof *job->wits);
        job->parts = calloc(parts, sizeof *job->parts);
        if (!job->wits || !job->parts) st = g16_fail(G16_ERR_NOMEM, "post job: %u partitions", parts);
    }
    if (st == G16_OK) st = g16_fc_post_circuit_cached(&job->circuit, cfg);
    double t = now_s();
    for (unsigned p = 0; st == G16_OK && p < parts; p++) {
        st = g16_fc_post_witness(&job->wits[p], cfg, &refs[(size_t)p * lay.circuit_sectors], lay.circuit_sectors);
        if (st == G16_OK) job->parts[p] = (g16_partition){.circuit = job->circuit, .witness = job->wits[p]};
    }
    if (job) job->witness_s = now_s() - t;
    if (st == G16_OK) st = g16_engine_submit(e, &job->id, key, job->parts, parts, job->priority);
    if (st != G16_OK) {
        g16_fc_post_job_free(job);
        return st;
    }
    *out = job;
    return G16_OK;
}
