/* FallbackPoSt vanilla proofs in the JSON serde_json writes (vproof.h).
 *
 * The JSON is checked field by field (names, types, lengths, byte ranges, field
 * elements below r, indices below the arity) with messages naming the JSON path,
 * then rewritten as the bincode form and parsed by the bincode reader, so both
 * forms end in one representation and one set of structural checks. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "filecoin/vproof.h"

typedef struct jctx {
    const char *name;
    uint8_t *p;
    size_t n, cap;
    char path[512];
} jctx;

static g16_status put(jctx *x, const void *src, size_t n)
{
    if (x->n + n > x->cap) {
        size_t cap = (x->cap ? x->cap * 2 : 65536) + n;
        uint8_t *q = realloc(x->p, cap);
        if (!q) return g16_fail(G16_ERR_NOMEM, "%s: converting the JSON", x->name);
        x->p = q;
        x->cap = cap;
    }
    memcpy(x->p + x->n, src, n);
    x->n += n;
    return G16_OK;
}

static g16_status put_u64(jctx *x, uint64_t v)
{
    uint8_t b[8];
    for (int i = 0; i < 8; i++) b[i] = (uint8_t)(v >> (8 * i));
    return put(x, b, 8);
}

static g16_status put_u32(jctx *x, uint32_t v)
{
    uint8_t b[4];
    for (int i = 0; i < 4; i++) b[i] = (uint8_t)(v >> (8 * i));
    return put(x, b, 4);
}

/* Appends ".key" or "[i]" to the path; returns the old length to restore. */
static size_t push(jctx *x, const char *key, size_t i)
{
    size_t old = strlen(x->path);
    if (key) snprintf(x->path + old, sizeof x->path - old, ".%s", key);
    else snprintf(x->path + old, sizeof x->path - old, "[%zu]", i);
    return old;
}

static g16_status bad(jctx *x, const char *want)
{
    return g16_fail(G16_ERR_FORMAT, "%s: %s: %s", x->name, x->path, want);
}

/* An object with exactly these keys (serde's field names); out[i] = the value of keys[i]. */
static g16_status object(jctx *x, json_t *o, const char *const *keys, size_t nk, json_t **out)
{
    if (!json_is_object(o)) return bad(x, "want an object");
    for (size_t i = 0; i < nk; i++) {
        out[i] = json_object_get(o, keys[i]);
        if (!out[i]) {
            char m[96];
            snprintf(m, sizeof m, "missing field \"%s\"", keys[i]);
            return bad(x, m);
        }
    }
    if (json_object_size(o) != nk) {
        const char *k;
        json_t *v;
        json_object_foreach(o, k, v) {
            size_t i = 0;
            while (i < nk && strcmp(k, keys[i])) i++;
            if (i == nk) {
                char m[160];
                snprintf(m, sizeof m, "unknown field \"%.100s\"", k);
                return bad(x, m);
            }
        }
    }
    return G16_OK;
}

static g16_status u64_field(jctx *x, json_t *v, uint64_t *out)
{
    if (!json_is_integer(v) || json_integer_value(v) < 0) return bad(x, "want a non-negative integer");
    *out = (uint64_t)json_integer_value(v);
    return G16_OK;
}

/* A field element: serde's [u8; 32], little-endian, canonical. */
static g16_status fr_field(jctx *x, json_t *v)
{
    uint8_t b[32];
    if (!json_is_array(v) || json_array_size(v) != 32) return bad(x, "want an array of 32 bytes (a field element)");
    for (size_t i = 0; i < 32; i++) {
        json_t *e = json_array_get(v, i);
        if (!json_is_integer(e) || json_integer_value(e) < 0 || json_integer_value(e) > 255) {
            size_t old = push(x, NULL, i);
            g16_status st = bad(x, "want an integer 0..255");
            x->path[old] = 0;
            return st;
        }
        b[i] = (uint8_t)json_integer_value(e);
    }
    g16_fr f;
    if (g16_fr_from_le(&f, b) != G16_OK) return bad(x, "not a field element (the little-endian value is >= r)");
    return put(x, b, 32);
}

#define FIELD(key, call)                                                                                              \
    do {                                                                                                              \
        size_t old_ = push(x, key, 0);                                                                                \
        g16_status st_ = (call);                                                                                      \
        if (st_ != G16_OK) return st_;                                                                                \
        x->path[old_] = 0;                                                                                            \
    } while (0)

static g16_status path_elem(jctx *x, json_t *o)
{
    static const char *const keys[] = {"hashes", "index"};
    json_t *v[2] = {0};
    G16_TRY(object(x, o, keys, 2, v));
    size_t n = json_is_array(v[0]) ? json_array_size(v[0]) : 0;
    size_t old = push(x, "hashes", 0);
    if (!json_is_array(v[0])) return bad(x, "want an array");
    if (n != 1 && n != 3 && n != 7) return bad(x, "want 1, 3 or 7 siblings (arity 2, 4, 8)");
    G16_TRY(put_u64(x, n));
    for (size_t i = 0; i < n; i++) {
        size_t o2 = push(x, NULL, i);
        G16_TRY(fr_field(x, json_array_get(v[0], i)));
        x->path[o2] = 0;
    }
    x->path[old] = 0;
    uint64_t index = 0;
    FIELD("index", u64_field(x, v[1], &index));
    if (index > n) {
        push(x, "index", 0);
        return bad(x, "want an index below the arity");
    }
    return put_u64(x, index);
}

/* InclusionPath { path: [PathElement] } */
static g16_status incl_path(jctx *x, json_t *o)
{
    static const char *const keys[] = {"path"};
    json_t *v[1] = {0};
    G16_TRY(object(x, o, keys, 1, v));
    size_t old = push(x, "path", 0);
    if (!json_is_array(v[0])) return bad(x, "want an array");
    size_t n = json_array_size(v[0]);
    G16_TRY(put_u64(x, n));
    for (size_t i = 0; i < n; i++) {
        size_t o2 = push(x, NULL, i);
        G16_TRY(path_elem(x, json_array_get(v[0], i)));
        x->path[o2] = 0;
    }
    x->path[old] = 0;
    return G16_OK;
}

/* MerkleProof { data: ProofData }, ProofData externally tagged: Single / Sub / Top. */
static g16_status merkle_proof(jctx *x, json_t *o)
{
    static const char *const keys[] = {"data"};
    json_t *d = NULL;
    G16_TRY(object(x, o, keys, 1, &d));
    size_t old = push(x, "data", 0);
    if (!json_is_object(d) || json_object_size(d) != 1) return bad(x, "want {\"Single\"|\"Sub\"|\"Top\": {...}}");
    static const char *const tags[] = {"Single", "Sub", "Top"};
    uint32_t tag = 3;
    json_t *body = NULL;
    for (uint32_t t = 0; t < 3 && !body; t++)
        if ((body = json_object_get(d, tags[t]))) tag = t;
    if (!body) return bad(x, "want the variant Single, Sub or Top");
    G16_TRY(put_u32(x, tag));
    size_t o2 = push(x, tags[tag], 0);
    if (tag == 0) {
        static const char *const k0[] = {"root", "leaf", "path"};
        json_t *v[3] = {0};
        G16_TRY(object(x, body, k0, 3, v));
        FIELD("root", fr_field(x, v[0]));
        FIELD("leaf", fr_field(x, v[1]));
        FIELD("path", incl_path(x, v[2]));
    } else {
        static const char *const k1[] = {"base_proof", "sub_proof", "root", "leaf"};
        static const char *const k2[] = {"base_proof", "sub_proof", "top_proof", "root", "leaf"};
        json_t *v[5] = {0};
        G16_TRY(object(x, body, tag == 1 ? k1 : k2, tag == 1 ? 4 : 5, v));
        FIELD("base_proof", incl_path(x, v[0]));
        FIELD("sub_proof", incl_path(x, v[1]));
        size_t r = 2;
        if (tag == 2) FIELD("top_proof", incl_path(x, v[r++]));
        FIELD("root", fr_field(x, v[r]));
        FIELD("leaf", fr_field(x, v[r + 1]));
    }
    x->path[o2] = 0;
    x->path[old] = 0;
    return G16_OK;
}

static g16_status sector_proof(jctx *x, json_t *o)
{
    static const char *const keys[] = {"inclusion_proofs", "comm_c", "comm_r_last"};
    json_t *v[3] = {0};
    G16_TRY(object(x, o, keys, 3, v));
    size_t old = push(x, "inclusion_proofs", 0);
    if (!json_is_array(v[0])) return bad(x, "want an array");
    size_t n = json_array_size(v[0]);
    G16_TRY(put_u64(x, n));
    for (size_t i = 0; i < n; i++) {
        size_t o2 = push(x, NULL, i);
        G16_TRY(merkle_proof(x, json_array_get(v[0], i)));
        x->path[o2] = 0;
    }
    x->path[old] = 0;
    FIELD("comm_c", fr_field(x, v[1]));
    FIELD("comm_r_last", fr_field(x, v[2]));
    return G16_OK;
}

static g16_status top(jctx *x, json_t *root)
{
    static const char *const keys[] = {"sector_id", "comm_r", "vanilla_proof"};
    json_t *v[3] = {0};
    G16_TRY(object(x, root, keys, 3, v));
    uint64_t id = 0;
    FIELD("sector_id", u64_field(x, v[0], &id));
    G16_TRY(put_u64(x, id));
    FIELD("comm_r", fr_field(x, v[1]));
    static const char *const kp[] = {"sectors"};
    json_t *s = NULL;
    size_t old = push(x, "vanilla_proof", 0);
    G16_TRY(object(x, v[2], kp, 1, &s));
    push(x, "sectors", 0);
    if (!json_is_array(s)) return bad(x, "want an array");
    size_t n = json_array_size(s);
    G16_TRY(put_u64(x, n));
    for (size_t i = 0; i < n; i++) {
        size_t o2 = push(x, NULL, i);
        G16_TRY(sector_proof(x, json_array_get(s, i)));
        x->path[o2] = 0;
    }
    x->path[old] = 0;
    return G16_OK;
}

g16_status g16_fc_vproof_parse_json(g16_fc_vproof *out, const uint8_t *buf, size_t len, const char *name)
{
    memset(out, 0, sizeof *out);
    json_error_t err;
    json_t *root = json_loadb((const char *)buf, len, JSON_REJECT_DUPLICATES, &err);
    if (!root)
        return g16_fail(G16_ERR_FORMAT, "%s: offset %d (line %d): not JSON: %s", name, err.position, err.line, err.text);
    jctx x = {.name = name, .path = "$"};
    g16_status st = top(&x, root);
    json_decref(root);
    if (st == G16_OK) st = g16_fc_vproof_parse(out, x.p, x.n, name);
    free(x.p);
    return st;
}
