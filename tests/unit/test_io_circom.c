/* circom/snarkjs files: the readers on the committed fixtures (made by circom2 and
 * snarkjs, see tests/interop/make-fixtures.sh), their refusal of malformed files,
 * the snarkjs-domain NTT, and prove/verify round trips on snarkjs's own keys. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "files.h"
#include "common/error.h"
#include "io/circom.h"
#include "io/json.h"
#include "io/snarkjs.h"

#define FX G16_VECTOR_DIR "/../interop/fixtures/"

static uint8_t *slurp(const char *path, size_t *n)
{
    return g16_test_slurp(path, n, 16);
}

static const char *tmp_path(void)
{
    static char path[64];
    snprintf(path, sizeof path, "/tmp/g16_test_io_%d.bin", (int)getpid());
    return path;
}

static const char *tmpfile_with(const uint8_t *b, size_t n)
{
    FILE *fp = fopen(tmp_path(), "wb");
    if (fp && n) fwrite(b, 1, n, fp);
    if (fp) fclose(fp);
    return tmp_path();
}

static void fr_u64(g16_fr *r, uint64_t v) { g16_fr_from_u64(r, v); }

static void test_multiplier_files(void)
{
    g16_circom_r1cs r;
    g16_circom_wtns w;
    CHECK(g16_circom_r1cs_read(&r, FX "multiplier/circuit.r1cs") == G16_OK, "%s", g16_last_error());
    /* circom2 reported: 2 non-linear constraints, 6 wires; main has 1 output, 3 private inputs */
    CHECK(r.n_constraints == 2 && r.n_wires == 6, "%u constraints %u wires", r.n_constraints, r.n_wires);
    CHECK(r.n_pub_out == 1 && r.n_pub_in == 0 && r.n_prv_in == 3, "io %u %u %u", r.n_pub_out, r.n_pub_in, r.n_prv_in);
    CHECK(r.label != NULL && r.label[0] == 0, "labels");
    CHECK(g16_circom_wtns_read(&w, FX "multiplier/witness.wtns") == G16_OK, "%s", g16_last_error());
    /* inputs a = 3, b = 11, c = 7 (tests/interop/inputs/multiplier.json): out = 231, ab = 33 */
    const uint64_t want[6] = {1, 231, 3, 11, 7, 33};
    CHECK(w.n == 6, "n = %llu", (unsigned long long)w.n);
    for (int i = 0; i < 6 && w.n == 6; i++) {
        g16_fr e;
        fr_u64(&e, want[i]);
        CHECK(g16_fr_eq(&w.w[i], &e), "witness[%d]", i);
    }
    CHECK(g16_circom_r1cs_check(&r, w.w, w.n) == G16_OK, "%s", g16_last_error());
    fr_u64(&w.w[5], 34);
    CHECK(g16_circom_r1cs_check(&r, w.w, w.n) == G16_ERR_UNSATISFIED, "bad witness accepted");
    CHECK(strstr(g16_last_error(), "constraint 0 of 2") != NULL, "message: %s", g16_last_error());
    g16_circom_wtns_free(&w);
    g16_circom_r1cs_free(&r);
}

/* Every prefix of a small file fails cleanly, and so do a few targeted defects. */
static void test_malformed(void)
{
    size_t n;
    uint8_t *b = slurp(FX "multiplier/witness.wtns", &n);
    CHECK(b != NULL, "read witness");
    if (!b) return;
    g16_circom_wtns w;
    for (size_t k = 0; k < n; k++) {
        g16_status s = g16_circom_wtns_read(&w, tmpfile_with(b, k));
        CHECK(s == G16_ERR_FORMAT, "prefix %zu: status %d", k, s);
    }
    b[n] = 0;
    CHECK(g16_circom_wtns_read(&w, tmpfile_with(b, n + 1)) == G16_ERR_FORMAT, "trailing byte");
    CHECK(strstr(g16_last_error(), "after the last section"), "%s", g16_last_error());
    b[0] = 'x';
    CHECK(g16_circom_wtns_read(&w, tmpfile_with(b, n)) == G16_ERR_FORMAT, "magic");
    b[0] = 'w';
    /* section 1's size (u64 at 16) one too large */
    b[16]++;
    CHECK(g16_circom_wtns_read(&w, tmpfile_with(b, n)) == G16_ERR_FORMAT, "section size");
    CHECK(strstr(g16_last_error(), "offset"), "%s", g16_last_error());
    b[16]--;
    /* a value >= r: value 1 (bytes 108..139) set to all ones */
    memset(b + 108, 0xff, 32);
    CHECK(g16_circom_wtns_read(&w, tmpfile_with(b, n)) == G16_ERR_FORMAT, "value >= r");
    CHECK(strstr(g16_last_error(), "section 2: offset 108: value 1"), "%s", g16_last_error());
    /* the bn128 scalar field in the header (prime at bytes 28..59) */
    static const uint8_t bn_r[32] = {0x01, 0x00, 0x00, 0xf0, 0x93, 0xf5, 0xe1, 0x43, 0x91, 0x70, 0xb9, 0x79, 0x48,
                                     0xe8, 0x33, 0x28, 0x5d, 0x58, 0x81, 0x81, 0xb6, 0x45, 0x50, 0xb8, 0x29, 0xa0,
                                     0x31, 0xe1, 0x72, 0x4e, 0x64, 0x30};
    memcpy(b + 28, bn_r, 32);
    CHECK(g16_circom_wtns_read(&w, tmpfile_with(b, n)) == G16_ERR_FORMAT, "bn128");
    CHECK(strstr(g16_last_error(), "this is a curve bn128 file, but it is read as bls12381"), "%s", g16_last_error());
    free(b);

    /* zkey: a coordinate of A point 2 made >= p (top byte 0xff) is named by section */
    b = slurp(FX "multiplier/circuit.zkey", &n);
    CHECK(b != NULL, "read zkey");
    if (!b) return;
    uint32_t ns;
    memcpy(&ns, b + 8, 4);
    size_t pos = 12, a_off = 0;
    for (uint32_t i = 0; i < ns; i++) {
        uint32_t id;
        uint64_t sz;
        memcpy(&id, b + pos, 4);
        memcpy(&sz, b + pos + 4, 8);
        if (id == 5) a_off = pos + 12;
        pos += 12 + sz;
    }
    CHECK(a_off != 0, "section 5 found");
    g16_sj_pk pk;
    b[a_off + 2 * 96 + 47] = 0xff;
    CHECK(g16_sj_zkey_read(&pk, tmpfile_with(b, n)) == G16_ERR_FORMAT, "bad A point");
    CHECK(strstr(g16_last_error(), "section 5") && strstr(g16_last_error(), "point 2"), "%s", g16_last_error());
    for (size_t k = 0; k < n; k += 97) CHECK(g16_sj_zkey_read(&pk, tmpfile_with(b, k)) == G16_ERR_FORMAT, "prefix %zu", k);
    free(b);
    remove(tmp_path());
}

static void test_ntt(void)
{
    for (unsigned lg = 1; lg <= 6; lg++) {
        size_t n = (size_t)1 << lg;
        g16_fr w, t, m1, one;
        g16_sj_root(&w, lg);
        g16_fr_set_one(&one);
        g16_fr_neg(&m1, &one);
        uint64_t e = n / 2;
        g16_fr_pow(&t, &w, &e, 1);
        CHECK(g16_fr_eq(&t, &m1), "root of 2^%u is not primitive", lg);
        g16_fr x[64], y[64], ref[64];
        g16_rng rng;
        g16_rng_seed(&rng, 42 + lg);
        for (size_t i = 0; i < n; i++) fr_u64(&x[i], g16_rng_u64(&rng));
        memcpy(y, x, sizeof(g16_fr) * n);
        for (size_t j = 0; j < n; j++) { /* naive DFT */
            g16_fr_set_zero(&ref[j]);
            for (size_t i = 0; i < n; i++) {
                uint64_t ij = (uint64_t)(i * j % n);
                g16_fr_pow(&t, &w, &ij, 1);
                g16_fr_mul(&t, &t, &x[i]);
                g16_fr_add(&ref[j], &ref[j], &t);
            }
        }
        CHECK(g16_sj_ntt(y, lg, 0) == G16_OK, "ntt");
        for (size_t j = 0; j < n; j++) CHECK(g16_fr_eq(&y[j], &ref[j]), "2^%u: ntt[%zu]", lg, j);
        CHECK(g16_sj_ntt(y, lg, 1) == G16_OK, "intt");
        for (size_t j = 0; j < n; j++) CHECK(g16_fr_eq(&y[j], &x[j]), "2^%u: round trip [%zu]", lg, j);
    }
    /* 5 is the base: ω_2 = 5^((r−1)/2) = −1 says 5 is a non-residue (Euler) */
    g16_fr w2, m1;
    g16_sj_root(&w2, 1);
    g16_fr_set_one(&m1);
    g16_fr_neg(&m1, &m1);
    CHECK(g16_fr_eq(&w2, &m1), "5 is a quadratic non-residue mod r");
}

static void prove_verify(const char *c, int use_testkey)
{
    char path[512];
    g16_circom_wtns w;
    g16_sj_pk pk;
    g16_sj_vk vk = {0};
    snprintf(path, sizeof path, FX "%s/witness.wtns", c);
    CHECK(g16_circom_wtns_read(&w, path) == G16_OK, "%s", g16_last_error());
    if (use_testkey) {
        g16_circom_r1cs r;
        snprintf(path, sizeof path, FX "%s/circuit.r1cs", c);
        CHECK(g16_circom_r1cs_read(&r, path) == G16_OK, "%s", g16_last_error());
        CHECK(g16_sj_testkey(&pk, &r, "7") == G16_OK, "%s", g16_last_error());
        g16_circom_r1cs_free(&r);
        vk.n_public = pk.n_public, vk.alpha1 = pk.alpha1, vk.beta2 = pk.beta2, vk.gamma2 = pk.gamma2;
        vk.delta2 = pk.delta2;
        vk.ic = malloc((pk.n_public + 1) * sizeof *vk.ic);
        memcpy(vk.ic, pk.ic, (pk.n_public + 1) * sizeof *vk.ic);
    } else {
        snprintf(path, sizeof path, FX "%s/circuit.zkey", c);
        CHECK(g16_sj_zkey_read(&pk, path) == G16_OK, "%s", g16_last_error());
        snprintf(path, sizeof path, FX "%s/verification_key.json", c);
        CHECK(g16_sj_vk_read_json(&vk, path) == G16_OK, "%s", g16_last_error());
        CHECK(g16_sj_pk_compact(&pk) == G16_OK, "compact");
    }
    g16_fr r, s;
    fr_u64(&r, 1234567);
    fr_u64(&s, 7654321);
    g16_sj_proof proof;
    CHECK(g16_sj_prove(&proof, &pk, w.w, w.n, &r, &s) == G16_OK, "%s: %s", c, g16_last_error());
    CHECK(g16_sj_verify(&vk, &proof, w.w + 1, pk.n_public) == G16_OK, "%s (testkey %d): %s", c, use_testkey,
          g16_last_error());
    g16_fr bad = w.w[1];
    g16_fr_add(&w.w[1], &w.w[1], &g16_fr_one_mont);
    CHECK(g16_sj_verify(&vk, &proof, w.w + 1, pk.n_public) == G16_ERR_UNSATISFIED, "%s: tampered input accepted", c);
    w.w[1] = bad;
    proof.c = proof.a;
    CHECK(g16_sj_verify(&vk, &proof, w.w + 1, pk.n_public) == G16_ERR_UNSATISFIED, "%s: tampered proof accepted", c);
    g16_sj_vk_free(&vk);
    g16_sj_pk_free(&pk);
    g16_circom_wtns_free(&w);
}

static void test_json_decimal(void)
{
    const char *rdec = "52435875175126190479447740508185965837690552500527637822603658699938581184513";
    const char *rm1 = "52435875175126190479447740508185965837690552500527637822603658699938581184512";
    uint64_t l[4];
    char out[100];
    CHECK(g16_decimal_to_limbs(l, 4, g16_fr_modulus, rdec) == G16_ERR_NONCANONICAL, "r accepted");
    CHECK(g16_decimal_to_limbs(l, 4, g16_fr_modulus, rm1) == G16_OK, "r-1 refused");
    CHECK(l[0] == g16_fr_modulus[0] - 1 && l[3] == g16_fr_modulus[3], "r-1 limbs");
    g16_limbs_to_decimal(out, l, 4);
    CHECK(!strcmp(out, rm1), "r-1 printed as %s", out);
    l[0] = l[1] = l[2] = l[3] = 0;
    g16_limbs_to_decimal(out, l, 4);
    CHECK(!strcmp(out, "0"), "0 printed as %s", out);
    l[0] = 10000000000000000000ull;
    g16_limbs_to_decimal(out, l, 4);
    CHECK(!strcmp(out, "10000000000000000000"), "10^19 printed as %s", out);
    CHECK(g16_decimal_to_limbs(l, 4, g16_fr_modulus, "012") == G16_ERR_FORMAT, "leading zero");
    CHECK(g16_decimal_to_limbs(l, 4, g16_fr_modulus, "-1") == G16_ERR_FORMAT, "sign");
    json_t *j;
    const char *bad = "{\n \"a\": [1, 2,,]\n}";
    CHECK(g16_json_parse(&j, bad, strlen(bad), "t") == G16_ERR_FORMAT && !j, "bad json accepted");
    CHECK(strstr(g16_last_error(), "t: line 2 col "), "%s", g16_last_error());
    const char *dup = "{\"a\": 1, \"a\": 2}";
    CHECK(g16_json_parse(&j, dup, strlen(dup), "t") == G16_ERR_FORMAT, "duplicate member accepted");
    const char *good = "{\"a\": [\"1\", {\"b\": true}], \"n\": 3}";
    CHECK(g16_json_parse(&j, good, strlen(good), "t") == G16_OK, "%s", g16_last_error());
    const json_t *a = json_object_get(j, "a");
    CHECK(json_is_array(a) && json_array_size(a) == 2 &&
              !strcmp(json_string_value(json_array_get(a, 0)), "1"), "a");
    CHECK(json_integer_value(json_object_get(j, "n")) == 3, "n");
    json_decref(j);
    /* the writer lays a tree out as JSON.stringify(value, null, 1) */
    const char *path = tmp_path();
    CHECK(g16_json_write_file(j = json_loads(good, 0, NULL), path, 1) == G16_OK, "write");
    json_decref(j);
    size_t n = 0;
    uint8_t *txt = slurp(path, &n);
    const char *want = "{\n \"a\": [\n  \"1\",\n  {\n   \"b\": true\n  }\n ],\n \"n\": 3\n}";
    CHECK(txt && n == strlen(want) && !memcmp(txt, want, n), "written as %.*s", (int)n, txt ? (char *)txt : "");
    free(txt);
    remove(path);
}

int main(void)
{
    test_multiplier_files();
    test_malformed();
    test_ntt();
    test_json_decimal();
    const char *circuits[] = {"multiplier", "poseidon", "merkle", "range", "multi"};
    for (int i = 0; i < 5; i++) prove_verify(circuits[i], 0);
    prove_verify("multiplier", 1);
    prove_verify("multi", 1);
    prove_verify("range", 1);
    return g16_test_finish("test_io_circom");
}
