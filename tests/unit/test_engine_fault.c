/* The fault walk of issue 26 (docs/reliability.md, "Fault injection"); built only with
 * -DG16_FAULT_INJECT=ON (the ASan build of make test, the CUDA fault build of
 * bench/gpu/fault.sh).
 *
 * A small job A (two partitions, one witness read from its file) runs through the
 * engine with a job B alongside.  A dry run counts A's failure points (host
 * allocations, page-locks, device allocations, CUDA calls, kernel launches, file
 * reads, thread creations); then for every k the k-th point of A fails.  Each run
 * must end with A failed with a message (or A done with valid proofs where the
 * code absorbs that failure by design, e.g. a thread that runs its work inline
 * instead), B done with valid proofs, every tracker counter back to 0 and, under
 * LeakSanitizer, nothing leaked.
 *
 * usage: test_engine_fault [--cuda] [--every S | --budget SECONDS] [--kind K] [--no-create |
 *                          --create-only] [--wrong N] [--table]
 *   --cuda     the device stage on the CUDA backend (a GPU machine)
 *   --kind K   walk kind K only (0 host alloc .. 6 thread: common/fault.h), not all seven
 *   --no-create, --create-only   skip, or run only, the walk of g16_engine_create
 *   --every S  walk k = 1, 1+S, 1+2S, ... of each kind only (the full walk: S = 1, the default)
 *   --budget T pick S from the dry run's time so that the walk takes about T seconds
 *   --wrong N  instead of the walk: N jobs whose device stage gets one MSM bucket
 *              corrupted (g16_fault_wrong_arm; needs --cuda): each must be caught by
 *              the self-check and redone on the CPU into a valid proof
 *   --table    print one line per kind (points, runs, failed cleanly, absorbed) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "common/fault.h"
#include "engine/engine.h"
#include "engine/tracker.h" /* g16_engine_mono */

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define HAVE_LSAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define HAVE_LSAN 1
#endif
#ifdef HAVE_LSAN
#include <sanitizer/lsan_interface.h>
#endif

#define TAG_A 0xa11ce
#define N_PARTS 2

static g16_circuit *circ;
static g16_witness *wit;
static g16_key *key;
static uint8_t inputs[32 * 8];
static uint32_t n_pub;
static char dir[] = "/tmp/g16_fault_XXXXXX", wpath[256];
static int use_cuda;

/* per kind: runs whose fault fired, of those A failed with a message, A absorbed it */
static unsigned fired[G16_FAULT_KINDS], clean_fail[G16_FAULT_KINDS], absorbed[G16_FAULT_KINDS];
static unsigned bad_runs, leaks, not_fired, bad_kind[G16_FAULT_KINDS];
static uint64_t last_count[G16_FAULT_KINDS]; /* the last run's points per kind */
static uint64_t create_count[G16_FAULT_KINDS]; /* the engine start's points per kind */

static g16_engine *make(void)
{
    g16_engine_config cfg;
    g16_engine_config_default(&cfg);
    cfg.pw = 2;
    cfg.budget_bytes = use_cuda ? 8ull << 30 : 1ull << 30; /* CUDA: its staging buffers count */
    cfg.verify = 1;
    cfg.synth_threads = 2;
    cfg.device_threads = 2;
    cfg.backend = use_cuda ? G16_BACKEND_CUDA : G16_BACKEND_CPU;
    g16_engine *e = NULL;
    CHECK(g16_engine_create(&e, &cfg) == G16_OK, "create: %s", g16_last_error());
    return e;
}

static int counters_zero(g16_engine *e, uint64_t k)
{
    g16_engine_trim(e);
    g16_engine_stats s;
    g16_engine_stats_get(e, &s);
    int ok = 1;
    for (int c = 0; c < G16_CTR_COUNT; c++) {
        CHECK(s.cur[c] == 0, "k=%llu: counter %s is %lld afterwards", (unsigned long long)k,
              g16_counter_name((g16_counter)c), (long long)s.cur[c]);
        ok &= s.cur[c] == 0;
    }
    return ok;
}

static int proofs_valid(const uint8_t *proofs, unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        if (g16_verify(g16_key_vk(key), proofs + 192 * i, inputs, n_pub) != G16_OK) return 0;
    return 1;
}

/* One run with A's k-th point failing (k 0: none).  Returns A's count of points
 * (meaningful for the dry run). */
static uint64_t run_one(uint64_t k, unsigned kinds)
{
    long fails0 = g16_test_failures;
    g16_engine *e = make();
    if (!e) return 0;
    g16_partition pa[N_PARTS] = {{.circuit = circ, .witness_path = wpath}, {.circuit = circ, .witness = wit}};
    g16_partition pb[N_PARTS] = {{.circuit = circ, .witness = wit}, {.circuit = circ, .witness = wit}};
    uint64_t ida = 0, idb = 0;
    g16_fault_arm(TAG_A, k, kinds);
    g16_fault_scope(TAG_A);
    g16_status sa = g16_engine_submit(e, &ida, key, pa, N_PARTS, G16_PRIO_NORMAL);
    char submit_msg[256];
    snprintf(submit_msg, sizeof submit_msg, "%s", g16_last_error());
    g16_fault_scope(0);
    g16_status sb = g16_engine_submit(e, &idb, key, pb, N_PARTS, G16_PRIO_NORMAL);
    CHECK(sb == G16_OK, "k=%llu: B submitted: %s", (unsigned long long)k, g16_last_error());
    uint8_t proofs[N_PARTS * 192];
    g16_job_status st;
    memset(&st, 0, sizeof st);
    g16_status ra = sa;
    if (sa == G16_OK) {
        ra = g16_engine_await(e, ida, 120, proofs, sizeof proofs, &st);
        CHECK(ra != G16_ERR_TIMEOUT, "k=%llu: A ended within 120 s", (unsigned long long)k);
    } else {
        snprintf(st.message, sizeof st.message, "%s", submit_msg);
    }
    int a_ok = ra == G16_OK && proofs_valid(proofs, N_PARTS);
    uint8_t bproofs[N_PARTS * 192];
    g16_job_status sbst;
    memset(&sbst, 0, sizeof sbst);
    g16_status rb = sb ? sb : g16_engine_await(e, idb, 120, bproofs, sizeof bproofs, &sbst);
    CHECK(rb == G16_OK, "k=%llu: B done (%s: %s)", (unsigned long long)k, g16_status_str(rb),
          rb ? sbst.message : "");
    if (rb == G16_OK) {
        CHECK(proofs_valid(bproofs, N_PARTS), "k=%llu: B's proofs valid", (unsigned long long)k);
        /* a fault of A must not leave the shared device in a state that makes B's proofs wrong */
        CHECK(sbst.retries == 0, "k=%llu: B needed no CPU retry (%u)", (unsigned long long)k, sbst.retries);
    }
    /* On the CPU no fault makes a wrong proof, so none may be counted as one: a self-check
     * that ran out of memory once was (the proof redone on the CPU, the retry reported). */
    if (!use_cuda) CHECK(st.retries == 0, "k=%llu: no CPU retry (%u): %s", (unsigned long long)k, st.retries, st.message);
    int kind = g16_fault_fired();
    uint64_t points = 0;
    for (int c = 0; c < G16_FAULT_KINDS; c++) {
        last_count[c] = g16_fault_count((g16_fault_kind)c);
        points += last_count[c];
    }
    g16_fault_arm(0, 0, 0);
    if (k == 0) {
        CHECK(a_ok, "dry run: A done with valid proofs (%s)", st.message);
    } else if (kind < 0) {
        not_fired++; /* fewer points this time (a pool thread's lazy scratch): A must be fine */
        CHECK(a_ok, "k=%llu (not reached): A done with valid proofs (%s)", (unsigned long long)k, st.message);
    } else {
        fired[kind]++;
        if (ra == G16_OK) {
            CHECK(a_ok, "k=%llu (%s): A absorbed the fault and its proofs are valid", (unsigned long long)k,
                  g16_fault_kind_name((g16_fault_kind)kind));
            absorbed[kind] += a_ok;
            if (getenv("G16_FAULT_VERBOSE"))
                fprintf(stderr, "k=%llu (%s): absorbed, retries %u\n", (unsigned long long)k,
                        g16_fault_kind_name((g16_fault_kind)kind), st.retries);
        } else {
            int clear = st.message[0] != 0 && ra != G16_ERR_TIMEOUT;
            CHECK(clear, "k=%llu (%s): A failed with a message (%s: '%s')", (unsigned long long)k,
                  g16_fault_kind_name((g16_fault_kind)kind), g16_status_str(ra), st.message);
            clean_fail[kind] += clear;
            if (getenv("G16_FAULT_VERBOSE"))
                fprintf(stderr, "k=%llu (%s): A failed: %s\n", (unsigned long long)k,
                        g16_fault_kind_name((g16_fault_kind)kind), st.message);
        }
    }
    counters_zero(e, k);
    g16_engine_destroy(e, 1);
#ifdef HAVE_LSAN
    if (__lsan_do_recoverable_leak_check()) {
        leaks++;
        CHECK(0, "k=%llu (%s): leak", (unsigned long long)k,
              kind < 0 ? "none" : g16_fault_kind_name((g16_fault_kind)kind));
    }
#endif
    if (g16_test_failures != fails0) {
        bad_runs++;
        if (kind >= 0) bad_kind[kind]++;
    }
    return points;
}

/* The engine's own start: its k-th point (pools' threads, workers, the freer, the key
 * mover, their records) fails.  create fails with a message, or the engine it returns
 * proves a job; destroy frees all of it either way. */
static uint64_t create_one(uint64_t k, unsigned *failed, unsigned *worked)
{
    long fails0 = g16_test_failures;
    g16_engine_config cfg;
    g16_engine_config_default(&cfg);
    cfg.pw = 2;
    cfg.budget_bytes = use_cuda ? 8ull << 30 : 1ull << 30; /* CUDA: its staging buffers count */
    cfg.verify = 1;
    cfg.synth_threads = 2;
    cfg.device_threads = 2;
    cfg.backend = use_cuda ? G16_BACKEND_CUDA : G16_BACKEND_CPU;
    g16_engine *e = NULL;
    g16_fault_arm(TAG_A, k, G16_FAULT_ALL);
    g16_fault_scope(TAG_A);
    g16_status s = g16_engine_create(&e, &cfg);
    g16_fault_scope(0);
    int kind = g16_fault_fired();
    uint64_t points = 0;
    for (int c = 0; c < G16_FAULT_KINDS; c++) {
        if (!k) create_count[c] = g16_fault_count((g16_fault_kind)c);
        points += g16_fault_count((g16_fault_kind)c);
    }
    g16_fault_arm(0, 0, 0);
    if (s != G16_OK) {
        CHECK(k && kind >= 0 && g16_last_error()[0], "create k=%llu: failed only when a fault fired, with a message "
              "(%s)", (unsigned long long)k, g16_last_error());
        CHECK(e == NULL, "create k=%llu: no engine on failure", (unsigned long long)k);
        ++*failed;
    } else {
        g16_partition p[N_PARTS] = {{.circuit = circ, .witness = wit}, {.circuit = circ, .witness_path = wpath}};
        uint64_t id = 0;
        uint8_t proofs[N_PARTS * 192];
        g16_job_status st;
        CHECK(g16_engine_submit(e, &id, key, p, N_PARTS, G16_PRIO_NORMAL) == G16_OK, "create k=%llu: submit: %s",
              (unsigned long long)k, g16_last_error());
        g16_status r = g16_engine_await(e, id, 120, proofs, sizeof proofs, &st);
        CHECK(r == G16_OK && proofs_valid(proofs, N_PARTS), "create k=%llu: the engine proves (%s)",
              (unsigned long long)k, st.message);
        counters_zero(e, k);
        g16_engine_destroy(e, 1);
        *worked += k > 0;
    }
#ifdef HAVE_LSAN
    if (__lsan_do_recoverable_leak_check()) {
        leaks++;
        CHECK(0, "create k=%llu: leak", (unsigned long long)k);
    }
#endif
    if (g16_test_failures != fails0) bad_runs++;
    return points;
}

/* The wrong-result injector: n jobs, each with one MSM bucket of its device stage
 * corrupted (a different MSM of the proof each time). */
static void wrong_results(unsigned n)
{
    unsigned injected = 0, caught = 0, valid = 0, zero = 0;
    g16_engine *e = make();
    if (!e) return;
    for (unsigned i = 0; i < n; i++) {
        g16_partition p = {.circuit = circ, .witness = wit};
        uint64_t id = 0;
        g16_fault_wrong_arm(TAG_A + 1 + i, i % 4, 1);
        g16_fault_scope(TAG_A + 1 + i);
        CHECK(g16_engine_submit(e, &id, key, &p, 1, G16_PRIO_NORMAL) == G16_OK, "submit: %s", g16_last_error());
        g16_fault_scope(0);
        uint8_t proof[192];
        g16_job_status st;
        g16_status s = g16_engine_await(e, id, 120, proof, sizeof proof, &st);
        unsigned done = g16_fault_wrong_done();
        injected += done;
        CHECK(done == 1, "job %u: one bucket corrupted (%u)", i, done);
        CHECK(s == G16_OK, "job %u: done (%s)", i, st.message);
        caught += st.retries == 1;
        CHECK(st.retries == 1, "job %u: the self-check caught it (retries %u)", i, st.retries);
        int ok = s == G16_OK && proofs_valid(proof, 1);
        valid += ok;
        CHECK(ok, "job %u: the CPU retry's proof is valid", i);
        g16_engine_trim(e);
        g16_engine_stats s2;
        g16_engine_stats_get(e, &s2);
        int z = 1;
        for (int c = 0; c < G16_CTR_COUNT; c++) z &= s2.cur[c] == 0;
        zero += z;
        CHECK(z, "job %u: counters back to 0", i);
    }
    g16_fault_wrong_arm(0, 0, 0);
    g16_engine_destroy(e, 1);
    printf("wrong-result injector: %u jobs, faults injected %u, caught %u, retried valid %u, counters 0 %u\n", n,
           injected, caught, valid, zero);
}

int main(int argc, char **argv)
{
    unsigned every = 1, wrong = 0;
    double budget = 0;
    int table = 0, only_kind = -1, create = 1, walk = 1;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--cuda")) use_cuda = 1;
        else if (!strcmp(argv[i], "--every") && i + 1 < argc) every = (unsigned)atoi(argv[++i]);
        else if (!strcmp(argv[i], "--wrong") && i + 1 < argc) wrong = (unsigned)atoi(argv[++i]);
        else if (!strcmp(argv[i], "--budget") && i + 1 < argc) budget = atof(argv[++i]);
        else if (!strcmp(argv[i], "--table")) table = 1;
        else if (!strcmp(argv[i], "--kind") && i + 1 < argc) only_kind = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--no-create")) create = 0;
        else if (!strcmp(argv[i], "--create-only")) walk = 0;
        else {
            fprintf(stderr, "usage: %s [--cuda] [--every S | --budget SECONDS] [--kind K] [--no-create | "
                    "--create-only] [--wrong N] [--table]\n", argv[0]);
            return 2;
        }
    }
    if (!every) every = 1;
    CHECK(mkdtemp(dir) != NULL, "mkdtemp");
    snprintf(wpath, sizeof wpath, "%s/w.g16w", dir);
    g16_circuit_gen_args ga = {G16_PROFILE_POREP, 8, 2, 5};
    CHECK(g16_circuit_generate(&circ, &wit, &ga) == G16_OK, "generate: %s", g16_last_error());
    CHECK(g16_setup(&key, circ, (const uint8_t *)"fault", 5) == G16_OK, "setup: %s", g16_last_error());
    CHECK(g16_witness_save(wit, wpath) == G16_OK, "save: %s", g16_last_error());
    n_pub = g16_witness_pub(wit);
    for (uint32_t i = 0; i < n_pub; i++) g16_witness_get(inputs + 32 * i, wit, 1 + i);

    if (wrong) {
        CHECK(use_cuda, "--wrong needs --cuda (the injector is in the CUDA MSM)");
        if (use_cuda) wrong_results(wrong);
    }
    uint64_t per[G16_FAULT_KINDS] = {0};
    if (!wrong && walk) {
        /* the dry run: every point of A counted, per kind */
        double t0 = g16_engine_mono();
        uint64_t n = run_one(0, G16_FAULT_ALL);
        double dry = g16_engine_mono() - t0;
        memcpy(per, last_count, sizeof per);
        uint64_t todo = only_kind >= 0 && only_kind < G16_FAULT_KINDS ? per[only_kind] : n;
        if (budget > 0 && dry > 0 && todo > budget / dry) every = (unsigned)(todo / (budget / dry)) + 1;
        if (every > 1) printf("fault walk: every %u-th point of each kind (dry run %.3f s)\n", every, dry);
        CHECK(n > 0, "the dry run counted A's failure points");
        unsigned runs = 0;
        /* kind by kind: the order of points of different kinds varies between runs (pool
         * threads), the order within one kind far less, so every kind is walked whole */
        for (int c = 0; c < G16_FAULT_KINDS; c++)
            for (uint64_t k = 1; k <= per[c] && (only_kind < 0 || only_kind == c); k += every, runs++)
                run_one(k, 1u << c);
        printf("fault walk (%s): %llu points (", use_cuda ? "cuda" : "cpu", (unsigned long long)n);
        for (int c = 0; c < G16_FAULT_KINDS; c++)
            printf("%s%s %llu", c ? ", " : "", g16_fault_kind_name((g16_fault_kind)c), (unsigned long long)per[c]);
        printf("), %u runs, %u not reached, %u bad runs, %u leaks\n", runs, not_fired, bad_runs, leaks);
    }
    if (!wrong && create) {
        unsigned cfail = 0, cwork = 0, bad0 = bad_runs;
        uint64_t cn = create_one(0, &cfail, &cwork);
        for (uint64_t k = 1; k <= cn; k++) create_one(k, &cfail, &cwork);
        printf("engine create walk: %llu points, %u failed with a message, %u absorbed (the engine proved), "
               "%u bad runs\n", (unsigned long long)cn, cfail, cwork, bad_runs - bad0);
    }
    if (!wrong && table) {
        printf("%-13s %8s %8s %14s %9s %5s %14s\n", "kind", "points", "fired", "failed clean", "absorbed", "bad",
               "engine start");
        for (int c = 0; c < G16_FAULT_KINDS; c++)
            printf("%-13s %8llu %8u %14u %9u %5u %14llu\n", g16_fault_kind_name((g16_fault_kind)c),
                   (unsigned long long)per[c], fired[c], clean_fail[c], absorbed[c], bad_kind[c],
                   (unsigned long long)create_count[c]);
    }
    unlink(wpath);
    rmdir(dir);
    g16_key_release(key);
    g16_circuit_destroy(circ);
    g16_witness_destroy(wit);
    return g16_test_finish("test_engine_fault");
}
