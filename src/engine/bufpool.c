/* The engine's host buffer pool and its freer thread.
 *
 * Buffers are whole-page anonymous mappings: unmapping gives the memory straight
 * back to the OS (a large malloc'd block may instead stay in the allocator's
 * arena), and a CUDA backend can page-lock them in place.  Reuse is by exact
 * rounded size, because the partitions of a job share one shape. */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "common/error.h"
#include "common/fault.h"
#include "backend/backend.h"
#include "engine/bufpool.h"

size_t g16_buf_round(size_t bytes)
{
    size_t pg = 4096;
    if (bytes == 0) bytes = 1;
    return (bytes + pg - 1) / pg * pg;
}

static int push(g16_buf **arr, size_t *n, size_t *cap, g16_buf b)
{
    if (*n == *cap) {
        size_t nc = *cap ? 2 * *cap : 16;
        g16_buf *na = g16_realloc(*arr, nc * sizeof *na);
        if (!na) return 0;
        *arr = na;
        *cap = nc;
    }
    (*arr)[(*n)++] = b;
    return 1;
}

static void unmap(g16_engine *e, g16_buf *b)
{
    if (b->p) {
        if (e->pin_be) g16_backend_unpin(e->pin_be, b->p);
        munmap(b->p, b->bytes);
    }
    b->p = NULL;
}

/* One buffer at a time: a GiB-sized munmap can take tens of milliseconds, and
 * doing them back to back on many threads would stall the workers that allocate. */
static void *freer_main(void *arg)
{
    g16_engine *e = arg;
    g16_bufpool *bp = &e->pool;
    pthread_mutex_lock(&e->mu);
    for (;;) {
        while (!e->stop && bp->head_freeq == bp->n_freeq) pthread_cond_wait(&e->cv, &e->mu);
        if (bp->head_freeq == bp->n_freeq) break; /* stopping and nothing left */
        g16_buf b = bp->freeq[bp->head_freeq++];
        if (bp->head_freeq == bp->n_freeq) bp->head_freeq = bp->n_freeq = 0;
        bp->freeing = 1;
        pthread_mutex_unlock(&e->mu);
        unmap(e, &b);
        pthread_mutex_lock(&e->mu);
        bp->freeing = 0;
        bp->freeq_bytes -= b.bytes;
        g16_tracker_add(&e->tr, G16_CTR_PINNED_BYTES, -(int64_t)b.bytes);
        g16_budget_charge(e, -(int64_t)b.bytes);
        pthread_cond_broadcast(&e->cv);
    }
    pthread_mutex_unlock(&e->mu);
    return NULL;
}

g16_status g16_bufpool_start(g16_engine *e)
{
    if (g16_thread_create(&e->pool.freer, freer_main, e) != 0)
        return g16_fail(G16_ERR_INTERNAL, "engine: cannot start the freer thread");
    e->pool.freer_started = 1;
    return G16_OK;
}

void g16_bufpool_stop(g16_engine *e)
{
    g16_bufpool *bp = &e->pool;
    pthread_mutex_lock(&e->mu);
    g16_bufpool_evict(e, 0, 0, 0, 0);
    pthread_mutex_unlock(&e->mu);
    /* e->stop is set by the caller; the freer drains its queue before leaving. */
    if (bp->freer_started) pthread_join(bp->freer, NULL);
    bp->freer_started = 0;
    /* Without a freer (it could not be started) the queue is unmapped here. */
    for (size_t i = bp->head_freeq; i < bp->n_freeq; i++) {
        g16_tracker_add(&e->tr, G16_CTR_PINNED_BYTES, -(int64_t)bp->freeq[i].bytes);
        g16_budget_charge(e, -(int64_t)bp->freeq[i].bytes);
        unmap(e, &bp->freeq[i]);
    }
    free(bp->freeq);
    free(bp->idle);
    memset(bp, 0, sizeof *bp);
}

size_t g16_bufpool_count_idle(const g16_engine *e, size_t bytes)
{
    bytes = g16_buf_round(bytes);
    size_t k = 0;
    for (size_t i = 0; i < e->pool.n_idle; i++) k += e->pool.idle[i].bytes == bytes;
    return k;
}

int g16_bufpool_take_idle(g16_engine *e, g16_buf *b, size_t bytes)
{
    g16_bufpool *bp = &e->pool;
    bytes = g16_buf_round(bytes);
    for (size_t i = 0; i < bp->n_idle; i++) {
        if (bp->idle[i].bytes != bytes) continue;
        *b = bp->idle[i];
        bp->idle[i] = bp->idle[--bp->n_idle];
        bp->idle_bytes -= bytes;
        return 1;
    }
    return 0;
}

/* Writes one byte per page, so every page is faulted in (and zeroed by the
 * kernel) by the calling worker's threads rather than one page at a time inside
 * the page-locking call. */
static void touch_pages(void *ctx, size_t begin, size_t end, unsigned worker)
{
    (void)worker;
    volatile char *p = ctx;
    for (size_t i = begin; i < end; i++) p[i * 4096] = 0;
}

/* G16_POOL_PREFAULT=0 page-locks untouched buffers (the A/B of docs/BENCHMARKS.md). */
static int prefault_on(void)
{
    const char *v = getenv("G16_POOL_PREFAULT");
    return !(v && !strcmp(v, "0"));
}

/* Transparent huge pages on new buffers (madvise; where THP is "madvise" or
 * "always"): faulted in 2 MiB at a time instead of 4 KiB.  On by default for
 * buffers that stay pageable (a CPU engine: a WinningPoSt proof's a, b, c took
 * 11,000 faults fewer); for buffers page-locked for a GPU only with
 * G16_POOL_HUGE=1, since at 2^27 it sped the first synthesis and slowed the second
 * (docs/BENCHMARKS.md, issue 22).  G16_POOL_HUGE=0 turns it off.  Read at each new
 * buffer. */
static int huge_on(int pinned)
{
    const char *v = getenv("G16_POOL_HUGE");
    if (v && (!strcmp(v, "0") || !strcmp(v, "1"))) return v[0] == '1';
    return !pinned;
}

g16_status g16_bufpool_alloc(g16_engine *e, g16_buf *b, size_t bytes)
{
    bytes = g16_buf_round(bytes);
    void *p = g16_fault_hit(G16_FAULT_ALLOC)
                  ? MAP_FAILED
                  : mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) {
        b->p = NULL;
        b->bytes = 0;
        return g16_fail(G16_ERR_NOMEM, "engine: cannot map a %zu-byte buffer", bytes);
    }
#ifdef MADV_HUGEPAGE
    if (huge_on(e->pin_be != NULL)) (void)madvise(p, bytes, MADV_HUGEPAGE); /* advice only: 4 KiB pages serve too */
#endif
    /* Page-locked once, when the buffer is made: it is reused by exact size,
     * so the lock costs nothing per proof and every copy to the GPU is direct. */
    if (e->pin_be) {
        if (prefault_on()) g16_parallel_for(bytes / 4096, 512, touch_pages, p);
        g16_backend_pin(e->pin_be, p, bytes);
    }
    b->p = p;
    b->bytes = bytes;
    g16_tracker_add(&e->tr, G16_CTR_PINNED_BYTES, (int64_t)bytes);
    return G16_OK;
}

/* Without room in the idle list the buffer goes to the freer instead; if even
 * that list cannot grow it is unmapped here (rare: a few bytes of realloc failed). */
void g16_bufpool_put(g16_engine *e, g16_buf *b)
{
    g16_bufpool *bp = &e->pool;
    if (!b->p) return;
    if (push(&bp->idle, &bp->n_idle, &bp->cap_idle, *b)) {
        bp->idle_bytes += b->bytes;
    } else if (push(&bp->freeq, &bp->n_freeq, &bp->cap_freeq, *b)) {
        bp->freeq_bytes += b->bytes;
    } else {
        g16_tracker_add(&e->tr, G16_CTR_PINNED_BYTES, -(int64_t)b->bytes);
        g16_budget_charge(e, -(int64_t)b->bytes);
        unmap(e, b);
    }
    b->p = NULL;
    b->bytes = 0;
    pthread_cond_broadcast(&e->cv);
}

void g16_bufpool_evict(g16_engine *e, size_t keep_a, size_t n_a, size_t keep_b, size_t n_b)
{
    g16_bufpool *bp = &e->pool;
    keep_a = keep_a ? g16_buf_round(keep_a) : 0;
    keep_b = keep_b ? g16_buf_round(keep_b) : 0;
    size_t w = 0;
    for (size_t i = 0; i < bp->n_idle; i++) {
        g16_buf b = bp->idle[i];
        if (n_a && b.bytes == keep_a) {
            n_a--;
            bp->idle[w++] = b;
            continue;
        }
        if (n_b && b.bytes == keep_b) {
            n_b--;
            bp->idle[w++] = b;
            continue;
        }
        bp->idle_bytes -= b.bytes;
        if (push(&bp->freeq, &bp->n_freeq, &bp->cap_freeq, b)) {
            bp->freeq_bytes += b.bytes;
        } else {
            g16_tracker_add(&e->tr, G16_CTR_PINNED_BYTES, -(int64_t)b.bytes);
            g16_budget_charge(e, -(int64_t)b.bytes);
            unmap(e, &b);
        }
    }
    bp->n_idle = w;
    pthread_cond_broadcast(&e->cv);
}

void g16_bufpool_wait_freer(g16_engine *e)
{
    while (e->pool.freer_started && (e->pool.head_freeq != e->pool.n_freeq || e->pool.freeing))
        pthread_cond_wait(&e->cv, &e->mu);
}
