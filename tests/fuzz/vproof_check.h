/* Shared by fuzz_vproof.c and fuzz_vproof_json.c: what a parsed vanilla proof must satisfy.
 * The parsed tables are consistent (every sector's proofs, every proof's levels and every
 * level's siblings inside their arrays, arities 2/4/8, indices below them), and the first
 * inclusion path hashes up to a root (g16_fc_path_root walks all of it). */
#ifndef G16_FUZZ_VPROOF_CHECK_H
#define G16_FUZZ_VPROOF_CHECK_H

#include "fuzz_util.h"
#include "filecoin/post.h"
#include "filecoin/vproof.h"

static void vproof_check(const g16_fc_vproof *v)
{
    for (uint64_t s = 0; s < v->n_sectors; s++) {
        const g16_fc_sector *sec = &v->sectors[s];
        FUZZ_CHECK(sec->incl0 <= v->n_incl && sec->n_incl <= v->n_incl - sec->incl0, "sector %llu's proofs",
                   (unsigned long long)s);
    }
    for (uint64_t i = 0; i < v->n_incl; i++) {
        const g16_fc_inclusion *inc = &v->incl[i];
        FUZZ_CHECK(inc->kind <= 2, "proof %llu: kind %u", (unsigned long long)i, inc->kind);
        uint64_t nl = (uint64_t)inc->n_levels[0] + inc->n_levels[1] + inc->n_levels[2];
        FUZZ_CHECK(inc->level0 <= v->n_levels && nl <= v->n_levels - inc->level0, "proof %llu's levels",
                   (unsigned long long)i);
        for (uint64_t l = 0; l < nl; l++) {
            const g16_fc_level *lv = &v->levels[inc->level0 + l];
            FUZZ_CHECK(lv->arity == 2 || lv->arity == 4 || lv->arity == 8, "arity %u", lv->arity);
            FUZZ_CHECK(lv->index < lv->arity, "index %u of arity %u", lv->index, lv->arity);
            FUZZ_CHECK(lv->first <= v->n_hashes && lv->arity - 1 <= v->n_hashes - lv->first, "level's siblings");
        }
        /* the first path only: Poseidon under the sanitizers costs about as much per level as
         * the whole parse, and every path runs the same code */
        g16_fr root;
        if (i == 0) (void)g16_fc_path_root(&root, v, inc);
    }
}

#endif
