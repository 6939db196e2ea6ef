#!/usr/bin/env bash
# Regenerates the committed interop fixtures in tests/interop/fixtures/<circuit>/
# (bls12381) or tests/interop/fixtures/bn128/<circuit>/ (--curve bn128):
#   circuit.r1cs            circom2 --prime bls12381|bn128 --O2
#   witness.wtns            snarkjs wtns calculate on inputs/<circuit>.json
#   circuit.zkey            snarkjs groth16 setup on a test-only powers of tau
#                           (scripts/make-ptau.sh, power 11, of the same curve)
#                           + one zkey contribution
#   verification_key.json   snarkjs zkey export verificationkey
#   proof.json public.json  snarkjs groth16 prove (checked with snarkjs groth16 verify)
# The entropy strings are public: these keys are for TESTS ONLY.
# Usage: tests/interop/make-fixtures.sh [--curve bls12381|bn128] [circuit ...]
#   (default: bls12381; all of circuits/ for bls12381, the four small ones for bn128)
# Cost on a 2-core machine: about 1 to 1.5 min for the ptau, then about 20 s a circuit.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
snarkjs=node_modules/.bin/snarkjs
circom=node_modules/.bin/circom2
for t in "$snarkjs" "$circom"; do
    [ -x "$t" ] || { echo "make-fixtures: $t missing: run scripts/install-deps.sh" >&2; exit 1; }
done
curve=bls12381
if [ "${1:-}" = --curve ]; then
    curve=${2:?make-fixtures: --curve needs bls12381 or bn128}
    shift 2
fi
case $curve in
bls12381) ptau=tests/interop/build/pot11.ptau sub= defaults=(multiplier poseidon merkle range multi) ;;
# on bn128 circomlib's Poseidon is the standard hash (its constants are BN254's)
bn128) ptau=tests/interop/build/pot11-bn128.ptau sub=bn128/ defaults=(multiplier poseidon range multi) ;;
*) echo "make-fixtures: --curve must be bls12381 or bn128, not $curve" >&2; exit 2 ;;
esac
[ -f "$ptau" ] || bash scripts/make-ptau.sh 11 "$ptau" "$curve"
circuits=("$@")
[ ${#circuits[@]} -gt 0 ] || circuits=("${defaults[@]}")
for c in "${circuits[@]}"; do
    b=tests/interop/build/$sub$c
    out=tests/interop/fixtures/$sub$c
    rm -rf "$b"; mkdir -p "$b" "$out"
    "$circom" "tests/interop/circuits/$c.circom" --r1cs --wasm --prime "$curve" --O2 -o "$b" >/dev/null
    "$snarkjs" wtns calculate "$b/${c}_js/$c.wasm" "tests/interop/inputs/$c.json" "$out/witness.wtns" >/dev/null
    cp "$b/$c.r1cs" "$out/circuit.r1cs"
    "$snarkjs" groth16 setup "$out/circuit.r1cs" "$ptau" "$b/c0.zkey" >/dev/null
    "$snarkjs" zkey contribute "$b/c0.zkey" "$out/circuit.zkey" --name="g16 test" -e="g16 $sub$c fixture, public entropy: test only" >/dev/null
    "$snarkjs" zkey export verificationkey "$out/circuit.zkey" "$out/verification_key.json" >/dev/null
    "$snarkjs" groth16 prove "$out/circuit.zkey" "$out/witness.wtns" "$out/proof.json" "$out/public.json" >/dev/null
    "$snarkjs" groth16 verify "$out/verification_key.json" "$out/public.json" "$out/proof.json" | grep -q "OK" \
        || { echo "make-fixtures: snarkjs rejects its own $c proof" >&2; exit 1; }
    echo "make-fixtures: $sub$c done ($(du -sh "$out" | cut -f1))"
done
