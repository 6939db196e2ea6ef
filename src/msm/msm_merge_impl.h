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

/* The sums of each group's bases, batch-affine, as a tree: a group's members
 * are copied to acc (its slice start[g] .. start[g+1]), then round r adds entry
 * i + 2^r into entry i for every i ≡ 0 mod 2^(r+1) of every group, so the
 * targets of a call are distinct and never a source of the same call (the
 * batch's contract), and a group of g members takes ⌈log2 g⌉ rounds.  ok[e]
 * says acc[e] is a point: infinity (a base at infinity, or a sum that cancelled)
 * takes the other side by copy.  Groups are dealt to the tasks in turn
 * (order[q], q = t, t + T, ...: sorted by size, so the work is even); the first
 * n_lone entries of the compact arrays are copied here too, a share a task. */
typedef struct MG_LOCAL(job) {
    MG_AFF *acc, *cb;
    g16_fr *cs;
    const MG_AFF *bases;
    const g16_fr *s;
    const merge_plan *pl;
    const uint32_t *lone_s;  /* the lone scalars' indices into s (lone_i or lone_k) */
    uint8_t *ok;
    size_t tasks;
    g16_status err;
} MG_LOCAL(job);

static void MG_LOCAL(task)(void *ctx, size_t t, unsigned worker)
{
    MG_LOCAL(job) *j = ctx;
    const merge_plan *pl = j->pl;
    (void)worker;
    size_t lo = pl->n_lone * t / j->tasks, hi = pl->n_lone * (t + 1) / j->tasks;
    for (size_t e = lo; e < hi; e++) {
        j->cs[e] = j->s[j->lone_s[e]];
        j->cb[e] = j->bases[pl->lone_k[e]];
    }
    size_t G = pl->n_groups, members = 0;
    if (t >= G) return;
    for (size_t q = t; q < G; q += j->tasks) {
        uint32_t g = pl->order[q];
        for (uint32_t e = pl->start[g]; e < pl->start[g + 1]; e++) {
            j->acc[e] = j->bases[pl->mem_k[e]];
            j->ok[e] = !MG_PT(_affine_is_infinity)(&j->acc[e]);
        }
        members += pl->start[g + 1] - pl->start[g];
    }
    size_t max = pl->start[pl->order[t] + 1] - pl->start[pl->order[t]];
    uint32_t *idx = malloc((members / 2 + 1) * sizeof *idx);
    const MG_AFF **pts = malloc((members / 2 + 1) * sizeof *pts);
    uint8_t *neg = calloc(members / 2 + 1, 1);
    MG_CAT(MG_CAT(g16_, MG), _batch) *b = NULL;
    if (!idx || !pts || !neg || MG_CAT(MG_PT(_batch), _new)(&b, 1024) != G16_OK) {
        j->err = G16_ERR_NOMEM;
        max = 0;
    }
    for (size_t h = 1; h < max; h *= 2) {
        size_t m = 0;
        for (size_t q = t; q < G; q += j->tasks) {
            uint32_t g = pl->order[q], s0 = pl->start[g], size = pl->start[g + 1] - s0;
            if (size <= h) break; /* this group and every later one (smaller) are done */
            for (size_t i = 0; i + h < size; i += 2 * h) {
                uint32_t tg = s0 + (uint32_t)i, src = tg + (uint32_t)h;
                if (!j->ok[src]) continue;
                if (!j->ok[tg]) {
                    j->acc[tg] = j->acc[src];
                    j->ok[tg] = 1;
                    continue;
                }
                idx[m] = tg;
                pts[m] = &j->acc[src];
                m++;
            }
        }
        if (m) MG_PT(_batch_add)(b, j->acc, j->ok, idx, pts, neg, m);
    }
    if (b) MG_CAT(MG_PT(_batch), _free)(b);
    free(idx);
    free(pts);
    free(neg);
}

/* The group sums and the compact MSM for a plan that applies (form: merge_plan_form);
 * t0, t1: when the plan was begun and done (for the debug line). */
static g16_status MG_LOCAL(run)(MG_JAC *out, const MG_AFF *bases, const g16_fr *s, size_t n,
                                const merge_plan *plp, int form, double t0, double t1)
{
    const merge_plan pl = *plp;
    g16_status st = G16_OK;
    const uint32_t *group_s = form ? pl.group_k : pl.group_i;
    /* the compact MSM: the lone scalars with their bases, then one point a group */
    size_t m = pl.n_lone + pl.n_groups;
    g16_fr *cs = g16_big_alloc((m ? m : 1) * sizeof *cs);
    MG_AFF *cb = g16_big_alloc((m ? m : 1) * sizeof *cb);
    if (!cs || !cb) {
        st = g16_fail(G16_ERR_NOMEM, "msm merge: %zu points", m);
    } else {
        size_t members = pl.start[pl.n_groups];
        MG_LOCAL(job) j = {g16_big_alloc((members + 1) * sizeof(MG_AFF)), cb, cs, bases, s, &pl,
                           form ? pl.lone_k : pl.lone_i, g16_big_alloc(members + 1),
                           2 * (size_t)g16_pool_size(NULL), G16_OK};
        if (!j.acc || !j.ok) j.err = G16_ERR_NOMEM;
        else g16_pool_tasks(NULL, j.tasks, MG_LOCAL(task), &j);
        /* one point a group: its tree's root */
        for (size_t q = 0; j.err == G16_OK && q < pl.n_groups; q++) {
            uint32_t g = pl.order[q];
            cs[pl.n_lone + q] = s[group_s[g]];
            if (j.ok[pl.start[g]]) cb[pl.n_lone + q] = j.acc[pl.start[g]];
            else MG_PT(_affine_set_infinity)(&cb[pl.n_lone + q]);
        }
        free(j.acc);
        free(j.ok);
        if (j.err) st = g16_fail(j.err, "msm merge: group sums of %zu groups", pl.n_groups);
    }
    size_t n_lone = pl.n_lone, n_groups = pl.n_groups;
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

g16_status MG_CAT(MG_CAT(g16_msm_, MG), _merged)(MG_JAC *out, const MG_AFF *bases, size_t n_bases,
                                                 const g16_fr *s, size_t n, const uint64_t *density)
{
    if (!merge_applies(n, s, bases)) return MG_CAT(g16_msm_, MG)(out, bases, n_bases, s, n, density);
    merge_plan pl;
    double t0 = merge_now();
    g16_status st = merge_plan_make(&pl, s, n, density, n_bases);
    double t1 = merge_now();
    if (st != G16_OK) return st;
    if (!pl.worth) {
        if (merge_debug())
            fprintf(stderr, "msm merge g%d: n %zu: not worth it (plan %.1f ms)\n", MG_GROUP, n, 1e3 * (t1 - t0));
        merge_plan_free(&pl);
        return MG_CAT(g16_msm_, MG)(out, bases, n_bases, s, n, density);
    }
    st = MG_LOCAL(run)(out, bases, s, n, &pl, 0, t0, t1);
    merge_plan_free(&pl);
    return st;
}

g16_status MG_CAT(MG_CAT(g16_msm_, MG), _merged_plan)(MG_JAC *out, const MG_AFF *bases, size_t n_bases,
                                                      const g16_fr *s, size_t n, const uint64_t *density,
                                                      const g16_msm_merge_plan *plan)
{
    if (!plan || !bases || !s) return MG_CAT(g16_msm_, MG)(out, bases, n_bases, s, n, density);
    int form = merge_plan_form(&plan->pl, n_bases, n, density);
    if (form < 0) {
        if (out) MG_PT(_jac_set_infinity)(out);
        return g16_fail(G16_ERR_ARG, "msm merge: a plan for %zu scalars (%zu selected) given %zu scalars, %zu bases%s",
                        plan->pl.n, plan->pl.n_bases, n, n_bases, density ? " and a bitmap" : "");
    }
    if (!out) return g16_fail(G16_ERR_ARG, "msm: out is NULL");
    double t = merge_now();
    return MG_LOCAL(run)(out, bases, s, n, &plan->pl, form, t, t);
}

#undef MG_CAT_
#undef MG_CAT
#undef MG_PT
#undef MG_LOCAL
