// Systems every md-nonbonded variant is verified on: a water box, a random non-cubic box with
// exclusions and padding, and pairs placed just inside and just outside the cut-off.
import { waterBox, randomSystem, type MdSystem } from './system.ts';
import type { VerifyCase } from './verify.ts';

/** A random box plus particle pairs at rc - delta and rc + delta (across the periodic boundary too). */
export function straddleSystem(rc: number, delta: number): MdSystem {
  const base = randomSystem({ n: 120, box: [2.1, 2.1, 2.1], seed: 11, minDist: 0.3 });
  const extra: number[] = [];
  const pairs: [number, number, number, number][] = [
    [0.3, 0.4, 0.5, rc - delta],
    [0.3, 1.4, 0.6, rc + delta],
    [1.9, 1.0, 1.5, rc - delta], // partner wraps through x = L
    [1.2, 1.8, 0.2, rc + delta], // partner wraps through y and z
  ];
  pairs.forEach(([x, y, z, d], k) => {
    const dir = [[1, 0, 0], [0, 0, 1], [1, 0, 0], [0, 0.6, -0.8]][k]!;
    extra.push(x, y, z, x + d * dir[0]!, y + d * dir[1]!, z + d * dir[2]!);
  });
  const n0 = base.q.length;
  const n = n0 + extra.length / 3;
  const x = new Float64Array(3 * n);
  x.set(base.x);
  x.set(extra, 3 * n0);
  const q = new Float64Array(n);
  q.set(base.q);
  const type = new Int32Array(n);
  type.set(base.type);
  for (let i = n0; i < n; i++) {
    q[i] = i % 2 === 0 ? 0.5 : -0.5;
    type[i] = 2;
  }
  // Random particles closer than 0.25 nm to an added one are neutralized and moved half a box
  // along z, so the added pairs are not drowned by a near contact.
  for (let a = 0; a < n0; a++) {
    for (let b = n0; b < n; b++) {
      let d2 = 0;
      for (let c = 0; c < 3; c++) {
        let d = x[3 * a + c]! - x[3 * b + c]!;
        d -= 2.1 * Math.round(d / 2.1);
        d2 += d * d;
      }
      if (d2 < 0.0625) {
        q[a] = 0;
        type[a] = 0;
        x[3 * a + 2] = (x[3 * a + 2]! + 1.05) % 2.1;
      }
    }
  }
  return { ...base, x, q, type, exclusions: [...base.exclusions, ...Array.from({ length: n - n0 }, () => new Int32Array(0))] };
}

/** Named verification cases; 'quick' for the CLI, 'full' for the test suite. */
export function verificationCases(level: 'quick' | 'full'): VerifyCase[] {
  const cases: VerifyCase[] = [
    { name: 'water-216', sys: waterBox(216, 3), rc: 0.8, rlist: 0.85 },
    { name: 'random-301', sys: randomSystem({ n: 301, box: [2.2, 2.0, 2.4], seed: 5, exclusionFraction: 0.3 }), rc: 0.9, rlist: 0.95 },
  ];
  if (level === 'full') cases.push({ name: 'straddle', sys: straddleSystem(0.9, 1e-4), rc: 0.9, rlist: 0.95 });
  return cases;
}
