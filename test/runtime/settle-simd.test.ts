// SETTLE and the kick + drift in WebAssembly SIMD (runtime/md/settle-simd.ts): the committed
// module is what generator/md-settle-wat.ts assembles today; it gives the TypeScript SETTLE's
// positions, velocities, virial and clamp count bit for bit (molecule counts around its blocks of
// four, molecules not contiguous, atoms outside molecules, normal and clamped steps, on its
// workspace in place and on other arrays), the TypeScript kick + drift's numbers bit for bit, and
// an MD run on the workspace equals one in TypeScript (leap-frog water, velocity Verlet LJ).
import { describe, it, expect } from 'vitest';
import { readFileSync } from 'node:fs';
import { Settle, SPCE_DOH, SPCE_DHH } from '../../runtime/md/settle.ts';
import { UpdateWorkspace, setUpdateSimd } from '../../runtime/md/settle-simd.ts';
import { kick, kickDrift, MdEngine, type MdOutcome } from '../../runtime/md/engine.ts';
import { prepareRun, type MdOptions } from '../../runtime/md/setup.ts';
import { RunChecks, maxDisplacement2 } from '../../runtime/md/sanity.ts';
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

  it('on the update workspace, in place: the same numbers as on other arrays', () => {
    const s = system(101, 7, 9, 0.004);
    const n = s.mass.length;
    const ws = UpdateWorkspace.take(n)!;
    try {
      expect(ws).toBeDefined();
      expect(UpdateWorkspace.take(n), 'one run at a time').toBeUndefined();
      const st = new Settle(s.mols, s.mass, SPCE_DOH, SPCE_DHH);
      const ts = new Settle(s.mols, s.mass, SPCE_DOH, SPCE_DHH);
      ts.simd = false;
      ws.xOld.set(s.xOld);
      ws.x.set(s.xNew);
      ws.v.set(s.v);
      const x = Float64Array.from(s.xNew);
      const v = Float64Array.from(s.v);
      const [va, vb] = [new Float64Array(9), new Float64Array(9)];
      st.positions(ws.xOld, ws.x, ws.v, 500, va);
      ts.positions(s.xOld, x, v, 500, vb);
      expect(same(ws.x, x) && same(ws.v, v) && same(va, vb)).toBe(true);
    } finally {
      ws.release();
    }
  });

  it('kick + drift: the TypeScript numbers bit for bit (odd and even counts, thermostat factor, with and without the old positions), also with the displacement check\'s number measured in the same pass and with the step before\'s second half kick first', () => {
    const r = rng(4);
    for (const n of [5, 6, 333]) {
      const mass = Float64Array.from({ length: n }, () => 1 + 20 * r());
      const h = mass.map((m) => 0.5 * 0.002 * (1 / m));
      const x0 = Float64Array.from({ length: 3 * n }, () => 5 * r());
      const v0 = Float64Array.from({ length: 3 * n }, () => r() - 0.5);
      const f0 = Float64Array.from({ length: 3 * n }, () => 1000 * (r() - 0.5));
      for (const [lambda, scale] of [[1, 1], [1, 2], [0.9993, 2], [1.0007, 1]] as const) {
        for (const keep of [true, false]) {
          const ws = UpdateWorkspace.take(n)!;
          try {
            ws.x.set(x0);
            ws.v.set(v0);
            ws.f.set(f0);
            ws.xOld.fill(7);
            for (let i = 0; i < 3 * n; i++) ws.h3[i] = h[Math.floor(i / 3)]!;
            ws.kickDrift(lambda, scale, 0.002, keep);
            const [x, v] = [Float64Array.from(x0), Float64Array.from(v0)];
            const xOld = new Float64Array(3 * n).fill(7);
            kickDrift(v, x, keep ? xOld : undefined, h, f0, lambda, scale, 0.002);
            expect(same(ws.x, x) && same(ws.v, v) && same(ws.xOld, xOld), `n ${n}, lambda ${lambda}, scale ${scale}, keep ${keep}`).toBe(true);
            // With the displacement from the positions at the search measured in the same pass
            // (one of them NaN in the last case): the same update, and RunChecks' number.
            const xList = Float64Array.from({ length: 3 * n }, (_, i) => x0[i]! + 0.01 * (r() - 0.5));
            for (const poison of [undefined, NaN]) {
              ws.x.set(x0);
              ws.v.set(v0);
              ws.xOld.fill(7);
              ws.xList.set(xList);
              if (poison !== undefined) ws.x[3 * n - 2] = poison;
              const xp = Float64Array.from(ws.x);
              ws.kickDrift(lambda, scale, 0.002, keep, true);
              const [x2, v2] = [xp, Float64Array.from(v0)];
              const xOld2 = new Float64Array(3 * n).fill(7);
              kickDrift(v2, x2, keep ? xOld2 : undefined, h, f0, lambda, scale, 0.002);
              expect(same(ws.x, x2) && same(ws.v, v2) && same(ws.xOld, xOld2), `measured: n ${n}, lambda ${lambda}, scale ${scale}, keep ${keep}, ${poison}`).toBe(true);
              expect(ws.measured).toBe(maxDisplacement2(x2, xList));
              if (poison !== undefined) expect(ws.measured).toBeNaN();
              expect(ws.maxDisplacement2(ws.x)).toBe(maxDisplacement2(x2, xList));
            }
            // With the step before's second half kick first, in the same pass (measured or not):
            // engine.ts kick, then kickDrift.
            const [x3, v3] = [Float64Array.from(x0), Float64Array.from(v0)];
            const xOld3 = new Float64Array(3 * n).fill(7);
            kick(v3, h, f0);
            kickDrift(v3, x3, keep ? xOld3 : undefined, h, f0, lambda, scale, 0.002);
            for (const measure of [false, true]) {
              ws.x.set(x0);
              ws.v.set(v0);
              ws.xOld.fill(7);
              ws.kickDrift(lambda, scale, 0.002, keep, measure, true);
              expect(same(ws.x, x3) && same(ws.v, v3) && same(ws.xOld, xOld3), `twice: n ${n}, lambda ${lambda}, scale ${scale}, keep ${keep}, measure ${measure}`).toBe(true);
              if (measure) expect(ws.measured).toBe(maxDisplacement2(x3, xList));
            }
          } finally {
            ws.release();
          }
        }
      }
    }
  });

  it('the second half kick of velocity Verlet: the TypeScript numbers bit for bit (odd and even counts)', () => {
    const r = rng(9);
    for (const n of [1, 6, 333]) {
      const h = Float64Array.from({ length: n }, () => 0.5 * 0.005 / (1 + 20 * r()));
      const v0 = Float64Array.from({ length: 3 * n }, () => r() - 0.5);
      const f0 = Float64Array.from({ length: 3 * n }, () => 1000 * (r() - 0.5));
      const ws = UpdateWorkspace.take(n)!;
      try {
        ws.v.set(v0);
        ws.f.set(f0);
        for (let i = 0; i < 3 * n; i++) ws.h3[i] = h[Math.floor(i / 3)]!;
        ws.kick();
        const v = Float64Array.from(v0);
        kick(v, h, f0);
        expect(same(ws.v, v), `n ${n}`).toBe(true);
        expect(same(ws.v, v0)).toBe(false);
      } finally {
        ws.release();
      }
    }
  });

  it('an MD run on the workspace equals one in TypeScript bit for bit (leap-frog water with SETTLE and v-rescale; velocity Verlet LJ)', async () => {
    const WATER = new URL('../fixtures/gromacs/spce/conf.gro', import.meta.url).pathname;
    const run = async (o: MdOptions, steps: number, simd: boolean): Promise<MdOutcome> => {
      setUpdateSimd(simd);
      try {
        const p = await prepareRun({ ...o, tuned: false });
        const eng = await MdEngine.create(p.run);
        try {
          return eng.simulate(steps);
        } finally {
          await eng.close();
        }
      } finally {
        setUpdateSimd(true);
      }
    };
    for (const [o, steps] of [
      [{ system: 'water', gro: WATER, nstlist: 10, nstcalcenergy: 5, thermostat: 'v-rescale', refT: 300, tauT: 0.1, seed: 3 }, 20],
      [{ system: 'lj', cells: 4, nstcalcenergy: 5 }, 20],
    ] as [MdOptions, number][]) {
      const a = await run(o, steps, true);
      const b = await run(o, steps, false);
      expect(same(a.x, b.x) && same(a.v, b.v), o.system).toBe(true);
      expect(JSON.stringify(a.thermo)).toBe(JSON.stringify(b.thermo));
    }
  });

  it('the checks: the displacement check\'s largest distance as RunChecks computes it, the forces\' sum of squares', () => {
    const r = rng(8);
    for (const n of [1, 2, 7, 300]) {
      const ws = UpdateWorkspace.take(n)!;
      try {
        const base = Float64Array.from({ length: 3 * n }, () => 5 * r());
        const opts = { n, rlist: 1.1, rc: 1.0, nstlist: 10, kB: 0.0083144626, units: 'gromacs' as const };
        const plain = new RunChecks(opts);
        const inWs = new RunChecks({ ...opts, lists: ws });
        plain.listBuilt(0, base);
        inWs.listBuilt(0, base);
        expect(same(ws.xList, base)).toBe(true);
        for (const [scale, poison] of [[0.01, undefined], [0.5, undefined], [0.01, NaN], [0.01, Infinity]] as const) {
          const x = base.map((t) => t + scale * (r() - 0.5));
          if (poison !== undefined) x[3 * n - 2] = poison;
          ws.x.set(x);
          const a = plain.displacement(3, x);
          const b = inWs.displacement(3, ws.x);
          expect(b, `n ${n}, scale ${scale}, ${poison}`).toBe(a);
          expect(inWs.lastFinite).toBe(plain.lastFinite);
        }
        ws.f.set(Float64Array.from({ length: 3 * n }, () => 1000 * (r() - 0.5)));
        const exact = ws.f.reduce((t, q) => t + q * q, 0);
        expect(Math.abs(ws.sumSqForces() - exact)).toBeLessThanOrEqual(1e-12 * exact);
      } finally {
        ws.release();
      }
    }
  });
});
