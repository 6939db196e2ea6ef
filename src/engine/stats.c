/* The engine's statistics: counters, stage totals, device busy shares, and the
 * one-screen summary. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "engine/bufpool.h"

void g16_engine_stats_get(g16_engine *e, g16_engine_stats *st)
{
    memset(st, 0, sizeof *st);
    for (int c = 0; c < G16_CTR_COUNT; c++) {
        st->cur[c] = atomic_load(&e->tr.cur[c]);
        st->peak[c] = atomic_load(&e->tr.peak[c]);
    }
    pthread_mutex_lock(&e->mu);
    st->budget_bytes = e->budget + e->fixed;
    st->fixed_bytes = e->fixed;
    st->jobs_done = e->jobs_done;
    st->jobs_failed = e->jobs_failed;
    st->jobs_cancelled = e->jobs_cancelled;
    st->proofs = e->proofs;
    st->retries = e->retries;
    st->active_s = e->active_s + (e->active_since >= 0 ? g16_engine_now(e) - e->active_since : 0);
    double span = 0;
    for (unsigned d = 0; d < e->n_devs; d++) {
        const g16_device *dv = &e->devs[d];
        st->dev[d].gpu = dv->gpu;
        st->dev[d].failed = dv->failed;
        st->dev[d].busy_s = dv->busy_s;
        st->dev[d].stages = dv->stages;
        st->dev[d].errors = dv->errors;
        st->devices_failed += dv->failed != 0;
        st->busy_s += e->devs[d].busy_s;
        for (int k = 0; k < 6; k++) st->dev_part_s[k] += e->devs[d].part_s[k];
        st->dev_proofs += e->devs[d].part_n;
        if (e->devs[d].first_start >= 0) span += e->devs[d].last_end - e->devs[d].first_start;
    }
    st->device_busy_steady = span > 0 ? st->busy_s / span : 0;
    st->synth_s = e->synth_s;
    st->final_s = e->final_s;
    st->verify_s = e->verify_s;
    st->devices = e->n_devs;
    st->pw = e->cfg.pw;
    st->gw = e->cfg.gw;
    st->reroutes = e->reroutes;
    st->early_starts = e->early_starts;
    pthread_mutex_unlock(&e->mu);
    for (unsigned d = 0; d < st->devices; d++)
        st->dev[d].busy = st->active_s > 0 ? st->dev[d].busy_s / st->active_s : 0;
    st->s_per_proof = st->proofs ? st->active_s / (double)st->proofs : 0;
    st->device_busy = st->active_s > 0 ? st->busy_s / (st->active_s * st->devices) : 0;
}

void g16_engine_stats_print(const g16_engine_stats *st, void *file)
{
    FILE *f = file ? file : stdout;
    fprintf(f, "engine: %" PRIu64 " proofs in %.3f s: %.3f s/proof, device busy %.1f%% (steady %.1f%%; "
               "%u device%s, pw %u, gw %u)\n",
            st->proofs, st->active_s, st->s_per_proof, 100 * st->device_busy,
            100 * st->device_busy_steady, st->devices, st->devices == 1 ? "" : "s", st->pw, st->gw);
    fprintf(f, "engine: jobs done %" PRIu64 ", failed %" PRIu64 ", cancelled %" PRIu64 ", self-check retries %" PRIu64
               "; budget %.1f MiB (device backends' own %.1f MiB)\n",
            st->jobs_done, st->jobs_failed, st->jobs_cancelled, st->retries, st->budget_bytes / 1048576.0,
            st->fixed_bytes / 1048576.0);
    if (st->devices > 1 || st->devices_failed) {
        /* How the work spread: a device far below the others is starved or slow. */
        fprintf(f, "engine: per device:");
        for (unsigned d = 0; d < st->devices; d++) {
            char gpu[16] = "cpu";
            if (st->dev[d].gpu >= 0) snprintf(gpu, sizeof gpu, "gpu %d", st->dev[d].gpu);
            fprintf(f, "%s %u (%s) busy %.1f%%, %" PRIu64 " stages%s", d ? ";" : "", d, gpu,
                    100 * st->dev[d].busy, st->dev[d].stages, st->dev[d].failed ? ", FAILED" : "");
        }
        fprintf(f, "; %" PRIu64 " partition%s rerouted\n", st->reroutes, st->reroutes == 1 ? "" : "s");
    }
    if (st->dev_proofs && st->proofs) {
        /* Device time per returned proof (as bench pipeline's device_s, CPU retries
         * included) and what prove_start's parts took per device stage; the rest of a
         * stage is host work. */
        const double n = (double)st->dev_proofs, *p = st->dev_part_s;
        fprintf(f, "engine: device stage %.3f s/proof: H step %.3f, MSM H %.3f, L %.3f, A %.3f, B1 %.3f, "
                   "B2 %.3f\n",
                st->busy_s / (double)st->proofs, p[0] / n, p[1] / n, p[2] / n, p[3] / n, p[4] / n,
                p[5] / n);
    }
    fprintf(f, "%-16s %14s %14s\n", "counter", "current", "peak");
    for (int c = 0; c < G16_CTR_COUNT; c++) {
        const char *n = g16_counter_name((g16_counter)c);
        if (c >= G16_CTR_ABC_BYTES)
            fprintf(f, "%-16s %12.2f M %12.2f M\n", n, st->cur[c] / 1048576.0, st->peak[c] / 1048576.0);
        else
            fprintf(f, "%-16s %14" PRId64 " %14" PRId64 "\n", n, st->cur[c], st->peak[c]);
    }
}

void g16_engine_trim(g16_engine *e)
{
    pthread_mutex_lock(&e->mu);
    g16_bufpool_evict(e, 0, 0, 0, 0);
    g16_bufpool_wait_freer(e);
    pthread_mutex_unlock(&e->mu);
}

