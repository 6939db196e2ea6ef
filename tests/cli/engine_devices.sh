#!/usr/bin/env bash
# Several devices through the CLI (issue 27), with CPU devices: --devices cpu:N spreads a
# job over N devices (per-device stats in the summary, the --json lines and the trace); the
# TEST-ONLY G16_ENGINE_DEVICE_FAIL takes a device out mid-run and the job still ends with
# every proof verified; both devices failing fails the first job with the last device's
# error and the second job runs; bad --devices / --gpus values are refused with the reason.
# usage: engine_devices.sh G16_BINARY SOURCE_DIR
set -u
g16=$1
. "$2/tests/cli/lib/common.sh"

E="engine run --log-n 10 --inputs 2 --pw 2"
run "two CPU devices" 0 "$g16" $E --devices cpu:2 --partitions 6 --trace "$tmp/t.json"
has "two devices: every proof verified" "$tmp/out" "^job 1: 6 proofs .* every proof verified"
has "two devices: per-device line" "$tmp/out" "per device: 0 (cpu) busy .*; 1 (cpu) busy"
has "trace: device ids on device spans" "$tmp/t.json" '"name":"device".*"device":[01]}'
has "trace: per-device stats" "$tmp/t.json" '"device_stats":\[{"device":0,"gpu":-1'

run "device 1 fails at its 2nd stage" 0 env G16_ENGINE_DEVICE_FAIL=1:2 "$g16" $E --devices cpu:2 --partitions 8 --trace -
has "reroute: job done, verified" "$tmp/out" "^job 1: 8 proofs .* every proof verified"
has "reroute: device 1 out" "$tmp/out" "1 (cpu) busy .* FAILED; 1 partition rerouted"
has "reroute: said on stderr" "$tmp/err" "device 1 taken out after an error (1 left)"

run "both devices fail" 2 env G16_ENGINE_DEVICE_FAIL=0:1,1:1 "$g16" $E --devices cpu:2 --partitions 4 --jobs 2 --trace -
has "all fail: job 1 fails with the last device's error" "$tmp/err" "job 1 backend failure in stage device: .*the last one left"
has "all fail: job 2 runs on the last device" "$tmp/out" "^job 2: 4 proofs .* every proof verified"

run "bench pipeline --json per device" 0 "$g16" bench pipeline --devices cpu:2 --log-n 10 --jobs 1 --partitions 4 --pw 2 --json
has "json: per-device entries" "$tmp/out" '"dev":\[{"gpu":-1,"busy":[0-9.]*,"stages":[0-9]*,"errors":0,"failed":false},{"gpu":-1'
has "json: verified" "$tmp/out" '"verified":true'

run "bad fail hook" 2 env G16_ENGINE_DEVICE_FAIL=5:1 "$g16" $E --devices cpu:2 --partitions 1 --trace -
has "bad fail hook: reason" "$tmp/err" "G16_ENGINE_DEVICE_FAIL '5:1': expected device:stage pairs"
run "bad --devices" 2 "$g16" $E --devices cpu:0
has "bad --devices: reason" "$tmp/err" "bad value 'cpu:0' for --devices"
run "repeated --gpus" 2 "$g16" $E --gpus 0,0
has "repeated --gpus: reason" "$tmp/err" "GPU 0 listed twice"
finish engine_devices.sh
