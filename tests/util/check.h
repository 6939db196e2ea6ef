/* Minimal test harness: CHECK records a failure with file:line and a message and
 * continues; g16_test_finish() prints the tally and gives main's exit code. */
#ifndef G16_TEST_CHECK_H
#define G16_TEST_CHECK_H

#include <stdint.h>
#include <stdio.h>
#include <stddef.h>

/* Atomic: tests may CHECK from worker threads (engine hooks, pool callbacks).  The
 * C++ (CUDA host) tests see plain longs of the same size; they CHECK from one thread. */
#ifdef __cplusplus
extern long g16_test_checks, g16_test_failures;
#else
extern _Atomic long g16_test_checks, g16_test_failures;
#endif

#define CHECK(cond, ...)                                                   \
    do {                                                                   \
        g16_test_checks++;                                                 \
        if (!(cond)) {                                                     \
            g16_test_failures++;                                           \
            fprintf(stderr, "%s:%d: CHECK(%s) failed: ", __FILE__, __LINE__, #cond); \
            fprintf(stderr, __VA_ARGS__);                                  \
            fputc('\n', stderr);                                           \
        }                                                                  \
    } while (0)

/* Prints "<name>: N checks, M failed" and returns 0 when nothing failed. */
int g16_test_finish(const char *name);

/* Deterministic xoshiro256** generator: tests are reproducible from G16_TEST_SEED. */
typedef struct g16_rng { uint64_t s[4]; } g16_rng;
void g16_rng_seed(g16_rng *r, uint64_t seed);
uint64_t g16_rng_u64(g16_rng *r);
/* Seed from $G16_TEST_SEED if set, else the given default; prints the seed used. */
uint64_t g16_test_seed(uint64_t dflt);

/* 1 when the nl limbs of 52 bits at l52 (little-endian) equal the nw 64-bit words at w:
 * the IFMA code's radix-2^52 constants against the moduli they were written from. */
int g16_test_limbs52_eq(const uint64_t *l52, int nl, const uint64_t *w, int nw);

/* Hex helpers: returns number of bytes written, or -1 on bad hex / overflow. */
long g16_hex_decode(uint8_t *out, size_t cap, const char *hex);
void g16_hex_encode(char *out, const uint8_t *in, size_t len); /* out: 2·len+1 */

#endif
