#include "common/error.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define G16_ERRMSG_CAP 1024

/* Messages are cut to the buffer on purpose: a long path must not fail the report. */
#pragma GCC diagnostic ignored "-Wformat-truncation"

static _Thread_local char err_msg[G16_ERRMSG_CAP];

g16_status g16_fail(g16_status s, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err_msg, sizeof err_msg, fmt, ap);
    va_end(ap);
    return s;
}

g16_status g16_fail_ctx(g16_status s, const char *fmt, ...)
{
    char prefix[G16_ERRMSG_CAP / 2];
    char old[G16_ERRMSG_CAP / 2];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(prefix, sizeof prefix, fmt, ap);
    va_end(ap);
    snprintf(old, sizeof old, "%s", err_msg);
    if (old[0])
        snprintf(err_msg, sizeof err_msg, "%s: %s", prefix, old);
    else
        snprintf(err_msg, sizeof err_msg, "%s: %s", prefix, g16_status_str(s));
    return s;
}

void g16_clear_error(void) { err_msg[0] = 0; }

const char *g16_last_error(void) { return err_msg; }

const char *g16_version(void) { return G16_VERSION_STRING; }

const char *g16_status_str(g16_status s)
{
    switch (s) {
    case G16_OK: return "ok";
    case G16_ERR_ARG: return "invalid argument";
    case G16_ERR_NOMEM: return "out of memory";
    case G16_ERR_IO: return "i/o error";
    case G16_ERR_FORMAT: return "malformed input";
    case G16_ERR_LENGTH: return "wrong length";
    case G16_ERR_FLAGS: return "bad flags";
    case G16_ERR_NONCANONICAL: return "coordinate not less than the modulus";
    case G16_ERR_NOT_ON_CURVE: return "not on curve";
    case G16_ERR_NOT_IN_SUBGROUP: return "not in subgroup";
    case G16_ERR_INFINITY: return "non-canonical infinity";
    case G16_ERR_UNSATISFIED: return "constraint not satisfied";
    case G16_ERR_BACKEND: return "backend failure";
    case G16_ERR_TIMEOUT: return "timed out";
    case G16_ERR_CANCELLED: return "cancelled";
    case G16_ERR_INTERNAL: return "internal error";
    }
    return "unknown status";
}
