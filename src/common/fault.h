/* Test-only fault injection (docs/reliability.md, "Fault injection").
 *
 * Built with -DG16_FAULT_INJECT=ON, every place where the prover asks the system
 * for something that can be refused — host memory, page-locking, device memory, a
 * CUDA call or kernel launch, a file, a thread — asks g16_fault_hit first, and the
 * test can make the k-th such point of one job fail as the system would (NULL,
 * an error code).  Points count only on threads working for the armed tag: the
 * engine tags its workers with the job's tag while they work on it, pool threads
 * and threads made by g16_thread_create inherit it, so a second job running
 * alongside is never hit.  Without the option the hook is an inline 0 and the
 * wrappers below are plain malloc, calloc, ... (no cost, no state). */
#ifndef G16_COMMON_FAULT_H
#define G16_COMMON_FAULT_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

typedef enum g16_fault_kind {
    G16_FAULT_ALLOC = 0,  /* host allocation (g16_malloc, ..., mmap of buffers) */
    G16_FAULT_PAGELOCK,   /* page-locking host memory for a device */
    G16_FAULT_DEV_ALLOC,  /* device memory */
    G16_FAULT_DEV_CALL,   /* any other CUDA runtime call */
    G16_FAULT_KERNEL,     /* a kernel launch */
    G16_FAULT_FILE,       /* opening / mapping a file to read */
    G16_FAULT_THREAD,     /* creating a thread */
    G16_FAULT_KINDS
} g16_fault_kind;

#define G16_FAULT_ALL ((1u << G16_FAULT_KINDS) - 1)

#ifdef G16_FAULT_INJECT
/* Returns: 1 when this point must fail (the armed k-th point of the armed tag
 * and kinds), else 0; counts the point when the thread's tag is the armed one. */
int g16_fault_hit(g16_fault_kind kind);
/* Sets the calling thread's tag (0: none) and returns the previous one. */
uint64_t g16_fault_scope(uint64_t tag);
uint64_t g16_fault_tag(void);
/* Arms tag: its k-th point (1-based, counted over `kinds`, a bit mask) fails;
 * k 0 only counts (the dry run).  Resets the counts. */
void g16_fault_arm(uint64_t tag, uint64_t k, unsigned kinds);
/* Returns: the points of `kind` counted since g16_fault_arm. */
uint64_t g16_fault_count(g16_fault_kind kind);
/* Returns: the kind of the point that failed, or -1 when none has yet. */
int g16_fault_fired(void);
const char *g16_fault_kind_name(g16_fault_kind kind);
/* The wrong-result injector: of the MSMs a device backend runs for `tag`, the
 * first `skip` run clean, the next `n` get one bucket corrupted (a wrong proof
 * the engine's self-check must catch).  Resets the count of corruptions. */
void g16_fault_wrong_arm(uint64_t tag, unsigned skip, unsigned n);
/* Returns: 1 when the MSM about to run on this thread must corrupt a bucket. */
int g16_fault_wrong_take(void);
/* Returns: the corruptions made since g16_fault_wrong_arm. */
unsigned g16_fault_wrong_done(void);
#else
static inline int g16_fault_wrong_take(void) { return 0; }
static inline int g16_fault_hit(g16_fault_kind kind) { (void)kind; return 0; }
static inline uint64_t g16_fault_scope(uint64_t tag) { (void)tag; return 0; }
static inline uint64_t g16_fault_tag(void) { return 0; }
#endif

/* The host allocators of the prover's paths: the system's, behind the hook. */
static inline void *g16_malloc(size_t n)
{
    return g16_fault_hit(G16_FAULT_ALLOC) ? NULL : malloc(n);
}
static inline void *g16_calloc(size_t n, size_t size)
{
    return g16_fault_hit(G16_FAULT_ALLOC) ? NULL : calloc(n, size);
}
static inline void *g16_realloc(void *p, size_t n)
{
    return g16_fault_hit(G16_FAULT_ALLOC) ? NULL : realloc(p, n);
}
static inline void *g16_aligned_alloc(size_t align, size_t n)
{
    return g16_fault_hit(G16_FAULT_ALLOC) ? NULL : aligned_alloc(align, n);
}

/* pthread_create behind the hook; the new thread inherits the caller's fault tag.
 * Returns: pthread_create's result (EAGAIN when injected). */
int g16_thread_create(pthread_t *t, void *(*fn)(void *), void *arg);

#endif
