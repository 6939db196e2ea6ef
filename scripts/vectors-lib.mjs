// What gen-vectors.mjs (BLS12-381) and gen-vectors-bn254.mjs (BN254) share: the seeded PRNG,
// hex formatting, the per-file line buffers and their writing, the field and Fp2 vectors and
// the integer scalar multiplication.  Each script keeps only what its curve's files differ in
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

  // Fp2 vectors: add/sub/mul, sqr, neg, inv and sqrt over the edges of Fp2 (0, 1, u, −1, −u,
  // −1 − u, 1 + u and big = [c0, c1], two large reduced powers of two), then random elements;
  // n records of each (n + 4 for sqrt).  first: the header line; P: the base field's modulus.
  function fp2Vectors(name, first, Fp2, P, fp2Hex, randFp2, big, n) {
    header(name, [first]);
    const t = (a, b) => Fp2.fromBigTuple([a, b]);
    const edges = [t(0n, 0n), t(1n, 0n), t(0n, 1n), t(P - 1n, 0n), t(0n, P - 1n), t(P - 1n, P - 1n),
      t(1n, 1n), t(big[0], big[1])];
    const pick = (i) => (i < edges.length ? edges[i] : randFp2());
    const ops2 = [['add', Fp2.add], ['sub', Fp2.sub], ['mul', Fp2.mul]];
    for (const [op, f] of ops2) {
      for (let i = 0; i < n; i++) {
        // First a few edge-by-edge products, then edge-by-random and random-by-random.
        const a = pick(i), b = i < edges.length ? pick((i * 3 + 1) % edges.length) : randFp2();
        emit(name, `${op} ${fp2Hex(a)} ${fp2Hex(b)} ${fp2Hex(f.call(Fp2, a, b))}`);
      }
    }
    for (let i = 0; i < n; i++) {
      const a = pick(i);
      emit(name, `sqr ${fp2Hex(a)} ${fp2Hex(Fp2.sqr(a))}`);
    }
    for (let i = 0; i < n; i++) {
      const a = pick(i);
      emit(name, `neg ${fp2Hex(a)} ${fp2Hex(Fp2.neg(a))}`);
    }
    for (let i = 1; i <= n; i++) {
      const a = pick(i); // edges[0] is zero, which has no inverse
      const inv = Fp2.inv(a);
      assert(Fp2.eql(Fp2.mul(a, inv), Fp2.ONE), 'fp2 inverse');
      emit(name, `inv ${fp2Hex(a)} ${fp2Hex(inv)}`);
    }
    const halfOrder = (P * P - 1n) / 2n;
    for (let i = 0; i < n + 4; i++) {
      const a = i < edges.length ? edges[i] : i % 3 === 0 ? Fp2.sqr(randFp2()) : randFp2();
      const isSq = Fp2.is0(a) || Fp2.eql(Fp2.pow(a, halfOrder), Fp2.ONE);
      let root;
      try {
        root = Fp2.sqrt(a);
      } catch {
        root = undefined;
      }
      if (root === undefined) {
        assert(!isSq, 'noble refused an Fp2 square');
        emit(name, `sqrt ${fp2Hex(a)} none`);
      } else {
        assert(isSq && Fp2.eql(Fp2.sqr(root), a), 'fp2 sqrt squares back');
        emit(name, `sqrt ${fp2Hex(a)} ${fp2Hex(root)}`);
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

  return { assert, randBits, randBelow, hexN, emit, header, fieldVectors, fp2Vectors, mulFull, writeAll };
}
