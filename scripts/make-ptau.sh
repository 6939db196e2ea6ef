#!/usr/bin/env bash
# Makes a small prepared powers-of-tau file for bls12381 with snarkjs, once, for
# the interop test fixtures (tests/interop/make-fixtures.sh).  It is a real (one
# contributor, test-only) ceremony: τ comes from the entropy string below and is
# not kept, but the entropy is public, so the result is for TESTS ONLY.
# Usage: scripts/make-ptau.sh [power] [out.ptau]   (default 11, tests/interop/build/pot.ptau)
# Cost on a 2-core machine: about 1.5 min for power 11, 3.5 min for power 12.
set -euo pipefail
cd "$(dirname "$0")/.."
power=${1:-11}
out=${2:-tests/interop/build/pot${power}.ptau}
snarkjs=node_modules/.bin/snarkjs
[ -x "$snarkjs" ] || { echo "make-ptau: $snarkjs missing: run scripts/install-deps.sh" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$(dirname "$out")"
"$snarkjs" powersoftau new bls12381 "$power" "$tmp/p0.ptau" >/dev/null
"$snarkjs" powersoftau contribute "$tmp/p0.ptau" "$tmp/p1.ptau" --name="g16 test" -e="g16 interop fixtures, public entropy: test only" >/dev/null
"$snarkjs" powersoftau prepare phase2 "$tmp/p1.ptau" "$out" >/dev/null
echo "make-ptau: wrote $out (power $power)"
