#!/usr/bin/env bash
# Loading a proving key from its .params and from its key cache (.g16k), cold and
# warm page cache.  "cold": the file's pages are dropped from the page cache first
# (posix_fadvise DONTNEED on that file only, checked with fincore, so other work on a
# shared machine keeps its cache); "warm": the same load right after another one.
# usage: [ROUNDS=2] bench/keycache/run.sh G16 DIR LOGN...   (DIR holds k<LOGN>.params and
#        k<LOGN>.g16k, made by g16 setup and g16 key cache); prints one line per load.
set -euo pipefail
g16=$1 dir=$2
shift 2
drop() {
    python3 -c 'import os,sys; fd=os.open(sys.argv[1],os.O_RDONLY); os.fsync(fd); os.posix_fadvise(fd,0,0,os.POSIX_FADV_DONTNEED); os.close(fd)' "$1"
    local cached
    cached=$(fincore -b -n -o RES "$1" | tr -d ' ')
    [ "$cached" -lt $((64 << 20)) ] || echo "warning: $1 still has $cached bytes cached" >&2
}
load() { # load LABEL FILE ARGS...
    local label=$1 file=$2
    shift 2
    local s
    s=$("$g16" key load "$file" "$@" | sed -n 's/^loaded in \([0-9.]*\) s.*/\1/p')
    printf '%-6s %-22s %s s\n' "$label" "$(basename "$file") $*" "$s"
}
for n in "$@"; do
    p=$dir/k$n.params c=$dir/k$n.g16k
    echo "2^$n: .params $(stat -c %s "$p") bytes, .g16k $(stat -c %s "$c") bytes"
    for round in $(seq "${ROUNDS:-2}"); do
        drop "$p"; load cold "$p"; load warm "$p"
        drop "$c"; load cold "$c"; load warm "$c"
        drop "$c"; load cold "$c" --trust; load warm "$c" --trust
    done
done
