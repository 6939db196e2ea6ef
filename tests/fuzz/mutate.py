#!/usr/bin/env python3
"""Mutation fuzzing of g16's file readers through the command line.

usage: tests/fuzz/mutate.py G16_BINARY WORK_DIR SECONDS [SEED]

Makes a small circuit, witness, TEST-ONLY key, vk and proof in WORK_DIR with the
binary, then for SECONDS mutates one input at a time (byte flips, truncations,
counts overwritten with boundary values, trailing garbage) and runs `g16 info`,
`g16 verify`, `g16 prove` (from a .params or a .g16k key cache), `g16 prove --zkey` and `g16 verify` of snarkjs JSON (circom/snarkjs
fixtures of tests/interop) on it.  A finding is an exit status outside {0, 1, 2}, a sanitizer
report or a hang; its input is kept as WORK_DIR/findingN_*.  Use a binary built
with -DG16_SANITIZE=ON (`make asan`: build-asan/g16).  Not part of `make test`
(it is a search, not a check); results are recorded in docs/formats.md.
"""
import os, random, subprocess, sys, time, shutil
if len(sys.argv) < 4:
    sys.exit(__doc__)
G = sys.argv[1]; W = sys.argv[2]; budget = float(sys.argv[3])
FX = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'interop', 'fixtures', 'multiplier')
random.seed(int(sys.argv[4]) if len(sys.argv) > 4 else 1)
os.makedirs(W, exist_ok=True)
for args in (['circuit', 'gen', '--log-n', '8', '--inputs', '2', '--profile', 'porep', '--seed', '3', '-o', 'c.g16c'],
             ['setup', '--circuit', 'c.g16c', '--seed', 's', '-o', 'k.params', '--vk', 'k.vk'],
             ['prove', '--params', 'k.params', '--circuit', 'c.g16c', '--witness', 'c.g16w', '-o', 'p.bin', '--seed-rs', 'r'],
             ['key', 'cache', 'k.params', '-o', 'k.g16k']):
    subprocess.run([G] + args, cwd=W, check=True, capture_output=True)
env = dict(os.environ, ASAN_OPTIONS='detect_leaks=1:abort_on_error=0', UBSAN_OPTIONS='print_stacktrace=1')
def run(args, t=30):
    try:
        p = subprocess.run([G] + args, capture_output=True, timeout=t, env=env)
        return p.returncode, p.stderr.decode(errors='replace') + p.stdout.decode(errors='replace')
    except subprocess.TimeoutExpired:
        return 'TIMEOUT', ''
seeds = {k: open(os.path.join(W, k), 'rb').read() for k in ['c.g16c', 'c.g16w', 'k.params', 'k.g16k', 'k.vk', 'p.bin']}
for k in ['circuit.r1cs', 'circuit.zkey', 'witness.wtns', 'verification_key.json', 'proof.json', 'public.json']:
    seeds[k] = open(os.path.join(FX, k), 'rb').read()
def mutate(b):
    b = bytearray(b)
    r = random.random()
    if r < 0.35:
        for _ in range(random.randint(1, 8)):
            if b: b[random.randrange(len(b))] = random.randrange(256)
    elif r < 0.55:
        b = b[:random.randrange(len(b) + 1)]
    elif r < 0.8:  # overwrite 4 or 8 bytes with a big / boundary value
        if len(b) >= 8:
            o = random.randrange(len(b) - 8)
            v = random.choice([0xffffffff, 0x7fffffff, 0x80000000, 0, 1, random.getrandbits(32)])
            b[o:o + 4] = v.to_bytes(4, random.choice(['little', 'big']))
    elif r < 0.9:
        b += os.urandom(random.randint(1, 64))
    else:  # deep nesting / long tokens for the JSON reader, anywhere
        o = random.randrange(len(b) + 1)
        b[o:o] = random.choice([b'[' * 100000, b'{"a":' * 50000, b'9' * 100000, b'"' + b'\\' * 50000, b'-1e999999'])
    return bytes(b)
cases = {
    'info': lambda d: ['info', d['f']],
    'verify': lambda d: ['verify', '--vk', d['vk'], '--proof', d['p'], '--inputs', os.path.join(W, 'c.g16w')],
    'prove': lambda d: ['prove', '--params', d['k'], '--circuit', d['c'], '--witness', d['w'], '-o', os.path.join(W, 'out.bin'), '--seed-rs', 'x'],
    'zkey': lambda d: ['prove', '--zkey', d['z'], '--wtns', d['t'], '--r1cs', d['r'], '--proof', os.path.join(W, 'o.json'), '--public', os.path.join(W, 'pub.json')],
    'json': lambda d: ['verify', '--vk', d['jv'], '--proof', d['jp'], '--public', d['ju']],
}
t_end = time.time() + budget; n = 0; found = 0
while time.time() < t_end:
    n += 1
    kind = random.choice(list(cases))
    d = {'vk': os.path.join(W, 'k.vk'), 'p': os.path.join(W, 'p.bin'), 'k': os.path.join(W, 'k.params'),
         'c': os.path.join(W, 'c.g16c'), 'w': os.path.join(W, 'c.g16w'),
         'z': os.path.join(FX, 'circuit.zkey'), 't': None, 'r': os.path.join(FX, 'circuit.r1cs'),
         'jv': os.path.join(FX, 'verification_key.json'), 'jp': os.path.join(FX, 'proof.json'),
         'ju': os.path.join(FX, 'public.json')}
    if kind == 'info':
        name = random.choice(list(seeds)); path = os.path.join(W, 'm_' + name)
        open(path, 'wb').write(mutate(seeds[name])); d['f'] = path
    elif kind == 'verify':
        name = random.choice(['k.vk', 'p.bin']); path = os.path.join(W, 'm_' + name)
        open(path, 'wb').write(mutate(seeds[name])); d['vk' if name == 'k.vk' else 'p'] = path
    elif kind == 'prove':
        name = random.choice(['k.params', 'k.g16k', 'c.g16c', 'c.g16w']); path = os.path.join(W, 'm_' + name)
        open(path, 'wb').write(mutate(seeds[name]))
        d[{'k.params': 'k', 'k.g16k': 'k', 'c.g16c': 'c', 'c.g16w': 'w'}[name]] = path
    elif kind == 'json':
        name = random.choice(['verification_key.json', 'proof.json', 'public.json']); path = os.path.join(W, 'm_' + name)
        open(path, 'wb').write(mutate(seeds[name]))
        d[{'verification_key.json': 'jv', 'proof.json': 'jp', 'public.json': 'ju'}[name]] = path
    else:
        name = random.choice(['circuit.zkey', 'witness.wtns', 'circuit.r1cs']); path = os.path.join(W, 'm_' + name)
        open(path, 'wb').write(mutate(seeds[name])); d[{'circuit.zkey': 'z', 'witness.wtns': 't', 'circuit.r1cs': 'r'}[name]] = path
        if d['t'] is None:
            d['t'] = os.path.join(W, 'seed_witness.wtns')
            if not os.path.exists(d['t']): open(d['t'], 'wb').write(seeds['witness.wtns'])
    args = cases[kind](d)
    rc, out = run(args)
    bad = rc == 'TIMEOUT' or rc not in (0, 1, 2) or 'AddressSanitizer' in out or 'runtime error' in out or 'LeakSanitizer' in out
    if bad:
        found += 1
        keep = os.path.join(W, 'finding%d_%s' % (found, name))
        shutil.copy(path, keep)
        print('FINDING', found, kind, name, rc, ' '.join(args), '\n', out[:1500], flush=True)
        if found >= 5: break
print('runs', n, 'findings', found)
