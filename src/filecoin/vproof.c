/* Bincode reader for FallbackPoSt sector vanilla proofs (layout in vproof.h). */
#include "filecoin/vproof.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"

typedef struct rd {
    const uint8_t *p;
    size_t len, off;
    const char *name;
    g16_fc_vproof *v;
    uint64_t cap_levels, cap_hashes, cap_incl;
} rd;

static g16_status need(rd *r, size_t n, const char *what)
{
    if (r->len - r->off < n)
        return g16_fail(G16_ERR_FORMAT, "%s: offset %zu: %s: want %zu bytes, %zu left", r->name, r->off, what, n,
                        r->len - r->off);
    return G16_OK;
}

static g16_status u64(rd *r, uint64_t *v, const char *what)
{
    G16_TRY(need(r, 8, what));
    uint64_t x = 0;
    for (int i = 7; i >= 0; i--) x = x << 8 | r->p[r->off + (size_t)i];
    *v = x;
    r->off += 8;
    return G16_OK;
}

static g16_status fr(rd *r, g16_fr *out, const char *what)
{
    G16_TRY(need(r, 32, what));
    if (g16_fr_from_le(out, r->p + r->off) != G16_OK)
        return g16_fail(G16_ERR_FORMAT, "%s: offset %zu: %s: a field element below r (32 bytes, little-endian)",
                        r->name, r->off, what);
    r->off += 32;
    return G16_OK;
}

/* A length read from the file is only believed when that many items of at least
 * min_bytes each still fit in what is left. */
static g16_status count(rd *r, uint64_t *n, size_t min_bytes, const char *what)
{
    size_t at = r->off;
    G16_TRY(u64(r, n, what));
    if (*n > (r->len - r->off) / min_bytes)
        return g16_fail(G16_ERR_FORMAT, "%s: offset %zu: %s: length %llu cannot fit in the %zu bytes left", r->name,
                        at, what, (unsigned long long)*n, r->len - r->off);
    return G16_OK;
}

static g16_status grow(void **arr, uint64_t *cap, uint64_t want, size_t elem)
{
    if (want <= *cap) return G16_OK;
    uint64_t nc = *cap ? *cap : 16;
    while (nc < want) nc *= 2;
    void *p = realloc(*arr, nc * elem);
    if (!p) return g16_fail(G16_ERR_NOMEM, "vanilla proof: %llu items", (unsigned long long)nc);
    *arr = p;
    *cap = nc;
    return G16_OK;
}

static g16_status path(rd *r, g16_fc_inclusion *inc, int part, const char *what)
{
    uint64_t n;
    /* a path element is at least 8 (hashes length) + 32 (one sibling) + 8 (index) bytes */
    G16_TRY(count(r, &n, 48, what));
    g16_fc_vproof *v = r->v;
    G16_TRY(grow((void **)&v->levels, &r->cap_levels, v->n_levels + n, sizeof *v->levels));
    for (uint64_t i = 0; i < n; i++) {
        g16_fc_level *lv = &v->levels[v->n_levels];
        lv->offset = r->off;
        uint64_t nh;
        G16_TRY(count(r, &nh, 32, "path element hashes"));
        if (nh != 1 && nh != 3 && nh != 7)
            return g16_fail(G16_ERR_FORMAT, "%s: offset %llu: %s element %llu: %llu siblings; want 1, 3 or 7 (arity 2, 4, 8)",
                            r->name, (unsigned long long)lv->offset, what, (unsigned long long)i,
                            (unsigned long long)nh);
        G16_TRY(grow((void **)&v->hashes, &r->cap_hashes, v->n_hashes + nh, sizeof *v->hashes));
        lv->first = v->n_hashes;
        lv->arity = (uint32_t)nh + 1;
        for (uint64_t h = 0; h < nh; h++) G16_TRY(fr(r, &v->hashes[v->n_hashes + h], "path sibling"));
        v->n_hashes += nh;
        size_t at = r->off;
        uint64_t idx;
        G16_TRY(u64(r, &idx, "path element index"));
        if (idx >= lv->arity)
            return g16_fail(G16_ERR_FORMAT, "%s: offset %zu: %s element %llu: index %llu; want < arity %u", r->name, at,
                            what, (unsigned long long)i, (unsigned long long)idx, lv->arity);
        lv->index = (uint32_t)idx;
        v->n_levels++;
    }
    inc->n_levels[part] = (uint32_t)n;
    return G16_OK;
}

static g16_status inclusion(rd *r, g16_fc_inclusion *inc)
{
    memset(inc, 0, sizeof *inc);
    inc->offset = r->off;
    inc->level0 = r->v->n_levels;
    G16_TRY(need(r, 4, "merkle proof tag"));
    uint32_t tag = (uint32_t)r->p[r->off] | (uint32_t)r->p[r->off + 1] << 8 | (uint32_t)r->p[r->off + 2] << 16 |
                   (uint32_t)r->p[r->off + 3] << 24;
    if (tag > 2)
        return g16_fail(G16_ERR_FORMAT, "%s: offset %zu: merkle proof tag %u; want 0 (single), 1 (sub) or 2 (top)",
                        r->name, r->off, tag);
    r->off += 4;
    inc->kind = tag;
    if (tag == 0) {
        G16_TRY(fr(r, &inc->root, "single proof root"));
        G16_TRY(fr(r, &inc->leaf, "single proof leaf"));
        G16_TRY(path(r, inc, 0, "base path"));
    } else {
        G16_TRY(path(r, inc, 0, "base path"));
        G16_TRY(path(r, inc, 1, "sub path"));
        if (tag == 2) G16_TRY(path(r, inc, 2, "top path"));
        G16_TRY(fr(r, &inc->root, "merkle proof root"));
        G16_TRY(fr(r, &inc->leaf, "merkle proof leaf"));
    }
    /* the leaf a path opens; paths longer than 64 index bits cannot be a sector's */
    uint64_t idx = 0, scale = 1;
    unsigned bits = 0;
    uint64_t nl = inc->n_levels[0] + inc->n_levels[1] + inc->n_levels[2];
    for (uint64_t i = 0; i < nl; i++) {
        const g16_fc_level *lv = &r->v->levels[inc->level0 + i];
        unsigned lb = lv->arity == 2 ? 1 : lv->arity == 4 ? 2 : 3;
        if (bits + lb > 63)
            return g16_fail(G16_ERR_FORMAT, "%s: offset %llu: merkle path of more than 63 index bits", r->name,
                            (unsigned long long)inc->offset);
        idx += lv->index * scale;
        scale *= lv->arity;
        bits += lb;
    }
    inc->leaf_index = idx;
    return G16_OK;
}

g16_status g16_fc_vproof_parse(g16_fc_vproof *out, const uint8_t *buf, size_t len, const char *name)
{
    memset(out, 0, sizeof *out);
    rd r = {.p = buf, .len = len, .name = name, .v = out};
    g16_status st;
#define STEP(x)                        \
    if ((st = (x)) != G16_OK) goto fail
    STEP(u64(&r, &out->sector_id, "sector_id"));
    STEP(need(&r, 32, "comm_r"));
    memcpy(out->comm_r_le, buf + r.off, 32);
    STEP(fr(&r, &out->comm_r, "comm_r"));
    /* a sector proof is at least 8 (inclusion count) + 64 (comm_c, comm_r_last) bytes */
    STEP(count(&r, &out->n_sectors, 72, "sectors"));
    if (out->n_sectors) {
        out->sectors = calloc(out->n_sectors, sizeof *out->sectors);
        if (!out->sectors) {
            st = g16_fail(G16_ERR_NOMEM, "%s: %llu sectors", name, (unsigned long long)out->n_sectors);
            goto fail;
        }
    }
    for (uint64_t s = 0; s < out->n_sectors; s++) {
        g16_fc_sector *sec = &out->sectors[s];
        sec->offset = r.off;
        /* a merkle proof is at least 4 (tag) + 64 (root, leaf) + 8 (a path length) bytes */
        STEP(count(&r, &sec->n_incl, 76, "inclusion_proofs"));
        sec->incl0 = out->n_incl;
        STEP(grow((void **)&out->incl, &r.cap_incl, out->n_incl + sec->n_incl, sizeof *out->incl));
        for (uint64_t i = 0; i < sec->n_incl; i++) {
            STEP(inclusion(&r, &out->incl[out->n_incl]));
            out->n_incl++;
        }
        STEP(fr(&r, &sec->comm_c, "comm_c"));
        STEP(fr(&r, &sec->comm_r_last, "comm_r_last"));
    }
#undef STEP
    if (r.off != len) {
        st = g16_fail(G16_ERR_FORMAT, "%s: offset %zu: end of the proof; %zu bytes more follow", name, r.off,
                      len - r.off);
        goto fail;
    }
    return G16_OK;
fail:
    g16_fc_vproof_free(out);
    return st;
}

g16_status g16_fc_vproof_read(g16_fc_vproof *out, const char *path)
{
    memset(out, 0, sizeof *out);
    FILE *f = fopen(path, "rb");
    if (!f) return g16_fail(G16_ERR_IO, "%s: cannot open", path);
    uint8_t *buf = NULL;
    size_t n = 0, cap = 0;
    for (;;) {
        if (n == cap) {
            cap = cap ? cap * 2 : 65536;
            uint8_t *nb = realloc(buf, cap);
            if (!nb) {
                free(buf);
                fclose(f);
                return g16_fail(G16_ERR_NOMEM, "%s: reading", path);
            }
            buf = nb;
        }
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (got == 0) break;
    }
    int err = ferror(f);
    fclose(f);
    if (err) {
        free(buf);
        return g16_fail(G16_ERR_IO, "%s: read error", path);
    }
    /* JSON starts with '{'; so may a bincode proof (a sector id of low byte 0x7b),
     * which is strict enough (every length exact) that no JSON text parses as one */
    size_t k = 0;
    while (k < n && (buf[k] == ' ' || buf[k] == '\n' || buf[k] == '\r' || buf[k] == '\t')) k++;
    g16_status st;
    if (k < n && buf[k] == '{') {
        st = g16_fc_vproof_parse(out, buf, n, path);
        if (st != G16_OK) st = g16_fc_vproof_parse_json(out, buf, n, path);
    } else {
        st = g16_fc_vproof_parse(out, buf, n, path);
    }
    free(buf);
    return st;
}

void g16_fc_vproof_free(g16_fc_vproof *v)
{
    if (!v) return;
    free(v->sectors);
    free(v->incl);
    free(v->levels);
    free(v->hashes);
    memset(v, 0, sizeof *v);
}
