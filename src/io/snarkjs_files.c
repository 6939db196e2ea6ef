/* snarkjs's commands at the level of files (snarkjs_files.h).  Compiled once per
 * curve: everything here is in the field and curve types of the compile. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "common/error.h"
#include "io/circom.h"
#include "io/snarkjs.h"
#include "groth16/snarkjs_prove.h"
#include "io/snarkjs_files.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* r and s of the proof: 64 bytes from the OS, reduced mod r (bias below 2^-250). */
static g16_status random_fr(g16_fr *out)
{
    uint8_t buf[64];
    FILE *fp = fopen("/dev/urandom", "rb");
    if (!fp || fread(buf, 1, sizeof buf, fp) != sizeof buf) {
        if (fp) fclose(fp);
        return g16_fail(G16_ERR_IO, "/dev/urandom: cannot read");
    }
    fclose(fp);
    g16_fr_from_be_reduce(out, buf, sizeof buf);
    return G16_OK;
}

static g16_status check_witness(const g16_circom_wtns *w, const char *r1cs_path, const char *wtns_path)
{
    g16_circom_r1cs r;
    G16_TRY(g16_circom_r1cs_read(&r, r1cs_path));
    g16_status s = g16_circom_r1cs_check(&r, w->w, w->n);
    if (s != G16_OK) g16_fail_ctx(s, "%s does not satisfy %s", wtns_path, r1cs_path);
    g16_circom_r1cs_free(&r);
    return s;
}

/* Proves w with pk and random r, s; writes proof.json and public.json. */
static g16_status prove_write(g16_backend *be, const g16_sj_pk *pk, const g16_circom_wtns *w,
                              const char *proof_path, const char *pub_path)
{
    g16_sj_proof proof;
    g16_fr r, sc;
    G16_TRY(random_fr(&r));
    G16_TRY(random_fr(&sc));
    G16_TRY(g16_sj_prove_on(be, &proof, pk, w->w, w->n, &r, &sc));
    G16_TRY(g16_sj_proof_write_json(&proof, proof_path));
    return g16_sj_public_write_json(w->w + 1, pk->n_public, pub_path);
}

g16_status g16_sj_key_load(void **key, g16_sj_key_info *info, const char *zkey)
{
    g16_sj_pk *pk = calloc(1, sizeof *pk);
    if (!pk) return g16_fail(G16_ERR_NOMEM, "%s: no memory for the key", zkey);
    g16_status s = g16_sj_zkey_read(pk, zkey);
    if (s == G16_OK) s = g16_sj_pk_compact(pk);
    if (s != G16_OK) {
        g16_sj_pk_free(pk);
        free(pk);
        return s;
    }
    /* the points as held (G1 affine = 2 Fp, G2 = 4) and the compacted coefficients */
    uint64_t g1 = 2 * sizeof(g16_fp), g2 = 4 * sizeof(g16_fp);
    info->n_vars = pk->n_vars;
    info->n_public = pk->n_public;
    info->bytes = (uint64_t)pk->n_coefs * sizeof(g16_sj_coef) +
                  g1 * (pk->n_a + pk->n_b + (pk->n_vars - pk->n_public - 1) + pk->domain_size) + g2 * pk->n_b;
    info->prove_bytes = g16_sj_prove_bytes(pk);
    *key = pk;
    return G16_OK;
}

void g16_sj_key_free(void *key)
{
    if (!key) return;
    g16_sj_pk_free(key);
    free(key);
}

g16_status g16_sj_key_prove(const void *key, const char *wtns, const char *proof, const char *pub)
{
    g16_circom_wtns w;
    G16_TRY(g16_circom_wtns_read(&w, wtns));
    g16_status s = prove_write(NULL, key, &w, proof, pub);
    if (s != G16_OK) g16_fail_ctx(s, "%s", wtns);
    g16_circom_wtns_free(&w);
    return s;
}

g16_status g16_sj_wtns_count(const char *wtns, uint64_t *n)
{
    g16_circom_wtns w;
    G16_TRY(g16_circom_wtns_read(&w, wtns));
    *n = w.n;
    g16_circom_wtns_free(&w);
    return G16_OK;
}

g16_status g16_sj_prove_files(const g16_sj_prove_req *req, g16_sj_prove_times *times)
{
    g16_sj_prove_times tm = {0};
    double t0 = now();
    g16_circom_wtns w;
    G16_TRY(g16_circom_wtns_read(&w, req->wtns));
    g16_status s = req->r1cs ? check_witness(&w, req->r1cs, req->wtns) : G16_OK;
    if (s != G16_OK) {
        g16_circom_wtns_free(&w);
        return s;
    }
    double t1 = now();
    g16_sj_pk pk;
    s = g16_sj_zkey_read(&pk, req->zkey);
    if (s != G16_OK) {
        g16_circom_wtns_free(&w);
        return s;
    }
    s = g16_sj_pk_compact(&pk);
    double t2 = now();
    if (s == G16_OK) s = prove_write(req->be, &pk, &w, req->proof, req->pub); /* "prove" includes the writing */
    double t3 = now();
    if (s == G16_OK && times) {
        const g16_sj_timing *t = g16_sj_last_timing();
        tm = (g16_sj_prove_times){t1 - t0, t2 - t1, t3 - t2, t->abc, t->fft, t->msm_a, t->msm_b1, t->msm_b2,
                                  t->msm_c, t->msm_h};
        *times = tm;
    }
    g16_sj_pk_free(&pk);
    g16_circom_wtns_free(&w);
    return s;
}

g16_status g16_sj_verify_files(const char *vk_path, const char *proof_path, const char *pub_path)
{
    g16_sj_vk vk;
    g16_sj_proof proof;
    g16_fr *pub = NULL;
    size_t n_pub = 0;
    G16_TRY(g16_sj_vk_read_json(&vk, vk_path));
    g16_status s = g16_sj_proof_read_json(&proof, proof_path);
    if (s == G16_OK) s = g16_sj_public_read_json(&pub, &n_pub, pub_path);
    if (s == G16_OK && n_pub != vk.n_public)
        s = g16_fail(G16_ERR_FORMAT, "%s: %zu public signals, %s expects %u", pub_path, n_pub, vk_path, vk.n_public);
    if (s == G16_OK) s = g16_sj_verify(&vk, &proof, pub, n_pub);
    free(pub);
    g16_sj_vk_free(&vk);
    return s;
}

g16_status g16_sj_testkey_files(const char *r1cs, const char *seed, const char *zkey, const char *vk)
{
    g16_circom_r1cs r;
    G16_TRY(g16_circom_r1cs_read(&r, r1cs));
    g16_sj_pk pk;
    g16_status s = g16_sj_testkey(&pk, &r, seed);
    g16_circom_r1cs_free(&r);
    if (s == G16_OK) {
        s = g16_sj_zkey_write(&pk, zkey);
        if (s == G16_OK) s = g16_sj_vk_write_json(&pk, vk);
        g16_sj_pk_free(&pk);
    }
    return s;
}
