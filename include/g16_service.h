/* Public API of the proving service (what `g16d` runs): the engine behind an HTTP/JSON API,
 * with durable jobs (SQLite in the data dir), proving keys resident in tiers, Prometheus
 * metrics, a bearer token and hard limits on what a client can make it hold.
 * docs/daemon.md is the reference of the API and of every setting below. */
#ifndef G16_SERVICE_PUBLIC_H
#define G16_SERVICE_PUBLIC_H

#include "g16.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct g16_service g16_service;

typedef struct g16_service_key {
    const char *name; /* [A-Za-z0-9_.-]{1,64}: the name requests use */
    const char *path; /* a bellperson .params file (a .g16k key cache next to it is used) */
} g16_service_key;

typedef struct g16_service_config {
    const char *listen;        /* "HOST:PORT" (PORT 0: any free port) or "unix:PATH";
                                  NULL: "127.0.0.1:7616" */
    const char *data_dir;      /* job store, key caches, the bound address (required) */
    const char *token;         /* the bearer token every endpoint but /healthz needs (required,
                                  at least 16 characters) */
    const char *const *roots;  /* the only folders whose files requests may name */
    size_t n_roots;
    const g16_service_key *keys;
    size_t n_keys;
    g16_engine_config engine;  /* pw, gw, devices, budget, backend, ... */
    unsigned max_queued;       /* jobs queued or running at once; 0: 1000 (then 429) */
    unsigned max_partitions;   /* partitions in one job; 0: 256 */
    unsigned max_connections;  /* open HTTP connections; 0: 128 */
    unsigned max_body_kib;     /* request body; 0: 1024 KiB (then 413) */
    unsigned conn_timeout_s;   /* an idle or slow connection is closed after this; 0: 30 */
    unsigned max_wait_s;       /* cap on ?wait=S long polls; 0: 300 */
    double retention_s;        /* a finished job is kept this long after its proof was fetched;
                                  0: 3600 */
    double keep_unfetched_s;   /* ... and at most this long when never fetched; 0: 7 days */
    int log_json;              /* logs as JSON lines instead of text */
    const char *cluster;       /* a libpq connection string (postgresql://...): cluster mode, the
                                  jobs in PostgreSQL shared by every node (docs/cluster.md); NULL:
                                  one node, jobs in SQLite in the data dir */
    const char *node_name;     /* this node's name in the cluster; NULL: HOSTNAME/ADDRESS */
    double lease_s;            /* cluster: a claim's lease; 0: 10 s (renewed every lease/3) */
    void *log_file;            /* FILE * for the logs; NULL: stderr */
} g16_service_config;

/* Fills *cfg with the defaults (zeros, engine defaults). */
void g16_service_config_default(g16_service_config *cfg);

/* Opens the job store, starts the engine, binds the listener and starts serving; jobs that were
 * queued or running when the last process stopped are queued again; configured keys load in the
 * background (g16_service_wait_ready).
 * Returns: G16_OK; G16_ERR_ARG for a bad setting (the message names it); G16_ERR_IO when the
 * data dir, store or listener cannot be had. */
g16_status g16_service_create(g16_service **out, const g16_service_config *cfg);

/* Returns: the bound address, "127.0.0.1:PORT" or "unix:PATH". */
const char *g16_service_address(const g16_service *s);

/* Waits until every configured key has been loaded (or failed to), at most timeout_s seconds
 * (< 0: no limit).  Returns G16_OK when ready, G16_ERR_TIMEOUT. */
g16_status g16_service_wait_ready(g16_service *s, double timeout_s);

/* Stops gracefully: no new connections or jobs; jobs in the engine get grace_s seconds to end;
 * what has not ended by then is cancelled in the engine but stays queued in the store, so the
 * next start runs it again.  Then frees everything.  NULL is ignored. */
void g16_service_destroy(g16_service *s, double grace_s);

#ifdef __cplusplus
}
#endif
#endif
