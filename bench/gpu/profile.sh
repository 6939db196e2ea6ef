#!/usr/bin/env bash
# Kernel durations of one operation under ncu (duration only, clocks left alone), summed by
# kernel with bench/gpu/ncu_summary.py: where an MSM or a proof's GPU time goes.
# Usage: bench/gpu/profile.sh BIN_DIR OUT_DIR g1|g2 LOG     (the bench's MSM at 2^LOG: G1 5 runs
#                                                          to 2^24, 3 above; G2 3 runs)
#        bench/gpu/profile.sh BIN_DIR OUT_DIR prove LOG     (g16 bench prove --backend cuda
#                                                          --timing-key --reps 1 at 2^LOG)
# BIN_DIR holds g16_gpu_bench and g16 (a build-gpu tree or a copy).  Writes OUT_DIR/WHAT_LOG.csv.
set -u
[ $# -eq 4 ] || { sed -n '2,8p' "$0"; exit 2; }
bin=$1 out=$2 what=$3 lg=$4
here=$(cd "$(dirname "$0")" && pwd)
ncu=$(command -v ncu || ls /usr/local/cuda/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
[ -n "$ncu" ] || { echo "profile.sh: ncu not found (PATH, /usr/local/cuda/bin, /opt/nvidia/nsight-compute)"; exit 2; }
mkdir -p "$out"
case $what in
    g1 | g2) # the bench's repetitions (tests/gpu/bench.c): G1 5 to 2^24 and 3 above, G2 always 3
             reps=$([ "$what" = g1 ] && [ "$lg" -le 24 ] && echo 5 || echo 3)
             cmd=("$bin/g16_gpu_bench" --only "$what" --lo "$lg" --hi "$lg" --no-hmsm) ;;
    prove) reps=""
           cmd=("$bin/g16" bench prove --log-n "$lg" --backend cuda --timing-key --reps 1) ;;
    *) echo "profile.sh: WHAT is g1, g2 or prove, not $what"; exit 2 ;;
esac
csv=$out/${what}_$lg.csv
"$ncu" --clock-control none --metrics gpu__time_duration.sum --csv "${cmd[@]}" >"$csv" 2>"$out/${what}_$lg.err"
rc=$?
[ $rc -eq 0 ] || { echo "profile.sh: ncu exited $rc; last lines of $out/${what}_$lg.err:"; tail -n 5 "$out/${what}_$lg.err"; exit 1; }
python3 "$here/ncu_summary.py" "$csv" $reps
