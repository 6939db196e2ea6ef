/* Groth16 end to end on random circuits: setup, split-API proving, verification,
 * and the rejections (every proof byte, every input, another key, batches). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_groth16_util.h"

static void rs_bytes(uint8_t rs[64], uint64_t k)
{
    memset(rs, 0, 64);
    for (int i = 0; i < 8; i++) {
        rs[31 - i] = (uint8_t)((k * 0x9e3779b97f4a7c15ull) >> (8 * i));
        rs[63 - i] = (uint8_t)((k * 0xc2b2ae3d27d4eb4full) >> (8 * i));
    }
}

static void test_sizes(g16_rng *rng)
{
    static const struct { uint32_t pub; uint64_t nc; } cases[] = {
        {0, 1}, {0, 2}, {1, 1}, {2, 3}, {0, 17}, {3, 60}, {5, 200}, {1, 1000}};
    for (size_t ci = 0; ci < sizeof cases / sizeof cases[0]; ci++) {
        tg_circ t;
        tg_make(&t, rng, cases[ci].pub, cases[ci].nc);
        g16_density d;
        tg_density(&d, &t);
        g16_key *key;
        uint8_t seed[8] = {(uint8_t)ci, 1, 2, 3};
        g16_status st = g16_setup(&key, &t.c, seed, sizeof seed);
        CHECK(st == G16_OK, "setup case %zu: %s", ci, g16_last_error());
        if (st) continue;
        uint8_t proof[192], proof2[192], rs[64];
        rs_bytes(rs, ci + 1);
        st = tg_prove(proof, key, &t, &d, rs);
        CHECK(st == G16_OK, "prove case %zu: %s", ci, g16_last_error());
        uint8_t *x = tg_inputs(&t);
        st = g16_verify(g16_key_vk(key), proof, x, t.c.n_pub);
        CHECK(st == G16_OK, "verify case %zu (pub %u, n %llu): %s", ci, cases[ci].pub,
              (unsigned long long)cases[ci].nc, g16_last_error());
        /* deterministic for fixed r, s; different for fresh randomness, still valid */
        CHECK(tg_prove(proof2, key, &t, &d, rs) == G16_OK, "reprove");
        CHECK(!memcmp(proof, proof2, 192), "case %zu: proof not deterministic", ci);
        CHECK(tg_prove(proof2, key, &t, &d, NULL) == G16_OK, "random prove");
        CHECK(memcmp(proof, proof2, 192) != 0, "case %zu: random r, s gave the same proof", ci);
        CHECK(g16_verify(g16_key_vk(key), proof2, x, t.c.n_pub) == G16_OK, "random proof: %s",
              g16_last_error());
        /* another key for the same circuit must not accept it */
        g16_key *other;
        seed[7] = 99;
        CHECK(g16_setup(&other, &t.c, seed, sizeof seed) == G16_OK, "setup 2");
        CHECK(g16_verify(g16_key_vk(other), proof, x, t.c.n_pub) == G16_ERR_UNSATISFIED,
              "case %zu: other key accepted the proof", ci);
        g16_key_release(other);
        /* each public input changed */
        for (uint32_t i = 0; i < t.c.n_pub; i++) {
            x[32 * i + 31] ^= 1;
            CHECK(g16_verify(g16_key_vk(key), proof, x, t.c.n_pub) == G16_ERR_UNSATISFIED,
                  "case %zu: input %u changed, still verifies", ci, i);
            x[32 * i + 31] ^= 1;
        }
        CHECK(g16_verify(g16_key_vk(key), proof, x, t.c.n_pub + 1) == G16_ERR_ARG,
              "wrong input count accepted");
        free(x);
        g16_key_release(key);
        tg_density_free(&d);
        tg_free(&t);
    }
}

/* Every byte of one proof, flipped (one bit), low and high: never valid. */
static void test_tamper(g16_rng *rng)
{
    tg_circ t;
    tg_make(&t, rng, 2, 40);
    g16_density d;
    tg_density(&d, &t);
    g16_key *key;
    CHECK(g16_setup(&key, &t.c, (const uint8_t *)"tamper", 6) == G16_OK, "setup");
    uint8_t proof[192], rs[64];
    rs_bytes(rs, 7);
    CHECK(tg_prove(proof, key, &t, &d, rs) == G16_OK, "prove: %s", g16_last_error());
    uint8_t *x = tg_inputs(&t);
    CHECK(g16_verify(g16_key_vk(key), proof, x, 2) == G16_OK, "untampered");
    int bad = 0;
    for (int i = 0; i < 192; i++) {
        for (int bit = 0; bit < 8; bit += 7) {
            proof[i] ^= (uint8_t)(1 << bit);
            if (g16_verify(g16_key_vk(key), proof, x, 2) == G16_OK) bad++;
            proof[i] ^= (uint8_t)(1 << bit);
        }
    }
    CHECK(bad == 0, "%d tampered proofs verified", bad);
    /* batch: valid batch accepted, one bad proof rejects the batch */
    enum { K = 4 };
    uint8_t proofs[K * 192], *xs = malloc(K * 64);
    for (int k = 0; k < K; k++) {
        CHECK(tg_prove(proofs + 192 * k, key, &t, &d, NULL) == G16_OK, "batch prove");
        memcpy(xs + 64 * k, x, 64);
    }
    CHECK(g16_verify_batch(g16_key_vk(key), proofs, K, xs, 2) == G16_OK, "batch: %s",
          g16_last_error());
    memcpy(proofs + 192 * 2, proofs + 192 * 1, 192); /* still valid: a repeat */
    CHECK(g16_verify_batch(g16_key_vk(key), proofs, K, xs, 2) == G16_OK, "batch with repeat");
    xs[64 * 3 + 31] ^= 1;
    CHECK(g16_verify_batch(g16_key_vk(key), proofs, K, xs, 2) == G16_ERR_UNSATISFIED,
          "batch with a wrong input accepted");
    xs[64 * 3 + 31] ^= 1;
    /* swap C of two proofs: each is wrong, the pair is wrong */
    uint8_t tmp[48];
    memcpy(tmp, proofs + 144, 48);
    memcpy(proofs + 144, proofs + 192 * 3 + 144, 48);
    memcpy(proofs + 192 * 3 + 144, tmp, 48);
    CHECK(g16_verify_batch(g16_key_vk(key), proofs, K, xs, 2) == G16_ERR_UNSATISFIED,
          "batch with swapped C accepted");
    free(xs);
    free(x);
    g16_key_release(key);
    tg_density_free(&d);
    tg_free(&t);
}

/* Unsatisfied witness: the proof must not verify (the prover does not check). */
static void test_unsatisfied(g16_rng *rng)
{
    tg_circ t;
    tg_make(&t, rng, 1, 30);
    g16_density d;
    tg_density(&d, &t);
    g16_key *key;
    CHECK(g16_setup(&key, &t.c, (const uint8_t *)"u", 1) == G16_OK, "setup");
    g16_fr_add(&t.z[5], &t.z[5], &g16_fr_one_mont);
    uint8_t proof[192];
    CHECK(tg_prove(proof, key, &t, &d, NULL) == G16_OK, "prove");
    uint8_t *x = tg_inputs(&t);
    CHECK(g16_verify(g16_key_vk(key), proof, x, 1) == G16_ERR_UNSATISFIED,
          "proof of an unsatisfied witness verified");
    free(x);
    g16_key_release(key);
    tg_density_free(&d);
    tg_free(&t);
}

int main(void)
{
    g16_rng rng;
    g16_rng_seed(&rng, g16_test_seed(16));
    test_sizes(&rng);
    test_tamper(&rng);
    test_unsatisfied(&rng);
    return g16_test_finish("groth16_prove");
}
