/* PostgreSQL access for the service's cluster mode (pg.c). */
#ifndef G16_SERVICE_PG_H
#define G16_SERVICE_PG_H

#include <libpq-fe.h>
#include <pthread.h>

#include "g16.h"

typedef struct svc_pg svc_pg;

/* Connects once to check conninfo.  retry_s: how long a statement keeps retrying while the
 * server is unreachable.  Returns G16_OK or G16_ERR_IO with libpq's message. */
g16_status svc_pg_open(svc_pg **out, const char *conninfo, double retry_s);
void svc_pg_close(svc_pg *p);

/* A new connection outside the pool (the LISTEN connection); NULL with a message on failure. */
PGconn *svc_pg_connect(svc_pg *p);

/* A connection from the pool (NULL while the server is away: svc_pg_exec reconnects), and back. */
PGconn *svc_pg_get(svc_pg *p);
void svc_pg_put(svc_pg *p, PGconn *c);

/* Runs sql with n text parameters (lengths/binary may be NULL; n = 0: sql may hold several
 * statements) on *cp, reconnecting *cp and
 * retrying while the connection is lost, for up to the pool's retry_s.
 * Returns: the result (PQclear it), or NULL with the error in g16_last_error (a statement's
 * error is not retried). */
PGresult *svc_pg_exec(svc_pg *p, PGconn **cp, const char *sql, int n, const char *const *params,
                      const int *lengths, const int *binary);
/* As svc_pg_exec for a statement without parameters or rows.  Returns G16_OK or G16_ERR_IO. */
g16_status svc_pg_run(svc_pg *p, PGconn **cp, const char *sql);

#endif
