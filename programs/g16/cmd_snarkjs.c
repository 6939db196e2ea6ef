/* circom/snarkjs interop commands:
 *   g16 prove --zkey C.zkey --wtns W.wtns --proof proof.json --public public.json [--r1cs C.r1cs]
 *   g16 verify --vk verification_key.json --proof proof.json --public public.json
 *   g16 snarkjs prove|verify ...       the same, by name
 *   g16 snarkjs testkey ...            an INSECURE key from a known tau, for benchmarks only
 * The prove/verify entry points are cli_prove_zkey / cli_verify_snarkjs, which the
 * general prove/verify commands call when they see --zkey / a .json --vk.
 * (These use the library's internal io/groth16 headers until the public API grows
 * snarkjs calls.) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "common/error.h"
#include "io/circom.h"
#include "io/snarkjs.h"

static const char sj_usage[] =
    "usage: g16 prove --zkey C.zkey --wtns W.wtns --proof proof.json --public public.json\n"
    "                 [--r1cs C.r1cs] [--time] [--backend cpu|auto]\n"
    "         proves with a snarkjs Groth16 key (bls12381) and a snarkjs witness; writes\n"
    "         snarkjs's proof.json and public.json.  With --r1cs the witness is checked\n"
    "         against the circuit first and the first failing constraint is named.\n"
    "         This prover runs on the CPU backend (auto means the CPU here; cuda is refused).\n"
    "       g16 verify --vk verification_key.json --proof proof.json --public public.json\n"
    "         verifies a snarkjs Groth16 proof: exit 0 valid, 1 invalid, 2 error.\n"
    "       g16 snarkjs prove|verify ...   the same commands\n"
    "       g16 snarkjs testkey --r1cs C.r1cs --tau N --zkey out.zkey --vk out.json\n"
    "         INSECURE: a proving key made from a KNOWN tau (and alpha, beta, gamma,\n"
    "         delta derived from N).  Anyone can forge proofs for it.  For benchmarks\n"
    "         and tests only, never for real use.\n";

typedef struct opts {
    const char *zkey, *wtns, *proof, *pub, *r1cs, *vk, *tau, *backend;
    int time;
} opts;

static int parse(opts *o, int argc, char **argv)
{
    memset(o, 0, sizeof *o);
    for (int i = 1; i < argc; i++) {
        const char **dst = NULL;
        if (!strcmp(argv[i], "--zkey")) dst = &o->zkey;
        else if (!strcmp(argv[i], "--wtns")) dst = &o->wtns;
        else if (!strcmp(argv[i], "--proof")) dst = &o->proof;
        else if (!strcmp(argv[i], "--public")) dst = &o->pub;
        else if (!strcmp(argv[i], "--r1cs")) dst = &o->r1cs;
        else if (!strcmp(argv[i], "--vk")) dst = &o->vk;
        else if (!strcmp(argv[i], "--tau")) dst = &o->tau;
        else if (!strcmp(argv[i], "--backend")) dst = &o->backend;
        else if (!strcmp(argv[i], "--time")) {
            o->time = 1;
            continue;
        } else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            fputs(sj_usage, stdout);
            return 1;
        } else {
            fprintf(stderr, "g16 %s: unknown option '%s'\n%s", argv[0], argv[i], sj_usage);
            return -1;
        }
        if (i + 1 >= argc) {
            fprintf(stderr, "g16 %s: %s needs a value\n", argv[0], argv[i]);
            return -1;
        }
        *dst = argv[++i];
    }
    return 0;
}

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

int cli_prove_zkey(int argc, char **argv)
{
    opts o;
    int p = parse(&o, argc, argv);
    if (p) return p > 0 ? CLI_OK : CLI_ERROR;
    if (!o.zkey || !o.wtns || !o.proof || !o.pub) {
        fputs(sj_usage, stderr);
        return CLI_ERROR;
    }
    if (o.backend) {
        g16_backend_kind k;
        g16_status bs = g16_backend_parse(o.backend, &k);
        if (bs == G16_OK && k == G16_BACKEND_CUDA)
            bs = g16_fail(G16_ERR_BACKEND, "backend cuda: the snarkjs-convention prover (--zkey) runs "
                                           "on the CPU backend only; use --backend cpu or auto");
        if (bs != G16_OK) return cli_fail("prove", bs);
    }
    double t0 = now();
    g16_circom_wtns w;
    g16_status s = g16_circom_wtns_read(&w, o.wtns);
    if (s != G16_OK) return cli_fail("prove", s);
    if (o.r1cs) {
        g16_circom_r1cs r;
        s = g16_circom_r1cs_read(&r, o.r1cs);
        if (s == G16_OK) {
            s = g16_circom_r1cs_check(&r, w.w, w.n);
            if (s != G16_OK) g16_fail_ctx(s, "%s does not satisfy %s", o.wtns, o.r1cs);
            g16_circom_r1cs_free(&r);
        }
        if (s != G16_OK) {
            g16_circom_wtns_free(&w);
            return s == G16_ERR_UNSATISFIED ? (cli_fail("prove", s), CLI_INVALID) : cli_fail("prove", s);
        }
    }
    double t1 = now();
    g16_sj_pk pk;
    s = g16_sj_zkey_read(&pk, o.zkey);
    if (s != G16_OK) {
        g16_circom_wtns_free(&w);
        return cli_fail("prove", s);
    }
    s = g16_sj_pk_compact(&pk);
    double t2 = now();
    g16_sj_proof proof;
    g16_fr r, sc;
    if (s == G16_OK) s = random_fr(&r);
    if (s == G16_OK) s = random_fr(&sc);
    if (s == G16_OK) s = g16_sj_prove(&proof, &pk, w.w, w.n, &r, &sc);
    double t3 = now();
    if (s == G16_OK) s = g16_sj_proof_write_json(&proof, o.proof);
    if (s == G16_OK) s = g16_sj_public_write_json(w.w + 1, pk.n_public, o.pub);
    if (s == G16_OK && o.time) {
        const g16_sj_timing *t = g16_sj_last_timing();
        fprintf(stderr,
                "g16 prove: read witness %.3f s, read zkey %.3f s, prove %.3f s (abc %.3f, fft %.3f, msm A %.3f, "
                "B1 %.3f, B2 %.3f, C %.3f, H %.3f), total %.3f s\n",
                t1 - t0, t2 - t1, t3 - t2, t->abc, t->fft, t->msm_a, t->msm_b1, t->msm_b2, t->msm_c, t->msm_h,
                now() - t0);
    }
    g16_sj_pk_free(&pk);
    g16_circom_wtns_free(&w);
    return s == G16_OK ? CLI_OK : cli_fail("prove", s);
}

int cli_verify_snarkjs(int argc, char **argv)
{
    opts o;
    int p = parse(&o, argc, argv);
    if (p) return p > 0 ? CLI_OK : CLI_ERROR;
    if (!o.vk || !o.proof || !o.pub) {
        fputs(sj_usage, stderr);
        return CLI_ERROR;
    }
    g16_sj_vk vk;
    g16_sj_proof proof;
    g16_fr *pub = NULL;
    size_t n_pub = 0;
    g16_status s = g16_sj_vk_read_json(&vk, o.vk);
    if (s != G16_OK) return cli_fail("verify", s);
    s = g16_sj_proof_read_json(&proof, o.proof);
    if (s == G16_OK) s = g16_sj_public_read_json(&pub, &n_pub, o.pub);
    if (s == G16_OK && n_pub != vk.n_public)
        s = g16_fail(G16_ERR_FORMAT, "%s: %zu public signals, %s expects %u", o.pub, n_pub, o.vk, vk.n_public);
    int rc;
    if (s == G16_OK) {
        s = g16_sj_verify(&vk, &proof, pub, n_pub);
        if (s == G16_OK) {
            printf("OK: proof is valid\n");
            rc = CLI_OK;
        } else if (s == G16_ERR_UNSATISFIED) {
            printf("INVALID: %s\n", g16_last_error());
            rc = CLI_INVALID;
        } else {
            rc = cli_fail("verify", s);
        }
    } else if (s == G16_ERR_NOT_ON_CURVE || s == G16_ERR_NOT_IN_SUBGROUP || s == G16_ERR_NONCANONICAL) {
        /* a well-formed file whose proof or signal is not a valid group/field element */
        printf("INVALID: %s\n", g16_last_error());
        rc = CLI_INVALID;
    } else {
        rc = cli_fail("verify", s);
    }
    free(pub);
    g16_sj_vk_free(&vk);
    return rc;
}

int cli_snarkjs_testkey(int argc, char **argv);

int cli_snarkjs(int argc, char **argv)
{
    if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        fputs(sj_usage, argc < 2 ? stderr : stdout);
        return argc < 2 ? CLI_ERROR : CLI_OK;
    }
    if (!strcmp(argv[1], "prove")) return cli_prove_zkey(argc - 1, argv + 1);
    if (!strcmp(argv[1], "verify")) return cli_verify_snarkjs(argc - 1, argv + 1);
    if (!strcmp(argv[1], "testkey")) return cli_snarkjs_testkey(argc - 1, argv + 1);
    fprintf(stderr, "g16 snarkjs: unknown subcommand '%s'\n%s", argv[1], sj_usage);
    return CLI_ERROR;
}

int cli_snarkjs_testkey(int argc, char **argv)
{
    opts o;
    int p = parse(&o, argc, argv);
    if (p) return p > 0 ? CLI_OK : CLI_ERROR;
    if (!o.r1cs || !o.tau || !o.zkey || !o.vk) {
        fputs(sj_usage, stderr);
        return CLI_ERROR;
    }
    g16_circom_r1cs r;
    g16_status s = g16_circom_r1cs_read(&r, o.r1cs);
    if (s != G16_OK) return cli_fail("snarkjs testkey", s);
    g16_sj_pk pk;
    s = g16_sj_testkey(&pk, &r, o.tau);
    g16_circom_r1cs_free(&r);
    if (s == G16_OK) {
        s = g16_sj_zkey_write(&pk, o.zkey);
        if (s == G16_OK) s = g16_sj_vk_write_json(&pk, o.vk);
        g16_sj_pk_free(&pk);
    }
    if (s != G16_OK) return cli_fail("snarkjs testkey", s);
    fprintf(stderr, "g16 snarkjs testkey: wrote %s and %s from a KNOWN tau: INSECURE, benchmarks only\n", o.zkey, o.vk);
    return CLI_OK;
}
