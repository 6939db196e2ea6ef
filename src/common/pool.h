/* Thread pool: a fixed set of pthread workers that run parallel loops.
 *
 * A pool of size T has T-1 worker threads; the thread that starts a parallel
 * call is the T-th participant (worker index 0), so a pool of size 1 has no
 * threads at all and runs everything inline.  Idle workers sleep on a condition
 * variable: an idle pool costs no CPU.
 *
 * Worker indices: every callback gets `worker` in [0, size): the caller is 0,
 * pool threads are 1..size-1.  At most one callback runs with a given index at
 * a time, so callers may index per-worker scratch buffers by it.
 *
 * Nesting: a parallel call made from inside a callback of the SAME pool (on a
 * pool thread or on the thread that started the outer call) does not wait for
 * the pool: it runs serially on the calling thread, in chunks, with the
 * caller's own worker index.  It never deadlocks and never fails.  A per-worker
 * scratch buffer is therefore shared by an outer callback and the nested calls
 * it makes.  Calls from different threads that are not inside the pool are
 * serialised (the second waits for the first to finish).  Pools must not be
 * nested in a cycle (A's callback calling B whose callback calls A) from
 * threads outside them: that can deadlock.
 *
 * The process-wide default pool (used when a NULL pool is passed) is created on
 * first use with g16_threads() threads (see include/g16.h for how the count is
 * chosen) and rebuilt after g16_set_threads().  If its threads cannot be
 * created, parallel calls run serially on the caller.
 */
#ifndef G16_COMMON_POOL_H
#define G16_COMMON_POOL_H

#include <stddef.h>

#include "g16.h"

typedef struct g16_pool g16_pool;

/* Most threads a pool may have (g16_set_threads refuses more). */
#define G16_POOL_MAX_THREADS 1024u

/* Body of a parallel loop: handles indices [begin, end) as `worker`. */
typedef void (*g16_range_fn)(void *ctx, size_t begin, size_t end, unsigned worker);

/* Body of one independent task: runs task number `task` as `worker`. */
typedef void (*g16_task_fn)(void *ctx, size_t task, unsigned worker);

/* Creates a pool that runs parallel calls on `threads` threads (the caller included).
 * Out: out: the pool, to be released with g16_pool_destroy.
 * Returns: G16_OK; G16_ERR_ARG when threads is 0 or above G16_POOL_MAX_THREADS;
 * G16_ERR_NOMEM / G16_ERR_INTERNAL when memory or threads cannot be had. */
g16_status g16_pool_create(g16_pool **out, unsigned threads);

/* Stops and joins the pool's threads and frees it.  NULL is ignored.  No parallel
 * call may be running on the pool. */
void g16_pool_destroy(g16_pool *pool);

/* Returns: the number of threads the pool runs a call on (caller included);
 * pool NULL: the default pool's size (g16_threads()). */
unsigned g16_pool_size(const g16_pool *pool);

/* Calls fn(ctx, b, e, worker) on disjoint chunks [b, e) that together cover [0, n)
 * exactly once; chunks hold `grain` indices (the last may hold fewer); grain 0
 * picks about 4 chunks per thread.  Returns when every chunk has returned.
 * pool NULL: the default pool.  Chunks run in no particular order. */
void g16_pool_for(g16_pool *pool, size_t n, size_t grain, g16_range_fn fn, void *ctx);

/* Runs fn(ctx, t, worker) once for every t in [0, count), spread over the pool's
 * threads, and returns when all have returned.  pool NULL: the default pool. */
void g16_pool_tasks(g16_pool *pool, size_t count, g16_task_fn fn, void *ctx);

/* g16_pool_for on the default pool. */
void g16_parallel_for(size_t n, size_t grain, g16_range_fn fn, void *ctx);

/* Per-thread override of the default pool, so that stages running side by side
 * (the engine's synthesis workers and device workers) each keep their kernels on
 * their own threads instead of queueing for the one default pool.  While a thread
 * has a current pool, every call that passes pool NULL (g16_parallel_for, the
 * kernels' NULL-pool calls, g16_pool_size(NULL), g16_pool_in_worker(NULL)) uses it;
 * pool threads running a chunk for that thread inherit the override, so nested
 * NULL-pool calls resolve the same way.  The caller keeps ownership of pool and
 * must unset it (NULL) before destroying it.
 * Returns: the previous current pool of this thread (NULL: none). */
g16_pool *g16_pool_set_current(g16_pool *pool);

/* Returns: the calling thread's current pool, or NULL when it uses the default pool. */
g16_pool *g16_pool_current(void);

/* Returns: 1 when the calling thread is inside a callback of `pool` (NULL: the
 * current pool, else the default pool), i.e. a parallel call on it would run serially. */
int g16_pool_in_worker(const g16_pool *pool);

#endif
