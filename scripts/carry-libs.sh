#!/usr/bin/env bash
# Copies binaries and the shared libraries they load (ldd), except the C library's own
# (the machine they go to has glibc, not our -dev packages' libraries), into DIR/bin and
# DIR/lib, for a run on another machine with LD_LIBRARY_PATH=DIR/lib.
# usage: scripts/carry-libs.sh DIR BINARY...
set -euo pipefail
dir=$1
shift
mkdir -p "$dir/bin" "$dir/lib"
for b in "$@"; do
    cp -L "$b" "$dir/bin/"
    ldd "$b" | awk '/=> \// {print $3}'
done | grep -vE '/(libc|libm|libpthread|libdl|librt|libresolv|ld-linux[^/]*)\.so' | sort -u |
    while read -r l; do cp -Lu "$l" "$dir/lib/"; done
echo "carry-libs: $(ls "$dir/bin" | wc -l) binaries, $(ls "$dir/lib" | wc -l) libraries, $(du -sh "$dir" | cut -f1) in $dir"
