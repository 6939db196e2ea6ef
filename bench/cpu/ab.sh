#!/usr/bin/env bash
# A/B timing of two g16 builds on this machine (issue 28's "BLS12-381 speed unchanged by
# the generalization"): the same BLS12-381 benchmarks from binary A and binary B,
# alternating A, B, A, B, ... ROUNDS times so that drift and other load hit both, then
# per benchmark the median of each side and B/A.  Run it on a quiet machine.
# usage: bench/cpu/ab.sh A_G16 B_G16 [ROUNDS]      (ROUNDS default 5)
#   AB_CPU=N   run every benchmark pinned to CPU N (taskset) with one thread: the other
#              core's load and the thread hand-offs then stay out of the figures
set -euo pipefail
a=$1 b=$2 rounds=${3:-5}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pin=() thr=()
if [ -n "${AB_CPU:-}" ]; then pin=(taskset -c "$AB_CPU"); thr=(--threads 1); fi
one() { # $1 side, $2 binary: every benchmark once, one JSON line each
    "${pin[@]}" "$2" bench field --json | sed "s/^/$1 /"
    for g in "g1 16" "g1 18" "g2 14"; do
        set -- "$1" "$2" $g
        "${pin[@]}" "$2" bench msm --group "$3" --log-n "$4" --reps 3 "${thr[@]}" --json | sed "s/^/$1 /"
    done
    for n in 16 20; do "${pin[@]}" "$2" bench ntt --log-n $n --reps 5 "${thr[@]}" --json | sed "s/^/$1 /"; done
}
for r in $(seq 1 "$rounds"); do
    if [ $((r % 2)) = 1 ]; then
        one A "$a" >> "$tmp/all"
        one B "$b" >> "$tmp/all"
    else
        one B "$b" >> "$tmp/all"
        one A "$a" >> "$tmp/all"
    fi
    echo "round $r of $rounds done" >&2
done
python3 - "$tmp/all" <<'PY'
import json, statistics, sys
t = {}
for line in open(sys.argv[1]):
    side, js = line.split(" ", 1)
    j = json.loads(js)
    if j["bench"] == "field":
        key, v = f"field {j['op']} (ns)", j["ns"]
    elif j["bench"] == "msm":
        key, v = f"msm {j['group']} 2^{j['log_n']} (s)", j["seconds"]
    else:
        key, v = f"ntt 2^{j['log_n']} (s)", j["seconds"]
    t.setdefault(key, {}).setdefault(side, []).append(v)
print(f"{'benchmark':28} {'A median':>12} {'B median':>12} {'B/A':>7} {'A min':>12} {'B min':>12} {'B/A':>7}")
worst = worst_min = 0.0
for k, v in t.items():
    ma, mb = statistics.median(v["A"]), statistics.median(v["B"])
    na, nb = min(v["A"]), min(v["B"])
    worst = max(worst, abs(mb / ma - 1))
    worst_min = max(worst_min, abs(nb / na - 1))
    print(f"{k:28} {ma:12.6g} {mb:12.6g} {mb / ma:7.3f} {na:12.6g} {nb:12.6g} {nb / na:7.3f}")
print(f"largest |B/A - 1|: medians {100 * worst:.1f}%, minima {100 * worst_min:.1f}%")
PY
