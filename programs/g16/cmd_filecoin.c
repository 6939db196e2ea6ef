/* `g16 filecoin ...`: Filecoin's Poseidon, the native PoSt vanilla-proof check and
 * the PoSt circuit counts (docs/filecoin.md). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "common/error.h"
#include "filecoin/poseidon.h"
#include "filecoin/post.h"
#include "filecoin/vproof.h"
#include "io/json.h"

static const char usage[] =
    "usage: g16 filecoin poseidon --arity 2|4|8|11 X...\n"
    "       g16 filecoin post-check VPROOF --pub PUB.json\n"
    "       g16 filecoin circuit --kind window|winning --sector-size 2KiB|8MiB|32GiB|64GiB --count\n"
    "\n"
    "poseidon    Filecoin's Poseidon (neptune, Standard strength, Merkle-tree domain tag) of\n"
    "            exactly ARITY field elements, each decimal or 0x hex and < r; prints the\n"
    "            digest as 0x big-endian hex.\n"
    "post-check  reads a FallbackPoSt sector vanilla proof (the Rust library's bincode) and\n"
    "            its public side (Go WindowPoStVerifyInfo JSON: randomness, sealed CID,\n"
    "            sector number) and checks it natively: comm_r matches the CID, every Merkle\n"
    "            path hashes to comm_r_last, Poseidon-2(comm_c, comm_r_last) = comm_r, and each\n"
    "            path opens the leaf its challenge names.\n"
    "circuit     counts of the FallbackPoSt circuit (bellperson order: ONE counted in inputs,\n"
    "            the per-input rows not counted in constraints) without building matrices.\n"
    "\n"
    "exit status: 0 valid / done, 1 invalid (a check failed: says which), 2 error\n";

/* Parses a decimal or 0x-hex field element that must be < r. */
static int parse_fr(g16_fr *out, const char *s)
{
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        size_t n = strlen(s + 2);
        if (n == 0 || n > 64) {
            fprintf(stderr, "g16 filecoin: '%s': want 1 to 64 hex digits after 0x\n", s);
            return -1;
        }
        char padded[65];
        memset(padded, '0', 64 - n);
        memcpy(padded + 64 - n, s + 2, n + 1);
        uint8_t be[32];
        if (cli_hex_decode(be, 32, padded, "field element") != 32) return -1;
        if (g16_fr_from_be(out, be) != G16_OK) {
            fprintf(stderr, "g16 filecoin: '%s' is not below the field modulus r\n", s);
            return -1;
        }
        return 0;
    }
    uint64_t limbs[4];
    g16_status st = g16_decimal_to_limbs(limbs, 4, g16_fr_modulus, s);
    if (st == G16_ERR_NONCANONICAL) {
        fprintf(stderr, "g16 filecoin: '%s' is not below the field modulus r\n", s);
        return -1;
    }
    if (st != G16_OK || g16_fr_from_canonical(out, limbs) != G16_OK) {
        fprintf(stderr, "g16 filecoin: '%s' is not a decimal or 0x-hex number\n", s);
        return -1;
    }
    return 0;
}

static int cmd_poseidon(int argc, char **argv)
{
    unsigned arity = 0;
    g16_fr in[11];
    unsigned n = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--arity") && i + 1 < argc) {
            char *end;
            unsigned long a = strtoul(argv[++i], &end, 10);
            if (*end || (a != 2 && a != 4 && a != 8 && a != 11)) {
                fprintf(stderr, "g16 filecoin poseidon: --arity must be 2, 4, 8 or 11\n");
                return CLI_ERROR;
            }
            arity = (unsigned)a;
        } else if (argv[i][0] == '-' && argv[i][1] == '-') {
            fprintf(stderr, "g16 filecoin poseidon: unknown option %s\n", argv[i]);
            return CLI_ERROR;
        } else {
            if (n == 11) {
                fprintf(stderr, "g16 filecoin poseidon: more than 11 inputs\n");
                return CLI_ERROR;
            }
            if (parse_fr(&in[n], argv[i])) return CLI_ERROR;
            n++;
        }
    }
    if (!arity) {
        fprintf(stderr, "g16 filecoin poseidon: --arity is required\n");
        return CLI_ERROR;
    }
    if (n != arity) {
        fprintf(stderr, "g16 filecoin poseidon: arity %u takes %u inputs, got %u\n", arity, arity, n);
        return CLI_ERROR;
    }
    const g16_poseidon *p = g16_poseidon_get(arity);
    if (!p) return cli_fail("filecoin poseidon", G16_ERR_NOMEM);
    g16_fr h;
    g16_poseidon_hash(&h, p, in);
    uint8_t be[32];
    g16_fr_to_be(be, &h);
    printf("0x");
    cli_hex_print(be, 32);
    return CLI_OK;
}

static int cmd_post_check(int argc, char **argv)
{
    const char *vpath = NULL, *pubpath = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--pub") && i + 1 < argc) {
            pubpath = argv[++i];
        } else if (argv[i][0] == '-' && argv[i][1] == '-') {
            fprintf(stderr, "g16 filecoin post-check: unknown option %s\n", argv[i]);
            return CLI_ERROR;
        } else if (!vpath) {
            vpath = argv[i];
        } else {
            fprintf(stderr, "g16 filecoin post-check: one vanilla proof file, got '%s' too\n", argv[i]);
            return CLI_ERROR;
        }
    }
    if (!vpath || !pubpath) {
        fprintf(stderr, "usage: g16 filecoin post-check VPROOF --pub PUB.json\n");
        return CLI_ERROR;
    }
    g16_fc_post_pub pub;
    g16_status st = g16_fc_post_pub_read(&pub, pubpath);
    if (st != G16_OK) return cli_fail("filecoin post-check", st);
    g16_fc_vproof v;
    st = g16_fc_vproof_read(&v, vpath);
    if (st != G16_OK) {
        g16_fc_post_pub_free(&pub);
        return cli_fail("filecoin post-check", st);
    }
    st = g16_fc_post_check(&v, &pub);
    int rc;
    if (st == G16_OK) {
        uint64_t n = 0;
        for (uint64_t s = 0; s < v.n_sectors; s++) n += v.sectors[s].n_incl;
        printf("valid: sector %llu, %llu sector proof(s), %llu inclusion proofs hash to comm_r_last, "
               "comm_r = Poseidon-2(comm_c, comm_r_last), every challenged leaf opened\n",
               (unsigned long long)v.sector_id, (unsigned long long)v.n_sectors, (unsigned long long)n);
        rc = CLI_OK;
    } else if (st == G16_ERR_UNSATISFIED) {
        printf("invalid: %s\n", g16_last_error());
        rc = CLI_INVALID;
    } else {
        rc = cli_fail("filecoin post-check", st);
    }
    g16_fc_vproof_free(&v);
    g16_fc_post_pub_free(&pub);
    return rc;
}

int cli_filecoin(int argc, char **argv)
{
    if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        fputs(usage, argc < 2 ? stderr : stdout);
        return argc < 2 ? CLI_ERROR : CLI_OK;
    }
    if (!strcmp(argv[1], "poseidon")) return cmd_poseidon(argc - 1, argv + 1);
    if (!strcmp(argv[1], "post-check")) return cmd_post_check(argc - 1, argv + 1);
    fprintf(stderr, "g16 filecoin: unknown subcommand '%s' (g16 filecoin --help)\n", argv[1]);
    return CLI_ERROR;
}
