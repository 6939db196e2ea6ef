/* The per-thread current-pool override (g16_pool_set_current) that gives each
 * engine stage its own threads: NULL-pool calls use it, nested calls on its
 * threads inherit it, other threads keep the default pool, unsetting restores. */
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>

#include "check.h"
#include "common/pool.h"

typedef struct seen {
    atomic_uint max_worker;
    atomic_int in_mine, nested_in_mine, calls;
    g16_pool *mine;
} seen;

static void nested_range(void *ctx, size_t b, size_t e, unsigned worker)
{
    seen *s = ctx;
    if (g16_pool_in_worker(s->mine)) atomic_fetch_add(&s->nested_in_mine, 1);
}

static void range(void *ctx, size_t b, size_t e, unsigned worker)
{
    seen *s = ctx;
    unsigned m = atomic_load(&s->max_worker);
    while (worker > m && !atomic_compare_exchange_weak(&s->max_worker, &m, worker)) {
    }
    if (g16_pool_in_worker(NULL) && g16_pool_in_worker(s->mine)) atomic_fetch_add(&s->in_mine, 1);
    atomic_fetch_add(&s->calls, 1);
    /* a kernel's own NULL-pool call from inside the loop body, on any thread */
    g16_parallel_for(4, 1, nested_range, s);
}

static void *other_thread(void *arg)
{
    /* no override here: the default pool, whatever another thread has set */
    *(int *)arg = (int)(g16_pool_current() == NULL) * 1000 + (int)g16_pool_size(NULL);
    return NULL;
}

int main(void)
{
    CHECK(g16_set_threads(2) == G16_OK, "default pool of 2");
    g16_pool *mine;
    CHECK(g16_pool_create(&mine, 3) == G16_OK, "pool of 3");
    CHECK(g16_pool_current() == NULL, "no override at start");
    CHECK(g16_pool_set_current(mine) == NULL, "previous override is NULL");
    CHECK(g16_pool_current() == mine && g16_pool_size(NULL) == 3, "size(NULL) follows the override");

    seen s;
    memset(&s, 0, sizeof s);
    s.mine = mine;
    g16_parallel_for(3000, 10, range, &s);
    CHECK(atomic_load(&s.calls) == 300, "300 chunks ran (%d)", atomic_load(&s.calls));
    CHECK(atomic_load(&s.in_mine) == 300, "every chunk ran inside the override pool (%d)",
          atomic_load(&s.in_mine));
    CHECK(atomic_load(&s.max_worker) <= 2, "worker indices stay below 3 (max %u)", atomic_load(&s.max_worker));
    CHECK(atomic_load(&s.nested_in_mine) == 300 * 4, "nested NULL-pool calls ran in the override pool (%d)",
          atomic_load(&s.nested_in_mine));

    int other = 0;
    pthread_t t;
    CHECK(pthread_create(&t, NULL, other_thread, &other) == 0, "thread");
    pthread_join(t, NULL);
    CHECK(other == 1002, "another thread sees the default pool of 2 (%d)", other);

    CHECK(g16_pool_set_current(NULL) == mine, "unset returns the override");
    CHECK(g16_pool_size(NULL) == 2, "default again");
    memset(&s, 0, sizeof s);
    s.mine = mine;
    g16_parallel_for(3000, 10, range, &s);
    CHECK(atomic_load(&s.in_mine) == 0 && atomic_load(&s.calls) == 300, "after unsetting, the default pool runs it");
    g16_pool_destroy(mine);
    g16_set_threads(0);
    return g16_test_finish("test_engine_pool");
}
