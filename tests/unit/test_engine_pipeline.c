/* The proving engine on the CPU: (a) the pile-up regression (many synthesis
 * workers, a slow device stage: memory stays inside the budget), (b) every counter
 * back to zero after success, after an error injected in each stage and after a
 * cancel at each stage, (c) a CRITICAL job overtakes a queue of NORMAL partitions,
 * (d) the self-check catches a wrong proof, retries it and reports it; plus submit
 * refusal, await timeout and fault isolation between jobs.  Every returned proof
 * is checked with g16_verify here, independently of the engine's self-check. */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "engine/engine.h"

#define LOG_N 8

static g16_circuit *circ;
static g16_witness *wit;
static g16_key *key;
static uint8_t inputs[32 * 8];
static uint32_t n_pub;
static const char *trace_path; /* make() passes it to the engine */

static void setup_circuit(void)
{
    g16_circuit_gen_args ga = {G16_PROFILE_POREP, LOG_N, 2, 7};
    CHECK(g16_circuit_generate(&circ, &wit, &ga) == G16_OK, "generate: %s", g16_last_error());
    CHECK(g16_setup(&key, circ, (const uint8_t *)"engine", 6) == G16_OK, "setup: %s", g16_last_error());
    n_pub = g16_witness_pub(wit);
    for (uint32_t i = 0; i < n_pub; i++) g16_witness_get(inputs + 32 * i, wit, 1 + i);
}

static int verify_all(const uint8_t *proofs, size_t k)
{
    int bad = 0;
    for (size_t i = 0; i < k; i++)
        bad += g16_verify(g16_key_vk(key), proofs + 192 * i, inputs, n_pub) != G16_OK;
    return bad;
}

static g16_engine *make(unsigned pw, unsigned gw, uint64_t budget, int verify)
{
    g16_engine_config cfg;
    g16_engine_config_default(&cfg);
    cfg.pw = pw;
    cfg.gw = gw;
    cfg.budget_bytes = budget;
    cfg.verify = verify;
    cfg.synth_threads = 1;
    cfg.device_threads = 2;
    cfg.trace_path = trace_path;
    g16_engine *e = NULL;
    CHECK(g16_engine_create(&e, &cfg) == G16_OK, "create: %s", g16_last_error());
    return e;
}

static uint64_t submit(g16_engine *e, size_t n, g16_priority prio)
{
    g16_partition parts[32];
    for (size_t i = 0; i < n; i++) parts[i] = (g16_partition){.circuit = circ, .witness = wit};
    uint64_t id = 0;
    g16_status st = g16_engine_submit(e, &id, key, parts, n, prio);
    CHECK(st == G16_OK && id > 0, "submit: %s", g16_last_error());
    return id;
}

/* Every tracker counter at zero once the pool's idle buffers are returned. */
static void check_zero(g16_engine *e, const char *when)
{
    g16_engine_trim(e);
    g16_engine_stats s;
    g16_engine_stats_get(e, &s);
    for (int c = 0; c < G16_CTR_COUNT; c++)
        CHECK(s.cur[c] == 0, "%s: counter %s is %lld", when, g16_counter_name((g16_counter)c),
              (long long)s.cur[c]);
}

/* ---------------------------------------------------------------- max_ahead */
static g16_engine *ahead_engine;
static atomic_int ahead_peak;
static void ahead_hook(void *user, g16_stage s, uint64_t job, uint32_t part)
{
    if (s != G16_STAGE_SYNTH) return;
    g16_engine_stats st;
    g16_engine_stats_get(ahead_engine, &st);
    int now = (int)(st.cur[G16_CTR_SYNTH] + st.cur[G16_CTR_WAITING]);
    int old = atomic_load(&ahead_peak);
    while (now > old && !atomic_compare_exchange_weak(&ahead_peak, &old, now)) {}
}

/* pw = 4 synthesis workers in front of a slow device, max_ahead = 2: never more
 * than 2 partitions in synthesis or waiting, and the cap is reached (the budget
 * would let all 8 through). */
static void test_max_ahead(void)
{
    g16_engine_config cfg;
    g16_engine_config_default(&cfg);
    cfg.pw = 4;
    cfg.budget_bytes = 1ull << 30;
    cfg.synth_threads = 1;
    cfg.device_threads = 2;
    cfg.max_ahead = 2;
    CHECK(g16_engine_create(&ahead_engine, &cfg) == G16_OK, "create: %s", g16_last_error());
    g16_engine_hooks h = {.fail_stage = -1, .on_stage = ahead_hook};
    h.delay_ms[G16_STAGE_DEVICE] = 20;
    g16_engine_set_hooks(ahead_engine, &h);
    atomic_store(&ahead_peak, 0);
    uint64_t id = submit(ahead_engine, 8, G16_PRIO_NORMAL);
    static uint8_t proofs[8 * 192];
    CHECK(g16_engine_await(ahead_engine, id, 120, proofs, sizeof proofs, NULL) == G16_OK &&
              verify_all(proofs, 8) == 0, "max_ahead job: %s", g16_last_error());
    CHECK(atomic_load(&ahead_peak) == 2, "partitions ahead of the device peaked at %d, cap 2",
          atomic_load(&ahead_peak));
    check_zero(ahead_engine, "after the max_ahead job");
    g16_engine_destroy(ahead_engine, 1);
}

/* The synthesis pools: pw ≤ 2 a pool each, pw ≥ 3 one shared pool (engine.c), unless
 * synth_threads or G16_ENGINE_SYNTH_POOL says otherwise; a job's proofs verify either way. */
static void test_synth_pools(void)
{
    const unsigned pws[] = {2, 3, 4};
    for (size_t i = 0; i < sizeof pws / sizeof pws[0]; i++) {
        for (int explicit_threads = 0; explicit_threads < 2; explicit_threads++) {
            g16_engine_config cfg;
            g16_engine_config_default(&cfg);
            cfg.pw = pws[i];
            cfg.budget_bytes = 1ull << 30;
            cfg.synth_threads = explicit_threads ? 2 : 0;
            g16_engine *e;
            if (g16_engine_create(&e, &cfg) != G16_OK) {
                CHECK(0, "create pw %u: %s", pws[i], g16_last_error());
                continue;
            }
            int shared = pws[i] >= 3 && !explicit_threads;
            CHECK((e->synth_pool != NULL) == shared, "pw %u, synth_threads %u: shared pool %d, expected %d",
                  pws[i], cfg.synth_threads, e->synth_pool != NULL, shared);
            unsigned same = 0;
            for (unsigned w = 1; w < pws[i]; w++) same += e->workers[w].pool == e->workers[0].pool;
            CHECK(same == (shared ? pws[i] - 1 : 0), "pw %u: %u workers on worker 0's pool", pws[i], same);
            uint64_t id = submit(e, 6, G16_PRIO_NORMAL);
            static uint8_t proofs[6 * 192];
            CHECK(g16_engine_await(e, id, 120, proofs, sizeof proofs, NULL) == G16_OK && verify_all(proofs, 6) == 0,
                  "pw %u job: %s", pws[i], g16_last_error());
            check_zero(e, "after the synthesis-pool job");
            g16_engine_destroy(e, 1);
        }
    }
}

/* ---------------------------------------------------------------- (a) */
static void test_pileup(void)
{
    g16_circuit_info ci;
    g16_circuit_get_info(&ci, circ);
    g16_key_info ki;
    g16_key_get_info(&ki, key);
    /* What any design must hold per partition between synthesis and the device:
     * a, b, c and the assignment.  The key is charged once. */
    uint64_t held = (3 * ci.rows + ci.n_vars) * 32;
    uint64_t key_bytes = (ki.n_h + ki.n_l + ki.n_a + ki.n_b_g1 + ki.n_ic) * 96 + ki.n_b_g2 * 192;
    /* Room for a few partitions: with pw = 12 and a device stage much slower than
     * synthesis, a design that frees its slot when synthesis ends piles up all 30
     * finished partitions in front of the device. */
    uint64_t budget = key_bytes + 8 * held;
    char path[] = "/tmp/g16_engine_trace_XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0, "temp file");
    close(fd);
    trace_path = path;
    g16_engine *e = make(12, 1, budget, 1);
    trace_path = NULL;
    g16_engine_hooks h = {.fail_stage = -1};
    h.delay_ms[G16_STAGE_DEVICE] = 25;
    g16_engine_set_hooks(e, &h);
    uint64_t ids[3];
    for (int j = 0; j < 3; j++) ids[j] = submit(e, 10, G16_PRIO_NORMAL);
    static uint8_t proofs[10 * 192];
    for (int j = 0; j < 3; j++) {
        g16_job_status st;
        g16_status s = g16_engine_await(e, ids[j], 120, proofs, sizeof proofs, &st);
        CHECK(s == G16_OK && st.state == G16_JOB_DONE, "pile-up job %d: %s", j, g16_last_error());
        CHECK(st.finished == 10 && st.retries == 0, "job %d: %u finished, %u retries", j, st.finished, st.retries);
        CHECK(verify_all(proofs, 10) == 0, "job %d: a returned proof does not verify", j);
    }
    g16_engine_stats s;
    g16_engine_stats_get(e, &s);
    CHECK(s.proofs == 30, "30 proofs, got %llu", (unsigned long long)s.proofs);
    CHECK(s.peak[G16_CTR_RESERVED_BYTES] <= (int64_t)budget, "peak reserved %lld > budget %llu",
          (long long)s.peak[G16_CTR_RESERVED_BYTES], (unsigned long long)budget);
    /* a, b, c and z alone bound how many partitions can be synthesized and unproved */
    int64_t max_parts = (int64_t)((budget - key_bytes) / held);
    CHECK(s.peak[G16_CTR_WAITING] <= max_parts && s.peak[G16_CTR_WAITING] >= 1,
          "peak waiting %lld (budget allows at most %lld)", (long long)s.peak[G16_CTR_WAITING],
          (long long)max_parts);
    CHECK(s.peak[G16_CTR_ABC_BYTES] <= (int64_t)budget, "peak abc bytes %lld", (long long)s.peak[G16_CTR_ABC_BYTES]);
    CHECK(s.peak[G16_CTR_SYNTH] + s.peak[G16_CTR_WAITING] <= 2 * max_parts,
          "synth %lld + waiting %lld peaks", (long long)s.peak[G16_CTR_SYNTH], (long long)s.peak[G16_CTR_WAITING]);
    CHECK(s.device_busy > 0.5, "device busy %.2f with a saturated device stage", s.device_busy);
    /* prove_start's parts: one record per device stage, each part timed, inside busy_s */
    double parts = 0;
    for (int k = 0; k < 6; k++) parts += s.dev_part_s[k];
    CHECK(s.dev_proofs == 30, "device parts of %llu proofs, want 30", (unsigned long long)s.dev_proofs);
    CHECK(s.dev_part_s[0] > 0 && s.dev_part_s[1] > 0 && s.dev_part_s[2] > 0 && parts <= s.busy_s,
          "device parts: h %.4f, msm h %.4f, msm l %.4f, sum %.4f of busy %.4f s", s.dev_part_s[0],
          s.dev_part_s[1], s.dev_part_s[2], parts, s.busy_s);
    printf("pile-up: peak waiting %lld, peak synth %lld, peak reserved %.2f MiB of %.2f MiB, device busy %.0f%%\n",
           (long long)s.peak[G16_CTR_WAITING], (long long)s.peak[G16_CTR_SYNTH],
           s.peak[G16_CTR_RESERVED_BYTES] / 1048576.0, budget / 1048576.0, 100 * s.device_busy);
    check_zero(e, "after success");
    g16_engine_destroy(e, 1);

    /* the trace: one synthesis and one device span per partition, and the summary */
    FILE *f = fopen(path, "r");
    CHECK(f != NULL, "trace written");
    if (f) {
        static char buf[1 << 20];
        size_t n = fread(buf, 1, sizeof buf - 1, f);
        buf[n] = 0;
        fclose(f);
        int syn = 0, dev = 0, hs = 0;
        for (const char *q = buf; (q = strstr(q, "\"name\":\"synthesis\"")); q++) syn++;
        for (const char *q = buf; (q = strstr(q, "\"name\":\"device\"")); q++) dev++;
        for (const char *q = buf; (q = strstr(q, "\"name\":\"h step\"")); q++) hs++;
        CHECK(syn == 30 && dev == 30 && hs == 30, "trace spans: %d synthesis, %d device, %d h step", syn, dev, hs);
        CHECK(strstr(buf, "\"traceEvents\"") && strstr(buf, "\"s_per_proof\"") &&
                  strstr(buf, "\"peak_reserved_bytes\""), "trace has events and the summary");
    }
    remove(path);
}

/* ---------------------------------------------------------------- (b) */
static void test_errors(void)
{
    static const g16_stage stages[] = {G16_STAGE_SYNTH, G16_STAGE_DEVICE, G16_STAGE_FINAL};
    static const char *const names[] = {"synthesis", "device", "finalize"};
    for (int k = 0; k < 3; k++) {
        g16_engine *e = make(2, 1, 1ull << 30, 1);
        g16_engine_hooks h = {.fail_stage = (int)stages[k], .fail_job = 2, .fail_part = 2};
        g16_engine_set_hooks(e, &h); /* the second job, partition 2 */
        uint64_t good = submit(e, 3, G16_PRIO_NORMAL);
        uint64_t bad = submit(e, 4, G16_PRIO_NORMAL);
        CHECK(good == 1 && bad == 2, "ids are 1, 2");
        uint8_t proofs[4 * 192];
        g16_job_status st;
        g16_status s = g16_engine_await(e, bad, 60, proofs, sizeof proofs, &st);
        CHECK(s == G16_ERR_INTERNAL && st.state == G16_JOB_FAILED, "%s error: status %d state %d", names[k],
              (int)s, (int)st.state);
        CHECK(!strcmp(st.stage, names[k]), "failed stage '%s', expected '%s'", st.stage, names[k]);
        CHECK(strstr(st.message, "partition 2") && strstr(st.message, "injected"), "message: %s", st.message);
        s = g16_engine_await(e, good, 60, proofs, sizeof proofs, &st);
        CHECK(s == G16_OK && verify_all(proofs, 3) == 0, "the other job is untouched by a %s error", names[k]);
        char when[64];
        snprintf(when, sizeof when, "after a %s error", names[k]);
        check_zero(e, when);
        g16_engine_destroy(e, 1);
    }
}

typedef struct cancel_ctx {
    g16_engine *e;
    g16_stage at;
    _Atomic uint64_t job;
    atomic_int fired;
} cancel_ctx;

static void cancel_hook(void *user, g16_stage s, uint64_t job, uint32_t part)
{
    cancel_ctx *c = user;
    if (s == c->at && job == atomic_load(&c->job) && part == 1 && !atomic_exchange(&c->fired, 1))
        g16_engine_cancel(c->e, job);
}

static void test_cancel(void)
{
    static const g16_stage stages[] = {G16_STAGE_SYNTH, G16_STAGE_DEVICE, G16_STAGE_FINAL, G16_STAGE_VERIFY};
    for (int k = 0; k < 4; k++) {
        g16_engine *e = make(3, 1, 1ull << 30, 1);
        cancel_ctx c = {.e = e, .at = stages[k]};
        g16_engine_hooks h = {.fail_stage = -1, .on_stage = cancel_hook, .user = &c};
        h.delay_ms[G16_STAGE_SYNTH] = 5;
        g16_engine_set_hooks(e, &h);
        uint64_t other = submit(e, 2, G16_PRIO_NORMAL);
        atomic_store(&c.job, other + 1);
        uint64_t id = submit(e, 6, G16_PRIO_NORMAL);
        uint8_t proofs[6 * 192];
        g16_job_status st;
        g16_status s = g16_engine_await(e, id, 60, proofs, sizeof proofs, &st);
        CHECK(atomic_load(&c.fired), "cancel hook ran at stage %s", g16_stage_name(stages[k]));
        CHECK(s == G16_ERR_CANCELLED && st.state == G16_JOB_CANCELLED, "cancel at %s: status %d state %d",
              g16_stage_name(stages[k]), (int)s, (int)st.state);
        CHECK(st.finished < 6, "cancel at %s: %u of 6 finished", g16_stage_name(stages[k]), st.finished);
        s = g16_engine_await(e, other, 60, proofs, sizeof proofs, &st);
        CHECK(s == G16_OK && verify_all(proofs, 2) == 0, "the other job survives the cancel");
        char when[64];
        snprintf(when, sizeof when, "after a cancel at %s", g16_stage_name(stages[k]));
        check_zero(e, when);
        g16_engine_destroy(e, 1);
    }

    /* A queued job is dropped at once: its await returns long before the running
     * job, whose synthesis is slowed, could have let it start. */
    g16_engine *e = make(1, 1, 1ull << 30, 0);
    g16_engine_hooks h = {.fail_stage = -1};
    h.delay_ms[G16_STAGE_SYNTH] = 100;
    g16_engine_set_hooks(e, &h);
    uint64_t run = submit(e, 4, G16_PRIO_NORMAL);
    uint64_t q = submit(e, 4, G16_PRIO_NORMAL);
    CHECK(g16_engine_cancel(e, q) == G16_OK, "cancel queued");
    g16_job_status st;
    CHECK(g16_engine_await(e, q, 0.05, NULL, 0, &st) == G16_ERR_CANCELLED, "queued job cancelled at once");
    CHECK(st.synthesized == 0, "nothing of it ran");
    CHECK(g16_engine_cancel(e, q) == G16_ERR_ARG, "an awaited job is forgotten");
    /* not ended yet (on a loaded machine its first synthesis may not have started) */
    CHECK(g16_engine_await(e, run, 0.01, NULL, 0, &st) == G16_ERR_TIMEOUT &&
              (st.state == G16_JOB_RUNNING || st.state == G16_JOB_QUEUED),
          "await times out on a job that has not ended (state %d)", (int)st.state);
    CHECK(g16_engine_await(e, run, 60, NULL, 0, &st) == G16_OK, "the running job finishes");
    check_zero(e, "after a cancel in the queue");
    /* destroy without drain cancels what is left */
    submit(e, 4, G16_PRIO_LOW);
    g16_engine_destroy(e, 0);
}

/* ---------------------------------------------------------------- early device start */

/* Polls the engine's early-start count until it reaches want (10 s at most). */
static int wait_early(g16_engine *e, uint64_t want)
{
    for (int i = 0; i < 2000; i++) {
        g16_engine_stats s;
        g16_engine_stats_get(e, &s);
        if (s.early_starts >= want) return 1;
        struct timespec ts = {0, 5000000L};
        nanosleep(&ts, NULL);
    }
    return 0;
}

/* The early device start (G16_ENGINE_EARLY; on by default only with GPUs): a device
 * takes a partition once its z is ready and runs the MSMs while a, b, c are still
 * being synthesized (delayed here so the device really waits), then its H step. */
static void test_early(void)
{
    g16_engine *e = make(1, 1, 1ull << 30, 1);
    CHECK(e->early == 0, "CPU devices: no early start by default");
    g16_engine_destroy(e, 1);
    setenv("G16_ENGINE_EARLY", "1", 1);
    e = make(1, 1, 1ull << 30, 1);
    unsetenv("G16_ENGINE_EARLY");
    CHECK(e->early == 1, "G16_ENGINE_EARLY=1 turns it on");
    g16_engine_hooks h = {.fail_stage = -1, .abc_delay_ms = 150};
    g16_engine_set_hooks(e, &h);
    uint8_t proofs[6 * 192];
    g16_job_status st;
    /* one partition: nothing else could keep the device busy, so it starts early */
    uint64_t one = submit(e, 1, G16_PRIO_NORMAL);
    CHECK(g16_engine_await(e, one, 60, proofs, sizeof proofs, &st) == G16_OK && verify_all(proofs, 1) == 0,
          "a one-partition job started early proves: %s", st.message);
    g16_engine_stats s;
    g16_engine_stats_get(e, &s);
    CHECK(s.early_starts == 1, "one early start (%llu)", (unsigned long long)s.early_starts);
    check_zero(e, "after an early start");
    /* several partitions: the first starts early, later ones only when a device idles */
    uint64_t six = submit(e, 6, G16_PRIO_NORMAL);
    CHECK(g16_engine_await(e, six, 60, proofs, sizeof proofs, &st) == G16_OK && verify_all(proofs, 6) == 0,
          "a six-partition job with early starts proves: %s", st.message);
    g16_engine_stats_get(e, &s);
    CHECK(s.early_starts >= 2, "the six-partition job's first partition started early (%llu in all)",
          (unsigned long long)s.early_starts);
    check_zero(e, "after a job with early starts");
    g16_engine_destroy(e, 1);

    /* a synthesis that fails after its partition went to the device fails the job at
     * the synthesis stage; the device waits, holds nothing, and the next job proves */
    setenv("G16_ENGINE_EARLY", "1", 1);
    e = make(1, 1, 1ull << 30, 1);
    unsetenv("G16_ENGINE_EARLY");
    h = (g16_engine_hooks){.fail_stage = -1, .fail_job = 1, .fail_part = 0, .abc_delay_ms = 100, .abc_fail = 1};
    g16_engine_set_hooks(e, &h);
    uint64_t bad = submit(e, 1, G16_PRIO_NORMAL);
    g16_status r = g16_engine_await(e, bad, 60, proofs, sizeof proofs, &st);
    CHECK(r == G16_ERR_INTERNAL && st.state == G16_JOB_FAILED, "early start, failed synthesis: status %d state %d",
          (int)r, (int)st.state);
    CHECK(!strcmp(st.stage, "synthesis") && strstr(st.message, "after the early start"), "stage '%s': %s",
          st.stage, st.message);
    g16_engine_stats_get(e, &s);
    CHECK(s.early_starts == 1 && s.devices_failed == 0, "it had started early (%llu); no device taken out",
          (unsigned long long)s.early_starts);
    check_zero(e, "after a failed synthesis of an early start");
    uint64_t next = submit(e, 2, G16_PRIO_NORMAL);
    CHECK(g16_engine_await(e, next, 60, proofs, sizeof proofs, &st) == G16_OK && verify_all(proofs, 2) == 0,
          "the next job proves");

    /* a cancel while the device waits for a, b, c */
    h = (g16_engine_hooks){.fail_stage = -1, .abc_delay_ms = 400};
    g16_engine_set_hooks(e, &h);
    g16_engine_stats_get(e, &s);
    uint64_t before = s.early_starts;
    uint64_t gone = submit(e, 3, G16_PRIO_NORMAL);
    CHECK(wait_early(e, before + 1), "the job started early");
    CHECK(g16_engine_cancel(e, gone) == G16_OK, "cancel while the device waits");
    r = g16_engine_await(e, gone, 60, proofs, sizeof proofs, &st);
    CHECK(r == G16_ERR_CANCELLED && st.state == G16_JOB_CANCELLED, "cancelled: status %d state %d", (int)r,
          (int)st.state);
    check_zero(e, "after a cancel during an early start");
    g16_engine_destroy(e, 1);
}

/* ---------------------------------------------------------------- (c) */
typedef struct prio_ctx {
    g16_engine *e;
    uint64_t normal, critical;
    atomic_int n;
    uint64_t order[32];
    uint32_t part[32];
} prio_ctx;

static void prio_hook(void *user, g16_stage s, uint64_t job, uint32_t part)
{
    prio_ctx *c = user;
    if (s != G16_STAGE_SYNTH) return;
    int i = atomic_fetch_add(&c->n, 1);
    if (i < 32) c->order[i] = job, c->part[i] = part;
    if (i == 0) {
        /* behind 19 queued NORMAL partitions (20 with this one) */
        g16_partition p = {.circuit = circ, .witness = wit};
        CHECK(g16_engine_submit(c->e, &c->critical, key, &p, 1, G16_PRIO_CRITICAL) == G16_OK, "critical");
    }
}

static void test_priority(void)
{
    g16_engine *e = make(1, 1, 1ull << 30, 0);
    prio_ctx c = {.e = e};
    g16_engine_hooks h = {.fail_stage = -1, .on_stage = prio_hook, .user = &c};
    g16_engine_set_hooks(e, &h);
    c.normal = submit(e, 20, G16_PRIO_NORMAL);
    uint8_t proof[192];
    g16_job_status st;
    static uint8_t proofs[20 * 192];
    CHECK(g16_engine_await(e, c.normal, 120, proofs, sizeof proofs, &st) == G16_OK, "normal job");
    CHECK(g16_engine_await(e, c.critical, 60, proof, sizeof proof, &st) == G16_OK, "critical job");
    CHECK(verify_all(proof, 1) == 0 && verify_all(proofs, 20) == 0, "proofs verify");
    CHECK(atomic_load(&c.n) == 21, "21 syntheses, saw %d", atomic_load(&c.n));
    CHECK(c.order[0] == c.normal && c.order[1] == c.critical, "second start is job %llu, want critical %llu",
          (unsigned long long)c.order[1], (unsigned long long)c.critical);
    int sorted = 1;
    for (int i = 2; i < 21; i++) sorted &= c.order[i] == c.normal && c.part[i] == (uint32_t)(i - 1);
    CHECK(sorted, "the NORMAL partitions run in index order after it");
    check_zero(e, "after the priority test");
    g16_engine_destroy(e, 1);
}

/* ---------------------------------------------------------------- (d) */
static void test_selfcheck(void)
{
    g16_engine *e = make(2, 1, 1ull << 30, 1);
    g16_engine_hooks h = {.fail_stage = -1, .wrong_job = 1, .wrong_part = 3, .wrong_attempts = 1};
    g16_engine_set_hooks(e, &h);
    uint64_t id = submit(e, 5, G16_PRIO_NORMAL);
    CHECK(id == 1, "first job is 1");
    uint8_t proofs[5 * 192];
    g16_job_status st;
    CHECK(g16_engine_await(e, id, 60, proofs, sizeof proofs, &st) == G16_OK, "retried job: %s", g16_last_error());
    CHECK(st.retries == 1, "one retry reported, got %u", st.retries);
    CHECK(verify_all(proofs, 5) == 0, "no wrong proof returned");
    g16_engine_stats s;
    g16_engine_stats_get(e, &s);
    CHECK(s.retries == 1, "engine counts the retry");

    /* wrong again on the CPU retry: the job fails in the verify stage */
    h.wrong_job = 2;
    h.wrong_attempts = 3;
    g16_engine_set_hooks(e, &h);
    id = submit(e, 5, G16_PRIO_NORMAL);
    g16_status r = g16_engine_await(e, id, 60, proofs, sizeof proofs, &st);
    CHECK(r == G16_ERR_UNSATISFIED && st.state == G16_JOB_FAILED && !strcmp(st.stage, "verify"),
          "twice wrong: status %d, stage %s", (int)r, st.stage);
    CHECK(st.retries == 1 && strstr(st.message, "partition 3"), "message: %s", st.message);
    check_zero(e, "after self-check failures");

    /* with the self-check off the wrong proof goes out: the hook really corrupts */
    g16_engine_destroy(e, 1);
    e = make(1, 1, 1ull << 30, 0);
    h.wrong_job = 1;
    h.wrong_attempts = 1;
    g16_engine_set_hooks(e, &h);
    id = submit(e, 5, G16_PRIO_NORMAL);
    CHECK(g16_engine_await(e, id, 60, proofs, sizeof proofs, &st) == G16_OK, "unchecked job");
    CHECK(verify_all(proofs, 5) == 1, "exactly the corrupted proof fails verification");
    g16_engine_destroy(e, 1);
}

/* A device backend that needs less host memory than the CPU (the CUDA backend's
 * sizing, through the test hook): a partition whose CPU retry could never fit
 * the budget is admitted for the device, and a failed self-check then fails the
 * job with a clear message instead of queueing a retry that would wait forever. */
static void test_retry_budget(void)
{
    g16_engine *e = make(1, 1, 1ull << 30, 1);
    g16_engine_hooks h = {.fail_stage = -1, .wrong_job = 1, .wrong_part = 0, .wrong_attempts = 1,
                          .dev_host_scratch = 4096};
    g16_engine_set_hooks(e, &h);
    size_t dev, cpu;
    g16_engine_part_need(e, circ, key, &dev, &cpu);
    CHECK(dev < cpu, "device sizing %zu below the CPU's %zu", dev, cpu);
    g16_engine_destroy(e, 1);

    e = make(1, 1, dev + (cpu - dev) / 2, 1);
    g16_engine_set_hooks(e, &h);
    g16_partition p = {.circuit = circ, .witness = wit};
    uint64_t id = 0;
    CHECK(g16_engine_submit(e, &id, key, &p, 1, G16_PRIO_NORMAL) == G16_OK,
          "fits with the device's sizing: %s", g16_last_error());
    uint8_t proof[192];
    g16_job_status st;
    g16_status r = g16_engine_await(e, id, 60, proof, sizeof proof, &st);
    CHECK(r != G16_OK && st.state == G16_JOB_FAILED && st.retries == 0 &&
              strstr(st.message, "no CPU retry"),
          "wrong proof, retry impossible: status %d, retries %u, message %s", (int)r, st.retries,
          st.message);
    check_zero(e, "after the refused retry");
    g16_engine_destroy(e, 1);
}

/* A device backend's own host memory (context, staging: ops->host_fixed, here
 * through the test hook) comes off the budget: a job that would fit the budget
 * but not what is left of it is refused, and the reservations of a run stay
 * within what is left. */
static void test_fixed(void)
{
    size_t dev, cpu;
    g16_engine *e = make(4, 1, 1ull << 30, 1);
    g16_engine_part_need(e, circ, key, &dev, &cpu);
    g16_engine_destroy(e, 1);
    uint64_t budget = cpu + cpu / 2, fixed = cpu; /* alone, the budget fits one partition */

    e = make(4, 1, budget, 1);
    g16_engine_hooks h = {.fail_stage = -1, .dev_host_fixed = fixed};
    g16_engine_set_hooks(e, &h);
    g16_partition p = {.circuit = circ, .witness = wit};
    uint64_t id = 7;
    CHECK(g16_engine_submit(e, &id, key, &p, 1, G16_PRIO_NORMAL) == G16_ERR_NOMEM && id == 0,
          "a job that fits the budget but not the budget less the backend's memory is refused");
    CHECK(strstr(g16_last_error(), "never") && strstr(g16_last_error(), "backends"), "clear message: %s",
          g16_last_error());
    g16_engine_destroy(e, 1);

    /* room for two partitions beside the key only once the fixed part is off */
    budget = 2 * cpu + cpu / 2 + fixed;
    e = make(4, 1, budget, 1);
    g16_engine_set_hooks(e, &h);
    id = submit(e, 6, G16_PRIO_NORMAL);
    static uint8_t proofs[6 * 192];
    CHECK(g16_engine_await(e, id, 120, proofs, sizeof proofs, NULL) == G16_OK && verify_all(proofs, 6) == 0,
          "6 partitions under a budget with a fixed part");
    g16_engine_stats s;
    g16_engine_stats_get(e, &s);
    CHECK(s.budget_bytes == budget && s.fixed_bytes == fixed, "stats: budget %llu (want %llu), fixed %llu (want %llu)",
          (unsigned long long)s.budget_bytes, (unsigned long long)budget, (unsigned long long)s.fixed_bytes,
          (unsigned long long)fixed);
    CHECK(s.peak[G16_CTR_RESERVED_BYTES] <= (int64_t)(budget - fixed) &&
              s.peak[G16_CTR_RESERVED_BYTES] > (int64_t)cpu,
          "peak reserved %lld within the budget less the fixed part, %llu, and above one partition",
          (long long)s.peak[G16_CTR_RESERVED_BYTES], (unsigned long long)(budget - fixed));
    check_zero(e, "after a run with a fixed part");
    g16_engine_destroy(e, 1);
}

/* ---------------------------------------------------------------- misc */
static const g16_pool *seen_pool;

static void pool_hook(void *user, const g16_pool *p)
{
    seen_pool = p;
}

static void test_misc(void)
{
    /* a job that can never fit is refused at submit */
    g16_engine *e = make(1, 1, 100000, 1);
    g16_partition p = {.circuit = circ, .witness = wit};
    uint64_t id = 7;
    CHECK(g16_engine_submit(e, &id, key, &p, 1, G16_PRIO_NORMAL) == G16_ERR_NOMEM && id == 0,
          "oversized job refused");
    CHECK(strstr(g16_last_error(), "never"), "clear message: %s", g16_last_error());
    g16_engine_destroy(e, 1);

    /* a witness of another circuit is refused */
    g16_circuit *c2;
    g16_witness *w2;
    g16_circuit_gen_args ga = {G16_PROFILE_POREP, LOG_N + 1, 2, 9};
    CHECK(g16_circuit_generate(&c2, &w2, &ga) == G16_OK, "second circuit");
    e = make(1, 1, 1ull << 30, 1);
    p.witness = w2;
    CHECK(g16_engine_submit(e, &id, key, &p, 1, G16_PRIO_NORMAL) == G16_ERR_ARG, "mismatched witness refused");
    p.circuit = c2;
    CHECK(g16_engine_submit(e, &id, key, &p, 1, G16_PRIO_NORMAL) == G16_ERR_ARG, "circuit not of the key refused");

    /* the device stage runs on its device's own pool */
    g16_engine_hooks h = {.fail_stage = -1, .on_device_pool = pool_hook};
    g16_engine_set_hooks(e, &h);
    id = submit(e, 1, G16_PRIO_HIGH);
    uint8_t proof[192];
    CHECK(g16_engine_await(e, id, 60, proof, sizeof proof, NULL) == G16_OK && verify_all(proof, 1) == 0,
          "single partition job");
    CHECK(seen_pool && g16_pool_size(seen_pool) == 2, "device pool of 2 threads (%u)",
          seen_pool ? g16_pool_size(seen_pool) : 0);
    g16_engine_destroy(e, 1);
    g16_circuit_destroy(c2);
    g16_witness_destroy(w2);
}

int main(void)
{
    setup_circuit();
    test_misc();
    test_pileup();
    test_max_ahead();
    test_synth_pools();
    test_errors();
    test_cancel();
    test_early();
    test_priority();
    test_selfcheck();
    test_retry_budget();
    test_fixed();
    g16_key_release(key);
    g16_circuit_destroy(circ);
    g16_witness_destroy(wit);
    return g16_test_finish("test_engine_pipeline");
}
