/* Internal error reporting: a failing function records a message with context
 * for the caller (read back with g16_last_error) and returns its status. */
#ifndef G16_COMMON_ERROR_H
#define G16_COMMON_ERROR_H

#include "g16.h"

#if defined(__GNUC__)
#define G16_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define G16_PRINTF(a, b)
#endif

/* Records "fmt..." as the calling thread's last error and returns s. */
g16_status g16_fail(g16_status s, const char *fmt, ...) G16_PRINTF(2, 3);

/* Prefixes the current message with "fmt...: " (adds outer context) and returns s. */
g16_status g16_fail_ctx(g16_status s, const char *fmt, ...) G16_PRINTF(2, 3);

/* Clears the calling thread's last error. */
void g16_clear_error(void);

#define G16_TRY(expr)                          \
    do {                                       \
        g16_status g16_try_s_ = (expr);        \
        if (g16_try_s_ != G16_OK) return g16_try_s_; \
    } while (0)

#endif
