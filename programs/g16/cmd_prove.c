/* g16 prove: one proof of a compiled circuit with a witness, from a .params key or its
 * key cache (.g16k). */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "groth16/groth16.h"

static const char prove_usage[] =
    "usage: g16 prove --params KEY.params|KEY.g16k --circuit C.g16c --witness W.g16w -o PROOF\n"
    "                 [--seed-rs S] [--check-subgroup] [--inputs-out FILE]\n"
    "                 [--backend cpu|cuda|auto] [--times]\n"
    "\n"
    "Writes the 192-byte proof A (G1) || B (G2) || C (G1), compressed, as bellperson does.\n"
    "r, s come from getrandom(); --seed-rs S derives them from S instead (TEST-ONLY:\n"
    "deterministic proofs; whoever knows S and the proof can recover the witness' blinding).\n"
    "--inputs-out FILE writes the public inputs, one 0x-hex number a line (g16 verify --inputs).\n"
    "--check-subgroup also checks every key point's subgroup while loading (slower).\n"
    "--params takes a key cache (g16 key cache) as well: mapped, its checksums checked (its\n"
    "points were checked when it was made; --check-subgroup applies to a .params).\n"
    "--backend: where the NTTs and MSMs run; auto (default) is CUDA when this build has it and\n"
    "a GPU is present, else the CPU; cuda without a GPU is an error.  Proofs are identical.\n"
    "--times prints the proof's stages (synthesis, H NTTs, each MSM, B2, assembly: wall\n"
    "seconds) and the proof's wall and process CPU seconds.\n"
    "With --zkey (snarkjs keys) see g16 snarkjs --help.\n";

int cli_prove(int argc, char **argv)
{
    const char *params = NULL, *circ_path = NULL, *wit_path = NULL, *out = NULL, *seed_rs = NULL,
               *inputs_out = NULL, *backend = "auto";
    unsigned flags = 0;
    int times = 0;
    for (int i = 1; i < argc; i++) /* circom/snarkjs keys: the interop command's path */
        if (!strcmp(argv[i], "--zkey")) return cli_prove_zkey(argc, argv);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            fputs(prove_usage, stdout);
            return CLI_OK;
        }
        if (!strcmp(a, "--check-subgroup")) {
            flags |= G16_PARAMS_CHECK_SUBGROUP;
            continue;
        }
        if (!strcmp(a, "--times")) {
            times = 1;
            continue;
        }
        if (i + 1 >= argc) {
            fprintf(stderr, "g16 prove: option '%s' needs a value (or is unknown)\n%s", a, prove_usage);
            return CLI_ERROR;
        }
        if (!strcmp(a, "--params"))
            params = argv[++i];
        else if (!strcmp(a, "--circuit"))
            circ_path = argv[++i];
        else if (!strcmp(a, "--witness"))
            wit_path = argv[++i];
        else if (!strcmp(a, "-o") || !strcmp(a, "--out"))
            out = argv[++i];
        else if (!strcmp(a, "--seed-rs"))
            seed_rs = argv[++i];
        else if (!strcmp(a, "--inputs-out"))
            inputs_out = argv[++i];
        else if (!strcmp(a, "--backend"))
            backend = argv[++i];
        else {
            fprintf(stderr, "g16 prove: unknown option '%s'\n%s", a, prove_usage);
            return CLI_ERROR;
        }
    }
    if (!params || !circ_path || !wit_path || !out) {
        fprintf(stderr, "g16 prove: --params, --circuit, --witness and -o are required\n%s",
                prove_usage);
        return CLI_ERROR;
    }
    g16_backend_kind kind;
    g16_backend *be = NULL;
    g16_status st = g16_backend_parse(backend, &kind);
    if (!st) st = g16_backend_open(&be, kind, 0);
    if (st) return cli_fail("prove", st);
    g16_circuit *c = NULL;
    g16_witness *w = NULL;
    g16_key *key = NULL;
    st = g16_circuit_load(&c, circ_path);
    if (!st) st = g16_witness_load(&w, wit_path);
    if (!st) st = cli_key_read(&key, params, flags);
    uint8_t proof[G16_PROOF_BYTES], rs[64];
    if (seed_rs) g16_derive_rs(rs, (const uint8_t *)seed_rs, strlen(seed_rs));
    struct timespec w0, c0, w1, c1;
    clock_gettime(CLOCK_MONOTONIC, &w0);
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c0);
    if (!st) st = g16_prove_on(proof, key, c, w, seed_rs ? rs : NULL, be);
    clock_gettime(CLOCK_MONOTONIC, &w1);
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c1);
    if (!st && times) {
        const g16_prove_times *t = &g16_last_prove_times;
        double wall = (double)(w1.tv_sec - w0.tv_sec) + 1e-9 * (double)(w1.tv_nsec - w0.tv_nsec);
        double cpu = (double)(c1.tv_sec - c0.tv_sec) + 1e-9 * (double)(c1.tv_nsec - c0.tv_nsec);
        printf("times: synthesis+density %.3f s, h_ntt %.3f s, msm_h %.3f s, msm_l %.3f s, msm_a %.3f s, "
               "msm_b1 %.3f s, msm_b2 %.3f s%s, assembly %.3f s; prove_start %.3f s; proof %.3f s wall, "
               "%.3f core-s\n",
               wall - t->start_total - t->msm_b2 - t->assembly, t->h_ntt, t->msm_h, t->msm_l, t->msm_a,
               t->msm_b1, t->msm_b2, t->b2_in_start ? " (in prove_start)" : "", t->assembly, t->start_total,
               wall, cpu);
    }
    if (!st && inputs_out) {
        FILE *fi = fopen(inputs_out, "w");
        int okw = fi != NULL;
        for (uint32_t i = 1; okw && i <= g16_witness_pub(w); i++) {
            uint8_t be[32];
            okw = g16_witness_get(be, w, i) == G16_OK;
            fputs("0x", fi);
            for (int j = 0; okw && j < 32; j++) fprintf(fi, "%02x", be[j]);
            fputc('\n', fi);
        }
        if (fi && fclose(fi) != 0) okw = 0;
        if (!okw) {
            fprintf(stderr, "g16 prove: %s: cannot write the public inputs\n", inputs_out);
            st = G16_ERR_IO;
        }
    }
    g16_key_release(key);
    g16_witness_destroy(w);
    g16_circuit_destroy(c);
    g16_backend_close(be);
    if (st == G16_ERR_IO && inputs_out) return CLI_ERROR;
    if (st) return cli_fail("prove", st);
    st = g16_proof_file_write(out, proof, 1);
    if (st) return cli_fail("prove", st);
    printf("proof written to %s (192 bytes)%s\n", out,
           seed_rs ? " [TEST-ONLY deterministic r, s]" : "");
    return CLI_OK;
}
