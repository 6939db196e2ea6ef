#!/usr/bin/env python3
"""Plots `g16 bench pipeline --json` output: s/proof and peak RSS against pw.

usage: plot.py RESULTS.jsonl OUT.png [TITLE]

One line per (log_n, devices, gw) series.  Left panel: seconds per proof; right
panel: peak RSS (MiB) against each run's budget (dashed): runs that report
rss_proc_bytes (the process before the circuit, witness and key were made) are drawn as
rss_peak_bytes itself, since the budget counts key, circuit and witness; older runs as the
RSS above the pre-run baseline plus the key (peak_key_bytes).
Needs only the Python standard library: the PNG is drawn here (a 5x7 bitmap font,
Bresenham lines, zlib), because matplotlib is not installed on every machine.
"""
import json
import struct
import sys
import zlib

FONT = {  # 5x7 glyphs, one string of 7 rows of 5 bits per character
    '0': "01110 10001 10011 10101 11001 10001 01110", '1': "00100 01100 00100 00100 00100 00100 01110",
    '2': "01110 10001 00001 00010 00100 01000 11111", '3': "11110 00001 00001 01110 00001 00001 11110",
    '4': "00010 00110 01010 10010 11111 00010 00010", '5': "11111 10000 11110 00001 00001 10001 01110",
    '6': "00110 01000 10000 11110 10001 10001 01110", '7': "11111 00001 00010 00100 01000 01000 01000",
    '8': "01110 10001 10001 01110 10001 10001 01110", '9': "01110 10001 10001 01111 00001 00010 01100",
    '.': "00000 00000 00000 00000 00000 01100 01100", '-': "00000 00000 00000 11111 00000 00000 00000",
    '/': "00001 00010 00010 00100 01000 01000 10000", '^': "00100 01010 10001 00000 00000 00000 00000",
    '(': "00010 00100 01000 01000 01000 00100 00010", ')': "01000 00100 00010 00010 00010 00100 01000",
    '=': "00000 00000 11111 00000 11111 00000 00000", ',': "00000 00000 00000 00000 01100 00100 01000",
    ':': "00000 01100 01100 00000 01100 01100 00000", '%': "11001 11010 00010 00100 01000 01011 10011",
    ' ': "00000 00000 00000 00000 00000 00000 00000",
    'A': "01110 10001 10001 11111 10001 10001 10001", 'B': "11110 10001 10001 11110 10001 10001 11110",
    'C': "01110 10001 10000 10000 10000 10001 01110", 'D': "11110 10001 10001 10001 10001 10001 11110",
    'E': "11111 10000 10000 11110 10000 10000 11111", 'F': "11111 10000 10000 11110 10000 10000 10000",
    'G': "01110 10001 10000 10111 10001 10001 01111", 'H': "10001 10001 10001 11111 10001 10001 10001",
    'I': "01110 00100 00100 00100 00100 00100 01110", 'J': "00111 00010 00010 00010 00010 10010 01100",
    'K': "10001 10010 10100 11000 10100 10010 10001", 'L': "10000 10000 10000 10000 10000 10000 11111",
    'M': "10001 11011 10101 10101 10001 10001 10001", 'N': "10001 10001 11001 10101 10011 10001 10001",
    'O': "01110 10001 10001 10001 10001 10001 01110", 'P': "11110 10001 10001 11110 10000 10000 10000",
    'Q': "01110 10001 10001 10001 10101 10010 01101", 'R': "11110 10001 10001 11110 10100 10010 10001",
    'S': "01111 10000 10000 01110 00001 00001 11110", 'T': "11111 00100 00100 00100 00100 00100 00100",
    'U': "10001 10001 10001 10001 10001 10001 01110", 'V': "10001 10001 10001 10001 10001 01010 00100",
    'W': "10001 10001 10001 10101 10101 10101 01010", 'X': "10001 10001 01010 00100 01010 10001 10001",
    'Y': "10001 10001 01010 00100 00100 00100 00100", 'Z': "11111 00001 00010 00100 01000 10000 11111",
}
COLORS = [(31, 119, 180), (214, 39, 40), (44, 160, 44), (148, 103, 189), (255, 127, 14), (23, 190, 207)]


class Canvas:
    def __init__(self, w, h):
        self.w, self.h = w, h
        self.px = bytearray(b'\xff' * (w * h * 3))

    def set(self, x, y, c):
        if 0 <= x < self.w and 0 <= y < self.h:
            i = 3 * (y * self.w + x)
            self.px[i:i + 3] = bytes(c)

    def line(self, x0, y0, x1, y1, c, width=1, dash=0):
        x0, y0, x1, y1 = int(round(x0)), int(round(y0)), int(round(x1)), int(round(y1))
        dx, dy = abs(x1 - x0), -abs(y1 - y0)
        sx, sy = (1 if x0 < x1 else -1), (1 if y0 < y1 else -1)
        err, k = dx + dy, 0
        while True:
            if not dash or (k // dash) % 2 == 0:
                for ox in range(-(width // 2), width - width // 2):
                    for oy in range(-(width // 2), width - width // 2):
                        self.set(x0 + ox, y0 + oy, c)
            k += 1
            if x0 == x1 and y0 == y1:
                break
            e2 = 2 * err
            if e2 >= dy:
                err += dy
                x0 += sx
            if e2 <= dx:
                err += dx
                y0 += sy

    def text(self, x, y, s, c=(0, 0, 0), scale=2):
        for ch in s.upper():
            rows = FONT.get(ch, FONT[' ']).split()
            for r, bits in enumerate(rows):
                for q, b in enumerate(bits):
                    if b == '1':
                        for a in range(scale):
                            for d in range(scale):
                                self.set(x + q * scale + a, y + r * scale + d, c)
            x += 6 * scale

    def png(self, path):
        raw = b''.join(b'\x00' + bytes(self.px[3 * y * self.w:3 * (y + 1) * self.w]) for y in range(self.h))

        def chunk(t, d):
            return struct.pack('>I', len(d)) + t + d + struct.pack('>I', zlib.crc32(t + d) & 0xffffffff)

        with open(path, 'wb') as f:
            f.write(b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', self.w, self.h, 8, 2, 0, 0, 0)) +
                    chunk(b'IDAT', zlib.compress(raw, 9)) + chunk(b'IEND', b''))


def fmt(v):
    if v >= 100:
        return '%d' % round(v)
    if v >= 10:
        return '%.1f' % v
    if v >= 1:
        return '%.2f' % v
    return '%.3f' % v


def panel(cv, x0, y0, w, h, series, ykey, title, ylabel, hlines=()):
    xs = sorted({p['pw'] for s in series.values() for p in s})
    ymax = max([p[ykey] for s in series.values() for p in s] + list(hlines)) * 1.1 or 1
    grey = (200, 200, 200)
    cv.line(x0, y0 + h, x0 + w, y0 + h, (0, 0, 0))
    cv.line(x0, y0, x0, y0 + h, (0, 0, 0))
    for i in range(5):
        yv = ymax * i / 4
        yy = y0 + h - h * i / 4
        cv.line(x0, yy, x0 + w, yy, grey)
        cv.text(x0 - 70, int(yy) - 6, fmt(yv))
    xpos = {x: x0 + 20 + (w - 40) * (k / max(1, len(xs) - 1)) for k, x in enumerate(xs)}
    for x, px in xpos.items():
        cv.line(px, y0 + h, px, y0 + h + 6, (0, 0, 0))
        cv.text(int(px) - 6 * len(str(x)), y0 + h + 12, str(x))
    cv.text(x0 + w // 2 - 12, y0 + h + 36, 'PW')
    cv.text(x0, y0 - 44, title)
    cv.text(x0, y0 - 22, ylabel, (90, 90, 90))
    for hl in hlines:  # one dashed line per distinct budget of the runs plotted
        yy = y0 + h - h * hl / ymax
        cv.line(x0, yy, x0 + w, yy, (120, 120, 120), 1, dash=6)
        label = 'BUDGET' if len(hlines) == 1 else 'BUDGET ' + fmt(hl)
        cv.text(x0 + w - 12 * len(label) - 6, int(yy) - 18, label, (120, 120, 120))
    for k, (name, pts) in enumerate(sorted(series.items())):
        c = COLORS[k % len(COLORS)]
        pts = sorted(pts, key=lambda p: p['pw'])
        prev = None
        for p in pts:
            pt = (xpos[p['pw']], y0 + h - h * p[ykey] / ymax)
            for a in range(-3, 4):
                cv.line(pt[0] - 3, pt[1] + a, pt[0] + 3, pt[1] + a, c)
            if prev:
                cv.line(prev[0], prev[1], pt[0], pt[1], c, width=2)
            prev = pt


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip().startswith('{')]
    rows = [r for r in rows if r.get('bench') == 'pipeline']
    if not rows:
        sys.exit('no pipeline rows in ' + sys.argv[1])
    series = {}
    for r in rows:
        # The key is loaded before the run (in the baseline) but counts in the budget:
        # runs that report it are plotted as RSS above the baseline plus the key.
        if 'rss_proc_bytes' in r:
            r['rss_mib'] = r['rss_peak_bytes'] / 1048576.0
        else:
            r['rss_mib'] = (max(0, r['rss_peak_bytes'] - r['rss_base_bytes']) + r.get('peak_key_bytes', 0)) / 1048576.0
        name = '2^%d ROWS GW %d DEV %d' % (r['log_n'], r['gw'], r['devices'])
        series.setdefault(name, []).append(r)
    budgets = sorted({r['budget_bytes'] / 1048576.0 for r in rows})
    W, H = 1400, 620
    cv = Canvas(W, H)
    title = sys.argv[3] if len(sys.argv) > 3 else 'G16 BENCH PIPELINE'
    cv.text(20, 12, title, scale=3)
    panel(cv, 110, 120, 520, 380, series, 's_per_proof', 'SECONDS PER PROOF', 'S/PROOF')
    rss_max = max(r['rss_mib'] for r in rows)
    keyed = all('peak_key_bytes' in r for r in rows)
    whole = all('rss_proc_bytes' in r for r in rows)
    panel(cv, 800, 120, 520, 380, series, 'rss_mib',
          'PEAK RSS' if whole else 'PEAK RSS ABOVE BASELINE + KEY' if keyed else 'PEAK RSS ABOVE BASELINE', 'MIB',
          hlines=[b for b in budgets if b < 4 * max(rss_max, 1)])
    ly = 560
    lx = 110
    for k, name in enumerate(sorted(series)):
        c = COLORS[k % len(COLORS)]
        cv.line(lx, ly + 7, lx + 30, ly + 7, c, width=3)
        cv.text(lx + 40, ly, name)
        lx += 40 + 12 * len(name) + 40
    cv.png(sys.argv[2])
    print('wrote', sys.argv[2])


if __name__ == '__main__':
    main()
