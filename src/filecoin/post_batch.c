/* PoR path hashes eight at a time (post_batch.h). */
#include "filecoin/post_batch.h"

#include <string.h>

#include "common/error.h"

g16_status g16_fc_batch_plan_make(g16_fc_batch_plan *plan, const g16_fc_post_config *cfg, unsigned challenges)
{
    *plan = (g16_fc_batch_plan){.challenges = challenges, .shape = cfg->shape};
    g16_fc_cs cs = {.log = &plan->log};
    g16_status st = g16_fc_post_sector(&cs, &cfg->shape, challenges, NULL, 0, 0);
    if (st != G16_OK) {
        g16_fc_hash_log_free(&plan->log);
        return st;
    }
    const g16_fc_shape *sh = &cfg->shape;
    unsigned parts[3][2] = {{sh->base_levels, sh->base_arity}, {sh->sub_arity ? 1u : 0u, sh->sub_arity},
                            {sh->top_arity ? 1u : 0u, sh->top_arity}};
    for (int part = 0; part < 3; part++)
        for (unsigned l = 0; l < parts[part][0] && plan->levels < 64; l++) plan->arity[plan->levels++] = parts[part][1];
    size_t path = (size_t)challenges * plan->levels;
    /* the path hashes are the last gadgets of a circuit sector, chain by chain, in
     * por()'s order (post_circuit.c); anything else leaves the batch unused */
    plan->usable = plan->levels > 0 && plan->levels < 64 && plan->log.n >= path;
    plan->first_path = plan->usable ? plan->log.n - path : 0;
    for (size_t e = 0; plan->usable && e < path; e++) {
        unsigned a = plan->arity[e % plan->levels];
        if (plan->log.arity[plan->first_path + e] != a || a > 8) plan->usable = 0;
    }
    return G16_OK;
}

void g16_fc_batch_plan_free(g16_fc_batch_plan *plan) { g16_fc_hash_log_free(&plan->log); }

unsigned g16_fc_batch_group(const g16_fc_batch_plan *plan)
{
    /* chains a group = lcm(8, challenges) */
    unsigned c = plan->challenges ? plan->challenges : 1, g = 1;
    while ((g * c) % 8) g++;
    return g;
}

/* Scratch: inputs (8 a log entry), the chains' current digests, done flags, chain flags. */
typedef struct scratch_map {
    g16_fr *in, *cur;
    unsigned char *done, *ok;
} scratch_map;

static size_t map_scratch(scratch_map *m, const g16_fc_batch_plan *plan, unsigned sectors, void *base)
{
    size_t n = plan->log.n, chains = (size_t)sectors * plan->challenges;
    size_t b_in = sectors * n * 8 * sizeof(g16_fr), b_cur = chains * sizeof(g16_fr);
    if (m) {
        unsigned char *p = base;
        m->in = (g16_fr *)(void *)p;
        m->cur = (g16_fr *)(void *)(p + b_in);
        m->done = p + b_in + b_cur;
        m->ok = m->done + sectors * n;
    }
    return b_in + b_cur + sectors * n + chains;
}

size_t g16_fc_batch_scratch(const g16_fc_batch_plan *plan, unsigned m) { return map_scratch(NULL, plan, m, NULL); }

/* Whether chain c of circuit sector r has the circuit's shape, as por() will require;
 * the witness pass reports what is wrong with one that has not. */
static int chain_ok(const g16_fc_batch_plan *plan, const g16_fc_sector_ref *r, unsigned c)
{
    const g16_fc_vproof *v = r->v;
    if (!v || r->sector >= v->n_sectors) return 0;
    const g16_fc_sector *sec = &v->sectors[r->sector];
    if (r->first > sec->n_incl || sec->n_incl - r->first < plan->challenges) return 0;
    uint64_t i = sec->incl0 + r->first + c;
    if (i >= v->n_incl) return 0;
    const g16_fc_inclusion *inc = &v->incl[i];
    const g16_fc_shape *sh = &plan->shape;
    if (inc->n_levels[0] != sh->base_levels || inc->n_levels[1] != (sh->sub_arity ? 1u : 0u) ||
        inc->n_levels[2] != (sh->top_arity ? 1u : 0u) || inc->level0 + plan->levels > v->n_levels)
        return 0;
    for (unsigned l = 0; l < plan->levels; l++) {
        const g16_fc_level *lv = &v->levels[inc->level0 + l];
        if (lv->arity != plan->arity[l] || lv->index >= lv->arity || lv->first + lv->arity - 1 > v->n_hashes) return 0;
    }
    return 1;
}

void g16_fc_batch_paths(const g16_fc_batch_plan *plan, const g16_fc_sector_ref *refs, g16_fr *const *aux0,
                        unsigned m, g16_fc_pretrace *pre, void *scratch)
{
    scratch_map s;
    map_scratch(&s, plan, m, scratch);
    size_t n = plan->log.n;
    unsigned ch = plan->challenges;
    memset(s.done, 0, (size_t)m * n);
    for (unsigned j = 0; j < m; j++)
        pre[j] = (g16_fc_pretrace){.log = &plan->log, .aux0 = aux0[j], .in = s.in + (size_t)j * n * 8,
                                   .done = s.done + (size_t)j * n};
    if (!plan->usable) return;
    for (unsigned j = 0; j < m; j++)
        for (unsigned c = 0; c < ch; c++) {
            size_t q = (size_t)j * ch + c;
            s.ok[q] = (unsigned char)chain_ok(plan, &refs[j], c);
            if (s.ok[q]) {
                const g16_fc_vproof *v = refs[j].v;
                s.cur[q] = v->incl[v->sectors[refs[j].sector].incl0 + refs[j].first + c].leaf;
            }
        }
    for (unsigned l = 0; l < plan->levels; l++) {
        const g16_poseidon *p = g16_poseidon_get(plan->arity[l]);
        if (!p) return;
        size_t q = 0, chains = (size_t)m * ch;
        while (q < chains) {
            const g16_fr *in[8];
            g16_fr *aux[8];
            size_t lane_q[8];
            unsigned lanes = 0;
            for (; q < chains && lanes < 8; q++) {
                if (!s.ok[q]) continue;
                unsigned j = (unsigned)(q / ch), c = (unsigned)(q % ch);
                const g16_fc_vproof *v = refs[j].v;
                const g16_fc_inclusion *inc = &v->incl[v->sectors[refs[j].sector].incl0 + refs[j].first + c];
                const g16_fc_level *lv = &v->levels[inc->level0 + l];
                size_t e = plan->first_path + (size_t)c * plan->levels + l;
                /* insert: the current digest at position index, the siblings around it */
                g16_fr *slot = s.in + ((size_t)j * n + e) * 8;
                for (unsigned i = 0, sib = 0; i < lv->arity; i++)
                    slot[i] = i == lv->index ? s.cur[q] : v->hashes[lv->first + sib++];
                in[lanes] = slot;
                aux[lanes] = aux0[j] + plan->log.off[e];
                lane_q[lanes++] = q;
            }
            if (!lanes) break;
            size_t len = g16_poseidon_hash_trace8(p, in, aux, lanes);
            if (!len) return; /* no IFMA: the witness pass hashes everything */
            for (unsigned k = 0; k < lanes; k++) {
                size_t qq = lane_q[k];
                unsigned j = (unsigned)(qq / ch), c = (unsigned)(qq % ch);
                s.cur[qq] = aux[k][len - 1];
                s.done[(size_t)j * n + plan->first_path + (size_t)c * plan->levels + l] = 1;
            }
        }
    }
}
