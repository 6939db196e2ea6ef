#!/usr/bin/env bash
# The ctest bn254_snarkjs_names (docs/curve.md): checks the BN254 compile of the
# snarkjs sources (src/bn254/snarkjs_sources.txt).
#  1. every global symbol its objects define starts with g16_bn254_;
#  2. every function the rename header maps is defined under its g16_bn254_ name;
#  3. no symbol they use outside g16_bn254_ is one that the bls12381 curve libraries
#     define (a source missing from a rename list would otherwise link the BLS12-381
#     function into the BN254 prover without a word); the CPU feature switches of
#     field/cpu.c are shared by both curves and allowed.
# Usage: check-sj-names.sh NM NAMES_H "OBJ;OBJ;..." BLS_LIB...
set -euo pipefail
nm=$1 names=$2 objs=$3
shift 3
IFS=';' read -r -a o <<< "$objs"
fail=0
# (a sanitizer build adds its own globals, __odr_asan.<name> and the like: not ours)
defs=$("$nm" --defined-only -g "${o[@]}" | awk 'NF == 3 {print $3}' | grep -Ev '^__(odr_asan|asan|ubsan|sancov)' | sort -u)
bad=$(grep -v '^g16_bn254_' <<< "$defs" || true)
if [ -n "$bad" ]; then
    echo "FAIL: the BN254 snarkjs objects define symbols without g16_bn254_ (run scripts/gen-sj-names.sh):"
    echo "$bad" | sed 's/^/  /'
    fail=1
fi
mapped=$(sed -n '/functions and variables/,/types/p' "$names" | awk '$1 == "#define" {print $2}')
n=0
for s in $mapped; do
    n=$((n + 1))
    grep -qx "g16_bn254_${s#g16_}" <<< "$defs" || { echo "FAIL: g16_bn254_${s#g16_} (from $names) is not defined"; fail=1; }
done
used=$("$nm" -u "${o[@]}" | awk '{print $NF}' | grep '^g16_' | grep -v '^g16_bn254_' | sort -u || true)
bls=$("$nm" --defined-only -g "$@" 2>/dev/null | awk 'NF == 3 {print $3}' | sort -u)
for s in $used; do
    case $s in g16_use_mulx|g16_cpu_can_mulx|g16_arith_path|g16_field_force_portable) continue ;; esac
    if grep -qx "$s" <<< "$bls"; then
        echo "FAIL: the BN254 snarkjs objects use the bls12381 $s (its source is in no rename list)"
        fail=1
    fi
done
[ $fail -eq 0 ] && echo "bn254_snarkjs_names: $n renamed symbols; $(wc -w <<< "$used") shared symbols used, none of the bls12381 curve code"
exit $fail
