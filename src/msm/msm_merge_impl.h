/* The merged MSM (msm.h, g16_msm_g1_merged), one body for G1 and G2: included
 * twice by msm_merge.c after defining MG (g1 | g2), MG_AFF and MG_JAC.
 *
 * Why: a Poseidon Merkle circuit proving many paths of one tree (WinningPoSt's
 * 66 challenges of one sector) hashes the same nodes again and again: a third of
 * its witness values are copies of others.  Σ v·P_i over the bases of one value
 * v is v·(Σ P_i): one batch-affine addition a copy instead of a Pippenger point
 * (⌈255/c⌉ additions). */
#define MG_CAT_(a, b) a##b
#define MG_CAT(a, b) MG_CAT_(a, b)
#define MG_PT(name) MG_CAT(MG_CAT(g16_, MG), name)
#define MG_LOCAL(name) MG_CAT(MG_CAT(MG, _merge_), name)

/* The sums of each group's bases, batch-affine: round r adds member r of every
 * group that has one, so the targets of a call are distinct (the batch's
 * contract).  Groups are sorted by size, largest first, and dealt to the tasks
 * in turn (task t takes q = t, t + T, ...), so a task's groups of one round are
 * a prefix of its own.  A sum that reaches infinity restarts from its next
 * member.  The first `lone` entries of the compact arrays are copied here too. */
typedef struct MG_LOCAL(job) {
    MG_AFF *sum, *cb;
    g16_fr *cs;
    const MG_AFF *bases;
    const g16_fr *s;
    const merge_plan *pl;
    uint8_t *st;
    size_t tasks;
    g16_status err;
} MG_LOCAL(job);

static void MG_LOCAL(task)(void *ctx, size_t t, unsigned worker)
{
    MG_LOCAL(job) *j = ctx;
    const merge_plan *pl = j->pl;
    (void)worker;
    /* the lone points: a contiguous share each */
    size_t lo = pl->n_lone * t / j->tasks, hi = pl->n_lone * (t + 1) / j->tasks;
    for (size_t e = lo; e < hi; e++) {
        j->cs[e] = j->s[pl->lone_i[e]];
        j->cb[e] = j->bases[pl->lone_k[e]];
    }
    size_t G = pl->n_groups, mine = G > t ? (G - t + j->tasks - 1) / j->tasks : 0;
    if (!mine) return;
    size_t max = pl->start[pl->order[t] + 1] - pl->start[pl->order[t]];
    uint32_t *idx = malloc(mine * sizeof *idx);
    const MG_AFF **pts = malloc(mine * sizeof *pts);
    uint8_t *neg = calloc(mine, 1);
    MG_CAT(MG_CAT(g16_, MG), _batch) *b = NULL;
    if (!idx || !pts || !neg || MG_CAT(MG_PT(_batch), _new)(&b, 1024) != G16_OK) {
        j->err = G16_ERR_NOMEM;
        max = 0;
    }
    for (size_t r = 0; r < max; r++) {
        size_t m = 0;
        for (size_t q = t; q < G; q += j->tasks) {
            uint32_t g = pl->order[q];
            if (pl->start[g + 1] - pl->start[g] <= r) break;
            const MG_AFF *p = &j->bases[pl->mem_k[pl->start[g] + r]];
            if (MG_PT(_affine_is_infinity)(p)) continue;
            if (!(j->st[q] & 1)) { /* empty so far (or back to infinity): take the point */
                j->sum[q] = *p;
                j->st[q] = 1;
                continue;
            }
            idx[m] = (uint32_t)q;
            pts[m] = p;
            m++;
        }
        if (m) MG_PT(_batch_add)(b, j->sum, j->st, idx, pts, neg, m);
    }
    for (size_t q = t; q < G; q += j->tasks)
        if (!(j->st[q] & 1)) MG_PT(_affine_set_infinity)(&j->sum[q]);
    if (b) MG_CAT(MG_PT(_batch), _free)(b);
    free(idx);
    free(pts);
    free(neg);
}

g16_status MG_CAT(MG_CAT(g16_msm_, MG), _merged)(MG_JAC *out, const MG_AFF *bases, size_t n_bases,
                                                 const g16_fr *s, size_t n, const uint64_t *density)
{
    if (n < G16_MSM_MERGE_MIN || n > G16_MSM_MERGE_MAX || !s || !bases || merge_off())
        return MG_CAT(g16_msm_, MG)(out, bases, n_bases, s, n, density);
    merge_plan pl;
    double t0 = merge_now();
    g16_status st = merge_plan_make(&pl, s, n, density, n_bases);
    double t1 = merge_now();
    if (st != G16_OK) return st;
    if (!pl.worth) {
        merge_plan_free(&pl);
        return MG_CAT(g16_msm_, MG)(out, bases, n_bases, s, n, density);
    }
    /* the compact MSM: the lone scalars with their bases, then one point a group */
    size_t m = pl.n_lone + pl.n_groups;
    g16_fr *cs = malloc((m ? m : 1) * sizeof *cs);
    MG_AFF *cb = malloc((m ? m : 1) * sizeof *cb);
    if (!cs || !cb) {
        st = g16_fail(G16_ERR_NOMEM, "msm merge: %zu points", m);
    } else {
        for (size_t q = 0; q < pl.n_groups; q++) cs[pl.n_lone + q] = s[pl.group_i[pl.order[q]]];
        MG_LOCAL(job) j = {cb + pl.n_lone, cb, cs, bases, s, &pl, calloc(pl.n_groups + 1, 1),
                           2 * (size_t)g16_pool_size(NULL), G16_OK};
        if (!j.st) j.err = G16_ERR_NOMEM;
        else g16_pool_tasks(NULL, j.tasks, MG_LOCAL(task), &j);
        free(j.st);
        if (j.err) st = g16_fail(j.err, "msm merge: group sums of %zu groups", pl.n_groups);
    }
    size_t n_lone = pl.n_lone, n_groups = pl.n_groups;
    merge_plan_free(&pl);
    double t2 = merge_now();
    if (st == G16_OK) st = MG_CAT(g16_msm_, MG)(out, cb, m, cs, m, NULL);
    if (merge_debug())
        fprintf(stderr, "msm merge g%d: n %zu: %zu lone + %zu groups = %zu points; plan %.1f ms, copy+sums %.1f ms, "
                "msm %.1f ms\n", MG_GROUP, n, n_lone, n_groups, m, 1e3 * (t1 - t0), 1e3 * (t2 - t1),
                1e3 * (merge_now() - t2));
    free(cs);
    free(cb);
    return st;
}

#undef MG_CAT_
#undef MG_CAT
#undef MG_PT
#undef MG_LOCAL
