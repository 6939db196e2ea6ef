/* g16d's request handling without sockets: the POST /v1/jobs body (svc_submit_parse: JSON,
 * fields, key names, partitions, base64 uploads) and then the submit-time checks of what it
 * accepted (svc_job_validate: path confinement to the roots, the files' headers), and request
 * paths alone (svc_path_resolve).  Input byte 0 picks: even, the rest is a body; odd, the rest
 * (to its first NUL) is a path.
 *
 * A fixed tree under /tmp/g16-fuzz-api (made at the first run; the dictionary names it):
 *   root/c.g16c, root/w.g16w   a small circuit and its witness (a valid partition)
 *   root/sub/, root/out -> ../outside/f, root/loop -> loop, outside/f
 * The service is a zeroed g16_service with that root, max_partitions 8 and two keys: "k" (a
 * .params key) and "z" (a snarkjs .zkey).  Checks: an accepted body has 1..8 partitions, a
 * known-shaped key name, a circuit and a witness per partition (a witness only for "z");
 * a path that validates, or that svc_path_resolve returns, lies under the root and is a
 * regular file. */
#include <errno.h>
#include <limits.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz_util.h"
#include "g16_circuit.h"
#include "service/service.h"

#define TREE "/tmp/g16-fuzz-api"

static g16_service svc;
static svc_key keys[2];
static char *roots[1];
static char root_real[PATH_MAX];

static void setup(void)
{
    mkdir(TREE, 0700);
    mkdir(TREE "/root", 0700);
    mkdir(TREE "/root/sub", 0700);
    mkdir(TREE "/outside", 0700);
    FILE *f = fopen(TREE "/outside/f", "w");
    if (f) fputs("outside\n", f), fclose(f);
    if (symlink("../outside/f", TREE "/root/out") && errno != EEXIST) perror("symlink");
    if (symlink("loop", TREE "/root/loop") && errno != EEXIST) perror("symlink");
    struct stat st;
    if (stat(TREE "/root/c.g16c", &st) || stat(TREE "/root/w.g16w", &st)) {
        g16_circuit *c;
        g16_witness *w;
        g16_circuit_gen_args a = {G16_PROFILE_POREP, 3, 1, 7};
        char tc[64], tw[64];
        snprintf(tc, sizeof tc, TREE "/root/c.%d.tmp", (int)getpid());
        snprintf(tw, sizeof tw, TREE "/root/w.%d.tmp", (int)getpid());
        if (g16_circuit_generate(&c, &w, &a) || g16_circuit_save(c, tc) || g16_witness_save(w, tw) ||
            rename(tc, TREE "/root/c.g16c") || rename(tw, TREE "/root/w.g16w")) {
            fprintf(stderr, "fuzz-api: cannot make the tree: %s\n", g16_last_error());
            abort();
        }
        g16_circuit_destroy(c);
        g16_witness_destroy(w);
    }
    if (!realpath(TREE "/root", root_real)) abort();
    roots[0] = root_real;
    svc.roots = roots;
    svc.n_roots = 1;
    svc.cfg.max_partitions = 8;
    keys[0].name = "k";
    keys[1].name = "z";
    keys[1].zkey = 1;
    svc.keys = keys;
    svc.n_keys = 2;
    pthread_mutex_init(&svc.mu, NULL);
    pthread_cond_init(&svc.cv, NULL);
}

static void under_root(const char *p, const char *what)
{
    size_t n = strlen(root_real);
    struct stat st;
    FUZZ_CHECK(!strncmp(p, root_real, n) && p[n] == '/', "%s %s outside the root %s", what, p, root_real);
    FUZZ_CHECK(stat(p, &st) == 0 && S_ISREG(st.st_mode), "%s %s is not a regular file", what, p);
}

static void body(const uint8_t *data, size_t size)
{
    svc_reply r = {0};
    svc_job *d = NULL;
    if (svc_submit_parse(&svc, &r, &d, (const char *)data, size) != G16_OK) {
        FUZZ_CHECK(d == NULL && r.status >= 400 && r.body, "a refusal without a reply (status %d)", r.status);
        free(r.body);
        return;
    }
    FUZZ_CHECK(d->n_parts >= 1 && d->n_parts <= 8, "%u partitions", d->n_parts);
    FUZZ_CHECK(d->key && strlen(d->key) >= 1 && strlen(d->key) <= 64, "key name");
    for (uint32_t i = 0; i < d->n_parts; i++) {
        FUZZ_CHECK(d->parts[i].witness != NULL, "partition %u has no witness", i);
        FUZZ_CHECK(d->zkey || d->parts[i].circuit != NULL, "partition %u has no circuit", i);
    }
    int http = 0;
    if (svc_job_validate(&svc, d, &http) == G16_OK) {
        FUZZ_CHECK(!strcmp(d->key, d->zkey ? "z" : "k"), "key %s validated as zkey=%d", d->key, d->zkey);
        for (uint32_t i = 0; i < d->n_parts; i++) {
            if (!(d->parts[i].uploaded & 2)) under_root(d->parts[i].witness, "witness");
            if (!d->zkey && !(d->parts[i].uploaded & 1)) under_root(d->parts[i].circuit, "circuit");
        }
    } else {
        FUZZ_CHECK(http >= 400 && g16_last_error()[0], "a refusal without a status or message");
    }
    svc_job_free(d);
    free(r.body);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!svc.n_roots) setup();
    if (size < 1) return 0;
    if (!(data[0] & 1)) {
        body(data + 1, size - 1);
        return 0;
    }
    char path[PATH_MAX + 16];
    size_t n = size - 1 < sizeof path - 1 ? size - 1 : sizeof path - 1;
    memcpy(path, data + 1, n);
    path[n] = 0;
    char *out = NULL;
    if (svc_path_resolve(&svc, &out, path) == G16_OK) {
        under_root(out, "path");
        free(out);
    } else {
        FUZZ_CHECK(out == NULL && g16_last_error()[0], "a refused path without a message");
    }
    return 0;
}
