#!/usr/bin/env python3
"""Derives the curve constants in g1.c / g2.c from first principles (p, x, the
generators as published in the BLS12-381 spec) and prints them as Montgomery-form
limbs.  Every value is also re-checked at run time by tests/unit/test_curve_*.c
(against the slow definitions), so this script is documentation, not a trust root."""
p = 0x1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaab
z = -0xd201000000010000
r = z**4 - z**2 + 1
R = 2**384 % p

def limbs(v, n=6):
    return ", ".join("0x%016xULL" % ((v >> (64 * i)) & (2**64 - 1)) for i in range(n))
def mont(v): return limbs(v * R % p)

# Fp2 as (c0, c1) and affine points over Fp: consts_math.py
from consts_math import over
f2mul, f2pow, f2inv, conj, add, mul = over(p)

xi = (1, 1)
cx = f2inv(f2pow(xi, (p - 1) // 3))
cy = f2inv(f2pow(xi, (p - 1) // 2))
cx2 = f2mul(cx, conj(cx)); cy2 = f2mul(cy, conj(cy))
# beta: a primitive cube root of unity in Fp; which of the two is chosen is fixed
# by the requirement phi(P) = -z^2 P on G1 (Scott 2021), checked in the tests.
s = pow(p - 3, (p + 1) // 4, p)
betas = [((-1 + s) * pow(2, p - 2, p)) % p, ((-1 - s) * pow(2, p - 2, p)) % p]

g1 = (0x17f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff97a1aeffb3af00adb22c6bb,
      0x08b3f481e3aaa0f1a09e30ed741d8ae4fcf5e095d5d00af600db18cb2c04b3edd03cc744a2888ae40caa232946c5e7e1)
assert (g1[1]**2 - g1[0]**3 - 4) % p == 0 and mul(g1, r) is None
mz2 = mul(g1, z * z); mz2 = (mz2[0], -mz2[1] % p)
beta = [b for b in betas if (b * g1[0] % p, g1[1]) == mz2][0]

print("p mod:", limbs(p))
print("r:", limbs(r, 4))
print("z^2:", limbs(z * z, 4))
print("one:", mont(1))
print("b1 = 4:", mont(4))
print("beta:", mont(beta))
print("cx.c0:", mont(cx[0])); print("cx.c1:", mont(cx[1]))
print("cy.c0:", mont(cy[0])); print("cy.c1:", mont(cy[1]))
print("cx2:", cx2, "cy2:", cy2 == (p - 1, 0))
print("cx2.c0:", mont(cx2[0]))
print("g1.x:", mont(g1[0])); print("g1.y:", mont(g1[1]))
g2 = [0x024aa2b2f08f0a91260805272dc51051c6e47ad4fa403b02b4510b647ae3d1770bac0326a805bbefd48056c8c121bdb8,
      0x13e02b6052719f607dacd3a088274f65596bd0d09920b61ab5da61bbdc7f5049334cf11213945d57e5ac7d055d042b7e,
      0x0ce5d527727d6e118cc9cdc6da2e351aadfd9baa8cbdd3a76d429a695160d12c923ac9cc3baca289e193548608b82801,
      0x0606c4a02ea734cc32acd2b02bc28b99cb3e287e85a763af267492ab572e99ab3f370d275cec1da1aaa9075ff05f79be]
X, Y = (g2[0], g2[1]), (g2[2], g2[3])
rhs = f2mul(f2mul(X, X), X); rhs = ((rhs[0] + 4) % p, (rhs[1] + 4) % p)
assert f2mul(Y, Y) == rhs
for i, n in enumerate(["g2.x.c0", "g2.x.c1", "g2.y.c0", "g2.y.c1"]): print(n + ":", mont(g2[i]))
print("b2 = 4(1+u):", mont(4))
h1 = (z - 1)**2 // 3
n2 = (p**2 + 1 - ((z**2 - 2)**2 - 2*p))  # unused; h2 from the spec formula below
h2 = (z**8 - 4*z**7 + 5*z**6 - 4*z**4 + 6*z**3 - 4*z**2 - 4*z + 13) // 9
print("h1:", limbs(h1, 2)); print("h2:", limbs(h2, 8)); print("h2 bits", h2.bit_length())
