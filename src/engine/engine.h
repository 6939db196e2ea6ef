/* Engine internals shared by its files: partitions, jobs, the buffer pool, the
 * tracker, the trace, and the test hooks (docs/engine.md).
 *
 * Locking: one engine mutex (mu) guards queues, jobs, the budget and the pool's
 * idle list; every change that may let a blocked thread go on is followed by a
 * broadcast on cv.  Work (synthesis, proving, verifying, large frees) always runs
 * with mu released.  Tracker counters are atomics so that stats never take mu. */
#ifndef G16_ENGINE_ENGINE_H
#define G16_ENGINE_ENGINE_H

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "common/pool.h"
#include "g16.h"
#include "groth16/groth16.h"
#include "r1cs/r1cs.h"

/* ---------------------------------------------------------------- stages */
typedef enum g16_stage {
    G16_STAGE_QUEUE = 0,
    G16_STAGE_SYNTH,
    G16_STAGE_WAIT,   /* synthesized, waiting for a device */
    G16_STAGE_DEVICE,
    G16_STAGE_FINAL,  /* prove_finish */
    G16_STAGE_VERIFY, /* self-check */
    G16_STAGE_COUNT
} g16_stage;

/* Returns: "queue", "synthesis", "wait", "device", "finalize", "verify". */
const char *g16_stage_name(g16_stage s);

/* ---------------------------------------------------------------- test hooks
 * Set before submitting (g16_engine_set_hooks copies them).  A partition is named
 * by its job id and index; job 0 or index -1 match any. */
typedef struct g16_engine_hooks {
    unsigned delay_ms[G16_STAGE_COUNT]; /* sleep this long inside the stage's work */
    int fail_stage;                     /* G16_STAGE_SYNTH/DEVICE/FINAL: inject an error; -1 none */
    uint64_t fail_job;
    int fail_part;
    uint64_t wrong_job;                 /* make the proof of (wrong_job, wrong_part) wrong */
    int wrong_part;
    unsigned wrong_attempts;            /* bit k: corrupt attempt k (bit 0 first try, bit 1 the CPU retry) */
    /* Called (mu not held) when a partition enters a stage's work; a test may cancel from here. */
    void (*on_stage)(void *user, g16_stage stage, uint64_t job, uint32_t part);
    void *user;
    /* Called once per device stage with the thread's current pool (checks the
     * per-stage thread budgets). */
    void (*on_device_pool)(void *user, const g16_pool *pool);
    /* Nonzero: partitions submitted from now on are sized as if the device
     * backend needed this much host scratch and no pending copy (the CUDA
     * backend's sizing, testable without a GPU); the CPU retry keeps the CPU's. */
    size_t dev_host_scratch;
    /* Added to the device backends' own host memory (ops->host_fixed), which the
     * budget left to partitions loses (a CUDA context, testable without a GPU). */
    size_t dev_host_fixed;
    /* Nonzero: devices without a key_upload op act as if they had one (the key
     * mover marks the key resident on them after sleeping this many ms), so key
     * tiers and preloads are testable without a GPU. */
    unsigned fake_upload_ms;
    /* Called by the key mover after each upload (ok 1) or eviction (ok -1) it ran. */
    void (*on_key_move)(void *user, unsigned device, uint64_t key_serial, int ok);
} g16_engine_hooks;

/* hooks NULL: none.  Not to be called while jobs run. */
void g16_engine_set_hooks(g16_engine *e, const g16_engine_hooks *hooks);

/* ---------------------------------------------------------------- tracker */
typedef struct g16_tracker {
    _Atomic int64_t cur[G16_CTR_COUNT], peak[G16_CTR_COUNT];
    int debug;
} g16_tracker;

/* Adds delta to counter c and raises its peak. */
void g16_tracker_add(g16_tracker *t, g16_counter c, int64_t delta);
int64_t g16_tracker_get(const g16_tracker *t, g16_counter c);
/* Writes one debug line "engine: <what>: synth=.. waiting=.. ..." to stderr when debug is on. */
void g16_tracker_log(const g16_tracker *t, const char *what, uint64_t job, uint32_t part);

/* ---------------------------------------------------------------- buffer pool
 * Host buffers the device reads (a, b, c, z) come from here: page-aligned mappings
 * (page-locked when a CUDA backend registers them), reused by exact size.  Idle
 * buffers stay charged to the budget; evicting one hands it to the freer thread,
 * which unmaps one at a time off the hot path and only then returns the bytes. */
typedef struct g16_buf {
    void *p;
    size_t bytes;
} g16_buf;

typedef struct g16_bufpool {
    g16_buf *idle;
    size_t n_idle, cap_idle;
    size_t idle_bytes;
    /* freer queue */
    g16_buf *freeq;
    size_t n_freeq, cap_freeq, head_freeq;
    size_t freeq_bytes;
    int freeing;          /* the freer is working on one buffer now */
    pthread_t freer;
    int freer_started;
} g16_bufpool;

/* Rounds a byte count up to whole pages (the pool's size classes). */
size_t g16_buf_round(size_t bytes);

/* ---------------------------------------------------------------- partitions, jobs */
typedef struct g16_job g16_job;
typedef struct g16_part g16_part;

struct g16_part {
    g16_job *job;
    uint32_t index;
    uint32_t attempt;      /* 0 first try; 1 the CPU retry after a failed self-check */
    g16_stage stage;
    const g16_circuit *circ;
    const g16_witness *wit;
    uint64_t rows, N, n_vars;
    /* Sizes (bytes): each of a, b, c; z; bitmaps + pending copy; device working
     * memory — aux_bytes and scratch_bytes for the current attempt (set at
     * admission from the _dev (device backend) or _cpu (the CPU retry) pair). */
    size_t abc_each, z_bytes, aux_bytes, scratch_bytes;
    size_t aux_dev, scratch_dev, aux_cpu, scratch_cpu;
    /* What this partition holds now (all charged to the budget). */
    g16_buf a, b, c, z;
    size_t held_aux, held_scratch;
    int shared_charged;    /* counts in the in-flight counts of its key, circuit and witness */
    struct g16_objent *cent, *went; /* its circuit's and its witness's charge entries */
    g16_part_stage pstage; /* the public stage (g16_engine_job_parts) */
    double pstage_t;       /* when it was entered, engine clock */
    double pstage_s[G16_PART_ACTIVE_STAGES]; /* time spent per public stage before it */
    g16_density dens;
    int have_dens;
    g16_pending *pending;
    uint8_t proof[192];
    double t_stage;        /* when the current stage (or wait) began, engine clock */
    g16_part *next;        /* queue links (queue, waiting, final) */
};

typedef struct g16_keyent {
    g16_key *key;
    size_t bytes;
    unsigned inflight;      /* admitted partitions using it */
    unsigned jobs;          /* live jobs using it */
    int held;               /* g16_engine_key_hold: charged (and one key reference) until dropped */
    int upload;             /* held with upload asked */
    int evict;              /* dropped: forget device copies once no job uses it */
    uint64_t fake_resident; /* devices the test hook's fake upload reached (bit d) */
    struct g16_keyent *next;
} g16_keyent;               /* charged while held or inflight > 0; freed when !held and jobs == 0 */

/* A compiled circuit or a witness (kind 0 / 1), charged once while admitted
 * partitions use it; the entry lives while partitions of live jobs name it. */
typedef struct g16_objent {
    const void *obj;
    size_t bytes;
    int kind;
    unsigned inflight;      /* admitted partitions using it: charged while > 0 */
    unsigned parts;         /* partitions of live jobs naming it */
    struct g16_objent *next;
} g16_objent;

/* Work of the key mover thread: device copies made or forgotten off the workers' paths. */
typedef struct g16_keytask {
    int evict;              /* 0 upload, 1 forget */
    unsigned device;
    g16_key *key;           /* upload: one reference, released when done */
    uint64_t serial;
    struct g16_keytask *next;
} g16_keytask;

struct g16_job {
    uint64_t id, seq;
    g16_priority prio;
    g16_key *key;           /* one reference */
    g16_keyent *kent;
    uint32_t n_parts;
    g16_part *parts;        /* n_parts records */
    uint8_t *proofs;        /* 192 · n_parts */
    g16_job_state state;
    int dead;               /* cancelled or failed: no new stage starts */
    int verify;
    uint32_t inflight;      /* partitions between admission and release */
    uint32_t queued;        /* partitions in the queue */
    uint32_t synthesized, proved, finished, retries;
    g16_status error;
    char stage[16];
    char message[256];
    double t_submit, t_start, t_end;
    int awaited;
    g16_job *next;
};

typedef struct g16_device {
    unsigned index;
    pthread_mutex_t lock;   /* held only around device work */
    g16_pool *pool;         /* the CPU backend's threads for this device */
    struct g16_backend *be; /* where this device's proofs run (CPU or one GPU) */
    double first_start, last_end; /* device-stage span (first_start < 0: none yet) */
    double busy_s;
    double part_s[6];       /* prove_start parts (g16_engine_stats.dev_part_s) */
    uint64_t part_n;
} g16_device;

typedef struct g16_worker {
    g16_engine *e;
    int kind;               /* 0 synthesis, 1 device, 2 finalizer */
    unsigned index;
    g16_device *dev;
    g16_pool *pool;
    pthread_t thread;
    int started;
    unsigned lane;          /* trace thread id */
} g16_worker;

typedef struct g16_trace_ev {
    const char *name;
    double ts, dur;         /* seconds, engine clock */
    unsigned lane;
    uint64_t job;
    uint32_t part, attempt;
} g16_trace_ev;

typedef struct g16_trace {
    pthread_mutex_t mu;
    g16_trace_ev *ev;
    size_t n, cap;
    struct { double ts; int64_t reserved, abc, waiting; } *ctr;
    size_t n_ctr, cap_ctr;
} g16_trace;

struct g16_engine {
    g16_engine_config cfg;
    g16_engine_hooks hooks;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    int stop;
    uint64_t budget; /* what partitions and keys may reserve: the config's less fixed */
    uint64_t fixed;  /* the device backends' own host memory (ops->host_fixed) */
    uint64_t fixed_open; /* of it, what the backends reported at open (the rest: a test hook) */
    uint64_t next_id, next_seq;
    g16_job *jobs;
    g16_keyent *keys;
    g16_objent *objs;       /* circuits and witnesses of live jobs */
    g16_part *queue;        /* sorted: priority, job seq, index, attempt */
    g16_part *waiting;      /* sorted the same way */
    g16_part *finalq, *finalq_tail; /* FIFO */
    g16_tracker tr;
    g16_bufpool pool;
    struct g16_backend *pin_be; /* a CUDA backend: pool buffers are page-locked through it */
    g16_device *devs;
    unsigned n_devs;
    g16_worker *workers;
    unsigned n_workers;
    double t0;              /* engine clock origin */
    double active_since;    /* -1 when idle */
    double active_s;
    unsigned live_jobs;
    uint64_t jobs_done, jobs_failed, jobs_cancelled, proofs, retries;
    double synth_s, final_s, verify_s;
    g16_trace trace;
    g16_keytask *ktasks, *ktasks_tail; /* FIFO of the key mover */
    int kmoving;            /* the key mover is running a task now */
    pthread_t kmover;
    int kmover_started;
    int preload;            /* upload a job's key at submit (G16_ENGINE_PRELOAD, default on) */
};

/* Engine clock: seconds since the engine was created. */
double g16_engine_now(const g16_engine *e);

/* --- bufpool.c (mu held unless noted) */
/* Sets p->aux_bytes / scratch_bytes for its current attempt (first: the device's
 * backend; the retry: the CPU backend). */
void g16_part_attempt_sizes(g16_part *p);

/* Test aid: the bytes one partition of circuit c with key k reserves (key
 * included) on its first attempt (*dev) and on the CPU retry (*cpu). */
void g16_engine_part_need(const g16_engine *e, const g16_circuit *c, const g16_key *k,
                          size_t *dev, size_t *cpu);

g16_status g16_bufpool_start(g16_engine *e);            /* mu not held */
void g16_bufpool_stop(g16_engine *e);                   /* mu not held; frees everything */
/* Takes an idle buffer of exactly `bytes` (rounded) into *b; returns 0 when none. */
int g16_bufpool_take_idle(g16_engine *e, g16_buf *b, size_t bytes);
/* Counts idle buffers of `bytes` (rounded). */
size_t g16_bufpool_count_idle(const g16_engine *e, size_t bytes);
/* Maps a fresh buffer (mu not held).  Pinned bytes are counted here. */
g16_status g16_bufpool_alloc(g16_engine *e, g16_buf *b, size_t bytes);
/* Returns a buffer to the idle list (charged bytes stay charged). */
void g16_bufpool_put(g16_engine *e, g16_buf *b);
/* Hands every idle buffer to the freer except up to n_a of size keep_a and n_b of
 * size keep_b (the ones the partition waiting for room will reuse). */
void g16_bufpool_evict(g16_engine *e, size_t keep_a, size_t n_a, size_t keep_b, size_t n_b);
/* Waits (mu held) until the freer queue is empty. */
void g16_bufpool_wait_freer(g16_engine *e);

/* --- budget.c (mu held unless noted) */
void g16_budget_charge(g16_engine *e, int64_t bytes);
/* Sizes p for its circuit and the engine's backends (both attempts); no lock needed. */
void g16_part_size(g16_part *p, const g16_engine *e);
/* What p's current attempt reserves, its key, circuit and witness left out. */
size_t g16_part_total(const g16_part *p);
/* Bytes charged for a witness of circuit c. */
size_t g16_witness_bytes_(const g16_circuit *c);
/* Names p's circuit and witness in the charge table (at submit) / forgets them (at
 * job end).  Returns G16_OK or G16_ERR_NOMEM. */
g16_status g16_objs_ref(g16_engine *e, g16_part *p);
void g16_objs_unref(g16_engine *e, g16_part *p);
/* Admits p if its reservation (with its key, circuit and witness when not charged
 * yet) fits the budget now; returns 0 when it does not. */
int g16_admit(g16_engine *e, g16_part *p);
/* Gives back p's use of its key, circuit and witness (their charge with the last use). */
void g16_part_unuse_shared(g16_engine *e, g16_part *p);

/* --- keys.c (mu held unless noted) */
/* Bytes of a key's sections (what the budget charges for it). */
size_t g16_key_bytes(const g16_key *k);
/* Whether the key's entry is charged to the budget now. */
static inline int g16_keyent_charged(const g16_keyent *ke)
{
    return ke->held || ke->inflight > 0;
}
/* One admitted partition fewer uses ke: gives its charge back when that was the last
 * use of an unheld key, and queues the forgetting of dropped device copies. */
void g16_keyent_unuse(g16_engine *e, g16_keyent *ke);
/* One live job fewer uses ke: frees the entry when it was the last and no hold is left. */
void g16_keyent_job_out(g16_engine *e, g16_keyent *ke);
/* Queues uploads of key to every device that keeps device copies (no-op on CPU engines). */
void g16_keys_upload(g16_engine *e, g16_key *key);
g16_status g16_keys_start(g16_engine *e); /* mu not held */
void g16_keys_stop(g16_engine *e);        /* mu not held; e->stop set: drains the task queue */
/* Releases every entry and its hold (at destroy, no job left). */
void g16_keys_free(g16_engine *e);

/* --- public partition stages (workers.c, mu held) */
/* Enters public stage s at time now, adding the time of the stage left. */
void g16_part_enter(g16_part *p, g16_part_stage s, double now);

/* --- workers.c */
void *g16_worker_main(void *arg);
/* Releases everything the partition holds (mu held) and, if its job is dead,
 * counts it out of the job. */
void g16_part_release(g16_engine *e, g16_part *p);
/* Marks the job failed (first error wins) and drops its queued and waiting partitions (mu held). */
void g16_job_fail(g16_engine *e, g16_job *j, g16_stage stage, g16_status st, const char *msg);
/* Drops a job's queued and waiting partitions (mu held). */
void g16_job_drop_queued(g16_engine *e, g16_job *j);
/* One partition fewer in flight; ends the job when it was the last (mu held). */
void g16_job_part_out(g16_engine *e, g16_job *j);
/* Inserts into a sorted list (queue / waiting). */
void g16_part_insert(g16_part **list, g16_part *p);

/* --- trace.c */
void g16_trace_span(g16_engine *e, const char *name, double t_begin, double t_end, unsigned lane,
                    const g16_part *p);
void g16_trace_counters(g16_engine *e);
/* Writes the trace file with the summary (mu not held).  Returns G16_OK or G16_ERR_IO. */
g16_status g16_trace_write(g16_engine *e, const char *path, const g16_engine_stats *st);
void g16_trace_free(g16_trace *t);

#endif
