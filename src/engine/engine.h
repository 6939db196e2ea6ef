/* The engine's types, shared by its files, and the test hooks (docs/engine.md).
 *
 * Each file of src/engine has its own header declaring what it gives the files
 * above it, and includes only the headers below it (one way, no circle):
 *   tracker.h (clock, counters, budget charges) ← trace.h, bufpool.h ← keys.h ←
 *   budget.h (sizes, shared charges, admission) ← jobs.h (submit, the job table,
 *   release) ← workers.h (stage loops); stats.h beside; engine.c (create,
 *   destroy) on top.
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
    /* Device d fails its dev_fail_at[d]-th device stage (1 the first; 0 never) with
     * G16_ERR_BACKEND, after prove_start ran (its a, b, c consumed): the engine must
     * take the device out and prove the partition elsewhere.  Also set at create
     * from G16_ENGINE_DEVICE_FAIL="d:k[,d:k...]" (TEST-ONLY, for the CLI and GPU smokes). */
    unsigned dev_fail_at[G16_ENGINE_MAX_DEVICES];
    /* A partition published early (the early device start): its synthesis sleeps this
     * long before computing a, b, c, so a device surely waits for them; with abc_fail
     * the synthesis of (fail_job, fail_part) then fails there, after the publishing. */
    unsigned abc_delay_ms;
    int abc_fail;
} g16_engine_hooks;

/* hooks NULL: none.  Not to be called while jobs run. */
void g16_engine_set_hooks(g16_engine *e, const g16_engine_hooks *hooks);

/* ---------------------------------------------------------------- tracker */
typedef struct g16_tracker {
    _Atomic int64_t cur[G16_CTR_COUNT], peak[G16_CTR_COUNT];
    int debug;
} g16_tracker;


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


/* ---------------------------------------------------------------- partitions, jobs */
typedef struct g16_job g16_job;
typedef struct g16_part g16_part;

struct g16_part {
    g16_job *job;
    uint32_t index;
    uint32_t attempt;      /* 0 first try; 1 the CPU retry after a failed self-check */
    g16_stage stage;
    const g16_circuit *circ;
    const g16_witness *wit;  /* the caller's witness, or NULL when read from wit_path */
    char *wit_path;          /* g16_partition.witness_path (owned) */
    g16_witness_fill_fn fill; /* g16_partition.witness_fill, or NULL */
    void *fill_user;
    uint8_t *pub;            /* wit_path, fill: the public inputs (32 bytes big-endian each), kept
                                from the synthesis for the self-check */
    uint32_t n_pub;
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
    g16_pending *pending;
    /* Early device start (engine.md): published to the devices once z was ready, with
     * a, b, c still being written by its synthesis worker, which sets abc_done (and
     * abc_st, abc_msg) when they are (mu).  A device's prove_start waits for that
     * before its H step; until then nothing else may release the buffers. */
    int early, abc_done;
    g16_status abc_st;
    char abc_msg[256];
    uint8_t proof[192];
    double t_stage;        /* when the current stage (or wait) began, engine clock */
    g16_part *next;        /* queue links (queue, waiting, final) */
};

/* Frees n partitions' array and what each owns (its witness path, its public inputs). */
void g16_parts_free(g16_part *ps, size_t n);

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
    /* A circuit's density bitmaps, the same for all its partitions: computed once by
     * the first synthesis (state 1 while it runs, 2 when ready), freed with the
     * last use; charged with the circuit. */
    g16_density dens;
    int dens_state;
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
    uint64_t fault_tag;     /* the submitter's fault-injection tag: its workers take it (common/fault.h) */
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
    int gpu;                /* CUDA ordinal; -1 a CPU device */
    pthread_mutex_t lock;   /* held only around device work */
    int failed;             /* taken out after a backend error (mu): no new work */
    unsigned started;       /* device stages begun on its backend (d->lock): the fail hook's count */
    uint64_t stages, errors; /* device stages ended with a pending proof / failed (mu) */
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
    int dev;                /* the device of a device span; -1 none */
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
    unsigned live_devs;     /* devices not taken out (mu) */
    uint64_t reroutes;      /* partitions moved off a failed device (mu) */
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
    struct g16_pool *synth_pool; /* the synthesis workers' one pool, when they share it */
    int early;              /* early device starts allowed (G16_ENGINE_EARLY; default: GPU devices) */
    uint64_t early_starts;  /* partitions published before their a, b, c (mu) */
};

/* How g16_engine_create picks its devices from cfg (backend, devices, gpus) when `gpus`
 * GPUs are visible (engine.c; a test aid too, since no GPU is needed to check it).
 * Out: cfg->devices, cfg->n_gpus (0 unless GPUs are used), *use_cuda.
 * Returns G16_OK; G16_ERR_BACKEND (CUDA asked, none visible); G16_ERR_ARG. */
g16_status g16_engine_pick_devices(g16_engine_config *cfg, int gpus, int *use_cuda);

/* Test aid: the bytes one partition of circuit c with key k reserves (its key, circuit and
 * witness included) on its first attempt (*dev) and on the CPU retry (*cpu) (budget.c). */
void g16_engine_part_need(const g16_engine *e, const g16_circuit *c, const g16_key *k,
                          size_t *dev, size_t *cpu);

#endif
