/* g16 circuit: synthetic circuits and witnesses (gen), satisfaction check (check),
 * counts of a compiled circuit (info). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"

static const char circuit_usage[] =
    "usage: g16 circuit gen --log-n N [--inputs I] [--profile porep|dense|bits] [--seed S]\n"
    "                       -o FILE.g16c [--witness FILE.g16w]\n"
    "       g16 circuit check FILE.g16c WITNESS.g16w\n"
    "       g16 circuit info FILE.g16c\n"
    "\n"
    "gen:   writes a synthetic circuit of exactly 2^N rows (2^N - 1 - I constraints plus one\n"
    "       row per input and the constant one) and a witness that satisfies it; the witness\n"
    "       goes to FILE with .g16w in place of .g16c unless --witness says otherwise.\n"
    "       Defaults: --inputs 1, --profile porep, --seed 0.  Profiles: docs/r1cs.md.\n"
    "check: exit 0 when the witness satisfies every constraint, 1 (naming the first failing\n"
    "       constraint and its values) when not, 2 when a file cannot be used.\n"
    "info:  the counts of a compiled circuit.\n";

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Whole-string unsigned decimal (or 0x hex) below or equal to max. */
static int parse_u64(const char *s, uint64_t max, uint64_t *out, const char *opt)
{
    char *end;
    errno = 0;
    if (!s || !*s || *s == '-') goto bad;
    unsigned long long v = strtoull(s, &end, 0);
    if (errno || *end || v > max) goto bad;
    *out = v;
    return 0;
bad:
    fprintf(stderr, "g16 circuit: %s expects a number from 0 to %llu, got '%s'\n", opt,
            (unsigned long long)max, s ? s : "");
    return -1;
}

static void print_info(const g16_circuit *c)
{
    g16_circuit_info in;
    g16_circuit_get_info(&in, c);
    printf("constraints: %llu\n", (unsigned long long)in.n_constraints);
    printf("inputs: %u\n", in.n_pub);
    printf("aux: %u\n", in.n_aux);
    printf("variables: %llu\n", (unsigned long long)in.n_vars);
    printf("rows: %llu\n", (unsigned long long)in.rows);
    printf("coefficients: %u\n", in.n_coefs);
    printf("terms: A %llu, B %llu, C %llu\n", (unsigned long long)in.nnz_a,
           (unsigned long long)in.nnz_b, (unsigned long long)in.nnz_c);
}

static int circuit_gen(int argc, char **argv)
{
    g16_circuit_gen_args a = {G16_PROFILE_POREP, 0, 1, 0};
    const char *out = NULL, *wpath = NULL;
    int have_log_n = 0;
    for (int i = 1; i < argc; i++) {
        const char *opt = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
        uint64_t v;
        if (!strcmp(opt, "--log-n")) {
            if (parse_u64(val, 31, &v, opt)) return CLI_ERROR;
            a.log_n = (unsigned)v;
            have_log_n = 1;
        } else if (!strcmp(opt, "--inputs")) {
            if (parse_u64(val, UINT32_MAX, &v, opt)) return CLI_ERROR;
            a.n_pub = (uint32_t)v;
        } else if (!strcmp(opt, "--seed")) {
            if (parse_u64(val, UINT64_MAX, &v, opt)) return CLI_ERROR;
            a.seed = v;
        } else if (!strcmp(opt, "--profile")) {
            if (!val || g16_profile_parse(&a.profile, val) != G16_OK) {
                fprintf(stderr, "g16 circuit: --profile expects porep, dense or bits, got '%s'\n",
                        val ? val : "");
                return CLI_ERROR;
            }
        } else if (!strcmp(opt, "-o") || !strcmp(opt, "--output")) {
            out = val;
        } else if (!strcmp(opt, "--witness")) {
            wpath = val;
        } else {
            fprintf(stderr, "g16 circuit gen: unknown option '%s' (g16 circuit --help)\n", opt);
            return CLI_ERROR;
        }
        if (!val) {
            fprintf(stderr, "g16 circuit gen: %s needs a value\n", opt);
            return CLI_ERROR;
        }
        i++;
    }
    if (!have_log_n || !out) {
        fprintf(stderr, "g16 circuit gen: --log-n and -o are required (g16 circuit --help)\n");
        return CLI_ERROR;
    }
    char *wbuf = NULL;
    if (!wpath) {
        size_t n = strlen(out);
        wbuf = malloc(n + 6);
        if (!wbuf) return CLI_ERROR;
        memcpy(wbuf, out, n + 1);
        if (n > 5 && !strcmp(out + n - 5, ".g16c"))
            strcpy(wbuf + n - 5, ".g16w");
        else
            strcat(wbuf, ".g16w");
        wpath = wbuf;
    }
    if (!strcmp(wpath, out)) {
        fprintf(stderr, "g16 circuit gen: the circuit and the witness would both be written to '%s'\n", out);
        free(wbuf);
        return CLI_ERROR;
    }
    g16_circuit *c = NULL;
    g16_witness *w = NULL;
    double t0 = now();
    g16_status s = g16_circuit_generate(&c, &w, &a);
    double t1 = now();
    int rc = CLI_OK;
    if (s != G16_OK) {
        rc = cli_fail("circuit gen", s);
    } else if ((s = g16_circuit_save(c, out)) != G16_OK || (s = g16_witness_save(w, wpath)) != G16_OK) {
        rc = cli_fail("circuit gen", s);
    } else {
        double t2 = now();
        printf("circuit: %s\n", out);
        printf("witness: %s\n", wpath);
        printf("profile: %s\n", g16_profile_name(a.profile));
        print_info(c);
        printf("seconds: generate %.3f, write %.3f\n", t1 - t0, t2 - t1);
    }
    g16_circuit_destroy(c);
    g16_witness_destroy(w);
    free(wbuf);
    return rc;
}

static int circuit_check(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "g16 circuit check: expects FILE.g16c WITNESS.g16w\n");
        return CLI_ERROR;
    }
    g16_circuit *c;
    g16_witness *w;
    g16_status s = g16_circuit_load(&c, argv[1]);
    if (s != G16_OK) return cli_fail("circuit check", s);
    s = g16_witness_load(&w, argv[2]);
    if (s != G16_OK) {
        g16_circuit_destroy(c);
        return cli_fail("circuit check", s);
    }
    s = g16_circuit_check(c, w);
    int rc;
    if (s == G16_OK) {
        printf("satisfied\n");
        rc = CLI_OK;
    } else if (s == G16_ERR_UNSATISFIED) {
        printf("unsatisfied: %s\n", g16_last_error());
        rc = CLI_INVALID;
    } else {
        rc = cli_fail("circuit check", s);
    }
    g16_circuit_destroy(c);
    g16_witness_destroy(w);
    return rc;
}

static int circuit_info(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "g16 circuit info: expects FILE.g16c\n");
        return CLI_ERROR;
    }
    g16_circuit *c;
    g16_status s = g16_circuit_load(&c, argv[1]);
    if (s != G16_OK) return cli_fail("circuit info", s);
    print_info(c);
    g16_circuit_destroy(c);
    return CLI_OK;
}

int cli_circuit(int argc, char **argv)
{
    if (argc < 2) {
        fputs(circuit_usage, stderr);
        return CLI_ERROR;
    }
    const char *sub = argv[1];
    if (!strcmp(sub, "--help") || !strcmp(sub, "-h") || !strcmp(sub, "help")) {
        fputs(circuit_usage, stdout);
        return CLI_OK;
    }
    if (!strcmp(sub, "gen")) return circuit_gen(argc - 1, argv + 1);
    if (!strcmp(sub, "check")) return circuit_check(argc - 1, argv + 1);
    if (!strcmp(sub, "info")) return circuit_info(argc - 1, argv + 1);
    fprintf(stderr, "g16 circuit: unknown subcommand '%s' (gen, check, info)\n", sub);
    return CLI_ERROR;
}
