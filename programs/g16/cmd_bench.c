/* g16 bench: micro-benchmarks.  Timings are medians of repeated runs; --json prints
 * one object per line for scripts (docs/BENCHMARKS.md records the results). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

#define MAX_BENCH 64

static const char bench_usage[] =
    "usage: g16 bench field [--quick] [--json] [--curve bls12-381|bn254]\n"
    "       g16 bench ntt --log-n A[..B] [--threads T] [--coset] [--reps R] [--seed S] [--json]\n"
    "       g16 bench msm --group g1|g2 --log-n A[..B] [--threads T] [--ones F] [--zeros F]\n"
    "                     [--reps R] [--seed S] [--json]\n"
    "       g16 bench prove --log-n N [--profile porep|dense|bits] [--inputs I] [--threads T]\n"
    "                       [--backend cpu|cuda|auto] [--reps R] [--timing-key]\n"
    "                       [--seed S] [--json]\n"
    "       g16 bench pipeline ...   (g16 bench pipeline --help)\n"
    "\n"
    "field: ns/op (median) of Fp mul/sqr/inverse, Fr mul, G1 add/double/mixed add, G2 mixed add,\n"
    "       G1 and G2 scalar multiplication, Miller loop and final exponentiation.\n"
    "ntt:   seconds (median) of one forward Fr NTT of 2^log_n elements (coset with --coset).\n"
    "msm:   seconds (median) of one MSM of 2^log_n random bases; --ones/--zeros set the fraction\n"
    "       of scalars equal to 1 and 0 (the rest full-width random).\n"
    "prove: generate a circuit + witness, TEST-ONLY setup, one proof; seconds of each stage\n"
    "       (synthesis, H NTTs, each MSM, b_g2, assembly), verification, peak RSS.\n"
    "       --backend (default auto: CUDA when a GPU is present) runs the NTTs and MSMs there;\n"
    "       --reps R makes R proofs and reports the fastest (warm: key resident on a device);\n"
    "       --timing-key replaces the setup by a TIMING-ONLY key of tiled points (for 2^24+\n"
    "       rows, whose setup takes minutes): the proof is then NOT valid and not verified.\n"
    "pipeline: jobs through the engine for several synthesis-worker counts; s/proof, device\n"
    "       busy %, peak RSS and reserved bytes per setting.\n"
    "--threads 0 (default) means G16_THREADS or the CPU count.\n"
    "--curve bn254 (field, ntt, msm; alias bn128): the same benchmark on BN254 (the\n"
    "       output then names the curve); the default is bls12-381.\n";

/* --curve bn254 (field, ntt, msm): the BN254 compile of the benchmarks */
static int bench_bn254;

/* The arithmetic path: both curves' compiles pick mulx/adx and IFMA by the same CPUID
 * probes (and G16_NO_IFMA), so the BLS12-381 report holds for BN254 too. */
static const char *bench_path(void) { return g16_arith_path(); }

static int bench_field(int argc, char **argv)
{
    int json = 0, quick = 0;
    for (int i = 2; i < argc; i++) {
        if (!strcmp(argv[i], "--json"))
            json = 1;
        else if (!strcmp(argv[i], "--quick"))
            quick = 1;
        else {
            fprintf(stderr, "g16 bench field: unknown option '%s'\n", argv[i]);
            return CLI_ERROR;
        }
    }
    g16_bench_result r[MAX_BENCH];
    size_t n = 0;
    g16_status s = bench_bn254 ? g16_bn254_bench_field(r, MAX_BENCH, &n, quick)
                               : g16_bench_field(r, MAX_BENCH, &n, quick);
    if (s != G16_OK) return cli_fail("bench field", s);
    if (n > MAX_BENCH) n = MAX_BENCH;
    if (!json) {
        if (bench_bn254) printf("curve: bn254\n");
        printf("field arithmetic: %s\n", bench_path());
        printf("%-28s %14s %10s\n", "operation", "ns/op", "ops/run");
    }
    for (size_t i = 0; i < n; i++) {
        if (json)
            printf("{\"bench\":\"field\",%s\"op\":\"%s\",\"ns\":%.1f,\"iters\":%llu,\"path\":\"%s\"}\n",
                   bench_bn254 ? "\"curve\":\"bn254\"," : "", r[i].op, r[i].ns,
                   (unsigned long long)r[i].iters, bench_path());
        else
            printf("%-28s %14.1f %10llu\n", r[i].op, r[i].ns, (unsigned long long)r[i].iters);
    }
    return CLI_OK;
}

/* Shared option parsing of the kernel benchmarks. */
static int parse_kernel_args(int argc, char **argv, const char *what, int is_msm,
                             g16_bench_kernel_args *a, int *lo, int *hi, int *json)
{
    memset(a, 0, sizeof *a);
    a->seed = 1;
    a->group = G16_G1;
    *lo = *hi = -1;
    *json = 0;
    for (int i = 2; i < argc; i++) {
        const char *o = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        char *end = NULL;
        if (!strcmp(o, "--json")) {
            *json = 1;
            continue;
        }
        if (!is_msm && !strcmp(o, "--coset")) {
            a->coset = 1;
            continue;
        }
        if (!v) {
            fprintf(stderr, "g16 bench %s: option '%s' needs a value (or is unknown)\n", what, o);
            return -1;
        }
        i++;
        if (!strcmp(o, "--log-n")) {
            if (cli_parse_range(v, lo, hi)) {
                fprintf(stderr, "g16 bench %s: --log-n wants A or A..B (0..40), got '%s'\n", what, v);
                return -1;
            }
        } else if (!strcmp(o, "--threads")) {
            long t = strtol(v, &end, 10);
            if (*end || t < 0 || t > 4096) goto bad;
            a->threads = (unsigned)t;
        } else if (!strcmp(o, "--reps")) {
            long t = strtol(v, &end, 10);
            if (*end || t < 0 || t > 1000) goto bad;
            a->reps = (int)t;
        } else if (!strcmp(o, "--seed")) {
            a->seed = strtoull(v, &end, 0);
            if (*end) goto bad;
        } else if (is_msm && !strcmp(o, "--group")) {
            if (!strcmp(v, "g1"))
                a->group = G16_G1;
            else if (!strcmp(v, "g2"))
                a->group = G16_G2;
            else
                goto bad;
        } else if (is_msm && (!strcmp(o, "--ones") || !strcmp(o, "--zeros"))) {
            double f = strtod(v, &end);
            if (*end || f < 0 || f > 1) goto bad;
            if (o[2] == 'o')
                a->ones = f;
            else
                a->zeros = f;
        } else {
            fprintf(stderr, "g16 bench %s: unknown option '%s'\n", what, o);
            return -1;
        }
        continue;
    bad:
        fprintf(stderr, "g16 bench %s: bad value '%s' for %s\n", what, v, o);
        return -1;
    }
    if (*lo < 0) {
        fprintf(stderr, "g16 bench %s: --log-n is required\n", what);
        return -1;
    }
    if (a->ones + a->zeros > 1.0) {
        fprintf(stderr, "g16 bench %s: --ones + --zeros exceeds 1\n", what);
        return -1;
    }
    return 0;
}

static int bench_kernel(int argc, char **argv, int is_msm)
{
    const char *what = is_msm ? "msm" : "ntt";
    g16_bench_kernel_args a;
    int lo, hi, json;
    if (parse_kernel_args(argc, argv, what, is_msm, &a, &lo, &hi, &json)) return CLI_ERROR;
    for (int k = lo; k <= hi; k++) {
        a.log_n = k;
        double sec = 0;
        g16_status s = bench_bn254 ? (is_msm ? g16_bn254_bench_msm(&sec, &a) : g16_bn254_bench_ntt(&sec, &a))
                                   : (is_msm ? g16_bench_msm(&sec, &a) : g16_bench_ntt(&sec, &a));
        /* the library's message already names the benchmark */
        if (s != G16_OK) return cli_fail("bench", s);
        if (!json && k == lo) {
            if (bench_bn254) printf("curve: bn254\n");
            if (is_msm)
                printf("%-6s %6s %8s %6s %6s %12s\n", "group", "log_n", "threads", "ones", "zeros",
                       "seconds");
            else
                printf("%-6s %6s %8s %12s\n", "coset", "log_n", "threads", "seconds");
        }
        unsigned th = g16_threads();
        if (is_msm) {
            const char *g = a.group == G16_G1 ? "g1" : "g2";
            if (json)
                printf("{\"bench\":\"msm\",%s\"group\":\"%s\",\"log_n\":%d,\"threads\":%u,"
                       "\"ones\":%.3f,\"zeros\":%.3f,\"seconds\":%.6f}\n",
                       bench_bn254 ? "\"curve\":\"bn254\"," : "", g, k, th, a.ones, a.zeros, sec);
            else
                printf("%-6s %6d %8u %6.2f %6.2f %12.6f\n", g, k, th, a.ones, a.zeros, sec);
        } else {
            if (json)
                printf("{\"bench\":\"ntt\",%s\"log_n\":%d,\"threads\":%u,\"coset\":%s,"
                       "\"seconds\":%.6f}\n",
                       bench_bn254 ? "\"curve\":\"bn254\"," : "", k, th, a.coset ? "true" : "false", sec);
            else
                printf("%-6s %6d %8u %12.6f\n", a.coset ? "yes" : "no", k, th, sec);
        }
        fflush(stdout);
    }
    return CLI_OK;
}

static int bench_prove(int argc, char **argv)
{
    g16_bench_prove_args a = {0, G16_PROFILE_POREP, 2, 1, 0, G16_BACKEND_AUTO, 0, 1};
    int json = 0, have_n = 0;
    for (int i = 2; i < argc; i++) {
        const char *o = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        char *end = NULL;
        if (!strcmp(o, "--json")) {
            json = 1;
            continue;
        }
        if (!strcmp(o, "--timing-key")) {
            a.timing_key = 1;
            continue;
        }
        if (!v) {
            fprintf(stderr, "g16 bench prove: option '%s' needs a value (or is unknown)\n", o);
            return CLI_ERROR;
        }
        i++;
        if (!strcmp(o, "--log-n")) {
            long n = strtol(v, &end, 10);
            if (*end || n < 2 || n > 28) goto bad;
            a.log_n = (unsigned)n;
            have_n = 1;
        } else if (!strcmp(o, "--profile")) {
            g16_profile pr;
            if (g16_profile_parse(&pr, v)) goto bad;
            a.profile = pr;
        } else if (!strcmp(o, "--inputs")) {
            long n = strtol(v, &end, 10);
            if (*end || n < 0 || n > 1000000) goto bad;
            a.n_pub = (uint32_t)n;
        } else if (!strcmp(o, "--threads")) {
            long n = strtol(v, &end, 10);
            if (*end || n < 0 || n > 4096) goto bad;
            a.threads = (unsigned)n;
        } else if (!strcmp(o, "--seed")) {
            a.seed = strtoull(v, &end, 0);
            if (*end) goto bad;
        } else if (!strcmp(o, "--backend")) {
            g16_backend_kind k;
            if (g16_backend_parse(v, &k)) goto bad;
            a.backend = k;
        } else if (!strcmp(o, "--reps")) {
            long n = strtol(v, &end, 10);
            if (*end || n < 1 || n > 1000) goto bad;
            a.reps = (unsigned)n;
        } else {
            fprintf(stderr, "g16 bench prove: unknown option '%s'\n", o);
            return CLI_ERROR;
        }
        continue;
    bad:
        fprintf(stderr, "g16 bench prove: bad value '%s' for %s\n", v, o);
        return CLI_ERROR;
    }
    if (!have_n) {
        fprintf(stderr, "g16 bench prove: --log-n is required\n");
        return CLI_ERROR;
    }
    g16_bench_prove_result r;
    g16_status s = g16_bench_prove(&r, &a);
    if (s != G16_OK) return cli_fail("bench prove", s);
    const char *prof = g16_profile_name((g16_profile)a.profile);
    if (json) {
        printf("{\"bench\":\"prove\",\"log_n\":%u,\"profile\":\"%s\",\"threads\":%u,"
               "\"rows\":%llu,\"aux\":%llu,\"a_points\":%llu,\"b_points\":%llu,"
               "\"generate\":%.4f,\"setup\":%.4f,\"setup_qap\":%.4f,\"setup_scalars\":%.4f,"
               "\"setup_g1\":%.4f,\"setup_g2\":%.4f,\"synthesis\":%.4f,\"h_ntt\":%.4f,"
               "\"msm_h\":%.4f,\"msm_l\":%.4f,\"msm_a\":%.4f,\"msm_b1\":%.4f,\"msm_b2\":%.4f,"
               "\"assembly\":%.4f,\"prove_start\":%.4f,\"prove_total\":%.4f,\"verify\":%.4f,"
               "\"valid\":%s,\"peak_rss_kb\":%ld,\"backend\":\"%s\",\"timing_key\":%s,"
               "\"reps\":%u,\"first_prove_start\":%.4f,\"b2_in_start\":%s}\n",
               a.log_n, prof, g16_threads(), (unsigned long long)r.rows,
               (unsigned long long)r.n_aux, (unsigned long long)r.n_a, (unsigned long long)r.n_b,
               r.generate, r.setup, r.setup_qap, r.setup_scalars, r.setup_g1, r.setup_g2,
               r.synthesis, r.h_ntt, r.msm_h, r.msm_l, r.msm_a, r.msm_b1,
               r.msm_b2, r.assembly, r.prove_start, r.prove_total, r.verify,
               r.valid ? "true" : "false", r.peak_rss_kb, r.backend,
               a.timing_key ? "true" : "false", a.reps, r.first_prove_start,
               r.b2_in_start ? "true" : "false");
    } else {
        printf("prove 2^%u (%s, %llu rows, %llu aux; key a %llu, b %llu points), %u threads, "
               "backend %s\n",
               a.log_n, prof, (unsigned long long)r.rows, (unsigned long long)r.n_aux,
               (unsigned long long)r.n_a, (unsigned long long)r.n_b, g16_threads(), r.backend);
        printf("  %-26s %10.3f s\n", "generate circuit+witness", r.generate);
        if (a.timing_key)
            printf("  %-26s %10.3f s   (TIMING-ONLY key: tiled points, proof not valid)\n",
                   "timing key", r.setup);
        else
            printf("  %-26s %10.3f s   (TEST-ONLY)\n", "setup", r.setup);
        if (!a.timing_key) {
            printf("  %-26s %10.3f s\n", "  Lagrange + QAP values", r.setup_qap);
            printf("  %-26s %10.3f s\n", "  query scalars", r.setup_scalars);
            printf("  %-26s %10.3f s\n", "  G1 fixed-base", r.setup_g1);
            printf("  %-26s %10.3f s\n", "  G2 fixed-base", r.setup_g2);
        }
        if (a.reps > 1)
            printf("  (fastest of %u proofs below; the first prove_start took %.3f s)\n", a.reps,
                   r.first_prove_start);
        printf("  %-26s %10.3f s\n", "synthesis", r.synthesis);
        printf("  %-26s %10.3f s\n", "H: 7 NTTs + pointwise", r.h_ntt);
        printf("  %-26s %10.3f s\n", "msm H", r.msm_h);
        printf("  %-26s %10.3f s\n", "msm L", r.msm_l);
        printf("  %-26s %10.3f s\n", "msm A", r.msm_a);
        printf("  %-26s %10.3f s\n", "msm B1 (G1)", r.msm_b1);
        printf("  %-26s %10.3f s   (%s)\n", "msm B2 (G2)", r.msm_b2,
               r.b2_in_start ? "in prove_start, on the device" : "background");
        printf("  %-26s %10.3f s   (background)\n", "assembly", r.assembly);
        printf("  %-26s %10.3f s\n", "prove_start", r.prove_start);
        printf("  %-26s %10.3f s\n", "  of which other (host)",
               r.prove_start - r.h_ntt - r.msm_h - r.msm_l - r.msm_a - r.msm_b1 -
                   (r.b2_in_start ? r.msm_b2 : 0));
        printf("  %-26s %10.3f s\n", "prove total (synth..proof)", r.prove_total);
        if (!a.timing_key)
            printf("  %-26s %10.3f s   %s\n", "verify", r.verify, r.valid ? "valid" : "INVALID");
        printf("  %-26s %10.1f MiB\n", "peak RSS", r.peak_rss_kb / 1024.0);
    }
    return r.valid || a.timing_key ? CLI_OK : CLI_INVALID;
}

int cli_bench(int argc, char **argv)
{
    if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        fputs(bench_usage, argc < 2 ? stderr : stdout);
        return argc < 2 ? CLI_ERROR : CLI_OK;
    }
    /* "--curve NAME" (field, ntt, msm) may come anywhere after the benchmark's name */
    bench_bn254 = 0;
    for (int i = 2; i < argc; i++) {
        if (strcmp(argv[i], "--curve") != 0) continue;
        if (strcmp(argv[1], "field") && strcmp(argv[1], "ntt") && strcmp(argv[1], "msm")) {
            fprintf(stderr, "g16 bench %s: --curve is for field, ntt and msm only\n", argv[1]);
            return CLI_ERROR;
        }
        if (i + 1 >= argc) {
            fprintf(stderr, "g16 bench: --curve needs a name (bls12-381 or bn254)\n");
            return CLI_ERROR;
        }
        g16_curve_id id;
        g16_status s = g16_curve_parse(argv[i + 1], &id);
        if (s != G16_OK) return cli_fail("bench", s);
        bench_bn254 = id == G16_CURVE_ID_BN254;
        for (int j = i; j + 2 < argc; j++) argv[j] = argv[j + 2];
        argc -= 2;
        i--;
    }
    if (!strcmp(argv[1], "field")) return bench_field(argc, argv);
    if (!strcmp(argv[1], "ntt")) return bench_kernel(argc, argv, 0);
    if (!strcmp(argv[1], "msm")) return bench_kernel(argc, argv, 1);
    if (!strcmp(argv[1], "pipeline")) return cli_bench_pipeline(argc, argv);
    if (!strcmp(argv[1], "prove")) return bench_prove(argc, argv);
    fprintf(stderr, "g16 bench: unknown benchmark '%s'\n", argv[1]);
    fputs(bench_usage, stderr);
    return CLI_ERROR;
}
