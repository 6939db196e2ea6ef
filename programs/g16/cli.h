/* Shared helpers of the g16 command-line tool. */
#ifndef G16_CLI_H
#define G16_CLI_H

#include <stddef.h>
#include <stdint.h>

#include "g16.h"

/* Exit codes used by every subcommand. */
enum { CLI_OK = 0, CLI_INVALID = 1, CLI_ERROR = 2 };

int cli_ec(int argc, char **argv);
int cli_circuit(int argc, char **argv);
int cli_selftest(int argc, char **argv);
int cli_bench(int argc, char **argv);
int cli_engine(int argc, char **argv);
int cli_bench_pipeline(int argc, char **argv);
int cli_setup(int argc, char **argv);
int cli_prove(int argc, char **argv);
int cli_verify(int argc, char **argv);
int cli_info(int argc, char **argv);
int cli_remote(int argc, char **argv); /* g16d's client (cmd_remote.c) */
/* The key cache (cmd_key.c): `g16 key ...`; whether a file starts with the .g16k magic;
 * and a proving key from either a .params (flags: G16_PARAMS_CHECK_SUBGROUP) or a
 * .g16k (flags: G16_KEY_CACHE_TRUST), told apart by that magic. */
int cli_key(int argc, char **argv);
int cli_key_is_cache(const char *path);
g16_status cli_key_read(g16_key **out, const char *path, unsigned flags);
/* circom/snarkjs interop (cmd_snarkjs.c): `g16 snarkjs ...`, and the entry points the
 * prove / verify commands call for --zkey and for a snarkjs verification_key.json. */
int cli_snarkjs(int argc, char **argv);
int cli_prove_zkey(int argc, char **argv);
int cli_verify_snarkjs(int argc, char **argv);
/* Filecoin PoSt (cmd_filecoin.c): poseidon, post-check, circuit --count. */
int cli_filecoin(int argc, char **argv);
/* g16 filecoin post-bench (cmd_post_bench.c). */
int cli_filecoin_post_bench(int argc, char **argv);

/* Prints "g16 <what>: <status>: <last error>" to stderr and returns CLI_ERROR. */
int cli_fail(const char *what, g16_status s);

/* Decodes hex (optional 0x prefix, whitespace not allowed).  Returns the byte count,
 * or -1 with a message on stderr when the text is not hex or longer than cap. */
long cli_hex_decode(uint8_t *out, size_t cap, const char *hex, const char *what);
void cli_hex_print(const uint8_t *in, size_t len);

/* Parses "A" or "A..B" into lo/hi.  Returns 0 on success. */
int cli_parse_range(const char *s, int *lo, int *hi);

#endif
