/* PoSt jobs in g16d: {"post": {"kind": "winning" | "window", "sector_size": "32GiB",
 * "randomness": HEX, "vanilla": [PATH, ...]}} against a .params / .g16k key made for that
 * PoSt's partition.  The partitions are laid out from the vanilla proofs as
 * `g16 filecoin post-prove` does (post_plan.h: every path checked, short partitions padded)
 * and their witnesses are written straight from the proofs (post_job.h); the job's default
 * priority is its kind's (WinningPoSt CRITICAL, WindowPoSt HIGH).
 *
 * At submit the files are resolved inside the roots and parsed (a malformed proof is a 422
 * naming the file and the offset); the Merkle paths are hashed when the job runs, on its own
 * thread, since a WindowPoSt partition's 23,490 paths take seconds: a proof that does not
 * check out ends the job failed with the reason. */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "filecoin/post_job.h"
#include "service/service.h"

struct svc_post {
    g16_fc_post_kind kind;
    uint64_t sector_size;
    uint8_t randomness[32];
    char **vanilla;
    uint32_t n_vanilla;
    g16_fc_post_config cfg;
    g16_fc_post_job *fj; /* while in the engine: the vanilla proofs and the partitions */
};

void svc_post_free(svc_post *p)
{
    if (!p) return;
    for (uint32_t i = 0; p->vanilla && i < p->n_vanilla; i++) free(p->vanilla[i]);
    free(p->vanilla);
    g16_fc_post_job_free(p->fj);
    free(p);
}

g16_priority svc_post_priority(const svc_post *p) { return g16_fc_post_priority(p->kind); }

static int unhex(int c)
{
    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

static const char *kind_name(g16_fc_post_kind k) { return k == G16_FC_WINNING ? "winning" : "window"; }

g16_status svc_post_parse(svc_post **out, uint32_t *n_parts, const json_t *o, unsigned max_parts, char *err,
                          size_t errlen)
{
    *out = NULL;
    const char *field;
    json_t *v;
    if (!json_is_object(o)) {
        snprintf(err, errlen, "'post' must be an object {\"kind\", \"sector_size\", \"randomness\", \"vanilla\"}");
        return G16_ERR_FORMAT;
    }
    json_object_foreach((json_t *)o, field, v) {
        if (strcmp(field, "kind") && strcmp(field, "sector_size") && strcmp(field, "randomness") &&
            strcmp(field, "vanilla")) {
            snprintf(err, errlen, "post: unknown field '%s' (kind, sector_size, randomness, vanilla)", field);
            return G16_ERR_FORMAT;
        }
    }
    svc_post *p = calloc(1, sizeof *p);
    if (!p) {
        snprintf(err, errlen, "no memory for the job");
        return G16_ERR_NOMEM;
    }
    const char *kind = json_string_value(json_object_get(o, "kind"));
    const char *size = json_string_value(json_object_get(o, "sector_size"));
    const char *rnd = json_string_value(json_object_get(o, "randomness"));
    const json_t *van = json_object_get(o, "vanilla");
    size_t nv = json_array_size(van);
    g16_status st = G16_ERR_FORMAT;
    if (!kind || (strcmp(kind, "winning") && strcmp(kind, "window"))) {
        snprintf(err, errlen, "post.kind must be \"winning\" or \"window\"");
        goto bad;
    }
    p->kind = !strcmp(kind, "winning") ? G16_FC_WINNING : G16_FC_WINDOW;
    if (!size || g16_fc_parse_sector_size(&p->sector_size, size) != G16_OK ||
        g16_fc_post_config_for(&p->cfg, p->kind, p->sector_size) != G16_OK) {
        snprintf(err, errlen, "post.sector_size must be one of 2KiB, 8MiB, 512MiB, 32GiB, 64GiB (or its bytes)%s%s",
                 size ? ", not " : "", size ? size : "");
        goto bad;
    }
    if (!rnd || strlen(rnd) != 64) {
        snprintf(err, errlen, "post.randomness must be 64 hex digits (32 bytes)");
        goto bad;
    }
    for (int i = 0; i < 32; i++) {
        int hi = unhex(rnd[2 * i]), lo = unhex(rnd[2 * i + 1]);
        if (hi < 0 || lo < 0) {
            snprintf(err, errlen, "post.randomness must be 64 hex digits (32 bytes)");
            goto bad;
        }
        p->randomness[i] = (uint8_t)(hi << 4 | lo);
    }
    /* WinningPoSt proves the one sector its challenge picked; WindowPoSt cfg.sectors a
     * partition, the last one padded */
    uint64_t max_v = p->kind == G16_FC_WINNING ? 1 : (uint64_t)max_parts * p->cfg.sectors;
    if (!json_is_array(van) || nv == 0 || nv > max_v) {
        snprintf(err, errlen, "post.vanilla must be an array of %s%llu vanilla proof paths (%s)",
                 p->kind == G16_FC_WINNING ? "" : "1 to ", (unsigned long long)max_v,
                 p->kind == G16_FC_WINNING ? "WinningPoSt proves the sector its challenge picked"
                                           : "at most max_partitions partitions");
        goto bad;
    }
    p->vanilla = calloc(nv, sizeof *p->vanilla);
    if (!p->vanilla) {
        st = G16_ERR_NOMEM;
        snprintf(err, errlen, "no memory for the job");
        goto bad;
    }
    for (size_t i = 0; i < nv; i++) {
        const char *path = json_string_value(json_array_get(van, i));
        if (!path) {
            snprintf(err, errlen, "post.vanilla[%zu] must be a path", i);
            goto bad;
        }
        if (!(p->vanilla[i] = svc_strdup(path))) {
            st = G16_ERR_NOMEM;
            snprintf(err, errlen, "no memory for the job");
            goto bad;
        }
        p->n_vanilla = (uint32_t)i + 1;
    }
    *n_parts = p->kind == G16_FC_WINNING ? 1 : (uint32_t)((nv + p->cfg.sectors - 1) / p->cfg.sectors);
    *out = p;
    return G16_OK;
bad:
    svc_post_free(p);
    return st;
}

json_t *svc_post_json(const svc_post *p)
{
    char hex[65], size[24];
    for (int i = 0; i < 32; i++) sprintf(hex + 2 * i, "%02x", p->randomness[i]);
    snprintf(size, sizeof size, "%llu", (unsigned long long)p->sector_size);
    json_t *v = json_array();
    for (uint32_t i = 0; v && i < p->n_vanilla; i++) json_array_append_new(v, json_string(p->vanilla[i]));
    return json_pack("{s:s,s:s,s:s,s:o*}", "kind", kind_name(p->kind), "sector_size", size, "randomness", hex,
                     "vanilla", v);
}

const char *svc_post_kind_name(const svc_post *p)
{
    return p->kind == G16_FC_WINNING ? "winning-post" : "window-post";
}

g16_status svc_post_validate(g16_service *s, svc_post *p, int *http)
{
    for (uint32_t i = 0; i < p->n_vanilla; i++) {
        char *r = NULL;
        *http = 403;
        if (svc_path_resolve(s, &r, p->vanilla[i]) != G16_OK)
            return g16_fail_ctx(G16_ERR_ARG, "post.vanilla[%u]", i);
        free(p->vanilla[i]);
        p->vanilla[i] = r;
        /* the file's layout now, its paths' hashes when the job runs */
        *http = 422;
        g16_fc_vproof v;
        G16_TRY(g16_fc_vproof_read(&v, r) == G16_OK ? G16_OK : g16_fail_ctx(G16_ERR_ARG, "post.vanilla[%u]", i));
        g16_fc_vproof_free(&v);
    }
    return G16_OK;
}

/* The key must be one made for this PoSt's partition: its public inputs are the layout's. */
static g16_status key_fits(const svc_post *p, const g16_fc_layout *lay, const char *name, const g16_key *key)
{
    uint64_t want = (uint64_t)lay->circuit_sectors * lay->pub;
    if (g16_vk_inputs(g16_key_vk(key)) == want) return G16_OK;
    return g16_fail(G16_ERR_ARG, "key '%s' has %llu public inputs; a %s partition of %llu-byte sectors has %llu", name,
                    (unsigned long long)g16_vk_inputs(g16_key_vk(key)), kind_name(p->kind),
                    (unsigned long long)p->sector_size, (unsigned long long)want);
}

g16_status svc_post_submit(g16_service *s, svc_job *j, const svc_key *k, g16_key *key, uint64_t *engine_id)
{
    svc_post *p = j->post;
    g16_fc_vproof *v = calloc(p->n_vanilla, sizeof *v);
    if (!v) return g16_fail(G16_ERR_NOMEM, "no memory for %u vanilla proofs", p->n_vanilla);
    uint32_t nread = 0;
    g16_status st = G16_OK;
    for (; st == G16_OK && nread < p->n_vanilla; nread++) st = g16_fc_vproof_read(&v[nread], p->vanilla[nread]);
    if (st != G16_OK) nread--; /* the failed one holds nothing */
    g16_fc_sector_ref *refs = NULL;
    unsigned parts = 0;
    if (st == G16_OK) st = g16_fc_post_plan(&refs, &parts, &p->cfg, v, p->n_vanilla, p->randomness);
    if (st == G16_OK && parts != j->n_parts)
        st = g16_fail(G16_ERR_INTERNAL, "the vanilla proofs make %u partitions, the job was taken for %u", parts,
                      j->n_parts);
    g16_fc_layout lay;
    if (st == G16_OK) st = g16_fc_layout_for(&lay, &p->cfg);
    if (st == G16_OK) st = key_fits(p, &lay, j->key, key);
    /* the engine writes each partition's witness into its own buffer when the partition's
     * turn comes (charged there with the partition): the job keeps the vanilla proofs */
    g16_fc_post_job *fj = NULL;
    if (st == G16_OK) st = g16_fc_post_submit(&fj, s->engine, key, &p->cfg, refs, parts, (int)j->prio);
    free(refs);
    if (st == G16_OK) {
        g16_fc_post_job_own(fj, v, nread);
    } else {
        for (uint32_t i = 0; i < nread; i++) g16_fc_vproof_free(&v[i]);
        free(v);
    }
    if (st != G16_OK) return st;
    g16_fc_post_job_free(p->fj);
    p->fj = fj;
    *engine_id = fj->id;
    return G16_OK;
}

void svc_post_inputs(svc_job *j)
{
    const g16_fc_post_job *fj = j->post->fj;
    if (!fj) return;
    g16_circuit_info ci;
    g16_circuit_get_info(&ci, fj->circuit);
    uint8_t *in = malloc(32ull * ci.n_pub * j->n_parts + 1);
    if (!in) return;
    for (uint32_t p = 0; p < j->n_parts; p++)
        if (g16_fc_post_job_inputs(fj, p, in + 32ull * p * ci.n_pub) != G16_OK) {
            free(in);
            return;
        }
    free(j->inputs);
    j->inputs = in;
    j->n_inputs = ci.n_pub;
}

void svc_post_release(svc_job *j)
{
    svc_post *p = j->post;
    g16_fc_post_job_free(p->fj);
    p->fj = NULL;
}

/* ---------------------------------------------------------------- the job's thread */
/* A PoSt job's thread: lays out its partitions and writes their witnesses from the vanilla
 * proofs (seconds for a WindowPoSt: not on the dispatcher), submits them, then waits as
 * svc_job_waiter_main. */
void *svc_post_main(void *arg)
{
    svc_waiter *w = arg;
    g16_service *s = w->s;
    svc_job *j = w->j;
    pthread_mutex_lock(&s->mu);
    g16_key *key = w->k->key; /* loaded while the job uses it (k->users) */
    g16_key_retain(key);
    pthread_mutex_unlock(&s->mu);
    uint64_t eid = 0;
    g16_status st = svc_post_submit(s, j, w->k, key, &eid);
    char msg[512];
    snprintf(msg, sizeof msg, "%s", st == G16_OK ? "" : g16_last_error());
    g16_key_release(key);
    pthread_mutex_lock(&s->mu);
    if (st != G16_OK) {
        svc_post_release(j);
        w->k->users--;
        s->inflight--;
        if (j->stopping && !j->cancel) {
            svc_job_set_state(s, j, SVC_QUEUED); /* a shutdown came while it was laid out: it runs again */
        } else if (j->cancel) {
            svc_job_set_error(j, "cancelled", "cancelled by a client while it ran");
            svc_job_set_state(s, j, SVC_CANCELLED);
            if (svc_store_update(s, j) != G16_OK) svc_log(s, "error", j->id, "%s", g16_last_error());
        } else {
            int bad_input = st == G16_ERR_ARG || st == G16_ERR_FORMAT || st == G16_ERR_UNSATISFIED;
            svc_job_fail_locked(s, j, bad_input ? "invalid_input" : g16_status_str(st), msg);
        }
        pthread_mutex_unlock(&s->mu);
        free(w);
        return NULL;
    }
    j->engine_id = eid;
    if (j->cancel || j->stopping) g16_engine_cancel(s->engine, eid);
    pthread_mutex_unlock(&s->mu);
    return svc_job_waiter_main(w);
}

/* ---------------------------------------------------------------- cluster mode */
g16_status svc_post_part(g16_service *s, const char *post_json, uint32_t idx, uint32_t n_parts, const char *key_name,
                         g16_key *key, g16_priority prio, g16_fc_post_job **job)
{
    *job = NULL;
    json_error_t je;
    json_t *o = json_loads(post_json ? post_json : "", 0, &je);
    svc_post *p = NULL;
    uint32_t parts = 0;
    char err[512];
    g16_status st = o ? svc_post_parse(&p, &parts, o, n_parts, err, sizeof err)
                      : g16_fail(G16_ERR_FORMAT, "the stored PoSt request does not parse: %s", je.text);
    json_decref(o);
    if (o && st != G16_OK) return g16_fail(st, "the stored PoSt request: %s", err);
    if (st != G16_OK) return st;
    if (parts != n_parts) {
        svc_post_free(p);
        return g16_fail(G16_ERR_INTERNAL, "the stored PoSt makes %u partitions, the job has %u", parts, n_parts);
    }
    /* this partition's vanilla proofs alone: a node reads and hashes only what it proves */
    uint64_t first = 0, count = 0;
    g16_fc_vproof *v = NULL;
    uint64_t nread = 0;
    st = g16_fc_post_part_files(&first, &count, &p->cfg, p->n_vanilla, idx);
    if (st == G16_OK && !(v = calloc(count, sizeof *v))) st = g16_fail(G16_ERR_NOMEM, "no memory for %llu vanilla proofs",
                                                                       (unsigned long long)count);
    for (; st == G16_OK && nread < count; nread++)
        if ((st = g16_fc_vproof_read(&v[nread], p->vanilla[first + nread])) != G16_OK)
            g16_fail_ctx(st, "post.vanilla[%llu]", (unsigned long long)(first + nread));
    if (st != G16_OK && nread) nread--; /* the failed one holds nothing */
    g16_fc_sector_ref *refs = NULL;
    if (st == G16_OK) st = g16_fc_post_plan_one(&refs, &p->cfg, v, count, first, p->randomness);
    g16_fc_layout lay;
    if (st == G16_OK) st = g16_fc_layout_for(&lay, &p->cfg);
    if (st == G16_OK) st = key_fits(p, &lay, key_name, key);
    /* as on one machine (svc_post_submit): the engine writes the witness into the partition's
     * own buffer at its turn, charged with it, so nothing is charged or copied here */
    if (st == G16_OK) st = g16_fc_post_submit(job, s->engine, key, &p->cfg, refs, 1, (int)prio);
    free(refs);
    if (st == G16_OK) {
        g16_fc_post_job_own(*job, v, nread);
    } else {
        for (uint64_t i = 0; i < nread; i++) g16_fc_vproof_free(&v[i]);
        free(v);
    }
    svc_post_free(p);
    return st;
}
