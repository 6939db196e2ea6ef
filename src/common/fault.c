/* Test-only fault injection (fault.h).  Without G16_FAULT_INJECT only
 * g16_thread_create remains: pthread_create itself. */
#include "common/fault.h"

#include <errno.h>

#ifdef G16_FAULT_INJECT
#include <execinfo.h>
#include <stdatomic.h>
#include <stdio.h>
#include <unistd.h>

static _Thread_local uint64_t tl_tag;
static _Atomic uint64_t armed_tag, armed_k, seen;
static _Atomic unsigned armed_kinds;
static _Atomic int fired = -1;
static _Atomic uint64_t counts[G16_FAULT_KINDS];

int g16_fault_hit(g16_fault_kind kind)
{
    uint64_t tag = tl_tag;
    if (!tag || tag != atomic_load(&armed_tag)) return 0;
    if (!(atomic_load(&armed_kinds) >> kind & 1)) return 0;
    atomic_fetch_add(&counts[kind], 1);
    uint64_t n = atomic_fetch_add(&seen, 1) + 1;
    if (n != atomic_load(&armed_k)) return 0;
    atomic_store(&fired, (int)kind);
    if (getenv("G16_FAULT_TRACE")) { /* where the point is: for reading a walk's log */
        void *bt[24];
        int nb = backtrace(bt, 24);
        fprintf(stderr, "fault: %s point %llu fails here:\n", g16_fault_kind_name(kind), (unsigned long long)n);
        backtrace_symbols_fd(bt, nb, STDERR_FILENO);
    }
    return 1;
}

uint64_t g16_fault_scope(uint64_t tag)
{
    uint64_t old = tl_tag;
    tl_tag = tag;
    return old;
}

uint64_t g16_fault_tag(void) { return tl_tag; }

void g16_fault_arm(uint64_t tag, uint64_t k, unsigned kinds)
{
    atomic_store(&armed_tag, 0);
    for (int i = 0; i < G16_FAULT_KINDS; i++) atomic_store(&counts[i], 0);
    atomic_store(&seen, 0);
    atomic_store(&fired, -1);
    atomic_store(&armed_k, k);
    atomic_store(&armed_kinds, kinds);
    atomic_store(&armed_tag, tag);
}

uint64_t g16_fault_count(g16_fault_kind kind) { return atomic_load(&counts[kind]); }

int g16_fault_fired(void) { return atomic_load(&fired); }

const char *g16_fault_kind_name(g16_fault_kind kind)
{
    static const char *const names[G16_FAULT_KINDS] = {
        "host alloc", "page-lock", "device alloc", "cuda call", "kernel", "file read", "thread",
    };
    return (unsigned)kind < G16_FAULT_KINDS ? names[kind] : "?";
}

static _Atomic uint64_t wrong_tag;
static _Atomic unsigned wrong_skip, wrong_left, wrong_done;

void g16_fault_wrong_arm(uint64_t tag, unsigned skip, unsigned n)
{
    atomic_store(&wrong_tag, 0);
    atomic_store(&wrong_skip, skip);
    atomic_store(&wrong_left, n);
    atomic_store(&wrong_done, 0);
    atomic_store(&wrong_tag, tag);
}

int g16_fault_wrong_take(void)
{
    if (!tl_tag || tl_tag != atomic_load(&wrong_tag)) return 0;
    unsigned s = atomic_load(&wrong_skip);
    while (s && !atomic_compare_exchange_weak(&wrong_skip, &s, s - 1)) {
    }
    if (s) return 0; /* this one runs clean */
    unsigned n = atomic_load(&wrong_left);
    while (n && !atomic_compare_exchange_weak(&wrong_left, &n, n - 1)) {
    }
    if (!n) return 0;
    atomic_fetch_add(&wrong_done, 1);
    return 1;
}

unsigned g16_fault_wrong_done(void) { return atomic_load(&wrong_done); }

typedef struct tramp {
    void *(*fn)(void *);
    void *arg;
    uint64_t tag;
} tramp;

static void *tramp_main(void *v)
{
    tramp t = *(tramp *)v;
    free(v);
    tl_tag = t.tag;
    return t.fn(t.arg);
}

int g16_thread_create(pthread_t *t, void *(*fn)(void *), void *arg)
{
    if (g16_fault_hit(G16_FAULT_THREAD)) return EAGAIN;
    if (!tl_tag) return pthread_create(t, NULL, fn, arg);
    tramp *tr = malloc(sizeof *tr);
    if (!tr) return EAGAIN;
    *tr = (tramp){fn, arg, tl_tag};
    int rc = pthread_create(t, NULL, tramp_main, tr);
    if (rc) free(tr);
    return rc;
}
#else
int g16_thread_create(pthread_t *t, void *(*fn)(void *), void *arg)
{
    return pthread_create(t, NULL, fn, arg);
}
#endif
