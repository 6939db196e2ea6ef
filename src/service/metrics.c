/* GET /metrics: the Prometheus text exposition format (version 0.0.4), names after
 * Prometheus's conventions (base units, _total for counters, _bytes, _seconds). */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "service/service.h"

const double svc_hist_bounds[SVC_HIST_BUCKETS] = {0.005, 0.01, 0.025, 0.05, 0.1, 0.25,
                                                  0.5,   1,    2.5,   5,    10,  30};

void svc_hist_add(svc_hist *h, double v)
{
    h->count++;
    h->sum += v;
    for (int i = 0; i < SVC_HIST_BUCKETS; i++)
        if (v <= svc_hist_bounds[i]) h->bucket[i]++;
}

typedef struct buf {
    char *p;
    size_t len, cap;
    int oom;
} buf;

static void put(buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(buf *b, const char *fmt, ...)
{
    if (b->oom) return;
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        int n = vsnprintf(b->p + b->len, b->cap - b->len, fmt, ap);
        va_end(ap);
        if (n < 0) {
            b->oom = 1;
            return;
        }
        if ((size_t)n < b->cap - b->len) {
            b->len += (size_t)n;
            return;
        }
        size_t cap = b->cap * 2 + (size_t)n;
        char *p = realloc(b->p, cap);
        if (!p) {
            b->oom = 1;
            return;
        }
        b->p = p;
        b->cap = cap;
    }
}

static void head(buf *b, const char *name, const char *type, const char *help)
{
    put(b, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

static void hist(buf *b, const char *name, const char *help, const svc_hist *h)
{
    head(b, name, "histogram", help);
    for (int i = 0; i < SVC_HIST_BUCKETS; i++)
        put(b, "%s_bucket{le=\"%g\"} %llu\n", name, svc_hist_bounds[i], (unsigned long long)h->bucket[i]);
    put(b, "%s_bucket{le=\"+Inf\"} %llu\n%s_sum %.6f\n%s_count %llu\n", name,
        (unsigned long long)h->count, name, h->sum, name, (unsigned long long)h->count);
}

char *svc_metrics_text(g16_service *s, size_t *len)
{
    g16_engine_stats st;
    g16_engine_stats_get(s->engine, &st);
    buf b = {.cap = 8192};
    b.p = malloc(b.cap);
    if (!b.p) return NULL;
    b.p[0] = 0;
    pthread_mutex_lock(&s->mu);
    svc_metrics m = s->m;
    head(&b, "g16_jobs_submitted_total", "counter", "Jobs accepted (202).");
    put(&b, "g16_jobs_submitted_total %llu\n", (unsigned long long)m.submitted);
    head(&b, "g16_jobs_rejected_total", "counter", "Job submissions refused (4xx/5xx).");
    put(&b, "g16_jobs_rejected_total %llu\n", (unsigned long long)m.rejected);
    head(&b, "g16_jobs_recovered_total", "counter", "Jobs found running in the store at start and run again.");
    put(&b, "g16_jobs_recovered_total %llu\n", (unsigned long long)m.recovered);
    head(&b, "g16_jobs_finished_total", "counter", "Jobs that ended, by outcome.");
    put(&b, "g16_jobs_finished_total{outcome=\"done\"} %llu\n", (unsigned long long)m.finished[SVC_DONE]);
    put(&b, "g16_jobs_finished_total{outcome=\"failed\"} %llu\n", (unsigned long long)m.finished[SVC_FAILED]);
    put(&b, "g16_jobs_finished_total{outcome=\"cancelled\"} %llu\n",
        (unsigned long long)m.finished[SVC_CANCELLED]);
    head(&b, "g16_queue_depth", "gauge", "Jobs queued and not yet running, by priority.");
    for (int p = 0; p < 4; p++)
        put(&b, "g16_queue_depth{priority=\"%s\"} %u\n", svc_prio_name((g16_priority)p), s->n_queued[p]);
    unsigned queued = s->n_queued[0] + s->n_queued[1] + s->n_queued[2] + s->n_queued[3];
    head(&b, "g16_jobs_running", "gauge", "Jobs running (handed to the engine or being loaded).");
    put(&b, "g16_jobs_running %zu\n", s->n_active - queued);
    unsigned kc[3] = {0};
    uint64_t kb[3] = {0};
    for (size_t i = 0; i < s->n_keys; i++) {
        kc[s->keys[i].tier]++;
        kb[s->keys[i].tier] += s->keys[i].bytes;
    }
    head(&b, "g16_keys", "gauge", "Configured proving keys by tier.");
    for (int t = 0; t < 3; t++) put(&b, "g16_keys{tier=\"%s\"} %u\n", svc_tier_name((svc_tier)t), kc[t]);
    head(&b, "g16_key_bytes", "gauge", "Host bytes of loaded proving keys by tier.");
    for (int t = 0; t < 3; t++)
        put(&b, "g16_key_bytes{tier=\"%s\"} %llu\n", svc_tier_name((svc_tier)t), (unsigned long long)kb[t]);
    head(&b, "g16_key_loads_total", "counter", "Proving keys loaded.");
    put(&b, "g16_key_loads_total %llu\n", (unsigned long long)m.key_loads);
    head(&b, "g16_key_evictions_total", "counter", "Proving keys sent back to cold.");
    put(&b, "g16_key_evictions_total %llu\n", (unsigned long long)m.key_evictions);
    head(&b, "g16_key_load_failures_total", "counter", "Proving key loads that failed.");
    put(&b, "g16_key_load_failures_total %llu\n", (unsigned long long)m.key_load_failures);
    if (s->pg) {
        static const char *const names[] = {"claimed", "stored", "fenced", "failed", "lost", "requeued"};
        const uint64_t v[] = {s->cl.claimed, s->cl.done, s->cl.fenced, s->cl.failed, s->cl.lost, s->cl.requeued};
        head(&b, "g16_cluster_partitions_total", "counter",
             "This node's partitions: claimed, results stored, results refused by the lease fence, failed, "
             "leases lost while in work; and partitions whose expired lease this node requeued.");
        for (int i = 0; i < 6; i++)
            put(&b, "g16_cluster_partitions_total{event=\"%s\"} %llu\n", names[i], (unsigned long long)v[i]);
        head(&b, "g16_cluster_leases_held", "gauge", "Partitions this node holds under a lease now.");
        put(&b, "g16_cluster_leases_held %u\n", s->cl.n_tasks);
        head(&b, "g16_cluster_lease_renewals_total", "counter", "Heartbeats that renewed this node's leases.");
        put(&b, "g16_cluster_lease_renewals_total %llu\n", (unsigned long long)s->cl.renewals);
    }
    head(&b, "g16_http_responses_total", "counter", "HTTP responses by status class.");
    for (int c = 1; c <= 5; c++)
        put(&b, "g16_http_responses_total{code=\"%dxx\"} %llu\n", c, (unsigned long long)m.http[c]);
    pthread_mutex_unlock(&s->mu);

    hist(&b, "g16_job_queued_seconds", "Seconds from submit to the hand-off to the engine.", &m.queued_s);
    hist(&b, "g16_job_seconds", "Seconds from submit to the end of a job.", &m.run_s);
    hist(&b, "g16_http_request_seconds", "Seconds to handle one HTTP request (long polls included).",
         &m.api_s);
    head(&b, "g16_partition_stage_seconds", "histogram",
         "Seconds one partition spent in an engine stage (queued, synthesis, waiting, device, finalize).");
    for (int k = 0; k < G16_PART_ACTIVE_STAGES; k++) {
        const char *sn = g16_part_stage_name((g16_part_stage)k);
        const svc_hist *h = &m.stage_s[k];
        for (int i = 0; i < SVC_HIST_BUCKETS; i++)
            put(&b, "g16_partition_stage_seconds_bucket{stage=\"%s\",le=\"%g\"} %llu\n", sn,
                svc_hist_bounds[i], (unsigned long long)h->bucket[i]);
        put(&b, "g16_partition_stage_seconds_bucket{stage=\"%s\",le=\"+Inf\"} %llu\n", sn,
            (unsigned long long)h->count);
        put(&b, "g16_partition_stage_seconds_sum{stage=\"%s\"} %.6f\n", sn, h->sum);
        put(&b, "g16_partition_stage_seconds_count{stage=\"%s\"} %llu\n", sn, (unsigned long long)h->count);
    }
    head(&b, "g16_stage_seconds_total", "counter", "Seconds spent in each engine stage, summed over partitions.");
    put(&b, "g16_stage_seconds_total{stage=\"synthesis\"} %.6f\n", st.synth_s);
    put(&b, "g16_stage_seconds_total{stage=\"device\"} %.6f\n", st.busy_s);
    put(&b, "g16_stage_seconds_total{stage=\"finalize\"} %.6f\n", st.final_s);
    put(&b, "g16_stage_seconds_total{stage=\"verify\"} %.6f\n", st.verify_s);
    head(&b, "g16_device_busy_seconds_total", "counter", "Seconds the devices' locks were held, summed over devices.");
    put(&b, "g16_device_busy_seconds_total %.6f\n", st.busy_s);
    head(&b, "g16_devices", "gauge", "Devices the engine proves on.");
    put(&b, "g16_devices %u\n", st.devices);
    /* per device: a device far below the others is starved or slow; a failed one is out */
    head(&b, "g16_dev_busy_seconds_total", "counter", "Seconds each device's lock was held.");
    for (unsigned d = 0; d < st.devices; d++)
        put(&b, "g16_dev_busy_seconds_total{device=\"%u\",gpu=\"%d\"} %.6f\n", d, st.dev[d].gpu, st.dev[d].busy_s);
    head(&b, "g16_dev_stages_total", "counter", "Device stages each device ended with a pending proof.");
    for (unsigned d = 0; d < st.devices; d++)
        put(&b, "g16_dev_stages_total{device=\"%u\"} %llu\n", d, (unsigned long long)st.dev[d].stages);
    head(&b, "g16_dev_errors_total", "counter", "Device stages that failed on each device.");
    for (unsigned d = 0; d < st.devices; d++)
        put(&b, "g16_dev_errors_total{device=\"%u\"} %llu\n", d, (unsigned long long)st.dev[d].errors);
    head(&b, "g16_dev_failed", "gauge", "1 for a device taken out after a backend error.");
    for (unsigned d = 0; d < st.devices; d++)
        put(&b, "g16_dev_failed{device=\"%u\"} %d\n", d, st.dev[d].failed);
    head(&b, "g16_reroutes_total", "counter", "Partitions moved off a failed device.");
    put(&b, "g16_reroutes_total %llu\n", (unsigned long long)st.reroutes);
    head(&b, "g16_proofs_total", "counter", "Partition proofs made.");
    put(&b, "g16_proofs_total %llu\n", (unsigned long long)st.proofs);
    head(&b, "g16_selfcheck_failures_total", "counter", "Proofs that failed the self-check and were redone on the CPU.");
    put(&b, "g16_selfcheck_failures_total %llu\n", (unsigned long long)st.retries);
    head(&b, "g16_budget_bytes", "gauge", "The engine's host memory budget.");
    put(&b, "g16_budget_bytes %llu\n", (unsigned long long)st.budget_bytes);
    head(&b, "g16_budget_fixed_bytes", "gauge", "Host memory of the device backends, taken off the budget.");
    put(&b, "g16_budget_fixed_bytes %llu\n", (unsigned long long)st.fixed_bytes);
    head(&b, "g16_engine_counter", "gauge", "The engine's buffer tracker counters, now.");
    for (int c = 0; c < G16_CTR_COUNT; c++)
        put(&b, "g16_engine_counter{name=\"%s\"} %lld\n", g16_counter_name((g16_counter)c), (long long)st.cur[c]);
    head(&b, "g16_engine_counter_peak", "gauge", "The engine's buffer tracker counters, peak.");
    for (int c = 0; c < G16_CTR_COUNT; c++)
        put(&b, "g16_engine_counter_peak{name=\"%s\"} %lld\n", g16_counter_name((g16_counter)c),
            (long long)st.peak[c]);
    if (b.oom) {
        free(b.p);
        return NULL;
    }
    *len = b.len;
    return b.p;
}
