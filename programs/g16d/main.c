/* g16d: the proving daemon.  Settings from flags and/or a JSON config file (same names),
 * then libg16's service (include/g16_service.h) until SIGTERM or SIGINT; systemd's notify
 * protocol tells READY once the configured keys are loaded.  docs/daemon.md. */
#include <errno.h>
#include <jansson.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <systemd/sd-daemon.h>

#include "g16.h"
#include "g16_service.h"

static const char usage[] =
    "usage: g16d [--config FILE] [OPTIONS]\n"
    "\n"
    "The g16 proving daemon: an HTTP/JSON API over the proving engine (docs/daemon.md).\n"
    "Every option can also be given in the JSON config file under the name in brackets;\n"
    "options on the command line win, and repeatable ones add to the file's lists.\n"
    "\n"
    "  --config FILE         JSON object of the settings below\n"
    "  --listen ADDR         HOST:PORT or unix:PATH (127.0.0.1:7616) [listen]; PORT 0 takes a\n"
    "                        free port; the bound address is written to DATA_DIR/g16d.addr\n"
    "  --data-dir DIR        job store, key caches (required) [data_dir]\n"
    "  --token-file FILE     the bearer token, first line (required) [token_file]\n"
    "  --root DIR            a folder whose files requests may name; repeatable [roots]\n"
    "  --key NAME=PATH       a proving key (.params, cached in DIR; a .g16k; a .zkey); repeatable\n"
    "                        [keys: {NAME: PATH}]\n"
    "  --pw N --gw N         synthesis workers, device workers per device [pw, gw]\n"
    "  --devices N           devices (default: every GPU, or one CPU device) [devices]\n"
    "  --gpus LIST           these GPUs, one device each, e.g. 0,1 (default: every GPU) [gpus]\n"
    "  --backend NAME        cpu | cuda | auto [backend]\n"
    "  --budget BYTES        host memory budget, K/M/G suffixes (half the RAM) [budget]\n"
    "  --max-queued N        jobs queued or running at once (1000) [max_queued]\n"
    "  --max-partitions N    partitions in one job (256) [max_partitions]\n"
    "  --max-connections N   open connections (128) [max_connections]\n"
    "  --max-body-kib N      request body size (1024) [max_body_kib]\n"
    "  --timeout S           idle connection timeout (30) [timeout]\n"
    "  --retention S         finished jobs kept after their proof is fetched (3600) [retention]\n"
    "  --grace S             on SIGTERM, seconds running jobs get to end (60) [grace]\n"
    "  --log-format FMT      text | json (text) [log_format]\n"
    "  --cluster URL         a PostgreSQL connection string: jobs shared by every node\n"
    "                        with the same URL, partitions claimed under leases\n"
    "                        (docs/cluster.md) [cluster]\n"
    "  --node-name NAME      this node's name in the cluster (HOSTNAME/ADDRESS) [node_name]\n"
    "  --lease S             a claimed partition's lease, renewed every S/3 (10) [lease]\n"
    "  --version, --help\n";

#define MAX_LIST 64

typedef struct settings {
    g16_service_config cfg;
    const char *roots[MAX_LIST];
    g16_service_key keys[MAX_LIST];
    size_t n_roots, n_keys;
    const char *token_file;
    double grace;
    json_t *file; /* keeps the config file's strings alive */
    char *owned[2 * MAX_LIST + 64]; /* strings made here (key names, numbers as text) */
    size_t n_owned;
} settings;

/* Keeps s for the settings' life (freed at exit); NULL when out of room or memory. */
static char *own(settings *st, char *s)
{
    if (!s || st->n_owned == sizeof st->owned / sizeof *st->owned) {
        free(s);
        return NULL;
    }
    return st->owned[st->n_owned++] = s;
}

static int fail(const char *fmt, const char *a, const char *b)
{
    fprintf(stderr, "g16d: ");
    fprintf(stderr, fmt, a, b);
    fputc('\n', stderr);
    return 2;
}

static int parse_bytes(uint64_t *out, const char *s)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || v < 0 || errno) return -1;
    double m = 1;
    if (*end == 'K' || *end == 'k') m = 1024.0, end++;
    else if (*end == 'M' || *end == 'm') m = 1048576.0, end++;
    else if (*end == 'G' || *end == 'g') m = 1073741824.0, end++;
    else if (*end == 'T' || *end == 't') m = 1099511627776.0, end++;
    if (*end == 'i' && end[1] == 'B') end += 2;
    else if (*end == 'B') end++;
    if (*end || v * m > 1.8e19) return -1;
    *out = (uint64_t)(v * m);
    return 0;
}

static int parse_uint(unsigned *out, const char *s, unsigned max)
{
    char *end;
    errno = 0;
    unsigned long v = strtoul(s, &end, 10);
    if (end == s || *end || errno || v > max || s[0] == '-') return -1;
    *out = (unsigned)v;
    return 0;
}

static int parse_secs(double *out, const char *s)
{
    char *end;
    double v = strtod(s, &end);
    if (end == s || *end || !(v >= 0) || v > 1e9) return -1;
    *out = v;
    return 0;
}

static int add_key(settings *st, const char *spec)
{
    const char *eq = strchr(spec, '=');
    if (!eq || eq == spec || !eq[1]) return fail("--key %s: expected NAME=PATH%s", spec, "");
    if (st->n_keys == MAX_LIST) return fail("--key %s: at most 64 keys%s", spec, "");
    char *name = own(st, strndup(spec, (size_t)(eq - spec)));
    if (!name) return 2;
    st->keys[st->n_keys++] = (g16_service_key){name, eq + 1};
    return 0;
}

/* One setting by name, from the command line or the config file (value as text). */
static int apply(settings *st, const char *name, const char *v)
{
    g16_service_config *c = &st->cfg;
    if (!strcmp(name, "listen")) c->listen = v;
    else if (!strcmp(name, "data_dir")) c->data_dir = v;
    else if (!strcmp(name, "token_file")) st->token_file = v;
    else if (!strcmp(name, "roots") || !strcmp(name, "root")) {
        if (st->n_roots == MAX_LIST) return fail("--root %s: at most 64 roots%s", v, "");
        st->roots[st->n_roots++] = v;
    } else if (!strcmp(name, "key")) return add_key(st, v);
    else if (!strcmp(name, "pw")) { if (parse_uint(&c->engine.pw, v, 1024)) goto bad; }
    else if (!strcmp(name, "gw")) { if (parse_uint(&c->engine.gw, v, 1024)) goto bad; }
    else if (!strcmp(name, "devices")) { if (parse_uint(&c->engine.devices, v, 1024)) goto bad; }
    else if (!strcmp(name, "gpus")) { if (g16_engine_parse_gpus(&c->engine, v) != G16_OK) goto bad; }
    else if (!strcmp(name, "backend")) {
        g16_backend_kind k;
        if (g16_backend_parse(v, &k) != G16_OK) goto bad;
        c->engine.backend = (int)k;
    } else if (!strcmp(name, "budget")) { if (parse_bytes(&c->engine.budget_bytes, v)) goto bad; }
    else if (!strcmp(name, "max_queued")) { if (parse_uint(&c->max_queued, v, 10000000)) goto bad; }
    else if (!strcmp(name, "max_partitions")) { if (parse_uint(&c->max_partitions, v, 65536)) goto bad; }
    else if (!strcmp(name, "max_connections")) { if (parse_uint(&c->max_connections, v, 65536)) goto bad; }
    else if (!strcmp(name, "max_body_kib")) { if (parse_uint(&c->max_body_kib, v, 1 << 20)) goto bad; }
    else if (!strcmp(name, "timeout")) { if (parse_uint(&c->conn_timeout_s, v, 86400)) goto bad; }
    else if (!strcmp(name, "retention")) { if (parse_secs(&c->retention_s, v)) goto bad; }
    else if (!strcmp(name, "grace")) { if (parse_secs(&st->grace, v)) goto bad; }
    else if (!strcmp(name, "cluster")) c->cluster = v;
    else if (!strcmp(name, "node_name")) c->node_name = v;
    else if (!strcmp(name, "lease")) { if (parse_secs(&c->lease_s, v) || c->lease_s < 1) goto bad; }
    else if (!strcmp(name, "log_format")) {
        if (strcmp(v, "text") && strcmp(v, "json")) goto bad;
        c->log_json = !strcmp(v, "json");
    } else {
        return fail("unknown setting '%s'%s (g16d --help)", name, "");
    }
    return 0;
bad:
    return fail("%s: bad value '%s' (g16d --help)", name, v);
}

static int read_config(settings *st, const char *path)
{
    json_error_t e;
    st->file = json_load_file(path, JSON_REJECT_DUPLICATES, &e);
    if (!st->file) {
        fprintf(stderr, "g16d: %s: line %d, column %d: %s\n", path, e.line, e.column, e.text);
        return 2;
    }
    if (!json_is_object(st->file)) return fail("%s: expected a JSON object%s", path, "");
    const char *name;
    json_t *v;
    char num[64];
    json_object_foreach(st->file, name, v) {
        if (!strcmp(name, "roots")) {
            size_t i;
            json_t *r;
            if (!json_is_array(v)) return fail("%s: 'roots' must be an array of folders%s", path, "");
            json_array_foreach(v, i, r) {
                if (!json_is_string(r)) return fail("%s: 'roots' must be an array of folders%s", path, "");
                if (apply(st, "roots", json_string_value(r))) return 2;
            }
        } else if (!strcmp(name, "keys")) {
            const char *kn;
            json_t *kp;
            if (!json_is_object(v)) return fail("%s: 'keys' must be an object {NAME: PATH}%s", path, "");
            json_object_foreach(v, kn, kp) {
                if (!json_is_string(kp)) return fail("%s: key %s: the path must be a string", path, kn);
                if (st->n_keys == MAX_LIST) return fail("%s: at most 64 keys%s", path, "");
                char *name = own(st, strdup(kn));
                if (!name) return 2;
                st->keys[st->n_keys++] = (g16_service_key){name, json_string_value(kp)};
            }
        } else if (json_is_string(v)) {
            if (apply(st, name, json_string_value(v))) return 2;
        } else if (json_is_integer(v) || json_is_real(v)) {
            snprintf(num, sizeof num, "%.17g", json_number_value(v));
            char *copy = own(st, strdup(num)); /* the settings keep pointers to their values */
            if (!copy || apply(st, name, copy)) return 2;
        } else {
            return fail("%s: setting '%s' must be a string or a number", path, name);
        }
    }
    return 0;
}

static char *read_token(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "g16d: --token-file %s: %s\n", path, strerror(errno));
        return NULL;
    }
    struct stat sb;
    if (!fstat(fileno(f), &sb) && (sb.st_mode & 077))
        fprintf(stderr, "g16d: warning: --token-file %s is readable by other users (chmod 600)\n", path);
    char line[1024];
    char *tok = NULL;
    if (fgets(line, sizeof line, f)) {
        size_t n = strlen(line);
        while (n && (line[n - 1] == '\n' || line[n - 1] == '\r' || line[n - 1] == ' ')) line[--n] = 0;
        tok = strdup(line);
    }
    fclose(f);
    if (!tok || !*tok) fprintf(stderr, "g16d: --token-file %s: empty\n", path);
    return tok;
}

int main(int argc, char **argv)
{
    static settings st;
    g16_service_config_default(&st.cfg);
    st.grace = 60;
    /* the config file first, so that the command line wins */
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            fputs(usage, stdout);
            return 0;
        }
        if (!strcmp(argv[i], "--version")) {
            printf("g16d %s (%s)\n", g16_version(), g16_arith_path());
            return 0;
        }
        if (!strcmp(argv[i], "--config")) {
            if (i + 1 == argc) return fail("--config needs a FILE%s%s", "", "");
            if (read_config(&st, argv[i + 1])) return 2;
        }
    }
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--config")) {
            i++;
            continue;
        }
        if (strncmp(a, "--", 2) || i + 1 == argc)
            return fail("unexpected '%s'%s (g16d --help)", a, i + 1 == argc ? " (no value)" : "");
        char name[64];
        snprintf(name, sizeof name, "%s", a + 2);
        for (char *p = name; *p; p++)
            if (*p == '-') *p = '_';
        if (apply(&st, name, argv[++i])) return 2;
    }
    if (!st.cfg.data_dir) return fail("--data-dir is required%s%s", "", "");
    if (!st.token_file) return fail("--token-file is required%s%s", "", "");
    char *token = read_token(st.token_file);
    if (!token || !*token) return 2;
    st.cfg.token = token;
    st.cfg.roots = st.roots;
    st.cfg.n_roots = st.n_roots;
    st.cfg.keys = st.keys;
    st.cfg.n_keys = st.n_keys;

    /* every thread the service starts inherits this mask: the signals come to sigwait here */
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGTERM);
    sigaddset(&set, SIGINT);
    pthread_sigmask(SIG_BLOCK, &set, NULL);
    signal(SIGPIPE, SIG_IGN);

    g16_service *svc;
    g16_status s = g16_service_create(&svc, &st.cfg);
    if (s != G16_OK) {
        fprintf(stderr, "g16d: %s: %s\n", g16_status_str(s), g16_last_error());
        return 2;
    }
    printf("g16d: listening on %s\n", g16_service_address(svc));
    fflush(stdout);
    /* READY once the keys are loaded; a signal during the load stops at once */
    int sig = 0;
    struct timespec tick = {0, 200 * 1000000L};
    for (;;) {
        if (g16_service_wait_ready(svc, 0) == G16_OK) {
            sd_notifyf(0, "READY=1\nSTATUS=serving on %s", g16_service_address(svc));
            sigwait(&set, &sig);
            break;
        }
        if ((sig = sigtimedwait(&set, NULL, &tick)) > 0) break;
    }
    sd_notify(0, "STOPPING=1");
    g16_service_destroy(svc, st.grace);
    free(token);
    json_decref(st.file);
    for (size_t i = 0; i < st.n_owned; i++) free(st.owned[i]);
    return 0;
}
