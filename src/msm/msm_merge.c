/* MSMs with equal scalars merged (msm.h, g16_msm_g1_merged / _g2_merged): the
 * grouping of equal scalars here, the group sums and the compact MSM in
 * msm_merge_impl.h (one body for G1 and G2). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/bigmem.h"
#include "common/error.h"
#include "common/pool.h"
#include "curve/curve.h"
#include "msm/msm.h"
#include "msm/msm_internal.h"

/* Which scalars go to the compact MSM alone (lone_*) and which as members of a
 * group of equal values (mem_k by group, start[g] .. start[g+1]). */
typedef struct merge_plan {
    int worth;               /* merging saves enough points to pay for the copies */
    size_t n, n_bases;       /* the scalars (and selected ones) it was made for */
    int dense;               /* made without a bitmap */
    size_t n_lone, n_groups;
    uint32_t *lone_i, *lone_k; /* scalar index, base index */
    uint32_t *mem_k;         /* base indices of the members, group by group */
    uint32_t *start;         /* n_groups + 1 offsets into mem_k */
    uint32_t *group_i, *group_k; /* a scalar index of each group's value, its base index */
    uint32_t *order;         /* groups by size, largest first */
} merge_plan;

/* msm.h's handle: a plan made once for several merged MSMs over the same scalars */
struct g16_msm_merge_plan {
    merge_plan pl;
};

static void merge_plan_free(merge_plan *p)
{
    free(p->lone_i);
    free(p->lone_k);
    free(p->mem_k);
    free(p->start);
    free(p->group_i);
    free(p->group_k);
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

/* The grouping runs on the pool: a pass over blocks of scalars classifies each
 * one (not selected, 0, 1, or hashed) and gives it its base index; then the hash
 * table is cut into P slot ranges by the hash's top bits and worker t inserts,
 * in scalar order, just the values whose home slot is in its range (probing
 * wraps inside the range), so equal values meet in one worker and each value's
 * first occurrence is still its smallest index.  The plan is the serial one's. */
enum { T_NONE = 0, T_ONE = 1, T_HASH = 2 }; /* T_NONE: not selected, or 0 */
#define PLAN_BLOCK 4096u /* a multiple of 64: a block's base index is a prefix popcount */

typedef struct plan_pass {
    const g16_fr *s;
    size_t n;
    const uint64_t *density;
    uint8_t *typ;       /* T_* per scalar */
    uint64_t *hv;       /* hash per T_HASH scalar */
    uint32_t *kk;       /* base index per selected scalar */
    size_t *blk_k;      /* base index of each block's first selected scalar */
    uint32_t *tab;      /* scalar index + 1 of a value's first occurrence; 0: empty */
    uint32_t *cnt;      /* per first occurrence: occurrences (SMALL: a small value) */
    uint32_t *first;    /* per T_HASH scalar: its value's first occurrence */
    size_t cap, parts;
    unsigned shift;
    size_t lo, hi;      /* the scalars of this round */
    size_t dups[G16_POOL_MAX_THREADS];
} plan_pass;

static void plan_classify(void *ctx, size_t b0, size_t b1, unsigned worker)
{
    plan_pass *x = ctx;
    g16_fr one;
    g16_fr_set_one(&one);
    (void)worker;
    for (size_t b = b0; b < b1; b++) {
        size_t lo = b * PLAN_BLOCK, hi = lo + PLAN_BLOCK < x->n ? lo + PLAN_BLOCK : x->n;
        size_t k = x->blk_k[b];
        for (size_t i = lo; i < hi; i++) {
            x->typ[i] = T_NONE;
            if (x->density && !((x->density[i >> 6] >> (i & 63)) & 1)) continue;
            x->kk[i] = (uint32_t)k++;
            const g16_fr *v = &x->s[i];
            if ((v->l[0] | v->l[1] | v->l[2] | v->l[3]) == 0) continue;
            if (g16_fr_eq(v, &one)) {
                x->typ[i] = T_ONE;
                continue;
            }
            x->typ[i] = T_HASH;
            x->hv[i] = fr_hash(v);
        }
    }
}

static void plan_insert(void *ctx, size_t t, unsigned worker)
{
    plan_pass *x = ctx;
    size_t psize = x->cap / x->parts, plo = t * psize, dups = 0;
    (void)worker;
    for (size_t i = x->lo; i < x->hi; i++) {
        if (x->typ[i] != T_HASH) continue;
        size_t h = (size_t)(x->hv[i] >> x->shift);
        if (h / psize != t) continue;
        const g16_fr *v = &x->s[i];
        for (;;) {
            uint32_t e = x->tab[h];
            if (!e) {
                x->tab[h] = (uint32_t)i + 1;
                x->first[i] = (uint32_t)i;
                x->cnt[i] = 1;
                break;
            }
            if (!memcmp(&x->s[e - 1], v, sizeof *v)) {
                x->first[i] = e - 1;
                if (x->cnt[e - 1] == 1 && small_value(v)) x->cnt[e - 1] = SMALL;
                if (x->cnt[e - 1] != SMALL) x->cnt[e - 1]++, dups++;
                break;
            }
            h = plo + ((h - plo + 1) & (psize - 1));
        }
    }
    x->dups[t] += dups;
}

/* Groups the scalars whose bit is set (all when density is NULL), skipping 0
 * and leaving 1 alone (the MSM's 0/1 split sums those already). */
static g16_status merge_plan_make(merge_plan *p, const g16_fr *s, size_t n, const uint64_t *density,
                                  size_t n_bases)
{
    memset(p, 0, sizeof *p);
    p->n = n, p->n_bases = n_bases, p->dense = !density;
    size_t cap = 64;
    while (cap < 2 * n) cap <<= 1;
    /* slot ranges: a power of two, at most the pool's threads (one: the serial pass) */
    size_t parts = 1, nblk = (n + PLAN_BLOCK - 1) / PLAN_BLOCK;
    while (2 * parts <= g16_pool_size(NULL) && 2 * parts <= 64) parts *= 2;
    plan_pass *x = calloc(1, sizeof *x);
    uint32_t *tab = g16_big_calloc(cap, sizeof *tab);
    uint32_t *cnt = g16_big_alloc((n + 1) * sizeof *cnt), *first = g16_big_alloc((n + 1) * sizeof *first);
    uint32_t *kk = g16_big_alloc((n + 1) * sizeof *kk);
    uint64_t *hv = g16_big_alloc((n + 1) * sizeof *hv);
    uint8_t *typ = g16_big_alloc(n + 1);
    size_t *blk_k = malloc((nblk + 1) * sizeof *blk_k);
    g16_status st = G16_OK;
    if (!x || !tab || !cnt || !first || !kk || !hv || !typ || !blk_k) {
        st = g16_fail(G16_ERR_NOMEM, "msm merge: tables for %zu scalars", n);
        goto done;
    }
    size_t k = 0;
    for (size_t b = 0; b < nblk; b++) {
        blk_k[b] = k;
        size_t len = n - b * PLAN_BLOCK < PLAN_BLOCK ? n - b * PLAN_BLOCK : PLAN_BLOCK;
        k += density ? g16_msm_popcount(density + b * (PLAN_BLOCK / 64), len) : len;
    }
    *x = (plan_pass){s, n, density, typ, hv, kk, blk_k, tab, cnt, first, cap, parts,
                     64 - (unsigned)__builtin_ctzll(cap), 0, 0, {0}};
    g16_parallel_for(nblk, 1, plan_classify, x);
    /* an input without copies (random scalars) stops after an eighth of the table
     * work, so the plain MSM pays little of this pass */
    size_t check_at = n / 8, ne8 = 0, dups = 0;
    for (size_t i = 0; i < check_at; i++) ne8 += typ[i] != T_NONE;
    x->lo = 0, x->hi = check_at;
    g16_pool_tasks(NULL, parts, plan_insert, x);
    for (size_t t = 0; t < parts; t++) dups += x->dups[t];
    if (check_at && dups * 32 < ne8) goto done;
    x->lo = check_at, x->hi = n;
    g16_pool_tasks(NULL, parts, plan_insert, x);
    if (k != n_bases) {
        st = g16_fail(G16_ERR_ARG, "msm: %zu bases for %zu selected scalars", n_bases, k);
        goto done;
    }
    size_t members = 0, G = 0, ne = 0;
    for (size_t i = 0; i < n; i++) {
        ne += typ[i] != T_NONE;
        if (typ[i] != T_HASH || first[i] != i) continue;
        if (cnt[i] == SMALL) cnt[i] = 1; /* its copies stay lone */
        if (cnt[i] >= 2) members += cnt[i], G++;
    }
    /* the grouping pass and the copies of the lone points and scalars cost about
     * what 1/16 of the points' Pippenger work does: merge only when it saves more */
    p->worth = members - G >= ne / 16 + 1;
    if (!p->worth) goto done;
    p->n_groups = G;
    p->n_lone = ne - members;
    p->lone_i = g16_big_alloc((p->n_lone + 1) * sizeof *p->lone_i);
    p->lone_k = g16_big_alloc((p->n_lone + 1) * sizeof *p->lone_k);
    p->mem_k = g16_big_alloc((members + 1) * sizeof *p->mem_k);
    p->start = malloc((G + 2) * sizeof *p->start);
    p->group_i = malloc((G + 1) * sizeof *p->group_i);
    p->group_k = malloc((G + 1) * sizeof *p->group_k);
    p->order = malloc((G + 1) * sizeof *p->order);
    uint32_t *gid = g16_big_alloc((n + 1) * sizeof *gid);   /* first occurrence -> group, or NONE */
    uint32_t *fill = malloc((G + 1) * sizeof *fill);  /* next member slot of a group */
    uint32_t *by_size = g16_big_calloc(n + 2, sizeof *by_size);
    if (!p->lone_i || !p->lone_k || !p->mem_k || !p->start || !p->group_i || !p->group_k || !p->order ||
        !gid || !fill || !by_size) {
        st = g16_fail(G16_ERR_NOMEM, "msm merge: plan for %zu scalars", n);
    } else {
        size_t g = 0, off = 0, max = 0;
        for (size_t i = 0; i < n; i++) {
            if (typ[i] != T_HASH || first[i] != i) continue;
            gid[i] = UINT32_MAX;
            if (cnt[i] < 2) continue;
            gid[i] = (uint32_t)g;
            p->group_i[g] = (uint32_t)i;
            p->group_k[g] = kk[i];
            p->start[g] = fill[g] = (uint32_t)off;
            off += cnt[i];
            by_size[cnt[i]]++;
            if (cnt[i] > max) max = cnt[i];
            g++;
        }
        p->start[G] = (uint32_t)off;
        size_t nl = 0;
        for (size_t i = 0; i < n; i++) {
            if (typ[i] == T_NONE) continue;
            if (typ[i] == T_HASH && gid[first[i]] != UINT32_MAX) {
                p->mem_k[fill[gid[first[i]]]++] = kk[i];
            } else {
                p->lone_i[nl] = (uint32_t)i;
                p->lone_k[nl++] = kk[i];
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
    free(x);
    free(tab);
    free(cnt);
    free(first);
    free(kk);
    free(hv);
    free(typ);
    free(blk_k);
    if (st != G16_OK) merge_plan_free(p);
    return st;
}

static int merge_applies(size_t n, const g16_fr *s, const void *bases)
{
    return n >= G16_MSM_MERGE_MIN && n <= G16_MSM_MERGE_MAX && s && bases && !merge_off();
}

g16_status g16_msm_merge_plan_new(g16_msm_merge_plan **out, const g16_fr *s, size_t n,
                                  const uint64_t *density, size_t n_bases)
{
    if (!out) return g16_fail(G16_ERR_ARG, "msm merge plan: out is NULL");
    *out = NULL;
    if (!merge_applies(n, s, s)) return G16_OK;
    g16_msm_merge_plan *h = malloc(sizeof *h);
    if (!h) return g16_fail(G16_ERR_NOMEM, "msm merge plan: no memory");
    double t0 = merge_now();
    g16_status st = merge_plan_make(&h->pl, s, n, density, n_bases);
    if (merge_debug())
        fprintf(stderr, "msm merge plan: n %zu: %s (%.1f ms)\n", n, st != G16_OK ? "failed"
                : h->pl.worth ? "worth it" : "not worth it", 1e3 * (merge_now() - t0));
    if (st != G16_OK || !h->pl.worth) {
        merge_plan_free(&h->pl);
        free(h);
        return st;
    }
    *out = h;
    return G16_OK;
}

void g16_msm_merge_plan_free(g16_msm_merge_plan *p)
{
    if (!p) return;
    merge_plan_free(&p->pl);
    free(p);
}

/* Which of a plan's scalar indices the caller's scalars follow: the original
 * (with its bitmap) or the compacted selected ones (scalar index = base index);
 * -1 when the sizes fit neither. */
static int merge_plan_form(const merge_plan *pl, size_t n_bases, size_t n, const uint64_t *density)
{
    if (n_bases != pl->n_bases) return -1;
    if (density) return !pl->dense && n == pl->n ? 0 : -1;
    return n == pl->n_bases ? 1 : -1;
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
