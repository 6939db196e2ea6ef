/* Cluster mode of the service (docs/cluster.md): cluster.c (schema, the API's reads and writes)
 * and cluster_run.c (the node: claims under leases, heartbeats, the reaper, LISTEN/NOTIFY). */
#ifndef G16_SERVICE_CLUSTER_H
#define G16_SERVICE_CLUSTER_H

#include <jansson.h>

#include "service/pg.h"
#include "service/service.h"

/* cluster.c */
g16_status svc_cl_migrate(g16_service *s);
int svc_cl_schema(void); /* the schema version this g16d writes (its migrations' count) */
/* Stores a validated job and its partitions (one statement), or finds the job of its request_id.
 * Out: id_out, *existed.  Returns G16_OK or G16_ERR_IO. */
g16_status svc_cl_submit(g16_service *s, char id_out[SVC_ID_LEN + 1], int *existed, int *state, svc_job *d);
void svc_cl_get_job(g16_service *s, svc_reply *rep, const char *id, double wait);
/* file NULL: GET /proof; "proof" / "public": a snarkjs job's file of partition part. */
void svc_cl_proof(g16_service *s, svc_reply *rep, const char *id, const char *file, long part);
void svc_cl_cancel(g16_service *s, svc_reply *rep, const char *id);
void svc_cl_list(g16_service *s, svc_reply *rep, int state);
json_t *svc_cl_queue_json(g16_service *s);
void svc_cl_view(g16_service *s, svc_reply *rep);

/* cluster_run.c */
g16_status svc_cl_start(g16_service *s); /* registers the node, starts its threads */
void svc_cl_stop(g16_service *s);        /* stops claiming, gives back what it holds, joins */

#endif
