#!/usr/bin/env bash
# ctest bn254_cuda_names: the BN254 compile of the CUDA sources (g16_cuda_bn254) links beside
# the BLS12-381 one (g16_cuda) only if no strong symbol is defined by both (a weak one, such as
# a CUB template both instantiate alike, may be), and every C function it defines is
# g16_bn254_* (src/bn254/cuda_names.h, scripts/gen-cuda-names.sh).
# Usage: scripts/check-cuda-names.sh NM LIBG16_CUDA LIBG16_CUDA_BN254
set -euo pipefail
nm=$1 bls=$2 bn=$3
strong() { "$nm" --defined-only -g "$1" 2>/dev/null | awk '$2 ~ /^[TDBR]$/ {print $3}' | sort -u; }
both=$(comm -12 <(strong "$bls") <(strong "$bn"))
if [ -n "$both" ]; then
    echo "strong symbols defined by both libraries:"; echo "$both"; exit 1
fi
c_named=$(strong "$bn" | grep -v '^_Z' | grep -v '^g16_bn254_' || true)
if [ -n "$c_named" ]; then
    echo "C symbols of g16_cuda_bn254 without the g16_bn254_ prefix:"; echo "$c_named"; exit 1
fi
echo "bn254_cuda_names: $(strong "$bn" | wc -l) strong symbols, none shared with g16_cuda"
