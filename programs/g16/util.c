#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

int cli_fail(const char *what, g16_status s)
{
    const char *msg = g16_last_error();
    if (msg && *msg)
        fprintf(stderr, "g16 %s: %s\n", what, msg);
    else
        fprintf(stderr, "g16 %s: %s\n", what, g16_status_str(s));
    return CLI_ERROR;
}

static int hexval(int c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

long cli_hex_decode(uint8_t *out, size_t cap, const char *hex, const char *what)
{
    if (hex[0] == '0' && (hex[1] == 'x' || hex[1] == 'X')) hex += 2;
    size_t n = strlen(hex);
    for (size_t i = 0; i < n; i++) {
        if (hexval(hex[i]) < 0) {
            fprintf(stderr, "g16: %s: character %zu ('%c') is not a hex digit\n", what, i, hex[i]);
            return -1;
        }
    }
    if (n % 2) {
        fprintf(stderr, "g16: %s: odd number of hex digits (%zu)\n", what, n);
        return -1;
    }
    if (n / 2 > cap) {
        fprintf(stderr, "g16: %s: %zu bytes is longer than any accepted value (%zu)\n", what,
                n / 2, cap);
        return -1;
    }
    for (size_t i = 0; i < n / 2; i++)
        out[i] = (uint8_t)(hexval(hex[2 * i]) << 4 | hexval(hex[2 * i + 1]));
    return (long)(n / 2);
}

void cli_hex_print(const uint8_t *in, size_t len)
{
    for (size_t i = 0; i < len; i++) printf("%02x", in[i]);
    putchar('\n');
}

int cli_parse_range(const char *s, int *lo, int *hi)
{
    char *end;
    long a = strtol(s, &end, 10);
    if (end == s) return -1;
    long b = a;
    if (end[0] == '.' && end[1] == '.') {
        const char *t = end + 2;
        b = strtol(t, &end, 10);
        if (end == t) return -1;
    }
    if (*end || a < 0 || b < a || b > 40) return -1;
    *lo = (int)a;
    *hi = (int)b;
    return 0;
}
