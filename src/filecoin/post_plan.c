/* PoSt partitions from vanilla proofs, and synthetic vanilla proofs (post_plan.h). */
#include "filecoin/post_plan.h"

#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "groth16/groth16.h"

/* Checks vanilla proof x (number f of the PoSt's, for the messages) against cfg and
 * the masked randomness: one sector proof, its inclusion proofs opening the challenged
 * leaves of a tree of cfg's shape, every path hashing to comm_r_last. */
static g16_status check_vproof(const g16_fc_post_config *cfg, const g16_fc_vproof *x, size_t f, const uint8_t rnd[32],
                               const g16_poseidon *p2)
{
    if (x->n_sectors != 1)
        return g16_fail(G16_ERR_ARG, "vanilla proof %zu (sector %llu): %llu sector proofs; one a sector wanted", f,
                        (unsigned long long)x->sector_id, (unsigned long long)x->n_sectors);
    const g16_fc_sector *sec = &x->sectors[0];
    if (sec->n_incl != cfg->challenges)
        return g16_fail(G16_ERR_UNSATISFIED, "vanilla proof %zu (sector %llu): %llu inclusion proofs; this PoSt challenges %u",
                        f, (unsigned long long)x->sector_id, (unsigned long long)sec->n_incl, cfg->challenges);
    g16_fr pair[2] = {sec->comm_c, sec->comm_r_last}, h;
    g16_poseidon_hash(&h, p2, pair);
    if (!g16_fr_eq(&h, &x->comm_r))
        return g16_fail(G16_ERR_UNSATISFIED, "vanilla proof %zu (sector %llu): Poseidon-2(comm_c, comm_r_last) is not comm_r",
                        f, (unsigned long long)x->sector_id);
    for (uint64_t j = 0; j < sec->n_incl; j++) {
        const g16_fc_inclusion *inc = &x->incl[sec->incl0 + j];
        uint64_t want = g16_fc_challenge_leaf(rnd, x->sector_id, j, cfg->shape.leaves);
        if (inc->leaf_index != want)
            return g16_fail(G16_ERR_UNSATISFIED, "vanilla proof %zu (sector %llu), inclusion proof %llu (offset %llu): opens leaf %llu; the randomness challenges leaf %llu",
                            f, (unsigned long long)x->sector_id, (unsigned long long)j,
                            (unsigned long long)inc->offset, (unsigned long long)inc->leaf_index,
                            (unsigned long long)want);
        unsigned levels[3] = {cfg->shape.base_levels, cfg->shape.sub_arity ? 1u : 0u, cfg->shape.top_arity ? 1u : 0u};
        for (int part = 0; part < 3; part++)
            if (inc->n_levels[part] != levels[part])
                return g16_fail(G16_ERR_UNSATISFIED, "vanilla proof %zu, inclusion proof %llu (offset %llu): not a %llu-byte sector's tree",
                                f, (unsigned long long)j, (unsigned long long)inc->offset,
                                (unsigned long long)cfg->shape.sector_size);
        g16_fr root;
        G16_TRY(g16_fc_path_root(&root, x, inc));
        if (!g16_fr_eq(&root, &sec->comm_r_last) || !g16_fr_eq(&inc->root, &sec->comm_r_last))
            return g16_fail(G16_ERR_UNSATISFIED, "vanilla proof %zu (sector %llu), inclusion proof %llu (offset %llu): the path does not hash to comm_r_last",
                            f, (unsigned long long)x->sector_id, (unsigned long long)j,
                            (unsigned long long)inc->offset);
    }
    return G16_OK;
}

/* Checks v[0 .. n) (the PoSt's vanilla proofs first .. first + n − 1) and lays out
 * `parts` partitions of them into r (parts × circuit_sectors), partition-major. */
static g16_status plan(g16_fc_sector_ref *r, unsigned parts, const g16_fc_post_config *cfg, const g16_fc_layout *lay,
                       const g16_fc_vproof *v, size_t n, size_t first, const uint8_t randomness[32])
{
    uint8_t rnd[32];
    memcpy(rnd, randomness, 32);
    rnd[31] &= 0x3f; /* Lotus and the FVM hand the library a field element */
    const g16_poseidon *p2 = g16_poseidon_get(2);
    if (!p2) return g16_fail(G16_ERR_NOMEM, "poseidon constants");
    for (size_t f = 0; f < n; f++) G16_TRY(check_vproof(cfg, &v[f], first + f, rnd, p2));
    for (unsigned p = 0; p < parts; p++)
        for (unsigned j = 0; j < lay->circuit_sectors; j++) {
            g16_fc_sector_ref *x = &r[(size_t)p * lay->circuit_sectors + j];
            if (cfg->kind == G16_FC_WINNING) {
                *x = (g16_fc_sector_ref){&v[0], 0, j};
            } else {
                size_t f = (size_t)p * cfg->sectors + j;
                if (f >= n) f = n - 1; /* a short partition repeats its last sector */
                *x = (g16_fc_sector_ref){&v[f], 0, 0};
            }
        }
    return G16_OK;
}

g16_status g16_fc_post_plan(g16_fc_sector_ref **refs, unsigned *partitions, const g16_fc_post_config *cfg,
                            const g16_fc_vproof *v, size_t n_v, const uint8_t randomness[32])
{
    *refs = NULL;
    *partitions = 0;
    if (n_v == 0) return g16_fail(G16_ERR_ARG, "post plan: no vanilla proof");
    if (cfg->kind == G16_FC_WINNING && n_v != 1)
        return g16_fail(G16_ERR_ARG, "post plan: WinningPoSt proves one sector; %zu vanilla proofs given", n_v);
    g16_fc_layout lay;
    G16_TRY(g16_fc_layout_for(&lay, cfg));
    unsigned parts = cfg->kind == G16_FC_WINNING ? 1 : (unsigned)((n_v + cfg->sectors - 1) / cfg->sectors);
    g16_fc_sector_ref *r = calloc((size_t)parts * lay.circuit_sectors, sizeof *r);
    if (!r) return g16_fail(G16_ERR_NOMEM, "post plan: %u partitions", parts);
    g16_status st = plan(r, parts, cfg, &lay, v, n_v, 0, randomness);
    if (st != G16_OK) {
        free(r);
        return st;
    }
    *refs = r;
    *partitions = parts;
    return G16_OK;
}

g16_status g16_fc_post_part_files(uint64_t *first, uint64_t *count, const g16_fc_post_config *cfg, uint64_t n_v,
                                  unsigned part)
{
    uint64_t per = cfg->kind == G16_FC_WINNING ? 1 : cfg->sectors;
    uint64_t parts = cfg->kind == G16_FC_WINNING ? (n_v == 1) : (n_v + per - 1) / per;
    if (n_v == 0 || per == 0 || part >= parts)
        return g16_fail(G16_ERR_ARG, "post plan: partition %u of a %s over %llu vanilla proofs (%llu partitions)", part,
                        cfg->kind == G16_FC_WINNING ? "WinningPoSt" : "WindowPoSt", (unsigned long long)n_v,
                        (unsigned long long)parts);
    *first = (uint64_t)part * per;
    *count = n_v - *first < per ? n_v - *first : per;
    return G16_OK;
}

g16_status g16_fc_post_plan_one(g16_fc_sector_ref **refs, const g16_fc_post_config *cfg, const g16_fc_vproof *v,
                                size_t n, size_t first, const uint8_t randomness[32])
{
    *refs = NULL;
    g16_fc_layout lay;
    G16_TRY(g16_fc_layout_for(&lay, cfg));
    size_t per = cfg->kind == G16_FC_WINNING ? 1 : cfg->sectors;
    if (n == 0 || n > per)
        return g16_fail(G16_ERR_ARG, "post plan: a partition takes 1 to %zu vanilla proofs; %zu given", per, n);
    g16_fc_sector_ref *r = calloc(lay.circuit_sectors, sizeof *r);
    if (!r) return g16_fail(G16_ERR_NOMEM, "post plan: a partition");
    g16_status st = plan(r, 1, cfg, &lay, v, n, first, randomness);
    if (st != G16_OK) {
        free(r);
        return st;
    }
    *refs = r;
    return G16_OK;
}

uint64_t g16_fc_winning_sector(const uint8_t randomness[32], const uint8_t prover_id[32], uint64_t n,
                               uint64_t set_len)
{
    if (set_len == 0) return 0;
    uint8_t rnd[32], nb[8], h[32];
    memcpy(rnd, randomness, 32);
    rnd[31] &= 0x3f;
    for (int i = 0; i < 8; i++) nb[i] = (uint8_t)(n >> (8 * i));
    g16_sha256(h, prover_id, 32, rnd, 32, nb, 8, NULL, 0);
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--) v = v << 8 | h[i];
    return v % set_len;
}

/* ---------------------------------------------------------------- synthetic */

typedef struct wbuf {
    uint8_t *p;
    size_t n, cap;
    int oom;
} wbuf;

static void put(wbuf *w, const void *src, size_t n)
{
    if (w->oom) return;
    if (w->n + n > w->cap) {
        size_t cap = (w->cap ? w->cap * 2 : 4096) + n;
        uint8_t *q = realloc(w->p, cap);
        if (!q) {
            w->oom = 1;
            return;
        }
        w->p = q;
        w->cap = cap;
    }
    memcpy(w->p + w->n, src, n);
    w->n += n;
}

static void put_u64(wbuf *w, uint64_t x)
{
    uint8_t b[8];
    for (int i = 0; i < 8; i++) b[i] = (uint8_t)(x >> (8 * i));
    put(w, b, 8);
}

static void put_u32(wbuf *w, uint32_t x)
{
    uint8_t b[4];
    for (int i = 0; i < 4; i++) b[i] = (uint8_t)(x >> (8 * i));
    put(w, b, 4);
}

static void put_fr(wbuf *w, const g16_fr *x)
{
    uint8_t b[32];
    g16_fr_to_le(b, x);
    put(w, b, 32);
}

/* The node at (level, index) off every challenged path: SHA-256 of the seed and
 * its place, 248 bits (always below r). */
static void drawn(g16_fr *out, const uint8_t *seed, size_t seed_len, uint64_t level, uint64_t index)
{
    uint8_t place[16], h[32];
    for (int i = 0; i < 8; i++) {
        place[i] = (uint8_t)(level >> (8 * i));
        place[8 + i] = (uint8_t)(index >> (8 * i));
    }
    g16_sha256(h, seed, seed_len, place, 16, NULL, 0, NULL, 0);
    h[31] = 0;
    g16_fr_from_le(out, h);
}

#define MAX_CH 66
#define MAX_LEVELS 16

g16_status g16_fc_vproof_synth(uint8_t **buf, size_t *len, const g16_fc_post_config *cfg, uint64_t sector_id,
                               const uint8_t randomness[32], const uint8_t *seed, size_t seed_len)
{
    *buf = NULL;
    *len = 0;
    const g16_fc_shape *sh = &cfg->shape;
    unsigned n = cfg->challenges, nl = 0, ar[MAX_LEVELS];
    if (n > MAX_CH) return g16_fail(G16_ERR_ARG, "synthetic vanilla proof: %u challenges", n);
    for (unsigned l = 0; l < sh->base_levels && nl < MAX_LEVELS; l++) ar[nl++] = sh->base_arity;
    if (sh->sub_arity) ar[nl++] = sh->sub_arity;
    if (sh->top_arity) ar[nl++] = sh->top_arity;
    uint8_t rnd[32];
    memcpy(rnd, randomness, 32);
    rnd[31] &= 0x3f;
    /* per challenge: its node index and value at the current level, and per level
     * the position and siblings it saw (on the heap: thread-local arrays this size
     * would be zeroed, and so resident, in every thread the process starts) */
    uint64_t idx[MAX_CH];
    g16_fr val[MAX_CH], leaf[MAX_CH];
    unsigned pos[MAX_CH][MAX_LEVELS];
    g16_fr (*sib)[MAX_LEVELS][7] = malloc(sizeof(g16_fr[MAX_CH][MAX_LEVELS][7]));
    if (!sib) return g16_fail(G16_ERR_NOMEM, "synthetic vanilla proof");
    for (unsigned j = 0; j < n; j++) {
        idx[j] = g16_fc_challenge_leaf(rnd, sector_id, j, sh->leaves);
        drawn(&val[j], seed, seed_len, 0, idx[j]);
        leaf[j] = val[j];
    }
    for (unsigned l = 0; l < nl; l++) {
        unsigned a = ar[l];
        const g16_poseidon *p = g16_poseidon_get(a);
        if (!p) {
            free(sib);
            return g16_fail(G16_ERR_NOMEM, "poseidon constants");
        }
        uint64_t nidx[MAX_CH];
        g16_fr nval[MAX_CH];
        for (unsigned j = 0; j < n; j++) {
            uint64_t parent = idx[j] / a;
            g16_fr kids[8];
            for (unsigned k = 0; k < a; k++) {
                uint64_t c = parent * a + k;
                unsigned m = 0;
                while (m < n && idx[m] != c) m++; /* a node on a challenged path keeps its value */
                if (m < n) kids[k] = val[m];
                else drawn(&kids[k], seed, seed_len, l, c);
            }
            pos[j][l] = (unsigned)(idx[j] % a);
            for (unsigned k = 0, s = 0; k < a; k++)
                if (k != pos[j][l]) sib[j][l][s++] = kids[k];
            nidx[j] = parent;
            g16_poseidon_hash(&nval[j], p, kids);
        }
        memcpy(idx, nidx, n * sizeof *idx);
        memcpy(val, nval, n * sizeof *val);
    }
    g16_fr comm_r_last = val[0], comm_c, comm_r;
    drawn(&comm_c, seed, seed_len, 1000, 0);
    g16_fr pair[2] = {comm_c, comm_r_last};
    g16_poseidon_hash(&comm_r, g16_poseidon_get(2), pair);
    wbuf w = {0};
    put_u64(&w, sector_id);
    put_fr(&w, &comm_r);
    put_u64(&w, 1);
    put_u64(&w, n);
    uint32_t tag = sh->top_arity ? 2 : sh->sub_arity ? 1 : 0;
    for (unsigned j = 0; j < n; j++) {
        put_u32(&w, tag);
        if (tag == 0) {
            put_fr(&w, &comm_r_last);
            put_fr(&w, &leaf[j]);
        }
        /* base path, then the sub and top paths of one element each */
        unsigned from = 0;
        unsigned parts[3] = {sh->base_levels, sh->sub_arity ? 1u : 0u, sh->top_arity ? 1u : 0u};
        for (int part = 0; part <= (int)tag; part++) {
            put_u64(&w, parts[part]);
            for (unsigned l = from; l < from + parts[part]; l++) {
                put_u64(&w, ar[l] - 1);
                for (unsigned s = 0; s + 1 < ar[l]; s++) put_fr(&w, &sib[j][l][s]);
                put_u64(&w, pos[j][l]);
            }
            from += parts[part];
        }
        if (tag != 0) {
            put_fr(&w, &comm_r_last);
            put_fr(&w, &leaf[j]);
        }
    }
    put_fr(&w, &comm_c);
    put_fr(&w, &comm_r_last);
    free(sib);
    if (w.oom) {
        free(w.p);
        return g16_fail(G16_ERR_NOMEM, "synthetic vanilla proof");
    }
    *buf = w.p;
    *len = w.n;
    return G16_OK;
}
