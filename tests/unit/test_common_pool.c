/* Thread pool: every index visited exactly once for many sizes, grains and
 * thread counts; worker indices in range and never shared by two callbacks at
 * once; nested calls run inline on the caller; the default pool follows
 * g16_set_threads and G16_THREADS; independent tasks; one-thread pools. */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "common/pool.h"

typedef struct visit_ctx {
    atomic_uint *hits;
    unsigned size;          /* pool size: worker indices must be below it */
    atomic_int *busy;       /* per worker: callbacks running with that index now */
    atomic_int bad_worker, overlap;
    size_t grain;
    atomic_int bad_chunk;
} visit_ctx;

static void visit(void *arg, size_t b, size_t e, unsigned w)
{
    visit_ctx *c = arg;
    if (w >= c->size) {
        atomic_fetch_add(&c->bad_worker, 1);
        return;
    }
    if (atomic_fetch_add(&c->busy[w], 1) != 0) atomic_fetch_add(&c->overlap, 1);
    if (e <= b || e - b > c->grain) atomic_fetch_add(&c->bad_chunk, 1);
    for (size_t i = b; i < e; i++) atomic_fetch_add(&c->hits[i], 1);
    atomic_fetch_sub(&c->busy[w], 1);
}

static void check_cover(g16_pool *pool, unsigned size, size_t n, size_t grain)
{
    visit_ctx c;
    memset(&c, 0, sizeof c);
    c.hits = calloc(n ? n : 1, sizeof *c.hits);
    c.busy = calloc(size, sizeof *c.busy);
    c.size = size;
    /* grain 0 means automatic: chunks may then be any size up to n */
    c.grain = grain ? grain : (n ? n : 1);
    g16_pool_for(pool, n, grain, visit, &c);
    size_t wrong = 0, first = 0;
    for (size_t i = 0; i < n; i++) {
        if (atomic_load(&c.hits[i]) != 1 && wrong++ == 0) first = i;
    }
    CHECK(wrong == 0, "size %u n %zu grain %zu: %zu indices not visited once (first %zu)", size, n,
          grain, wrong, first);
    CHECK(atomic_load(&c.bad_worker) == 0, "worker index out of range (size %u)", size);
    CHECK(atomic_load(&c.overlap) == 0, "two callbacks ran with one worker index at once");
    CHECK(atomic_load(&c.bad_chunk) == 0, "chunk empty or larger than grain %zu", grain);
    free(c.hits);
    free(c.busy);
}

static void test_cover(void)
{
    static const unsigned sizes[] = {1, 2, 3, 4, 7, 16};
    static const size_t ns[] = {0, 1, 2, 3, 5, 63, 64, 65, 1000, 4097, 100000};
    static const size_t grains[] = {0, 1, 2, 7, 64, 1000, 200000};
    for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++) {
        g16_pool *pool;
        g16_status st = g16_pool_create(&pool, sizes[s]);
        CHECK(st == G16_OK, "pool_create(%u): %s", sizes[s], g16_last_error());
        if (st != G16_OK) continue;
        CHECK(g16_pool_size(pool) == sizes[s], "pool size %u", g16_pool_size(pool));
        for (size_t i = 0; i < sizeof ns / sizeof *ns; i++) {
            for (size_t g = 0; g < sizeof grains / sizeof *grains; g++) {
                /* grain 1 over 100000 indices is slow under sanitizers and adds nothing */
                if (grains[g] == 1 && ns[i] > 5000) continue;
                check_cover(pool, sizes[s], ns[i], grains[g]);
            }
        }
        /* many small calls in a row: each must wait for all workers of the previous */
        for (int rep = 0; rep < 200; rep++) check_cover(pool, sizes[s], 97, 3);
        g16_pool_destroy(pool);
    }
}

/* Nested: the inner call must run on the calling thread with the caller's index. */
typedef struct nest_ctx {
    g16_pool *pool;
    atomic_uint *hits;
    size_t inner_n;
    atomic_int wrong_worker, not_in_worker;
} nest_ctx;

typedef struct inner_ctx {
    nest_ctx *outer;
    unsigned expect_worker;
    size_t base;
} inner_ctx;

static void inner(void *arg, size_t b, size_t e, unsigned w)
{
    inner_ctx *c = arg;
    if (w != c->expect_worker) atomic_fetch_add(&c->outer->wrong_worker, 1);
    for (size_t i = b; i < e; i++) atomic_fetch_add(&c->outer->hits[c->base + i], 1);
}

static void outer(void *arg, size_t b, size_t e, unsigned w)
{
    nest_ctx *c = arg;
    if (!g16_pool_in_worker(c->pool)) atomic_fetch_add(&c->not_in_worker, 1);
    for (size_t i = b; i < e; i++) {
        inner_ctx ic = {c, w, i * c->inner_n};
        g16_pool_for(c->pool, c->inner_n, 5, inner, &ic);
    }
}

static void test_nested(g16_pool *pool, const char *what)
{
    nest_ctx c;
    memset(&c, 0, sizeof c);
    c.pool = pool;
    c.inner_n = 37;
    size_t outer_n = 50;
    c.hits = calloc(outer_n * c.inner_n, sizeof *c.hits);
    CHECK(!g16_pool_in_worker(pool), "%s: in_worker outside any call", what);
    g16_pool_for(pool, outer_n, 1, outer, &c);
    size_t wrong = 0;
    for (size_t i = 0; i < outer_n * c.inner_n; i++) wrong += atomic_load(&c.hits[i]) != 1;
    CHECK(wrong == 0, "%s: nested cover: %zu indices not visited once", what, wrong);
    CHECK(atomic_load(&c.wrong_worker) == 0, "%s: nested call ran with another worker index", what);
    CHECK(atomic_load(&c.not_in_worker) == 0, "%s: in_worker false inside a callback", what);
    CHECK(!g16_pool_in_worker(pool), "%s: in_worker after the call", what);
    free(c.hits);
}

typedef struct task_rec {
    atomic_uint *hits;
    atomic_uint threads_seen; /* bit per worker index */
} task_rec;

static void task(void *arg, size_t t, unsigned w)
{
    task_rec *r = arg;
    atomic_fetch_add(&r->hits[t], 1);
    atomic_fetch_or(&r->threads_seen, 1u << (w & 31));
}

static void test_tasks(void)
{
    g16_pool *pool;
    CHECK(g16_pool_create(&pool, 4) == G16_OK, "pool_create(4)");
    for (size_t count = 0; count < 40; count += 3) {
        task_rec r;
        r.hits = calloc(count + 1, sizeof *r.hits);
        atomic_init(&r.threads_seen, 0);
        g16_pool_tasks(pool, count, task, &r);
        size_t wrong = 0;
        for (size_t i = 0; i < count; i++) wrong += atomic_load(&r.hits[i]) != 1;
        CHECK(wrong == 0, "tasks %zu: %zu not run once", count, wrong);
        CHECK(atomic_load(&r.threads_seen) < 16u, "task worker index out of range");
        free(r.hits);
    }
    g16_pool_destroy(pool);
}

static void test_default_pool(void)
{
    /* explicit count wins over the environment */
    setenv("G16_THREADS", "3", 1);
    CHECK(g16_set_threads(5) == G16_OK, "set_threads(5)");
    CHECK(g16_threads() == 5, "threads after set_threads(5): %u", g16_threads());
    check_cover(NULL, 5, 10000, 10);
    CHECK(g16_threads() == 5, "default pool size %u after use", g16_threads());
    test_nested(NULL, "default pool of 5");

    /* resize: the next call must use the new count */
    CHECK(g16_set_threads(2) == G16_OK, "set_threads(2)");
    CHECK(g16_threads() == 2, "threads after resize to 2: %u", g16_threads());
    check_cover(NULL, 2, 10000, 10);

    /* 0 returns to the default: G16_THREADS, then the CPU count */
    CHECK(g16_set_threads(0) == G16_OK, "set_threads(0)");
    CHECK(g16_threads() == 3, "threads from G16_THREADS=3: %u", g16_threads());
    check_cover(NULL, 3, 5000, 7);
    setenv("G16_THREADS", "junk", 1);
    CHECK(g16_set_threads(0) == G16_OK, "set_threads(0)");
    CHECK(g16_threads() >= 1, "threads with bad G16_THREADS: %u", g16_threads());
    unsetenv("G16_THREADS");
    CHECK(g16_set_threads(0) == G16_OK, "set_threads(0)");
    unsigned cpus = g16_threads();
    CHECK(cpus >= 1 && cpus <= G16_POOL_MAX_THREADS, "threads from CPU count: %u", cpus);
    check_cover(NULL, cpus, 3000, 0);

    CHECK(g16_set_threads(G16_POOL_MAX_THREADS + 1) == G16_ERR_ARG, "too many threads refused");
    CHECK(g16_threads() == cpus, "refused set_threads changed the count");

    /* one thread: everything on the caller */
    CHECK(g16_set_threads(1) == G16_OK, "set_threads(1)");
    check_cover(NULL, 1, 1000, 3);
    test_nested(NULL, "default pool of 1");
    CHECK(g16_set_threads(0) == G16_OK, "set_threads(0)");

    g16_pool *p;
    CHECK(g16_pool_create(&p, 0) == G16_ERR_ARG, "pool of 0 threads refused");
    CHECK(p == NULL, "refused pool_create leaves NULL");
}

int main(void)
{
    test_cover();
    g16_pool *pool;
    if (g16_pool_create(&pool, 4) == G16_OK) {
        test_nested(pool, "pool of 4");
        g16_pool_destroy(pool);
    }
    if (g16_pool_create(&pool, 1) == G16_OK) {
        test_nested(pool, "pool of 1");
        g16_pool_destroy(pool);
    }
    test_tasks();
    test_default_pool();
    return g16_test_finish("test_common_pool");
}
