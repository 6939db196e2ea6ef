/* Public API, part of g16.h: the proving engine (job queue, workers, memory budget).
 *
 * A job is a list of partitions (one compiled circuit plus its witness each) that
 * share one proving key.  Each partition runs through stages with their own
 * workers (docs/engine.md):
 *   queue (priority, then job age, then partition index)
 *   → synthesis (pw workers, CPU): assignment copy, a,b,c = A·z, B·z, C·z, density
 *   → device (gw workers per device, one lock per device): g16_prove_start
 *   → finalizer (background): g16_prove_finish, self-check (g16_verify)
 *   → job assembly in partition order: the result is the 192-byte proofs concatenated.
 * Every byte a partition holds is reserved from one host memory budget BEFORE it is
 * allocated and given back when it is actually freed, so no setting of pw or gw can
 * make the engine hold more than the budget.
 */
#ifndef G16_ENGINE_PUBLIC_H
#define G16_ENGINE_PUBLIC_H

#include "g16.h"

#ifdef __cplusplus
extern "C" {
#endif

struct g16_key;
struct g16_circuit;
struct g16_witness;
struct g16_fr;

typedef struct g16_engine g16_engine;

/* Writes partition `index`'s full assignment, z[0 .. n − 1] with z[0] = 1, Montgomery form
 * (g16_partition.witness_fill).  Returns G16_OK, or an error (with g16_fail's message)
 * that fails the job at synthesis. */
typedef g16_status (*g16_witness_fill_fn)(void *user, size_t index, struct g16_fr *z, uint64_t n);

typedef enum g16_priority {
    G16_PRIO_CRITICAL = 0, /* e.g. WinningPoSt: must never wait behind PoReps */
    G16_PRIO_HIGH = 1,
    G16_PRIO_NORMAL = 2,
    G16_PRIO_LOW = 3
} g16_priority;

/* Returns: the priority named "critical", "high", "normal" or "low" in *out, or G16_ERR_ARG. */
g16_status g16_priority_parse(g16_priority *out, const char *name);

/* Devices one engine drives at most. */
#define G16_ENGINE_MAX_DEVICES 64

typedef struct g16_engine_config {
    unsigned pw;             /* synthesis workers; 0: 1 */
    unsigned gw;             /* device workers per device; 0: 1 */
    unsigned devices;        /* devices; 0: every CUDA device (CUDA backend, or n_gpus when
                                gpus are listed), or one CPU device */
    /* With CUDA: which GPUs (ordinals as CUDA numbers them, i.e. after
     * CUDA_VISIBLE_DEVICES), one device each, in this order; n_gpus 0: GPUs
     * 0 .. devices-1.  g16_engine_parse_gpus fills them from "0,1". */
    unsigned gpus[G16_ENGINE_MAX_DEVICES];
    unsigned n_gpus;
    unsigned finalizers;     /* finalizer threads; 0: 2 */
    unsigned synth_threads;  /* 0: at pw <= 2 a pool each of CPUs / pw threads, at pw >= 3 one
                                pool of every CPU shared by the workers (with GPUs, one CPU
                                per GPU worker is left out first); N: a pool each of N */
    unsigned device_threads; /* threads of each device's pool; 0: with GPUs every CPU (the pool
                                only runs prove_start's host work), with CPU devices each
                                device's share (CPUs / devices, at least 1) */
    uint64_t budget_bytes;   /* host memory budget; 0: half of the machine's RAM */
    int verify;              /* self-check every proof: 1 on, 0 off, -1 on for multi-partition jobs */
    const char *trace_path;  /* Chrome trace-event JSON written at destroy; NULL: none */
    int debug;               /* nonzero: log stage events and counters to stderr */
    int backend;             /* a g16_backend_kind for the device stage; 0 (auto): every
                                CUDA device when a GPU is present, else the CPU */
    unsigned max_ahead;      /* partitions in synthesis or synthesized that no device worker
                                has taken yet, at most; 0: pw + 2 per device worker.  The
                                budget bounds bytes; this bounds how far synthesis runs ahead
                                of the devices (memory, and new page-locked buffers, held
                                for nothing) */
} g16_engine_config;

/* Fills *cfg with the defaults (all zero, verify -1). */
void g16_engine_config_default(g16_engine_config *cfg);

/* Sets cfg->gpus / n_gpus from a list like "0,1" (CUDA ordinals, each once, at most
 * G16_ENGINE_MAX_DEVICES).  Returns G16_OK or G16_ERR_ARG with the reason. */
g16_status g16_engine_parse_gpus(g16_engine_config *cfg, const char *list);

/* Out: out: a running engine (g16_engine_destroy).
 * Returns: G16_OK; G16_ERR_ARG for a worker count above 1024; G16_ERR_NOMEM or
 * G16_ERR_INTERNAL when memory or threads cannot be had. */
g16_status g16_engine_create(g16_engine **out, const g16_engine_config *cfg);

/* Stops the engine.  drain nonzero: waits for every job to end; zero: cancels
 * every job first.  Writes the trace file (when configured), joins every thread,
 * frees every buffer and drops every key reference.  Jobs not awaited are
 * forgotten.  NULL is ignored. */
void g16_engine_destroy(g16_engine *e, int drain);

typedef struct g16_partition {
    const struct g16_circuit *circuit; /* must outlive the job */
    const struct g16_witness *witness; /* its full assignment; must outlive the job */
    /* Instead of witness (witness NULL): a .g16w file the engine reads when the partition is
     * admitted to synthesis (its bytes charged from then, not before) and frees as soon as the
     * assignment is copied, keeping only the public inputs.  Copied at submit; checked then
     * by its header (g16_witness_peek); a file that fails to read fails the job. */
    const char *witness_path;
    /* Instead of both (witness and witness_path NULL): a producer the engine calls when the
     * partition is admitted to synthesis, on the synthesis stage's threads, to write the
     * assignment straight into the engine's own buffer (page-locked on a GPU engine): no
     * copy of the witness is held before or beside it, so it costs the budget nothing of
     * its own.  user must stay valid until the job has ended. */
    g16_witness_fill_fn witness_fill;
    void *witness_user;
} g16_partition;

/* Queues a job.  The engine takes a reference to key (released when the job ends).
 * Out: id: the job's id (> 0).
 * Returns: G16_OK; G16_ERR_ARG when n is 0, a witness does not fit its circuit or
 * the circuit does not fit the key; G16_ERR_NOMEM when one partition together with
 * the key can never fit in the budget (the message gives the bytes it needs) or
 * memory for the job's records cannot be had. */
g16_status g16_engine_submit(g16_engine *e, uint64_t *id, struct g16_key *key,
                             const g16_partition *parts, size_t n, g16_priority prio);

typedef enum g16_job_state {
    G16_JOB_QUEUED = 0,    /* no partition has started */
    G16_JOB_RUNNING = 1,
    G16_JOB_DONE = 2,      /* every proof made (and self-checked when on) */
    G16_JOB_FAILED = 3,    /* a stage failed: error, stage, message say why */
    G16_JOB_CANCELLED = 4
} g16_job_state;

typedef struct g16_job_status {
    g16_job_state state;
    g16_priority priority;
    uint32_t partitions;
    uint32_t synthesized;  /* partitions past synthesis */
    uint32_t proved;       /* partitions past the device stage */
    uint32_t finished;     /* partitions with their final proof */
    uint32_t retries;      /* proofs that failed the self-check and were redone on the CPU */
    g16_status error;      /* FAILED: the reason; CANCELLED: G16_ERR_CANCELLED */
    char stage[16];        /* FAILED: "synthesis", "device", "finalize" or "verify" */
    char message[256];     /* FAILED: partition, stage and the stage's error message */
    double queued_s;       /* seconds from submit to the first partition's start */
    double run_s;          /* seconds from submit to the end (so far, while running) */
} g16_job_status;

/* Out: st: the job's current status.  Returns G16_ERR_ARG for an unknown id. */
g16_status g16_engine_job_status(g16_engine *e, g16_job_status *st, uint64_t id);

/* Waits until the job ends or timeout_s seconds pass (timeout_s < 0: no limit).
 * Out: proofs: when the job is DONE, its 192·partitions bytes (cap at least that);
 *      st (may be NULL): the job's status at return.
 * Returns: G16_OK when the job is DONE; the job's error when it FAILED (stage and
 * reason in st and g16_last_error); G16_ERR_CANCELLED; G16_ERR_TIMEOUT when it has
 * not ended in time (it keeps running); G16_ERR_ARG for an unknown id or a cap too
 * small.  A job that ended is forgotten once awaited: its id becomes unknown. */
g16_status g16_engine_await(g16_engine *e, uint64_t id, double timeout_s, uint8_t *proofs,
                            size_t cap, g16_job_status *st);

/* As g16_engine_await, and (parts not NULL, parts_cap at least the job's partitions) each
 * partition's final stage and seconds per stage, as g16_engine_job_parts gives them: the job
 * is forgotten on return, so this is the last chance to read them. */
struct g16_part_status;
g16_status g16_engine_await_parts(g16_engine *e, uint64_t id, double timeout_s, uint8_t *proofs,
                                  size_t cap, g16_job_status *st, struct g16_part_status *parts,
                                  size_t parts_cap);

/* Cancels a job: its queued and waiting partitions are dropped at once, running ones
 * are released at their next stage boundary; the job ends CANCELLED when the last
 * one is released.  Returns G16_ERR_ARG for an unknown id; G16_OK otherwise (also
 * for a job that already ended, which keeps its state). */
g16_status g16_engine_cancel(g16_engine *e, uint64_t id);

/* ---------------------------------------------------------------------------
 * Per-partition progress (the daemon's per-partition status). */
typedef enum g16_part_stage {
    G16_PART_QUEUED = 0,    /* in the queue (also again after a failed self-check) */
    G16_PART_SYNTHESIS = 1, /* admitted: a, b, c being computed */
    G16_PART_WAITING = 2,   /* synthesized, waiting for a device worker */
    G16_PART_DEVICE = 3,    /* in g16_prove_start on a device */
    G16_PART_FINALIZE = 4,  /* queued for or in a finalizer (prove_finish, self-check) */
    G16_PART_DONE = 5,      /* its proof is made */
    G16_PART_FAILED = 6,    /* its job failed before its proof was made */
    G16_PART_CANCELLED = 7  /* its job was cancelled before its proof was made */
} g16_part_stage;
#define G16_PART_ACTIVE_STAGES 5 /* queued .. finalize: the stages time is spent in */

/* Returns: "queued", "synthesis", "waiting", "device", "finalize", "done", "failed",
 * "cancelled", or "?". */
const char *g16_part_stage_name(g16_part_stage s);

typedef struct g16_part_status {
    g16_part_stage stage;
    const char *stage_name; /* g16_part_stage_name(stage): a static string */
    uint32_t attempt;       /* 0 first try, 1 the CPU retry after a failed self-check */
    /* Seconds spent so far in queued, synthesis, waiting, device and finalize (indexed
     * by g16_part_stage), the current stage's time up to now included; a retried
     * partition adds its second pass to the same entries. */
    double stage_s[G16_PART_ACTIVE_STAGES];
} g16_part_status;

/* Out: out[0 .. partitions): each partition's stage and time per stage, in index order.
 * Returns: G16_OK; G16_ERR_ARG for an unknown (or already awaited) id, or when cap is
 * below the job's partition count (the message gives it). */
g16_status g16_engine_job_parts(g16_engine *e, uint64_t id, g16_part_status *out, size_t cap);

/* ---------------------------------------------------------------------------
 * Key residency (the daemon's key tiers, its preload and evict endpoints). */

/* Holds key in the engine: charged to the budget from now until g16_engine_key_drop
 * (not only while jobs use it; jobs of a held key add no second charge), and with
 * upload nonzero copied to every device backend in the background (CUDA:
 * device-resident bases), so the first device stage finds it there.  The engine
 * keeps a reference to key while it is held.
 * Returns: G16_OK (also when already held: upload is then raised if asked);
 * G16_ERR_NOMEM when it cannot fit beside what is reserved now (the bytes needed and
 * free in the message; idle pool buffers are given back first); G16_ERR_ARG for a
 * NULL argument or a stopping engine. */
g16_status g16_engine_key_hold(g16_engine *e, g16_key *key, int upload);

/* Drops the hold: device copies are forgotten and the charge given back as soon as
 * no admitted partition uses the key (device copies: once no live job uses it either,
 * since those would only upload it again).  Returns G16_OK; G16_ERR_ARG when the key
 * is not held. */
g16_status g16_engine_key_drop(g16_engine *e, g16_key *key);

/* Charges bytes that the caller holds beside the engine's jobs (a service's snarkjs keys
 * and provers) to the engine's budget, so that the budget still bounds the process:
 * waits up to timeout_s seconds (0: not at all; < 0: without limit) for room, giving back
 * idle pool buffers first.  Partitions admitted meanwhile are not held back for it.
 * Returns: G16_OK; G16_ERR_NOMEM when it did not fit in time or can never fit (more than
 * the whole budget: at once), the bytes needed and free in the message; G16_ERR_ARG for
 * a NULL engine or a stopping one. */
g16_status g16_engine_reserve(g16_engine *e, uint64_t bytes, double timeout_s);
/* Gives back bytes charged by g16_engine_reserve (any split of them). */
void g16_engine_unreserve(g16_engine *e, uint64_t bytes);

/* Returns: 0 not held, 1 held in host memory, 2 held and resident on every device
 * (CPU-only engines report 1 for a held key). */
int g16_engine_key_tier(g16_engine *e, const g16_key *key);

/* The buffer tracker's counters: each has its current value and its peak. */
typedef enum g16_counter {
    G16_CTR_SYNTH = 0,    /* partitions in synthesis */
    G16_CTR_WAITING,      /* partitions synthesized and waiting for a device */
    G16_CTR_DEVICE,       /* partitions in the device stage */
    G16_CTR_FINAL,        /* pending proofs in (or queued for) the finalizers */
    G16_CTR_ABC_BYTES,    /* a, b, c evaluation buffers held */
    G16_CTR_ASSIGN_BYTES, /* assignment (z) buffers held */
    G16_CTR_AUX_BYTES,    /* density bitmaps and the pending proofs' copies */
    G16_CTR_PINNED_BYTES, /* buffers owned by the pinned pool (in use or idle) */
    G16_CTR_DEVICE_BYTES, /* working memory of the device stage (host for the CPU backend) */
    G16_CTR_KEY_BYTES,    /* proving keys held or used by admitted partitions */
    G16_CTR_CIRCUIT_BYTES, /* compiled circuits used by admitted partitions (once each) */
    G16_CTR_WITNESS_BYTES, /* witnesses of admitted partitions (once each) */
    G16_CTR_RESERVED_BYTES, /* everything charged to the budget */
    G16_CTR_EXTERNAL_BYTES, /* charged by the engine's user (g16_engine_reserve) */
    G16_CTR_COUNT
} g16_counter;

/* Returns: a short name for a counter ("synth", "abc_bytes", ...), or "?". */
const char *g16_counter_name(g16_counter c);

typedef struct g16_engine_stats {
    int64_t cur[G16_CTR_COUNT], peak[G16_CTR_COUNT];
    uint64_t budget_bytes;  /* as configured */
    uint64_t fixed_bytes;   /* the device backends' own host memory (context, staging), taken
                               off the budget at create: partitions and keys reserve at most
                               budget_bytes - fixed_bytes */
    uint64_t jobs_done, jobs_failed, jobs_cancelled;
    uint64_t proofs;        /* partitions proved and returned */
    uint64_t retries;       /* self-check failures redone on the CPU */
    double busy_s;          /* sum over devices of the time their lock was held */
    double synth_s, final_s, verify_s; /* summed over partitions: time in each stage's work */
    double active_s;        /* time with at least one job in the engine */
    double s_per_proof;     /* active_s / proofs (0 before the first proof) */
    double device_busy;     /* busy_s / (active_s · devices), 0 .. 1 */
    double device_busy_steady; /* busy_s / (Σ over devices of the span from its first
                                  device-stage start to its last end): the ramp-up (first
                                  synthesis) and the drain (last finalizers) left out */
    /* prove_start's parts summed over the device stages that ran on a device backend
     * (dev_proofs of them): H step, then the MSMs H, L, A, B1 and B2 (B2 only where the
     * backend runs it inside prove_start); the rest of busy_s is host work and waits. */
    double dev_part_s[6];
    uint64_t dev_proofs;
    unsigned devices, pw, gw;
    /* Per device (dev[0 .. devices)): a device whose backend fails a device stage
     * (G16_ERR_BACKEND) is taken out while another is left: no new work goes to it, the
     * partition it was proving (re-synthesized: its a, b, c may be consumed) and one
     * waiting for its lock go to the other devices, counted in reroutes.  The last
     * device left is kept: its errors fail their jobs, as on a one-device engine. */
    struct g16_device_stats {
        int gpu;            /* CUDA ordinal; -1 a CPU device */
        int failed;         /* taken out */
        double busy_s;      /* its lock held */
        double busy;        /* busy_s / active_s, 0 .. 1 */
        uint64_t stages;    /* device stages that ended with a pending proof on it */
        uint64_t errors;    /* device stages that failed on it */
    } dev[G16_ENGINE_MAX_DEVICES];
    unsigned devices_failed;
    uint64_t reroutes;      /* partitions moved off a failed device */
    uint64_t early_starts;  /* partitions a device started before their a, b, c were
                               synthesized (G16_ENGINE_EARLY, docs/engine.md) */
} g16_engine_stats;

/* Out: st: the counters and totals now. */
void g16_engine_stats_get(g16_engine *e, g16_engine_stats *st);

/* Frees the pinned pool's idle buffers and waits until every queued large free is
 * done, so that the byte counters show only what live partitions hold. */
void g16_engine_trim(g16_engine *e);

/* Writes a one-screen summary (s/proof, device busy %, peak of every counter). */
void g16_engine_stats_print(const g16_engine_stats *st, void *file /* FILE * */);

/* ---------------------------------------------------------------------------
 * Pipeline benchmark (`g16 bench pipeline`): one synthetic circuit, its witness
 * and a TEST-ONLY key (g16_setup), then jobs through engines of several settings. */
typedef struct g16_bench_pipeline g16_bench_pipeline;

/* Generates the circuit (profile, 2^log_n rows, n_pub inputs, seed) and its key.
 * Out: out: the bench context (g16_bench_pipeline_free). */
g16_status g16_bench_pipeline_prepare(g16_bench_pipeline **out, int profile, unsigned log_n, uint32_t n_pub,
                                      uint64_t seed);
void g16_bench_pipeline_free(g16_bench_pipeline *b);

typedef struct g16_bench_pipeline_result {
    g16_engine_stats stats;
    double wall_s;          /* submit of the first job to the end of the last */
    double s_per_proof;     /* wall_s / proofs */
    double bound_s;         /* s/proof the stage times allow with the workers that run side by side */
    uint64_t rss_proc;      /* resident bytes of the process before prepare made the circuit,
                               witness and key: what no job made it hold */
    uint64_t rss_base;      /* resident bytes before the engine started (key, circuit, witness) */
    uint64_t rss_peak;      /* highest resident bytes sampled during the run */
    uint64_t proofs;
    int all_verified;       /* every returned proof passed g16_verify_batch */
} g16_bench_pipeline_result;

/* Runs jobs × partitions proofs through an engine made from cfg (its pw, gw, budget,
 * verify, trace) and waits for all.  Out: res.
 * Returns: G16_OK, or the first job's error. */
g16_status g16_bench_pipeline_run(g16_bench_pipeline *b, g16_bench_pipeline_result *res,
                                  const g16_engine_config *cfg, unsigned jobs, unsigned partitions);

#ifdef __cplusplus
}
#endif
#endif
