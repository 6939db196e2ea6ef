/* The engine's clock, the buffer tracker (atomic counters with their peaks, and
 * the names used in stats, logs and the trace) and the budget's charge counter. */
#include <inttypes.h>
#include <stdio.h>
#include <time.h>

#include "engine/tracker.h"

double g16_engine_mono(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

double g16_engine_now(const g16_engine *e)
{
    return g16_engine_mono() - e->t0;
}

void g16_budget_charge(g16_engine *e, int64_t bytes)
{
    g16_tracker_add(&e->tr, G16_CTR_RESERVED_BYTES, bytes);
}

static const char *const ctr_names[G16_CTR_COUNT] = {
    "synth",       "waiting",     "device",       "final",      "abc_bytes",      "assign_bytes",
    "aux_bytes",   "pinned_bytes", "device_bytes", "key_bytes",  "circuit_bytes",  "witness_bytes",
    "reserved_bytes", "external_bytes",
};

const char *g16_counter_name(g16_counter c)
{
    return (unsigned)c < G16_CTR_COUNT ? ctr_names[c] : "?";
}

void g16_tracker_add(g16_tracker *t, g16_counter c, int64_t delta)
{
    int64_t v = atomic_fetch_add(&t->cur[c], delta) + delta;
    int64_t pk = atomic_load(&t->peak[c]);
    while (v > pk && !atomic_compare_exchange_weak(&t->peak[c], &pk, v)) {
    }
}

int64_t g16_tracker_get(const g16_tracker *t, g16_counter c)
{
    return atomic_load(&((g16_tracker *)t)->cur[c]);
}

void g16_tracker_log(const g16_tracker *t, const char *what, uint64_t job, uint32_t part)
{
    if (!t->debug) return;
    char line[512];
    int n = snprintf(line, sizeof line, "engine: job %" PRIu64 " part %u %s:", job, part, what);
    for (int c = 0; c < G16_CTR_COUNT && n > 0 && (size_t)n < sizeof line; c++)
        n += snprintf(line + n, sizeof line - (size_t)n, " %s=%" PRId64, ctr_names[c],
                      g16_tracker_get(t, (g16_counter)c));
    fprintf(stderr, "%s\n", line);
}
