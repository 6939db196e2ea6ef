/* The curve of a snarkjs file and the one dispatch (io/snarkjs_files.h): every kind of
 * committed fixture of both curves is recognised; public.json and a JSON without
 * "curve" say nothing; a mix of curves is refused naming both files; a file whose
 * prime is neither curve's is refused with its offset; a bls12381 reader meets a
 * bn128 file with a message naming the curve. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "files.h"
#include "common/error.h"
#include "io/circom.h"
#include "io/snarkjs_files.h"

#define FX G16_VECTOR_DIR "/../interop/fixtures/"

static const char *tmp_copy(const char *from, const char *suffix, size_t flip_at)
{
    static char path[96];
    snprintf(path, sizeof path, "/tmp/g16_test_sj_curve_%d.%s", (int)getpid(), suffix);
    size_t n = 0;
    uint8_t *b = g16_test_slurp(from, &n, 16);
    if (b && flip_at < n) b[flip_at] ^= 0x40;
    FILE *fp = fopen(path, "wb");
    if (fp && b) fwrite(b, 1, n, fp);
    if (fp) fclose(fp);
    free(b);
    return path;
}

static void expect_curve(const char *path, g16_curve_id want, int want_known)
{
    g16_curve_id c = (g16_curve_id)0;
    int known = -1;
    g16_status s = g16_sj_file_curve(path, &c, &known);
    CHECK(s == G16_OK, "%s: %s", path, g16_last_error());
    CHECK(known == want_known, "%s: known %d, want %d", path, known, want_known);
    if (want_known) CHECK(c == want, "%s: curve %d, want %d", path, (int)c, (int)want);
}

static void test_fixtures(void)
{
    static const char *const kinds[] = {"circuit.r1cs", "witness.wtns", "circuit.zkey", "verification_key.json",
                                        "proof.json"};
    for (int k = 0; k < 5; k++) {
        char p[256];
        snprintf(p, sizeof p, FX "multi/%s", kinds[k]);
        expect_curve(p, G16_CURVE_ID_BLS12_381, 1);
        snprintf(p, sizeof p, FX "bn128/multi/%s", kinds[k]);
        expect_curve(p, G16_CURVE_ID_BN254, 1);
    }
    expect_curve(FX "bn128/multi/public.json", G16_CURVE_ID_BN254, 0);
    /* the kind by magic when the name does not tell */
    expect_curve(tmp_copy(FX "bn128/poseidon/circuit.zkey", "key", (size_t)-1), G16_CURVE_ID_BN254, 1);
    CHECK(!strcmp(g16_sj_curve_name(G16_CURVE_ID_BN254), "bn128") &&
              !strcmp(g16_sj_curve_name(G16_CURVE_ID_BLS12_381), "bls12381"), "curve names");
}

static void test_pick(void)
{
    const g16_sj_ops *ops = NULL;
    const char *bls[] = {FX "multi/circuit.zkey", FX "multi/witness.wtns", NULL};
    CHECK(g16_sj_pick(&ops, bls, 3) == G16_OK && ops && ops->curve == G16_CURVE_ID_BLS12_381, "%s", g16_last_error());
    const char *mix[] = {FX "bn128/multi/circuit.zkey", FX "multi/witness.wtns"};
    CHECK(g16_sj_pick(&ops, mix, 2) == G16_ERR_FORMAT, "a mix of curves was accepted");
    CHECK(strstr(g16_last_error(), "multi/witness.wtns is a bls12381 file but") &&
              strstr(g16_last_error(), "bn128/multi/circuit.zkey is bn128"), "%s", g16_last_error());
    const char *bn[] = {FX "bn128/multi/verification_key.json", FX "bn128/multi/proof.json",
                        FX "bn128/multi/public.json"};
    g16_status s = g16_sj_pick(&ops, bn, 3);
#ifdef G16_TEST_BN254_SNARKJS
    CHECK(s == G16_OK && ops->curve == G16_CURVE_ID_BN254, "%s", g16_last_error());
#else
    CHECK(s == G16_ERR_ARG && strstr(g16_last_error(), "built without the BN254 snarkjs prover"), "%s",
          g16_last_error());
#endif
}

static void test_bad(void)
{
    g16_curve_id c;
    int known;
    /* the r1cs prime's top byte changed: neither curve's (header section 1 comes after
     * section 2 in circom's files, so find it by reading the table) */
    size_t n = 0;
    uint8_t *b = g16_test_slurp(FX "bn128/multiplier/circuit.r1cs", &n, 16);
    size_t pos = 12, prime_end = 0;
    for (uint32_t i = 0; b && i < 3 && pos + 12 <= n; i++) {
        uint32_t id;
        uint64_t sz;
        memcpy(&id, b + pos, 4);
        memcpy(&sz, b + pos + 4, 8);
        if (id == 1) prime_end = pos + 12 + 4 + 31;
        pos += 12 + sz;
    }
    free(b);
    CHECK(prime_end != 0, "no header section");
    const char *p = tmp_copy(FX "bn128/multiplier/circuit.r1cs", "r1cs", prime_end);
    CHECK(g16_sj_file_curve(p, &c, &known) == G16_ERR_FORMAT, "an unknown prime was accepted");
    char want[64];
    snprintf(want, sizeof want, "offset %zu: the 32-byte prime is neither", prime_end - 31);
    CHECK(strstr(g16_last_error(), want), "%s (want \"%s\")", g16_last_error(), want);
    unlink(p);
    /* a JSON curve of neither */
    FILE *fp = fopen(p = "/tmp/g16_test_sj_curve_vk.json", "w");
    if (fp) fputs("{\"curve\": \"secp256k1\"}", fp), fclose(fp);
    CHECK(g16_sj_file_curve(p, &c, &known) == G16_ERR_FORMAT && strstr(g16_last_error(), "\"secp256k1\" is not supported"),
          "%s", g16_last_error());
    unlink(p);
    /* the bls12381 reader given a bn128 file names the curve */
    g16_circom_wtns w;
    CHECK(g16_circom_wtns_read(&w, FX "bn128/multiplier/witness.wtns") == G16_ERR_FORMAT, "bn128 witness read as bls12381");
    CHECK(strstr(g16_last_error(), "this is a curve bn128 file, but it is read as bls12381"), "%s", g16_last_error());
    CHECK(g16_sj_file_curve("/nonexistent/x.zkey", &c, &known) == G16_ERR_IO, "missing file");
}

int main(void)
{
    test_fixtures();
    test_pick();
    test_bad();
    return g16_test_finish("io_sj_curve");
}
