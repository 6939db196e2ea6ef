/* PoSt shapes and configurations, challenge derivation and the native check of
 * a FallbackPoSt vanilla proof (post.h). */
#include "filecoin/post.h"

#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "filecoin/poseidon.h"
#include "groth16/groth16.h"

#define KIB 1024ull
#define MIB (1024ull * KIB)
#define GIB (1024ull * MIB)

g16_status g16_fc_shape_for(g16_fc_shape *out, uint64_t sector_size)
{
    memset(out, 0, sizeof *out);
    out->sector_size = sector_size;
    out->leaves = sector_size / 32;
    out->base_arity = 8;
    unsigned bits;
    switch (sector_size) {
    case 2 * KIB: bits = 6; break;
    case 8 * MIB: bits = 18; break;
    case 512 * MIB: bits = 24; break;
    case 32 * GIB: bits = 30; out->sub_arity = 8; break;
    case 64 * GIB: bits = 31; out->sub_arity = 8; out->top_arity = 2; break;
    default:
        return g16_fail(G16_ERR_ARG, "sector size %llu: want 2KiB, 8MiB, 512MiB, 32GiB or 64GiB",
                        (unsigned long long)sector_size);
    }
    bits -= out->sub_arity ? 3 : 0;
    bits -= out->top_arity ? 1 : 0;
    out->base_levels = bits / 3;
    return G16_OK;
}

g16_status g16_fc_parse_sector_size(uint64_t *out, const char *text)
{
    static const struct { const char *name; uint64_t size; } names[] = {
        {"2KiB", 2 * KIB}, {"8MiB", 8 * MIB}, {"512MiB", 512 * MIB}, {"32GiB", 32 * GIB}, {"64GiB", 64 * GIB}};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (!strcmp(text, names[i].name)) {
            *out = names[i].size;
            return G16_OK;
        }
    char *end;
    unsigned long long v = strtoull(text, &end, 10);
    if (*text >= '0' && *text <= '9' && !*end) {
        *out = v;
        return G16_OK;
    }
    return g16_fail(G16_ERR_ARG, "sector size '%s': want 2KiB, 8MiB, 512MiB, 32GiB, 64GiB or a byte count", text);
}

g16_status g16_fc_post_config_for(g16_fc_post_config *out, g16_fc_post_kind kind, uint64_t sector_size)
{
    memset(out, 0, sizeof *out);
    G16_TRY(g16_fc_shape_for(&out->shape, sector_size));
    out->kind = kind;
    if (kind == G16_FC_WINNING) {
        out->sectors = 1;
        out->challenges = 66;
    } else {
        out->challenges = 10;
        out->sectors = sector_size == 32 * GIB ? 2349 : sector_size == 64 * GIB ? 2300 : 2;
    }
    return G16_OK;
}

uint64_t g16_fc_challenge_leaf(const uint8_t randomness[32], uint64_t sector_id, uint64_t index, uint64_t leaves)
{
    uint8_t sid[8], idx[8], h[32];
    for (int i = 0; i < 8; i++) {
        sid[i] = (uint8_t)(sector_id >> (8 * i));
        idx[i] = (uint8_t)(index >> (8 * i));
    }
    g16_sha256(h, randomness, 32, sid, 8, idx, 8, NULL, 0);
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--) v = v << 8 | h[i];
    return v % leaves;
}

g16_status g16_fc_path_root(g16_fr *root, const g16_fc_vproof *v, const g16_fc_inclusion *inc)
{
    g16_fr cur = inc->leaf, in[8];
    uint64_t nl = (uint64_t)inc->n_levels[0] + inc->n_levels[1] + inc->n_levels[2];
    for (uint64_t i = 0; i < nl; i++) {
        const g16_fc_level *lv = &v->levels[inc->level0 + i];
        const g16_poseidon *p = g16_poseidon_get(lv->arity);
        if (!p || lv->arity > 8) return g16_fail(G16_ERR_ARG, "no Poseidon of arity %u", lv->arity);
        const g16_fr *sib = &v->hashes[lv->first];
        for (unsigned k = 0, s = 0; k < lv->arity; k++) in[k] = k == lv->index ? cur : sib[s++];
        g16_poseidon_hash(&cur, p, in);
    }
    *root = cur;
    return G16_OK;
}

static void fr_hex(char out[67], const g16_fr *a)
{
    uint8_t be[32];
    g16_fr_to_be(be, a);
    out[0] = '0';
    out[1] = 'x';
    for (int i = 0; i < 32; i++) {
        static const char hx[] = "0123456789abcdef";
        out[2 + 2 * i] = hx[be[i] >> 4];
        out[3 + 2 * i] = hx[be[i] & 15];
    }
    out[66] = 0;
}

static g16_status check_shape(const g16_fc_vproof *v, const g16_fc_inclusion *inc, const g16_fc_shape *sh,
                              uint64_t s, uint64_t j)
{
    unsigned want_kind = sh->top_arity ? 2 : sh->sub_arity ? 1 : 0;
    const char *kinds[3] = {"single", "sub", "top"};
    if (inc->kind != want_kind)
        return g16_fail(G16_ERR_UNSATISFIED, "sector proof %llu, inclusion proof %llu (offset %llu): a %s-tree proof; a %llu-byte sector's tree wants a %s-tree proof",
                        (unsigned long long)s, (unsigned long long)j, (unsigned long long)inc->offset,
                        kinds[inc->kind], (unsigned long long)sh->sector_size, kinds[want_kind]);
    unsigned want_levels[3] = {sh->base_levels, sh->sub_arity ? 1u : 0u, sh->top_arity ? 1u : 0u};
    unsigned want_arity[3] = {sh->base_arity, sh->sub_arity, sh->top_arity};
    uint64_t k = inc->level0;
    for (int part = 0; part < 3; part++) {
        if (inc->n_levels[part] != want_levels[part])
            return g16_fail(G16_ERR_UNSATISFIED, "sector proof %llu, inclusion proof %llu (offset %llu): %s path of %u levels; the tree has %u",
                            (unsigned long long)s, (unsigned long long)j, (unsigned long long)inc->offset,
                            part == 0 ? "base" : part == 1 ? "sub" : "top", inc->n_levels[part], want_levels[part]);
        for (unsigned l = 0; l < inc->n_levels[part]; l++, k++)
            if (v->levels[k].arity != want_arity[part])
                return g16_fail(G16_ERR_UNSATISFIED, "sector proof %llu, inclusion proof %llu: path element at offset %llu has arity %u; this level has arity %u",
                                (unsigned long long)s, (unsigned long long)j, (unsigned long long)v->levels[k].offset,
                                v->levels[k].arity, want_arity[part]);
    }
    return G16_OK;
}

g16_status g16_fc_post_check(const g16_fc_vproof *v, const g16_fc_post_pub *pub)
{
    const uint8_t *pub_comm_r = NULL;
    for (size_t i = 0; i < pub->n_sectors; i++)
        if (pub->sectors[i].number == v->sector_id) pub_comm_r = pub->sectors[i].comm_r_le;
    if (!pub_comm_r)
        return g16_fail(G16_ERR_UNSATISFIED, "the proof is for sector %llu, which is not among the challenged sectors",
                        (unsigned long long)v->sector_id);
    if (memcmp(pub_comm_r, v->comm_r_le, 32))
        return g16_fail(G16_ERR_UNSATISFIED, "sector %llu: the proof's comm_r is not the sealed CID's commitment",
                        (unsigned long long)v->sector_id);
    g16_fc_post_config cfg;
    G16_TRY(g16_fc_post_config_for(&cfg, pub->kind, pub->sector_size));
    if (v->n_sectors == 0)
        return g16_fail(G16_ERR_UNSATISFIED, "sector %llu: the vanilla proof holds no sector proof",
                        (unsigned long long)v->sector_id);
    const g16_poseidon *p2 = g16_poseidon_get(2);
    if (!p2) return g16_fail(G16_ERR_NOMEM, "poseidon constants");
    /* As the FVM's verify_post and Lotus do before calling the proofs library:
     * the randomness must be a valid field element, so its top two bits go. */
    uint8_t rnd[32];
    memcpy(rnd, pub->randomness, 32);
    rnd[31] &= 0x3f;
    char h1[67], h2[67];
    for (uint64_t s = 0; s < v->n_sectors; s++) {
        const g16_fc_sector *sec = &v->sectors[s];
        g16_fr pair[2] = {sec->comm_c, sec->comm_r_last}, got;
        g16_poseidon_hash(&got, p2, pair);
        if (!g16_fr_eq(&got, &v->comm_r)) {
            fr_hex(h1, &got);
            fr_hex(h2, &v->comm_r);
            return g16_fail(G16_ERR_UNSATISFIED, "sector proof %llu (offset %llu): Poseidon-2(comm_c, comm_r_last) = %s, comm_r = %s",
                            (unsigned long long)s, (unsigned long long)sec->offset, h1, h2);
        }
        if (sec->n_incl != cfg.challenges)
            return g16_fail(G16_ERR_UNSATISFIED, "sector proof %llu: %llu inclusion proofs; this proof type challenges %u leaves",
                            (unsigned long long)s, (unsigned long long)sec->n_incl, cfg.challenges);
        /* shapes and challenged leaves first: cheap, and they name the problem best */
        for (uint64_t j = 0; j < sec->n_incl; j++) {
            const g16_fc_inclusion *inc = &v->incl[sec->incl0 + j];
            G16_TRY(check_shape(v, inc, &cfg.shape, s, j));
            /* One sector's proof: challenge j is leaf challenge j (the V1_1 rule's
             * sector_index · n + j with sector index 0, and the V1_2 rule alike). */
            uint64_t want = g16_fc_challenge_leaf(rnd, v->sector_id, j, cfg.shape.leaves);
            if (inc->leaf_index != want)
                return g16_fail(G16_ERR_UNSATISFIED, "sector proof %llu, inclusion proof %llu: opens leaf %llu; challenge %llu names leaf %llu",
                                (unsigned long long)s, (unsigned long long)j, (unsigned long long)inc->leaf_index,
                                (unsigned long long)j, (unsigned long long)want);
        }
        for (uint64_t j = 0; j < sec->n_incl; j++) {
            const g16_fc_inclusion *inc = &v->incl[sec->incl0 + j];
            if (!g16_fr_eq(&inc->root, &sec->comm_r_last)) {
                fr_hex(h1, &inc->root);
                fr_hex(h2, &sec->comm_r_last);
                return g16_fail(G16_ERR_UNSATISFIED, "sector proof %llu, inclusion proof %llu (offset %llu): root %s is not comm_r_last %s",
                                (unsigned long long)s, (unsigned long long)j, (unsigned long long)inc->offset, h1, h2);
            }
            g16_fr root;
            G16_TRY(g16_fc_path_root(&root, v, inc));
            if (!g16_fr_eq(&root, &inc->root)) {
                fr_hex(h1, &root);
                fr_hex(h2, &inc->root);
                return g16_fail(G16_ERR_UNSATISFIED, "sector proof %llu, inclusion proof %llu (offset %llu): the path hashes to %s, not to its root %s",
                                (unsigned long long)s, (unsigned long long)j, (unsigned long long)inc->offset, h1, h2);
            }
        }
    }
    return G16_OK;
}
