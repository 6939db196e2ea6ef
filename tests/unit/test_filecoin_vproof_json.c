/* Vanilla proofs in serde_json's form: the real sector converted by our script
 * (tests/filecoin/vproof_to_json.py) parses to exactly what the bincode reader
 * gives, and each kind of damage is refused with a message naming the JSON path. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "common/error.h"
#include "files.h"
#include "filecoin/vproof.h"

#define FIXTURES G16_VECTOR_DIR "/../filecoin/"

static char *json_text;
static size_t json_len;

/* Parses the real JSON with the first occurrence of `from` replaced by `to`;
 * returns the status, the message in g16_last_error(). */
static g16_status parse_changed(const char *from, const char *to)
{
    const char *at = strstr(json_text, from);
    if (!at) return G16_ERR_INTERNAL;
    size_t pre = (size_t)(at - json_text), nf = strlen(from), nt = strlen(to);
    size_t n = json_len - nf + nt;
    char *b = malloc(n + 1);
    memcpy(b, json_text, pre);
    memcpy(b + pre, to, nt);
    memcpy(b + pre + nt, at + nf, json_len - pre - nf + 1);
    g16_fc_vproof v;
    g16_status st = g16_fc_vproof_parse_json(&v, (const uint8_t *)b, n, "x.json");
    if (st == G16_OK) g16_fc_vproof_free(&v);
    free(b);
    return st;
}

static void refused(const char *what, const char *from, const char *to, const char *msg)
{
    g16_status st = parse_changed(from, to);
    CHECK(st == G16_ERR_FORMAT && strstr(g16_last_error(), msg), "%s: %d %s", what, (int)st,
          st == G16_ERR_INTERNAL ? "(pattern not found)" : g16_last_error());
}

int main(void)
{
    g16_fc_vproof vb, vj;
    json_text = (char *)g16_test_slurp(FIXTURES "window-post-32g-sector1.json", &json_len, 1);
    if (!json_text || g16_fc_vproof_read(&vb, FIXTURES "window-post-32g-sector1.vproof") != G16_OK) {
        CHECK(0, "fixtures");
        return g16_test_finish("test_filecoin_vproof_json");
    }
    json_text[json_len] = 0;
    CHECK(g16_fc_vproof_parse_json(&vj, (const uint8_t *)json_text, json_len, "real.json") == G16_OK,
          "the real sector's JSON parses: %s", g16_last_error());
    CHECK(vj.sector_id == vb.sector_id && g16_fr_eq(&vj.comm_r, &vb.comm_r) && vj.n_sectors == vb.n_sectors &&
              vj.n_incl == vb.n_incl && vj.n_levels == vb.n_levels && vj.n_hashes == vb.n_hashes,
          "JSON and bincode: the same sizes");
    CHECK(!memcmp(vj.hashes, vb.hashes, vb.n_hashes * sizeof *vb.hashes), "JSON and bincode: the same siblings");
    int same = 1;
    for (uint64_t i = 0; i < vb.n_incl; i++)
        same &= vj.incl[i].leaf_index == vb.incl[i].leaf_index && g16_fr_eq(&vj.incl[i].leaf, &vb.incl[i].leaf) &&
                g16_fr_eq(&vj.incl[i].root, &vb.incl[i].root) && vj.incl[i].kind == vb.incl[i].kind;
    for (uint64_t i = 0; i < vb.n_levels; i++)
        same &= vj.levels[i].index == vb.levels[i].index && vj.levels[i].arity == vb.levels[i].arity;
    same &= g16_fr_eq(&vj.sectors[0].comm_c, &vb.sectors[0].comm_c) &&
            g16_fr_eq(&vj.sectors[0].comm_r_last, &vb.sectors[0].comm_r_last);
    CHECK(same, "JSON and bincode: the same leaves, roots, indices and commitments");
    g16_fc_vproof_free(&vj);
    /* the file reader takes either form */
    CHECK(g16_fc_vproof_read(&vj, FIXTURES "window-post-32g-sector1.json") == G16_OK && vj.n_incl == 10,
          "read() detects JSON: %s", g16_last_error());
    g16_fc_vproof_free(&vj);

    refused("sector id negative", "\"sector_id\":1,", "\"sector_id\":-1,", "$.sector_id: want a non-negative integer");
    refused("sector id string", "\"sector_id\":1,", "\"sector_id\":\"1\",", "$.sector_id: want a non-negative integer");
    refused("missing comm_r", "\"comm_r\":", "\"comm_x\":", "missing field \"comm_r\"");
    refused("unknown field", "{\"sector_id\"", "{\"extra\":0,\"sector_id\"", "unknown field \"extra\"");
    refused("duplicate field", "{\"sector_id\":1,", "{\"sector_id\":1,\"sector_id\":1,", "not JSON");
    refused("comm_r byte 256", "\"comm_r\":[223,", "\"comm_r\":[256,", "$.comm_r[0]: want an integer 0..255");
    refused("comm_r 31 bytes", "\"comm_r\":[223,", "\"comm_r\":[", "$.comm_r: want an array of 32 bytes");
    refused("comm_r not canonical", "\"comm_r\":[223,105,16,134,227,198,115,201,90,69,144,135,19,212,197,147,142,92,237,67,242,27,136,139,217,188,110,24,28,159,50,107]",
            "\"comm_r\":[255,255,255,255,255,255,255,255,255,255,255,255,255,255,255,255,255,255,255,255,255,255,255,255,255,255,255,255,255,255,255,255]",
            "$.comm_r: not a field element");
    refused("unknown variant", "{\"Sub\":", "{\"Subtree\":", "inclusion_proofs[0].data: want the variant Single, Sub or Top");
    refused("two variants", "{\"Sub\":", "{\"Top\":0,\"Sub\":", "inclusion_proofs[0].data: want {");
    refused("unknown field in a path element", "],\"index\":", "],\"index\":9,\"x\":", "unknown field \"x\"");
    refused("sub path missing", "\"sub_proof\":", "\"sub_prooff\":", "data.Sub: missing field \"sub_proof\"");
    refused("two siblings", "\"hashes\":[[", "\"hashes\":[[1],[", "base_proof.path[0].hashes: want 1, 3 or 7 siblings");
    refused("sectors not an array", "\"sectors\":[", "\"sectors\":{\"a\":[", "not JSON");
    refused("truncated", "\"comm_r_last\"", "", "not JSON");
    {
        /* an index at or past the arity: the first path element's index made 8 */
        const char *at = strstr(json_text, "\"index\":");
        char from[32], to[32];
        size_t k = strcspn(at + 8, "}");
        snprintf(from, sizeof from, "\"index\":%.*s}", (int)k, at + 8);
        snprintf(to, sizeof to, "\"index\":8}");
        refused("index 8", from, to, "path[0].index: want an index below the arity");
    }
    /* a changed value in range still parses (what it proves is post-check's business) */
    CHECK(parse_changed("\"comm_r\":[223,", "\"comm_r\":[222,") == G16_OK, "a changed byte still parses");
    g16_fc_vproof_free(&vb);
    free(json_text);
    return g16_test_finish("test_filecoin_vproof_json");
}
