/* `g16 remote`: a client of g16d's HTTP API (docs/daemon.md) on libcurl. */
#include <curl/curl.h>
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"

static const char remote_usage[] =
    "usage: g16 remote COMMAND --url URL --token-file FILE [ARGS]\n"
    "\n"
    "A client of a g16d daemon.  URL: http://HOST:PORT or unix:PATH (a daemon listening\n"
    "on a unix socket); G16_URL and G16_TOKEN_FILE in the environment stand for the flags.\n"
    "\n"
    "  submit --key NAME --part C.g16c:W.g16w [--part ...] [--priority P] [--request-id R]\n"
    "                      queue a job; prints its id\n"
    "  submit --key NAME --post-kind winning|window --sector-size S --randomness HEX\n"
    "         --vanilla F.vproof [--vanilla ...] [--priority P] [--request-id R]\n"
    "                      queue a Filecoin PoSt from vanilla proofs (paths on the daemon's\n"
    "                      side); default priority critical (winning) / high (window)\n"
    "  status ID           the job as JSON\n"
    "  wait ID [--timeout S]   until the job ends (long polls); exit 0 done, 1 failed or\n"
    "                      cancelled, 2 error or timeout\n"
    "  cancel ID           cancel a job (or forget an ended one)\n"
    "  proof ID -o FILE    the job's 192-byte proofs, concatenated\n"
    "  jobs [--state S]    the jobs the daemon holds\n"
    "  server              GET /v1/status\n"
    "  metrics             GET /metrics (Prometheus text)\n"
    "  preload NAME | evict NAME   move a key to the hot tier / back to cold\n";

typedef struct conn {
    const char *url, *token_file;
    char token[1024];
} conn;

typedef struct body {
    char *p;
    size_t len;
} body;

static size_t on_data(char *ptr, size_t size, size_t n, void *user)
{
    body *b = user;
    size_t add = size * n;
    char *p = realloc(b->p, b->len + add + 1);
    if (!p) return 0;
    memcpy(p + b->len, ptr, add);
    b->p = p;
    b->len += add;
    b->p[b->len] = 0;
    return add;
}

/* One request.  Out: *code (HTTP status), *out (the body; free).  Returns 0, or -1 with a
 * message on stderr when the daemon could not be reached. */
static int request(const conn *c, const char *method, const char *path, const char *payload,
                   long *code, body *out, double timeout_s)
{
    CURL *h = curl_easy_init();
    if (!h) {
        fprintf(stderr, "g16 remote: libcurl did not start\n");
        return -1;
    }
    char url[2048], auth[1100];
    const char *base = c->url;
    if (!strncmp(base, "unix:", 5)) {
        curl_easy_setopt(h, CURLOPT_UNIX_SOCKET_PATH, base + 5);
        base = "http://localhost";
    }
    size_t bl = strlen(base);
    while (bl && base[bl - 1] == '/') bl--;
    snprintf(url, sizeof url, "%.*s%s", (int)bl, base, path);
    snprintf(auth, sizeof auth, "Authorization: Bearer %s", c->token);
    struct curl_slist *hd = curl_slist_append(NULL, auth);
    hd = curl_slist_append(hd, "Content-Type: application/json");
    curl_easy_setopt(h, CURLOPT_URL, url);
    curl_easy_setopt(h, CURLOPT_HTTPHEADER, hd);
    curl_easy_setopt(h, CURLOPT_CUSTOMREQUEST, method);
    if (payload) curl_easy_setopt(h, CURLOPT_POSTFIELDS, payload);
    curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, on_data);
    curl_easy_setopt(h, CURLOPT_WRITEDATA, out);
    curl_easy_setopt(h, CURLOPT_TIMEOUT_MS, (long)(timeout_s * 1000));
    curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
    CURLcode rc = curl_easy_perform(h);
    if (rc == CURLE_OK) curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, code);
    curl_slist_free_all(hd);
    curl_easy_cleanup(h);
    if (rc != CURLE_OK) {
        fprintf(stderr, "g16 remote: %s %s: %s\n", method, url, curl_easy_strerror(rc));
        return -1;
    }
    return 0;
}

/* Prints the daemon's error reply and returns CLI_ERROR. */
static int api_error(const char *what, long code, const body *b)
{
    json_t *o = b->p ? json_loads(b->p, 0, NULL) : NULL;
    const char *msg = json_string_value(json_object_get(json_object_get(o, "error"), "message"));
    fprintf(stderr, "g16 remote %s: HTTP %ld: %s\n", what, code, msg ? msg : b->p ? b->p : "");
    json_decref(o);
    return CLI_ERROR;
}

static int read_token(conn *c)
{
    FILE *f = fopen(c->token_file, "r");
    if (!f) {
        fprintf(stderr, "g16 remote: --token-file %s: %s\n", c->token_file, strerror(errno));
        return -1;
    }
    if (!fgets(c->token, sizeof c->token, f)) c->token[0] = 0;
    fclose(f);
    size_t n = strlen(c->token);
    while (n && (c->token[n - 1] == '\n' || c->token[n - 1] == '\r' || c->token[n - 1] == ' '))
        c->token[--n] = 0;
    return 0;
}

static int simple(const conn *c, const char *what, const char *method, const char *path, int want_json)
{
    long code = 0;
    body b = {0};
    if (request(c, method, path, NULL, &code, &b, 60)) return CLI_ERROR;
    int rc = CLI_OK;
    if (code >= 300) rc = api_error(what, code, &b);
    else if (b.p) fputs(b.p, stdout), fputs(want_json && b.len && b.p[b.len - 1] != '\n' ? "\n" : "", stdout);
    free(b.p);
    return rc;
}

static int submit(const conn *c, int argc, char **argv)
{
    json_t *parts = json_array(), *o = json_object(), *van = json_array(), *post = json_object();
    const char *key = NULL;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!v) {
            fprintf(stderr, "g16 remote submit: %s needs a value\n", a);
            goto bad;
        }
        i++;
        if (!strcmp(a, "--key")) {
            key = v;
        } else if (!strcmp(a, "--part")) {
            const char *colon = strchr(v, ':');
            if (!colon) {
                fprintf(stderr, "g16 remote submit: --part %s: expected CIRCUIT.g16c:WITNESS.g16w\n", v);
                goto bad;
            }
            json_array_append_new(parts, json_pack("{s:s%,s:s}", "circuit", v, (size_t)(colon - v),
                                                   "witness", colon + 1));
        } else if (!strcmp(a, "--post-kind")) {
            json_object_set_new(post, "kind", json_string(v));
        } else if (!strcmp(a, "--sector-size")) {
            json_object_set_new(post, "sector_size", json_string(v));
        } else if (!strcmp(a, "--randomness")) {
            json_object_set_new(post, "randomness", json_string(v));
        } else if (!strcmp(a, "--vanilla")) {
            json_array_append_new(van, json_string(v));
        } else if (!strcmp(a, "--priority")) {
            json_object_set_new(o, "priority", json_string(v));
        } else if (!strcmp(a, "--request-id")) {
            json_object_set_new(o, "request_id", json_string(v));
        } else {
            fprintf(stderr, "g16 remote submit: unknown option '%s'\n", a);
            goto bad;
        }
    }
    int is_post = json_object_size(post) || json_array_size(van);
    if (!key || !json_array_size(parts) == !is_post) {
        fprintf(stderr, "g16 remote submit: --key and either --part ... or a PoSt (--post-kind, --sector-size, "
                        "--randomness, --vanilla ...) are required\n");
        goto bad;
    }
    json_object_set_new(o, "key", json_string(key));
    if (is_post) {
        json_object_set(post, "vanilla", van); /* the daemon names what is missing or wrong */
        json_object_set(o, "post", post);
    } else {
        json_object_set(o, "partitions", parts);
    }
    char *payload = json_dumps(o, JSON_COMPACT);
    json_decref(o);
    json_decref(parts);
    json_decref(van);
    json_decref(post);
    long code = 0;
    body b = {0};
    int rc = request(c, "POST", "/v1/jobs", payload, &code, &b, 60) ? CLI_ERROR : CLI_OK;
    free(payload);
    if (rc == CLI_OK && code >= 300) rc = api_error("submit", code, &b);
    else if (rc == CLI_OK) {
        json_t *r = json_loads(b.p ? b.p : "", 0, NULL);
        const char *id = json_string_value(json_object_get(r, "id"));
        if (id) printf("%s\n", id);
        else rc = api_error("submit", code, &b);
        json_decref(r);
    }
    free(b.p);
    return rc;
bad:
    json_decref(o);
    json_decref(parts);
    json_decref(van);
    json_decref(post);
    return CLI_ERROR;
}

static int wait_job(const conn *c, const char *id, double timeout_s)
{
    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (;;) {
        struct timespec t;
        clock_gettime(CLOCK_MONOTONIC, &t);
        double left = timeout_s - (t.tv_sec - t0.tv_sec) - (t.tv_nsec - t0.tv_nsec) * 1e-9;
        if (timeout_s >= 0 && left <= 0) {
            fprintf(stderr, "g16 remote wait: job %s has not ended after %.0f s\n", id, timeout_s);
            return CLI_ERROR;
        }
        double w = timeout_s < 0 || left > 60 ? 60 : left;
        char path[256];
        snprintf(path, sizeof path, "/v1/jobs/%s?wait=%.3f", id, w);
        long code = 0;
        body b = {0};
        if (request(c, "GET", path, NULL, &code, &b, w + 30)) return CLI_ERROR;
        if (code >= 300) {
            int rc = api_error("wait", code, &b);
            free(b.p);
            return rc;
        }
        json_t *o = json_loads(b.p ? b.p : "", 0, NULL);
        const char *state = json_string_value(json_object_get(o, "state"));
        int rc = -1;
        if (state && !strcmp(state, "done")) rc = CLI_OK;
        else if (state && (!strcmp(state, "failed") || !strcmp(state, "cancelled"))) rc = CLI_INVALID;
        if (rc >= 0 || !state) {
            printf("%s\n", b.p ? b.p : "");
            if (!state) rc = CLI_ERROR;
        }
        json_decref(o);
        free(b.p);
        if (rc >= 0) return rc;
    }
}

static int proof(const conn *c, const char *id, const char *out)
{
    char path[256];
    snprintf(path, sizeof path, "/v1/jobs/%s/proof", id);
    long code = 0;
    body b = {0};
    if (request(c, "GET", path, NULL, &code, &b, 60)) return CLI_ERROR;
    int rc = CLI_OK;
    if (code >= 300) rc = api_error("proof", code, &b);
    else {
        FILE *f = fopen(out, "wb");
        if (!f || fwrite(b.p, 1, b.len, f) != b.len || fclose(f)) {
            fprintf(stderr, "g16 remote proof: %s: %s\n", out, strerror(errno));
            rc = CLI_ERROR;
        }
    }
    free(b.p);
    return rc;
}

int cli_remote(int argc, char **argv)
{
    if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        fputs(remote_usage, argc < 2 ? stderr : stdout);
        return argc < 2 ? CLI_ERROR : CLI_OK;
    }
    conn c = {getenv("G16_URL"), getenv("G16_TOKEN_FILE"), ""};
    const char *cmd = argv[1];
    /* take --url / --token-file out wherever they stand; the rest belongs to the command */
    char **rest = calloc((size_t)argc, sizeof *rest);
    int n = 0;
    if (!rest) return CLI_ERROR;
    for (int i = 2; i < argc; i++) {
        if ((!strcmp(argv[i], "--url") || !strcmp(argv[i], "--token-file")) && i + 1 < argc) {
            if (argv[i][2] == 'u') c.url = argv[++i];
            else c.token_file = argv[++i];
        } else {
            rest[n++] = argv[i];
        }
    }
    int rc = CLI_ERROR;
    if (!c.url || !c.token_file) {
        fprintf(stderr, "g16 remote: --url and --token-file are required (or G16_URL, G16_TOKEN_FILE)\n");
        goto out;
    }
    if (read_token(&c)) goto out;
    curl_global_init(CURL_GLOBAL_DEFAULT);
    char path[256];
    if (!strcmp(cmd, "submit")) rc = submit(&c, n, rest);
    else if (!strcmp(cmd, "status") && n == 1) {
        snprintf(path, sizeof path, "/v1/jobs/%s", rest[0]);
        rc = simple(&c, "status", "GET", path, 1);
    } else if (!strcmp(cmd, "wait") && (n == 1 || (n == 3 && !strcmp(rest[1], "--timeout")))) {
        rc = wait_job(&c, rest[0], n == 3 ? atof(rest[2]) : -1);
    } else if (!strcmp(cmd, "cancel") && n == 1) {
        snprintf(path, sizeof path, "/v1/jobs/%s", rest[0]);
        rc = simple(&c, "cancel", "DELETE", path, 1);
    } else if (!strcmp(cmd, "proof") && n == 3 && !strcmp(rest[1], "-o")) {
        rc = proof(&c, rest[0], rest[2]);
    } else if (!strcmp(cmd, "jobs") && (n == 0 || (n == 2 && !strcmp(rest[0], "--state")))) {
        snprintf(path, sizeof path, "/v1/jobs%s%s", n ? "?state=" : "", n ? rest[1] : "");
        rc = simple(&c, "jobs", "GET", path, 1);
    } else if (!strcmp(cmd, "server") && n == 0) {
        rc = simple(&c, "server", "GET", "/v1/status", 1);
    } else if (!strcmp(cmd, "metrics") && n == 0) {
        rc = simple(&c, "metrics", "GET", "/metrics", 0);
    } else if ((!strcmp(cmd, "preload") || !strcmp(cmd, "evict")) && n == 1) {
        snprintf(path, sizeof path, "/v1/keys/%s/%s", rest[0], cmd);
        rc = simple(&c, cmd, "POST", path, 1);
    } else {
        fprintf(stderr, "g16 remote: unknown command or arguments: %s\n%s", cmd, remote_usage);
    }
    curl_global_cleanup();
out:
    free(rest);
    return rc;
}
