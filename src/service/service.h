/* Service internals shared by its files (docs/daemon.md):
 *   store.c    the durable job store (SQLite, WAL): a job is written before it is acknowledged
 *   paths.c    request paths confined to the configured roots
 *   keys.c     proving keys in tiers (cold on disk, warm in host memory, hot on the devices)
 *   jobs.c     the job table, the dispatcher into the engine and the waiters out of it
 *   sjobs.c    snarkjs jobs (.zkey keys), proved beside the engine
 *   post.c     Filecoin PoSt jobs: partitions laid out and witnesses written from vanilla proofs
 *   http.c     the HTTP server (libmicrohttpd): auth, limits, routing
 *   api.c      the endpoints' JSON (jansson)
 *   metrics.c  Prometheus text
 *   service.c  create/destroy, logs
 *
 * Locking: s->mu guards the job table, the queue, the keys' state and the counters; s->cv is
 * broadcast on every job state change and on stop.  File loading, proving and store writes
 * never run with s->mu held, except the short store writes that must be ordered with a state
 * change (submit, cancel).  s->db_mu serialises the store's one connection. */
#ifndef G16_SERVICE_SERVICE_H
#define G16_SERVICE_SERVICE_H

#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>

#include "g16.h"
#include "g16_service.h"

typedef struct sqlite3 sqlite3;
typedef struct json_t json_t;

/* ---------------------------------------------------------------- jobs */
typedef enum svc_state {
    SVC_QUEUED = 0,
    SVC_RUNNING = 1,
    SVC_DONE = 2,
    SVC_FAILED = 3,
    SVC_CANCELLED = 4
} svc_state;

const char *svc_state_name(svc_state st);
int svc_state_parse(const char *name); /* -1 for an unknown name */
const char *svc_prio_name(g16_priority p);

typedef struct svc_part {
    char *circuit, *witness; /* resolved absolute paths */
    /* files uploaded in the request (base64 in the body), until written under
     * DATA_DIR/uploads/ID/ at submit; then circuit/witness name them */
    uint8_t *up_circuit, *up_witness;
    size_t up_circuit_len, up_witness_len;
    unsigned uploaded;        /* bit 0: the circuit was uploaded, bit 1: the witness */
    /* while in the engine (the witness goes to it as a path) */
    struct g16_circuit *circ;
    /* at the end (kept in memory only): the engine's last word on the partition */
    int stage;                                 /* a g16_part_stage; -1 not known */
    double stage_s[G16_PART_ACTIVE_STAGES];
} svc_part;

#define SVC_ID_LEN 32 /* hex characters of a job id */

typedef struct svc_job {
    char id[SVC_ID_LEN + 1];
    char *request_id;          /* NULL when the client gave none */
    char *key;                 /* key name */
    g16_priority prio;
    svc_state state;
    uint64_t seq;              /* submit order (FIFO within a priority) */
    uint32_t n_parts;
    svc_part *parts;
    double created, started, finished, fetched; /* unix seconds; 0: not yet */
    unsigned attempts;         /* times handed to the engine (restarts count) */
    uint64_t engine_id;        /* while in the engine */
    int cancel;                /* cancel asked while in the engine */
    volatile int halt;         /* a snarkjs job's run stops between partitions (cancel or stop) */
    int stopping;              /* the engine job was cancelled by a shutdown */
    char err_code[32];
    char *err_msg;
    int zkey;                  /* a snarkjs job: partitions are .wtns files (witness), no circuit */
    struct svc_post *post;     /* a PoSt job (post.c): parts hold no paths, the vanilla proofs do */
    uint8_t *proof;            /* DONE: 192 · n_parts bytes, or (zkey) the JSON of proof.json and
                                  public.json of each partition */
    size_t proof_len;
    uint8_t *inputs;           /* public inputs, 32 bytes big-endian each, n_inputs per partition */
    uint32_t n_inputs;
    double queued_s, run_s;    /* from the engine's status at the end */
    struct svc_job *hnext;     /* hash chain */
} svc_job;

/* ---------------------------------------------------------------- keys */
typedef enum svc_tier { SVC_COLD = 0, SVC_WARM = 1, SVC_HOT = 2 } svc_tier;
const char *svc_tier_name(svc_tier t);

typedef struct svc_key {
    char *name, *path, *cache_path;
    int zkey;                  /* a snarkjs .zkey (sjobs.c), not held in the engine */
    struct g16_key *key;       /* NULL while cold */
    void *sj;                  /* zkey: the snarkjs proving key, NULL while cold */
    svc_tier tier;
    int loading;               /* a thread is loading it (others wait on s->cv) */
    unsigned users;            /* jobs in the engine using it */
    uint64_t bytes;            /* host bytes when loaded */
    double last_used;
    double load_s;             /* seconds the last load took */
    char from[16];             /* "params" or "cache": where the last load read the points */
    char *error;               /* the last load's failure, NULL if none */
} svc_key;

/* ---------------------------------------------------------------- metrics */
#define SVC_HIST_BUCKETS 12
typedef struct svc_hist {
    uint64_t count, bucket[SVC_HIST_BUCKETS];
    double sum;
} svc_hist;
extern const double svc_hist_bounds[SVC_HIST_BUCKETS];
void svc_hist_add(svc_hist *h, double v);

typedef struct svc_metrics {
    uint64_t finished[5];      /* by svc_state (DONE, FAILED, CANCELLED used) */
    uint64_t submitted, rejected, recovered;
    uint64_t http[6];          /* responses by class: 1xx .. 5xx (index 1..5) */
    svc_hist queued_s, run_s;  /* per job: submit → first partition, submit → end */
    svc_hist api_s;            /* per request handling time */
    svc_hist stage_s[G16_PART_ACTIVE_STAGES]; /* per partition, seconds in each engine stage */
    uint64_t key_loads, key_evictions, key_load_failures;
} svc_metrics;

/* ---------------------------------------------------------------- the service */
struct g16_service {
    g16_service_config cfg;    /* copied; strings below are owned copies */
    char *data_dir, *token, **roots, *addr;
    size_t n_roots;
    FILE *log;

    pthread_mutex_t mu;
    pthread_cond_t cv;
    int draining;  /* stopping: nothing more goes to the engine, submits get 503 */
    int stopping, ready;

    g16_engine *engine;
    unsigned devices_cuda;     /* devices running the CUDA backend (0: CPU) */

    svc_key *keys;
    size_t n_keys;

    svc_job **table;           /* hash table of every job held (any state) */
    size_t table_cap, n_jobs, n_active; /* active: queued or running */
    uint64_t next_seq;
    unsigned inflight;         /* jobs handed to the engine, not yet collected */
    unsigned max_inflight;
    unsigned n_queued[4];      /* queued jobs by priority */

    sqlite3 *db;
    pthread_mutex_t db_mu;

    pthread_t dispatcher, janitor, loader;
    int have_dispatcher, have_janitor, have_loader;

    /* cluster mode (cluster.c, cluster_run.c); pg NULL: one node with the SQLite store */
    struct svc_pg *pg;
    char *node_name, *instance;
    double lease_s;
    struct {
        struct svc_task *tasks; /* partitions claimed and in work here */
        unsigned n_tasks;
        int claiming;           /* a claim statement is in flight */
        pthread_t claimer, heart, listener;
        int have_claimer, have_heart, have_listener;
        uint64_t claimed, done, fenced, failed, lost, requeued, renewals;
    } cl;

    struct MHD_Daemon *http;
    int listen_fd;
    unsigned connections;      /* open HTTP connections */
    char *unix_path;

    svc_metrics m;
    double started_at;
};

/* service.c */
void svc_log(g16_service *s, const char *level, const char *job, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
double svc_now(void);        /* unix time, seconds */
/* With s->mu held: waits on s->cv for at most seconds (a broadcast ends it sooner). */
void svc_wait(g16_service *s, double seconds);
char *svc_strdup(const char *s);

/* store.c: every function returns G16_OK or G16_ERR_IO with the SQLite message. */
g16_status svc_store_open(g16_service *s);
void svc_store_close(g16_service *s);
g16_status svc_store_insert(g16_service *s, const svc_job *j);
g16_status svc_store_update(g16_service *s, const svc_job *j); /* state, times, error, proof */
g16_status svc_store_delete(g16_service *s, const char *id);
/* Calls add(s, job) for every stored job, oldest first; the job is the callee's. */
g16_status svc_store_load(g16_service *s, void (*add)(g16_service *, svc_job *));

/* paths.c: resolves path (symlinks too) and checks that it lies under a root and is a regular
 * readable file.  Out: *out (malloc'd).  Returns G16_ERR_ARG with the reason. */
g16_status svc_path_resolve(const g16_service *s, char **out, const char *path);

/* keys.c */
svc_key *svc_key_find(g16_service *s, const char *name); /* NULL: unknown */
/* With s->mu held: makes the key warm (or hot when want_hot and the engine has CUDA devices),
 * loading it and evicting idle keys by least recent use as the budget requires; waits while
 * another thread loads it.  Releases s->mu while loading.  Returns G16_OK or the reason. */
g16_status svc_key_acquire(g16_service *s, svc_key *k, int want_hot);
/* With s->mu held: back to cold (refused with G16_ERR_ARG while jobs use it). */
g16_status svc_key_evict(g16_service *s, svc_key *k);
/* Charges bytes beside the engine's jobs (snarkjs keys and proofs) to its budget, evicting
 * idle keys other than keep while they do not fit (G16_ERR_NOMEM when none is left).
 * s->mu held. */
g16_status svc_charge(g16_service *s, const svc_key *keep, uint64_t bytes);
void svc_keys_free(g16_service *s);
void *svc_key_loader_main(void *arg); /* loads every configured key at start, then ready */

/* jobs.c */
void svc_job_free(svc_job *j);
svc_job *svc_job_find(g16_service *s, const char *id); /* with s->mu held */
svc_job *svc_job_find_request(g16_service *s, const char *request_id);
void svc_job_insert(g16_service *s, svc_job *j);       /* into the table, with s->mu held */
void svc_job_remove(g16_service *s, svc_job *j);
void svc_new_id(char out[SVC_ID_LEN + 1]); /* 128 random bits in hex */
/* The submit-time checks of a draft job (key kind, paths inside the roots, files' headers).
 * Out: *http on failure.  Consumes nothing. */
g16_status svc_job_validate(g16_service *s, svc_job *d, int *http);
/* Validates and stores a new job (or returns the one with the same request_id).
 * Out: *out (in the table), *existed.  On failure *http is the status to answer. */
g16_status svc_job_submit(g16_service *s, svc_job **out, int *existed, int *http, svc_job *draft);
/* Removes DATA_DIR/uploads/ID and what it holds (a job's uploaded inputs).  */
void svc_uploads_remove(g16_service *s, const char *id);
/* Cancels (queued: at once; running: in the engine) or, once ended, forgets the job.
 * Out: *http: 200, 202 or 404. */
g16_status svc_job_cancel(g16_service *s, const char *id, int *http);
void svc_job_recovered(g16_service *s, svc_job *j);   /* store load callback */
void *svc_dispatcher_main(void *arg);
/* For the job kinds' threads (sjobs.c, post.c), with s->mu held: a state change (counts and
 * waiters kept), the error of a job, and a failure told to the store. */
void svc_job_set_state(g16_service *s, svc_job *j, svc_state st);
void svc_job_set_error(svc_job *j, const char *code, const char *msg);
void svc_job_fail_locked(g16_service *s, svc_job *j, const char *code, const char *msg);
/* A job's thread, its key acquired and counted as used (k->users) */
typedef struct svc_waiter {
    g16_service *s;
    svc_job *j;
    svc_key *k;
} svc_waiter;
/* Waits for the engine's job j->engine_id, then ends the svc job with its proofs; arg: a
 * malloc'd svc_waiter (freed). */
void *svc_job_waiter_main(void *arg);
/* Starts fn(svc_waiter {s, j, k}) on a detached thread (s->mu held; the key acquired and
 * counted as used); without memory or a thread the job fails. */
void svc_job_thread(g16_service *s, svc_job *j, svc_key *k, void *(*fn)(void *));
void *svc_janitor_main(void *arg);

/* sjobs.c: snarkjs jobs ({"wtns": PATH} partitions against a .zkey), proved beside the engine,
 * their memory charged to its budget */
int svc_is_zkey_path(const char *path);
g16_status svc_sj_key_load(void **pk, uint64_t *bytes, const char *path);
void svc_sj_key_free(void *pk);
uint32_t svc_sj_key_vars(const void *pk);
uint64_t svc_sj_proof_bytes(const void *pk); /* charged while one of its proofs runs */
const char *svc_sj_key_curve(const void *pk); /* snarkjs's name: "bls12381", "bn128" */
/* Reads a .wtns (of the curve of the key at key_path: a witness of the other curve is refused
 * by name) and, when want_vars is not 0, checks its length against the key's circuit. */
g16_status svc_sj_check_wtns(const char *path, const char *key_path, uint32_t want_vars);
/* Proves every partition; *json_out: {"partitions": [{"proof": {...}, "public": [...]}, ...]}.
 * scratch: a folder for the writers' files; *cancel nonzero stops between partitions. */
g16_status svc_sj_prove_job(char **json_out, g16_service *s, const svc_key *k, char *const *wtns,
                            uint32_t n_parts, const char *scratch, volatile int *cancel);
/* Charges need bytes a job holds beside the engine's partitions (a snarkjs proof, a PoSt's
 * witnesses) to its budget: evicts idle keys other than k, then waits for the engine's
 * partitions to give bytes back; gives up on *cancel, or at once when need can never fit
 * beside k (G16_ERR_NOMEM with the bytes).  Give back with g16_engine_unreserve. */
g16_status svc_charge_wait(g16_service *s, const svc_key *k, uint64_t need, volatile int *cancel);
/* A snarkjs job's thread (svc_job_thread): proves its partitions, then ends the job. */
void *svc_sj_main(void *arg);

/* post.c: PoSt jobs ({"post": {...}} against a .params / .g16k key of that PoSt's partition) */
typedef struct svc_post svc_post;
/* Reads the request's "post" object; max_parts caps WindowPoSt's partitions.  Out: *out,
 * *n_parts (WinningPoSt 1; WindowPoSt the vanilla proofs over the sectors a partition).
 * Returns G16_ERR_FORMAT / G16_ERR_NOMEM with err holding the 400's message. */
g16_status svc_post_parse(svc_post **out, uint32_t *n_parts, const json_t *o, unsigned max_parts, char *err,
                          size_t errlen);
void svc_post_free(svc_post *p);
json_t *svc_post_json(const svc_post *p); /* as svc_post_parse reads it (the store, GET) */
const char *svc_post_kind_name(const svc_post *p); /* "winning-post", "window-post" */
g16_priority svc_post_priority(const svc_post *p); /* the kind's default: CRITICAL, HIGH */
/* Submit-time checks: every vanilla proof's path inside the roots (resolved in place; *http
 * 403) and its file parsed (422, naming the file and offset). */
g16_status svc_post_validate(g16_service *s, svc_post *p, int *http);
/* With s->mu released: reads the vanilla proofs, lays out and checks the partitions, checks
 * the key's input count against them, writes the witnesses and submits one engine job.
 * Out: *engine_id.  G16_ERR_UNSATISFIED for a proof that does not check out. */
g16_status svc_post_submit(g16_service *s, svc_job *j, const svc_key *k, struct g16_key *key,
                           uint64_t *engine_id);
void svc_post_inputs(svc_job *j);  /* j->inputs from the witnesses, once the proofs are in */
void svc_post_release(svc_job *j); /* frees the witnesses (the engine's job has ended) */
/* A PoSt job's thread (svc_job_thread): svc_post_submit, then svc_job_waiter_main. */
void *svc_post_main(void *arg);
/* Cluster mode (cluster_run.c): partition idx of a stored PoSt job (post_json: its "post" as
 * svc_post_json wrote it; n_parts: the job's partitions), laid out from that partition's own
 * vanilla proofs (read and checked here, on the claiming node), the key's shape checked, and
 * submitted to the engine as a one-partition job at prio whose witness the engine writes at
 * its turn (g16_fc_post_submit).  Out: *job (await job->id, then g16_fc_post_job_free).
 * Returns G16_ERR_UNSATISFIED for a vanilla proof that does not check out, G16_ERR_ARG for a
 * key of another shape or a file that does not read, as svc_post_submit. */
struct g16_fc_post_job;
g16_status svc_post_part(g16_service *s, const char *post_json, uint32_t idx, uint32_t n_parts, const char *key_name,
                         struct g16_key *key, g16_priority prio, struct g16_fc_post_job **job);

/* http.c */
g16_status svc_http_start(g16_service *s);
void svc_http_quiesce(g16_service *s); /* stop accepting new connections */
void svc_http_stop(g16_service *s);

/* api.c: one request, already authenticated and read.  Out: *status, *body (malloc'd),
 * *ctype, *retry_after (seconds; 0 none).  */
typedef struct svc_reply {
    int status;
    char *body;
    size_t len;
    const char *ctype;
    unsigned retry_after;
} svc_reply;
void svc_api_handle(g16_service *s, svc_reply *r, const char *method, const char *url,
                    const char *query_wait, const char *query_state, const char *query_part,
                    const char *body, size_t len);
/* Reads a POST /v1/jobs body into a draft job (no file is opened: svc_job_validate checks the
 * paths).  Out: *out (svc_job_free) on G16_OK; else r holds the 400/503 reply saying why. */
g16_status svc_submit_parse(g16_service *s, svc_reply *r, struct svc_job **out, const char *body, size_t len);
/* A 'status' reply of the JSON o (taken; NULL or unprintable: 500). */
void svc_reply_json(svc_reply *r, int status, json_t *o);
/* A JSON error reply {"error": {"code": code, "message": ...}}. */
void svc_reply_error(svc_reply *r, int status, const char *code, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* metrics.c: the Prometheus text exposition. */
char *svc_metrics_text(g16_service *s, size_t *len);

#endif
