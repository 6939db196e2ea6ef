#!/usr/bin/env bash
# `g16 setup | prove | verify | info`: gen → setup → prove → verify, and the exit
# codes for tampered proofs (1), wrong inputs (1), garbage files (2).
# usage: groth16.sh G16_BINARY SOURCE_DIR
set -u
g16=$1
dir=$(mktemp -d /tmp/g16_cli_groth16.XXXXXX)
trap 'rm -rf "$dir"' EXIT
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }
expect() { # expect NAME WANT_EXIT CMD...   (exit status only)
    local name=$1 wexit=$2
    shift 2
    "$@" >"$dir/out" 2>"$dir/err"
    local code=$?
    if [ "$code" != "$wexit" ]; then
        bad "$name: exit $code, want $wexit: $(head -c 400 "$dir/err") $(head -c 400 "$dir/out")"
    else ok; fi
}
has() { # has NAME FILE TEXT
    if grep -q -- "$3" "$2"; then ok; else bad "$1: '$3' not in $(head -c 400 "$2")"; fi
}

C=$dir/c.g16c W=$dir/c.g16w K=$dir/k.params V=$dir/k.vk P=$dir/p.bin
expect "circuit gen" 0 "$g16" circuit gen --log-n 9 --inputs 2 --profile porep --seed 3 -o "$C"
expect "setup" 0 "$g16" setup --circuit "$C" --seed s1 -o "$K" --vk "$V"
has "setup says test-only (stdout)" "$dir/out" "TEST-ONLY"
has "setup warns (stderr)" "$dir/err" "TEST-ONLY"
expect "setup --help" 0 "$g16" setup --help
has "setup help says test-only" "$dir/out" "TEST-ONLY"
expect "prove" 0 "$g16" prove --params "$K" --circuit "$C" --witness "$W" -o "$P" --seed-rs r1
size=$(stat -c %s "$P")
[ "$size" = 192 ] && ok || bad "proof size $size"
expect "verify vk, witness inputs" 0 "$g16" verify --vk "$V" --proof "$P" --inputs "$W"
expect "verify params" 0 "$g16" verify --params "$K" --proof "$P" --inputs "$W"

# deterministic r, s: same bytes again; fresh randomness: different bytes, still valid
expect "prove again" 0 "$g16" prove --params "$K" --circuit "$C" --witness "$W" -o "$dir/p2.bin" --seed-rs r1
cmp -s "$P" "$dir/p2.bin" && ok || bad "--seed-rs proofs differ"
expect "prove random" 0 "$g16" prove --params "$K" --circuit "$C" --witness "$W" -o "$dir/p3.bin"
cmp -s "$P" "$dir/p3.bin" && bad "random proof equals the seeded one" || ok
expect "verify random" 0 "$g16" verify --vk "$V" --proof "$dir/p3.bin" --inputs "$W"

# zero public inputs
"$g16" circuit gen --log-n 6 --inputs 0 --profile bits --seed 4 -o "$dir/z.g16c" >/dev/null 2>&1
expect "setup 0 inputs" 0 "$g16" setup --circuit "$dir/z.g16c" --seed s2 -o "$dir/z.params" --vk "$dir/z.vk"
expect "prove 0 inputs" 0 "$g16" prove --params "$dir/z.params" --circuit "$dir/z.g16c" --witness "$dir/z.g16w" -o "$dir/z.bin"
: >"$dir/empty.txt"
expect "verify 0 inputs, empty file" 0 "$g16" verify --vk "$dir/z.vk" --proof "$dir/z.bin" --inputs "$dir/empty.txt"
expect "verify 0 inputs, empty hex" 0 "$g16" verify --vk "$dir/z.vk" --proof "$dir/z.bin" --inputs-hex ""
expect "verify 0 inputs given 1" 2 "$g16" verify --vk "$dir/z.vk" --proof "$dir/z.bin" --inputs-hex 1

# wrong inputs: count (2) and values (1)
printf '1\n2\n' >"$dir/in12.txt"
expect "wrong input values" 1 "$g16" verify --vk "$V" --proof "$P" --inputs "$dir/in12.txt"
expect "wrong input values hex" 1 "$g16" verify --vk "$V" --proof "$P" --inputs-hex 0x1,2
printf '1\n' >"$dir/in1.txt"
expect "too few inputs" 2 "$g16" verify --vk "$V" --proof "$P" --inputs "$dir/in1.txt"
printf '1\nxyz\n' >"$dir/inbad.txt"
expect "unparsable input" 2 "$g16" verify --vk "$V" --proof "$P" --inputs "$dir/inbad.txt"
R=52435875175126190479447740508185965837690552500527637822603658699938581184513
printf '%s\n1\n' "$R" >"$dir/inr.txt"
expect "input = r" 2 "$g16" verify --vk "$V" --proof "$P" --inputs "$dir/inr.txt"

# tampered proofs: a bit in each of A, B, C and the flag byte
for off in 0 10 47 48 100 143 144 170 191; do
    cp "$P" "$dir/t.bin"
    byte=$(od -An -tu1 -j "$off" -N1 "$P" | tr -d ' ')
    printf "$(printf '\\%03o' $(( (byte ^ 1) )))" | dd of="$dir/t.bin" bs=1 seek="$off" conv=notrunc 2>/dev/null
    expect "tampered byte $off" 1 "$g16" verify --vk "$V" --proof "$dir/t.bin" --inputs "$W"
done
# another key's vk
expect "setup other seed" 0 "$g16" setup --circuit "$C" --seed s9 -o "$dir/k9.params" --vk "$dir/k9.vk"
expect "other key's vk" 1 "$g16" verify --vk "$dir/k9.vk" --proof "$P" --inputs "$W"

# batch: two proofs in one file, inputs listed per proof; one bad proof rejects the batch
expect "prove with --inputs-out" 0 "$g16" prove --params "$K" --circuit "$C" --witness "$W" -o "$dir/p4.bin" --inputs-out "$dir/in.txt"
expect "verify text inputs" 0 "$g16" verify --vk "$V" --proof "$dir/p4.bin" --inputs "$dir/in.txt"
cat "$P" "$dir/p3.bin" >"$dir/two.bin"
cat "$dir/in.txt" "$dir/in.txt" >"$dir/in2.txt"
expect "batch of two" 0 "$g16" verify --vk "$V" --proof "$dir/two.bin" --inputs "$dir/in2.txt"
expect "batch, one group of inputs" 2 "$g16" verify --vk "$V" --proof "$dir/two.bin" --inputs "$W"
cat "$P" "$dir/t.bin" >"$dir/twobad.bin"
expect "batch with a tampered proof" 1 "$g16" verify --vk "$V" --proof "$dir/twobad.bin" --inputs "$dir/in2.txt"
hexlist=$(sed 's/^0x//' "$dir/in.txt" | paste -sd, -)
expect "verify --inputs-hex" 0 "$g16" verify --vk "$V" --proof "$P" --inputs-hex "$hexlist"
# decimal: convert the first input with the shell's bc when present
if command -v python3 >/dev/null; then
    python3 -c "import sys; print('\n'.join(str(int(l,16)) for l in open(sys.argv[1])))" "$dir/in.txt" >"$dir/in_dec.txt"
    expect "verify decimal inputs" 0 "$g16" verify --vk "$V" --proof "$P" --inputs "$dir/in_dec.txt"
fi
head -c 192 /dev/urandom >"$dir/rand192"
expect "random 192 bytes as proof" 1 "$g16" verify --vk "$V" --proof "$dir/rand192" --inputs "$W"

# garbage files (2)
head -c 1000 /dev/urandom >"$dir/garbage"
expect "garbage vk" 2 "$g16" verify --vk "$dir/garbage" --proof "$P" --inputs "$W"
expect "garbage proof (size)" 2 "$g16" verify --vk "$V" --proof "$dir/garbage" --inputs "$W"
expect "missing proof" 2 "$g16" verify --vk "$V" --proof "$dir/nope" --inputs "$W"
expect "garbage params for prove" 2 "$g16" prove --params "$dir/garbage" --circuit "$C" --witness "$W" -o "$dir/x"
head -c 5000 "$K" >"$dir/trunc.params"
expect "truncated params" 2 "$g16" prove --params "$dir/trunc.params" --circuit "$C" --witness "$W" -o "$dir/x"
has "truncated params message names the file" "$dir/err" "trunc.params"
expect "key for another circuit" 2 "$g16" prove --params "$dir/z.params" --circuit "$C" --witness "$W" -o "$dir/x"
expect "setup missing args" 2 "$g16" setup --circuit "$C"
expect "verify missing args" 2 "$g16" verify --vk "$V"

# info: each kind recognised and valid; broken ones invalid
expect "info circuit" 0 "$g16" info "$C"
has "info circuit kind" "$dir/out" "compiled circuit"
expect "info params" 0 "$g16" info "$K"
has "info params kind" "$dir/out" "proving key"
expect "info vk" 0 "$g16" info "$V"
has "info vk kind" "$dir/out" "verifying key"
expect "info proof" 0 "$g16" info "$P"
has "info proof kind" "$dir/out" "proof file"
expect "info two proofs" 0 "$g16" info "$dir/two.bin"
has "info two proofs count" "$dir/out" "2 proof"
printf '\000' | dd of="$dir/t.bin" bs=1 seek=48 conv=notrunc 2>/dev/null
expect "info proof with a bad point" 1 "$g16" info "$dir/t.bin"
has "info names the bad point" "$dir/out" "point B at offset 48"
{ cat "$P"; head -c 8 "$P"; } >"$dir/p200"
expect "info proof of 200 bytes" 1 "$g16" info "$dir/p200"
expect "verify proof of 200 bytes" 2 "$g16" verify --vk "$V" --proof "$dir/p200" --inputs "$W"
has "verify names the offset" "$dir/err" "offset 192"
expect "info truncated params" 1 "$g16" info "$dir/trunc.params"
# --quick: the layout without the points; same counts; a truncated key still refused
expect "info params quick" 0 "$g16" info "$K" --quick
has "info quick says layout only" "$dir/out" "layout only"
"$g16" info "$K" | sed -n 2p >"$dir/full.counts"
"$g16" info "$K" --quick | sed -n 2p >"$dir/quick.counts"
if cmp -s "$dir/full.counts" "$dir/quick.counts" && [ -s "$dir/full.counts" ]; then ok
else bad "info quick counts: $(cat "$dir/quick.counts") vs $(cat "$dir/full.counts")"; fi
expect "info quick truncated params" 1 "$g16" info "$dir/trunc.params" --quick
has "info quick names the section" "$dir/out" "section"
expect "info quick with subgroup refused" 2 "$g16" info "$K" --quick --check-subgroup
expect "info garbage" 1 "$g16" info "$dir/garbage"
expect "info missing" 2 "$g16" info "$dir/nope"

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
