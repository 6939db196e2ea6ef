#include "check.h"

#include <stdlib.h>
#include <string.h>

_Atomic long g16_test_checks, g16_test_failures;

int g16_test_finish(const char *name)
{
    printf("%s: %ld checks, %ld failed\n", name, g16_test_checks, g16_test_failures);
    return g16_test_failures ? 1 : 0;
}

static uint64_t splitmix(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

void g16_rng_seed(g16_rng *r, uint64_t seed)
{
    for (int i = 0; i < 4; i++) r->s[i] = splitmix(&seed);
}

static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

uint64_t g16_rng_u64(g16_rng *r)
{
    uint64_t *s = r->s;
    uint64_t out = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return out;
}

uint64_t g16_test_seed(uint64_t dflt)
{
    const char *e = getenv("G16_TEST_SEED");
    uint64_t s = e ? strtoull(e, NULL, 0) : dflt;
    printf("seed %llu (set G16_TEST_SEED to change)\n", (unsigned long long)s);
    return s;
}

static int hexval(int c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

long g16_hex_decode(uint8_t *out, size_t cap, const char *hex)
{
    size_t n = strlen(hex);
    if (n >= 2 && hex[0] == '0' && (hex[1] == 'x' || hex[1] == 'X')) { hex += 2; n -= 2; }
    if (n % 2 || n / 2 > cap) return -1;
    for (size_t i = 0; i < n / 2; i++) {
        int hi = hexval(hex[2 * i]), lo = hexval(hex[2 * i + 1]);
        if (hi < 0 || lo < 0) return -1;
        out[i] = (uint8_t)(hi << 4 | lo);
    }
    return (long)(n / 2);
}

void g16_hex_encode(char *out, const uint8_t *in, size_t len)
{
    static const char d[] = "0123456789abcdef";
    for (size_t i = 0; i < len; i++) {
        out[2 * i] = d[in[i] >> 4];
        out[2 * i + 1] = d[in[i] & 15];
    }
    out[2 * len] = 0;
}

int g16_test_limbs52_eq(const uint64_t *l52, int nl, const uint64_t *w, int nw)
{
    uint64_t v[16] = {0};
    if (nw > 16) return 0;
    for (int j = 0; j < nl; j++) {
        int bit = 52 * j;
        if (bit / 64 >= nw) return 0;
        v[bit / 64] |= l52[j] << (bit % 64);
        if (bit % 64 > 12 && bit / 64 + 1 < nw) v[bit / 64 + 1] |= l52[j] >> (64 - bit % 64);
    }
    for (int i = 0; i < nw; i++)
        if (v[i] != w[i]) return 0;
    return 1;
}
