/* PoSt jobs on the engine: WinningPoSt's default priority is CRITICAL and
 * WindowPoSt's HIGH; a 2 KiB WindowPoSt of three synthetic sectors (two
 * partitions, the second padded with its last sector) goes through the engine
 * with a TEST-ONLY key, and both proofs verify against the witnesses' inputs
 * (and not against each other's). */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "common/error.h"
#include "filecoin/post_job.h"
#include "g16_groth16.h"

int main(void)
{
    CHECK(g16_fc_post_priority(G16_FC_WINNING) == G16_PRIO_CRITICAL, "WinningPoSt: CRITICAL");
    CHECK(g16_fc_post_priority(G16_FC_WINDOW) == G16_PRIO_HIGH, "WindowPoSt: HIGH");

    g16_fc_post_config cfg;
    g16_fc_post_config_for(&cfg, G16_FC_WINDOW, 2048);
    uint8_t rnd[32];
    for (int i = 0; i < 32; i++) rnd[i] = (uint8_t)(0x5a ^ i);
    g16_fc_vproof v[3];
    for (int s = 0; s < 3; s++) {
        uint8_t *buf;
        size_t n;
        char seed[8] = {'s', (char)('0' + s)};
        CHECK(g16_fc_vproof_synth(&buf, &n, &cfg, 100 + s, rnd, (const uint8_t *)seed, 2) == G16_OK, "synth");
        CHECK(g16_fc_vproof_parse(&v[s], buf, n, "synthetic") == G16_OK, "synthetic parses: %s", g16_last_error());
        free(buf);
    }
    g16_fc_sector_ref *refs = NULL;
    unsigned parts = 0;
    CHECK(g16_fc_post_plan(&refs, &parts, &cfg, v, 3, rnd) == G16_OK && parts == 2, "plan: %s", g16_last_error());
    CHECK(refs && refs[2].v == &v[2] && refs[3].v == &v[2], "the short partition repeats its last sector");
    /* one partition alone (a cluster node's claim): the same layout from its own proofs */
    uint64_t first = 9, count = 9;
    CHECK(g16_fc_post_part_files(&first, &count, &cfg, 3, 0) == G16_OK && first == 0 && count == 2, "partition 0: "
          "proofs 0..1 (%llu, %llu)", (unsigned long long)first, (unsigned long long)count);
    CHECK(g16_fc_post_part_files(&first, &count, &cfg, 3, 1) == G16_OK && first == 2 && count == 1,
          "partition 1: proof 2 (%llu, %llu)", (unsigned long long)first, (unsigned long long)count);
    CHECK(g16_fc_post_part_files(&first, &count, &cfg, 3, 2) == G16_ERR_ARG &&
              strstr(g16_last_error(), "2 partitions"), "no partition 2: %s", g16_last_error());
    g16_fc_sector_ref *one = NULL;
    CHECK(g16_fc_post_plan_one(&one, &cfg, &v[2], 1, 2, rnd) == G16_OK && one && one[0].v == &v[2] &&
              one[1].v == &v[2], "partition 1 alone: %s", g16_last_error());
    free(one);
    one = NULL;
    CHECK(g16_fc_post_plan_one(&one, &cfg, v, 2, 0, rnd) == G16_OK && one &&
              !memcmp(one, refs, 2 * sizeof *one), "partition 0 alone: as the whole plan's");
    free(one);
    one = NULL;
    CHECK(g16_fc_post_plan_one(&one, &cfg, v, 3, 0, rnd) == G16_ERR_ARG && !one, "three proofs are no partition");
    uint8_t other[32];
    memcpy(other, rnd, 32);
    other[0] ^= 1;
    /* vanilla proof 2 under other randomness: its message numbers it as the PoSt's proof 2 */
    CHECK(g16_fc_post_plan_one(&one, &cfg, &v[2], 1, 2, other) == G16_ERR_UNSATISFIED && !one &&
              strstr(g16_last_error(), "vanilla proof 2 (sector 102)"), "other randomness: %s", g16_last_error());
    const g16_circuit *c = NULL;
    g16_key *key = NULL;
    CHECK(g16_fc_post_circuit_cached(&c, &cfg) == G16_OK, "matrices");
    CHECK(c && g16_setup(&key, c, (const uint8_t *)"job", 3) == G16_OK, "TEST-ONLY setup: %s", g16_last_error());
    g16_engine_config ecfg;
    g16_engine_config_default(&ecfg);
    ecfg.backend = G16_BACKEND_CPU;
    g16_engine *e = NULL;
    CHECK(g16_engine_create(&e, &ecfg) == G16_OK, "engine");
    g16_fc_post_job *job = NULL;
    if (e && key && refs) {
        CHECK(g16_fc_post_submit(&job, e, key, &cfg, refs, parts, -1) == G16_OK, "submit: %s", g16_last_error());
        if (job) {
            g16_job_status st;
            CHECK(g16_engine_job_status(e, &st, job->id) == G16_OK && st.priority == G16_PRIO_HIGH,
                  "the job runs at HIGH");
            uint8_t proofs[2 * G16_PROOF_BYTES];
            CHECK(g16_engine_await(e, job->id, -1, proofs, sizeof proofs, NULL) == G16_OK, "await: %s",
                  g16_last_error());
            uint32_t np = c->n_pub;
            uint8_t *in = malloc(2 * (size_t)np * 32);
            /* the inputs from the vanilla proofs equal those of the witness the engine wrote */
            for (int p = 0; p < 2; p++) {
                CHECK(g16_fc_post_job_inputs(job, (unsigned)p, &in[(size_t)p * np * 32]) == G16_OK, "inputs: %s",
                      g16_last_error());
                g16_witness *w = NULL;
                CHECK(g16_fc_post_witness(&w, &cfg, &refs[(size_t)p * 2], 2) == G16_OK, "witness %d", p);
                int same = w != NULL;
                for (uint32_t i = 1; w && i <= np; i++) {
                    uint8_t b[32];
                    g16_witness_get(b, w, i);
                    same &= !memcmp(b, &in[((size_t)p * np + i - 1) * 32], 32);
                }
                CHECK(same, "partition %d: the job's inputs are its witness's", p);
                g16_witness_destroy(w);
            }
            CHECK(g16_fc_post_job_witness_s(job) > 0, "the engine wrote the witnesses (%.6f s)",
                  g16_fc_post_job_witness_s(job));
            CHECK(g16_fc_post_job_inputs(job, 2, in) == G16_ERR_ARG, "no partition 2");
            CHECK(g16_verify(g16_key_vk(key), proofs, in, np) == G16_OK, "partition 0 verifies");
            CHECK(g16_verify(g16_key_vk(key), proofs + G16_PROOF_BYTES, in + (size_t)np * 32, np) == G16_OK,
                  "partition 1 verifies");
            CHECK(g16_verify(g16_key_vk(key), proofs, in + (size_t)np * 32, np) == G16_ERR_UNSATISFIED,
                  "partition 0's proof does not verify partition 1's inputs");
            free(in);
        }
        g16_fc_post_job *j2 = NULL;
        CHECK(g16_fc_post_submit(&j2, e, key, &cfg, refs, parts, G16_PRIO_LOW + 1) == G16_ERR_ARG && !j2,
              "a priority past LOW is refused");
        /* a producer that fails (a proof without the inclusion proofs its circuit sector asks
         * for) fails the job at synthesis with its message, and no proof comes out */
        g16_fc_sector_ref bad[4];
        memcpy(bad, refs, sizeof bad);
        bad[1].first = 1000;
        CHECK(g16_fc_post_submit(&j2, e, key, &cfg, bad, parts, -1) == G16_OK && j2, "submit (bad): %s",
              g16_last_error());
        if (j2) {
            uint8_t pr[2 * G16_PROOF_BYTES];
            g16_status ast = g16_engine_await(e, j2->id, -1, pr, sizeof pr, NULL);
            const char *msg = g16_last_error();
            CHECK(ast != G16_OK && strstr(msg, "partition 0's witness") && strstr(msg, "inclusion proofs"),
                  "a failing producer fails the job: %s", msg);
            g16_fc_post_job_free(j2);
        }
    }
    g16_engine_destroy(e, 1);
    g16_fc_post_job_free(job);
    g16_key_release(key);
    g16_fc_post_cache_clear();
    free(refs);
    for (int s = 0; s < 3; s++) g16_fc_vproof_free(&v[s]);
    return g16_test_finish("test_filecoin_job");
}
