/* The byte budget: what each partition reserves, the charges of objects shared by
 * partitions (keys are in keys.c; compiled circuits and witnesses here, each charged
 * once while an admitted partition uses it), and admission (docs/engine.md,
 * "Memory accounting"). */
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "backend/backend.h"
#include "common/fault.h"
#include "common/error.h"
#include "engine/budget.h"

/* ---------------------------------------------------------------- partition sizes */

void g16_part_attempt_sizes(g16_part *p)
{
    p->aux_bytes = p->attempt ? p->aux_cpu : p->aux_dev;
    p->scratch_bytes = p->attempt ? p->scratch_cpu : p->scratch_dev;
}

void g16_part_size(g16_part *p, const g16_engine *e)
{
    g16_backend *dev = e->devs[0].be;
    const g16_circuit *c = p->circ;
    p->rows = g16_circuit_rows(c);
    p->N = 1ull << g16_domain_log(p->rows);
    p->n_vars = g16_circuit_vars(c);
    p->abc_each = g16_buf_round(p->rows * sizeof(g16_fr));
    p->z_bytes = g16_buf_round(p->n_vars * sizeof(g16_fr));
    size_t merged = 2 * (p->n_vars / 64 + 1) * 8; /* prove_start's merged density */
    size_t scratch, pending;
    g16_backend *cpu = g16_cpu_backend();
    cpu->ops->host_need(cpu, p->N, p->n_vars, &scratch, &pending);
    p->aux_cpu = merged + pending;
    p->scratch_cpu = scratch;
    dev->ops->host_need(dev, p->N, p->n_vars, &scratch, &pending);
    if (e->hooks.dev_host_scratch) scratch = e->hooks.dev_host_scratch, pending = 0;
    p->aux_dev = merged + pending;
    p->scratch_dev = scratch;
    g16_part_attempt_sizes(p);
}

size_t g16_part_total(const g16_part *p)
{
    return 3 * p->abc_each + p->z_bytes + p->aux_bytes + p->scratch_bytes;
}

size_t g16_witness_bytes_(const g16_circuit *c)
{
    return g16_buf_round(g16_circuit_vars(c) * sizeof(g16_fr));
}

size_t g16_circuit_charge_(const g16_circuit *c)
{
    size_t bitmaps = (2 * ((size_t)c->n_aux / 64 + 1) + (c->n_pub + 1) / 64 + 1) * 8;
    return g16_circuit_bytes(c) + bitmaps;
}

void g16_engine_part_need(const g16_engine *e, const g16_circuit *c, const g16_key *k,
                          size_t *dev, size_t *cpu)
{
    g16_part p;
    memset(&p, 0, sizeof p);
    p.circ = c;
    g16_part_size(&p, e);
    size_t common = 3 * p.abc_each + p.z_bytes + g16_key_bytes(k) + g16_circuit_charge_(c) +
                    g16_witness_bytes_(c);
    *dev = common + p.aux_dev + p.scratch_dev;
    *cpu = common + p.aux_cpu + p.scratch_cpu;
}

/* ---------------------------------------------------------------- shared objects */

static g16_objent *obj_find(g16_engine *e, const void *obj, int kind)
{
    for (g16_objent *o = e->objs; o; o = o->next)
        if (o->obj == obj && o->kind == kind) return o;
    return NULL;
}

static g16_objent *obj_ref(g16_engine *e, const void *obj, int kind, size_t bytes)
{
    g16_objent *o = obj_find(e, obj, kind);
    if (!o) {
        if (!(o = g16_calloc(1, sizeof *o))) return NULL;
        o->obj = obj;
        o->kind = kind;
        o->bytes = bytes;
        o->next = e->objs;
        e->objs = o;
    }
    o->parts++;
    return o;
}

static void obj_unref(g16_engine *e, g16_objent *o)
{
    if (!o || --o->parts) return;
    g16_density_free(&o->dens); /* normally freed with the last use already */
    for (g16_objent **pp = &e->objs; *pp; pp = &(*pp)->next)
        if (*pp == o) {
            *pp = o->next;
            break;
        }
    free(o);
}

g16_status g16_objs_ref(g16_engine *e, g16_part *p)
{
    p->cent = obj_ref(e, p->circ, 0, g16_circuit_charge_(p->circ));
    /* a witness read from a file is the partition's own: charged under the partition's name;
     * one a producer writes into the partition's z buffer holds nothing more */
    p->went = p->cent ? obj_ref(e, p->wit ? (const void *)p->wit : (const void *)p, 1,
                                p->fill ? 0 : g16_witness_bytes_(p->circ)) : NULL;
    if (p->went) return G16_OK;
    obj_unref(e, p->cent);
    p->cent = NULL;
    return g16_fail(G16_ERR_NOMEM, "engine submit: out of memory");
}

void g16_objs_unref(g16_engine *e, g16_part *p)
{
    obj_unref(e, p->cent);
    obj_unref(e, p->went);
    p->cent = p->went = NULL;
}

static const g16_counter obj_ctr[2] = {G16_CTR_CIRCUIT_BYTES, G16_CTR_WITNESS_BYTES};

static size_t obj_need(const g16_objent *o)
{
    return o->inflight ? 0 : o->bytes;
}

static void obj_use(g16_engine *e, g16_objent *o)
{
    if (o->inflight++ == 0) g16_tracker_add(&e->tr, obj_ctr[o->kind], (int64_t)o->bytes);
}

static void obj_unuse(g16_engine *e, g16_objent *o)
{
    if (--o->inflight == 0) {
        if (o->dens_state == 2) g16_density_free(&o->dens), o->dens_state = 0;
        g16_tracker_add(&e->tr, obj_ctr[o->kind], -(int64_t)o->bytes);
        g16_budget_charge(e, -(int64_t)o->bytes);
    }
}

void g16_part_unuse_shared(g16_engine *e, g16_part *p)
{
    if (!p->shared_charged) return;
    g16_keyent_unuse(e, p->job->kent);
    obj_unuse(e, p->cent);
    obj_unuse(e, p->went);
    p->shared_charged = 0;
}

g16_status g16_part_density(g16_engine *e, g16_part *p, const g16_density **out)
{
    g16_objent *o = p->cent;
    pthread_mutex_lock(&e->mu);
    while (o->dens_state == 1) pthread_cond_wait(&e->cv, &e->mu);
    if (o->dens_state == 2) {
        pthread_mutex_unlock(&e->mu);
        *out = &o->dens;
        return G16_OK;
    }
    o->dens_state = 1;
    pthread_mutex_unlock(&e->mu);
    /* Once per circuit, not per partition: at 2^20 porep the scan took a fifth of
     * a synthesis (16.5 of 67 ms on one thread, dev machine). */
    g16_density d;
    g16_status st = g16_circuit_density(&d, p->circ);
    pthread_mutex_lock(&e->mu);
    if (st == G16_OK) o->dens = d;
    o->dens_state = st == G16_OK ? 2 : 0;
    pthread_cond_broadcast(&e->cv);
    pthread_mutex_unlock(&e->mu);
    *out = &o->dens;
    return st;
}

/* ---------------------------------------------------------------- admission */

int g16_admit(g16_engine *e, g16_part *p)
{
    g16_keyent *ke = p->job->kent;
    size_t shared = (g16_keyent_charged(ke) ? 0 : ke->bytes) + obj_need(p->cent) + obj_need(p->went);
    size_t abc_idle = g16_bufpool_count_idle(e, p->abc_each);
    size_t n_abc = abc_idle < 3 ? abc_idle : 3, n_z;
    if (p->z_bytes == p->abc_each)
        n_z = abc_idle > 3 ? 1 : 0;
    else
        n_z = g16_bufpool_count_idle(e, p->z_bytes) ? 1 : 0;
    size_t reuse = n_abc * p->abc_each + n_z * p->z_bytes;
    size_t need = 3 * p->abc_each + p->z_bytes + p->aux_bytes + p->scratch_bytes + shared - reuse;
    int64_t used = g16_tracker_get(&e->tr, G16_CTR_RESERVED_BYTES);
    if ((uint64_t)used + need > e->budget) {
        /* Idle buffers this partition will not reuse are the first room to be had. */
        if (e->pool.idle_bytes > reuse)
            g16_bufpool_evict(e, p->abc_each, n_abc + (p->z_bytes == p->abc_each ? n_z : 0), p->z_bytes,
                              p->z_bytes == p->abc_each ? 0 : n_z);
        return 0;
    }
    g16_budget_charge(e, (int64_t)need);
    g16_buf *abc[3] = {&p->a, &p->b, &p->c};
    for (int i = 0; i < 3; i++) {
        abc[i]->bytes = p->abc_each;
        if ((size_t)i < n_abc && g16_bufpool_take_idle(e, abc[i], p->abc_each))
            g16_tracker_add(&e->tr, G16_CTR_ABC_BYTES, (int64_t)p->abc_each);
    }
    p->z.bytes = p->z_bytes;
    if (n_z && g16_bufpool_take_idle(e, &p->z, p->z_bytes))
        g16_tracker_add(&e->tr, G16_CTR_ASSIGN_BYTES, (int64_t)p->z_bytes);
    p->held_aux = p->aux_bytes;
    g16_tracker_add(&e->tr, G16_CTR_AUX_BYTES, (int64_t)p->aux_bytes);
    p->held_scratch = p->scratch_bytes;
    if (!g16_keyent_charged(ke)) g16_tracker_add(&e->tr, G16_CTR_KEY_BYTES, (int64_t)ke->bytes);
    ke->inflight++;
    obj_use(e, p->cent);
    obj_use(e, p->went);
    p->shared_charged = 1;
    return 1;
}

/* ---------------------------------------------------------------- the user's own bytes */

static void deadline_in(struct timespec *dl, double s)
{
    clock_gettime(CLOCK_REALTIME, dl);
    double t = (double)dl->tv_sec + dl->tv_nsec * 1e-9 + s;
    dl->tv_sec = (time_t)t;
    dl->tv_nsec = (long)((t - (double)dl->tv_sec) * 1e9);
    if (dl->tv_nsec >= 1000000000L) dl->tv_sec++, dl->tv_nsec -= 1000000000L;
}

g16_status g16_engine_reserve(g16_engine *e, uint64_t bytes, double timeout_s)
{
    if (!e) return g16_fail(G16_ERR_ARG, "engine reserve: no engine");
    struct timespec dl;
    deadline_in(&dl, timeout_s > 0 ? timeout_s : 0);
    pthread_mutex_lock(&e->mu);
    g16_status st = G16_OK;
    for (;;) {
        int64_t used = g16_tracker_get(&e->tr, G16_CTR_RESERVED_BYTES);
        if (e->stop) {
            st = g16_fail(G16_ERR_ARG, "engine reserve: the engine is stopping");
            break;
        }
        if (bytes > e->budget) {
            st = g16_fail(G16_ERR_NOMEM, "engine reserve: %" PRIu64 " bytes needed, more than the whole "
                          "budget of %" PRIu64, bytes, e->budget);
            break;
        }
        if ((uint64_t)used + bytes <= e->budget) {
            g16_budget_charge(e, (int64_t)bytes);
            g16_tracker_add(&e->tr, G16_CTR_EXTERNAL_BYTES, (int64_t)bytes);
            break;
        }
        if (e->pool.idle_bytes) {
            /* idle pool buffers are charged but free to go */
            g16_bufpool_evict(e, 0, 0, 0, 0);
            g16_bufpool_wait_freer(e);
            if (g16_tracker_get(&e->tr, G16_CTR_RESERVED_BYTES) < used) continue;
        }
        int rc = timeout_s < 0 ? pthread_cond_wait(&e->cv, &e->mu)
                               : timeout_s > 0 ? pthread_cond_timedwait(&e->cv, &e->mu, &dl) : ETIMEDOUT;
        if (rc == ETIMEDOUT) {
            used = g16_tracker_get(&e->tr, G16_CTR_RESERVED_BYTES);
            if ((uint64_t)used + bytes <= e->budget) continue;
            st = g16_fail(G16_ERR_NOMEM, "engine reserve: %" PRIu64 " bytes needed, %" PRIu64 " of the "
                          "budget's %" PRIu64 " are free (%" PRId64 " reserved)", bytes,
                          (uint64_t)used < e->budget ? e->budget - (uint64_t)used : 0, e->budget, used);
            break;
        }
    }
    pthread_mutex_unlock(&e->mu);
    return st;
}

void g16_engine_unreserve(g16_engine *e, uint64_t bytes)
{
    if (!e || !bytes) return;
    pthread_mutex_lock(&e->mu);
    g16_budget_charge(e, -(int64_t)bytes);
    g16_tracker_add(&e->tr, G16_CTR_EXTERNAL_BYTES, -(int64_t)bytes);
    pthread_cond_broadcast(&e->cv); /* room for waiting partitions and reservers */
    pthread_mutex_unlock(&e->mu);
}
