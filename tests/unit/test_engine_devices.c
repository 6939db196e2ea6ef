/* Several devices in one engine, with CPU "devices" (issue 27): (a) the partitions
 * of a job spread over every device, per-device stats and the trace's device ids;
 * (b) a device that fails mid-run (the dev_fail_at hook) is taken out, its partition
 * and the one queued behind its lock go to the other device, no job is lost, every
 * proof verifies, every counter returns to 0; (c) every device failing gives the job
 * a clear error, no hang, and the last device stays for the next job; (d) each CPU device gets its share
 * of the threads; (e) the --gpus list parser.  Every returned proof is checked with
 * g16_verify here, independently of the engine's self-check. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "engine/engine.h"

#define LOG_N 8

static g16_circuit *circ;
static g16_witness *wit;
static g16_key *key;
static uint8_t inputs[32 * 8];
static uint32_t n_pub;

static void setup_circuit(void)
{
    g16_circuit_gen_args ga = {G16_PROFILE_POREP, LOG_N, 2, 11};
    CHECK(g16_circuit_generate(&circ, &wit, &ga) == G16_OK, "generate: %s", g16_last_error());
    CHECK(g16_setup(&key, circ, (const uint8_t *)"devices", 7) == G16_OK, "setup: %s", g16_last_error());
    n_pub = g16_witness_pub(wit);
    for (uint32_t i = 0; i < n_pub; i++) g16_witness_get(inputs + 32 * i, wit, 1 + i);
}

static g16_engine *make(unsigned devices, unsigned gw, const char *trace)
{
    g16_engine_config cfg;
    g16_engine_config_default(&cfg);
    cfg.backend = G16_BACKEND_CPU;
    cfg.devices = devices;
    cfg.pw = 2;
    cfg.gw = gw;
    cfg.verify = 1;
    cfg.synth_threads = 1;
    cfg.device_threads = 1;
    cfg.trace_path = trace;
    g16_engine *e = NULL;
    CHECK(g16_engine_create(&e, &cfg) == G16_OK, "create: %s", g16_last_error());
    return e;
}

static uint64_t submit(g16_engine *e, size_t n)
{
    g16_partition parts[16];
    for (size_t i = 0; i < n; i++) parts[i] = (g16_partition){.circuit = circ, .witness = wit};
    uint64_t id = 0;
    CHECK(g16_engine_submit(e, &id, key, parts, n, G16_PRIO_NORMAL) == G16_OK, "submit: %s", g16_last_error());
    return id;
}

/* Awaits job id (60 s at most: a lost partition shows as a timeout, not a hang) and
 * verifies its n proofs; returns the await status. */
static g16_status await_verify(g16_engine *e, uint64_t id, size_t n, g16_job_status *js)
{
    uint8_t proofs[16 * 192];
    g16_status st = g16_engine_await(e, id, 60, proofs, sizeof proofs, js);
    CHECK(st != G16_ERR_TIMEOUT, "job %llu still running after 60 s: a partition was lost",
          (unsigned long long)id);
    if (st == G16_OK)
        for (size_t i = 0; i < n; i++)
            CHECK(g16_verify(g16_key_vk(key), proofs + 192 * i, inputs, n_pub) == G16_OK,
                  "job %llu proof %zu does not verify", (unsigned long long)id, i);
    return st;
}

static void check_zero(g16_engine *e, const char *when)
{
    g16_engine_trim(e);
    g16_engine_stats s;
    g16_engine_stats_get(e, &s);
    for (int c = 0; c < G16_CTR_COUNT; c++)
        CHECK(s.cur[c] == 0, "%s: counter %s is %lld", when, g16_counter_name((g16_counter)c),
              (long long)s.cur[c]);
}

/* Rendezvous of the devices' first stages (on_device_pool runs in each device stage, with
 * that device's pool): a stage waits (5 s at most) until `want` devices have begun one, so
 * every device gets work however the races between idle workers go on a loaded machine. */
static const g16_pool *seen[8];
static _Atomic unsigned n_seen, want;
static pthread_mutex_t seen_mu = PTHREAD_MUTEX_INITIALIZER;
static void rendezvous(void *user, const g16_pool *pool)
{
    (void)user;
    pthread_mutex_lock(&seen_mu);
    unsigned i = 0;
    while (i < n_seen && seen[i] != pool) i++;
    if (i == n_seen && i < 8) seen[n_seen++] = pool;
    pthread_mutex_unlock(&seen_mu);
    for (int k = 0; k < 5000 && atomic_load(&n_seen) < atomic_load(&want); k++) usleep(1000);
}

static void hooks_rendezvous(g16_engine_hooks *h, unsigned devices)
{
    memset(h, 0, sizeof *h);
    h->fail_stage = -1;
    h->on_device_pool = rendezvous;
    atomic_store(&n_seen, 0);
    atomic_store(&want, devices);
}

/* (a) three devices share two jobs; the stats and the trace say who did what. */
static void test_spread(void)
{
    char trace[] = "/tmp/g16-devices-trace-XXXXXX";
    int fd = mkstemp(trace);
    CHECK(fd >= 0, "mkstemp");
    close(fd);
    g16_engine *e = make(3, 1, trace);
    g16_engine_hooks h;
    hooks_rendezvous(&h, 3);
    h.delay_ms[G16_STAGE_DEVICE] = 30; /* a device stage outlasts a synthesis: every device is needed */
    g16_engine_set_hooks(e, &h);
    uint64_t a = submit(e, 6), b = submit(e, 6);
    g16_job_status js;
    CHECK(await_verify(e, a, 6, &js) == G16_OK, "spread: job a: %s", g16_last_error());
    CHECK(await_verify(e, b, 6, &js) == G16_OK, "spread: job b: %s", g16_last_error());
    check_zero(e, "spread");
    g16_engine_stats s;
    g16_engine_stats_get(e, &s);
    CHECK(s.devices == 3 && s.devices_failed == 0 && s.reroutes == 0, "spread: devices %u, failed %u, reroutes %llu",
          s.devices, s.devices_failed, (unsigned long long)s.reroutes);
    uint64_t sum = 0;
    for (unsigned d = 0; d < 3; d++) {
        CHECK(s.dev[d].stages > 0 && s.dev[d].busy > 0 && s.dev[d].busy <= 1.0 + 1e-9 && s.dev[d].gpu == -1,
              "spread: device %u: %llu stages, busy %.3f, gpu %d", d, (unsigned long long)s.dev[d].stages,
              s.dev[d].busy, s.dev[d].gpu);
        sum += s.dev[d].stages;
    }
    CHECK(sum == 12, "spread: %llu device stages for 12 partitions", (unsigned long long)sum);
    g16_engine_destroy(e, 1);
    /* The trace names the device of each device span and has every device's stats. */
    FILE *f = fopen(trace, "r");
    CHECK(f != NULL, "spread: no trace");
    static char buf[1 << 20];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = 0;
    fclose(f);
    unlink(trace);
    for (int d = 0; d < 3; d++) {
        char want[64];
        snprintf(want, sizeof want, "\"attempt\":0,\"device\":%d}", d);
        CHECK(strstr(buf, want) != NULL, "spread: the trace has no span on device %d", d);
        snprintf(want, sizeof want, "{\"device\":%d,\"gpu\":-1,\"busy\":", d);
        CHECK(strstr(buf, want) != NULL, "spread: the trace has no stats of device %d", d);
    }
}

/* (b) device 1 fails its second device stage; with gw 2 another partition waits for its
 * lock meanwhile.  Both go to device 0; device 1 takes nothing more. */
static void test_reroute(unsigned gw)
{
    g16_engine *e = make(2, gw, NULL);
    g16_engine_hooks h;
    hooks_rendezvous(&h, 2);
    h.delay_ms[G16_STAGE_DEVICE] = 30;
    h.dev_fail_at[1] = 2;
    g16_engine_set_hooks(e, &h);
    uint64_t a = submit(e, 6), b = submit(e, 5);
    g16_job_status js;
    CHECK(await_verify(e, a, 6, &js) == G16_OK, "reroute gw %u: job a lost: %s", gw, g16_last_error());
    CHECK(js.finished == 6 && js.retries == 0, "reroute gw %u: job a finished %u, retries %u", gw, js.finished,
          js.retries);
    CHECK(await_verify(e, b, 5, &js) == G16_OK, "reroute gw %u: job b lost: %s", gw, g16_last_error());
    check_zero(e, "reroute");
    g16_engine_stats s;
    g16_engine_stats_get(e, &s);
    CHECK(s.dev[1].failed && !s.dev[0].failed && s.devices_failed == 1, "reroute gw %u: failed flags %d %d", gw,
          s.dev[0].failed, s.dev[1].failed);
    CHECK(s.dev[1].errors == 1 && s.dev[1].stages == 1, "reroute gw %u: device 1 %llu stages, %llu errors "
          "(it must take no work after its failure)", gw, (unsigned long long)s.dev[1].stages,
          (unsigned long long)s.dev[1].errors);
    CHECK(s.dev[0].stages == 10 && s.dev[0].errors == 0, "reroute gw %u: device 0 %llu stages", gw,
          (unsigned long long)s.dev[0].stages);
    fprintf(stderr, "reroute gw %u: %llu reroutes\n", gw, (unsigned long long)s.reroutes);
    CHECK(s.reroutes >= 1 && s.jobs_done == 2 && s.jobs_failed == 0 && s.proofs == 11,
          "reroute gw %u: reroutes %llu, done %llu, failed %llu, proofs %llu", gw,
          (unsigned long long)s.reroutes, (unsigned long long)s.jobs_done, (unsigned long long)s.jobs_failed,
          (unsigned long long)s.proofs);
    /* The survivor keeps proving new jobs. */
    uint64_t c = submit(e, 2);
    CHECK(await_verify(e, c, 2, &js) == G16_OK, "reroute gw %u: a job after the failure: %s", gw, g16_last_error());
    check_zero(e, "reroute, after");
    g16_engine_destroy(e, 1);
}

/* (c) both devices fail: the first is taken out, the last one left is kept (a transient
 * error must not leave an engine that can prove nothing) and its error fails the job,
 * with a clear message and no hang; the next job runs on it. */
static void test_all_fail(void)
{
    g16_engine *e = make(2, 1, NULL);
    g16_engine_hooks h;
    memset(&h, 0, sizeof h);
    h.fail_stage = -1;
    h.delay_ms[G16_STAGE_DEVICE] = 10;
    h.dev_fail_at[0] = 1;
    h.dev_fail_at[1] = 1;
    g16_engine_set_hooks(e, &h);
    uint64_t a = submit(e, 4);
    g16_job_status js;
    g16_status st = await_verify(e, a, 4, &js);
    CHECK(st == G16_ERR_BACKEND && js.state == G16_JOB_FAILED && !strcmp(js.stage, "device") &&
          strstr(js.message, "test hook: device") && strstr(js.message, "the last one left"),
          "all fail: job a: status %d, state %d, stage %s, message '%s'", (int)st, (int)js.state, js.stage,
          js.message);
    check_zero(e, "all fail");
    g16_engine_stats s;
    g16_engine_stats_get(e, &s);
    /* reroutes 0 or 1: the job may have failed on the last device before the first one's
     * partition was sent back */
    CHECK(s.devices_failed == 1 && s.jobs_failed == 1 && s.reroutes <= 1 && s.dev[0].errors + s.dev[1].errors == 2,
          "all fail: %u devices out, %llu jobs failed, %llu reroutes", s.devices_failed,
          (unsigned long long)s.jobs_failed, (unsigned long long)s.reroutes);
    uint64_t b = submit(e, 2);
    CHECK(await_verify(e, b, 2, &js) == G16_OK, "all fail: the next job on the last device: %s", g16_last_error());
    check_zero(e, "all fail, after");
    g16_engine_destroy(e, 1);
}

/* (d) CPU devices split the machine: each device's pool has CPUs / devices threads. */
static _Atomic unsigned pool_threads[2];
static void on_pool(void *user, const g16_pool *pool)
{
    (void)user;
    unsigned n = g16_pool_size(pool);
    unsigned prev = atomic_load(&pool_threads[0]);
    if (!prev) atomic_store(&pool_threads[0], n);
    else if (prev != n) atomic_store(&pool_threads[1], n);
}

static void test_thread_share(void)
{
    g16_engine_config cfg;
    g16_engine_config_default(&cfg);
    cfg.backend = G16_BACKEND_CPU;
    cfg.devices = 2;
    cfg.synth_threads = 1;
    g16_engine *e = NULL;
    CHECK(g16_engine_create(&e, &cfg) == G16_OK, "share: create: %s", g16_last_error());
    g16_engine_hooks h;
    memset(&h, 0, sizeof h);
    h.fail_stage = -1;
    h.on_device_pool = on_pool;
    g16_engine_set_hooks(e, &h);
    g16_job_status js;
    CHECK(await_verify(e, submit(e, 2), 2, &js) == G16_OK, "share: %s", g16_last_error());
    g16_engine_destroy(e, 1);
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    unsigned want = cpus / 2 > 0 ? (unsigned)(cpus / 2) : 1;
    CHECK(pool_threads[0] == want && pool_threads[1] == 0, "share: device pools of %u (and %u) threads, want %u",
          pool_threads[0], pool_threads[1], want);
}

/* (e) the GPU list. */
static void test_gpus(void)
{
    g16_engine_config cfg;
    g16_engine_config_default(&cfg);
    CHECK(g16_engine_parse_gpus(&cfg, "1,0") == G16_OK && cfg.n_gpus == 2 && cfg.gpus[0] == 1 && cfg.gpus[1] == 0,
          "gpus: 1,0 gave %u", cfg.n_gpus);
    static const char *const bad[] = {"", "0,0", "a", "1,", "-1", "0;1", "2,x"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        g16_engine_config c2;
        g16_engine_config_default(&c2);
        CHECK(g16_engine_parse_gpus(&c2, bad[i]) == G16_ERR_ARG && c2.n_gpus == 0, "gpus: '%s' accepted", bad[i]);
    }
    /* How devices are picked, for 0, 1 and 2 visible GPUs (no GPU needed). */
    int cuda = -1;
    g16_engine_config p;
    g16_engine_config_default(&p);
    CHECK(g16_engine_pick_devices(&p, 0, &cuda) == G16_OK && !cuda && p.devices == 1, "pick: auto, no GPU");
    g16_engine_config_default(&p);
    CHECK(g16_engine_pick_devices(&p, 2, &cuda) == G16_OK && cuda && p.devices == 2 && p.n_gpus == 0,
          "pick: auto, 2 GPUs: %u devices", p.devices);
    g16_engine_config_default(&p);
    p.backend = G16_BACKEND_CUDA;
    CHECK(g16_engine_pick_devices(&p, 0, &cuda) == G16_ERR_BACKEND, "pick: cuda, no GPU");
    g16_engine_config_default(&p);
    p.devices = 2;
    CHECK(g16_engine_pick_devices(&p, 1, &cuda) == G16_ERR_ARG && strstr(g16_last_error(), "2 devices asked, 1 GPUs"),
          "pick: 2 devices, 1 GPU");
    g16_engine_config_default(&p);
    CHECK(g16_engine_parse_gpus(&p, "1") == G16_OK && g16_engine_pick_devices(&p, 2, &cuda) == G16_OK && cuda &&
          p.devices == 1 && p.n_gpus == 1 && p.gpus[0] == 1, "pick: --gpus 1 of 2");
    g16_engine_config_default(&p);
    CHECK(g16_engine_parse_gpus(&p, "1") == G16_OK && g16_engine_pick_devices(&p, 1, &cuda) == G16_ERR_ARG &&
          strstr(g16_last_error(), "GPU 1 listed, 1 visible"), "pick: --gpus 1 of 1");
    g16_engine_config_default(&p);
    p.devices = 1;
    CHECK(g16_engine_parse_gpus(&p, "0,1") == G16_OK && g16_engine_pick_devices(&p, 2, &cuda) == G16_ERR_ARG,
          "pick: --devices 1 with two GPUs listed");
    g16_engine_config_default(&p);
    p.backend = G16_BACKEND_CPU;
    p.devices = 3;
    CHECK(g16_engine_pick_devices(&p, 2, &cuda) == G16_OK && !cuda && p.devices == 3, "pick: 3 CPU devices");
    /* TEST-ONLY: one GPU listed twice is two devices on it (the one-GPU smoke). */
    setenv("G16_ENGINE_GPU_REPEAT", "1", 1);
    g16_engine_config_default(&p);
    CHECK(g16_engine_parse_gpus(&p, "0,0") == G16_OK && g16_engine_pick_devices(&p, 1, &cuda) == G16_OK && cuda &&
          p.devices == 2 && p.gpus[0] == 0 && p.gpus[1] == 0, "pick: --gpus 0,0 on one GPU: %s", g16_last_error());
    unsetenv("G16_ENGINE_GPU_REPEAT");
    char desc[128];
    if (g16_cuda_devices(desc, sizeof desc) == 0) {
        /* GPUs asked where none is: a clear error, not a CPU engine. */
        g16_engine *e = NULL;
        CHECK(g16_engine_create(&e, &cfg) == G16_ERR_BACKEND && e == NULL, "gpus: create without a GPU");
        cfg.backend = G16_BACKEND_CPU;
        CHECK(g16_engine_create(&e, &cfg) == G16_ERR_ARG && e == NULL, "gpus: with the CPU backend");
    }
}

int main(void)
{
    setup_circuit();
    test_gpus();
    test_spread();
    test_reroute(1);
    test_reroute(2);
    test_all_fail();
    test_thread_share();
    g16_key_release(key);
    g16_circuit_destroy(circ);
    g16_witness_destroy(wit);
    return g16_test_finish("test_engine_devices");
}
