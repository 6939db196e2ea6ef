/* The public side of a WindowPoSt (Go's WindowPoStVerifyInfo JSON) and sealed
 * CIDs (post.h). */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "filecoin/post.h"

#define GIB (1024ull * 1024ull * 1024ull)

/* Multicodec numbers of a sealed-sector commitment CID (go-fil-commcid). */
#define CODEC_FIL_COMMITMENT_SEALED 0xf102
#define MH_POSEIDON_BLS12_381_A2_FC1 0xb401

static int b64val(int c)
{
    if (c >= 'A' && c <= 'Z') return c - 'A';
    if (c >= 'a' && c <= 'z') return c - 'a' + 26;
    if (c >= '0' && c <= '9') return c - '0' + 52;
    if (c == '+') return 62;
    if (c == '/') return 63;
    return -1;
}

/* Standard base64 with padding; returns the byte count or -1. */
static long b64_decode(uint8_t *out, size_t cap, const char *s)
{
    size_t n = strlen(s), o = 0;
    if (n % 4) return -1;
    for (size_t i = 0; i < n; i += 4) {
        int v[4], pad = 0;
        for (int k = 0; k < 4; k++) {
            if (s[i + k] == '=' && i + 4 == n && k >= 2) {
                v[k] = 0;
                pad++;
            } else if (pad || (v[k] = b64val(s[i + k])) < 0) {
                return -1;
            }
        }
        uint32_t w = (uint32_t)v[0] << 18 | (uint32_t)v[1] << 12 | (uint32_t)v[2] << 6 | (uint32_t)v[3];
        for (int k = 0; k < 3 - pad; k++) {
            if (o == cap) return -1;
            out[o++] = (uint8_t)(w >> (16 - 8 * k));
        }
    }
    return (long)o;
}

/* RFC 4648 base32, lower case, no padding (multibase 'b'); -1 on a bad char. */
static long b32_decode(uint8_t *out, size_t cap, const char *s)
{
    uint32_t acc = 0;
    int bits = 0;
    size_t o = 0;
    for (; *s; s++) {
        int v;
        if (*s >= 'a' && *s <= 'z') v = *s - 'a';
        else if (*s >= '2' && *s <= '7') v = *s - '2' + 26;
        else return -1;
        acc = acc << 5 | (uint32_t)v;
        bits += 5;
        if (bits >= 8) {
            if (o == cap) return -1;
            out[o++] = (uint8_t)(acc >> (bits - 8));
            bits -= 8;
        }
        acc &= (1u << bits) - 1;
    }
    return (long)o;
}

static int uvarint(const uint8_t *p, size_t n, size_t *at, uint64_t *v)
{
    uint64_t x = 0;
    for (unsigned shift = 0; *at < n && shift < 64; shift += 7) {
        uint8_t b = p[(*at)++];
        x |= (uint64_t)(b & 0x7f) << shift;
        if (!(b & 0x80)) {
            *v = x;
            return 0;
        }
    }
    return -1;
}

g16_status g16_fc_cid_to_comm_r(uint8_t comm_r_le[32], const char *cid)
{
    if (cid[0] != 'b')
        return g16_fail(G16_ERR_FORMAT, "CID '%.80s': want multibase 'b' (base32)", cid);
    uint8_t raw[128];
    long n = b32_decode(raw, sizeof raw, cid + 1);
    if (n < 0) return g16_fail(G16_ERR_FORMAT, "CID '%.80s': not base32", cid);
    size_t at = 0;
    uint64_t version = 0, codec = 0, mh = 0, len = 0;
    if (uvarint(raw, (size_t)n, &at, &version) || version != 1)
        return g16_fail(G16_ERR_FORMAT, "CID '%.80s': want CID version 1", cid);
    if (uvarint(raw, (size_t)n, &at, &codec) || codec != CODEC_FIL_COMMITMENT_SEALED)
        return g16_fail(G16_ERR_FORMAT, "CID '%.80s': codec 0x%llx; want fil-commitment-sealed (0xf102)", cid,
                        (unsigned long long)codec);
    if (uvarint(raw, (size_t)n, &at, &mh) || mh != MH_POSEIDON_BLS12_381_A2_FC1)
        return g16_fail(G16_ERR_FORMAT, "CID '%.80s': multihash 0x%llx; want poseidon-bls12_381-a2-fc1 (0xb401)",
                        cid, (unsigned long long)mh);
    if (uvarint(raw, (size_t)n, &at, &len) || len != 32 || (size_t)n - at != 32)
        return g16_fail(G16_ERR_FORMAT, "CID '%.80s': want a 32-byte digest", cid);
    memcpy(comm_r_le, raw + at, 32);
    return G16_OK;
}

/* Go's abi.RegisteredPoStProof numbering (go-state-types). */
static int proof_type(int64_t t, g16_fc_post_kind *kind, uint64_t *size)
{
    static const uint64_t sizes[5] = {2048, 8ull << 20, 512ull << 20, 32 * GIB, 64 * GIB};
    if (t >= 0 && t <= 4) {
        *kind = G16_FC_WINNING;
        *size = sizes[t];
    } else if (t >= 5 && t <= 9) {
        *kind = G16_FC_WINDOW;
        *size = sizes[t - 5];
    } else if (t >= 10 && t <= 14) { /* the V1_1 window types */
        *kind = G16_FC_WINDOW;
        *size = sizes[t - 10];
    } else {
        return -1;
    }
    return 0;
}

static g16_status get_u64(uint64_t *out, json_t *obj, const char *key, const char *path, const char *where)
{
    json_t *v = json_object_get(obj, key);
    if (!json_is_integer(v) || json_integer_value(v) < 0)
        return g16_fail(G16_ERR_FORMAT, "%s: %s: want a non-negative integer \"%s\"", path, where, key);
    *out = (uint64_t)json_integer_value(v);
    return G16_OK;
}

static g16_status parse(g16_fc_post_pub *out, json_t *root, const char *path)
{
    if (!json_is_object(root)) return g16_fail(G16_ERR_FORMAT, "%s: want a JSON object", path);
    json_t *r = json_object_get(root, "Randomness");
    if (!json_is_string(r) || b64_decode(out->randomness, 32, json_string_value(r)) != 32)
        return g16_fail(G16_ERR_FORMAT, "%s: \"Randomness\": want base64 of 32 bytes", path);
    json_t *proofs = json_object_get(root, "Proofs");
    if (!json_is_array(proofs) || json_array_size(proofs) < 1)
        return g16_fail(G16_ERR_FORMAT, "%s: \"Proofs\": want an array of at least one proof", path);
    json_t *pt = json_object_get(json_array_get(proofs, 0), "PoStProof");
    if (!json_is_integer(pt) || proof_type(json_integer_value(pt), &out->kind, &out->sector_size))
        return g16_fail(G16_ERR_FORMAT, "%s: \"Proofs\"[0].\"PoStProof\": want a registered PoSt proof type 0..14",
                        path);
    out->proof_type = json_integer_value(pt);
    G16_TRY(get_u64(&out->prover, root, "Prover", path, "top level"));
    json_t *secs = json_object_get(root, "ChallengedSectors");
    if (!json_is_array(secs) || json_array_size(secs) < 1)
        return g16_fail(G16_ERR_FORMAT, "%s: \"ChallengedSectors\": want an array of at least one sector", path);
    size_t n = json_array_size(secs);
    out->sectors = calloc(n, sizeof *out->sectors);
    if (!out->sectors) return g16_fail(G16_ERR_NOMEM, "%s: %zu sectors", path, n);
    for (size_t i = 0; i < n; i++) {
        json_t *s = json_array_get(secs, i);
        char where[64];
        snprintf(where, sizeof where, "\"ChallengedSectors\"[%zu]", i);
        G16_TRY(get_u64(&out->sectors[i].number, s, "SectorNumber", path, where));
        json_t *cid = json_object_get(json_object_get(s, "SealedCID"), "/");
        if (!json_is_string(cid))
            return g16_fail(G16_ERR_FORMAT, "%s: %s: want \"SealedCID\": {\"/\": CID}", path, where);
        g16_status st = g16_fc_cid_to_comm_r(out->sectors[i].comm_r_le, json_string_value(cid));
        if (st != G16_OK) return g16_fail_ctx(st, "%s: %s", path, where);
        out->n_sectors = i + 1;
    }
    return G16_OK;
}

g16_status g16_fc_post_pub_read(g16_fc_post_pub *out, const char *path)
{
    memset(out, 0, sizeof *out);
    json_error_t jerr;
    json_t *root = json_load_file(path, JSON_REJECT_DUPLICATES, &jerr);
    if (!root) {
        FILE *f = fopen(path, "rb");
        if (!f) return g16_fail(G16_ERR_IO, "%s: cannot open", path);
        fclose(f);
        return g16_fail(G16_ERR_FORMAT, "%s: line %d, column %d: %s", path, jerr.line, jerr.column, jerr.text);
    }
    g16_status st = parse(out, root, path);
    json_decref(root);
    if (st != G16_OK) g16_fc_post_pub_free(out);
    return st;
}

void g16_fc_post_pub_free(g16_fc_post_pub *p)
{
    if (!p) return;
    free(p->sectors);
    memset(p, 0, sizeof *p);
}
