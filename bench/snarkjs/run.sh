#!/usr/bin/env bash
# g16 vs snarkjs 0.7.6: `g16 snarkjs prove` (= `g16 prove --zkey`) and `snarkjs groth16 prove` on the same
# .zkey and .wtns, same machine, same run, at 2^12, 2^14, 2^16 constraints (and
# 2^18 with --big).  Circuit: a chain of Poseidon(2) hashes (chain.circom.in),
# compiled with circom2 --prime bls12381 --O2, or --prime bn128 with --curve bn128
# (68 hashes in the 2^14 domain as in issue 28; 273 in 2^16, see hashes()).  The two
# curves' circuits and keys live apart (build/<curve>/).
#
# The proving keys are made by `g16 snarkjs testkey` from a KNOWN tau: INSECURE,
# for benchmarking only (snarkjs's own setup takes minutes per key in JS; the key
# has exactly the layout and math of a snarkjs key, and both provers' proofs are
# checked with `snarkjs groth16 verify` against it).  Never use such a key for real.
#
# usage: bench/snarkjs/run.sh [--curve bls12381|bn128] [--big] [--reps N]
#        (G16=path/to/g16, default build/g16)
# Times are medians of N runs (default 3) of each whole command, process start-up
# included for both: wall-clock and CPU (user + sys over all threads); the table
# goes to stdout (markdown).  The two provers alternate, so load hits both alike.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
g16=${G16:-$root/build/g16}
snarkjs=$root/node_modules/.bin/snarkjs
circom=$root/node_modules/.bin/circom2
reps=3
logs=(12 14 16)
curve=bls12381
usage="usage: $0 [--curve bls12381|bn128] [--big] [--reps N]"
while [ $# -gt 0 ]; do
    case $1 in
    --big) logs+=(18) ;;
    --reps) reps=$2; shift ;;
    --curve) curve=${2:?$usage}; shift ;;
    *) echo "$usage" >&2; exit 2 ;;
    esac
    shift
done
case $curve in bls12381|bn128) ;; *) echo "$usage" >&2; exit 2 ;; esac
for t in "$g16" "$snarkjs" "$circom"; do
    [ -x "$t" ] || { echo "bench: $t missing (make build; scripts/install-deps.sh)" >&2; exit 1; }
done
b=$root/bench/snarkjs/build/$curve
mkdir -p "$b"
echo '{"x": ["1", "2"]}' > "$b/input.json"

# "WALL CPU": wall seconds and CPU seconds (user + sys, all threads) of one run.
# CPU time is reported too because a shared machine's load distorts wall time.
wall() {
    python3 - "$@" <<'PY' || { echo "bench: failed: $*" >&2; exit 1; }
import resource, subprocess, sys, time
t0 = time.monotonic()
r = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
t1 = time.monotonic()
u = resource.getrusage(resource.RUSAGE_CHILDREN)
if r.returncode:
    sys.exit(1)
print("%.4f %.4f" % (t1 - t0, u.ru_utime + u.ru_stime))
PY
}
# median of field $1 over the remaining "WALL CPU" pairs
median() { local f=$1; shift; printf '%s\n' "$@" | awk -v f="$f" '{print $f}' | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
check() { # check NAME PROOF PUBLIC VK
    "$snarkjs" groth16 verify "$4" "$3" "$2" 2>&1 | grep -q "OK!" || { echo "bench: snarkjs rejects $1's proof" >&2; exit 1; }
}

echo "| constraints | domain | snarkjs 0.7.6 wall (s) | g16 wall (s) | wall ratio | snarkjs CPU (s) | g16 CPU (s) | CPU ratio |"
echo "|---:|---:|---:|---:|---:|---:|---:|---:|"
# hashes in the chain for a domain of 2^lg: 240 constraints a hash on both curves with
# circom2 0.2.23 --O2 (issue 28's 276-hash chain had 237 a hash; here 276 hashes are
# 66,240 constraints, a 2^17 domain, so 2^16 gets 273); room for the public row and the one
hashes() { echo $(( ((1 << $1) - 2) / 240 )); }
# constraints: the r1cs header's nConstraints (section 1, after the prime)
constraints() {
    python3 - "$1" <<'PY'
import struct, sys
d = open(sys.argv[1], "rb").read()
pos, n = 12, struct.unpack_from("<I", d, 8)[0]
for _ in range(n):
    sid, size = struct.unpack_from("<IQ", d, pos)
    if sid == 1:
        n8 = struct.unpack_from("<I", d, pos + 12)[0]
        print(struct.unpack_from("<I", d, pos + 16 + n8 + 24)[0])
        break
    pos += 12 + size
PY
}

for lg in "${logs[@]}"; do
    n=$(hashes "$lg")
    c=chain$n
    # the circuit sits in build/<curve>/, so the include path of chain.circom.in is one deeper
    if [ ! -f "$b/$c.r1cs" ]; then
        sed -e "s/@N@/$n/" -e 's|"\.\./\.\./\.\./node_modules|"../../../../node_modules|' \
            "$root/bench/snarkjs/chain.circom.in" > "$b/$c.circom"
        "$circom" "$b/$c.circom" --r1cs --wasm --prime "$curve" --O2 -o "$b" >/dev/null
    fi
    [ -f "$b/$c.wtns" ] || "$snarkjs" wtns calculate "$b/${c}_js/$c.wasm" "$b/input.json" "$b/$c.wtns" >/dev/null
    # INSECURE known-tau key (benchmark only)
    [ -f "$b/$c.zkey" ] || "$g16" snarkjs testkey --r1cs "$b/$c.r1cs" --tau 20260101 --zkey "$b/$c.zkey" --vk "$b/$c.vk.json" 2>/dev/null
    ts=() tg=()
    for _ in $(seq "$reps"); do
        ts+=("$(wall "$snarkjs" groth16 prove "$b/$c.zkey" "$b/$c.wtns" "$b/sj_proof.json" "$b/sj_public.json")")
        tg+=("$(wall "$g16" snarkjs prove --zkey "$b/$c.zkey" --wtns "$b/$c.wtns" --proof "$b/g16_proof.json" --public "$b/g16_public.json")")
    done
    check snarkjs "$b/sj_proof.json" "$b/sj_public.json" "$b/$c.vk.json"
    check g16 "$b/g16_proof.json" "$b/g16_public.json" "$b/$c.vk.json"
    cons=$(constraints "$b/$c.r1cs")
    s=$(median 1 "${ts[@]}") g=$(median 1 "${tg[@]}")
    sc=$(median 2 "${ts[@]}") gc=$(median 2 "${tg[@]}")
    printf '| %d (2^%d) | %d | %.2f | %.3f | %.1fx | %.2f | %.3f | %.1fx |\n' "$cons" "$lg" $((1 << lg)) \
        "$s" "$g" "$(awk -v a="$s" -v b="$g" 'BEGIN {print a / b}')" \
        "$sc" "$gc" "$(awk -v a="$sc" -v b="$gc" 'BEGIN {print a / b}')"
done
