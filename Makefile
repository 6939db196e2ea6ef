# Thin front door over CMake.  See README.md.
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
BUILD ?= build
ASAN_BUILD ?= build-asan
FUZZ_BUILD ?= build-fuzz
FUZZ_SECONDS ?= 60
FUZZ_JOBS ?= 2
FUZZ_SMOKE_SECONDS ?= 30
FUZZ_SMOKE_JOBS ?= 3
G16 = $(BUILD)/g16

.PHONY: all deps build asan test test-release test-asan run vectors fixtures clean fuzz-build fuzz test-fuzz

all: build

# Installs whatever is missing (apt-get for system packages, npm ci for node tools).
deps:
	@bash scripts/install-deps.sh

build:
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release >/dev/null
	cmake --build $(BUILD) -j $(JOBS)

asan:
	cmake -S . -B $(ASAN_BUILD) -DCMAKE_BUILD_TYPE=Debug -DG16_SANITIZE=ON -DG16_FAULT_INJECT=ON -DG16_CUDA=OFF >/dev/null
	cmake --build $(ASAN_BUILD) -j $(JOBS)

test-release: build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

# The libFuzzer harnesses of tests/fuzz (clang, ASan + UBSan, CUDA off): docs/reliability.md.
fuzz-build:
	CC=clang cmake -S . -B $(FUZZ_BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DG16_FUZZ=ON -DG16_CUDA=OFF >/dev/null
	cmake --build $(FUZZ_BUILD) -j $(JOBS) --target g16_fuzzers

# Every harness for FUZZ_SECONDS, FUZZ_JOBS at a time; fails on any crash, leak, hang or
# differential mismatch (the input is kept under $(FUZZ_BUILD)/fuzz-work/<harness>/artifacts).
fuzz: fuzz-build
	bash tests/fuzz/run.sh $(FUZZ_BUILD) $(FUZZ_SECONDS) $(FUZZ_JOBS)

# The smoke stage of make test: every seed and regression input once, then each harness
# for FUZZ_SMOKE_SECONDS, FUZZ_SMOKE_JOBS (3) at a time (17 harnesses: about 3 minutes).
test-fuzz: fuzz-build
	bash tests/fuzz/run.sh $(FUZZ_BUILD) 0 $(FUZZ_SMOKE_JOBS)
	bash tests/fuzz/run.sh $(FUZZ_BUILD) $(FUZZ_SMOKE_SECONDS) $(FUZZ_SMOKE_JOBS)

test-asan: asan
	cd $(ASAN_BUILD) && ASAN_OPTIONS=detect_leaks=1 ctest --output-on-failure -j $(JOBS) -L 'unit|daemon'

# The whole suite: Release build (unit + CLI tests), then the unit tests again
# under AddressSanitizer + UndefinedBehaviorSanitizer, then the fuzzers' smoke stage.
test: deps
	$(MAKE) test-release
	$(MAKE) test-asan
	$(MAKE) test-fuzz
	@echo "g16: all test stages passed"

# The main job: the self-test (known answers), the stage table of one 2^16
# porep-profile proof, then a 10-partition porep job through the engine (the best
# backend present: CUDA on a GPU machine, else the CPU), every proof verified, the trace written to
# $(BUILD)/engine-trace.json.  Keys are TEST-ONLY (derived from a seed).
run: deps build
	$(G16) selftest --no-bench
	$(G16) bench prove --log-n 16 --profile porep
	$(G16) engine run --partitions 10 --log-n 16 --profile porep --pw 2 --trace $(BUILD)/engine-trace.json

# Regenerates tests/vectors from @noble/curves (pinned in package-lock.json) and the
# self-test's known answers picked from them.
vectors:
	npm ci --no-audit --no-fund
	node scripts/gen-vectors.mjs tests/vectors
	node scripts/gen-vectors-bn254.mjs tests/vectors/bn254
	python3 scripts/gen-selftest-kat.py tests/vectors src/diag/selftest_kat.h

# Rebuilds the circom/snarkjs interop fixtures (tests/interop/fixtures, bn128/ for
# BN254): a small powers-of-tau ceremony per curve with public entropy (tests only),
# circom2 and snarkjs.
fixtures:
	npm ci --no-audit --no-fund
	bash scripts/make-ptau.sh 11
	bash tests/interop/make-fixtures.sh
	bash scripts/make-ptau.sh 11 tests/interop/build/pot11-bn128.ptau bn128
	bash tests/interop/make-fixtures.sh --curve bn128

clean:
	rm -rf $(BUILD) $(ASAN_BUILD) $(FUZZ_BUILD)
