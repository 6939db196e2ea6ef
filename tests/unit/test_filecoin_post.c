/* FallbackPoSt vanilla proofs: the real 32 GiB WindowPoSt sector proof (Curio's
 * testgolden, copied to tests/filecoin) parses and passes the native check; every
 * changed byte, every truncation and an extension fail it (never valid, never a
 * crash); hostile lengths are refused before allocation; the public JSON's CID and
 * randomness are decoded and checked. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "common/error.h"
#include "files.h"
#include "filecoin/post.h"
#include "filecoin/vproof.h"

#define FIXTURES G16_VECTOR_DIR "/../filecoin/"
#define VPROOF FIXTURES "window-post-32g-sector1.vproof"
#define PUB FIXTURES "window-post-32g-sector1.pub.json"

static g16_status check_bytes(const uint8_t *b, size_t n, const g16_fc_post_pub *pub)
{
    g16_fc_vproof v;
    g16_status st = g16_fc_vproof_parse(&v, b, n, "mutant");
    if (st != G16_OK) return st;
    st = g16_fc_post_check(&v, pub);
    g16_fc_vproof_free(&v);
    return st;
}

static void test_real(const uint8_t *buf, size_t n, const g16_fc_post_pub *pub)
{
    CHECK(pub->kind == G16_FC_WINDOW && pub->sector_size == 32ull << 30, "proof type 8 is a 32 GiB WindowPoSt");
    CHECK(pub->n_sectors == 1 && pub->sectors[0].number == 1 && pub->prover == 1000, "public sector 1, prover 1000");
    g16_fc_vproof v;
    g16_status st = g16_fc_vproof_parse(&v, buf, n, "real");
    CHECK(st == G16_OK, "parse: %s", g16_last_error());
    if (st != G16_OK) return;
    CHECK(v.sector_id == 1 && v.n_sectors == 1 && v.n_incl == 10, "sector 1, one sector proof, 10 inclusion proofs");
    /* the sealed CID's digest is the proof's comm_r, byte for byte */
    CHECK(!memcmp(v.comm_r_le, pub->sectors[0].comm_r_le, 32), "CID digest = comm_r");
    for (uint64_t j = 0; j < v.n_incl; j++) {
        const g16_fc_inclusion *inc = &v.incl[j];
        CHECK(inc->kind == 1 && inc->n_levels[0] == 9 && inc->n_levels[1] == 1 && inc->n_levels[2] == 0,
              "proof %llu: a sub-tree proof, 9 base levels and 1 sub level", (unsigned long long)j);
        g16_fr root;
        CHECK(g16_fc_path_root(&root, &v, inc) == G16_OK && g16_fr_eq(&root, &v.sectors[0].comm_r_last),
              "proof %llu: path hashes to comm_r_last", (unsigned long long)j);
        CHECK(inc->leaf_index == g16_fc_challenge_leaf(pub->randomness, 1, j, 1ull << 30),
              "proof %llu opens its challenged leaf", (unsigned long long)j);
    }
    /* the first challenge's leaf as the file's own path indices spell it */
    CHECK(v.incl[0].leaf_index == 707914199, "leaf of challenge 0: %llu", (unsigned long long)v.incl[0].leaf_index);
    CHECK(g16_fc_post_check(&v, pub) == G16_OK, "real proof valid: %s", g16_last_error());
    g16_fc_vproof_free(&v);
}

/* Changed bytes: every byte of the header, the first and the last inclusion proof
 * and the trailing commitments (so every field kind: lengths, tags, siblings,
 * indices, roots, leaves, comm_c, comm_r_last; the last proof's base path every
 * 3rd byte), and every 31st byte in between;
 * two different flips each (one in the last proof, whose check hashes every path).
 * Then every truncation and one extension. */
static void test_mutations(const uint8_t *buf, size_t n, const g16_fc_post_pub *pub)
{
    uint8_t *m = malloc(n + 1);
    long valid = 0, crashes_avoided = 0;
    const size_t first_end = 56 + 2484 + 8, last_start = n - 64 - 2484 - 8;
    long tried = 0;
    for (size_t i = 0; i < n; i++) {
        if (i >= first_end && i < last_start && i % 31) continue;
        /* the last proof's base path (its check hashes every path): every 3rd byte */
        if (i >= last_start && i < n - 64 - 64 - 248 && i % 3) continue;
        int flips = i >= last_start && i < n - 64 ? 1 : 2;
        tried += flips;
        for (int f = 0; f < flips; f++) {
            memcpy(m, buf, n);
            m[i] ^= f ? 0x80 : 0x01;
            g16_status st = check_bytes(m, n, pub);
            if (st == G16_OK) {
                valid++;
                CHECK(0, "byte %zu ^ 0x%02x still valid", i, f ? 0x80 : 0x01);
            } else {
                crashes_avoided++;
            }
            CHECK(st == G16_ERR_UNSATISFIED || st == G16_ERR_FORMAT, "byte %zu: status %d", i, (int)st);
        }
    }
    CHECK(valid == 0 && crashes_avoided == tried && tried > 6000, "mutants: %ld valid of %ld", valid, tried);
    for (size_t len = 0; len < n; len++) {
        g16_fc_vproof v;
        g16_status st = g16_fc_vproof_parse(&v, buf, len, "cut");
        CHECK(st == G16_ERR_FORMAT, "truncated to %zu bytes: status %d", len, (int)st);
        if (st == G16_OK) g16_fc_vproof_free(&v);
    }
    memcpy(m, buf, n);
    m[n] = 0;
    CHECK(check_bytes(m, n + 1, pub) == G16_ERR_FORMAT, "one extra byte");
    CHECK(strstr(g16_last_error(), "offset 24960") != NULL, "extension message names the offset: %s",
          g16_last_error());
    free(m);
}

static void put_u64(uint8_t *p, uint64_t v)
{
    for (int i = 0; i < 8; i++) p[i] = (uint8_t)(v >> (8 * i));
}

/* Lengths far beyond the file are refused by the bounds check, not by malloc. */
static void test_hostile_lengths(const uint8_t *buf, size_t n)
{
    uint8_t *m = malloc(n);
    const struct { size_t off; const char *what; } fields[] = {
        {40, "sectors"}, {48, "inclusion_proofs"}, {60, "base path"}, {68, "path element hashes"}};
    const uint64_t lens[] = {1ull << 62, UINT64_MAX, 1000000};
    for (size_t f = 0; f < sizeof fields / sizeof fields[0]; f++)
        for (size_t k = 0; k < 3; k++) {
            memcpy(m, buf, n);
            put_u64(m + fields[f].off, lens[k]);
            g16_fc_vproof v;
            g16_status st = g16_fc_vproof_parse(&v, m, n, "hostile");
            CHECK(st == G16_ERR_FORMAT, "%s = %llu: status %d", fields[f].what, (unsigned long long)lens[k], (int)st);
            CHECK(strstr(g16_last_error(), "hostile: offset") != NULL, "message names the offset: %s",
                  g16_last_error());
        }
    free(m);
}

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    fputs(text, f);
    fclose(f);
}

static void test_pub_errors(void)
{
    char path[] = "/tmp/g16_fc_pubXXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0, "temp file");
    if (fd < 0) return;
    close(fd);
    static const char *bad[] = {
        /* randomness of 31 bytes */
        "{\"Randomness\":\"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA==\",\"Proofs\":[{\"PoStProof\":8}],"
        "\"ChallengedSectors\":[{\"SectorNumber\":1,\"SealedCID\":{\"/\":\"bagboea4b5abcbx3jccdohrttzfneleehcpkmle4oltwuh4q3rcf5tpdodaoj6mtl\"}}],\"Prover\":1000}",
        /* an unsealed-commitment CID codec (one base32 digit changed) */
        "{\"Randomness\":\"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=\",\"Proofs\":[{\"PoStProof\":8}],"
        "\"ChallengedSectors\":[{\"SectorNumber\":1,\"SealedCID\":{\"/\":\"bagaoea4b5abcbx3jccdohrttzfneleehcpkmle4oltwuh4q3rcf5tpdodaoj6mtl\"}}],\"Prover\":1000}",
        /* unknown proof type */
        "{\"Randomness\":\"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=\",\"Proofs\":[{\"PoStProof\":99}],"
        "\"ChallengedSectors\":[{\"SectorNumber\":1,\"SealedCID\":{\"/\":\"bagboea4b5abcbx3jccdohrttzfneleehcpkmle4oltwuh4q3rcf5tpdodaoj6mtl\"}}],\"Prover\":1000}",
        /* missing sector number */
        "{\"Randomness\":\"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=\",\"Proofs\":[{\"PoStProof\":8}],"
        "\"ChallengedSectors\":[{\"SealedCID\":{\"/\":\"bagboea4b5abcbx3jccdohrttzfneleehcpkmle4oltwuh4q3rcf5tpdodaoj6mtl\"}}],\"Prover\":1000}",
        "[1, 2",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        write_file(path, bad[i]);
        g16_fc_post_pub pub;
        g16_status st = g16_fc_post_pub_read(&pub, path);
        CHECK(st == G16_ERR_FORMAT, "bad public JSON %zu: status %d", i, (int)st);
        CHECK(strstr(g16_last_error(), path) != NULL, "message names the file: %s", g16_last_error());
    }
    unlink(path);
    g16_fc_post_pub pub;
    CHECK(g16_fc_post_pub_read(&pub, "/nonexistent/pub.json") == G16_ERR_IO, "missing file");
}

/* The same proof against other public sides: another sector number, other
 * randomness (other challenged leaves), another sector size. */
static void test_wrong_public(const uint8_t *buf, size_t n, const g16_fc_post_pub *pub0)
{
    g16_fc_post_pub pub = *pub0;
    pub.sectors = malloc(sizeof *pub.sectors);
    pub.sectors[0] = pub0->sectors[0];
    pub.sectors[0].number = 2;
    CHECK(check_bytes(buf, n, &pub) == G16_ERR_UNSATISFIED, "sector 2 is not challenged");
    pub.sectors[0].number = 1;
    pub.randomness[0] = 1;
    CHECK(check_bytes(buf, n, &pub) == G16_ERR_UNSATISFIED, "other randomness: other leaves");
    CHECK(strstr(g16_last_error(), "challenge 0 names leaf") != NULL, "%s", g16_last_error());
    pub.randomness[0] = 0;
    /* the top two bits of byte 31 are masked off (FVM verify_post), so this is the
     * same randomness; bit 5 is not */
    pub.randomness[31] = 0xc0;
    CHECK(check_bytes(buf, n, &pub) == G16_OK, "randomness[31] & 0x3f is what counts");
    pub.randomness[31] = 0x20;
    CHECK(check_bytes(buf, n, &pub) == G16_ERR_UNSATISFIED, "randomness bit 253 changes the leaves");
    pub.randomness[31] = 0;
    pub.sector_size = 64ull << 30;
    CHECK(check_bytes(buf, n, &pub) == G16_ERR_UNSATISFIED, "a 64 GiB tree wants top-tree proofs");
    pub.sector_size = 32ull << 30;
    pub.kind = G16_FC_WINNING;
    CHECK(check_bytes(buf, n, &pub) == G16_ERR_UNSATISFIED, "WinningPoSt wants 66 challenges");
    pub.kind = G16_FC_WINDOW;
    CHECK(check_bytes(buf, n, &pub) == G16_OK, "restored public side valid");
    free(pub.sectors);
}

static void test_shapes(void)
{
    g16_fc_post_config c;
    CHECK(g16_fc_post_config_for(&c, G16_FC_WINDOW, 32ull << 30) == G16_OK && c.sectors == 2349 &&
              c.challenges == 10 && c.shape.base_levels == 9 && c.shape.sub_arity == 8 && c.shape.top_arity == 0,
          "window 32 GiB");
    CHECK(g16_fc_post_config_for(&c, G16_FC_WINDOW, 64ull << 30) == G16_OK && c.sectors == 2300 &&
              c.shape.base_levels == 9 && c.shape.top_arity == 2,
          "window 64 GiB");
    CHECK(g16_fc_post_config_for(&c, G16_FC_WINDOW, 2048) == G16_OK && c.sectors == 2 && c.shape.base_levels == 2 &&
              c.shape.sub_arity == 0,
          "window 2 KiB");
    CHECK(g16_fc_post_config_for(&c, G16_FC_WINNING, 8ull << 20) == G16_OK && c.sectors == 1 &&
              c.challenges == 66 && c.shape.base_levels == 6,
          "winning 8 MiB");
    CHECK(g16_fc_post_config_for(&c, G16_FC_WINDOW, 4096) == G16_ERR_ARG, "4 KiB not supported");
    uint64_t sz;
    CHECK(g16_fc_parse_sector_size(&sz, "32GiB") == G16_OK && sz == 32ull << 30, "32GiB");
    CHECK(g16_fc_parse_sector_size(&sz, "32G") == G16_ERR_ARG, "32G refused");
}

int main(void)
{
    size_t n = 0;
    uint8_t *buf = g16_test_slurp(VPROOF, &n, 1);
    CHECK(buf && n == 24960, "fixture %s: %zu bytes", VPROOF, n);
    g16_fc_post_pub pub;
    g16_status st = g16_fc_post_pub_read(&pub, PUB);
    CHECK(st == G16_OK, "public side: %s", g16_last_error());
    test_shapes();
    test_pub_errors();
    if (buf && st == G16_OK) {
        test_real(buf, n, &pub);
        test_wrong_public(buf, n, &pub);
        test_hostile_lengths(buf, n);
        test_mutations(buf, n, &pub);
    }
    g16_fc_post_pub_free(&pub);
    free(buf);
    return g16_test_finish("test_filecoin_post");
}
