/* Request paths: a client names files on the prover's disk, so every path is resolved
 * (symlinks, "..", "." and repeated slashes by realpath) and must then lie inside one of the
 * configured roots, themselves resolved at start.  A symlink inside a root that points
 * outside it is therefore refused, as is "root/../etc/passwd". */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/error.h"
#include "service/service.h"

static int under(const char *path, const char *root)
{
    size_t n = strlen(root);
    if (n == 1 && root[0] == '/') return 1;
    return !strncmp(path, root, n) && (path[n] == '/' || path[n] == 0);
}

g16_status svc_path_resolve(const g16_service *s, char **out, const char *path)
{
    *out = NULL;
    if (!path || !*path) return g16_fail(G16_ERR_ARG, "an empty path");
    if (strlen(path) >= PATH_MAX) return g16_fail(G16_ERR_ARG, "a path longer than %d bytes", PATH_MAX);
    if (path[0] != '/') return g16_fail(G16_ERR_ARG, "%s: not an absolute path", path);
    char buf[PATH_MAX];
    if (!realpath(path, buf))
        return g16_fail(G16_ERR_ARG, "%s: %s", path, strerror(errno));
    size_t i;
    for (i = 0; i < s->n_roots; i++)
        if (under(buf, s->roots[i])) break;
    if (i == s->n_roots)
        return g16_fail(G16_ERR_ARG, "%s: outside the allowed roots (resolves to %s)", path, buf);
    struct stat st;
    if (stat(buf, &st) || !S_ISREG(st.st_mode))
        return g16_fail(G16_ERR_ARG, "%s: not a regular file", path);
    if (access(buf, R_OK)) return g16_fail(G16_ERR_ARG, "%s: not readable: %s", path, strerror(errno));
    *out = svc_strdup(buf);
    return *out ? G16_OK : g16_fail(G16_ERR_NOMEM, "no memory");
}
