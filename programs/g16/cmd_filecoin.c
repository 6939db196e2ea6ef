/* `g16 filecoin ...`: Filecoin's Poseidon, the native PoSt vanilla-proof check and
 * the PoSt circuit counts (docs/filecoin.md). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "common/error.h"
#include "filecoin/poseidon.h"
#include "filecoin/post.h"
#include "filecoin/post_circuit.h"
#include "filecoin/vproof.h"
#include "io/json.h"

static const char usage[] =
    "usage: g16 filecoin poseidon --arity 2|4|8|11 X...\n"
    "       g16 filecoin post-check VPROOF --pub PUB.json\n"
    "       g16 filecoin circuit --kind window|winning --sector-size 2KiB|8MiB|32GiB|64GiB --count\n"
    "       g16 filecoin circuit --kind window|winning --sector-size SIZE --vanilla VPROOF [-o C.g16c]\n"
    "\n"
    "poseidon    Filecoin's Poseidon (neptune, Standard strength, Merkle-tree domain tag) of\n"
    "            exactly ARITY field elements, each decimal or 0x hex and < r; prints the\n"
    "            digest as 0x big-endian hex.\n"
    "post-check  reads a FallbackPoSt sector vanilla proof (the Rust library's bincode) and\n"
    "            its public side (Go WindowPoStVerifyInfo JSON: randomness, sealed CID,\n"
    "            sector number) and checks it natively: comm_r matches the CID, every Merkle\n"
    "            path hashes to comm_r_last, Poseidon-2(comm_c, comm_r_last) = comm_r, and each\n"
    "            path opens the leaf its challenge names.\n"
    "circuit     --count: constraints, inputs and aux of one FallbackPoSt partition (bellperson\n"
    "            order; ONE counted in inputs, the per-input rows not in constraints), counted\n"
    "            by the circuit code without building matrices (512MiB also accepted).\n"
    "            --vanilla: builds the circuit of the sector proofs in one vanilla proof file\n"
    "            (WindowPoSt: a circuit sector each, no padding; WinningPoSt: 66 circuit\n"
    "            sectors from the 66 inclusion proofs of sector proof 0) with its witness,\n"
    "            and checks every row: exit 0 satisfied, 1 not.  -o writes the circuit and,\n"
    "            beside it, the witness (.g16w) for g16 setup / prove / verify (TEST-ONLY keys:\n"
    "            Filecoin's official parameters are not this circuit's until proven so).\n"
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

/* Writes FILE.g16c and its witness beside it (FILE.g16w), as `g16 circuit gen` does. */
static int save_circuit(const g16_circuit *c, const g16_witness *w, const char *path)
{
    size_t n = strlen(path);
    char *wpath = malloc(n + 6);
    if (!wpath) return cli_fail("filecoin circuit", G16_ERR_NOMEM);
    memcpy(wpath, path, n + 1);
    if (n > 5 && !strcmp(path + n - 5, ".g16c")) strcpy(wpath + n - 5, ".g16w");
    else strcat(wpath, ".g16w");
    g16_status st = g16_circuit_save(c, path);
    if (st == G16_OK) st = g16_witness_save(w, wpath);
    if (st == G16_OK) printf("wrote %s and %s\n", path, wpath);
    free(wpath);
    return st == G16_OK ? CLI_OK : cli_fail("filecoin circuit", st);
}

static int cmd_circuit(int argc, char **argv)
{
    const char *kind = NULL, *size = NULL, *vanilla = NULL, *outp = NULL;
    int count = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--kind") && i + 1 < argc) kind = argv[++i];
        else if (!strcmp(argv[i], "--sector-size") && i + 1 < argc) size = argv[++i];
        else if (!strcmp(argv[i], "--vanilla") && i + 1 < argc) vanilla = argv[++i];
        else if (!strcmp(argv[i], "--count")) count = 1;
        else if (!strcmp(argv[i], "-o") && i + 1 < argc) outp = argv[++i];
        else {
            fprintf(stderr, "g16 filecoin circuit: unknown argument %s\n", argv[i]);
            return CLI_ERROR;
        }
    }
    g16_fc_post_kind k;
    if (kind && !strcmp(kind, "window")) k = G16_FC_WINDOW;
    else if (kind && !strcmp(kind, "winning")) k = G16_FC_WINNING;
    else {
        fprintf(stderr, "g16 filecoin circuit: --kind window|winning is required\n");
        return CLI_ERROR;
    }
    if (!size || (!count && !vanilla)) {
        fprintf(stderr, "usage: g16 filecoin circuit --kind window|winning --sector-size SIZE --count\n"
                        "       g16 filecoin circuit --kind window --sector-size SIZE --vanilla VPROOF\n");
        return CLI_ERROR;
    }
    uint64_t bytes;
    g16_status st = g16_fc_parse_sector_size(&bytes, size);
    g16_fc_post_config cfg;
    if (st == G16_OK) st = g16_fc_post_config_for(&cfg, k, bytes);
    if (st != G16_OK) return cli_fail("filecoin circuit", st);
    if (count) {
        g16_fc_counts n;
        st = g16_fc_post_count(&n, &cfg);
        if (st != G16_OK) return cli_fail("filecoin circuit", st);
        printf("constraints %llu\n", (unsigned long long)n.constraints);
        printf("inputs %llu\n", (unsigned long long)n.inputs);
        printf("aux %llu\n", (unsigned long long)n.aux);
        return CLI_OK;
    }
    /* --vanilla: the circuit of one sector's proof (the sectors of one vanilla
     * proof file), built with its witness and checked row by row */
    g16_fc_vproof v;
    st = g16_fc_vproof_read(&v, vanilla);
    if (st != G16_OK) return cli_fail("filecoin circuit", st);
    g16_circuit *c = NULL;
    g16_witness *w = NULL;
    g16_fc_counts n;
    st = g16_fc_post_build(&c, &w, &n, &cfg, &v);
    int rc;
    if (st != G16_OK) {
        rc = cli_fail("filecoin circuit", st);
    } else {
        printf("constraints %llu\ninputs %llu\naux %llu\n", (unsigned long long)n.constraints,
               (unsigned long long)n.inputs, (unsigned long long)n.aux);
        st = g16_circuit_check(c, w);
        if (st == G16_OK) {
            printf("satisfied\n");
            rc = CLI_OK;
            if (outp) rc = save_circuit(c, w, outp);
        } else if (st == G16_ERR_UNSATISFIED) {
            printf("not satisfied: %s\n", g16_last_error());
            rc = CLI_INVALID;
        } else {
            rc = cli_fail("filecoin circuit", st);
        }
    }
    g16_circuit_destroy(c);
    g16_witness_destroy(w);
    g16_fc_vproof_free(&v);
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
    if (!strcmp(argv[1], "circuit")) return cmd_circuit(argc - 1, argv + 1);
    fprintf(stderr, "g16 filecoin: unknown subcommand '%s' (g16 filecoin --help)\n", argv[1]);
    return CLI_ERROR;
}
