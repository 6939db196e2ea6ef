/* The HTTP side of the service, on libmicrohttpd: one thread per connection (so a long poll
 * may block), a cap on connections and on idle time, the bearer token checked before a body is
 * read, bodies capped (413) and then handed to api.c. */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <microhttpd.h>
#include <netdb.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "common/error.h"
#include "service/service.h"

typedef struct req {
    char *buf;
    size_t len, cap;
    int too_big;
    int replied; /* a response was queued before the body was read */
    double t0;
} req;

/* Constant-time comparison, so the token cannot be guessed byte by byte from timings. */
static int token_ok(const g16_service *s, const char *header)
{
    static const char prefix[] = "Bearer ";
    if (!header || strncmp(header, prefix, sizeof prefix - 1)) return 0;
    const char *t = header + sizeof prefix - 1;
    size_t n = strlen(t), m = strlen(s->token);
    unsigned char diff = (unsigned char)(n != m);
    for (size_t i = 0; i < m; i++) diff |= (unsigned char)(s->token[i] ^ (i < n ? t[i] : 0));
    return diff == 0;
}

static enum MHD_Result send_reply(g16_service *s, struct MHD_Connection *c, svc_reply *r)
{
    struct MHD_Response *resp =
        MHD_create_response_from_buffer(r->len, r->body, MHD_RESPMEM_MUST_FREE);
    if (!resp) {
        free(r->body);
        return MHD_NO;
    }
    r->body = NULL;
    MHD_add_response_header(resp, MHD_HTTP_HEADER_CONTENT_TYPE, r->ctype ? r->ctype : "application/json");
    if (r->retry_after) {
        char v[16];
        snprintf(v, sizeof v, "%u", r->retry_after);
        MHD_add_response_header(resp, MHD_HTTP_HEADER_RETRY_AFTER, v);
    }
    if (r->status == 401) MHD_add_response_header(resp, MHD_HTTP_HEADER_WWW_AUTHENTICATE, "Bearer");
    enum MHD_Result ok = MHD_queue_response(c, (unsigned)r->status, resp);
    MHD_destroy_response(resp);
    pthread_mutex_lock(&s->mu);
    if (r->status >= 100 && r->status < 600) s->m.http[r->status / 100]++;
    pthread_mutex_unlock(&s->mu);
    return ok;
}

/* Open connections, counted so that those past max_connections get a 503 with Retry-After
 * instead of a refused connection (the server itself takes a few more than the cap). */
static void on_connection(void *cls, struct MHD_Connection *c, void **socket_ctx,
                          enum MHD_ConnectionNotificationCode code)
{
    g16_service *s = cls;
    pthread_mutex_lock(&s->mu);
    if (code == MHD_CONNECTION_NOTIFY_STARTED) s->connections++;
    else if (s->connections) s->connections--;
    pthread_mutex_unlock(&s->mu);
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *c, const char *url,
                                  const char *method, const char *version, const char *upload,
                                  size_t *upload_size, void **con_cls)
{
    g16_service *s = cls;
    req *r = *con_cls;
    svc_reply rep = {0};
    if (!r) {
        r = calloc(1, sizeof *r);
        if (!r) return MHD_NO;
        *con_cls = r;
        r->t0 = svc_now();
        /* refuse before reading a body: no token, or a body announced too large */
        if (strcmp(url, "/healthz") &&
            !token_ok(s, MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_AUTHORIZATION))) {
            svc_reply_error(&rep, 401, "unauthorized", "a valid 'Authorization: Bearer TOKEN' header is required");
            r->replied = 1;
            return send_reply(s, c, &rep);
        }
        pthread_mutex_lock(&s->mu);
        unsigned open = s->connections;
        pthread_mutex_unlock(&s->mu);
        if (open > s->cfg.max_connections && strcmp(url, "/healthz")) {
            svc_reply_error(&rep, 503, "busy", "%u connections are open, the most this service takes",
                            s->cfg.max_connections);
            r->replied = 1;
            return send_reply(s, c, &rep);
        }
        const char *cl = MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_LENGTH);
        if (cl && strtoull(cl, NULL, 10) > (unsigned long long)s->cfg.max_body_kib * 1024) {
            svc_reply_error(&rep, 413, "body_too_large", "the body has %s bytes; at most %u KiB are taken",
                            cl, s->cfg.max_body_kib);
            r->replied = 1;
            return send_reply(s, c, &rep);
        }
        return MHD_YES;
    }
    if (r->replied) { /* discard what the client still sends */
        *upload_size = 0;
        return MHD_YES;
    }
    if (*upload_size) {
        size_t n = *upload_size, max = (size_t)s->cfg.max_body_kib * 1024;
        *upload_size = 0;
        if (r->too_big) return MHD_YES;
        if (r->len + n > max) {
            r->too_big = 1;
            free(r->buf);
            r->buf = NULL;
            r->len = 0;
            return MHD_YES;
        }
        if (r->len + n + 1 > r->cap) {
            size_t cap = r->cap ? r->cap : 4096;
            while (cap < r->len + n + 1) cap *= 2;
            char *b = realloc(r->buf, cap);
            if (!b) return MHD_NO;
            r->buf = b;
            r->cap = cap;
        }
        memcpy(r->buf + r->len, upload, n);
        r->len += n;
        r->buf[r->len] = 0;
        return MHD_YES;
    }
    if (r->too_big) {
        svc_reply_error(&rep, 413, "body_too_large", "the body is over %u KiB", s->cfg.max_body_kib);
    } else {
        svc_api_handle(s, &rep, method, url,
                       MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "wait"),
                       MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "state"),
                       MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "part"),
                       r->buf ? r->buf : "", r->len);
    }
    enum MHD_Result ok = send_reply(s, c, &rep);
    double dt = svc_now() - r->t0;
    pthread_mutex_lock(&s->mu);
    svc_hist_add(&s->m.api_s, dt);
    pthread_mutex_unlock(&s->mu);
    return ok;
}

static void on_completed(void *cls, struct MHD_Connection *c, void **con_cls,
                         enum MHD_RequestTerminationCode code)
{
    req *r = *con_cls;
    if (r) {
        free(r->buf);
        free(r);
    }
    *con_cls = NULL;
}

static void on_log(void *cls, const char *fmt, va_list ap)
{
    char msg[512];
    vsnprintf(msg, sizeof msg, fmt, ap);
    size_t n = strlen(msg);
    while (n && (msg[n - 1] == '\n' || msg[n - 1] == '\r')) msg[--n] = 0;
    svc_log(cls, "warn", NULL, "http: %s", msg);
}

/* ---------------------------------------------------------------- listening */
static g16_status listen_unix(g16_service *s, const char *path)
{
    struct sockaddr_un a = {.sun_family = AF_UNIX};
    if (strlen(path) >= sizeof a.sun_path)
        return g16_fail(G16_ERR_ARG, "--listen unix:%s: the path is longer than %zu bytes", path,
                        sizeof a.sun_path - 1);
    strcpy(a.sun_path, path);
    struct stat st;
    if (!lstat(path, &st)) {
        if (!S_ISSOCK(st.st_mode))
            return g16_fail(G16_ERR_ARG, "--listen unix:%s: exists and is not a socket", path);
        unlink(path); /* a socket left by a process that died */
    }
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return g16_fail(G16_ERR_IO, "socket: %s", strerror(errno));
    if (bind(fd, (struct sockaddr *)&a, sizeof a) || chmod(path, 0660) || listen(fd, 128)) {
        int e = errno;
        close(fd);
        return g16_fail(G16_ERR_IO, "--listen unix:%s: %s", path, strerror(e));
    }
    s->listen_fd = fd;
    s->unix_path = svc_strdup(path);
    size_t n = strlen(path) + 6;
    s->addr = malloc(n);
    if (s->addr) snprintf(s->addr, n, "unix:%s", path);
    return G16_OK;
}

static g16_status listen_tcp(g16_service *s, const char *spec)
{
    char host[256];
    const char *colon = strrchr(spec, ':');
    if (!colon || colon == spec || (size_t)(colon - spec) >= sizeof host || !colon[1])
        return g16_fail(G16_ERR_ARG, "--listen %s: expected HOST:PORT or unix:PATH", spec);
    memcpy(host, spec, (size_t)(colon - spec));
    host[colon - spec] = 0;
    if (host[0] == '[') { /* [::1]:PORT */
        size_t n = strlen(host);
        if (host[n - 1] != ']') return g16_fail(G16_ERR_ARG, "--listen %s: unbalanced '['", spec);
        memmove(host, host + 1, n - 2);
        host[n - 2] = 0;
    }
    struct addrinfo hints = {.ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM, .ai_flags = AI_PASSIVE}, *ai;
    int rc = getaddrinfo(host, colon + 1, &hints, &ai);
    if (rc) return g16_fail(G16_ERR_ARG, "--listen %s: %s", spec, gai_strerror(rc));
    int fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC, ai->ai_protocol);
    int one = 1;
    if (fd >= 0) setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    if (fd < 0 || bind(fd, ai->ai_addr, ai->ai_addrlen) || listen(fd, 128)) {
        int e = errno;
        if (fd >= 0) close(fd);
        freeaddrinfo(ai);
        return g16_fail(G16_ERR_IO, "--listen %s: %s", spec, strerror(e));
    }
    freeaddrinfo(ai);
    struct sockaddr_storage ss;
    socklen_t len = sizeof ss;
    getsockname(fd, (struct sockaddr *)&ss, &len);
    char ip[INET6_ADDRSTRLEN] = "?";
    unsigned port = 0;
    if (ss.ss_family == AF_INET) {
        struct sockaddr_in *a4 = (struct sockaddr_in *)&ss;
        inet_ntop(AF_INET, &a4->sin_addr, ip, sizeof ip);
        port = ntohs(a4->sin_port);
    } else if (ss.ss_family == AF_INET6) {
        struct sockaddr_in6 *a6 = (struct sockaddr_in6 *)&ss;
        inet_ntop(AF_INET6, &a6->sin6_addr, ip, sizeof ip);
        port = ntohs(a6->sin6_port);
    }
    s->listen_fd = fd;
    size_t n = strlen(ip) + 16;
    s->addr = malloc(n);
    if (s->addr) snprintf(s->addr, n, ss.ss_family == AF_INET6 ? "[%s]:%u" : "%s:%u", ip, port);
    return G16_OK;
}

g16_status svc_http_start(g16_service *s)
{
    const char *spec = s->cfg.listen ? s->cfg.listen : "127.0.0.1:7616";
    s->listen_fd = -1;
    G16_TRY(!strncmp(spec, "unix:", 5) ? listen_unix(s, spec + 5) : listen_tcp(s, spec));
    if (!s->addr) return g16_fail(G16_ERR_NOMEM, "no memory");
    s->http = MHD_start_daemon(
        MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_THREAD_PER_CONNECTION | MHD_USE_ERROR_LOG |
            MHD_USE_ITC, /* ITC: so that MHD_quiesce_daemon works in this mode */
        0, NULL, NULL, on_request, s,
        MHD_OPTION_EXTERNAL_LOGGER, on_log, s, /* first, so that every message comes here */
        MHD_OPTION_LISTEN_SOCKET, s->listen_fd,
        MHD_OPTION_CONNECTION_LIMIT, (unsigned)s->cfg.max_connections + 16,
        MHD_OPTION_NOTIFY_CONNECTION, on_connection, s,
        MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)s->cfg.conn_timeout_s,
        MHD_OPTION_NOTIFY_COMPLETED, on_completed, s,
        MHD_OPTION_END);
    if (!s->http) {
        close(s->listen_fd);
        s->listen_fd = -1;
        return g16_fail(G16_ERR_IO, "the HTTP server did not start on %s", s->addr);
    }
    return G16_OK;
}

void svc_http_quiesce(g16_service *s)
{
    if (!s->http) return;
    MHD_socket fd = MHD_quiesce_daemon(s->http);
    if (fd != MHD_INVALID_SOCKET) close(fd);
    s->listen_fd = -1;
}

void svc_http_stop(g16_service *s)
{
    if (s->http) MHD_stop_daemon(s->http);
    s->http = NULL;
    if (s->listen_fd >= 0) close(s->listen_fd);
    s->listen_fd = -1;
    if (s->unix_path) unlink(s->unix_path);
    free(s->unix_path);
    s->unix_path = NULL;
}
