#!/usr/bin/env bash
# `g16 circuit gen|check|info`: files written, counts printed, satisfied witnesses
# accepted, broken ones and malformed files refused with the documented exit codes.
# usage: circuit.sh G16_BINARY SOURCE_DIR
set -u
g16=$1
. "$2/tests/cli/lib/common.sh"

# gen: every profile, counts from the 2^N - 1 - I rule
for prof in porep dense bits; do
    run "gen $prof" 0 "$g16" circuit gen --log-n 10 --inputs 5 --profile $prof --seed 7 -o "$tmp/$prof.g16c" || continue
    has "gen $prof constraints" "$tmp/out" "^constraints: 1018$"
    has "gen $prof rows" "$tmp/out" "^rows: 1024$"
    has "gen $prof inputs" "$tmp/out" "^inputs: 5$"
    has "gen $prof aux" "$tmp/out" "^aux: 1018$"
    [ -s "$tmp/$prof.g16c" ] && ok || bad "gen $prof: no circuit file"
    [ -s "$tmp/$prof.g16w" ] && ok || bad "gen $prof: no witness next to the circuit"
    # witness: 32-byte header + 32 bytes per variable (1 + 5 + 1018)
    size=$(stat -c %s "$tmp/$prof.g16w")
    [ "$size" = $((32 + 32 * 1024)) ] && ok || bad "gen $prof: witness has $size bytes"
    run "check $prof" 0 "$g16" circuit check "$tmp/$prof.g16c" "$tmp/$prof.g16w" && has "check $prof" "$tmp/out" "^satisfied$"
    run "info $prof" 0 "$g16" circuit info "$tmp/$prof.g16c" && has "info $prof" "$tmp/out" "^constraints: 1018$"
done

# same seed, same files; another seed, another circuit
"$g16" circuit gen --log-n 10 --inputs 5 --profile porep --seed 7 -o "$tmp/again.g16c" >/dev/null 2>&1
cmp -s "$tmp/porep.g16c" "$tmp/again.g16c" && cmp -s "$tmp/porep.g16w" "$tmp/again.g16w" && ok || bad "same seed gave different files"
"$g16" circuit gen --log-n 10 --inputs 5 --profile porep --seed 8 -o "$tmp/other.g16c" >/dev/null 2>&1
cmp -s "$tmp/porep.g16c" "$tmp/other.g16c" && bad "seed 8 gave the file of seed 7" || ok

# --witness, zero inputs, the smallest size
run "gen --witness" 0 "$g16" circuit gen --log-n 2 --inputs 0 --seed 1 -o "$tmp/tiny.g16c" --witness "$tmp/w.bin"
has "tiny constraints" "$tmp/out" "^constraints: 3$"
[ -s "$tmp/w.bin" ] && ok || bad "--witness file not written"
run "check tiny" 0 "$g16" circuit check "$tmp/tiny.g16c" "$tmp/w.bin"
run "gen no extension" 0 "$g16" circuit gen --log-n 4 -o "$tmp/noext"
[ -s "$tmp/noext.g16w" ] && ok || bad "witness of a name without .g16c not at NAME.g16w"

# a witness of another circuit: unsatisfied (exit 1) naming a constraint, or a shape error (2)
"$g16" circuit gen --log-n 10 --inputs 5 --profile porep --seed 9 -o "$tmp/p9.g16c" >/dev/null 2>&1
run "check wrong witness" 1 "$g16" circuit check "$tmp/porep.g16c" "$tmp/p9.g16w" &&
    has "check wrong witness message" "$tmp/out" "constraint [0-9]* is not satisfied: a·z = 0x"
run "check witness of other size" 2 "$g16" circuit check "$tmp/porep.g16c" "$tmp/tiny.g16w"

# one flipped bit in the last witness value breaks the circuit (value stays canonical: low bit)
cp "$tmp/dense.g16w" "$tmp/flip.g16w"
size=$(stat -c %s "$tmp/flip.g16w")
off=$((size - 32))
orig=$(od -An -tu1 -j $off -N1 "$tmp/flip.g16w" | tr -d ' ')
printf "$(printf '\\%03o' $((orig ^ 1)))" | dd of="$tmp/flip.g16w" bs=1 seek=$off conv=notrunc status=none
run "check flipped value" 1 "$g16" circuit check "$tmp/dense.g16c" "$tmp/flip.g16w" &&
    has "flipped names the last constraint" "$tmp/out" "constraint 1017 is not satisfied"

# malformed files: exit 2, message names the file and the offset
head -c 100 "$tmp/porep.g16c" >"$tmp/trunc.g16c"
run "truncated circuit" 2 "$g16" circuit check "$tmp/trunc.g16c" "$tmp/porep.g16w" &&
    has "truncated message" "$tmp/err" "trunc.g16c: offset [0-9]*: file ends inside"
head -c 40 "$tmp/porep.g16w" >"$tmp/trunc.g16w"
run "truncated witness" 2 "$g16" circuit check "$tmp/porep.g16c" "$tmp/trunc.g16w" &&
    has "truncated witness message" "$tmp/err" "trunc.g16w: offset 40: file ends inside the values"
printf 'not a circuit, just text that is long enough to hold a header ................\n' >"$tmp/garbage.g16c"
run "garbage circuit" 2 "$g16" circuit info "$tmp/garbage.g16c" &&
    has "garbage message" "$tmp/err" "offset 0: expected the magic"
run "witness as circuit" 2 "$g16" circuit info "$tmp/porep.g16w"
run "missing file" 2 "$g16" circuit info "$tmp/nope.g16c"

# argument errors: exit 2 with a message
run "no args" 2 "$g16" circuit
run "unknown sub" 2 "$g16" circuit frob
run "gen without -o" 2 "$g16" circuit gen --log-n 4
run "gen without --log-n" 2 "$g16" circuit gen -o "$tmp/x.g16c"
run "gen bad profile" 2 "$g16" circuit gen --log-n 4 --profile sha -o "$tmp/x.g16c" && has "bad profile message" "$tmp/err" "porep, dense or bits"
run "gen log-n 1" 2 "$g16" circuit gen --log-n 1 -o "$tmp/x.g16c"
run "gen log-n 32" 2 "$g16" circuit gen --log-n 32 -o "$tmp/x.g16c"
run "gen log-n text" 2 "$g16" circuit gen --log-n ten -o "$tmp/x.g16c"
run "gen negative inputs" 2 "$g16" circuit gen --log-n 4 --inputs -1 -o "$tmp/x.g16c"
run "gen too many inputs" 2 "$g16" circuit gen --log-n 3 --inputs 7 -o "$tmp/x.g16c" && has "inputs message" "$tmp/err" "inputs"
run "gen unknown option" 2 "$g16" circuit gen --log-n 4 --frob -o "$tmp/x.g16c"
run "gen missing value" 2 "$g16" circuit gen --log-n 4 -o
run "gen unwritable" 2 "$g16" circuit gen --log-n 4 -o "$tmp/no/such/dir/x.g16c"
run "check one arg" 2 "$g16" circuit check "$tmp/porep.g16c"
run "help" 0 "$g16" circuit --help && has "help text" "$tmp/out" "g16 circuit gen"

finish circuit.sh
