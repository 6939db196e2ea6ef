#!/usr/bin/env python3
"""Sums the kernel durations of an ncu CSV (--metrics gpu__time_duration.sum --csv) by kernel.

usage: bench/gpu/ncu_summary.py FILE.csv [REPS]

Prints one row per kernel (parameter lists and CUB's policy arguments cut), its total, its share and
its launch count, largest first; with REPS (how many times the profiled operation ran) also the
time per run.  ncu's own lines and the program's output before the CSV header are skipped."""
import collections
import csv
import sys

UNIT = {'ns': 1e-6, 'nsecond': 1e-6, 'us': 1e-3, 'usecond': 1e-3, 'ms': 1.0, 'msecond': 1.0}


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    reps = float(sys.argv[2]) if len(sys.argv) > 2 else 0
    rows = list(csv.reader(open(sys.argv[1], newline='')))
    try:
        h = next(i for i, r in enumerate(rows) if 'Kernel Name' in r and 'Metric Value' in r)
    except StopIteration:
        sys.exit('%s: no ncu CSV header (Kernel Name ... Metric Value)' % sys.argv[1])
    hdr = rows[h]
    ki, ui, vi = hdr.index('Kernel Name'), hdr.index('Metric Unit'), hdr.index('Metric Value')
    tot, cnt = collections.Counter(), collections.Counter()
    for r in rows[h + 1:]:
        if len(r) <= vi or r[ui] not in UNIT:
            continue
        name = r[ki].split('(')[0].strip()
        if name.startswith('void '):
            name = name[5:]
        # CUB's versioned namespaces and policy arguments are noise; our template
        # arguments (field type, level) are the point, so they stay
        if 'cub::' in name or name.startswith(('radix_sort', 'scan', 'reduce')):
            name = name.split('<')[0].split('::')[-1] + ' (CUB)'
        name = name.replace('g16_mont<g16_fp_params>', 'Fp').replace('g16_mont<g16_fr_params>', 'Fr')
        name = name.replace('g16_dfp2_t<true>', 'Fp2 inl').replace('g16_dfp2_t<false>', 'Fp2')
        name = name.replace('g16_dfp2_t<1>', 'Fp2 inl').replace('g16_dfp2_t<0>', 'Fp2')
        tot[name] += float(r[vi].replace(',', '')) * UNIT[r[ui]]
        cnt[name] += 1
    s = sum(tot.values())
    if not s:
        sys.exit('%s: no kernel durations' % sys.argv[1])
    per = '  per run' if reps else ''
    print('%10s %6s %6s%s  kernel' % ('ms', 'share', 'n', per))
    for k, v in tot.most_common():
        print('%10.2f %5.1f%% %6d%s  %s' % (v, 100 * v / s, cnt[k], ' %8.2f' % (v / reps) if reps else '', k))
    print('%10.2f %5.1f%% %6d%s  total' % (s, 100.0, sum(cnt.values()), ' %8.2f' % (s / reps) if reps else ''))


if __name__ == '__main__':
    main()
