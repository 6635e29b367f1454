// The kick and drift and SETTLE of a step split over the MD worker threads (issue 16), on a
// shared update workspace: each thread's instance of the update module runs a range of atoms and
// the molecules in it. Positions and velocities equal the single-thread pass bit for bit (every
// coordinate and molecule is computed the same way); the virial differs by round-off in the sum
// of the ranges' sums. Molecules whose atoms do not lie in contiguous ranges are not split.
import { describe, it, expect, afterAll } from 'vitest';
import { prepareRun } from '../../runtime/md/setup.ts';
import { NonbondedForce } from '../../runtime/md/forces.ts';
import { Settle, SPCE_DOH, SPCE_DHH } from '../../runtime/md/settle.ts';
import { UpdateWorkspace } from '../../runtime/md/settle-simd.ts';
import { MdEngine } from '../../runtime/md/engine.ts';
import { updateRanges } from '../../runtime/parallel/md.ts';

const WATER = new URL('../fixtures/gromacs/spce/conf.gro', import.meta.url).pathname;

const open: NonbondedForce[] = [];
afterAll(async () => {
  for (const nb of open) await nb.close();
});

describe('the update split over the worker threads', () => {
  it('cuts the molecules in blocks of 4 and the atoms where they start, or refuses molecules that interleave', () => {
    // 10 molecules of 3 atoms, then 2 ions: blocks of 4 molecules [0, 8); the last 2 are left to the caller.
    const mols = Int32Array.from({ length: 30 }, (_, i) => i);
    expect(updateRanges(32, 2, mols)).toEqual({ a: [0, 12, 32], m: [0, 4, 8] });
    expect(updateRanges(32, 3, mols)).toEqual({ a: [0, 12, 12, 32], m: [0, 4, 4, 8] });
    // Molecule 4 takes an atom of molecule 0's range: no contiguous ranges.
    const mixed = Int32Array.from(mols);
    [mixed[2], mixed[14]] = [mixed[14]!, mixed[2]!];
    expect(updateRanges(32, 2, mixed)).toBeUndefined();
    // Within a range any order is allowed.
    const swapped = Int32Array.from(mols);
    [swapped[2], swapped[5]] = [swapped[5]!, swapped[2]!];
    expect(updateRanges(32, 2, swapped)).toEqual({ a: [0, 12, 32], m: [0, 4, 8] });
  });

  it('2 threads give the positions and velocities of 1 thread bit for bit, the virial to round-off; a worker runs its range', async () => {
    const p = await prepareRun({ system: 'water', gro: WATER, cluster: '4x4', target: 'wasm' });
    const r = p.run;
    const n = r.mass.length;
    const nb = await NonbondedForce.create({ topology: r.topology, settings: r.settings, rlist: r.rlist, keyF: r.keyF, keyE: r.keyE, search: r.search, threads: 2, reproducible: true });
    open.push(nb);
    nb.rebuild(r.x);
    const f = new Float64Array(3 * n);
    nb.compute(r.x, f, false);
    const split = nb.updateSplit!;
    expect(split).toBeDefined();
    const mols = Int32Array.from({ length: n }, (_, i) => i);
    const settle = new Settle(mols, r.mass, SPCE_DOH, SPCE_DHH);
    const ws = UpdateWorkspace.take(n, true)!;
    expect(ws.shared).toBe(true);
    const dt = 0.002;
    const lambda = 0.97;
    try {
      const init = (): void => {
        ws.x.set(r.x);
        ws.v.set(r.v);
        ws.f.set(f);
        for (let i = 0; i < 3 * n; i++) ws.h3[i] = (0.5 * dt) / r.mass[Math.floor(i / 3)]!;
      };
      init();
      ws.kickDrift(lambda, 2, dt, true);
      const vir1 = new Float64Array(9);
      settle.positions(ws.xOld, ws.x, ws.v, 1 / dt, vir1);
      const [xa, va] = [Float64Array.from(ws.x), Float64Array.from(ws.v)];
      // The constrained positions moved: a test of something.
      expect(Math.max(...xa.map((xi, i) => Math.abs(xi - r.x[i]!)))).toBeGreaterThan(1e-4);
      // The first call hands the workers their ranges (run here); after a force call a worker
      // spins and takes its range (it may miss the window on a busy host: a few tries).
      for (let k = 0; k < 20 && (k < 2 || nb.updateOnWorkers === 0); k++) {
        nb.compute(r.x, f, false);
        init();
        const vir2 = new Float64Array(9);
        const job = settle.job(ws.xOld, ws.x, ws.v, 1 / dt, true);
        const parts = split(ws, lambda, 2, dt, true, job);
        expect(parts).toBeDefined();
        settle.positions(ws.xOld, ws.x, ws.v, 1 / dt, vir2, () => parts);
        expect(Array.from(ws.x)).toEqual(Array.from(xa));
        expect(Array.from(ws.v)).toEqual(Array.from(va));
        const m = Math.max(...vir1.map(Math.abs));
        expect(m).toBeGreaterThan(0);
        for (let q = 0; q < 9; q++) expect(Math.abs(vir2[q]! - vir1[q]!)).toBeLessThan(1e-12 * m);
      }
      expect(nb.updateOnWorkers).toBeGreaterThan(0);
      // Without SETTLE: the kick and drift alone, and with `measure` each range's largest
      // displacement since the search: the number of one pass over all atoms, taken once.
      ws.xList.set(r.x);
      init();
      ws.kickDrift(1, 1, dt, false);
      const xb = Float64Array.from(ws.x);
      const d2 = ws.maxDisplacement2(ws.x);
      expect(d2).toBeGreaterThan(0);
      init();
      expect(split(ws, 1, 1, dt, false, undefined, true)).toBeDefined();
      expect(Array.from(ws.x)).toEqual(Array.from(xb));
      expect(ws.measured).toBe(d2);
      expect(ws.maxDisplacement2(ws.x)).toBe(d2);
      expect(ws.measured).toBeUndefined();
      // Not measured where molecules are left to constrain on this thread after the ranges.
      init();
      const left = settle.job(ws.xOld, ws.x, ws.v, 1 / dt, false);
      if ((left.mols.length / 3) % 4 !== 0) {
        split(ws, lambda, 2, dt, true, left, true);
        expect(ws.measured).toBeUndefined();
      }
      // Arrays other than the workspace's are not split.
      expect(split(ws, lambda, 2, dt, true, settle.job(Float64Array.from(ws.xOld), ws.x, ws.v, 1 / dt, false))).toBeUndefined();
    } finally {
      ws.release();
    }
  });

  it('velocity Verlet on 2 threads: the kick done by the threads summing the forces, or left to the next kick and drift, and the kick and drift split over them, give the positions and velocities of the engine\'s own passes, bit for bit; the guard takes their sum of squares', async () => {
    // 'engine': the engine's own passes; 'threads': the threads kick in their sums (an onStep
    // callback reads v after every step, so no kick is left); 'left': each force-only step's kick
    // left to the next step's kick and drift (also split over the threads).
    const run = async (mode: 'engine' | 'threads' | 'left') => {
      const p = await prepareRun({ system: 'lj', cells: 6, target: 'wasm', cluster: '4x4', threads: 2, reproducible: true, nstcalcenergy: 10 });
      expect(p.run.integrator).toBe('vv');
      const eng = await MdEngine.create(p.run);
      const nb = eng.nb;
      const kicks: boolean[] = [];
      let left = 0;
      const sumSq: [number, number][] = [];
      const compute = nb.compute.bind(nb);
      nb.compute = (x, f, energies, kick) => {
        const r = compute(x, f, energies, kick);
        kicks.push(nb.kicked);
        if (kick === false) left++;
        if (nb.forcesSumSq !== undefined) sumSq.push([nb.forcesSumSq, f.reduce((s, fi) => s + fi * fi, 0)]);
        return r;
      };
      if (mode === 'engine') {
        nb.kickInSums = () => {};
        Object.defineProperty(nb, 'updateSplit', { get: () => undefined });
      }
      try {
        const out = eng.simulate(30, mode === 'left' ? {} : { onStep: () => {} });
        return { x: Float64Array.from(out.x), v: Float64Array.from(out.v), T: out.thermo.map((row) => row.T), kicks, left, sumSq, split: nb.updateOnWorkers };
      } finally {
        await eng.close();
      }
    };
    const [a, b, c] = [await run('engine'), await run('threads'), await run('left')];
    // The engine kicked on every call in 'engine'; in 'threads' the threads kicked on the
    // force-only calls (not the energy steps 10, 20, 30, nor the first call); in 'left' those
    // calls' kicks went to the next kick and drift.
    expect(a.kicks.some((k) => k) || a.left > 0).toBe(false);
    expect(b.kicks.filter((k) => k).length).toBe(27);
    expect(b.left).toBe(0);
    expect(c.kicks.some((k) => k)).toBe(false);
    expect(c.left).toBe(27);
    // The worker ran its range of the kick and drift (of the 30 steps, those it was still spinning for).
    expect(a.split).toBe(0);
    expect(b.split).toBeGreaterThan(20);
    expect(c.split).toBeGreaterThan(20);
    for (const o of [b, c]) {
      expect(Array.from(o.x)).toEqual(Array.from(a.x));
      expect(Array.from(o.v)).toEqual(Array.from(a.v));
      expect(o.T).toEqual(a.T);
      // The threads' sum of squares is the forces' own, up to the order of the additions.
      expect(o.sumSq.length).toBe(27);
      for (const [got, want] of o.sumSq) expect(Math.abs(got - want)).toBeLessThan(1e-12 * want);
    }
    expect(a.T[3]).not.toBeCloseTo(a.T[0]!, 3);
  });

  it('velocity Verlet with PME on 2 threads (the mesh on this thread: --reproducible): the threads do not kick (the mesh\'s forces come after their sums), and the run keeps the thermo of 1 thread to round-off', async () => {
    const run = async (threads: number) => {
      const p = await prepareRun({ system: 'water', gro: 'salt-water', coulomb: 'pme', target: 'wasm', precision: 'f64', tuned: false, threads, reproducible: true, integrator: 'vv', nstcalcenergy: 5 });
      const eng = await MdEngine.create(p.run);
      const nb = eng.nb;
      let kicked = 0;
      const compute = nb.compute.bind(nb);
      nb.compute = (x, f, energies) => {
        const r = compute(x, f, energies);
        if (nb.kicked) kicked++;
        return r;
      };
      try {
        return { thermo: eng.simulate(10).thermo, kicked };
      } finally {
        await eng.close();
      }
    };
    const [a, b] = [await run(1), await run(2)];
    expect(b.kicked).toBe(0);
    expect(b.thermo.map((row) => row.step)).toEqual([0, 5, 10]);
    for (let k = 0; k < a.thermo.length; k++) {
      for (const q of ['T', 'etot', 'recip'] as const) expect(Math.abs(b.thermo[k]![q] - a.thermo[k]![q])).toBeLessThan(1e-6 * Math.abs(a.thermo[k]![q]) + 1e-6);
    }
  });

  it('a 30-step water run on 2 threads (wasm, leap-frog and velocity Verlet) gives the thermo of 1 thread to round-off', async () => {
    for (const integrator of ['leapfrog', 'vv'] as const) {
      const run = async (threads: number) => {
        const p = await prepareRun({ system: 'water', gro: WATER, cluster: '4x4', target: 'wasm', threads, nstcalcenergy: 10, integrator, reproducible: true });
        const eng = await MdEngine.create(p.run);
        try {
          return eng.simulate(30).thermo;
        } finally {
          await eng.close();
        }
      };
      const [a, b] = [await run(1), await run(2)];
      expect(b.map((row) => row.step)).toEqual([0, 10, 20, 30]);
      expect(a.map((row) => row.step)).toEqual([0, 10, 20, 30]);
      for (let k = 0; k < a.length; k++) {
        // f32 kernels: the threads' force sums differ in the last bits, and so does the trajectory after.
        for (const q of ['T', 'vdw', 'coul', 'etot', 'P'] as const) expect(Math.abs(b[k]![q] - a[k]![q])).toBeLessThan(1e-4 * Math.abs(a[k]![q]) + 1e-3);
      }
      expect(a[3]!.T).not.toBeCloseTo(a[0]!.T, 3);
    }
  });
});
