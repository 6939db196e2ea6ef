/* g16 command-line tool: dispatches to the subcommands in this folder. */
#include <stdio.h>
#include <string.h>

#include "cli.h"

static const char usage[] =
    "g16 " G16_VERSION_STRING " — Groth16 proving engine for BLS12-381\n"
    "\n"
    "usage: g16 COMMAND [ARGS]\n"
    "\n"
    "commands:\n"
    "  selftest              known-answer checks and a short benchmark, as a table\n"
    "  circuit gen|check     synthetic circuits and witnesses (g16 circuit --help)\n"
    "  ec mul|check|pairing  curve arithmetic by hand; --curve bn254 for BN254 (g16 ec --help)\n"
    "  bench field|ntt|msm|prove|pipeline\n"
    "                        benchmarks (g16 bench --help)\n"
    "  setup                 TEST-ONLY proving key from a seed (g16 setup --help)\n"
    "  prove                 a Groth16 proof from a key, circuit and witness\n"
    "  verify                check proofs against a vk and public inputs\n"
    "  engine run            a multi-partition job through the proving engine (g16 engine --help)\n"
    "  key cache|check|load  the native key cache (.g16k): make, check, time a load\n"
    "                        (g16 key --help)\n"
    "  info FILE             what a .g16c/.g16w/.params/.g16k/.vk/proof file holds, and if it\n"
    "                        is valid\n"
    "  snarkjs prove|verify  circom/snarkjs interop: prove from .zkey + .wtns, verify\n"
    "                        snarkjs proofs, bls12381 or bn128 (g16 snarkjs --help)\n"
    "  remote submit|status|wait|cancel|proof|jobs|server|metrics\n"
    "                        a client of the g16d daemon (g16 remote --help)\n"
    "  filecoin poseidon|post-check|circuit|post-prove|...\n"
    "                        Filecoin PoSt: Poseidon, vanilla-proof check, circuits and\n"
    "                        their counts, proving (g16 filecoin --help)\n"
    "  --version             version, arithmetic path and backends\n"
    "  --help                this text\n"
    "\n"
    "prove, bench prove, engine run and bench pipeline take --backend cpu|cuda|auto\n"
    "(default auto: CUDA when this build has it and a GPU is present, else the CPU).\n"
    "\n"
    "exit status: 0 success, 1 invalid input (a check failed), 2 error\n";

static void print_version(void)
{
    printf("g16 %s\n", g16_version());
    printf("field arithmetic: %s\n", g16_arith_path());
    printf("threads: %u\n", g16_threads());
    char desc[512];
    if (g16_cuda_built()) {
        int n = g16_cuda_devices(desc, sizeof desc);
        printf("backends: cpu, cuda\n");
        printf("cuda devices: %d%s%s\n", n, desc[0] ? " — " : "", desc);
    } else {
        printf("backends: cpu (the CUDA backend was not built)\n");
    }
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fputs(usage, stderr);
        return CLI_ERROR;
    }
    const char *cmd = argv[1];
    if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h") || !strcmp(cmd, "help")) {
        fputs(usage, stdout);
        return CLI_OK;
    }
    if (!strcmp(cmd, "--version") || !strcmp(cmd, "version")) {
        print_version();
        return CLI_OK;
    }
    if (!strcmp(cmd, "ec")) return cli_ec(argc - 1, argv + 1);
    if (!strcmp(cmd, "circuit")) return cli_circuit(argc - 1, argv + 1);
    if (!strcmp(cmd, "selftest")) return cli_selftest(argc - 1, argv + 1);
    if (!strcmp(cmd, "bench")) return cli_bench(argc - 1, argv + 1);
    if (!strcmp(cmd, "engine")) return cli_engine(argc - 1, argv + 1);
    if (!strcmp(cmd, "setup")) return cli_setup(argc - 1, argv + 1);
    if (!strcmp(cmd, "prove")) return cli_prove(argc - 1, argv + 1);
    if (!strcmp(cmd, "verify")) return cli_verify(argc - 1, argv + 1);
    if (!strcmp(cmd, "info")) return cli_info(argc - 1, argv + 1);
    if (!strcmp(cmd, "key")) return cli_key(argc - 1, argv + 1);
    if (!strcmp(cmd, "snarkjs")) return cli_snarkjs(argc - 1, argv + 1);
    if (!strcmp(cmd, "remote")) return cli_remote(argc - 1, argv + 1);
    if (!strcmp(cmd, "filecoin")) return cli_filecoin(argc - 1, argv + 1);
    fprintf(stderr, "g16: unknown command '%s' (g16 --help lists them)\n", cmd);
    return CLI_ERROR;
}
