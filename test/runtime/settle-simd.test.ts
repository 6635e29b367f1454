// SETTLE in WebAssembly SIMD (runtime/md/settle-simd.ts): the committed module is what
// generator/md-settle-wat.ts assembles today, and it gives the TypeScript SETTLE's positions,
// velocities, virial and clamp count bit for bit: molecule counts around its blocks of four,
// molecules not contiguous, atoms outside molecules, normal and clamped steps.
import { describe, it, expect } from 'vitest';
import { readFileSync } from 'node:fs';
import { Settle, SPCE_DOH, SPCE_DHH } from '../../runtime/md/settle.ts';
import { SPCE, rng } from '../../runtime/md/system.ts';
import { settleBytesModule } from '../../generator/md-settle-wat.ts';

const same = (a: Float64Array, b: Float64Array) => a.length === b.length && a.every((t, i) => Object.is(t, b[i]));

/** nMols rigid waters among nAtoms atoms (the rest free), in shuffled order; unconstrained positions moved by up to `kick` nm. */
function system(nMols: number, nFree: number, seed: number, kick: number) {
  const r = rng(seed);
  const nAtoms = 3 * nMols + nFree;
  const perm = Int32Array.from({ length: nAtoms }, (_, i) => i);
  for (let i = nAtoms - 1; i > 0; i--) {
    const j = Math.floor(r() * (i + 1));
    [perm[i], perm[j]] = [perm[j]!, perm[i]!];
  }
  const h = Math.sqrt(SPCE_DOH ** 2 - (SPCE_DHH / 2) ** 2);
  const mols = new Int32Array(3 * nMols);
  const mass = new Float64Array(nAtoms).fill(22.99);
  const xOld = Float64Array.from({ length: 3 * nAtoms }, () => 4 * r());
  for (let m = 0; m < nMols; m++) {
    const u = [r() - 0.5, r() - 0.5, r() - 0.5];
    const e1 = u.map((t) => t / Math.hypot(...u));
    const w = [r() - 0.5, r() - 0.5, r() - 0.5];
    const d = e1[0]! * w[0]! + e1[1]! * w[1]! + e1[2]! * w[2]!;
    const p = w.map((t, k) => t - d * e1[k]!);
    const e2 = p.map((t) => t / Math.hypot(...p));
    const c = [4 * r(), 4 * r(), 4 * r()];
    const body = [[0, 0], [-SPCE_DHH / 2, -h], [SPCE_DHH / 2, -h]];
    for (let k = 0; k < 3; k++) {
      const a = perm[3 * m + k]!;
      mols[3 * m + k] = a;
      mass[a] = k === 0 ? SPCE.massO : SPCE.massH;
      for (let q = 0; q < 3; q++) xOld[3 * a + q] = c[q]! + body[k]![0]! * e1[q]! + body[k]![1]! * e2[q]!;
    }
  }
  const xNew = xOld.map((t) => t + kick * (r() - 0.5));
  const v = Float64Array.from({ length: 3 * nAtoms }, () => r() - 0.5);
  return { mols, mass, xOld, xNew, v };
}

describe('SETTLE in WebAssembly SIMD', () => {
  it('the committed module is the one generator/md-settle-wat.ts assembles', async () => {
    const committed = readFileSync(new URL('../../runtime/md/settle-simd-bytes.ts', import.meta.url), 'utf8');
    expect(committed).toBe(await settleBytesModule());
  });

  it('gives the TypeScript SETTLE\'s positions, velocities, virial and clamp count bit for bit', () => {
    let clamped = 0;
    for (const nMols of [4, 5, 6, 7, 8, 9, 64, 203]) {
      for (const [kick, seed] of [[0.004, 1], [0.3, 2]] as const) {
        const s = system(nMols, nMols % 3, seed + nMols, kick);
        const wasm = new Settle(s.mols, s.mass, SPCE_DOH, SPCE_DHH);
        const ts = new Settle(s.mols, s.mass, SPCE_DOH, SPCE_DHH);
        ts.simd = false;
        for (const [withV, withVirial] of [[true, true], [false, true], [true, false], [false, false]] as const) {
          const out = [wasm, ts].map((st) => {
            const x = Float64Array.from(s.xNew);
            const v = Float64Array.from(s.v);
            const vir = new Float64Array(9).fill(0.5);
            st.positions(s.xOld, x, withV ? v : undefined, 500, withVirial ? vir : undefined);
            return { x, v, vir, errors: st.errors };
          });
          const what = `${nMols} molecules, kick ${kick}, v ${withV}, virial ${withVirial}`;
          expect(same(out[0]!.x, out[1]!.x), what).toBe(true);
          expect(same(out[0]!.v, out[1]!.v), what).toBe(true);
          expect(same(out[0]!.vir, out[1]!.vir), what).toBe(true);
          expect(out[0]!.errors, what).toBe(out[1]!.errors);
          clamped += out[1]!.errors;
        }
        expect((wasm as unknown as { simdFor: unknown }).simdFor, 'the module ran').toBeTruthy();
      }
    }
    // The long steps did hit the clamps (their count is compared above).
    expect(clamped).toBeGreaterThan(0);
  });
});
