/* Poseidon (neptune, Standard strength, MerkleTree hash type): published known
 * answers, the fast schedule against the plain definition, and argument checks. */
#include <string.h>

#include "check.h"
#include "common/error.h"
#include "filecoin/poseidon.h"

/* neptune, src/poseidon.rs, test `hash_values` (Strength::Standard arm): the
 * digest of the preimage 0, 1, …, arity − 1, given there as little-endian u64
 * limbs of the canonical value (scalar_from_u64s). */
static const struct {
    unsigned arity;
    uint64_t limbs[4];
} kat[] = {
    {2, {0x2e203c369a02e7ff, 0xa6fba9339d05a69d, 0x739e0fd902efe161, 0x396508d75e76a56b}},
    {4, {0x019814ff6662075d, 0xfb6b4605bf1327ec, 0x00db3c6579229399, 0x58a54b10a9e5848a}},
    {8, {0x2a9934f56d38a5e6, 0x4b682e9d9cc4aed9, 0x1201004211677077, 0x2394611da3a5de55}},
    {11, {0xcee3bbc32b693163, 0x09f3dcd8ccb08fc1, 0x6ca537e232ebe87a, 0x0c0fc1b2e5227f28}},
};

static void test_known_answers(void)
{
    for (size_t k = 0; k < sizeof kat / sizeof kat[0]; k++) {
        const g16_poseidon *p = g16_poseidon_get(kat[k].arity);
        CHECK(p != NULL, "constants for arity %u", kat[k].arity);
        if (!p) continue;
        g16_fr in[11], fast, plain;
        for (unsigned i = 0; i < kat[k].arity; i++) g16_fr_from_u64(&in[i], i);
        g16_poseidon_hash_plain(&plain, p, in);
        g16_poseidon_hash(&fast, p, in);
        uint64_t got[4];
        g16_fr_to_canonical(got, &plain);
        CHECK(!memcmp(got, kat[k].limbs, sizeof got), "arity %u plain: %016llx %016llx %016llx %016llx",
              kat[k].arity, (unsigned long long)got[3], (unsigned long long)got[2],
              (unsigned long long)got[1], (unsigned long long)got[0]);
        CHECK(g16_fr_eq(&fast, &plain), "arity %u: fast schedule differs from the definition", kat[k].arity);
    }
}

/* The fast schedule equals the definition on random inputs, every arity. */
static void test_fast_equals_plain(void)
{
    g16_rng rng;
    g16_rng_seed(&rng, g16_test_seed(25));
    const unsigned ar[4] = {2, 4, 8, 11};
    for (int a = 0; a < 4; a++) {
        const g16_poseidon *p = g16_poseidon_get(ar[a]);
        if (!p) continue;
        for (int it = 0; it < 20; it++) {
            g16_fr in[11], x, y;
            for (unsigned i = 0; i < ar[a]; i++) {
                uint8_t be[32];
                for (int b = 0; b < 32; b++) be[b] = (uint8_t)g16_rng_u64(&rng);
                g16_fr_from_be_reduce(&in[i], be, 32);
            }
            g16_poseidon_hash_plain(&x, p, in);
            g16_poseidon_hash(&y, p, in);
            CHECK(g16_fr_eq(&x, &y), "arity %u random input %d", ar[a], it);
            /* one changed input changes the digest */
            g16_fr one;
            g16_fr_set_one(&one);
            g16_fr_add(&in[ar[a] - 1], &in[ar[a] - 1], &one);
            g16_poseidon_hash(&y, p, in);
            CHECK(!g16_fr_eq(&x, &y), "arity %u: digest ignores the last input", ar[a]);
        }
    }
}

static void test_shape(void)
{
    CHECK(g16_poseidon_get(3) == NULL, "arity 3 is not a Filecoin arity");
    CHECK(g16_poseidon_get(16) == NULL, "arity 16 is not built");
    const g16_poseidon *p = g16_poseidon_get(8);
    CHECK(p && p->t == 9 && p->rf == 8 && p->rp == 57, "arity 8: t 9, 8 full, 57 partial rounds");
    p = g16_poseidon_get(2);
    CHECK(p && p->rp == 55, "arity 2: 55 partial rounds");
    p = g16_poseidon_get(4);
    CHECK(p && p->rp == 56, "arity 4: 56 partial rounds");
    p = g16_poseidon_get(11);
    CHECK(p && p->rp == 57, "arity 11: 57 partial rounds");
    /* the same pointer every time: built once */
    CHECK(g16_poseidon_get(8) == g16_poseidon_get(8), "constants cached");
}

int main(void)
{
    test_shape();
    test_known_answers();
    test_fast_equals_plain();
    return g16_test_finish("test_filecoin_poseidon");
}
