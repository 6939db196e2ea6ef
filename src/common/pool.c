#include "common/pool.h"
#include "common/fault.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/error.h"

struct g16_pool {
    unsigned size;      /* participants, caller included */
    pthread_t *threads; /* size - 1 of them */
    pthread_mutex_t submit; /* one parallel call at a time from outside */
    pthread_mutex_t mu;
    pthread_cond_t wake, done;
    unsigned long gen;  /* bumped per job; workers run a job when it moves */
    unsigned pending;   /* workers that have not finished the current job */
    int stop;
    /* the current job, written under mu before gen moves */
    g16_range_fn fn;
    void *ctx;
    size_t n, grain, chunks;
    atomic_size_t next_chunk;
    g16_pool *job_current; /* the poster's current-pool override, inherited by the workers */
    uint64_t job_tag;      /* the poster's fault-injection tag (common/fault.h), inherited likewise */
};

/* Which pool the calling thread is running a callback of, and as which worker:
 * this is how a nested call is recognised. */
static _Thread_local const g16_pool *tl_pool;
static _Thread_local unsigned tl_worker;

/* The calling thread's override of the default pool (g16_pool_set_current). */
static _Thread_local g16_pool *tl_current;

typedef struct worker_arg {
    g16_pool *pool;
    unsigned index;
} worker_arg;

static void run_chunks(g16_pool *p, g16_range_fn fn, void *ctx, size_t n, size_t grain,
                       size_t chunks, unsigned worker)
{
    for (;;) {
        size_t c = atomic_fetch_add_explicit(&p->next_chunk, 1, memory_order_relaxed);
        if (c >= chunks) break;
        size_t b = c * grain;
        size_t e = n - b < grain ? n : b + grain;
        fn(ctx, b, e, worker);
    }
}

static void *worker_main(void *arg)
{
    worker_arg wa = *(worker_arg *)arg;
    free(arg);
    g16_pool *p = wa.pool;
    tl_pool = p;
    tl_worker = wa.index;
    pthread_mutex_lock(&p->mu);
    unsigned long seen = 0; /* gen was 0 at creation: a job posted before this thread ran is not missed */
    for (;;) {
        while (!p->stop && p->gen == seen) pthread_cond_wait(&p->wake, &p->mu);
        if (p->stop) break;
        seen = p->gen;
        g16_range_fn fn = p->fn;
        void *ctx = p->ctx;
        size_t n = p->n, grain = p->grain, chunks = p->chunks;
        tl_current = p->job_current; /* a NULL-pool call nested in fn resolves as the poster's would */
        g16_fault_scope(p->job_tag);
        pthread_mutex_unlock(&p->mu);
        run_chunks(p, fn, ctx, n, grain, chunks, wa.index);
        pthread_mutex_lock(&p->mu);
        if (--p->pending == 0) pthread_cond_signal(&p->done);
    }
    pthread_mutex_unlock(&p->mu);
    return NULL;
}

static void free_pool(g16_pool *p)
{
    pthread_cond_destroy(&p->done);
    pthread_cond_destroy(&p->wake);
    pthread_mutex_destroy(&p->mu);
    pthread_mutex_destroy(&p->submit);
    free(p->threads);
    free(p);
}

static void stop_threads(g16_pool *p, unsigned started)
{
    pthread_mutex_lock(&p->mu);
    p->stop = 1;
    pthread_cond_broadcast(&p->wake);
    pthread_mutex_unlock(&p->mu);
    for (unsigned i = 0; i < started; i++) pthread_join(p->threads[i], NULL);
}

g16_status g16_pool_create(g16_pool **out, unsigned threads)
{
    *out = NULL;
    if (threads == 0 || threads > G16_POOL_MAX_THREADS)
        return g16_fail(G16_ERR_ARG, "thread pool size %u is not in 1..%u", threads,
                        G16_POOL_MAX_THREADS);
    g16_pool *p = g16_calloc(1, sizeof *p);
    if (!p) return g16_fail(G16_ERR_NOMEM, "thread pool: out of memory");
    p->size = threads;
    p->threads = g16_calloc(threads, sizeof *p->threads);
    if (!p->threads) {
        free(p);
        return g16_fail(G16_ERR_NOMEM, "thread pool: out of memory");
    }
    pthread_mutex_init(&p->submit, NULL);
    pthread_mutex_init(&p->mu, NULL);
    pthread_cond_init(&p->wake, NULL);
    pthread_cond_init(&p->done, NULL);
    atomic_init(&p->next_chunk, 0);
    for (unsigned i = 0; i + 1 < threads; i++) {
        worker_arg *wa = g16_malloc(sizeof *wa);
        int rc = ENOMEM;
        if (wa) {
            wa->pool = p;
            wa->index = i + 1;
            rc = g16_thread_create(&p->threads[i], worker_main, wa);
        }
        if (rc != 0) {
            free(wa);
            stop_threads(p, i);
            free_pool(p);
            return g16_fail(G16_ERR_INTERNAL, "thread pool: cannot start thread %u of %u: %s",
                            i + 1, threads - 1, strerror(rc));
        }
    }
    *out = p;
    return G16_OK;
}

void g16_pool_destroy(g16_pool *pool)
{
    if (!pool) return;
    stop_threads(pool, pool->size - 1);
    free_pool(pool);
}

unsigned g16_pool_size(const g16_pool *pool)
{
    if (!pool) pool = tl_current;
    return pool ? pool->size : g16_threads();
}

g16_pool *g16_pool_set_current(g16_pool *pool)
{
    g16_pool *old = tl_current;
    tl_current = pool;
    return old;
}

g16_pool *g16_pool_current(void)
{
    return tl_current;
}

/* ---------------------------------------------------------------------------
 * The default pool. */

static pthread_mutex_t default_mu = PTHREAD_MUTEX_INITIALIZER;
static g16_pool *default_pool;      /* guarded by default_mu */
static int default_failed;          /* creation failed at this size: run serially */
static unsigned set_threads_n;      /* last g16_set_threads(n > 0), else 0 */

static unsigned online_cpus(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    if (n < 1) return 1;
    if (n > (long)G16_POOL_MAX_THREADS) return G16_POOL_MAX_THREADS;
    return (unsigned)n;
}

/* G16_THREADS when it is a whole number in 1..G16_POOL_MAX_THREADS, else 0. */
static unsigned env_threads(void)
{
    const char *s = getenv("G16_THREADS");
    if (!s || !*s) return 0;
    char *end;
    errno = 0;
    unsigned long v = strtoul(s, &end, 10);
    if (errno || *end || v == 0 || v > G16_POOL_MAX_THREADS || s[0] == '-') return 0;
    return (unsigned)v;
}

static unsigned wanted_threads_locked(void)
{
    if (set_threads_n) return set_threads_n;
    unsigned e = env_threads();
    return e ? e : online_cpus();
}

g16_status g16_set_threads(unsigned n)
{
    if (n > G16_POOL_MAX_THREADS)
        return g16_fail(G16_ERR_ARG, "thread count %u exceeds the limit %u", n, G16_POOL_MAX_THREADS);
    pthread_mutex_lock(&default_mu);
    set_threads_n = n;
    g16_pool *old = default_pool;
    default_pool = NULL;
    default_failed = 0;
    pthread_mutex_unlock(&default_mu);
    g16_pool_destroy(old);
    return G16_OK;
}

unsigned g16_threads(void)
{
    pthread_mutex_lock(&default_mu);
    unsigned n = default_pool ? default_pool->size : wanted_threads_locked();
    pthread_mutex_unlock(&default_mu);
    return n;
}

/* Returns the default pool, creating it on first use; NULL means run serially. */
static g16_pool *get_default(void)
{
    pthread_mutex_lock(&default_mu);
    if (!default_pool && !default_failed) {
        if (g16_pool_create(&default_pool, wanted_threads_locked()) != G16_OK) {
            default_pool = NULL;
            default_failed = 1;
        }
    }
    g16_pool *p = default_pool;
    pthread_mutex_unlock(&default_mu);
    return p;
}

/* ---------------------------------------------------------------------------
 * Parallel calls. */

static void run_serial(size_t n, size_t grain, g16_range_fn fn, void *ctx, unsigned worker)
{
    for (size_t b = 0; b < n; b += grain) fn(ctx, b, n - b < grain ? n : b + grain, worker);
}

void g16_pool_for(g16_pool *pool, size_t n, size_t grain, g16_range_fn fn, void *ctx)
{
    if (n == 0) return;
    if (!pool) pool = tl_current ? tl_current : get_default();
    unsigned size = pool ? pool->size : 1;
    if (grain == 0) {
        grain = n / (4 * (size_t)size);
        if (grain == 0) grain = 1;
    }
    if (pool && tl_pool == pool) {
        run_serial(n, grain, fn, ctx, tl_worker);
        return;
    }
    if (!pool || size == 1 || n <= grain) {
        /* nothing to share: run here, but as a member of the pool so that a
         * nested call sees it */
        const g16_pool *saved = tl_pool;
        unsigned saved_w = tl_worker;
        tl_pool = pool;
        tl_worker = 0;
        run_serial(n, grain, fn, ctx, 0);
        tl_pool = saved;
        tl_worker = saved_w;
        return;
    }
    pthread_mutex_lock(&pool->submit);
    pthread_mutex_lock(&pool->mu);
    pool->fn = fn;
    pool->ctx = ctx;
    pool->n = n;
    pool->grain = grain;
    pool->chunks = n / grain + (n % grain != 0);
    pool->job_current = tl_current;
    pool->job_tag = g16_fault_tag();
    atomic_store_explicit(&pool->next_chunk, 0, memory_order_relaxed);
    pool->pending = size - 1;
    pool->gen++;
    pthread_cond_broadcast(&pool->wake);
    pthread_mutex_unlock(&pool->mu);

    const g16_pool *saved = tl_pool;
    unsigned saved_w = tl_worker;
    tl_pool = pool;
    tl_worker = 0;
    run_chunks(pool, fn, ctx, n, grain, pool->chunks, 0);
    tl_pool = saved;
    tl_worker = saved_w;

    pthread_mutex_lock(&pool->mu);
    while (pool->pending) pthread_cond_wait(&pool->done, &pool->mu);
    pthread_mutex_unlock(&pool->mu);
    pthread_mutex_unlock(&pool->submit);
}

typedef struct task_ctx {
    g16_task_fn fn;
    void *ctx;
} task_ctx;

static void task_range(void *ctx, size_t b, size_t e, unsigned worker)
{
    task_ctx *t = ctx;
    for (size_t i = b; i < e; i++) t->fn(t->ctx, i, worker);
}

void g16_pool_tasks(g16_pool *pool, size_t count, g16_task_fn fn, void *ctx)
{
    task_ctx t = {fn, ctx};
    g16_pool_for(pool, count, 1, task_range, &t);
}

void g16_parallel_for(size_t n, size_t grain, g16_range_fn fn, void *ctx)
{
    g16_pool_for(NULL, n, grain, fn, ctx);
}

int g16_pool_in_worker(const g16_pool *pool)
{
    if (!tl_pool) return 0;
    if (!pool) pool = tl_current;
    if (pool) return tl_pool == pool;
    pthread_mutex_lock(&default_mu);
    int r = tl_pool == default_pool;
    pthread_mutex_unlock(&default_mu);
    return r;
}
