/* PostgreSQL access for cluster mode (libpq): a small pool of connections shared by the HTTP
 * threads and the cluster's own threads, and one call that runs a statement with text
 * parameters, reconnecting and retrying while the server is away (a restart of PostgreSQL
 * must only pause the cluster, docs/cluster.md). */
#include <libpq-fe.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "common/error.h"
#include "service/pg.h"

#define POOL_MAX 16

struct svc_pg {
    char *conninfo;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    PGconn *idle[POOL_MAX];
    unsigned n_idle, open;
    double retry_s;           /* how long a call keeps retrying a lost server */
};

static double mono(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

g16_status svc_pg_open(svc_pg **out, const char *conninfo, double retry_s)
{
    svc_pg *p = calloc(1, sizeof *p);
    if (!p || !(p->conninfo = strdup(conninfo))) {
        free(p);
        return g16_fail(G16_ERR_NOMEM, "no memory");
    }
    pthread_mutex_init(&p->mu, NULL);
    pthread_cond_init(&p->cv, NULL);
    p->retry_s = retry_s;
    PGconn *c = svc_pg_connect(p);
    if (!c) {
        g16_status st = g16_fail(G16_ERR_IO, "--cluster: cannot connect: %s", g16_last_error());
        svc_pg_close(p);
        return st;
    }
    svc_pg_put(p, c);
    *out = p;
    return G16_OK;
}

void svc_pg_close(svc_pg *p)
{
    if (!p) return;
    for (unsigned i = 0; i < p->n_idle; i++) PQfinish(p->idle[i]);
    pthread_mutex_destroy(&p->mu);
    pthread_cond_destroy(&p->cv);
    free(p->conninfo);
    free(p);
}

PGconn *svc_pg_connect(svc_pg *p)
{
    PGconn *c = PQconnectdb(p->conninfo);
    if (PQstatus(c) != CONNECTION_OK) {
        g16_fail(G16_ERR_IO, "%s", PQerrorMessage(c));
        PQfinish(c);
        return NULL;
    }
    PQclear(PQexec(c, "SET client_min_messages = warning"));
    return c;
}

PGconn *svc_pg_get(svc_pg *p)
{
    pthread_mutex_lock(&p->mu);
    while (!p->n_idle && p->open >= POOL_MAX) pthread_cond_wait(&p->cv, &p->mu);
    PGconn *c = p->n_idle ? p->idle[--p->n_idle] : NULL;
    if (!c) p->open++;
    pthread_mutex_unlock(&p->mu);
    if (!c) c = svc_pg_connect(p); /* NULL while the server is away: calls reconnect */
    return c;
}

void svc_pg_put(svc_pg *p, PGconn *c)
{
    pthread_mutex_lock(&p->mu);
    if (c && PQstatus(c) == CONNECTION_OK && p->n_idle < POOL_MAX) {
        p->idle[p->n_idle++] = c;
    } else {
        if (c) PQfinish(c);
        if (p->open) p->open--;
    }
    pthread_cond_signal(&p->cv);
    pthread_mutex_unlock(&p->mu);
}

/* A lost connection (the server restarted or went away) rather than an error of the statement. */
static int lost(PGconn *c, PGresult *r)
{
    if (!c || PQstatus(c) != CONNECTION_OK) return 1;
    const char *state = r ? PQresultErrorField(r, PG_DIAG_SQLSTATE) : NULL;
    /* class 08: connection exception; 57P01..03: admin shutdown, crash shutdown, cannot connect now */
    return state && (!strncmp(state, "08", 2) || !strncmp(state, "57P0", 4));
}

PGresult *svc_pg_exec(svc_pg *p, PGconn **cp, const char *sql, int n, const char *const *params,
                      const int *lengths, const int *binary)
{
    double until = mono() + p->retry_s;
    for (;;) {
        PGresult *r = NULL;
        if (*cp) {
            /* no parameters: the simple protocol, which takes several statements at once */
            r = n ? PQexecParams(*cp, sql, n, NULL, params, lengths, binary, 0) : PQexec(*cp, sql);
            ExecStatusType es = PQresultStatus(r);
            if (es == PGRES_COMMAND_OK || es == PGRES_TUPLES_OK) return r;
            if (!lost(*cp, r)) {
                g16_fail(G16_ERR_IO, "PostgreSQL: %s", PQresultErrorMessage(r));
                PQclear(r);
                return NULL;
            }
            PQclear(r);
            PQfinish(*cp);
            *cp = NULL;
        }
        if (mono() > until) {
            g16_fail(G16_ERR_IO, "PostgreSQL unreachable for %.0f s", p->retry_s);
            return NULL;
        }
        usleep(100 * 1000);
        *cp = svc_pg_connect(p);
    }
}

g16_status svc_pg_run(svc_pg *p, PGconn **cp, const char *sql)
{
    PGresult *r = svc_pg_exec(p, cp, sql, 0, NULL, NULL, NULL);
    if (!r) return G16_ERR_IO;
    PQclear(r);
    return G16_OK;
}
