# Thin front door over CMake.  See README.md.
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
BUILD ?= build
ASAN_BUILD ?= build-asan
G16 = $(BUILD)/g16

.PHONY: all deps build asan test test-release test-asan run vectors fixtures clean

all: build

# Installs whatever is missing (apt-get for system packages, npm ci for node tools).
deps:
	@bash scripts/install-deps.sh

build:
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release >/dev/null
	cmake --build $(BUILD) -j $(JOBS)

asan:
	cmake -S . -B $(ASAN_BUILD) -DCMAKE_BUILD_TYPE=Debug -DG16_SANITIZE=ON -DG16_CUDA=OFF >/dev/null
	cmake --build $(ASAN_BUILD) -j $(JOBS)

test-release: build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

test-asan: asan
	cd $(ASAN_BUILD) && ASAN_OPTIONS=detect_leaks=1 ctest --output-on-failure -j $(JOBS) -L 'unit|daemon'

# The whole suite: Release build (unit + CLI tests), then the unit tests again
# under AddressSanitizer + UndefinedBehaviorSanitizer.
test: deps
	$(MAKE) test-release
	$(MAKE) test-asan
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
	python3 scripts/gen-selftest-kat.py tests/vectors src/diag/selftest_kat.h

# Rebuilds the circom/snarkjs interop fixtures (tests/interop/fixtures): a small
# powers-of-tau ceremony with public entropy (tests only), circom2 and snarkjs.
fixtures:
	npm ci --no-audit --no-fund
	bash scripts/make-ptau.sh 11
	bash tests/interop/make-fixtures.sh

clean:
	rm -rf $(BUILD) $(ASAN_BUILD)
