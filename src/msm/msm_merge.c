/* MSMs with equal scalars merged (msm.h, g16_msm_g1_merged / _g2_merged): the
 * grouping of equal scalars here, the group sums and the compact MSM in
 * msm_merge_impl.h (one body for G1 and G2). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/error.h"
#include "common/pool.h"
#include "curve/curve.h"
#include "msm/msm.h"

/* Which scalars go to the compact MSM alone (lone_*) and which as members of a
 * group of equal values (mem_k by group, start[g] .. start[g+1]). */
typedef struct merge_plan {
    int worth;               /* merging saves enough points to pay for the copies */
    size_t n_lone, n_groups;
    uint32_t *lone_i, *lone_k; /* scalar index, base index */
    uint32_t *mem_k;         /* base indices of the members, group by group */
    uint32_t *start;         /* n_groups + 1 offsets into mem_k */
    uint32_t *group_i;       /* a scalar index of each group's value */
    uint32_t *order;         /* groups by size, largest first */
} merge_plan;

static void merge_plan_free(merge_plan *p)
{
    free(p->lone_i);
    free(p->lone_k);
    free(p->mem_k);
    free(p->start);
    free(p->group_i);
    free(p->order);
    memset(p, 0, sizeof *p);
}

static double merge_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Tuning hooks, read once: G16_MSM_MERGE_DEBUG=1 prints each merged MSM's sizes
 * and times to stderr; G16_MSM_NO_MERGE=1 makes the merged entry points the plain
 * MSM (for before/after measurements in one binary). */
static int merge_debug(void)
{
    static int v = -1;
    if (v < 0) v = getenv("G16_MSM_MERGE_DEBUG") != NULL;
    return v;
}

static int merge_off(void)
{
    static int v = -1;
    if (v < 0) v = getenv("G16_MSM_NO_MERGE") != NULL;
    return v;
}

static inline uint64_t fr_hash(const g16_fr *x)
{
    return (x->l[0] ^ (x->l[1] * 0x9e3779b97f4a7c15ull)) * 0xff51afd7ed558ccdull;
}

/* A small value (< 2^32) has one or two non-zero Booth digits: Pippenger already
 * pays about one addition a copy, so merging it saves nothing (the synthetic
 * porep profile repeats 256 small values thousands of times).  Checked once a
 * value, when its first copy is met. */
#define SMALL UINT32_MAX
static int small_value(const g16_fr *x)
{
    uint64_t v[G16_FR_LIMBS];
    g16_fr_to_canonical(v, x);
    return (v[1] | v[2] | v[3]) == 0 && v[0] < ((uint64_t)1 << 32);
}

/* Groups the scalars whose bit is set (all when density is NULL), skipping 0
 * and leaving 1 alone (the MSM's 0/1 split sums those already) in one pass over
 * an open-addressing table of first occurrences. */
static g16_status merge_plan_make(merge_plan *p, const g16_fr *s, size_t n, const uint64_t *density,
                                  size_t n_bases)
{
    memset(p, 0, sizeof *p);
    g16_fr one;
    g16_fr_set_one(&one);
    size_t cap = 64;
    while (cap < 2 * n) cap <<= 1;
    unsigned shift = 64 - (unsigned)__builtin_ctzll(cap);
    uint32_t *tab = calloc(cap, sizeof *tab); /* entry + 1 of a value's first occurrence; 0: empty */
    uint32_t *cnt = calloc(n + 1, sizeof *cnt); /* per first entry: occurrences */
    uint32_t *ent_i = malloc((n + 1) * sizeof *ent_i), *ent_k = malloc((n + 1) * sizeof *ent_k);
    uint32_t *first = malloc((n + 1) * sizeof *first); /* entry -> its value's first entry */
    g16_status st = G16_OK;
    if (!tab || !cnt || !ent_i || !ent_k || !first) {
        st = g16_fail(G16_ERR_NOMEM, "msm merge: tables for %zu scalars", n);
        goto done;
    }
    size_t ne = 0, k = 0, n_ones = 0, dups = 0, check_at = n / 8;
    for (size_t i = 0; i < n; i++) {
        /* an input without copies (random scalars) stops here after an eighth,
         * so the plain MSM pays an eighth of this pass, not all of it */
        if (i == check_at && dups * 32 < ne) goto done;
        if (density && !((density[i >> 6] >> (i & 63)) & 1)) continue;
        size_t ki = k++;
        const g16_fr *x = &s[i];
        if ((x->l[0] | x->l[1] | x->l[2] | x->l[3]) == 0) continue;
        ent_i[ne] = (uint32_t)i, ent_k[ne] = (uint32_t)ki;
        if (g16_fr_eq(x, &one)) { /* lone */
            first[ne++] = UINT32_MAX;
            n_ones++;
            continue;
        }
        size_t h = (size_t)(fr_hash(x) >> shift);
        for (;;) {
            uint32_t t = tab[h];
            if (!t) {
                tab[h] = (uint32_t)ne + 1;
                first[ne] = (uint32_t)ne;
                cnt[ne] = 1;
                break;
            }
            if (!memcmp(&s[ent_i[t - 1]], x, sizeof *x)) {
                first[ne] = t - 1;
                if (cnt[t - 1] == 1 && small_value(x)) cnt[t - 1] = SMALL;
                if (cnt[t - 1] != SMALL) cnt[t - 1]++, dups++;
                break;
            }
            h = (h + 1) & (cap - 1);
        }
        ne++;
    }
    if (k != n_bases) {
        st = g16_fail(G16_ERR_ARG, "msm: %zu bases for %zu selected scalars", n_bases, k);
        goto done;
    }
    size_t members = 0, G = 0;
    for (size_t e = 0; e < ne; e++) {
        if (first[e] != e) continue;
        if (cnt[e] == SMALL) cnt[e] = 1; /* its copies stay lone */
        if (cnt[e] >= 2) members += cnt[e], G++;
    }
    /* the grouping pass and the copies of the lone points and scalars cost about
     * what 1/16 of the points' Pippenger work does: merge only when it saves more */
    p->worth = members - G >= ne / 16 + 1;
    if (!p->worth) goto done;
    p->n_groups = G;
    p->n_lone = ne - members;
    p->lone_i = malloc((p->n_lone + 1) * sizeof *p->lone_i);
    p->lone_k = malloc((p->n_lone + 1) * sizeof *p->lone_k);
    p->mem_k = malloc((members + 1) * sizeof *p->mem_k);
    p->start = malloc((G + 2) * sizeof *p->start);
    p->group_i = malloc((G + 1) * sizeof *p->group_i);
    p->order = malloc((G + 1) * sizeof *p->order);
    uint32_t *gid = malloc((ne + 1) * sizeof *gid);   /* first entry -> group, or NONE */
    uint32_t *fill = malloc((G + 1) * sizeof *fill);  /* next member slot of a group */
    uint32_t *by_size = calloc(n + 2, sizeof *by_size);
    if (!p->lone_i || !p->lone_k || !p->mem_k || !p->start || !p->group_i || !p->order || !gid || !fill ||
        !by_size) {
        st = g16_fail(G16_ERR_NOMEM, "msm merge: plan for %zu scalars", n);
    } else {
        size_t g = 0, off = 0, max = 0;
        for (size_t e = 0; e < ne; e++) {
            if (first[e] != e) continue;
            gid[e] = UINT32_MAX;
            if (cnt[e] < 2) continue;
            gid[e] = (uint32_t)g;
            p->group_i[g] = ent_i[e];
            p->start[g] = fill[g] = (uint32_t)off;
            off += cnt[e];
            by_size[cnt[e]]++;
            if (cnt[e] > max) max = cnt[e];
            g++;
        }
        p->start[G] = (uint32_t)off;
        size_t nl = 0;
        for (size_t e = 0; e < ne; e++) {
            uint32_t f = first[e];
            if (f != UINT32_MAX && gid[f] != UINT32_MAX) {
                p->mem_k[fill[gid[f]]++] = ent_k[e];
            } else {
                p->lone_i[nl] = ent_i[e];
                p->lone_k[nl++] = ent_k[e];
            }
        }
        /* largest groups first (counting sort by size) */
        size_t pos = 0;
        for (size_t z = max; z >= 2; z--) {
            size_t c = by_size[z];
            by_size[z] = (uint32_t)pos;
            pos += c;
        }
        for (size_t q = 0; q < G; q++) {
            size_t z = p->start[q + 1] - p->start[q];
            p->order[by_size[z]++] = (uint32_t)q;
        }
    }
    free(gid);
    free(fill);
    free(by_size);
done:
    free(tab);
    free(cnt);
    free(ent_i);
    free(ent_k);
    free(first);
    if (st != G16_OK) merge_plan_free(p);
    return st;
}

#define MG g1
#define MG_GROUP 1
#define MG_AFF g16_g1_affine
#define MG_JAC g16_g1_jac
#include "msm/msm_merge_impl.h"
#undef MG
#undef MG_GROUP
#undef MG_AFF
#undef MG_JAC

#define MG g2
#define MG_GROUP 2
#define MG_AFF g16_g2_affine
#define MG_JAC g16_g2_jac
#include "msm/msm_merge_impl.h"
#undef MG
#undef MG_GROUP
#undef MG_AFF
#undef MG_JAC
