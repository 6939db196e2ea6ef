#!/usr/bin/env bash
# Installs what g16 needs on a Debian 12 machine, and only what is missing.
# System packages come from apt-get; node tools from npm ci (package-lock.json).
set -euo pipefail
cd "$(dirname "$0")/.."

need=()
command -v cmake >/dev/null 2>&1 || need+=(cmake)
command -v cc >/dev/null 2>&1 || need+=(gcc)
command -v make >/dev/null 2>&1 || need+=(make)
command -v python3 >/dev/null 2>&1 || need+=(python3)
command -v node >/dev/null 2>&1 || need+=(nodejs)
command -v npm >/dev/null 2>&1 || need+=(npm)
command -v pkg-config >/dev/null 2>&1 || need+=(pkg-config)
# clang and its runtime libraries for the fuzz build (make fuzz, the smoke stage of make test):
# libFuzzer and the sanitizer runtimes are in libclang-rt-14-dev, which clang only recommends.
command -v clang >/dev/null 2>&1 || need+=(clang)
# Libraries the daemon and the client use (g16d: HTTP server, JSON, job store, systemd notify,
# base64 of uploaded inputs (libcrypto), PostgreSQL for --cluster; g16 remote: HTTP client) and
# the key cache's checksum (xxHash), found by CMake through pkg-config; the PostgreSQL server for
# the cluster tests, which start their own throwaway server.
for pkg in libmicrohttpd-dev libjansson-dev libsqlite3-dev libcurl4-openssl-dev libsystemd-dev \
    libxxhash-dev libssl-dev libpq-dev postgresql libclang-rt-14-dev; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed' || need+=("$pkg")
done

if [ ${#need[@]} -gt 0 ]; then
    if [ "$(id -u)" != 0 ]; then
        echo "install-deps: missing ${need[*]}; run as root or install them" >&2
        exit 1
    fi
    echo "install-deps: installing ${need[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq "${need[@]}" >/dev/null
fi

# Node packages are needed to regenerate vectors and for the circom/snarkjs
# interop tests; install them from the lock file when they are absent or stale.
if [ -f package-lock.json ]; then
    if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
        echo "install-deps: npm ci"
        npm ci --no-audit --no-fund --loglevel=error
    fi
fi
