/* circom/snarkjs interop commands:
 *   g16 prove --zkey C.zkey --wtns W.wtns --proof proof.json --public public.json [--r1cs C.r1cs]
 *   g16 verify --vk verification_key.json --proof proof.json --public public.json
 *   g16 snarkjs prove|verify ...       the same, by name
 *   g16 snarkjs testkey ...            an INSECURE key from a known tau, for benchmarks only
 * The prove/verify entry points are cli_prove_zkey / cli_verify_snarkjs, which the
 * general prove/verify commands call when they see --zkey / a .json --vk.
 * The curve (bls12381 or bn128) comes from the files: g16_sj_pick is the one
 * dispatch (io/snarkjs_files.h).  (These use the library's internal io headers
 * until the public API grows snarkjs calls.) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "common/error.h"
#include "io/snarkjs_files.h"

static const char sj_usage[] =
    "usage: g16 prove --zkey C.zkey --wtns W.wtns --proof proof.json --public public.json\n"
    "                 [--r1cs C.r1cs] [--time] [--backend cpu|cuda|auto]\n"
    "         proves with a snarkjs Groth16 key and a snarkjs witness, bls12381 or bn128\n"
    "         (the curve is read from the files, which must agree); writes\n"
    "         snarkjs's proof.json and public.json.  With --r1cs the witness is checked\n"
    "         against the circuit first and the first failing constraint is named.\n"
    "         --backend runs the MSMs (and on bn128 the transforms) through that\n"
    "         backend's ops table for the files' curve (auto: the GPU when there is\n"
    "         one); without it the CPU code runs directly.\n"
    "       g16 verify --vk verification_key.json --proof proof.json --public public.json\n"
    "         verifies a snarkjs Groth16 proof: exit 0 valid, 1 invalid, 2 error.\n"
    "       g16 snarkjs prove|verify ...   the same commands\n"
    "       g16 snarkjs testkey --r1cs C.r1cs --tau N --zkey out.zkey --vk out.json\n"
    "         INSECURE: a proving key made from a KNOWN tau (and alpha, beta, gamma,\n"
    "         delta derived from N), for the r1cs's curve.  Anyone can forge proofs for\n"
    "         it.  For benchmarks and tests only, never for real use.\n";

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

int cli_prove_zkey(int argc, char **argv)
{
    opts o;
    int p = parse(&o, argc, argv);
    if (p) return p > 0 ? CLI_OK : CLI_ERROR;
    if (!o.zkey || !o.wtns || !o.proof || !o.pub) {
        fputs(sj_usage, stderr);
        return CLI_ERROR;
    }
    g16_backend_kind kind = G16_BACKEND_CPU;
    if (o.backend) {
        g16_status bs = g16_backend_parse(o.backend, &kind);
        if (bs != G16_OK) return cli_fail("prove", bs);
    }
    double t0 = now();
    const g16_sj_ops *ops;
    const char *files[] = {o.zkey, o.wtns, o.r1cs};
    g16_status s = g16_sj_pick(&ops, files, 3);
    if (s != G16_OK) return cli_fail("prove", s);
    g16_backend *be = NULL;
    if (o.backend && (s = g16_backend_open_curve(&be, ops->curve, kind, 0)) != G16_OK)
        return cli_fail("prove", s);
    g16_sj_prove_times t;
    s = ops->prove(&(g16_sj_prove_req){o.zkey, o.wtns, o.proof, o.pub, o.r1cs, be}, &t);
    if (o.time && s == G16_OK)
        fprintf(stderr, "g16 prove: backend %s\n", be ? g16_backend_name(be) : "none (the CPU code directly)");
    g16_backend_close(be);
    if (s == G16_ERR_UNSATISFIED) return cli_fail("prove", s), CLI_INVALID;
    if (s != G16_OK) return cli_fail("prove", s);
    if (o.time)
        fprintf(stderr,
                "g16 prove: curve %s, read witness %.3f s, read zkey %.3f s, prove %.3f s (abc %.3f, fft %.3f, "
                "msm A %.3f, B1 %.3f, B2 %.3f, C %.3f, H %.3f), total %.3f s\n",
                g16_sj_curve_name(ops->curve), t.read_wtns, t.read_zkey, t.prove, t.abc, t.fft, t.msm_a, t.msm_b1,
                t.msm_b2, t.msm_c, t.msm_h, now() - t0);
    return CLI_OK;
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
    const g16_sj_ops *ops;
    const char *files[] = {o.vk, o.proof, o.pub};
    g16_status s = g16_sj_pick(&ops, files, 3);
    if (s == G16_OK) s = ops->verify(o.vk, o.proof, o.pub);
    if (s == G16_OK) {
        printf("OK: proof is valid\n");
        return CLI_OK;
    }
    /* a proof that fails the check, or a well-formed file whose proof or signal is
     * not a valid group/field element */
    if (s == G16_ERR_UNSATISFIED || s == G16_ERR_NOT_ON_CURVE || s == G16_ERR_NOT_IN_SUBGROUP ||
        s == G16_ERR_NONCANONICAL) {
        printf("INVALID: %s\n", g16_last_error());
        return CLI_INVALID;
    }
    return cli_fail("verify", s);
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
    const g16_sj_ops *ops;
    g16_status s = g16_sj_pick(&ops, (const char *const[]){o.r1cs}, 1);
    if (s == G16_OK) s = ops->testkey(o.r1cs, o.tau, o.zkey, o.vk);
    if (s != G16_OK) return cli_fail("snarkjs testkey", s);
    fprintf(stderr, "g16 snarkjs testkey: wrote %s and %s (%s) from a KNOWN tau: INSECURE, benchmarks only\n", o.zkey,
            o.vk, g16_sj_curve_name(ops->curve));
    return CLI_OK;
}
