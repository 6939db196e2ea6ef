// What gen-vectors.mjs (BLS12-381) and gen-vectors-bn254.mjs (BN254) share: the seeded PRNG,
// hex formatting, the per-file line buffers and their writing, the field vectors and the
// integer scalar multiplication.  Each script keeps only what its curve's files differ in
// (encodings, constants, the curve-specific records); the output is byte-identical to what
// the scripts wrote before this module existed (docs/vectors.md).
import { writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';

// script: the generating script's file name (headers, assertion messages); seed: 32 bits.
export function vectorKit(script, seed) {
  const tag = script.replace(/\.mjs$/, '');
  function assert(cond, msg) {
    if (!cond) throw new Error(`${tag}: assertion failed: ` + msg);
  }

  // Deterministic PRNG: splitmix32 expands the seed, xoshiro128** generates.
  const rng = (() => {
    let x = seed >>> 0;
    const split = () => {
      x = (x + 0x9e3779b9) >>> 0;
      let z = x;
      z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
      z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
      return (z ^ (z >>> 16)) >>> 0;
    };
    const s = [split(), split(), split(), split()];
    const rotl = (v, k) => ((v << k) | (v >>> (32 - k))) >>> 0;
    return () => {
      const out = Math.imul(rotl(Math.imul(s[1], 5) >>> 0, 7), 9) >>> 0;
      const t = (s[1] << 9) >>> 0;
      s[2] ^= s[0];
      s[3] ^= s[1];
      s[1] ^= s[2];
      s[0] ^= s[3];
      s[2] ^= t;
      s[3] = rotl(s[3], 11);
      for (let i = 0; i < 4; i++) s[i] >>>= 0;
      return out;
    };
  })();
  function randBits(bits) {
    let v = 0n;
    for (let i = 0; i < Math.ceil(bits / 32); i++) v = (v << 32n) | BigInt(rng());
    return v & ((1n << BigInt(bits)) - 1n);
  }
  const randBelow = (m) => randBits(m.toString(2).length + 64) % m;

  const hexN = (v, bytes) => {
    assert(v >= 0n && v < 1n << BigInt(8 * bytes), `value does not fit ${bytes} bytes`);
    return v.toString(16).padStart(2 * bytes, '0');
  };
  // exponents keep a 48-byte width on both curves, so that one test source reads both
  const expHex = (v) => hexN(v, 48);

  const files = {};
  function emit(name, line) {
    (files[name] ??= []).push(line);
  }
  function header(name, lines) {
    for (const l of lines) emit(name, '# ' + l);
  }

  // Field vectors of F: add/sub/mul over every ordered pair of edges then random pairs up
  // to `count`, sqr, neg, inv, pow (exponent edges also on a random base), sqrt when asked.
  // first: the header's first line.
  function fieldVectors(name, first, F, hex, edges, sqrtToo, expEdges, count) {
    header(name, [first, `modulus ${F.ORDER.toString(16)}`]);
    const rand = () => randBelow(F.ORDER);
    const pick = (i) => (i < edges.length ? edges[i] : rand());
    const pairs = () => {
      const out = [];
      for (const a of edges) for (const b of edges) out.push([a, b]);
      while (out.length < count) out.push([rand(), rand()]);
      return out.slice(0, Math.max(count, edges.length * edges.length));
    };
    for (const [a, b] of pairs()) emit(name, `add ${hex(a)} ${hex(b)} ${hex(F.add(a, b))}`);
    for (const [a, b] of pairs()) emit(name, `sub ${hex(a)} ${hex(b)} ${hex(F.sub(a, b))}`);
    for (const [a, b] of pairs()) emit(name, `mul ${hex(a)} ${hex(b)} ${hex(F.mul(a, b))}`);
    for (let i = 0; i < count; i++) {
      const a = pick(i);
      emit(name, `sqr ${hex(a)} ${hex(F.sqr(a))}`);
    }
    for (let i = 0; i < count; i++) {
      const a = pick(i);
      emit(name, `neg ${hex(a)} ${hex(F.neg(a))}`);
    }
    const nz = edges.filter((e) => e !== 0n);
    for (let i = 0; i < count; i++) {
      const a = i < nz.length ? nz[i] : 1n + randBelow(F.ORDER - 1n);
      const inv = F.inv(a);
      assert(F.eql(F.mul(a, inv), F.ONE), 'inverse');
      emit(name, `inv ${hex(a)} ${hex(inv)}`);
    }
    for (let i = 0; i < count; i++) {
      const a = i < edges.length ? edges[i] : rand();
      const e = i < expEdges.length ? expEdges[i] : randBits(384);
      emit(name, `pow ${hex(a)} ${expHex(e)} ${hex(F.pow(a, e))}`);
    }
    // Exponent edges also on a random base, where they are not trivially 0 or 1.
    for (const e of expEdges) {
      const a = rand();
      emit(name, `pow ${hex(a)} ${expHex(e)} ${hex(F.pow(a, e))}`);
    }
    if (!sqrtToo) return;
    for (let i = 0; i < count; i++) {
      // Every third input is a square by construction so both outcomes are common.
      const a = i < edges.length ? edges[i] : i % 3 === 0 ? F.sqr(rand()) : rand();
      const legendre = F.pow(a, (F.ORDER - 1n) / 2n);
      let root;
      try {
        root = F.sqrt(a);
      } catch {
        root = undefined;
      }
      if (root === undefined) {
        assert(legendre === F.ORDER - 1n, 'noble refused a square');
        emit(name, `sqrt ${hex(a)} none`);
      } else {
        assert(F.eql(F.sqr(root), a), 'sqrt result squares back');
        emit(name, `sqrt ${hex(a)} ${hex(root)}`);
      }
    }
  }

  // k·P by plain double-and-add over noble's add/double, so scalars >= r are applied as
  // integers rather than reduced first.
  function mulFull(Pt, pt, k) {
    let acc = Pt.ZERO;
    for (let i = BigInt(k.toString(2).length) - 1n; i >= 0n; i--) {
      acc = acc.double();
      if ((k >> i) & 1n) acc = acc.add(pt);
    }
    return acc;
  }

  function writeAll(outDir) {
    mkdirSync(outDir, { recursive: true });
    let total = 0;
    for (const [fname, lines] of Object.entries(files)) {
      const text = lines.join('\n') + '\n';
      writeFileSync(join(outDir, fname), text);
      total += text.length;
      const records = lines.filter((l) => !l.startsWith('#')).length;
      console.log(`${fname}: ${records} records, ${text.length} bytes`);
    }
    assert(total < 1 << 20, 'vectors stay under 1 MB');
    console.log(`total ${total} bytes`);
  }

  return { assert, randBits, randBelow, hexN, emit, header, fieldVectors, mulFull, writeAll };
}
