#!/usr/bin/env bash
# The fuzz campaign on a bigger machine (issue 26's bar: every harness toward 10^7
# executions): the harnesses built here, run there in parallel, one process each.
#
#   here:   tests/fuzz/device.sh pack [BUILD]          (BUILD default build-fuzz, made by
#               make fuzz-build) writes BUILD/device.tar.xz: the fuzz-* binaries (debug info
#               stripped, symbols kept), the shared libraries they load (scripts/carry-libs.sh)
#               and the inputs earlier runs found (BUILD/fuzz-work/<h>/corpus);
#   there:  tests/fuzz/device.sh run SECONDS [BUILD]   (carry BUILD/device.tar.xz)
#               unpacks it under /tmp, runs tests/fuzz/run.sh with every harness at once for
#               SECONDS (each from its committed seeds, regression inputs and the packed
#               corpus), and writes to $OUT (default BUILD/device-out): summary.txt (per
#               harness: executions, execs/s, cov / ft, result), logs/<h>.log, any crash input
#               in artifacts/<h>/, and corpus.tar.xz (every harness's corpus after the run,
#               when under 40 MB) to bring back into BUILD/fuzz-work.
#   there:  tests/fuzz/device.sh copies SECONDS "H H ..." "H ..." ...
#               (BUILD is build-fuzz) the pack unpacked once per list, each copy running its
#               list's harnesses at once with its own corpus, all copies side by side: a
#               harness named in k lists runs on k cores.  Writes $OUT/summary.txt: every
#               copy's lines, then per harness the executions of all its copies together.
# Exit status 1 when any harness crashed, leaked, hung or failed its own check.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
mode=${1:-}
case $mode in
pack)
    B=$(cd "${2:-$root/build-fuzz}" && pwd)
    st=$(mktemp -d)
    trap 'rm -rf "$st"' EXIT
    bash "$root/scripts/carry-libs.sh" "$st" "$B"/fuzz/fuzz-* >/dev/null || exit 1
    mkdir -p "$st/fuzz" && mv "$st"/bin/* "$st/fuzz/" && rmdir "$st/bin"
    for f in "$st"/fuzz/*; do strip --strip-debug "$f"; done
    for d in "$B"/fuzz-work/*/corpus; do
        [ -d "$d" ] || continue
        h=$(basename "$(dirname "$d")")
        mkdir -p "$st/fuzz-work/$h" && cp -r "$d" "$st/fuzz-work/$h/"
    done
    tar -C "$st" -cf - . | xz -T2 -6 >"$B/device.tar.xz" || exit 1
    echo "device.sh: $B/device.tar.xz ($(du -h "$B/device.tar.xz" | cut -f1)): $(ls "$st/fuzz" | wc -l) harnesses," \
        "$(ls "$st/lib" | wc -l) libraries, $(find "$st/fuzz-work" -type f 2>/dev/null | wc -l) corpus inputs"
    ;;
run)
    S=${2:?usage: device.sh run SECONDS [BUILD]}
    B=${3:-$root/build-fuzz}
    out=${OUT:-$B/device-out}
    W=/tmp/g16-fuzz-device
    rm -rf "$W" && mkdir -p "$W" "$out/logs" "$out/artifacts"
    xz -dc "$B/device.tar.xz" | tar -C "$W" -xf - || exit 1
    export LD_LIBRARY_PATH=$W/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
    hs=$(ls "$W/fuzz" | sed 's/^fuzz-//')
    n=$(echo $hs | wc -w)
    echo "device.sh: $n harnesses for $S s on $(nproc) cores, $(date -u +%FT%TZ)" | tee "$out/summary.txt"
    bash "$here/run.sh" "$W" "$S" "$n" $hs | tee -a "$out/summary.txt"
    rc=${PIPESTATUS[0]}
    # execs/s from each log's final stats (the run's own time: SECONDS)
    for h in $hs; do
        cp "$W/fuzz-work/$h/log" "$out/logs/$h.log" 2>/dev/null
        if [ -n "$(ls -A "$W/fuzz-work/$h/artifacts" 2>/dev/null)" ]; then
            mkdir -p "$out/artifacts/$h" && cp "$W/fuzz-work/$h/artifacts"/* "$out/artifacts/$h/"
        fi
    done
    awk -v s="$S" '$2 == "execs" && $3 ~ /^[0-9]+$/ {printf "%-16s %8.0f execs/s\n", $1, $3 / s}' "$out/summary.txt" \
        | tee -a "$out/summary.txt"
    (cd "$W" && tar -cf - fuzz-work/*/corpus | xz -T0 -6 >"$out/corpus.tar.xz")
    [ "$(stat -c %s "$out/corpus.tar.xz")" -lt $((40 << 20)) ] || rm -f "$out/corpus.tar.xz"
    exit "$rc"
    ;;
copies)
    S=${2:?usage: device.sh copies SECONDS LIST...}
    shift 2
    B=$root/build-fuzz
    out=${OUT:-$B/device-out}
    mkdir -p "$out"
    echo "device.sh: $# copies for $S s on $(nproc) cores, $(date -u +%FT%TZ)" | tee "$out/summary.txt"
    k=0
    for list in "$@"; do
        k=$((k + 1))
        W=/tmp/g16-fuzz-copy$k
        rm -rf "$W" && mkdir -p "$W"
        xz -dc "$B/device.tar.xz" | tar -C "$W" -xf - || exit 1
        # shellcheck disable=SC2086
        (LD_LIBRARY_PATH=$W/lib bash "$here/run.sh" "$W" "$S" "$(echo $list | wc -w)" $list \
            > "$W/summary.txt" 2>&1; echo "rc $?" >> "$W/summary.txt") &
    done
    wait
    rc=0
    for i in $(seq 1 $k); do
        sed "s/^/copy $i: /" "/tmp/g16-fuzz-copy$i/summary.txt" | tee -a "$out/summary.txt"
        grep -q "^rc 0$" "/tmp/g16-fuzz-copy$i/summary.txt" || rc=1
        for a in /tmp/g16-fuzz-copy$i/fuzz-work/*/artifacts/*; do
            [ -e "$a" ] || continue
            mkdir -p "$out/artifacts/copy$i" && cp "$a" "$out/artifacts/copy$i/"
        done
    done
    echo "total executions per harness:" | tee -a "$out/summary.txt"
    awk '$4 == "execs" && $5 ~ /^[0-9]+$/ {t[$3] += $5; c[$3]++}
         END {for (h in t) printf "%-16s %10d execs in %d copies\n", h, t[h], c[h]}' "$out/summary.txt" \
        | sort | tee -a "$out/summary.txt"
    exit "$rc"
    ;;
*)
    sed -n '2,23p' "$0"
    exit 2
    ;;
esac
