#!/usr/bin/env bash
# A/B of environment settings on a CUDA proof: `g16 bench prove --log-n LOG --profile PROFILE
# --backend cuda --timing-key --reps 2 --json` under setting A, then B, ROUNDS times (alternated,
# so that the card's drift between runs falls on both), a line a run with prove_start and its
# stages, then each setting's medians.  The proofs use a TIMING-ONLY key: not verified.
# Usage: bench/gpu/ab.sh BIN_DIR LOG PROFILE 'VAR=a [VAR2=..]' 'VAR=b [..]' [ROUNDS (default 2)]
#        BIN_DIR holds g16 (a build tree or a multi.sh pack's bin/).
# Exit status: 0 when every run gave its JSON line.
set -u
[ $# -ge 5 ] || { sed -n '2,7p' "$0"; exit 2; }
bin=$1 lg=$2 prof=$3 a=$4 b=$5 rounds=${6:-2}
[ -x "$bin/g16" ] || { echo "ab.sh: $bin/g16 is not an executable"; exit 2; }
rc=0 lines=""
for r in $(seq 1 "$rounds"); do
    for side in A B; do
        set_=$([ $side = A ] && echo "$a" || echo "$b")
        # word splitting of the setting is wanted: several VAR=value words
        # shellcheck disable=SC2086
        j=$(env $set_ timeout 300 "$bin/g16" bench prove --log-n "$lg" --profile "$prof" --backend cuda \
            --timing-key --reps 2 --json 2>/dev/null | tail -n 1)
        if [ -z "$j" ]; then echo "AB $side ($set_) round $r: FAILED"; rc=1; continue; fi
        lines+="$side $j"$'\n'
    done
done
printf '%s' "$lines" | python3 -c '
import json, statistics, sys
keys = ["prove_start", "h_ntt", "msm_h", "msm_l", "msm_a", "msm_b1", "msm_b2"]
rows = {"A": [], "B": []}
print("%-4s %s" % ("", " ".join("%11s" % k for k in keys)))
for line in sys.stdin:
    side, js = line.split(" ", 1)
    r = json.loads(js)
    rows[side].append(r)
    print("%-4s %s" % (side, " ".join("%11.4f" % r[k] for k in keys)))
for side, label in (("A", sys.argv[1]), ("B", sys.argv[2])):
    if rows[side]:
        med = [statistics.median(r[k] for r in rows[side]) for k in keys]
        print("med%s %s   (%s)" % (side, " ".join("%11.4f" % m for m in med), label))
' "$a" "$b"
exit $rc
