#!/usr/bin/env bash
# Makes a small prepared powers-of-tau file for bls12381 (or bn128) with snarkjs, once, for
# the interop test fixtures (tests/interop/make-fixtures.sh).  It is a real (one
# contributor, test-only) ceremony: τ comes from the entropy string below and is
# not kept, but the entropy is public, so the result is for TESTS ONLY.
# Usage: scripts/make-ptau.sh [power] [out.ptau] [curve]
#   (defaults: 11, tests/interop/build/pot<power>.ptau, bls12381; curve bls12381 or bn128)
# Cost on a 2-core machine: about 1.5 min for power 11, 3.5 min for power 12.
set -euo pipefail
cd "$(dirname "$0")/.."
power=${1:-11}
out=${2:-tests/interop/build/pot${power}.ptau}
curve=${3:-bls12381}
case $curve in bls12381|bn128) ;; *) echo "make-ptau: curve must be bls12381 or bn128, not $curve" >&2; exit 2 ;; esac
snarkjs=node_modules/.bin/snarkjs
[ -x "$snarkjs" ] || { echo "make-ptau: $snarkjs missing: run scripts/install-deps.sh" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$(dirname "$out")"
"$snarkjs" powersoftau new "$curve" "$power" "$tmp/p0.ptau" >/dev/null
"$snarkjs" powersoftau contribute "$tmp/p0.ptau" "$tmp/p1.ptau" --name="g16 test" -e="g16 interop fixtures, public entropy: test only" >/dev/null
"$snarkjs" powersoftau prepare phase2 "$tmp/p1.ptau" "$out" >/dev/null
echo "make-ptau: wrote $out ($curve, power $power)"
