/* g16 setup: TEST-ONLY proving key from a seed (the seed knows the toxic waste). */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "cli.h"

static const char setup_usage[] =
    "usage: g16 setup --circuit C.g16c --seed S -o KEY.params [--vk KEY.vk]\n"
    "\n"
    "TEST-ONLY: the secrets tau, alpha, beta, gamma, delta are derived from the seed S\n"
    "(SHA-256, docs/groth16.md), so anyone who knows S can forge proofs for this key.\n"
    "Use such keys only for tests and benchmarks.  Writes bellperson's .params layout\n"
    "and, with --vk, the verifying key alone.\n";

int cli_setup(int argc, char **argv)
{
    const char *circ_path = NULL, *seed = NULL, *out = NULL, *vk_path = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            fputs(setup_usage, stdout);
            return CLI_OK;
        }
        if (i + 1 >= argc) {
            fprintf(stderr, "g16 setup: option '%s' needs a value (or is unknown)\n%s", a, setup_usage);
            return CLI_ERROR;
        }
        if (!strcmp(a, "--circuit"))
            circ_path = argv[++i];
        else if (!strcmp(a, "--seed"))
            seed = argv[++i];
        else if (!strcmp(a, "-o") || !strcmp(a, "--out"))
            out = argv[++i];
        else if (!strcmp(a, "--vk"))
            vk_path = argv[++i];
        else {
            fprintf(stderr, "g16 setup: unknown option '%s'\n%s", a, setup_usage);
            return CLI_ERROR;
        }
    }
    if (!circ_path || !seed || !out) {
        fprintf(stderr, "g16 setup: --circuit, --seed and -o are required\n%s", setup_usage);
        return CLI_ERROR;
    }
    fprintf(stderr, "g16 setup: WARNING: TEST-ONLY key; the seed reveals its secrets\n");
    g16_circuit *c;
    g16_status st = g16_circuit_load(&c, circ_path);
    if (st) return cli_fail("setup", st);
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    g16_key *key;
    st = g16_setup(&key, c, (const uint8_t *)seed, strlen(seed));
    g16_circuit_destroy(c);
    if (st) return cli_fail("setup", st);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    st = g16_params_write(out, key);
    if (!st && vk_path) st = g16_vk_write(vk_path, g16_key_vk(key));
    if (st) {
        g16_key_release(key);
        return cli_fail("setup", st);
    }
    g16_key_info ki;
    g16_key_get_info(&ki, key);
    g16_key_release(key);
    printf("TEST-ONLY key (seed-derived secrets) written to %s%s%s\n", out, vk_path ? ", vk to " : "",
           vk_path ? vk_path : "");
    printf("ic %llu  h %llu  l %llu  a %llu  b_g1 %llu  b_g2 %llu  setup %.3f s\n",
           (unsigned long long)ki.n_ic, (unsigned long long)ki.n_h, (unsigned long long)ki.n_l,
           (unsigned long long)ki.n_a, (unsigned long long)ki.n_b_g1,
           (unsigned long long)ki.n_b_g2,
           (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) * 1e-9);
    return CLI_OK;
}
