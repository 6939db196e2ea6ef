#!/usr/bin/env bash
# Instruction histogram of the device kernels whose (mangled) name matches PATTERN, from
# cuobjdump's SASS of BINARY: what the multiplication-bound kernels spend their issue
# slots on (IMAD.WIDE against the carry and select work around them).
# Usage: bench/gpu/sass_hist.sh BINARY PATTERN [TOP]     (TOP opcodes per kernel, default 12)
set -u
[ $# -ge 2 ] || { sed -n '2,5p' "$0"; exit 2; }
bin=$1 pat=$2 top=${3:-12}
cuobjdump=$(command -v cuobjdump || ls /usr/local/cuda/bin/cuobjdump 2>/dev/null | head -1)
[ -n "$cuobjdump" ] || { echo "sass_hist.sh: cuobjdump not found"; exit 2; }
"$cuobjdump" --dump-sass "$bin" | python3 -c '
import re, sys, collections
pat, top = sys.argv[1], int(sys.argv[2])
fn, hist = None, {}
for line in sys.stdin:
    m = re.match(r"\s*Function : (\S+)", line)
    if m:
        fn = m.group(1) if re.search(pat, m.group(1)) else None
        if fn: hist[fn] = collections.Counter()
        continue
    if fn is None: continue
    m = re.match(r"\s*/\*[0-9a-f]{4,}\*/\s+(?:@!?U?P\w+\s+)?([A-Z][A-Z0-9_.]*)", line)
    if m: hist[fn][m.group(1)] += 1
for fn, h in hist.items():
    tot = sum(h.values())
    print("%s: %d instructions" % (fn, tot))
    for op, k in h.most_common(top):
        print("  %-22s %6d  %5.1f%%" % (op, k, 100.0 * k / tot))
' "$pat" "$top"
