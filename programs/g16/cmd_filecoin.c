/* `g16 filecoin ...`: Filecoin's Poseidon, the native PoSt vanilla-proof check and
 * the PoSt circuit counts (docs/filecoin.md). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "common/error.h"
#include "filecoin/poseidon.h"
#include "filecoin/post.h"
#include "filecoin/post_circuit.h"
#include "filecoin/post_fast.h"
#include "filecoin/post_job.h"
#include "filecoin/post_plan.h"
#include "filecoin/vproof.h"
#include "io/json.h"

static const char usage[] =
    "usage: g16 filecoin poseidon --arity 2|4|8|11 X...\n"
    "       g16 filecoin post-check VPROOF --pub PUB.json\n"
    "       g16 filecoin circuit --kind window|winning --sector-size 2KiB|8MiB|32GiB|64GiB --count\n"
    "       g16 filecoin circuit --kind window|winning --sector-size SIZE --vanilla VPROOF [-o C.g16c]\n"
    "       g16 filecoin circuit --kind window|winning --sector-size SIZE -o C.g16c\n"
    "       g16 filecoin post-prove --kind window|winning --sector-size SIZE --params KEY\n"
    "                 --vanilla F [--vanilla F ...] --randomness HEX32 --prover-id HEX32 -o PROOFS\n"
    "                 [--inputs-out FILE] [--priority P] [--backend cpu|cuda|auto]\n"
    "       g16 filecoin make-vanilla --kind window|winning --sector-size SIZE --sector-id N\n"
    "                 --randomness HEX32 --seed S -o F     (TEST-ONLY synthetic vanilla proof)\n"
    "       g16 filecoin synth-bench --kind window|winning --sector-size SIZE --vanilla F --sectors N\n"
    "       g16 filecoin post-bench --kind window|winning --sector-size SIZE --vanilla F|--distinct\n"
    "                 [--sectors N]\n"
    "                 [--backend cpu|cuda|auto] [--reps R] [--overlap] [--witness-only] [--json]\n"
    "                 [--progress]\n"
    "       g16 filecoin winning-sector --randomness HEX32 --prover-id HEX32 --sector-set-size N\n"
    "\n"
    "poseidon    Filecoin's Poseidon (neptune, Standard strength, Merkle-tree domain tag) of\n"
    "            exactly ARITY field elements, each decimal or 0x hex and < r; prints the\n"
    "            digest as 0x big-endian hex.\n"
    "post-check  reads a FallbackPoSt sector vanilla proof (the Rust library's bincode, or the\n"
    "            JSON serde_json writes: every command taking a vanilla proof takes both) and\n"
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
    "            -o without --vanilla writes the matrices of one full partition (no witness):\n"
    "            the input of g16 setup for post-prove's TEST-ONLY keys.\n"
    "post-prove  one 192-byte Groth16 proof a partition, written one after the other to\n"
    "            PROOFS.  Each vanilla proof (bincode, one sector) is checked first: its\n"
    "            challenged leaves from the randomness (byte 31 masked with 0x3f, as Lotus\n"
    "            does), its paths, comm_r.  WindowPoSt sectors fill partitions in the order\n"
    "            given (a short partition repeats its last sector); WinningPoSt takes one\n"
    "            sector's 66 challenges.  The matrices are built once per kind and size, the\n"
    "            witness is streamed from the vanilla proofs, the partitions go to the engine\n"
    "            as one job (priority: WinningPoSt critical, WindowPoSt high, unless\n"
    "            --priority critical|high|normal|low), and every proof is verified\n"
    "            before it is written.  The prover id does not enter the circuit (Winning's\n"
    "            sector is chosen before: winning-sector).  Prints the stage times.  --inputs-out\n"
    "            writes each partition's public inputs (0x hex, a line each) for g16 verify.\n"
    "make-vanilla  TEST-ONLY: a consistent synthetic vanilla proof (a sparse Merkle tree of\n"
    "            drawn nodes, the challenged paths, comm_c drawn) for tests at any size.\n"
    "winning-sector  which sector of a set of N WinningPoSt challenges (its index, 0-based):\n"
    "            u64le(SHA-256(prover id || randomness || 0 u64le)[0..8]) mod N, randomness byte 31\n"
    "            masked with 0x3f; post-prove then takes that sector's vanilla proof.\n"
    "synth-bench times the matrices and the witness of N circuit sectors from one vanilla\n"
    "            proof (repeated) and extrapolates to a full partition.\n"
    "post-bench  one partition timed stage by stage: its matrices (once), the witness from\n"
    "            sector proof 0 of F repeated to N circuit sectors (default: a full partition,\n"
    "            as a short one is padded), synthesis (wall and core-s), a check of a·b = c on\n"
    "            every row, then R proofs (default 2; the fastest and the first printed) with a\n"
    "            TIMING-ONLY key of tiled points: those proofs are NOT valid and not verified.\n"
    "            --progress: a line on stderr as each stage ends.  --overlap: proofs after\n"
    "            the first compute their synthesis beside the MSMs over z (as the engine's\n"
    "            early device start does; its total is then witness + prove).\n"
    "            --distinct instead of --vanilla: each circuit sector its own TEST-ONLY\n"
    "            synthetic sector proof (WinningPoSt: one of 66 challenges), so values do not\n"
    "            repeat across sectors as they do with one proof repeated (the CPU's merged MSMs\n"
    "            sum repeats first, which makes the repeated case far cheaper than a real one).\n"
    "            --witness-only: only the witness, R times (a full partition's fits where\n"
    "            its proof does not); says how many path hashes the IFMA batch made.\n"
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
    if (!size || (!count && !vanilla && !outp)) {
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
    if (!vanilla) { /* -o alone: a full partition's matrices, value-free */
        const g16_circuit *c;
        st = g16_fc_post_circuit_cached(&c, &cfg);
        if (st == G16_OK) st = g16_circuit_save(c, outp);
        if (st != G16_OK) return cli_fail("filecoin circuit", st);
        printf("wrote %s: %llu constraints, %u inputs, %u aux\n", outp, (unsigned long long)c->n_constraints,
               c->n_pub + 1, c->n_aux);
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

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int parse_kind(g16_fc_post_kind *k, const char *kind, const char *cmd)
{
    if (kind && !strcmp(kind, "window")) *k = G16_FC_WINDOW;
    else if (kind && !strcmp(kind, "winning")) *k = G16_FC_WINNING;
    else {
        fprintf(stderr, "g16 filecoin %s: --kind window|winning is required\n", cmd);
        return -1;
    }
    return 0;
}

static int parse_hex32(uint8_t out[32], const char *hex, const char *what)
{
    if (!hex || cli_hex_decode(out, 32, hex, what) != 32) {
        fprintf(stderr, "g16 filecoin: %s: want 64 hex digits (32 bytes)\n", what);
        return -1;
    }
    return 0;
}

#define MAX_VANILLA 65536

/* post-prove's reading of the vanilla proofs and their plan, on a thread of its own
 * while the key is read and the matrices built (each ~35-50 ms of one core for
 * WinningPoSt 32 GiB, a few per cent of its ≤ 3 s bar). */
typedef struct vread_job {
    const char **files;
    size_t nf, nread;
    g16_fc_vproof *v;
    const g16_fc_post_config *cfg;
    const uint8_t *rnd;
    g16_fc_sector_ref *refs;
    unsigned parts;
    g16_status st;
    char err[512];  /* the failure's message: errors are per thread */
    double done_s;
} vread_job;

static void *vread_run(void *arg)
{
    vread_job *j = arg;
    g16_status st = G16_OK;
    for (; st == G16_OK && j->nread < j->nf; j->nread++) st = g16_fc_vproof_read(&j->v[j->nread], j->files[j->nread]);
    if (st != G16_OK && j->nread > 0) j->nread--; /* the failed one holds nothing */
    if (st == G16_OK) st = g16_fc_post_plan(&j->refs, &j->parts, j->cfg, j->v, j->nf, j->rnd);
    if (st != G16_OK) snprintf(j->err, sizeof j->err, "%s", g16_last_error());
    j->st = st;
    j->done_s = now_s();
    return NULL;
}

static int cmd_post_prove(int argc, char **argv)
{
    const char *kind = NULL, *size = NULL, *params = NULL, *rnd_hex = NULL, *prover_hex = NULL, *outp = NULL,
               *backend = "auto", *inputs_out = NULL, *prio_name = NULL;
    const char **files = calloc(MAX_VANILLA, sizeof *files);
    size_t nf = 0;
    if (!files) return cli_fail("filecoin post-prove", G16_ERR_NOMEM);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (i + 1 >= argc) {
            fprintf(stderr, "g16 filecoin post-prove: option '%s' needs a value (or is unknown)\n", a);
            free(files);
            return CLI_ERROR;
        }
        if (!strcmp(a, "--kind")) kind = argv[++i];
        else if (!strcmp(a, "--sector-size")) size = argv[++i];
        else if (!strcmp(a, "--params")) params = argv[++i];
        else if (!strcmp(a, "--randomness")) rnd_hex = argv[++i];
        else if (!strcmp(a, "--prover-id")) prover_hex = argv[++i];
        else if (!strcmp(a, "-o") || !strcmp(a, "--out")) outp = argv[++i];
        else if (!strcmp(a, "--backend")) backend = argv[++i];
        else if (!strcmp(a, "--inputs-out")) inputs_out = argv[++i];
        else if (!strcmp(a, "--priority")) prio_name = argv[++i];
        else if (!strcmp(a, "--vanilla") && nf < MAX_VANILLA) files[nf++] = argv[++i];
        else {
            fprintf(stderr, "g16 filecoin post-prove: unknown option '%s' (g16 filecoin --help)\n", a);
            free(files);
            return CLI_ERROR;
        }
    }
    g16_fc_post_kind k;
    uint8_t rnd[32], prover[32];
    g16_priority prio = G16_PRIO_NORMAL;
    if (parse_kind(&k, kind, "post-prove") || parse_hex32(rnd, rnd_hex, "--randomness") ||
        parse_hex32(prover, prover_hex, "--prover-id")) {
        free(files);
        return CLI_ERROR;
    }
    if (prio_name && g16_priority_parse(&prio, prio_name) != G16_OK) {
        fprintf(stderr, "g16 filecoin post-prove: --priority %s: want critical, high, normal or low\n", prio_name);
        free(files);
        return CLI_ERROR;
    }
    if (!size || !params || !outp || nf == 0) {
        fprintf(stderr, "g16 filecoin post-prove: --sector-size, --params, --vanilla and -o are required\n");
        free(files);
        return CLI_ERROR;
    }
    double t0 = now_s();
    uint64_t bytes;
    g16_fc_post_config cfg;
    g16_status st = g16_fc_parse_sector_size(&bytes, size);
    if (st == G16_OK) st = g16_fc_post_config_for(&cfg, k, bytes);
    g16_fc_vproof *v = calloc(nf, sizeof *v);
    if (st == G16_OK && !v) st = g16_fail(G16_ERR_NOMEM, "vanilla proofs");
    vread_job vj = {files, nf, 0, v, &cfg, rnd, NULL, 0, G16_OK, "", 0};
    pthread_t vt;
    int threaded = 0;
    if (st == G16_OK) {
        threaded = pthread_create(&vt, NULL, vread_run, &vj) == 0;
        if (!threaded) vread_run(&vj); /* no thread to be had: in turn */
    }
    /* meanwhile: the key, its shape against the layout, the matrices */
    g16_backend_kind bk = G16_BACKEND_AUTO;
    g16_key *key = NULL;
    if (st == G16_OK) st = g16_backend_parse(backend, &bk);
    if (st == G16_OK) st = cli_key_read(&key, params, 0);
    double t_key = now_s();
    g16_fc_layout lay;
    if (st == G16_OK) st = g16_fc_layout_for(&lay, &cfg);
    /* a key of another shape is refused before a partition's matrices are built */
    uint64_t want_pub = st == G16_OK ? (uint64_t)lay.circuit_sectors * lay.pub : 0;
    if (st == G16_OK && g16_vk_inputs(g16_key_vk(key)) != want_pub)
        st = g16_fail(G16_ERR_ARG, "%s: a key for %llu public inputs; this PoSt's partition has %llu", params,
                      (unsigned long long)g16_vk_inputs(g16_key_vk(key)), (unsigned long long)want_pub);
    /* the matrices first, timed on their own (the job then finds them cached) */
    const g16_circuit *c = NULL;
    if (st == G16_OK) st = g16_fc_post_circuit_cached(&c, &cfg);
    double t_circ = now_s();
    if (threaded) pthread_join(vt, NULL);
    size_t nread = vj.nread;
    g16_fc_sector_ref *refs = vj.refs;
    unsigned parts = vj.parts;
    if (vj.st != G16_OK) st = g16_fail(vj.st, "%s", vj.err); /* reported first, as when it ran first */
    double t_read = vj.done_s ? vj.done_s : t0;
    g16_engine *e = NULL;
    g16_engine_config ecfg;
    g16_engine_config_default(&ecfg);
    ecfg.backend = (int)bk;
    if (st == G16_OK) st = g16_engine_create(&e, &ecfg);
    g16_fc_post_job *job = NULL;
    if (st == G16_OK) st = g16_fc_post_submit(&job, e, key, &cfg, refs, parts, prio_name ? (int)prio : -1);
    double t_sub = now_s();
    uint8_t *proofs = NULL, *inputs = NULL;
    if (st == G16_OK) {
        proofs = malloc((size_t)parts * G16_PROOF_BYTES);
        inputs = malloc((size_t)parts * c->n_pub * 32);
        if (!proofs || !inputs) st = g16_fail(G16_ERR_NOMEM, "proofs");
    }
    if (st == G16_OK) st = g16_engine_await(e, job->id, -1, proofs, (size_t)parts * G16_PROOF_BYTES, NULL);
    double t_prove = now_s();
    for (unsigned p = 0; st == G16_OK && p < parts; p++) {
        uint8_t *in_p = &inputs[(size_t)p * c->n_pub * 32];
        st = g16_fc_post_job_inputs(job, p, in_p);
        if (st == G16_OK) {
            st = g16_verify(g16_key_vk(key), &proofs[(size_t)p * G16_PROOF_BYTES], in_p, c->n_pub);
            if (st != G16_OK) st = g16_fail(st, "partition %u: the proof does not verify", p);
        }
    }
    double t_verify = now_s();
    if (st == G16_OK) st = g16_proof_file_write(outp, proofs, parts);
    if (st == G16_OK && inputs_out) {
        FILE *fi = fopen(inputs_out, "w");
        int okw = fi != NULL;
        for (size_t i = 0; okw && i < (size_t)parts * c->n_pub; i++) {
            fputs("0x", fi);
            for (int j = 0; j < 32; j++) fprintf(fi, "%02x", inputs[i * 32 + j]);
            fputc('\n', fi);
        }
        if (fi && fclose(fi) != 0) okw = 0;
        if (!okw) st = g16_fail(G16_ERR_IO, "%s: cannot write the public inputs", inputs_out);
    }
    int rc;
    if (st == G16_OK) {
        static const char *const pn[] = {"critical", "high", "normal", "low"};
        printf("%u partition(s), %zu sector(s): %u proof(s) verified, written to %s (%u bytes); engine job "
               "priority %s\n",
               parts, nf, parts, outp, parts * G16_PROOF_BYTES, pn[job->priority]);
        /* read+check runs beside key and matrices (vread_job): each from t0 */
        printf("times: read+check %.3f s, key %.3f s, matrices %.3f s (beside read+check), submit %.3f s, "
               "prove %.3f s (witnesses %.3f s of it, written by the engine), verify %.3f s, total %.3f s\n",
               t_read - t0, t_key - t0, t_circ - t_key, t_sub - (t_circ > t_read ? t_circ : t_read),
               t_prove - t_sub, g16_fc_post_job_witness_s(job), t_verify - t_prove, now_s() - t0);
        rc = CLI_OK;
    } else if (st == G16_ERR_UNSATISFIED) {
        printf("invalid: %s\n", g16_last_error());
        rc = CLI_INVALID;
    } else {
        rc = cli_fail("filecoin post-prove", st);
    }
    if (job && st != G16_OK && e) g16_engine_cancel(e, job->id);
    g16_engine_destroy(e, 0);
    g16_fc_post_job_free(job);
    free(refs);
    free(proofs);
    free(inputs);
    g16_key_release(key);
    for (size_t i = 0; i < nread; i++) g16_fc_vproof_free(&v[i]);
    free(v);
    free(files);
    return rc;
}

static int cmd_winning_sector(int argc, char **argv)
{
    const char *rnd_hex = NULL, *prover_hex = NULL, *set = NULL;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--randomness")) rnd_hex = argv[i + 1];
        else if (!strcmp(argv[i], "--prover-id")) prover_hex = argv[i + 1];
        else if (!strcmp(argv[i], "--sector-set-size")) set = argv[i + 1];
        else {
            fprintf(stderr, "g16 filecoin winning-sector: unknown option '%s'\n", argv[i]);
            return CLI_ERROR;
        }
    }
    uint8_t rnd[32], prover[32];
    if (parse_hex32(rnd, rnd_hex, "--randomness") || parse_hex32(prover, prover_hex, "--prover-id")) return CLI_ERROR;
    char *end = NULL;
    unsigned long long n = set ? strtoull(set, &end, 10) : 0;
    if (!set || !*set || *end || n == 0) {
        fprintf(stderr, "g16 filecoin winning-sector: --sector-set-size N (N >= 1) is required\n");
        return CLI_ERROR;
    }
    printf("sector index %llu\n", (unsigned long long)g16_fc_winning_sector(rnd, prover, 0, n));
    return CLI_OK;
}

static double cpu_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Times the matrices and the witness of n circuit sectors (each from the one
 * vanilla proof given) and extrapolates to a full partition. */
static int cmd_synth_bench(int argc, char **argv)
{
    const char *kind = NULL, *size = NULL, *vanilla = NULL;
    unsigned n = 0;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--kind")) kind = argv[i + 1];
        else if (!strcmp(argv[i], "--sector-size")) size = argv[i + 1];
        else if (!strcmp(argv[i], "--vanilla")) vanilla = argv[i + 1];
        else if (!strcmp(argv[i], "--sectors")) n = (unsigned)strtoul(argv[i + 1], NULL, 10);
        else {
            fprintf(stderr, "g16 filecoin synth-bench: unknown option '%s'\n", argv[i]);
            return CLI_ERROR;
        }
    }
    g16_fc_post_kind k;
    if (parse_kind(&k, kind, "synth-bench")) return CLI_ERROR;
    if (!size || !vanilla || n == 0 || n > 100000) {
        fprintf(stderr, "g16 filecoin synth-bench: --sector-size, --vanilla and --sectors N (1..100000) are required\n");
        return CLI_ERROR;
    }
    uint64_t bytes;
    g16_fc_post_config cfg;
    g16_fc_layout lay;
    g16_fc_vproof v;
    g16_status st = g16_fc_parse_sector_size(&bytes, size);
    if (st == G16_OK) st = g16_fc_post_config_for(&cfg, k, bytes);
    if (st == G16_OK) st = g16_fc_layout_for(&lay, &cfg);
    if (st != G16_OK) return cli_fail("filecoin synth-bench", st);
    if ((st = g16_fc_vproof_read(&v, vanilla)) != G16_OK) return cli_fail("filecoin synth-bench", st);
    g16_fc_sector_ref *refs = calloc(n, sizeof *refs);
    g16_circuit *c = NULL;
    g16_witness *w = NULL;
    if (!refs) st = g16_fail(G16_ERR_NOMEM, "refs");
    for (unsigned j = 0; refs && j < n; j++)
        refs[j] = (g16_fc_sector_ref){&v, 0, k == G16_FC_WINNING ? j % v.sectors[0].n_incl : 0};
    double w0 = now_s(), c0 = cpu_s();
    if (st == G16_OK) st = g16_fc_post_circuit(&c, &cfg, n);
    double w1 = now_s(), c1 = cpu_s();
    if (st == G16_OK) st = g16_fc_post_witness(&w, &cfg, refs, n);
    double w2 = now_s(), c2 = cpu_s();
    int rc = CLI_OK;
    if (st == G16_OK) {
        double f = (double)lay.circuit_sectors / n;
        printf("%u circuit sectors (%llu rows, %llu terms in A+B+C, %.1f MiB of matrices)\n", n,
               (unsigned long long)c->n_constraints,
               (unsigned long long)(c->a.row_start[c->n_constraints] + c->b.row_start[c->n_constraints] +
                                    c->c.row_start[c->n_constraints]),
               (double)g16_circuit_bytes(c) / (1 << 20));
        printf("matrices: %.3f s wall, %.3f core-s\n", w1 - w0, c1 - c0);
        printf("witness:  %.3f s wall, %.3f core-s (%.2f ms a circuit sector, %.1f MiB)\n", w2 - w1, c2 - c1,
               1e3 * (c2 - c1) / n, (double)w->n * sizeof(g16_fr) / (1 << 20));
        printf("a full partition (%u circuit sectors), extrapolated: matrices %.1f core-s, %.0f MiB; witness %.1f "
               "core-s, %.0f MiB\n",
               lay.circuit_sectors, (c1 - c0) * f, (double)g16_circuit_bytes(c) * f / (1 << 20), (c2 - c1) * f,
               (double)w->n * f * sizeof(g16_fr) / (1 << 20));
    } else {
        rc = cli_fail("filecoin synth-bench", st);
    }
    g16_circuit_destroy(c);
    g16_witness_destroy(w);
    free(refs);
    g16_fc_vproof_free(&v);
    return rc;
}

static int cmd_make_vanilla(int argc, char **argv)
{
    const char *kind = NULL, *size = NULL, *id = NULL, *rnd_hex = NULL, *seed = NULL, *outp = NULL;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--kind")) kind = argv[i + 1];
        else if (!strcmp(argv[i], "--sector-size")) size = argv[i + 1];
        else if (!strcmp(argv[i], "--sector-id")) id = argv[i + 1];
        else if (!strcmp(argv[i], "--randomness")) rnd_hex = argv[i + 1];
        else if (!strcmp(argv[i], "--seed")) seed = argv[i + 1];
        else if (!strcmp(argv[i], "-o")) outp = argv[i + 1];
        else {
            fprintf(stderr, "g16 filecoin make-vanilla: unknown option '%s'\n", argv[i]);
            return CLI_ERROR;
        }
    }
    g16_fc_post_kind k;
    uint8_t rnd[32];
    if (parse_kind(&k, kind, "make-vanilla") || parse_hex32(rnd, rnd_hex, "--randomness")) return CLI_ERROR;
    char *end = NULL;
    unsigned long long sid = id ? strtoull(id, &end, 10) : 0;
    if (!size || !id || !seed || !outp || !end || *end || !*id) {
        fprintf(stderr, "g16 filecoin make-vanilla: --sector-size, --sector-id N, --seed and -o are required\n");
        return CLI_ERROR;
    }
    uint64_t bytes;
    g16_fc_post_config cfg;
    g16_status st = g16_fc_parse_sector_size(&bytes, size);
    if (st == G16_OK) st = g16_fc_post_config_for(&cfg, k, bytes);
    uint8_t *buf = NULL;
    size_t n = 0;
    if (st == G16_OK)
        st = g16_fc_vproof_synth(&buf, &n, &cfg, sid, rnd, (const uint8_t *)seed, strlen(seed));
    if (st != G16_OK) return cli_fail("filecoin make-vanilla", st);
    FILE *f = fopen(outp, "wb");
    int ok = f && fwrite(buf, 1, n, f) == n;
    if (f && fclose(f) != 0) ok = 0;
    free(buf);
    if (!ok) {
        fprintf(stderr, "g16 filecoin make-vanilla: %s: cannot write\n", outp);
        return CLI_ERROR;
    }
    printf("wrote %s (%zu bytes, TEST-ONLY synthetic sector %llu)\n", outp, n, sid);
    return CLI_OK;
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
    if (!strcmp(argv[1], "post-prove")) return cmd_post_prove(argc - 1, argv + 1);
    if (!strcmp(argv[1], "winning-sector")) return cmd_winning_sector(argc - 1, argv + 1);
    if (!strcmp(argv[1], "synth-bench")) return cmd_synth_bench(argc - 1, argv + 1);
    if (!strcmp(argv[1], "post-bench")) return cli_filecoin_post_bench(argc - 1, argv + 1);
    if (!strcmp(argv[1], "make-vanilla")) return cmd_make_vanilla(argc - 1, argv + 1);
    fprintf(stderr, "g16 filecoin: unknown subcommand '%s' (g16 filecoin --help)\n", argv[1]);
    return CLI_ERROR;
}
