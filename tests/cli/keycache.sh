#!/usr/bin/env bash
# `g16 key cache|check|load`, `g16 info FILE.g16k`, `g16 prove --params FILE.g16k`: a
# proof from the cache is byte-identical to the .params one (fixed r, s) and verifies;
# a corrupted, truncated or stale cache is refused with the file and offset, and
# `key load --cache` rebuilds it.
# usage: keycache.sh G16_BINARY SOURCE_DIR
set -u
g16=$1
. "$2/tests/cli/lib/common.sh"

C=$tmp/c.g16c W=$tmp/c.g16w K=$tmp/k.params V=$tmp/k.vk KC=$tmp/k.g16k
run "circuit gen" 0 "$g16" circuit gen --log-n 10 --inputs 2 --profile porep --seed 5 -o "$C"
run "setup" 0 "$g16" setup --circuit "$C" --seed kc1 -o "$K" --vk "$V"
run "key cache" 0 "$g16" key cache "$K" -o "$KC"
has "key cache counts" "$tmp/out" "public inputs 2"
[ -z "$(find "$tmp" -name '*.tmp.*')" ] && ok || bad "temporary file left behind"

run "info cache" 0 "$g16" info "$KC"
has "info kind" "$tmp/out" "key cache (.g16k)"
has "info valid" "$tmp/out" "valid: yes"
has "info source" "$tmp/out" "source: a .params of $(stat -c %s "$K") bytes"
run "info cache --quick" 0 "$g16" info "$KC" --quick
has "info quick" "$tmp/out" "header only"
run "info cache --check-subgroup" 2 "$g16" info "$KC" --check-subgroup
run "key check" 0 "$g16" key check "$KC" --params "$K"

# the same proof bytes from the .params and from the cache; both verify
run "prove params" 0 "$g16" prove --params "$K" --circuit "$C" --witness "$W" -o "$tmp/p1" --seed-rs r
run "prove cache" 0 "$g16" prove --params "$KC" --circuit "$C" --witness "$W" -o "$tmp/p2" --seed-rs r
cmp -s "$tmp/p1" "$tmp/p2" && ok || bad "proofs from .params and .g16k differ"
run "verify cache proof" 0 "$g16" verify --vk "$V" --proof "$tmp/p2" --inputs "$W"
run "verify with the cache as key" 0 "$g16" verify --params "$KC" --proof "$tmp/p2" --inputs "$W"
cp "$tmp/p2" "$tmp/p2bad"
printf '\x01' | dd of="$tmp/p2bad" bs=1 seek=150 conv=notrunc status=none
run "verify a changed proof with the cache" 1 "$g16" verify --params "$KC" --proof "$tmp/p2bad" --inputs "$W"
run "engine run on the cache" 0 "$g16" engine run --circuit "$C" --witness "$W" --params "$KC" --partitions 1 \
    --trace - --out "$tmp/pe"
run "verify the engine's proofs" 0 "$g16" verify --vk "$V" --proof "$tmp/pe" --inputs "$W"

# corruption: a payload byte (end of the file), a header byte, a truncation
size=$(stat -c %s "$KC")
cp "$KC" "$tmp/bad.g16k"
printf '\x01' | dd of="$tmp/bad.g16k" bs=1 seek=$((size - 200)) conv=notrunc status=none
run "info corrupt" 1 "$g16" info "$tmp/bad.g16k"
has "info corrupt says checksum" "$tmp/out" "checksum"
has "info corrupt says offset" "$tmp/out" "offset"
run "prove corrupt" 2 "$g16" prove --params "$tmp/bad.g16k" --circuit "$C" --witness "$W" -o "$tmp/p3"
has "prove corrupt names the file" "$tmp/err" "bad.g16k"
has "prove corrupt says corrupt" "$tmp/err" "corrupt"
[ ! -e "$tmp/p3" ] && ok || bad "a proof was written from a corrupt cache"
run "key check corrupt" 1 "$g16" key check "$tmp/bad.g16k" --params "$K"
cp "$KC" "$tmp/bad.g16k"
printf 'X' | dd of="$tmp/bad.g16k" bs=1 seek=200 conv=notrunc status=none
run "info header corrupt" 1 "$g16" info "$tmp/bad.g16k" --quick
has "header corrupt" "$tmp/out" "header checksum"
head -c $((size - 4096)) "$KC" >"$tmp/bad.g16k"
run "info truncated" 1 "$g16" info "$tmp/bad.g16k" --quick
has "truncated" "$tmp/out" "truncated"
run "verify with a truncated cache" 2 "$g16" verify --params "$tmp/bad.g16k" --proof "$tmp/p2" --inputs "$W"
run "prove truncated" 2 "$g16" prove --params "$tmp/bad.g16k" --circuit "$C" --witness "$W" -o "$tmp/p3"

# stale: another setup of the same circuit (same size) under the same name
run "setup 2" 0 "$g16" setup --circuit "$C" --seed kc2 -o "$tmp/k2.params" --vk "$tmp/k2.vk"
[ "$(stat -c %s "$tmp/k2.params")" = "$(stat -c %s "$K")" ] && ok || bad "second key differs in size"
run "key check stale" 1 "$g16" key check "$KC" --params "$tmp/k2.params"
has "stale" "$tmp/out" "stale"
cp "$KC" "$tmp/k2.g16k"
run "load stale" 0 "$g16" key load "$tmp/k2.params" --cache "$tmp/k2.g16k"
has "stale rebuilt from .params" "$tmp/out" "decoded from the .params"
run "key check rebuilt" 0 "$g16" key check "$tmp/k2.g16k" --params "$tmp/k2.params"
run "load hit" 0 "$g16" key load "$tmp/k2.params" --cache "$tmp/k2.g16k"
has "hit mapped" "$tmp/out" "mapped from the cache, checksums checked"
run "load hit trusted" 0 "$g16" key load "$tmp/k2.params" --cache "$tmp/k2.g16k" --trust
has "hit trusted" "$tmp/out" "checksums skipped"
run "prove rebuilt" 0 "$g16" prove --params "$tmp/k2.g16k" --circuit "$C" --witness "$W" -o "$tmp/p4"
run "verify rebuilt vs key 2" 0 "$g16" verify --vk "$tmp/k2.vk" --proof "$tmp/p4" --inputs "$W"
run "verify rebuilt vs key 1" 1 "$g16" verify --vk "$V" --proof "$tmp/p4" --inputs "$W"

# a missing cache is made on first load; a cache where none can be written is not an error
run "load miss" 0 "$g16" key load "$K" --cache "$tmp/new.g16k"
[ -s "$tmp/new.g16k" ] && ok || bad "load miss wrote no cache"
run "load unwritable" 0 "$g16" key load "$K" --cache "$tmp/nodir/x.g16k"
run "key load .g16k" 0 "$g16" key load "$tmp/new.g16k"
has "load .g16k mapped" "$tmp/out" "mapped"

# usage errors
run "key no args" 2 "$g16" key
run "key cache no -o" 2 "$g16" key cache "$K"
run "key cache missing params" 2 "$g16" key cache "$tmp/none.params" -o "$tmp/x.g16k"
run "key check missing cache" 2 "$g16" key check "$tmp/none.g16k" --params "$K"
run "key unknown" 2 "$g16" key frob

finish keycache.sh
