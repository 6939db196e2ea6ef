#!/usr/bin/env bash
# The ctest bn254_names (docs/curve.md): checks the BN254 compile's symbols.
#  1. every global symbol g16_bn254 defines starts with g16_bn254_ (a symbol that the
#     rename header misses would clash with, or silently stand in for, the BLS12-381 one);
#  2. every function or variable the header renames is still defined, under its own
#     name, by the BLS12-381 layer libraries (the header is not stale and no BLS12-381
#     symbol changed name), and under the g16_bn254_ name by g16_bn254.
# Usage: check-curve-names.sh NM LIBG16_BN254 NAMES_H BLS_LIB...
set -euo pipefail
nm=$1 bn=$2 names=$3
shift 3
fail=0
# (a sanitizer build adds its own globals, __odr_asan.<name> and the like: not ours)
defined() { "$nm" --defined-only -g "$@" 2>/dev/null | awk 'NF == 3 {print $3}' | grep -Ev '^__(odr_asan|asan|ubsan|sancov)' | sort -u; }

bad=$(defined "$bn" | grep -v '^g16_bn254_' || true)
if [ -n "$bad" ]; then
    echo "FAIL: g16_bn254 defines symbols without the g16_bn254_ prefix (run scripts/gen-curve-names.sh):"
    echo "$bad" | sed 's/^/  /'
    fail=1
fi

bls=$(defined "$@")
bnsyms=$(defined "$bn")
# only the functions-and-variables part of the header (types have no symbol)
mapped=$(sed -n '/^\/\* functions and variables/,/^\/\* BN254-only/p' "$names" | awk '$1 == "#define" {print $2}')
bnonly=$(sed -n '/^\/\* BN254-only/,/^\/\* types/p' "$names" | awk '$1 == "#define" {print $2}')
for s in $bnonly; do
    if grep -qx "$s" <<< "$(defined "$@")"; then
        echo "FAIL: $s is listed as BN254-only but a BLS12-381 library defines it (regenerate)"
        fail=1
    fi
    if ! grep -qx "g16_bn254_${s#g16_}" <<< "$(defined "$bn")"; then
        echo "FAIL: g16_bn254_${s#g16_} (BN254-only, from $names) is not defined by g16_bn254"
        fail=1
    fi
done
n=0
for s in $mapped; do
    n=$((n + 1))
    if ! grep -qx "$s" <<< "$bls"; then
        echo "FAIL: $s is renamed by $names but no BLS12-381 library defines it"
        fail=1
    fi
    b=g16_bn254_${s#g16_}
    if ! grep -qx "$b" <<< "$bnsyms"; then
        echo "FAIL: $b (from $names) is not defined by g16_bn254"
        fail=1
    fi
done
if [ "$n" -eq 0 ]; then
    echo "FAIL: $names renames nothing"
    fail=1
fi
[ $fail -eq 0 ] && echo "bn254_names: $n renamed symbols, all g16_bn254_ symbols accounted for"
exit $fail
