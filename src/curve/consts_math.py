"""Arithmetic the constant generators share (gen_consts.py for BLS12-381,
gen_consts_bn254.py for BN254): Fp2 = Fp[u]/(u^2 + 1) as (c0, c1) and affine
points of a short Weierstrass curve with a = 0 over Fp (None is the point at
infinity), all mod the caller's p."""


def over(p):
    """Returns (f2mul, f2pow, f2inv, conj, ec_add, ec_mul) for the prime p."""
    def f2mul(a, b): return ((a[0]*b[0] - a[1]*b[1]) % p, (a[0]*b[1] + a[1]*b[0]) % p)

    def f2pow(a, e):
        acc = (1, 0)
        while e:
            if e & 1: acc = f2mul(acc, a)
            a = f2mul(a, a); e >>= 1
        return acc

    def f2inv(a):
        n = pow(a[0]*a[0] + a[1]*a[1], p - 2, p)
        return (a[0]*n % p, -a[1]*n % p)

    def conj(a): return (a[0], -a[1] % p)

    def ec_add(P, Q):
        if P is None: return Q
        if Q is None: return P
        if P[0] == Q[0]:
            if (P[1] + Q[1]) % p == 0: return None
            l = 3 * P[0]**2 * pow(2 * P[1], p - 2, p) % p
        else:
            l = (Q[1] - P[1]) * pow(Q[0] - P[0], p - 2, p) % p
        x3 = (l*l - P[0] - Q[0]) % p
        return (x3, (l * (P[0] - x3) - P[1]) % p)

    def ec_mul(P, k):
        A = None
        while k:
            if k & 1: A = ec_add(A, P)
            P = ec_add(P, P); k >>= 1
        return A

    return f2mul, f2pow, f2inv, conj, ec_add, ec_mul
