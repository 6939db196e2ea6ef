/* Partitions whose witness the engine reads from a file (g16_partition.witness_path): the
 * proofs are those of the in-memory witness (valid, the self-check passes with the inputs kept
 * from the file), the header is checked at submit (a witness of another circuit is refused
 * there), a file with a bad value fails the job when it is read, naming the file, and every
 * tracker counter is back to 0 afterwards (the witness's charge included). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "engine/engine.h"

static g16_circuit *circ, *other;
static g16_witness *wit, *other_wit;
static g16_key *key;
static uint8_t inputs[32 * 8];
static uint32_t n_pub;
static char dir[] = "/tmp/g16_wpath_XXXXXX", wpath[256], opath[256], bad[256];

static g16_engine *make(void)
{
    g16_engine_config cfg;
    g16_engine_config_default(&cfg);
    cfg.pw = 2;
    cfg.budget_bytes = 1ull << 30;
    cfg.verify = 1;
    cfg.synth_threads = 1;
    cfg.device_threads = 1;
    cfg.backend = G16_BACKEND_CPU;
    g16_engine *e = NULL;
    CHECK(g16_engine_create(&e, &cfg) == G16_OK, "create: %s", g16_last_error());
    return e;
}

static void check_zero(g16_engine *e, const char *when)
{
    g16_engine_trim(e);
    g16_engine_stats s;
    g16_engine_stats_get(e, &s);
    for (int c = 0; c < G16_CTR_COUNT; c++)
        CHECK(s.cur[c] == 0, "%s: counter %s is %lld", when, g16_counter_name((g16_counter)c), (long long)s.cur[c]);
}

static void test_proofs(void)
{
    g16_engine *e = make();
    g16_partition parts[4];
    for (int i = 0; i < 4; i++)
        parts[i] = i % 2 ? (g16_partition){.circuit = circ, .witness_path = wpath}
                         : (g16_partition){.circuit = circ, .witness = wit};
    uint64_t id = 0;
    CHECK(g16_engine_submit(e, &id, key, parts, 4, G16_PRIO_NORMAL) == G16_OK, "submit: %s", g16_last_error());
    uint8_t proofs[4 * 192];
    g16_job_status st;
    CHECK(g16_engine_await(e, id, -1, proofs, sizeof proofs, &st) == G16_OK, "await: %s", g16_last_error());
    CHECK(st.retries == 0, "no self-check failed (%u retries)", st.retries);
    for (int i = 0; i < 4; i++)
        CHECK(g16_verify(g16_key_vk(key), proofs + 192 * i, inputs, n_pub) == G16_OK, "proof %d verifies", i);
    g16_engine_stats s;
    g16_engine_stats_get(e, &s);
    CHECK(s.peak[G16_CTR_WITNESS_BYTES] > 0, "the file's witness was charged");
    check_zero(e, "after the job");
    g16_engine_destroy(e, 1);
}

static void test_refused_at_submit(void)
{
    g16_engine *e = make();
    g16_partition p = {.circuit = circ, .witness_path = opath};
    uint64_t id = 0;
    CHECK(g16_engine_submit(e, &id, key, &p, 1, G16_PRIO_NORMAL) == G16_ERR_ARG, "another circuit's witness refused");
    CHECK(strstr(g16_last_error(), "witness of") != NULL, "the message says why: %s", g16_last_error());
    p.witness_path = "/nonexistent/w.g16w";
    CHECK(g16_engine_submit(e, &id, key, &p, 1, G16_PRIO_NORMAL) == G16_ERR_ARG, "a missing file refused");
    CHECK(strstr(g16_last_error(), "/nonexistent/w.g16w") != NULL, "names the file: %s", g16_last_error());
    check_zero(e, "after the refusals");
    g16_engine_destroy(e, 1);
}

static void test_bad_values(void)
{
    /* a witness whose header is right (so submit takes it) but whose value 3 is >= r: the
     * partition fails when the engine reads the file, and the message names it */
    FILE *f = fopen(bad, "wb");
    FILE *g = fopen(wpath, "rb");
    char buf[65536];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, g)) > 0) fwrite(buf, 1, n, f);
    fclose(g);
    fseek(f, 32 + 32 * 3, SEEK_SET);
    memset(buf, 0xff, 32);
    fwrite(buf, 1, 32, f);
    fclose(f);
    g16_engine *e = make();
    g16_partition p[2] = {{.circuit = circ, .witness_path = wpath}, {.circuit = circ, .witness_path = bad}};
    uint64_t id = 0;
    CHECK(g16_engine_submit(e, &id, key, p, 2, G16_PRIO_NORMAL) == G16_OK, "submit: %s", g16_last_error());
    uint8_t proofs[2 * 192];
    g16_job_status st;
    g16_status s2 = g16_engine_await(e, id, -1, proofs, sizeof proofs, &st);
    CHECK(s2 != G16_OK && st.state == G16_JOB_FAILED, "a bad value fails the job (%s)", g16_status_str(s2));
    CHECK(strstr(st.message, bad) != NULL, "the message names the file: %s", st.message);
    check_zero(e, "after the failed job");
    g16_engine_destroy(e, 1);
}

int main(void)
{
    CHECK(mkdtemp(dir) != NULL, "mkdtemp");
    snprintf(wpath, sizeof wpath, "%s/w.g16w", dir);
    snprintf(opath, sizeof opath, "%s/o.g16w", dir);
    snprintf(bad, sizeof bad, "%s/bad.g16w", dir);
    g16_circuit_gen_args ga = {G16_PROFILE_POREP, 8, 2, 5}, gb = {G16_PROFILE_POREP, 9, 2, 6};
    CHECK(g16_circuit_generate(&circ, &wit, &ga) == G16_OK, "generate: %s", g16_last_error());
    CHECK(g16_circuit_generate(&other, &other_wit, &gb) == G16_OK, "generate: %s", g16_last_error());
    CHECK(g16_setup(&key, circ, (const uint8_t *)"wpath", 5) == G16_OK, "setup: %s", g16_last_error());
    CHECK(g16_witness_save(wit, wpath) == G16_OK, "save: %s", g16_last_error());
    CHECK(g16_witness_save(other_wit, opath) == G16_OK, "save: %s", g16_last_error());
    n_pub = g16_witness_pub(wit);
    for (uint32_t i = 0; i < n_pub; i++) g16_witness_get(inputs + 32 * i, wit, 1 + i);
    uint8_t from_file[32 * 8];
    CHECK(g16_witness_inputs(from_file, n_pub, wpath) == G16_OK && !memcmp(from_file, inputs, 32 * n_pub),
          "g16_witness_inputs reads the file's public inputs");
    CHECK(g16_witness_inputs(from_file, n_pub + 1, wpath) == G16_ERR_FORMAT, "another input count is refused");
    test_proofs();
    test_refused_at_submit();
    test_bad_values();
    unlink(wpath);
    unlink(opath);
    unlink(bad);
    rmdir(dir);
    g16_key_release(key);
    g16_circuit_destroy(circ);
    g16_circuit_destroy(other);
    g16_witness_destroy(wit);
    g16_witness_destroy(other_wit);
    return g16_test_finish("test_engine_witness_path");
}
