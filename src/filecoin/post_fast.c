/* Cached PoSt matrices and the streaming witness (post_fast.h). */
#include "filecoin/post_fast.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "common/pool.h"
#include "filecoin/post_batch.h"
#include "r1cs/r1cs.h"

g16_status g16_fc_layout_for(g16_fc_layout *out, const g16_fc_post_config *cfg)
{
    int win = cfg->kind == G16_FC_WINNING;
    out->circuit_sectors = win ? cfg->challenges : cfg->sectors;
    out->challenges = win ? 1 : cfg->challenges;
    g16_fc_cs cs = {0};
    G16_TRY(g16_fc_post_sector(&cs, &cfg->shape, out->challenges, NULL, 0, 0));
    out->pub = cs.inputs;
    out->aux = cs.aux;
    out->rows = cs.constraints;
    return G16_OK;
}

/* One circuit sector's rows with value-free variables, through the builder. */
static g16_status build_template(g16_circuit **tpl, const g16_fc_post_config *cfg, const g16_fc_layout *lay)
{
    g16_builder *b;
    G16_TRY(g16_builder_new(&b));
    g16_fc_cs cs = {.b = b};
    g16_witness *w = NULL;
    g16_status st = g16_fc_post_sector(&cs, &cfg->shape, lay->challenges, NULL, 0, 0);
    if (st == G16_OK) st = g16_builder_finish(b, tpl, &w);
    g16_builder_free(b);
    g16_witness_destroy(w);
    if (st == G16_OK && ((*tpl)->n_pub != lay->pub || (*tpl)->n_aux != lay->aux || (*tpl)->n_constraints != lay->rows))
        st = g16_fail(G16_ERR_INTERNAL, "post template: built %u inputs, %u aux, %llu rows; counted %llu, %llu, %llu",
                      (*tpl)->n_pub, (*tpl)->n_aux, (unsigned long long)(*tpl)->n_constraints,
                      (unsigned long long)lay->pub, (unsigned long long)lay->aux, (unsigned long long)lay->rows);
    return st;
}

typedef struct rep_ctx {
    const g16_circuit *tpl;
    g16_circuit *out;
    unsigned n;
} rep_ctx;

/* Copies the template's rows into circuit sector j with its variables moved: ONE
 * stays, input i goes to 1 + j·pub + i, aux k to 1 + n·pub + j·aux + k. */
static void replicate(void *vctx, size_t begin, size_t end, unsigned worker)
{
    (void)worker;
    const rep_ctx *x = vctx;
    const g16_circuit *t = x->tpl;
    uint64_t pub = t->n_pub, aux = t->n_aux, rows = t->n_constraints;
    const g16_csr *src[3] = {&t->a, &t->b, &t->c};
    g16_csr *dst[3] = {&x->out->a, &x->out->b, &x->out->c};
    for (size_t j = begin; j < end; j++)
        for (int m = 0; m < 3; m++) {
            uint64_t nnz = src[m]->row_start[rows], base = j * nnz;
            for (uint64_t r = 0; r < rows; r++) dst[m]->row_start[j * rows + r] = base + src[m]->row_start[r];
            uint32_t in_shift = (uint32_t)(j * pub), aux_shift = (uint32_t)((x->n - 1) * pub + j * aux);
            for (uint64_t k = 0; k < nnz; k++) {
                uint32_t c = src[m]->col[k];
                dst[m]->col[base + k] = c == 0 ? 0 : c <= pub ? c + in_shift : c + aux_shift;
            }
            memcpy(&dst[m]->coef[base], src[m]->coef, nnz * sizeof *src[m]->coef);
        }
}

g16_status g16_fc_post_circuit(g16_circuit **circ, const g16_fc_post_config *cfg, unsigned n)
{
    *circ = NULL;
    g16_fc_layout lay;
    G16_TRY(g16_fc_layout_for(&lay, cfg));
    if (n == 0) return g16_fail(G16_ERR_ARG, "post circuit: no circuit sector");
    if ((1 + (uint64_t)n * (lay.pub + lay.aux)) >> 32)
        return g16_fail(G16_ERR_ARG, "post circuit: %u circuit sectors of %llu variables pass 2^32 variables", n,
                        (unsigned long long)(lay.pub + lay.aux));
    g16_circuit *tpl = NULL, *c = NULL;
    G16_TRY(build_template(&tpl, cfg, &lay));
    g16_status st = g16_circuit_alloc_(&c);
    if (st == G16_OK) {
        c->n_pub = (uint32_t)(n * lay.pub);
        c->n_aux = (uint32_t)(n * lay.aux);
        c->n_constraints = n * lay.rows;
        c->n_coefs = tpl->n_coefs;
        c->coefs = malloc((tpl->n_coefs ? tpl->n_coefs : 1) * sizeof *c->coefs);
        if (!c->coefs) st = g16_fail(G16_ERR_NOMEM, "post circuit: coefficient table");
        else memcpy(c->coefs, tpl->coefs, tpl->n_coefs * sizeof *c->coefs);
    }
    const g16_csr *src[3] = {&tpl->a, &tpl->b, &tpl->c};
    g16_csr *dst[3] = {c ? &c->a : NULL, c ? &c->b : NULL, c ? &c->c : NULL};
    for (int m = 0; st == G16_OK && m < 3; m++)
        st = g16_csr_alloc_(dst[m], c->n_constraints, n * src[m]->row_start[lay.rows]);
    if (st == G16_OK) {
        rep_ctx x = {tpl, c, n};
        g16_parallel_for(n, 1, replicate, &x);
    }
    g16_circuit_destroy(tpl);
    if (st != G16_OK) {
        g16_circuit_destroy(c);
        return st;
    }
    *circ = c;
    return G16_OK;
}

/* ---------------------------------------------------------------- cache */

typedef struct cache_entry {
    g16_fc_post_kind kind;
    uint64_t sector_size;
    g16_circuit *circ;
    struct cache_entry *next;
} cache_entry;

static pthread_mutex_t cache_lock = PTHREAD_MUTEX_INITIALIZER;
static cache_entry *cache_head;

g16_status g16_fc_post_circuit_cached(const g16_circuit **circ, const g16_fc_post_config *cfg)
{
    *circ = NULL;
    pthread_mutex_lock(&cache_lock);
    g16_status st = G16_OK;
    cache_entry *e = cache_head;
    while (e && !(e->kind == cfg->kind && e->sector_size == cfg->shape.sector_size)) e = e->next;
    if (!e) {
        /* built under the lock: a second caller waits rather than building it twice */
        g16_fc_layout lay;
        g16_circuit *c = NULL;
        st = g16_fc_layout_for(&lay, cfg);
        if (st == G16_OK) st = g16_fc_post_circuit(&c, cfg, lay.circuit_sectors);
        if (st == G16_OK && !(e = calloc(1, sizeof *e))) st = g16_fail(G16_ERR_NOMEM, "post circuit cache");
        if (st == G16_OK) {
            *e = (cache_entry){cfg->kind, cfg->shape.sector_size, c, cache_head};
            cache_head = e;
        } else {
            g16_circuit_destroy(c);
        }
    }
    if (e) *circ = e->circ;
    pthread_mutex_unlock(&cache_lock);
    return st;
}

void g16_fc_post_cache_clear(void)
{
    pthread_mutex_lock(&cache_lock);
    while (cache_head) {
        cache_entry *e = cache_head;
        cache_head = e->next;
        g16_circuit_destroy(e->circ);
        free(e);
    }
    pthread_mutex_unlock(&cache_lock);
}

/* ---------------------------------------------------------------- witness */

typedef struct wit_ctx {
    const g16_fc_post_config *cfg;
    const g16_fc_layout *lay;
    const g16_fc_sector_ref *refs;
    const g16_fc_batch_plan *plan;
    unsigned group;
    g16_fr *z;
    unsigned n;
    pthread_mutex_t lock;
    g16_status st;
    uint64_t batched; /* Poseidon gadgets whose trace the batch wrote */
    char msg[256];
} wit_ctx;

static int wit_fail(wit_ctx *x, size_t j, g16_status st)
{
    pthread_mutex_lock(&x->lock);
    if (x->st == G16_OK) {
        x->st = st;
        snprintf(x->msg, sizeof x->msg, "circuit sector %zu: %s", j, g16_last_error());
    }
    pthread_mutex_unlock(&x->lock);
    return 1;
}

/* Circuit sectors [begin, end): their path hashes batched a group at a time
 * (post_batch.h), then every gadget in witness mode. */
static void witness_range(void *vctx, size_t begin, size_t end, unsigned worker)
{
    (void)worker;
    wit_ctx *x = vctx;
    const g16_fc_layout *lay = x->lay;
    unsigned g = x->group;
    void *scratch = malloc(g16_fc_batch_scratch(x->plan, g));
    g16_fc_pretrace pre[64];
    g16_fr *aux0[64];
    uint64_t hits = 0;
    for (size_t g0 = begin; g0 < end; g0 += g) {
        unsigned m = (unsigned)(end - g0 < g ? end - g0 : g);
        for (unsigned i = 0; i < m; i++) aux0[i] = x->z + 1 + (uint64_t)x->n * lay->pub + (g0 + i) * lay->aux;
        if (scratch) g16_fc_batch_paths(x->plan, &x->refs[g0], aux0, m, pre, scratch);
        for (unsigned i = 0; i < m; i++) {
            size_t j = g0 + i;
            g16_fc_cs cs = {.wpub = x->z + 1 + j * lay->pub, .waux = aux0[i], .pre = scratch ? &pre[i] : NULL};
            const g16_fc_sector_ref *r = &x->refs[j];
            g16_status st = g16_fc_post_sector(&cs, &x->cfg->shape, lay->challenges, r->v, r->sector, r->first);
            if (st == G16_OK && (cs.inputs != lay->pub || cs.aux != lay->aux))
                st = g16_fail(G16_ERR_INTERNAL, "post witness: %llu inputs, %llu aux; the layout has %llu, %llu",
                              (unsigned long long)cs.inputs, (unsigned long long)cs.aux, (unsigned long long)lay->pub,
                              (unsigned long long)lay->aux);
            if (st != G16_OK && wit_fail(x, j, st)) goto out;
            if (scratch) hits += pre[i].hits;
        }
    }
out:
    free(scratch);
    pthread_mutex_lock(&x->lock);
    x->batched += hits;
    pthread_mutex_unlock(&x->lock);
}

g16_status g16_fc_post_witness_into(g16_fr *z, uint64_t n_z, uint64_t *batched, const g16_fc_post_config *cfg,
                                    const g16_fc_sector_ref *refs, unsigned n)
{
    if (batched) *batched = 0;
    g16_fc_layout lay;
    G16_TRY(g16_fc_layout_for(&lay, cfg));
    if (n == 0) return g16_fail(G16_ERR_ARG, "post witness: no circuit sector");
    if (n_z != 1 + (uint64_t)n * (lay.pub + lay.aux))
        return g16_fail(G16_ERR_ARG, "post witness: %llu values for %u circuit sectors of %llu",
                        (unsigned long long)n_z, n, (unsigned long long)(lay.pub + lay.aux));
    for (unsigned j = 0; j < n; j++)
        if (!refs[j].v) return g16_fail(G16_ERR_ARG, "post witness: circuit sector %u has no vanilla proof", j);
    g16_fc_batch_plan plan;
    G16_TRY(g16_fc_batch_plan_make(&plan, cfg, lay.challenges));
    unsigned group = g16_fc_batch_group(&plan);
    if (group > 64) group = 64;
    g16_fr_set_one(&z[0]);
    wit_ctx x = {.cfg = cfg, .lay = &lay, .refs = refs, .plan = &plan, .group = group, .z = z, .n = n,
                 .st = G16_OK};
    pthread_mutex_init(&x.lock, NULL);
    g16_parallel_for(n, group, witness_range, &x);
    pthread_mutex_destroy(&x.lock);
    g16_fc_batch_plan_free(&plan);
    if (x.st != G16_OK) return g16_fail(x.st, "%s", x.msg);
    if (batched) *batched = x.batched;
    return G16_OK;
}

g16_status g16_fc_post_witness_n(g16_witness **wit, uint64_t *batched, const g16_fc_post_config *cfg,
                                 const g16_fc_sector_ref *refs, unsigned n)
{
    *wit = NULL;
    g16_fc_layout lay;
    G16_TRY(g16_fc_layout_for(&lay, cfg));
    if (n == 0) return g16_fail(G16_ERR_ARG, "post witness: no circuit sector");
    g16_witness *w;
    G16_TRY(g16_witness_alloc_(&w, 1 + (uint64_t)n * (lay.pub + lay.aux), (uint32_t)(n * lay.pub)));
    g16_status st = g16_fc_post_witness_into(w->z, w->n, batched, cfg, refs, n);
    if (st != G16_OK) {
        g16_witness_destroy(w);
        return st;
    }
    *wit = w;
    return G16_OK;
}

g16_status g16_fc_post_witness(g16_witness **wit, const g16_fc_post_config *cfg, const g16_fc_sector_ref *refs,
                               unsigned n)
{
    return g16_fc_post_witness_n(wit, NULL, cfg, refs, n);
}
