// SETTLE over the MD worker threads (issue 16): the molecules split into ranges, the first on
// the calling thread and the others on the non-bonded workers (claimed like a force call), give
// the positions and velocities of the single-thread call bit for bit (molecules are independent;
// a worker that no longer spins has its range done on the calling thread: the same numbers) and
// its virial up to round-off in the sum of the ranges' sums. Arrays not in shared memory are
// constrained on the calling thread. A whole water run with the engine's settleOnThreads (off by
// default) gives the thermo of one thread.
import { describe, it, expect, afterAll } from 'vitest';
import { prepareRun } from '../../runtime/md/setup.ts';
import { NonbondedForce } from '../../runtime/md/forces.ts';
import { Settle, SPCE_DOH, SPCE_DHH } from '../../runtime/md/settle.ts';
import { MdEngine } from '../../runtime/md/engine.ts';

const WATER = new URL('../fixtures/gromacs/spce/conf.gro', import.meta.url).pathname;

const open: NonbondedForce[] = [];
afterAll(async () => {
  for (const nb of open) await nb.close();
});

const shared = (a: Float64Array): Float64Array => {
  const s = new Float64Array(new SharedArrayBuffer(a.byteLength));
  s.set(a);
  return s;
};

describe('SETTLE over the worker threads', () => {
  for (const target of ['ts', 'wasm'] as const) {
    it(`${target}: 2 threads give the positions and velocities of 1 thread bit for bit, the virial to round-off`, async () => {
      const p = await prepareRun({ system: 'water', gro: WATER, cluster: '4x4', ...(target === 'wasm' ? { target } : { precision: 'f64' as const }) });
      const r = p.run;
      const n = r.mass.length;
      const nb = await NonbondedForce.create({ topology: r.topology, settings: r.settings, rlist: r.rlist, keyF: r.keyF, keyE: r.keyE, search: r.search, threads: 2, reproducible: true });
      open.push(nb);
      nb.rebuild(r.x);
      nb.compute(r.x, new Float64Array(3 * n), true);
      const split = nb.settleSplit;
      expect(split).toBeDefined();
      const mols = Int32Array.from({ length: n }, (_, i) => i);
      const one = new Settle(mols, r.mass, SPCE_DOH, SPCE_DHH);
      const two = new Settle(mols, r.mass, SPCE_DOH, SPCE_DHH);
      const xOld = r.x;
      // Two calls each (the second claims a spinning worker), the second with another 1/dt and new arrays.
      for (const [call, invdt] of [[0, 500], [1, 250]] as const) {
        const x1 = Float64Array.from(xOld, (xi, i) => xi + 2e-3 * Math.sin(5 * i + call));
        const v1 = Float64Array.from(r.v, (vi, i) => vi + 0.1 * Math.cos(3 * i + call));
        const [xa, va, vira] = [Float64Array.from(x1), Float64Array.from(v1), new Float64Array(9)];
        one.positions(xOld, xa, va, invdt, vira);
        const [xo, xb, vb, virb] = [shared(xOld), shared(x1), shared(v1), new Float64Array(9)];
        two.positions(xo, xb, vb, invdt, virb, split);
        expect(Array.from(xb)).toEqual(Array.from(xa));
        expect(Array.from(vb)).toEqual(Array.from(va));
        const m = Math.max(...vira.map(Math.abs));
        for (let k = 0; k < 9; k++) expect(Math.abs(virb[k]! - vira[k]!)).toBeLessThan(1e-12 * m);
        // The last molecule (the worker's range) is rigid: it was constrained there.
        const l = 3 * (n - 3);
        expect(Math.hypot(xb[l + 3]! - xb[l]!, xb[l + 4]! - xb[l + 1]!, xb[l + 5]! - xb[l + 2]!)).toBeCloseTo(SPCE_DOH, 10);
        expect(Math.hypot(x1[l + 3]! - x1[l]!, x1[l + 4]! - x1[l + 1]!, x1[l + 5]! - x1[l + 2]!)).not.toBeCloseTo(SPCE_DOH, 6);
      }
      expect(two.errors).toBe(one.errors);
      // Arrays not in shared memory: constrained here, the same numbers.
      const x1 = Float64Array.from(xOld, (xi, i) => xi + 1e-3 * Math.sin(i));
      const [xa, xc] = [Float64Array.from(x1), Float64Array.from(x1)];
      one.positions(xOld, xa);
      two.positions(xOld, xc, undefined, undefined, undefined, split);
      expect(Array.from(xc)).toEqual(Array.from(xa));
      // Right after a force call the worker still spins and takes its range (it may miss the
      // window on a busy host: a few tries). The same arrays each time: new ones send the workers their part again.
      const [xo, xb] = [shared(xOld), shared(x1)];
      for (let k = 0; k < 20 && nb.settleOnWorkers === 0; k++) {
        xb.set(x1);
        two.positions(xo, xb, undefined, undefined, undefined, split);
        nb.compute(r.x, new Float64Array(3 * n), false);
        xb.set(x1);
        two.positions(xo, xb, undefined, undefined, undefined, split);
        expect(Array.from(xb)).toEqual(Array.from(xa));
      }
      expect(nb.settleOnWorkers).toBeGreaterThan(0);
      // Forces still follow (the workers' step op after a SETTLE call); the fixed split gives the same numbers each call.
      const fa = new Float64Array(3 * n);
      nb.compute(r.x, fa, false);
      const fb = new Float64Array(3 * n);
      nb.compute(r.x, fb, false);
      expect(Array.from(fb)).toEqual(Array.from(fa));
      expect(Math.max(...fa.map(Math.abs))).toBeGreaterThan(1);
    });
  }
  it('a 30-step water run (leap-frog) with settleOnThreads on 2 threads gives the thermo of 1 thread to round-off, x and v back in the run', async () => {
    const run = async (threads: number) => {
      const p = await prepareRun({ system: 'water', gro: WATER, cluster: '4x4', precision: 'f64', threads, nstcalcenergy: 10 });
      p.run.settleOnThreads = threads > 1;
      const x0 = Float64Array.from(p.run.x);
      const eng = await MdEngine.create(p.run);
      try {
        const out = eng.simulate(30);
        expect(out.x).toBe(p.run.x);
        return { thermo: out.thermo, x: p.run.x, x0, onWorkers: eng.nb.settleOnWorkers };
      } finally {
        await eng.close();
      }
    };
    const [a, b] = [await run(1), await run(2)];
    expect(b.thermo.map((r) => r.step)).toEqual(a.thermo.map((r) => r.step));
    for (let k = 0; k < a.thermo.length; k++) {
      for (const q of ['T', 'vdw', 'coul', 'etot', 'P'] as const) expect(Math.abs(b.thermo[k]![q] - a.thermo[k]![q])).toBeLessThan(1e-9 * Math.abs(a.thermo[k]![q]));
    }
    // The positions moved and came back into the run's own array (the run worked on shared copies).
    let d = 0;
    let m = 0;
    for (let i = 0; i < a.x.length; i++) {
      d = Math.max(d, Math.abs(b.x[i]! - a.x[i]!));
      m = Math.max(m, Math.abs(b.x[i]! - b.x0[i]!));
    }
    expect(m).toBeGreaterThan(1e-3);
    expect(d).toBeLessThan(1e-9);
    expect(a.onWorkers).toBe(0);
  });
});
