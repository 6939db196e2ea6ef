/* The service's life: settings checked, store opened and jobs recovered, engine and threads
 * started, the listener bound; and the graceful stop (docs/daemon.md, "Stopping"). */
#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "common/error.h"
#include "service/cluster.h"
#include "service/service.h"

double svc_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

void svc_wait(g16_service *s, double seconds)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    double t = ts.tv_sec + ts.tv_nsec * 1e-9 + (seconds > 0 ? seconds : 0);
    ts.tv_sec = (time_t)t;
    ts.tv_nsec = (long)((t - (double)ts.tv_sec) * 1e9);
    if (ts.tv_nsec >= 1000000000L) ts.tv_sec++, ts.tv_nsec -= 1000000000L;
    pthread_cond_timedwait(&s->cv, &s->mu, &ts);
}

char *svc_strdup(const char *s)
{
    if (!s) return NULL;
    size_t n = strlen(s) + 1;
    char *p = malloc(n);
    if (p) memcpy(p, s, n);
    return p;
}

void svc_log(g16_service *s, const char *level, const char *job, const char *fmt, ...)
{
    char msg[1024], ts[40];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    struct tm tm;
    gmtime_r(&now.tv_sec, &tm);
    size_t n = strftime(ts, sizeof ts, "%Y-%m-%dT%H:%M:%S", &tm);
    snprintf(ts + n, sizeof ts - n, ".%03ldZ", now.tv_nsec / 1000000);
    FILE *f = s->log ? s->log : stderr;
    if (s->cfg.log_json) {
        json_t *o = json_pack("{s:s,s:s,s:s}", "ts", ts, "level", level, "msg", msg);
        if (job) json_object_set_new(o, "job", json_string(job));
        char *line = o ? json_dumps(o, JSON_COMPACT) : NULL;
        json_decref(o);
        if (line) {
            flockfile(f);
            fprintf(f, "%s\n", line);
            fflush(f);
            funlockfile(f);
            free(line);
        }
        return;
    }
    flockfile(f);
    if (job) fprintf(f, "%s %s job %s: %s\n", ts, level, job, msg);
    else fprintf(f, "%s %s %s\n", ts, level, msg);
    fflush(f);
    funlockfile(f);
}

void g16_service_config_default(g16_service_config *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    g16_engine_config_default(&cfg->engine);
}

static int key_name_ok(const char *v)
{
    size_t n = v ? strlen(v) : 0;
    if (!n || n > 64) return 0;
    for (size_t i = 0; i < n; i++)
        if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.:-", v[i])) return 0;
    return 1;
}

static g16_status setup(g16_service *s, const g16_service_config *cfg)
{
    s->cfg = *cfg;
    g16_service_config *c = &s->cfg;
    if (!c->max_queued) c->max_queued = 1000;
    if (!c->max_partitions) c->max_partitions = 256;
    if (!c->max_connections) c->max_connections = 128;
    if (!c->max_body_kib) c->max_body_kib = 1024;
    if (!c->conn_timeout_s) c->conn_timeout_s = 30;
    if (!c->max_wait_s) c->max_wait_s = 300;
    if (c->retention_s <= 0) c->retention_s = 3600;
    if (c->keep_unfetched_s <= 0) c->keep_unfetched_s = 7 * 86400.0;
    s->lease_s = c->lease_s > 0 ? c->lease_s : 10;
    if (c->cluster && s->lease_s < 1) return g16_fail(G16_ERR_ARG, "--lease must be at least 1 s");
    s->log = c->log_file;
    if (!c->data_dir || !*c->data_dir) return g16_fail(G16_ERR_ARG, "--data-dir is required");
    if (!c->token || strlen(c->token) < 16)
        return g16_fail(G16_ERR_ARG, "a token of at least 16 characters is required (--token-file)");
    for (const char *p = c->token; *p; p++)
        if (*p <= ' ' || *p > '~') return g16_fail(G16_ERR_ARG, "the token must be printable ASCII without spaces");
    if (mkdir(c->data_dir, 0700) && errno != EEXIST)
        return g16_fail(G16_ERR_IO, "--data-dir %s: %s", c->data_dir, strerror(errno));
    char buf[PATH_MAX];
    if (!realpath(c->data_dir, buf)) return g16_fail(G16_ERR_IO, "--data-dir %s: %s", c->data_dir, strerror(errno));
    s->data_dir = svc_strdup(buf);
    s->token = svc_strdup(c->token);
    s->roots = calloc(c->n_roots + 1, sizeof *s->roots);
    if (!s->data_dir || !s->token || !s->roots) return g16_fail(G16_ERR_NOMEM, "no memory");
    for (size_t i = 0; i < c->n_roots; i++) {
        struct stat st;
        if (!realpath(c->roots[i], buf) || stat(buf, &st) || !S_ISDIR(st.st_mode))
            return g16_fail(G16_ERR_ARG, "--root %s: not a folder", c->roots[i]);
        s->roots[s->n_roots++] = svc_strdup(buf);
    }
    snprintf(buf, sizeof buf, "%s/keys", s->data_dir);
    if (mkdir(buf, 0700) && errno != EEXIST) return g16_fail(G16_ERR_IO, "%s: %s", buf, strerror(errno));
    s->keys = calloc(c->n_keys + 1, sizeof *s->keys);
    if (!s->keys) return g16_fail(G16_ERR_NOMEM, "no memory");
    for (size_t i = 0; i < c->n_keys; i++) {
        const g16_service_key *k = &c->keys[i];
        if (!key_name_ok(k->name))
            return g16_fail(G16_ERR_ARG, "--key %s: the name must be 1 to 64 of [A-Za-z0-9_.:-]",
                            k->name ? k->name : "");
        for (size_t j = 0; j < i; j++)
            if (!strcmp(c->keys[j].name, k->name))
                return g16_fail(G16_ERR_ARG, "--key %s: named twice", k->name);
        if (!k->path || !*k->path) return g16_fail(G16_ERR_ARG, "--key %s: no path", k->name);
        svc_key *sk = &s->keys[s->n_keys++];
        sk->name = svc_strdup(k->name);
        sk->path = svc_strdup(realpath(k->path, buf) ? buf : k->path);
        sk->zkey = svc_is_zkey_path(k->path);
        snprintf(buf, sizeof buf, "%s/keys/%s.g16k", s->data_dir, k->name);
        sk->cache_path = svc_strdup(buf);
        if (!sk->name || !sk->path || !sk->cache_path) return g16_fail(G16_ERR_NOMEM, "no memory");
    }
    return G16_OK;
}

static void add_loaded(g16_service *s, svc_job *j) { svc_job_recovered(s, j); }

/* The bound address in DATA_DIR/g16d.addr, for scripts and tests that asked for port 0. */
static void write_addr(g16_service *s)
{
    char path[PATH_MAX], tmp[PATH_MAX + 8];
    snprintf(path, sizeof path, "%s/g16d.addr", s->data_dir);
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *f = fopen(tmp, "w");
    if (!f) return;
    fprintf(f, "%s\n", s->addr);
    if (fclose(f) == 0) rename(tmp, path);
}

g16_status g16_service_create(g16_service **out, const g16_service_config *cfg)
{
    *out = NULL;
    g16_service *s = calloc(1, sizeof *s);
    if (!s) return g16_fail(G16_ERR_NOMEM, "no memory");
    pthread_mutex_init(&s->mu, NULL);
    pthread_mutex_init(&s->db_mu, NULL);
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_cond_init(&s->cv, &ca);
    pthread_condattr_destroy(&ca);
    s->listen_fd = -1;
    s->started_at = svc_now();
    g16_status st = setup(s, cfg);
    if (st == G16_OK && cfg->cluster) {
        /* a lost server is retried this long before a statement fails */
        st = svc_pg_open(&s->pg, cfg->cluster, 120);
        if (st == G16_OK) st = svc_cl_migrate(s);
    } else if (st == G16_OK) {
        st = svc_store_open(s);
        if (st == G16_OK) st = svc_store_load(s, add_loaded);
    }
    if (st == G16_OK) st = g16_engine_create(&s->engine, &s->cfg.engine);
    if (st != G16_OK) {
        char msg[1024];
        snprintf(msg, sizeof msg, "%s", g16_last_error());
        g16_service_destroy(s, 0);
        return g16_fail(st, "%s", msg);
    }
    g16_engine_stats es;
    g16_engine_stats_get(s->engine, &es);
    char desc[256];
    int cuda = s->cfg.engine.backend == G16_BACKEND_CUDA ||
               (s->cfg.engine.backend == G16_BACKEND_AUTO && g16_cuda_devices(desc, sizeof desc) > 0);
    s->devices_cuda = cuda ? es.devices : 0;
    s->max_inflight = es.pw + es.gw * es.devices + 1;
    if (s->n_jobs)
        svc_log(s, "info", NULL, "store: %zu job(s), %zu to run (%llu were running when the last process stopped)",
                s->n_jobs, s->n_active, (unsigned long long)s->m.recovered);
    if (!s->pg && pthread_create(&s->dispatcher, NULL, svc_dispatcher_main, s) == 0) s->have_dispatcher = 1;
    if (!s->pg && pthread_create(&s->janitor, NULL, svc_janitor_main, s) == 0) s->have_janitor = 1;
    if (pthread_create(&s->loader, NULL, svc_key_loader_main, s) == 0) s->have_loader = 1;
    if ((!s->pg && (!s->have_dispatcher || !s->have_janitor)) || !s->have_loader) {
        g16_service_destroy(s, 0);
        return g16_fail(G16_ERR_INTERNAL, "cannot start the service's threads");
    }
    st = svc_http_start(s);
    if (st != G16_OK) {
        char msg[1024];
        snprintf(msg, sizeof msg, "%s", g16_last_error());
        g16_service_destroy(s, 0);
        return g16_fail(st, "%s", msg);
    }
    if (s->pg) {
        char host[256] = "node";
        gethostname(host, sizeof host - 1);
        size_t n = strlen(host) + strlen(s->addr) + 2;
        s->node_name = cfg->node_name ? svc_strdup(cfg->node_name) : malloc(n);
        if (s->node_name && !cfg->node_name) snprintf(s->node_name, n, "%s/%s", host, s->addr);
        st = s->node_name ? svc_cl_start(s) : g16_fail(G16_ERR_NOMEM, "no memory");
        if (st != G16_OK) {
            char msg[1024];
            snprintf(msg, sizeof msg, "%s", g16_last_error());
            g16_service_destroy(s, 0);
            return g16_fail(st, "%s", msg);
        }
    }
    write_addr(s);
    svc_log(s, "info", NULL, "g16d %s listening on %s (%u device(s), %s, budget %llu bytes)", g16_version(),
            s->addr, es.devices, s->devices_cuda ? "cuda" : "cpu", (unsigned long long)es.budget_bytes);
    *out = s;
    return G16_OK;
}

const char *g16_service_address(const g16_service *s) { return s->addr; }

g16_status g16_service_wait_ready(g16_service *s, double timeout_s)
{
    double until = svc_now() + timeout_s;
    pthread_mutex_lock(&s->mu);
    while (!s->ready) {
        if (timeout_s < 0) {
            pthread_cond_wait(&s->cv, &s->mu);
            continue;
        }
        double left = until - svc_now();
        if (left <= 0) break;
        svc_wait(s, left < 0.5 ? left : 0.5);
    }
    int ready = s->ready;
    pthread_mutex_unlock(&s->mu);
    return ready ? G16_OK : g16_fail(G16_ERR_TIMEOUT, "the keys are still loading");
}

/* Waits (s->mu held) until no job is in the engine (cluster: no partition in work here) or
 * the deadline passes. */
static void wait_inflight(g16_service *s, double until)
{
    while ((s->pg ? s->cl.n_tasks : s->inflight) && svc_now() < until) svc_wait(s, 0.1);
}

void g16_service_destroy(g16_service *s, double grace_s)
{
    if (!s) return;
    svc_http_quiesce(s);
    pthread_mutex_lock(&s->mu);
    s->draining = 1; /* the dispatcher hands nothing more to the engine */
    pthread_cond_broadcast(&s->cv);
    unsigned busy = s->pg ? s->cl.n_tasks : s->inflight;
    if (s->engine && busy) {
        svc_log(s, "info", NULL, "stopping: %u %s in the engine get %.0f s to end", busy,
                s->pg ? "partition(s)" : "job(s)", grace_s);
        wait_inflight(s, svc_now() + grace_s);
    }
    s->stopping = 1;
    if (s->engine)
        for (size_t i = 0; i < s->table_cap; i++)
            for (svc_job *j = s->table[i]; j; j = j->hnext)
                if (j->state == SVC_RUNNING) {
                    j->stopping = 1;
                    j->halt = 1;
                    if (j->engine_id) g16_engine_cancel(s->engine, j->engine_id);
                }
    pthread_cond_broadcast(&s->cv);
    if (!s->pg) wait_inflight(s, svc_now() + 1e9);
    pthread_mutex_unlock(&s->mu);
    if (s->pg) svc_cl_stop(s); /* cancels what is left here and gives its claims back */
    if (s->have_dispatcher) pthread_join(s->dispatcher, NULL);
    if (s->have_janitor) pthread_join(s->janitor, NULL);
    if (s->have_loader) pthread_join(s->loader, NULL);
    svc_http_stop(s);
    svc_keys_free(s);
    if (s->engine) g16_engine_destroy(s->engine, 0);
    for (size_t i = 0; i < s->table_cap; i++) {
        svc_job *j = s->table[i];
        while (j) {
            svc_job *next = j->hnext;
            svc_job_free(j);
            j = next;
        }
    }
    free(s->table);
    if (s->addr) svc_log(s, "info", NULL, "stopped");
    svc_store_close(s);
    svc_pg_close(s->pg);
    free(s->node_name);
    free(s->instance);
    for (size_t i = 0; i < s->n_roots; i++) free(s->roots[i]);
    free(s->roots);
    free(s->data_dir);
    free(s->token);
    free(s->addr);
    pthread_mutex_destroy(&s->mu);
    pthread_mutex_destroy(&s->db_mu);
    pthread_cond_destroy(&s->cv);
    free(s);
}
