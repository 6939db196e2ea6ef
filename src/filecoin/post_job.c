/* PoSt jobs on the engine (post_job.h). */
#include "filecoin/post_job.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/error.h"

g16_priority g16_fc_post_priority(g16_fc_post_kind kind)
{
    return kind == G16_FC_WINNING ? G16_PRIO_CRITICAL : G16_PRIO_HIGH;
}

void g16_fc_post_job_free(g16_fc_post_job *job)
{
    if (!job) return;
    for (size_t i = 0; i < job->n_owned; i++) g16_fc_vproof_free(&job->owned[i]);
    free(job->owned);
    free(job->refs);
    free(job->fill_s);
    free(job->parts);
    free(job);
}

void g16_fc_post_job_own(g16_fc_post_job *job, g16_fc_vproof *v, size_t n)
{
    job->owned = v;
    job->n_owned = n;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The engine's producer: partition `index`'s witness into its z. */
static g16_status fill(void *user, size_t index, struct g16_fr *z, uint64_t n)
{
    g16_fc_post_job *job = user;
    double t = now_s();
    g16_status st = g16_fc_post_witness_into(z, n, NULL, &job->cfg, &job->refs[index * job->lay.circuit_sectors],
                                             job->lay.circuit_sectors);
    job->fill_s[index] = now_s() - t; /* one writer a partition */
    return st;
}

double g16_fc_post_job_witness_s(const g16_fc_post_job *job)
{
    double s = 0;
    for (unsigned p = 0; p < job->partitions; p++) s += job->fill_s[p];
    return s;
}

g16_status g16_fc_post_job_inputs(const g16_fc_post_job *job, unsigned part, uint8_t *in)
{
    if (part >= job->partitions) return g16_fail(G16_ERR_ARG, "post job: no partition %u", part);
    const g16_fc_layout *lay = &job->lay;
    const g16_fc_shape *sh = &job->cfg.shape;
    unsigned arity[3] = {sh->base_arity, sh->sub_arity, sh->top_arity};
    unsigned levels[3] = {sh->base_levels, sh->sub_arity ? 1u : 0u, sh->top_arity ? 1u : 0u};
    for (unsigned j = 0; j < lay->circuit_sectors; j++) {
        const g16_fc_sector_ref *r = &job->refs[(size_t)part * lay->circuit_sectors + j];
        const g16_fc_vproof *v = r->v;
        if (!v || r->sector >= v->n_sectors || r->first + lay->challenges > v->sectors[r->sector].n_incl)
            return g16_fail(G16_ERR_ARG, "post job: partition %u, circuit sector %u: no such proof", part, j);
        g16_fr_to_be(in, &v->comm_r);
        in += 32;
        for (unsigned c = 0; c < lay->challenges; c++) {
            uint64_t i = v->sectors[r->sector].incl0 + r->first + c;
            if (i >= v->n_incl) return g16_fail(G16_ERR_ARG, "post job: inclusion proof %llu", (unsigned long long)i);
            const g16_fc_inclusion *inc = &v->incl[i];
            /* the index bits as por() allocates and packs them: level by level, low bits first */
            uint64_t k = inc->level0, idx = 0, shift = 0;
            for (int part_ = 0; part_ < 3; part_++)
                for (unsigned l = 0; l < levels[part_]; l++, k++) {
                    unsigned nbits = arity[part_] == 2 ? 1 : arity[part_] == 4 ? 2 : 3;
                    if (k >= v->n_levels || v->levels[k].arity != arity[part_] || shift + nbits > 64)
                        return g16_fail(G16_ERR_ARG, "post job: a path not of the circuit's shape");
                    idx |= (uint64_t)v->levels[k].index << shift;
                    shift += nbits;
                }
            g16_fr f;
            g16_fr_from_u64(&f, idx);
            g16_fr_to_be(in, &f);
            in += 32;
        }
    }
    return G16_OK;
}

g16_status g16_fc_post_submit(g16_fc_post_job **out, g16_engine *e, g16_key *key, const g16_fc_post_config *cfg,
                              const g16_fc_sector_ref *refs, unsigned parts, int prio)
{
    *out = NULL;
    if (prio > (int)G16_PRIO_LOW) return g16_fail(G16_ERR_ARG, "post job: priority %d", prio);
    if (parts == 0) return g16_fail(G16_ERR_ARG, "post job: no partition");
    g16_fc_post_job *job = calloc(1, sizeof *job);
    if (!job) return g16_fail(G16_ERR_NOMEM, "post job");
    g16_status st = g16_fc_layout_for(&job->lay, cfg);
    size_t n_refs = (size_t)parts * job->lay.circuit_sectors;
    if (st == G16_OK) {
        job->cfg = *cfg;
        job->partitions = parts;
        job->priority = prio < 0 ? g16_fc_post_priority(cfg->kind) : (g16_priority)prio;
        job->refs = malloc(n_refs * sizeof *job->refs);
        job->parts = calloc(parts, sizeof *job->parts);
        job->fill_s = calloc(parts, sizeof *job->fill_s);
        if (!job->refs || !job->parts || !job->fill_s) st = g16_fail(G16_ERR_NOMEM, "post job: %u partitions", parts);
    }
    if (st == G16_OK) st = g16_fc_post_circuit_cached(&job->circuit, cfg);
    if (st == G16_OK) {
        memcpy(job->refs, refs, n_refs * sizeof *refs);
        for (unsigned p = 0; p < parts; p++)
            job->parts[p] = (g16_partition){.circuit = job->circuit, .witness_fill = fill, .witness_user = job};
        st = g16_engine_submit(e, &job->id, key, job->parts, parts, job->priority);
    }
    if (st != G16_OK) {
        g16_fc_post_job_free(job);
        return st;
    }
    *out = job;
    return G16_OK;
}
