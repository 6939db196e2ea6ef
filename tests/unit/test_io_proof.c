/* Proof files: round trip of k proofs, truncation at every offset, bad points
 * named by proof, point and offset. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "test_groth16_util.h"

static int msg_has(const char *s) { return strstr(g16_last_error(), s) != NULL; }

int main(void)
{
    g16_rng rng;
    g16_rng_seed(&rng, g16_test_seed(92));
    char dir[64], path[128];
    snprintf(dir, sizeof dir, "/tmp/g16_proof_testXXXXXX");
    CHECK(mkdtemp(dir) != NULL, "mkdtemp");
    snprintf(path, sizeof path, "%s/p.bin", dir);

    tg_circ t;
    tg_make(&t, &rng, 1, 12);
    g16_density d;
    tg_density(&d, &t);
    g16_key *key;
    CHECK(g16_setup(&key, &t.c, (const uint8_t *)"pf", 2) == G16_OK, "setup");
    enum { K = 3 };
    uint8_t proofs[K * 192];
    for (int i = 0; i < K; i++) CHECK(tg_prove(proofs + 192 * i, key, &t, &d, NULL) == G16_OK, "prove");

    uint8_t *back;
    size_t k;
    CHECK(g16_proof_file_write(path, proofs, K) == G16_OK, "write");
    CHECK(g16_proof_file_read(&back, &k, path, 1) == G16_OK, "read: %s", g16_last_error());
    CHECK(k == K && !memcmp(back, proofs, sizeof proofs), "round trip");
    free(back);

    /* every truncation is a format error naming the offset of the cut proof */
    int bad = 0;
    for (size_t cut = 0; cut < sizeof proofs; cut++) {
        if (cut % 192 == 0 && cut) continue; /* whole proofs: valid */
        CHECK(g16_proof_file_write(path, proofs, 0) == G16_OK, "truncate");
        FILE *f = fopen(path, "wb");
        fwrite(proofs, 1, cut, f);
        fclose(f);
        char want[48];
        snprintf(want, sizeof want, "offset %zu", cut - cut % 192);
        g16_status st = g16_proof_file_read(&back, &k, path, 1);
        if (st != G16_ERR_FORMAT || !msg_has(path) || !msg_has(want)) bad++;
        if (st == G16_OK) free(back);
    }
    CHECK(bad == 0, "%d truncations misreported", bad);

    /* a bad point in proof 1: B's flag bits cleared (uncompressed marker) */
    uint8_t t2[K * 192];
    memcpy(t2, proofs, sizeof t2);
    t2[192 + 48] &= 0x7f;
    CHECK(g16_proof_file_write(path, t2, K) == G16_OK, "write");
    CHECK(g16_proof_file_read(&back, &k, path, 1) == G16_ERR_FLAGS && msg_has("proof 1") &&
              msg_has("point B") && msg_has("offset 240"),
          "bad B: %s", g16_last_error());
    CHECK(g16_proof_file_read(&back, &k, path, 0) == G16_OK && k == K, "unvalidated read");
    free(back);
    /* C of proof 2 off the curve or outside the subgroup: some x with no point */
    memcpy(t2, proofs, sizeof t2);
    int found = 0;
    for (int tries = 0; tries < 64 && !found; tries++) {
        t2[2 * 192 + 144 + 47] ^= (uint8_t)(tries + 1);
        g16_status st = g16_proof_check(t2 + 2 * 192, 2, 384, NULL);
        if (st == G16_ERR_NOT_ON_CURVE || st == G16_ERR_NOT_IN_SUBGROUP) {
            found = 1;
            CHECK(msg_has("point C") && msg_has("offset 528"), "C message: %s", g16_last_error());
        }
        t2[2 * 192 + 144 + 47] ^= (uint8_t)(tries + 1);
    }
    CHECK(found, "no rejected C found");
    /* missing file, empty file */
    CHECK(g16_proof_file_read(&back, &k, "/nonexistent/p", 1) == G16_ERR_IO, "missing");
    FILE *f = fopen(path, "wb");
    fclose(f);
    CHECK(g16_proof_file_read(&back, &k, path, 1) == G16_ERR_FORMAT, "empty");

    unlink(path);
    rmdir(dir);
    g16_key_release(key);
    tg_density_free(&d);
    tg_free(&t);
    return g16_test_finish("io_proof");
}
