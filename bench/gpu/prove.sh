#!/usr/bin/env bash
# Whole proofs on the GPU machine with the CUDA backend (called by run.sh; runs alone too):
#   1. byte-identical proofs: one circuit and TEST-ONLY key, the same deterministic r, s,
#      proved with --backend cpu and --backend cuda; the two proof files must be equal and
#      verify (2^12 porep, 2^14 dense, 2^16 porep);
#   2. `g16 bench prove --backend cuda` with a real TEST-ONLY setup (verified) at 2^18, also
#      with G16_CUDA_Z_SPLIT=1 (z's upload and the L MSM split, as from 2^22 scalars);
#   3. prove_start timing with a TIMING-ONLY key (tiled points: no setup minutes, proof not
#      valid) at the sizes given (default 24 26), 2 proofs each, the faster reported (warm).
# Usage: bench/gpu/prove.sh BIN_DIR OUT_DIR [LOG_N...]
# Prints "PROVE <what> <log n> <prove_start s> <first s> <h_ntt> <msm_h> <msm_l> <msm_a> <msm_b1>
# <msm_b2>" lines and "IDENTICAL <log n> <profile> ok|FAIL" lines.  Exit 1 on any mismatch, failed
# run or INVALID proof of a real key.
set -u
bin=$1; out=$2; shift 2
sizes=${*:-24 26}
g16=$bin/g16
rc=0
work=$out/prove-work
mkdir -p "$work"
for spec in 12:porep 14:dense 16:porep; do
    lg=${spec%%:*}; prof=${spec##*:}
    c=$work/c$lg.g16c; w=$work/c$lg.g16w; k=$work/k$lg.params
    if ! { "$g16" circuit gen --log-n "$lg" --profile "$prof" --inputs 3 --seed "$lg" -o "$c" &&
           "$g16" setup --circuit "$c" --seed "s$lg" -o "$k" --vk "$work/k$lg.vk"; } >>"$out/prove.log" 2>&1; then
        echo "IDENTICAL $lg $prof FAIL(setup)"; rc=1; continue
    fi
    ok=ok
    for be in cpu cuda; do
        "$g16" prove --params "$k" --circuit "$c" --witness "$w" --seed-rs rs$lg --backend $be \
            -o "$work/p$lg.$be" --inputs-out "$work/in$lg.txt" >>"$out/prove.log" 2>&1 || ok="FAIL(prove $be)"
    done
    [ "$ok" = ok ] && { cmp -s "$work/p$lg.cpu" "$work/p$lg.cuda" || ok="FAIL(differ)"; }
    [ "$ok" = ok ] && { "$g16" verify --vk "$work/k$lg.vk" --proof "$work/p$lg.cuda" \
        --inputs "$work/in$lg.txt" >>"$out/prove.log" 2>&1 || ok="FAIL(verify)"; }
    echo "IDENTICAL $lg $prof $ok"
    [ "$ok" = ok ] || rc=1
done
emit() {  # what log_n json-line
    python3 - "$1" "$2" "$3" <<'PY'
import json, sys
r = json.loads(sys.argv[3])
print("PROVE %s %s %.4f %.4f %.4f %.4f %.4f %.4f %.4f %.4f %s" % (sys.argv[1], sys.argv[2],
      r["prove_start"], r["first_prove_start"], r["h_ntt"], r["msm_h"], r["msm_l"], r["msm_a"],
      r["msm_b1"], r["msm_b2"], "valid" if r["valid"] else ("timing-key" if r["timing_key"] else "INVALID")))
sys.exit(0 if r["valid"] or r["timing_key"] else 1)  # an invalid real-key proof fails the script
PY
}
j=$("$g16" bench prove --log-n 18 --backend cuda --reps 2 --json 2>>"$out/prove.log")
if [ -n "$j" ]; then emit setup18 18 "$j" || rc=1; else echo "PROVE setup18 18 FAILED"; rc=1; fi
# the same with z's upload and the L MSM split (prove_start does that from 2^22 scalars)
j=$(G16_CUDA_Z_SPLIT=1 "$g16" bench prove --log-n 18 --backend cuda --reps 2 --json 2>>"$out/prove.log")
if [ -n "$j" ]; then emit setup18split 18 "$j" || rc=1; else echo "PROVE setup18split 18 FAILED"; rc=1; fi
for lg in $sizes; do
    j=$(timeout 400 "$g16" bench prove --log-n "$lg" --backend cuda --reps 2 --timing-key --json 2>>"$out/prove.log")
    if [ -n "$j" ]; then emit timing "$lg" "$j" || rc=1; echo "$j" >>"$out/prove.jsonl"; else echo "PROVE timing $lg FAILED"; rc=1; fi
done
exit $rc
