/* FallbackPoSt circuit: sectors and PoR inclusion paths (post_circuit.h). */
#include "filecoin/post_circuit.h"

#include <string.h>

#include "common/error.h"

/* One tree level of a PoR: index bits, siblings, insert, Poseidon.  lv is NULL
 * when counting. */
static g16_status por_level(g16_fc_cs *cs, g16_fc_num *cur, g16_fc_num *bits_out, unsigned arity,
                            const g16_fc_vproof *v, const g16_fc_level *lv)
{
    unsigned nbits = arity == 2 ? 1 : arity == 4 ? 2 : 3;
    const g16_poseidon *p = g16_poseidon_get(arity);
    if (!p || arity > 8) return g16_fail(G16_ERR_ARG, "PoR level of arity %u", arity);
    if (lv && lv->arity != arity)
        return g16_fail(G16_ERR_ARG, "vanilla proof path element at offset %llu has arity %u; the circuit wants %u",
                        (unsigned long long)lv->offset, lv->arity, arity);
    for (unsigned i = 0; i < nbits; i++)
        G16_TRY(g16_fc_alloc_bit(cs, &bits_out[i], lv ? (int)((lv->index >> i) & 1) : 0));
    g16_fc_num sib[7], ins[8];
    for (unsigned i = 0; i + 1 < arity; i++) G16_TRY(g16_fc_alloc(cs, &sib[i], lv ? &v->hashes[lv->first + i] : NULL));
    G16_TRY(g16_fc_insert(cs, ins, cur, bits_out, sib, arity));
    return g16_fc_poseidon_gadget(cs, cur, p, ins);
}

/* por.rs PoRCircuit::synthesize with a private root given as a variable. */
static g16_status por(g16_fc_cs *cs, const g16_fc_shape *sh, const g16_fc_num *root, const g16_fc_vproof *v,
                      const g16_fc_inclusion *inc)
{
    g16_fc_num cur, bits[64];
    size_t nb = 0;
    G16_TRY(g16_fc_alloc(cs, &cur, inc ? &inc->leaf : NULL));
    unsigned levels[3] = {sh->base_levels, sh->sub_arity ? 1u : 0u, sh->top_arity ? 1u : 0u};
    unsigned arity[3] = {sh->base_arity, sh->sub_arity, sh->top_arity};
    if (inc) {
        for (int part = 0; part < 3; part++)
            if (inc->n_levels[part] != levels[part])
                return g16_fail(G16_ERR_ARG, "inclusion proof at offset %llu: %s path of %u levels; the circuit wants %u",
                                (unsigned long long)inc->offset, part == 0 ? "base" : part == 1 ? "sub" : "top",
                                inc->n_levels[part], levels[part]);
    }
    uint64_t k = inc ? inc->level0 : 0;
    for (int part = 0; part < 3; part++)
        for (unsigned l = 0; l < levels[part]; l++, k++) {
            unsigned nbits = arity[part] == 2 ? 1 : arity[part] == 4 ? 2 : 3;
            if (nb + nbits > 64) return g16_fail(G16_ERR_ARG, "PoR path of more than 64 index bits");
            G16_TRY(por_level(cs, &cur, &bits[nb], arity[part], v, inc ? &v->levels[k] : NULL));
            nb += nbits;
        }
    G16_TRY(g16_fc_pack_into_inputs(cs, bits, nb));
    return g16_fc_equal(cs, &cur, root);
}

g16_status g16_fc_post_sector(g16_fc_cs *cs, const g16_fc_shape *shape, unsigned challenges,
                              const g16_fc_vproof *v, uint64_t s, uint64_t first)
{
    const g16_fc_sector *sec = NULL;
    if (g16_fc_witnessing(cs) && !v) return g16_fail(G16_ERR_ARG, "post witness: no vanilla proof");
    if (v) { /* NULL: counting, or building the value-free template (post_fast.c) */
        if (s >= v->n_sectors) return g16_fail(G16_ERR_ARG, "post circuit: no sector proof %llu", (unsigned long long)s);
        sec = &v->sectors[s];
        if (first > sec->n_incl || sec->n_incl - first < challenges)
            return g16_fail(G16_ERR_ARG, "post circuit: sector proof %llu has %llu inclusion proofs; the circuit wants %llu",
                            (unsigned long long)s, (unsigned long long)sec->n_incl,
                            (unsigned long long)(first + challenges));
    }
    g16_fc_num comm_r_last, comm_c, comm_r, h;
    G16_TRY(g16_fc_alloc(cs, &comm_r_last, sec ? &sec->comm_r_last : NULL));
    G16_TRY(g16_fc_alloc(cs, &comm_c, sec ? &sec->comm_c : NULL));
    G16_TRY(g16_fc_alloc(cs, &comm_r, sec ? &v->comm_r : NULL));
    G16_TRY(g16_fc_inputize(cs, &comm_r));
    const g16_poseidon *p2 = g16_poseidon_get(2);
    if (!p2) return g16_fail(G16_ERR_NOMEM, "poseidon constants");
    g16_fc_num pair[2] = {comm_c, comm_r_last};
    G16_TRY(g16_fc_poseidon_gadget(cs, &h, p2, pair));
    G16_TRY(g16_fc_equal(cs, &comm_r, &h));
    for (unsigned j = 0; j < challenges; j++)
        G16_TRY(por(cs, shape, &comm_r_last, v, sec ? &v->incl[sec->incl0 + first + j] : NULL));
    return G16_OK;
}

g16_status g16_fc_fallback_count(g16_fc_counts *out, const g16_fc_shape *shape, unsigned sectors,
                                 unsigned challenges)
{
    g16_fc_cs cs = {0};
    G16_TRY(g16_fc_post_sector(&cs, shape, challenges, NULL, 0, 0));
    out->constraints = cs.constraints * sectors;
    out->inputs = 1 + cs.inputs * sectors;
    out->aux = cs.aux * sectors;
    return G16_OK;
}

g16_status g16_fc_post_count(g16_fc_counts *out, const g16_fc_post_config *cfg)
{
    if (cfg->kind == G16_FC_WINNING) return g16_fc_fallback_count(out, &cfg->shape, cfg->challenges, 1);
    return g16_fc_fallback_count(out, &cfg->shape, cfg->sectors, cfg->challenges);
}

g16_status g16_fc_post_build(g16_circuit **circ, g16_witness **wit, g16_fc_counts *counts,
                             const g16_fc_post_config *cfg, const g16_fc_vproof *v)
{
    *circ = NULL;
    *wit = NULL;
    if (v->n_sectors == 0) return g16_fail(G16_ERR_ARG, "post circuit: the vanilla proof has no sector proof");
    if (cfg->kind == G16_FC_WINNING && v->sectors[0].n_incl != cfg->challenges)
        return g16_fail(G16_ERR_ARG, "post circuit: sector proof 0 has %llu inclusion proofs; WinningPoSt challenges %u",
                        (unsigned long long)v->sectors[0].n_incl, cfg->challenges);
    g16_builder *b;
    G16_TRY(g16_builder_new(&b));
    g16_fc_cs cs = {.b = b};
    g16_status st = G16_OK;
    if (cfg->kind == G16_FC_WINNING) {
        for (unsigned j = 0; st == G16_OK && j < cfg->challenges; j++)
            st = g16_fc_post_sector(&cs, &cfg->shape, 1, v, 0, j);
    } else {
        if (v->n_sectors > cfg->sectors)
            st = g16_fail(G16_ERR_ARG, "post circuit: %llu sector proofs; a partition holds %u",
                          (unsigned long long)v->n_sectors, cfg->sectors);
        for (uint64_t s = 0; st == G16_OK && s < v->n_sectors; s++) {
            if (v->sectors[s].n_incl != cfg->challenges)
                st = g16_fail(G16_ERR_ARG, "post circuit: sector proof %llu has %llu inclusion proofs; WindowPoSt challenges %u",
                              (unsigned long long)s, (unsigned long long)v->sectors[s].n_incl, cfg->challenges);
            else
                st = g16_fc_post_sector(&cs, &cfg->shape, cfg->challenges, v, s, 0);
        }
    }
    if (st == G16_OK) st = g16_builder_finish(b, circ, wit);
    g16_builder_free(b);
    if (st != G16_OK) return st;
    counts->constraints = cs.constraints;
    counts->inputs = cs.inputs + 1;
    counts->aux = cs.aux;
    return G16_OK;
}
