#!/usr/bin/env python3
"""Per-job figures from engine traces (g16 bench pipeline --trace-dir: pipeline-pwN.json):
each job's span (its last span's end minus the previous job's end; the first job's from the
trace's start, so it includes the ramp-up), when the first device stage started and how long
it took, the median device stage and the median and fastest synthesis.  Standard library only.

Usage: bench/trace-jobs.py TRACE.json [TRACE.json ...]
"""
import json
import statistics
import sys


def summary(path):
    with open(path) as f:
        events = [e for e in json.load(f)["traceEvents"] if e.get("ph") == "X"]
    t0 = min(e["ts"] for e in events)
    ends, device, synth = {}, [], []
    for e in events:
        job = e.get("args", {}).get("job")
        if job is None:
            continue
        ends[job] = max(ends.get(job, 0), e["ts"] + e["dur"])
        if e["name"] == "device":
            device.append((e["ts"], e["dur"]))
        elif e["name"] == "synthesis":
            synth.append(e["dur"])
    spans, prev = [], t0
    for job in sorted(ends, key=ends.get):
        spans.append((ends[job] - prev) / 1e6)
        prev = ends[job]
    device.sort()
    line = f"{path}: job spans {' / '.join(f'{s:.2f}' for s in spans)} s"
    if device:
        line += (f"; first device stage at {(device[0][0] - t0) / 1e6:.2f} s for {device[0][1] / 1e6:.3f} s"
                 f"; device median {statistics.median(d for _, d in device) / 1e6:.3f} s")
    if synth:
        line += f"; synthesis median {statistics.median(synth) / 1e6:.3f} s, min {min(synth) / 1e6:.3f} s"
    return line


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    for p in sys.argv[1:]:
        print(summary(p))
