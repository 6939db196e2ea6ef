/* Proving keys in the engine: their charge to the budget, holds (the daemon's key
 * tiers), and the key mover thread that copies keys to the device backends and
 * forgets dropped copies off the workers' paths (docs/engine.md, "Keys").
 *
 * A key is charged while it is held or an admitted partition uses it.  Device
 * copies are made by the mover: for a hold with upload, and for every submitted
 * job, so that the upload runs while the job's first partitions synthesize
 * instead of inside its first device stage.  The mover calls backend operations
 * with mu released (a proof holds the backend's lock and takes mu in its release
 * callback: the order is backend lock, then mu). */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "backend/backend.h"
#include "common/fault.h"
#include "common/error.h"
#include "engine/keys.h"

size_t g16_key_bytes(const g16_key *k)
{
    return (k->n_h + k->n_l + k->n_a + k->n_b_g1 + k->vk.n_ic) * sizeof(g16_g1_affine) +
           k->n_b_g2 * sizeof(g16_g2_affine);
}

static g16_keyent *find(g16_engine *e, const g16_key *key)
{
    for (g16_keyent *k = e->keys; k; k = k->next)
        if (k->key == key) return k;
    return NULL;
}

static void unlink_free(g16_engine *e, g16_keyent *ke)
{
    for (g16_keyent **pp = &e->keys; *pp; pp = &(*pp)->next)
        if (*pp == ke) {
            *pp = ke->next;
            break;
        }
    free(ke);
}

/* Devices that keep copies of keys: those whose backend uploads them, and with the
 * test hook every device; not one taken out after a failure (mu held). */
static int device_copies(const g16_engine *e, unsigned d)
{
    if (e->devs[d].failed) return 0; /* taken out: it proves nothing more */
    return e->devs[d].be->ops->key_upload != NULL || e->hooks.fake_upload_ms;
}

static void push_task(g16_engine *e, int evict, unsigned d, g16_key *key)
{
    g16_keytask *t = g16_calloc(1, sizeof *t);
    if (!t) return; /* a lost preload costs time, not correctness: the device stage uploads */
    t->evict = evict;
    t->device = d;
    t->serial = key->serial;
    if (!evict) {
        t->key = key;
        g16_key_retain(key);
    }
    if (e->ktasks_tail)
        e->ktasks_tail->next = t;
    else
        e->ktasks = t;
    e->ktasks_tail = t;
    pthread_cond_broadcast(&e->cv);
}

void g16_keys_upload(g16_engine *e, g16_key *key)
{
    for (unsigned d = 0; d < e->n_devs; d++)
        if (device_copies(e, d)) push_task(e, 0, d, key);
}

static void evict_now(g16_engine *e, g16_keyent *ke)
{
    ke->evict = 0;
    for (unsigned d = 0; d < e->n_devs; d++)
        if (device_copies(e, d)) push_task(e, 1, d, ke->key);
}

void g16_keyent_unuse(g16_engine *e, g16_keyent *ke)
{
    if (--ke->inflight == 0 && !ke->held) {
        g16_tracker_add(&e->tr, G16_CTR_KEY_BYTES, -(int64_t)ke->bytes);
        g16_budget_charge(e, -(int64_t)ke->bytes);
    }
}

void g16_keyent_job_out(g16_engine *e, g16_keyent *ke)
{
    if (--ke->jobs > 0 || ke->held) return;
    if (ke->evict) evict_now(e, ke);
    unlink_free(e, ke);
}

g16_status g16_engine_key_hold(g16_engine *e, g16_key *key, int upload)
{
    if (!e || !key) return g16_fail(G16_ERR_ARG, "engine key hold: need an engine and a key");
    g16_keyent *fresh = g16_calloc(1, sizeof *fresh);
    if (!fresh) return g16_fail(G16_ERR_NOMEM, "engine key hold: out of memory");
    pthread_mutex_lock(&e->mu);
    g16_status st = G16_OK;
    g16_keyent *ke = find(e, key);
    if (e->stop) {
        st = g16_fail(G16_ERR_ARG, "engine key hold: the engine is stopping");
        goto out;
    }
    if (ke && ke->held) {
        if (upload && !ke->upload) {
            ke->upload = 1;
            g16_keys_upload(e, key);
        }
        goto out;
    }
    size_t bytes = g16_key_bytes(key);
    if (!ke || !g16_keyent_charged(ke)) {
        int64_t used = g16_tracker_get(&e->tr, G16_CTR_RESERVED_BYTES);
        if ((uint64_t)used + bytes > e->budget && e->pool.idle_bytes) {
            /* idle pool buffers are charged but free to go: make room with them first */
            g16_bufpool_evict(e, 0, 0, 0, 0);
            g16_bufpool_wait_freer(e);
            used = g16_tracker_get(&e->tr, G16_CTR_RESERVED_BYTES);
        }
        if ((uint64_t)used + bytes > e->budget) {
            st = g16_fail(G16_ERR_NOMEM, "engine key hold: the key needs %zu bytes, %" PRIu64 " of the "
                          "budget's %" PRIu64 " are free (%" PRId64 " reserved)", bytes,
                          (uint64_t)used < e->budget ? e->budget - (uint64_t)used : 0, e->budget, used);
            goto out;
        }
        g16_budget_charge(e, (int64_t)bytes);
        g16_tracker_add(&e->tr, G16_CTR_KEY_BYTES, (int64_t)bytes);
    }
    if (!ke) {
        ke = fresh;
        fresh = NULL;
        ke->key = key;
        ke->bytes = bytes;
        ke->next = e->keys;
        e->keys = ke;
    }
    ke->held = 1;
    ke->evict = 0;
    ke->upload = upload != 0;
    g16_key_retain(key);
    if (upload) g16_keys_upload(e, key);
out:
    pthread_mutex_unlock(&e->mu);
    free(fresh);
    return st;
}

g16_status g16_engine_key_drop(g16_engine *e, g16_key *key)
{
    if (!e || !key) return g16_fail(G16_ERR_ARG, "engine key drop: need an engine and a key");
    pthread_mutex_lock(&e->mu);
    g16_keyent *ke = find(e, key);
    if (!ke || !ke->held) {
        pthread_mutex_unlock(&e->mu);
        return g16_fail(G16_ERR_ARG, "engine key drop: the key (serial %" PRIu64 ") is not held",
                        key->serial);
    }
    ke->held = 0;
    ke->upload = 0;
    ke->evict = 1;
    if (ke->inflight == 0) {
        g16_tracker_add(&e->tr, G16_CTR_KEY_BYTES, -(int64_t)ke->bytes);
        g16_budget_charge(e, -(int64_t)ke->bytes);
    }
    if (ke->jobs == 0) {
        evict_now(e, ke);
        unlink_free(e, ke);
    }
    pthread_cond_broadcast(&e->cv);
    pthread_mutex_unlock(&e->mu);
    g16_key_release(key); /* the hold's reference; jobs keep their own */
    return G16_OK;
}

int g16_engine_key_tier(g16_engine *e, const g16_key *key)
{
    if (!e || !key) return 0;
    pthread_mutex_lock(&e->mu);
    g16_keyent *ke = find(e, key);
    int tier = 0;
    if (ke && ke->held) {
        tier = 2;
        int copies = 0;
        for (unsigned d = 0; d < e->n_devs; d++) {
            if (!device_copies(e, d)) continue;
            copies = 1;
            const g16_backend_ops *ops = e->devs[d].be->ops;
            int there = ops->key_upload ? ops->key_resident && ops->key_resident(e->devs[d].be, key->serial)
                                        : (int)(ke->fake_resident >> d & 1);
            if (!there) tier = 1;
        }
        if (!copies) tier = 1;
    }
    pthread_mutex_unlock(&e->mu);
    return tier;
}

/* ---------------------------------------------------------------- key mover */

/* uploaded: the copy was made already (g16_backend_key_upload_all); only the
 * bookkeeping is left. */
static void run_task(g16_engine *e, g16_keytask *t, int uploaded)
{
    g16_device *d = &e->devs[t->device];
    const g16_backend_ops *ops = d->be->ops;
    int ok = 1;
    if (uploaded) {
    } else if (t->evict) {
        if (ops->key_evict) ops->key_evict(d->be, t->serial);
        ok = -1;
    } else if (ops->key_upload) {
        if (ops->key_upload(d->be, t->key) != G16_OK) {
            /* not fatal: the first device stage uploads what is missing (and reports it) */
            if (e->cfg.debug)
                fprintf(stderr, "engine: preloading key %" PRIu64 " on device %u: %s\n", t->serial,
                        t->device, g16_last_error());
            g16_clear_error();
            ok = 0;
        }
    } else {
        struct timespec ts = {e->hooks.fake_upload_ms / 1000, (long)(e->hooks.fake_upload_ms % 1000) * 1000000L};
        nanosleep(&ts, NULL);
    }
    pthread_mutex_lock(&e->mu);
    if (!ops->key_upload) /* the test hook's devices: the engine records residency */
        for (g16_keyent *k = e->keys; k; k = k->next)
            if (k->key->serial == t->serial) {
                if (t->evict)
                    k->fake_resident &= ~(1ull << t->device);
                else
                    k->fake_resident |= 1ull << t->device;
            }
    pthread_mutex_unlock(&e->mu);
    if (e->hooks.on_key_move) e->hooks.on_key_move(e->hooks.user, t->device, t->serial, ok);
}

/* Takes the upload tasks of t's key queued right behind t (g16_keys_upload queues one per
 * device together) into batch, t first; mu held.  Only adjacent ones: an eviction of the
 * key queued between must keep its order.  Returns how many. */
static unsigned take_batch(g16_engine *e, g16_keytask *t, g16_keytask **batch)
{
    unsigned n = 0;
    batch[n++] = t;
    while (e->ktasks && !e->ktasks->evict && e->ktasks->serial == t->serial && n < G16_ENGINE_MAX_DEVICES) {
        batch[n++] = e->ktasks;
        e->ktasks = e->ktasks->next;
    }
    if (!e->ktasks) e->ktasks_tail = NULL;
    return n;
}

static void *mover_main(void *arg)
{
    g16_engine *e = arg;
    g16_keytask *batch[G16_ENGINE_MAX_DEVICES];
    g16_backend *bes[G16_ENGINE_MAX_DEVICES];
    pthread_mutex_lock(&e->mu);
    for (;;) {
        while (!e->stop && !e->ktasks) pthread_cond_wait(&e->cv, &e->mu);
        g16_keytask *t = e->ktasks;
        if (!t) break; /* stopping and nothing left */
        e->ktasks = t->next;
        if (!e->ktasks) e->ktasks_tail = NULL;
        unsigned n = t->evict ? 1 : take_batch(e, t, batch);
        if (t->evict) batch[0] = t;
        e->kmoving = 1;
        int skip = e->stop && !t->evict; /* no upload is worth waiting for at shutdown */
        pthread_mutex_unlock(&e->mu);
        /* One key to several GPUs: page-locked once for all of them, not once each. */
        uint64_t done = 0;
        if (!skip && n > 1) {
            for (unsigned i = 0; i < n; i++) bes[i] = e->devs[batch[i]->device].be;
            done = g16_backend_key_upload_all(bes, n, t->key);
        }
        for (unsigned i = 0; i < n; i++) {
            if (!skip) run_task(e, batch[i], (int)(done >> i & 1));
            g16_key_release(batch[i]->key);
            free(batch[i]);
        }
        pthread_mutex_lock(&e->mu);
        e->kmoving = 0;
        pthread_cond_broadcast(&e->cv);
    }
    pthread_mutex_unlock(&e->mu);
    return NULL;
}

g16_status g16_keys_start(g16_engine *e)
{
    if (g16_thread_create(&e->kmover, mover_main, e) != 0)
        return g16_fail(G16_ERR_INTERNAL, "engine: cannot start the key mover thread");
    e->kmover_started = 1;
    return G16_OK;
}

void g16_keys_stop(g16_engine *e)
{
    if (e->kmover_started) pthread_join(e->kmover, NULL);
    e->kmover_started = 0;
    while (e->ktasks) { /* never started: nothing ran them */
        g16_keytask *t = e->ktasks;
        e->ktasks = t->next;
        g16_key_release(t->key);
        free(t);
    }
    e->ktasks_tail = NULL;
}

void g16_keys_free(g16_engine *e)
{
    while (e->keys) {
        g16_keyent *k = e->keys;
        e->keys = k->next;
        if (k->held) g16_key_release(k->key);
        free(k);
    }
}
