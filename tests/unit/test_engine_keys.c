/* Key residency and per-partition status of the engine, on the CPU: holds charge
 * the budget once and give it back on drop (every counter back to 0), a hold that
 * does not fit beside what is reserved is refused, uploads run in the background
 * (through the test hook's fake device copies: tiers 1 → 2 → 0, forgetting on drop,
 * a job's key sent at submit before its first device stage), cancel frees
 * everything but the hold, and g16_engine_job_parts reports each partition's stage
 * and time per stage. */
#include <pthread.h>
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
static g16_key *key, *key2;
static uint8_t inputs[32 * 8];
static uint32_t n_pub;
static size_t kb; /* the key's bytes as the engine charges them */

static void setup(void)
{
    g16_circuit_gen_args ga = {G16_PROFILE_POREP, LOG_N, 2, 11};
    CHECK(g16_circuit_generate(&circ, &wit, &ga) == G16_OK, "generate: %s", g16_last_error());
    CHECK(g16_setup(&key, circ, (const uint8_t *)"keys", 4) == G16_OK, "setup: %s", g16_last_error());
    CHECK(g16_setup(&key2, circ, (const uint8_t *)"other", 5) == G16_OK, "setup 2: %s", g16_last_error());
    n_pub = g16_witness_pub(wit);
    for (uint32_t i = 0; i < n_pub; i++) g16_witness_get(inputs + 32 * i, wit, 1 + i);
    g16_key_info ki;
    g16_key_get_info(&ki, key);
    kb = (ki.n_h + ki.n_l + ki.n_a + ki.n_b_g1 + ki.n_ic) * 96 + ki.n_b_g2 * 192;
}

static g16_engine *make(unsigned devices, uint64_t budget)
{
    g16_engine_config cfg;
    g16_engine_config_default(&cfg);
    cfg.pw = 1;
    cfg.devices = devices;
    cfg.budget_bytes = budget;
    cfg.verify = 1;
    cfg.synth_threads = 1;
    cfg.device_threads = 1;
    cfg.backend = G16_BACKEND_CPU;
    g16_engine *e = NULL;
    CHECK(g16_engine_create(&e, &cfg) == G16_OK, "create: %s", g16_last_error());
    return e;
}

static uint64_t submit(g16_engine *e, g16_key *k, size_t n)
{
    g16_partition parts[16];
    for (size_t i = 0; i < n; i++) parts[i] = (g16_partition){.circuit = circ, .witness = wit};
    uint64_t id = 0;
    CHECK(g16_engine_submit(e, &id, k, parts, n, G16_PRIO_NORMAL) == G16_OK, "submit: %s", g16_last_error());
    return id;
}

static int verify_all(const g16_key *k, const uint8_t *proofs, size_t n)
{
    int bad = 0;
    for (size_t i = 0; i < n; i++) bad += g16_verify(g16_key_vk((g16_key *)k), proofs + 192 * i, inputs, n_pub) != G16_OK;
    return bad;
}

static g16_engine_stats stats(g16_engine *e)
{
    g16_engine_trim(e);
    g16_engine_stats s;
    g16_engine_stats_get(e, &s);
    return s;
}

static void check_zero(g16_engine *e, const char *when)
{
    g16_engine_stats s = stats(e);
    for (int c = 0; c < G16_CTR_COUNT; c++)
        CHECK(s.cur[c] == 0, "%s: counter %s is %lld", when, g16_counter_name((g16_counter)c), (long long)s.cur[c]);
}

static void sleep_ms(unsigned ms)
{
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

/* ---------------------------------------------------------------- holds */
static void test_hold_charge(void)
{
    g16_engine *e = make(1, 1ull << 30);
    CHECK(g16_engine_key_tier(e, key) == 0, "not held: tier 0");
    CHECK(g16_engine_key_drop(e, key) == G16_ERR_ARG, "dropping a key not held is refused");
    CHECK(g16_engine_key_hold(e, key, 1) == G16_OK, "hold: %s", g16_last_error());
    CHECK(g16_engine_key_tier(e, key) == 1, "held on a CPU-only engine: tier 1 (got %d)", g16_engine_key_tier(e, key));
    g16_engine_stats s = stats(e);
    CHECK(s.cur[G16_CTR_KEY_BYTES] == (int64_t)kb, "held key charged: %lld of %zu", (long long)s.cur[G16_CTR_KEY_BYTES], kb);
    CHECK(s.cur[G16_CTR_RESERVED_BYTES] >= (int64_t)kb, "reserved includes the key");
    CHECK(g16_engine_key_hold(e, key, 0) == G16_OK, "a second hold is G16_OK");
    s = stats(e);
    CHECK(s.cur[G16_CTR_KEY_BYTES] == (int64_t)kb, "no second charge for a second hold");

    /* a job of the held key adds no second charge, and the charge stays after it */
    uint64_t id = submit(e, key, 4);
    static uint8_t proofs[4 * 192];
    CHECK(g16_engine_await(e, id, 60, proofs, sizeof proofs, NULL) == G16_OK && verify_all(key, proofs, 4) == 0,
          "job of a held key: %s", g16_last_error());
    s = stats(e);
    CHECK(s.peak[G16_CTR_KEY_BYTES] == (int64_t)kb, "key charged once while its job ran (peak %lld, key %zu)",
          (long long)s.peak[G16_CTR_KEY_BYTES], kb);
    CHECK(s.cur[G16_CTR_KEY_BYTES] == (int64_t)kb, "still charged after the job: the hold");
    CHECK(g16_engine_key_tier(e, key) == 1, "still held after the job");

    CHECK(g16_engine_key_drop(e, key) == G16_OK, "drop: %s", g16_last_error());
    CHECK(g16_engine_key_tier(e, key) == 0, "dropped: tier 0");
    check_zero(e, "after the drop");
    CHECK(g16_engine_key_drop(e, key) == G16_ERR_ARG, "a second drop is refused");

    /* drop while a job runs: the charge stays until its last partition is released */
    CHECK(g16_engine_key_hold(e, key, 0) == G16_OK, "hold again");
    g16_engine_hooks h = {.fail_stage = -1};
    h.delay_ms[G16_STAGE_DEVICE] = 20;
    g16_engine_set_hooks(e, &h);
    id = submit(e, key, 3);
    CHECK(g16_engine_key_drop(e, key) == G16_OK, "drop while a job uses the key");
    CHECK(g16_engine_key_tier(e, key) == 0, "not held once dropped, even while used");
    CHECK(g16_engine_await(e, id, 60, proofs, sizeof proofs, NULL) == G16_OK && verify_all(key, proofs, 3) == 0,
          "the job outlives the drop");
    check_zero(e, "after a drop during a job");
    g16_engine_destroy(e, 1);

    /* destroy with a key still held: its reference is given back (ASan would see a leak) */
    e = make(1, 1ull << 30);
    CHECK(g16_engine_key_hold(e, key2, 1) == G16_OK, "hold before destroy");
    g16_engine_destroy(e, 1);
}

static void test_hold_refused(void)
{
    /* room for one key, not two */
    g16_engine *e = make(1, kb + kb / 2);
    CHECK(g16_engine_key_hold(e, key, 0) == G16_OK, "first hold fits: %s", g16_last_error());
    CHECK(g16_engine_key_hold(e, key2, 0) == G16_ERR_NOMEM, "a second key does not fit beside it");
    char want[32];
    snprintf(want, sizeof want, "%zu bytes", kb);
    CHECK(strstr(g16_last_error(), want) && strstr(g16_last_error(), "free"), "message gives needed and free bytes: %s",
          g16_last_error());
    CHECK(g16_engine_key_tier(e, key2) == 0, "the refused key is not held");
    g16_engine_stats s = stats(e);
    CHECK(s.cur[G16_CTR_KEY_BYTES] == (int64_t)kb, "the refusal charged nothing (%lld)", (long long)s.cur[G16_CTR_KEY_BYTES]);
    CHECK(g16_engine_key_drop(e, key) == G16_OK, "drop the first");
    CHECK(g16_engine_key_hold(e, key2, 0) == G16_OK, "now the second fits: %s", g16_last_error());
    CHECK(g16_engine_key_drop(e, key2) == G16_OK, "drop the second");
    check_zero(e, "after refused and accepted holds");
    g16_engine_destroy(e, 1);

    /* a budget smaller than the key alone */
    e = make(1, kb / 2);
    CHECK(g16_engine_key_hold(e, key, 1) == G16_ERR_NOMEM, "a key larger than the budget is refused");
    check_zero(e, "after a refused hold");
    g16_engine_destroy(e, 1);
}

/* ---------------------------------------------------------------- uploads */
typedef struct move_log {
    atomic_int uploads, evicts;
    _Atomic uint64_t serial;
    _Atomic double t_first_upload_end;
} move_log;

static move_log mlog;
static g16_engine *mengine;
static _Atomic double t_first_device;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void move_hook(void *user, unsigned device, uint64_t serial, int ok)
{
    move_log *m = user;
    if (ok == 1) {
        if (atomic_fetch_add(&m->uploads, 1) == 0) atomic_store(&m->t_first_upload_end, now_s());
    } else if (ok == -1) {
        atomic_fetch_add(&m->evicts, 1);
    }
    atomic_store(&m->serial, serial);
}

static void device_hook(void *user, g16_stage s, uint64_t job, uint32_t part)
{
    double zero = 0;
    if (s == G16_STAGE_DEVICE) atomic_compare_exchange_strong(&t_first_device, &zero, now_s());
}

static void test_uploads(void)
{
    g16_engine *e = make(2, 1ull << 30);
    memset(&mlog, 0, sizeof mlog);
    g16_engine_hooks h = {.fail_stage = -1, .fake_upload_ms = 60, .on_key_move = move_hook, .user = &mlog};
    g16_engine_set_hooks(e, &h);
    CHECK(g16_engine_key_hold(e, key, 0) == G16_OK, "hold without upload");
    sleep_ms(150);
    CHECK(atomic_load(&mlog.uploads) == 0 && g16_engine_key_tier(e, key) == 1, "no upload asked: none made, tier 1");
    CHECK(g16_engine_key_hold(e, key, 1) == G16_OK, "raise the hold to upload");
    CHECK(g16_engine_key_tier(e, key) == 1, "tier 1 while the copies travel (in the background)");
    for (int i = 0; i < 200 && g16_engine_key_tier(e, key) != 2; i++) sleep_ms(10);
    CHECK(g16_engine_key_tier(e, key) == 2, "tier 2 once on both devices");
    CHECK(atomic_load(&mlog.uploads) == 2, "one upload per device, got %d", atomic_load(&mlog.uploads));
    CHECK(g16_engine_key_drop(e, key) == G16_OK, "drop");
    for (int i = 0; i < 200 && atomic_load(&mlog.evicts) < 2; i++) sleep_ms(10);
    CHECK(atomic_load(&mlog.evicts) == 2, "the copies are forgotten on both devices, got %d", atomic_load(&mlog.evicts));
    CHECK(g16_engine_key_tier(e, key) == 0, "dropped: tier 0");
    check_zero(e, "after upload and drop");
    g16_engine_destroy(e, 1);

    /* a submitted job's key goes to the devices while its first partition
     * synthesizes: the upload ends before the first device stage starts */
    e = make(1, 1ull << 30);
    mengine = e;
    memset(&mlog, 0, sizeof mlog);
    atomic_store(&t_first_device, 0);
    g16_engine_hooks h2 = {.fail_stage = -1, .fake_upload_ms = 20, .on_key_move = move_hook, .user = &mlog,
                           .on_stage = device_hook};
    h2.delay_ms[G16_STAGE_SYNTH] = 200;
    g16_engine_set_hooks(e, &h2);
    uint64_t id = submit(e, key2, 2);
    static uint8_t proofs[2 * 192];
    CHECK(g16_engine_await(e, id, 60, proofs, sizeof proofs, NULL) == G16_OK && verify_all(key2, proofs, 2) == 0,
          "job with a preloaded key: %s", g16_last_error());
    CHECK(atomic_load(&mlog.uploads) >= 1 && atomic_load(&mlog.serial) == key2->serial,
          "the job's key was uploaded at submit (%d uploads)", atomic_load(&mlog.uploads));
    double tu = atomic_load(&mlog.t_first_upload_end), td = atomic_load(&t_first_device);
    CHECK(tu > 0 && td > 0 && tu < td, "upload done (%.3f) before the first device stage (%.3f)", tu, td);
    CHECK(g16_engine_key_tier(e, key2) == 0, "a job's key is not held");
    check_zero(e, "after a preloaded job");
    g16_engine_destroy(e, 1);
}

/* ---------------------------------------------------------------- cancel */
static void test_cancel_with_hold(void)
{
    g16_engine *e = make(1, 1ull << 30);
    CHECK(g16_engine_key_hold(e, key, 0) == G16_OK, "hold");
    g16_engine_hooks h = {.fail_stage = -1};
    h.delay_ms[G16_STAGE_SYNTH] = 30;
    g16_engine_set_hooks(e, &h);
    uint64_t id = submit(e, key, 6);
    sleep_ms(45); /* inside the second synthesis */
    CHECK(g16_engine_cancel(e, id) == G16_OK, "cancel");
    g16_job_status st;
    static g16_part_status ps[6];
    for (int i = 0; i < 500; i++) {
        g16_engine_job_status(e, &st, id);
        if (st.state == G16_JOB_CANCELLED) break;
        sleep_ms(5);
    }
    CHECK(g16_engine_job_parts(e, id, ps, 6) == G16_OK, "parts of a cancelled job: %s", g16_last_error());
    int cancelled = 0;
    for (int i = 0; i < 6; i++) cancelled += ps[i].stage == G16_PART_CANCELLED && !strcmp(ps[i].stage_name, "cancelled");
    CHECK(cancelled >= 4, "queued partitions end cancelled (%d of 6)", cancelled);
    CHECK(g16_engine_await(e, id, 60, NULL, 0, &st) == G16_ERR_CANCELLED, "cancelled");
    g16_engine_stats s = stats(e);
    CHECK(s.cur[G16_CTR_KEY_BYTES] == (int64_t)kb && s.cur[G16_CTR_RESERVED_BYTES] == (int64_t)kb,
          "after the cancel only the hold is charged: key %lld, reserved %lld of %zu",
          (long long)s.cur[G16_CTR_KEY_BYTES], (long long)s.cur[G16_CTR_RESERVED_BYTES], kb);
    for (int c = 0; c < G16_CTR_KEY_BYTES; c++)
        CHECK(s.cur[c] == 0, "after the cancel: counter %s is %lld", g16_counter_name((g16_counter)c), (long long)s.cur[c]);
    CHECK(g16_engine_key_drop(e, key) == G16_OK, "drop");
    check_zero(e, "after cancel and drop");
    g16_engine_destroy(e, 1);
}

/* ---------------------------------------------------------------- job parts */
typedef struct parts_ctx {
    g16_engine *e;
    _Atomic uint64_t job;
    g16_part_status seen_synth[3], seen_dev[3];
    atomic_int got_synth, got_dev;
} parts_ctx;

static parts_ctx pctx;

static void parts_hook(void *user, g16_stage s, uint64_t job, uint32_t part)
{
    parts_ctx *c = user;
    if (job != atomic_load(&c->job) || part != 0) return;
    if (s == G16_STAGE_SYNTH && !atomic_load(&c->got_synth)) {
        CHECK(g16_engine_job_parts(c->e, job, c->seen_synth, 3) == G16_OK, "parts in synthesis");
        atomic_store(&c->got_synth, 1);
    }
    if (s == G16_STAGE_DEVICE && !atomic_load(&c->got_dev)) {
        CHECK(g16_engine_job_parts(c->e, job, c->seen_dev, 3) == G16_OK, "parts in the device stage");
        atomic_store(&c->got_dev, 1);
    }
}

static void test_job_parts(void)
{
    g16_engine *e = make(1, 1ull << 30);
    memset(&pctx, 0, sizeof pctx);
    pctx.e = e;
    atomic_store(&pctx.job, 1);
    g16_engine_hooks h = {.fail_stage = -1, .on_stage = parts_hook, .user = &pctx};
    h.delay_ms[G16_STAGE_SYNTH] = 40;
    h.delay_ms[G16_STAGE_DEVICE] = 30;
    g16_engine_set_hooks(e, &h);
    uint64_t id = submit(e, key, 3);
    CHECK(id == 1, "first job is 1");
    g16_part_status ps[3];
    CHECK(g16_engine_job_parts(e, id, ps, 2) == G16_ERR_ARG && strstr(g16_last_error(), "3 partitions"),
          "cap below the partition count refused: %s", g16_last_error());
    CHECK(g16_engine_job_parts(e, 99, ps, 3) == G16_ERR_ARG, "unknown job refused");
    g16_job_status st;
    for (int i = 0; i < 1000; i++) {
        g16_engine_job_status(e, &st, id);
        if (st.state == G16_JOB_DONE) break;
        sleep_ms(5);
    }
    CHECK(st.state == G16_JOB_DONE, "job done");
    CHECK(g16_engine_job_parts(e, id, ps, 3) == G16_OK, "parts of a done job");
    for (int i = 0; i < 3; i++) {
        CHECK(ps[i].stage == G16_PART_DONE && !strcmp(ps[i].stage_name, "done"), "partition %d done (%s)", i,
              ps[i].stage_name);
        CHECK(ps[i].stage_s[G16_PART_SYNTHESIS] >= 0.04 && ps[i].stage_s[G16_PART_DEVICE] >= 0.03 &&
                  ps[i].stage_s[G16_PART_FINALIZE] > 0,
              "partition %d: synthesis %.3f s (≥ 0.04), device %.3f s (≥ 0.03), finalize %.4f s", i,
              ps[i].stage_s[G16_PART_SYNTHESIS], ps[i].stage_s[G16_PART_DEVICE], ps[i].stage_s[G16_PART_FINALIZE]);
    }
    /* with one synthesis worker, the last partition queued through two syntheses */
    CHECK(ps[2].stage_s[G16_PART_QUEUED] >= 0.08, "partition 2 queued %.3f s (≥ 2 × 0.04)", ps[2].stage_s[G16_PART_QUEUED]);
    CHECK(atomic_load(&pctx.got_synth) && pctx.seen_synth[0].stage == G16_PART_SYNTHESIS &&
              pctx.seen_synth[1].stage == G16_PART_QUEUED && pctx.seen_synth[2].stage == G16_PART_QUEUED,
          "at partition 0's synthesis: %s, %s, %s", pctx.seen_synth[0].stage_name, pctx.seen_synth[1].stage_name,
          pctx.seen_synth[2].stage_name);
    CHECK(atomic_load(&pctx.got_dev) && pctx.seen_dev[0].stage == G16_PART_DEVICE &&
              pctx.seen_dev[0].stage_s[G16_PART_SYNTHESIS] >= 0.04,
          "at partition 0's device stage: %s, synthesis %.3f s", pctx.seen_dev[0].stage_name,
          pctx.seen_dev[0].stage_s[G16_PART_SYNTHESIS]);
    uint8_t proofs[3 * 192];
    CHECK(g16_engine_await(e, id, 60, proofs, sizeof proofs, NULL) == G16_OK && verify_all(key, proofs, 3) == 0,
          "proofs");
    CHECK(g16_engine_job_parts(e, id, ps, 3) == G16_ERR_ARG, "an awaited job is forgotten");

    /* a failed job: the failing partition and the queued ones end "failed" */
    g16_engine_hooks hf = {.fail_stage = G16_STAGE_SYNTH, .fail_job = 2, .fail_part = 0};
    g16_engine_set_hooks(e, &hf);
    id = submit(e, key, 3);
    for (int i = 0; i < 1000; i++) {
        g16_engine_job_status(e, &st, id);
        if (st.state == G16_JOB_FAILED) break;
        sleep_ms(5);
    }
    CHECK(g16_engine_job_parts(e, id, ps, 3) == G16_OK, "parts of a failed job");
    int failed = 0;
    for (int i = 0; i < 3; i++) failed += ps[i].stage == G16_PART_FAILED && !strcmp(ps[i].stage_name, "failed");
    CHECK(failed == 3, "every partition of the failed job reads failed (%d)", failed);
    CHECK(g16_engine_await(e, id, 60, NULL, 0, NULL) == G16_ERR_INTERNAL, "the job failed");
    check_zero(e, "after the job parts test");
    g16_engine_destroy(e, 1);
    CHECK(!strcmp(g16_part_stage_name(G16_PART_WAITING), "waiting") && !strcmp(g16_part_stage_name(99), "?"),
          "stage names");
}

/* ---------------------------------------------------------------- the user's own bytes */
typedef struct {
    g16_engine *e;
    uint64_t bytes;
    atomic_int done;
    g16_status st;
} reserver;

static void *reserve_main(void *arg)
{
    reserver *r = arg;
    r->st = g16_engine_reserve(r->e, r->bytes, 30);
    atomic_store(&r->done, 1);
    return NULL;
}

static void test_reserve(void)
{
    const uint64_t budget = 64ull << 20;
    g16_engine *e = make(1, budget);
    g16_engine_stats s = stats(e);
    const int64_t base = s.cur[G16_CTR_RESERVED_BYTES]; /* the backends' fixed share is not in it */
    CHECK(g16_engine_reserve(e, budget + 1, 0) == G16_ERR_NOMEM, "more than the whole budget is refused");
    CHECK(strstr(g16_last_error(), "whole budget") != NULL, "says why: %s", g16_last_error());
    CHECK(g16_engine_reserve(e, 40ull << 20, 0) == G16_OK, "reserve 40 MiB: %s", g16_last_error());
    s = stats(e);
    CHECK(s.cur[G16_CTR_EXTERNAL_BYTES] == 40ll << 20, "external bytes counted: %lld", (long long)s.cur[G16_CTR_EXTERNAL_BYTES]);
    CHECK(s.cur[G16_CTR_RESERVED_BYTES] == base + (40ll << 20), "and reserved");
    CHECK(g16_engine_reserve(e, 30ull << 20, 0) == G16_ERR_NOMEM, "30 MiB more does not fit now");
    CHECK(strstr(g16_last_error(), "are free") != NULL, "says what is free: %s", g16_last_error());

    /* a reserver that waits gets its bytes once they are given back */
    reserver r = {e, 30ull << 20, 0, G16_OK};
    pthread_t t;
    CHECK(pthread_create(&t, NULL, reserve_main, &r) == 0, "thread");
    sleep_ms(50);
    CHECK(!atomic_load(&r.done), "the reserver waits while the budget is full");
    g16_engine_unreserve(e, 40ull << 20);
    pthread_join(t, NULL);
    CHECK(r.st == G16_OK, "the waiting reserve succeeds after the unreserve: %s", g16_last_error());

    /* a job whose partitions need more than is left waits for the bytes, then proves */
    uint64_t filled = 30ull << 20; /* the reserver's */
    for (uint64_t chunk = 1 << 20; chunk >= 4096; chunk /= 2)
        while (g16_engine_reserve(e, chunk, 0) == G16_OK) filled += chunk;
    uint64_t id = submit(e, key, 2);
    static uint8_t proofs[2 * 192];
    g16_job_status js;
    sleep_ms(100);
    CHECK(g16_engine_job_status(e, &js, id) == G16_OK && js.state != G16_JOB_DONE,
          "the job cannot be admitted while the user holds the budget");
    g16_engine_unreserve(e, filled);
    CHECK(g16_engine_await(e, id, 60, proofs, sizeof proofs, NULL) == G16_OK && verify_all(key, proofs, 2) == 0,
          "the job proves once the bytes are back: %s", g16_last_error());
    check_zero(e, "after unreserving everything");
    g16_engine_destroy(e, 1);
}

int main(void)
{
    setup();
    test_hold_charge();
    test_hold_refused();
    test_uploads();
    test_cancel_with_hold();
    test_job_parts();
    test_reserve();
    g16_key_release(key);
    g16_key_release(key2);
    g16_circuit_destroy(circ);
    g16_witness_destroy(wit);
    return g16_test_finish("test_engine_keys");
}
