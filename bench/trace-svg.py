#!/usr/bin/env python3
"""Draws engine traces (g16 bench pipeline --trace-dir: pipeline-pwN.json, Chrome trace
format) as one SVG timeline, a panel per trace: a row per synthesis worker, the device
worker rows split into their stages (h step, MSMs), and the finalizers; bars coloured
by job, job ends marked.  Standard library only (the machines have no plotting
package).

Usage: bench/trace-svg.py OUT.svg TRACE.json [TRACE.json ...]
"""
import json
import os
import sys

COLORS = ["#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#edc948", "#b07aa1"]
STAGE_SHADE = {"h step": 0.55, "msm h": 1.0, "msm l": 0.8, "msm a": 0.65, "msm b1": 0.5, "msm b2": 0.4}
ROW_H, ROW_GAP, LEFT, RIGHT, TOP = 14, 4, 150, 20, 30
WIDTH = 1100


def load(path):
    with open(path) as f:
        d = json.load(f)
    names = {}
    spans = []
    for e in d["traceEvents"]:
        if e.get("ph") == "M" and e.get("name") == "thread_name":
            names[(e["pid"], e["tid"])] = e["args"]["name"]
        elif e.get("ph") == "X" and e.get("pid") == 1:
            spans.append(e)
    return names, spans, d.get("otherData", {})


def panel(out, path, y0, t_max):
    names, spans, other = load(path)
    t0 = min(e["ts"] for e in spans)
    rows = sorted({e["tid"] for e in spans})
    scale = (WIDTH - LEFT - RIGHT) / t_max
    label = os.path.basename(path)
    pw = other.get("pw", "?")
    out.append(f'<text x="4" y="{y0 + 12}" font-weight="bold">{label}: pw {pw}, '
               f'{other.get("proofs", "?")} proofs, {other.get("s_per_proof", 0):.2f} s a proof</text>')
    y = y0 + 20
    ends = {}
    for tid in rows:
        out.append(f'<text x="4" y="{y + ROW_H - 3}">{names.get((1, tid), tid)}</text>')
        for e in spans:
            if e["tid"] != tid:
                continue
            job = e.get("args", {}).get("job")
            if job is None:
                continue
            x = LEFT + (e["ts"] - t0) * 1e-6 * scale
            w = max(e["dur"] * 1e-6 * scale, 0.5)
            color = COLORS[(job - 1) % len(COLORS)]
            op = STAGE_SHADE.get(e["name"], 0.9)
            if e["name"] == "device":
                continue  # the stages below it draw the same time
            out.append(f'<rect x="{x:.2f}" y="{y}" width="{w:.2f}" height="{ROW_H}" fill="{color}" '
                       f'fill-opacity="{op}"><title>{e["name"]} job {job} part '
                       f'{e["args"].get("part")}: {e["dur"] * 1e-6:.3f} s</title></rect>')
            ends[job] = max(ends.get(job, 0), (e["ts"] + e["dur"] - t0) * 1e-6)
        y += ROW_H + ROW_GAP
    for job, t in ends.items():
        x = LEFT + t * scale
        out.append(f'<line x1="{x:.2f}" y1="{y0 + 16}" x2="{x:.2f}" y2="{y}" stroke="black" '
                   f'stroke-dasharray="3,2"/><text x="{x + 2:.2f}" y="{y + 10}" font-size="9">job {job} '
                   f'{t:.1f} s</text>')
    return y + 24


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    paths = sys.argv[2:]
    t_max = 0
    for p in paths:
        _, spans, _ = load(p)
        t0 = min(e["ts"] for e in spans)
        t_max = max(t_max, max((e["ts"] + e["dur"] - t0) * 1e-6 for e in spans))
    out = []
    y = TOP
    for p in paths:
        y = panel(out, p, y, t_max)
    scale = (WIDTH - LEFT - RIGHT) / t_max
    axis = [f'<line x1="{LEFT}" y1="{y}" x2="{WIDTH - RIGHT}" y2="{y}" stroke="black"/>']
    step = 5 if t_max > 20 else 1
    s = 0
    while s <= t_max:
        x = LEFT + s * scale
        axis.append(f'<line x1="{x:.1f}" y1="{y}" x2="{x:.1f}" y2="{y + 4}" stroke="black"/>'
                    f'<text x="{x - 6:.1f}" y="{y + 16}" font-size="10">{s}</text>')
        s += step
    axis.append(f'<text x="{WIDTH / 2:.0f}" y="{y + 30}">seconds since the first span</text>')
    height = y + 40
    with open(sys.argv[1], "w") as f:
        f.write(f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" '
                f'font-family="sans-serif" font-size="11">\n')
        f.write(f'<text x="4" y="16">g16 engine timeline (colour: job; shade in the device rows: '
                f'stage, darkest MSM H)</text>\n')
        f.write("\n".join(out + axis))
        f.write("\n</svg>\n")


if __name__ == "__main__":
    main()
