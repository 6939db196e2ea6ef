/* The snarkjs prover through a backend's ops table (g16_sj_prove_on, groth16/snarkjs_prove.h)
 * against the direct CPU code, on the committed fixtures: with the same r and s the proofs
 * are the same points, both verify, and a table of the other curve is refused.  Compiled
 * twice: as test_io_sjbackend (BLS12-381, where the table runs the MSMs and the
 * transforms stay on the host: its roots come from 7) and as test_bn254_io_sjbackend
 * (BN254, where the table runs the transforms too: both roots come from 5). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "common/error.h"
#include "groth16/ops.h"
#include "groth16/snarkjs_prove.h"
#include "io/circom.h"
#include "io/snarkjs.h"
#include "ntt/ntt.h"

#if G16_CURVE_BN254
#define FX G16_VECTOR_DIR "/../../interop/fixtures/bn128/"
#define OTHER_CURVE G16_CURVE_ID_BLS12_381
#else
#define FX G16_VECTOR_DIR "/../interop/fixtures/"
#define OTHER_CURVE G16_CURVE_ID_BN254
#endif

static int proofs_equal(const g16_sj_proof *x, const g16_sj_proof *y)
{
    return !memcmp(&x->a, &y->a, sizeof x->a) && !memcmp(&x->b, &y->b, sizeof x->b) &&
           !memcmp(&x->c, &y->c, sizeof x->c);
}

static void prove_paths(const char *c)
{
    char path[512];
    g16_circom_wtns w;
    g16_sj_pk pk;
    g16_sj_vk vk = {0};
    snprintf(path, sizeof path, FX "%s/witness.wtns", c);
    if (g16_circom_wtns_read(&w, path) != G16_OK) {
        CHECK(0, "%s", g16_last_error());
        return;
    }
    snprintf(path, sizeof path, FX "%s/circuit.zkey", c);
    CHECK(g16_sj_zkey_read(&pk, path) == G16_OK, "%s", g16_last_error());
    CHECK(g16_sj_pk_compact(&pk) == G16_OK, "compact");
    snprintf(path, sizeof path, FX "%s/verification_key.json", c);
    CHECK(g16_sj_vk_read_json(&vk, path) == G16_OK, "%s", g16_last_error());

    g16_fr r, s;
    g16_fr_from_u64(&r, 1234567);
    g16_fr_from_u64(&s, 7654321);
    g16_sj_proof direct, table;
    memset(&table, 0xA5, sizeof table);
    CHECK(g16_sj_prove(&direct, &pk, w.w, w.n, &r, &s) == G16_OK, "%s: %s", c, g16_last_error());
    CHECK(g16_sj_prove_on(g16_cpu_backend(), &table, &pk, w.w, w.n, &r, &s) == G16_OK, "%s: %s", c,
          g16_last_error());
    CHECK(proofs_equal(&direct, &table), "%s: the ops-table proof differs from the direct one", c);
    CHECK(g16_sj_verify(&vk, &table, w.w + 1, pk.n_public) == G16_OK, "%s: %s", c, g16_last_error());

    /* a table that says it computes over the other curve is refused before any work */
    g16_backend other = *g16_cpu_backend();
    other.curve = OTHER_CURVE;
    CHECK(g16_sj_prove_on(&other, &table, &pk, w.w, w.n, &r, &s) == G16_ERR_ARG, "%s: other curve's table taken", c);
    CHECK(strstr(g16_last_error(), "computes over") != NULL, "%s: message '%s'", c, g16_last_error());

    g16_sj_vk_free(&vk);
    g16_sj_pk_free(&pk);
    g16_circom_wtns_free(&w);
}

/* The quotient through the table, and with no table (the CPU NTT directly), equals the
 * host one on random vectors, at sizes up to 2^12. */
static void quotient_paths(void)
{
    g16_rng rng;
    g16_rng_seed(&rng, g16_test_seed(11));
    for (unsigned lg = 1; lg <= 12; lg += 11) {
        size_t n = (size_t)1 << lg;
        g16_fr *v = malloc(11 * n * sizeof *v);
        if (!v) {
            CHECK(0, "out of memory");
            return;
        }
        for (size_t i = 0; i < 3 * n; i++) g16_fr_from_u64(&v[i], g16_rng_u64(&rng));
        memcpy(v + 3 * n, v, 3 * n * sizeof *v);
        memcpy(v + 8 * n, v, 3 * n * sizeof *v);
        CHECK(g16_sj_odd_quotient(v + 6 * n, v, v + n, v + 2 * n, lg) == G16_OK, "host quotient");
        CHECK(g16_sj_odd_quotient_on(g16_cpu_backend(), v + 7 * n, v + 3 * n, v + 4 * n, v + 5 * n, lg) == G16_OK,
              "table quotient: %s", g16_last_error());
        CHECK(!memcmp(v + 6 * n, v + 7 * n, n * sizeof *v), "2^%u: the table's quotient differs", lg);
        CHECK(g16_sj_odd_quotient_on(NULL, v + 3 * n, v + 8 * n, v + 9 * n, v + 10 * n, lg) == G16_OK,
              "quotient without a table: %s", g16_last_error());
        CHECK(!memcmp(v + 6 * n, v + 3 * n, n * sizeof *v), "2^%u: the quotient without a table differs", lg);
        free(v);
    }
    /* which path that was: the NTT layer's roots are snarkjs's on BN254 only */
    g16_fr a, b;
    g16_fr_root_of_unity(&a, 12);
    g16_sj_root(&b, 12);
#if G16_CURVE_BN254
    CHECK(g16_fr_eq(&a, &b), "BN254: the NTT layer's 2^12-th root is not snarkjs's (the table path is not taken)");
#else
    CHECK(!g16_fr_eq(&a, &b), "BLS12-381: the NTT layer's root equals snarkjs's (expected roots from 7 vs 5)");
#endif
}

int main(void)
{
    quotient_paths();
    prove_paths("multiplier");
    prove_paths("poseidon");
    prove_paths("multi");
    return g16_test_finish("test_io_sjbackend");
}
