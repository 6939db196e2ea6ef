/* Timeline of the engine as Chrome trace-event JSON (opens in Perfetto and
 * chrome://tracing): one complete event ("ph":"X") per partition stage span on the
 * lane of the worker that ran it, queue and wait spans on one lane per partition,
 * counter tracks ("ph":"C") for the reserved, a/b/c and waiting counters, and the
 * summary (s/proof, device busy, peaks) under "otherData". */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "common/fault.h"
#include "engine/trace.h"

void g16_trace_span(g16_engine *e, const char *name, double t_begin, double t_end, unsigned lane,
                    const g16_part *p)
{
    g16_trace_span_dev(e, name, t_begin, t_end, lane, p, -1);
}

void g16_trace_span_dev(g16_engine *e, const char *name, double t_begin, double t_end, unsigned lane,
                        const g16_part *p, int dev)
{
    if (!e->cfg.trace_path) return;
    g16_trace *t = &e->trace;
    pthread_mutex_lock(&t->mu);
    if (t->n == t->cap) {
        size_t nc = t->cap ? 2 * t->cap : 256;
        g16_trace_ev *ne = g16_realloc(t->ev, nc * sizeof *ne);
        if (!ne) goto out; /* a lost span is better than a failed proof */
        t->ev = ne;
        t->cap = nc;
    }
    t->ev[t->n++] = (g16_trace_ev){name, t_begin, t_end - t_begin, lane, p ? p->job->id : 0,
                                   p ? p->index : 0, p ? p->attempt : 0, dev};
out:
    pthread_mutex_unlock(&t->mu);
}

void g16_trace_counters(g16_engine *e)
{
    if (!e->cfg.trace_path) return;
    g16_trace *t = &e->trace;
    pthread_mutex_lock(&t->mu);
    if (t->n_ctr == t->cap_ctr) {
        size_t nc = t->cap_ctr ? 2 * t->cap_ctr : 256;
        void *nb = g16_realloc(t->ctr, nc * sizeof *t->ctr);
        if (!nb) goto out;
        t->ctr = nb;
        t->cap_ctr = nc;
    }
    t->ctr[t->n_ctr].ts = g16_engine_now(e);
    t->ctr[t->n_ctr].reserved = g16_tracker_get(&e->tr, G16_CTR_RESERVED_BYTES);
    t->ctr[t->n_ctr].abc = g16_tracker_get(&e->tr, G16_CTR_ABC_BYTES);
    t->ctr[t->n_ctr].waiting = g16_tracker_get(&e->tr, G16_CTR_WAITING);
    t->n_ctr++;
out:
    pthread_mutex_unlock(&t->mu);
}

static void lane_name(FILE *f, int *first, unsigned pid, unsigned tid, const char *name)
{
    fprintf(f, "%s\n{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":%u,\"tid\":%u,\"args\":{\"name\":\"%s\"}}",
            *first ? "" : ",", pid, tid, name);
    *first = 0;
}

g16_status g16_trace_write(g16_engine *e, const char *path, const g16_engine_stats *st)
{
    FILE *f = fopen(path, "w");
    if (!f) return g16_fail(G16_ERR_IO, "engine: cannot write the trace %s", path);
    g16_trace *t = &e->trace;
    pthread_mutex_lock(&t->mu);
    int first = 1;
    fputs("{\"displayTimeUnit\":\"ms\",\"traceEvents\":[", f);
    fprintf(f, "\n{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":1,\"args\":{\"name\":\"workers\"}}");
    fprintf(f, ",\n{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":2,\"args\":{\"name\":\"partitions\"}}");
    first = 0;
    char nm[64];
    for (unsigned i = 0; i < e->n_workers; i++) {
        const g16_worker *w = &e->workers[i];
        if (w->kind == 0) snprintf(nm, sizeof nm, "synthesis %u", w->index);
        else if (w->kind == 1) snprintf(nm, sizeof nm, "device %u worker %u", w->dev->index, w->index);
        else snprintf(nm, sizeof nm, "finalizer %u", w->index);
        lane_name(f, &first, 1, w->lane, nm);
    }
    for (size_t i = 0; i < t->n; i++) {
        const g16_trace_ev *v = &t->ev[i];
        /* queue/wait spans (lane 0) go on a lane per partition: they overlap freely */
        unsigned pid = v->lane ? 1 : 2;
        uint64_t tid = v->lane ? v->lane : v->job * 1000 + v->part;
        char dev[32] = "";
        if (v->dev >= 0) snprintf(dev, sizeof dev, ",\"device\":%d", v->dev);
        fprintf(f,
                ",\n{\"ph\":\"X\",\"name\":\"%s\",\"cat\":\"partition\",\"pid\":%u,\"tid\":%" PRIu64
                ",\"ts\":%.3f,\"dur\":%.3f,\"args\":{\"job\":%" PRIu64 ",\"part\":%u,\"attempt\":%u%s}}",
                v->name, pid, tid, v->ts * 1e6, v->dur * 1e6, v->job, v->part, v->attempt, dev);
    }
    for (size_t i = 0; i < t->n_ctr; i++)
        fprintf(f,
                ",\n{\"ph\":\"C\",\"name\":\"memory\",\"pid\":1,\"ts\":%.3f,\"args\":{\"reserved_MiB\":%.3f,"
                "\"abc_MiB\":%.3f}},\n{\"ph\":\"C\",\"name\":\"waiting partitions\",\"pid\":1,\"ts\":%.3f,"
                "\"args\":{\"partitions\":%" PRId64 "}}",
                t->ctr[i].ts * 1e6, t->ctr[i].reserved / 1048576.0, t->ctr[i].abc / 1048576.0,
                t->ctr[i].ts * 1e6, t->ctr[i].waiting);
    pthread_mutex_unlock(&t->mu);
    fprintf(f, "\n],\n\"otherData\":{\"s_per_proof\":%.6f,\"device_busy\":%.4f,\"device_busy_steady\":%.4f,\"proofs\":%" PRIu64
               ",\"retries\":%" PRIu64 ",\"active_s\":%.6f,\"budget_bytes\":%" PRIu64
               ",\"fixed_bytes\":%" PRIu64 ",\"pw\":%u,\"gw\":%u,\"devices\":%u",
            st->s_per_proof, st->device_busy, st->device_busy_steady, st->proofs, st->retries, st->active_s, st->budget_bytes,
            st->fixed_bytes, st->pw, st->gw, st->devices);
    for (int c = 0; c < G16_CTR_COUNT; c++)
        fprintf(f, ",\"peak_%s\":%" PRId64, g16_counter_name((g16_counter)c), st->peak[c]);
    fprintf(f, ",\"reroutes\":%" PRIu64 ",\"device_stats\":[", st->reroutes);
    for (unsigned d = 0; d < st->devices && d < G16_ENGINE_MAX_DEVICES; d++)
        fprintf(f, "%s{\"device\":%u,\"gpu\":%d,\"busy\":%.4f,\"busy_s\":%.6f,\"stages\":%" PRIu64
                   ",\"errors\":%" PRIu64 ",\"failed\":%s}",
                d ? "," : "", d, st->dev[d].gpu, st->dev[d].busy, st->dev[d].busy_s, st->dev[d].stages,
                st->dev[d].errors, st->dev[d].failed ? "true" : "false");
    fputs("]}}\n", f);
    int bad = ferror(f);
    if (fclose(f) || bad) return g16_fail(G16_ERR_IO, "engine: error writing the trace %s", path);
    return G16_OK;
}

void g16_trace_free(g16_trace *t)
{
    free(t->ev);
    free(t->ctr);
    t->ev = NULL;
    t->ctr = NULL;
    t->n = t->cap = t->n_ctr = t->cap_ctr = 0;
}
