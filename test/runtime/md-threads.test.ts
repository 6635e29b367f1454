// Worker threads for the MD non-bonded forces (issue 7): the i-entries split over threads, each
// range into its own force/energy/shift-force arrays summed afterwards, give the forces, energies
// and virial of the single-thread run up to round-off in those sums; whole runs give the same
// thermo; the pair search split over the threads gives the single-thread list entry for entry.
// WebAssembly variants (each worker with its own instance and memory) do the same, their
// f32 force sums differing in round-off only. Bad thread counts are refused with clear user
// errors; the worker threads end with the run.
import { describe, it, expect, afterAll } from 'vitest';
import { Command } from 'commander';
import { prepareRun, type MdOptions } from '../../runtime/md/setup.ts';
import { NonbondedForce } from '../../runtime/md/forces.ts';
import { MdEngine, type ThermoRow } from '../../runtime/md/engine.ts';
import { MdInputError } from '../../runtime/md/errors.ts';
import { registerMd } from '../../cli/commands/md.ts';
import { runMdWorkload } from '../../runtime/md/workload.ts';
import { maxThreads } from '../../runtime/parallel/pool.ts';
import { guidedFractions, MdWasmThreads, OP_ENERGIES, OP_TASKS, setRunPosted, spinForSteps, SPIN_CLAIMED, SPIN_IDLE, splitAtWork, splitByWork } from '../../runtime/parallel/md.ts';
import { buildClusters, ljAtoms, type ClusterSplit } from '../../runtime/md/clusters.ts';

const WATER = new URL('../fixtures/gromacs/spce/conf.gro', import.meta.url).pathname;
const quiet = () => {};

const open: NonbondedForce[] = [];
afterAll(async () => {
  for (const nb of open) await nb.close();
});

/** Largest |a - b| over the largest |b| (or 1e-300). */
function rel(a: ArrayLike<number>, b: ArrayLike<number>): number {
  expect(a.length).toBe(b.length);
  let d = 0;
  let m = 1e-300;
  for (let i = 0; i < a.length; i++) {
    d = Math.max(d, Math.abs(a[i]! - b[i]!));
    m = Math.max(m, Math.abs(b[i]!));
  }
  return d / m;
}
const relNum = (a: number, b: number): number => Math.abs(a - b) / Math.max(Math.abs(b), 1e-300);

async function forces(o: MdOptions, threads: number) {
  const p = await prepareRun(o);
  const r = p.run;
  const nb = await NonbondedForce.create({ topology: r.topology, settings: r.settings, rlist: r.rlist, keyF: r.keyF, keyE: r.keyE, search: r.search, threads });
  open.push(nb);
  expect(nb.threads).toBe(threads);
  const n = r.mass.length;
  // Off the lattice (the perfect fcc crystal has forces of round-off size only).
  const x = Float64Array.from(r.x, (xi, i) => xi + 1e-2 * Math.cos(3 * i));
  // Three searches: the list buffers grow in the first two (each joined on the calling thread);
  // from the third on the threads join their own parts into them.
  for (let k = 0; k < 3; k++) nb.rebuild(x);
  const joinedHere = (nb as unknown as { kernels: { par?: { searchesJoinedHere?: number } } }).kernels.par?.searchesJoinedHere ?? 0;
  const f0 = new Float64Array(3 * n);
  const e0 = nb.compute(x, f0, true)!;
  const f1 = new Float64Array(3 * n);
  expect(nb.compute(x, f1, false)).toBeNull();
  // Moved positions without a new search: the shared positions are updated before each call.
  for (let i = 0; i < 3 * n; i++) x[i]! += 1e-3 * Math.sin(7 * i);
  const f2 = new Float64Array(3 * n);
  const e2 = nb.compute(x, f2, true)!;
  const f3 = new Float64Array(3 * n);
  nb.compute(x, f3, false);
  const { ci, cj, excl } = nb.list;
  const L = nb.layout;
  return { keyF: r.keyF, joinedHere, f0, e0, f1, f2, e2, f3, nci: nb.list.ci.length / 4, list: { ci: Array.from(ci), cj: Array.from(cj), excl: Array.from(excl) }, layout: { atomOf: Array.from(L.atomOf), x: Array.from(L.x) } };
}

describe('non-bonded forces over threads equal the single-thread ones to round-off', () => {
  // Tolerances: f64 sums differ in the last bits; the wasm kernels accumulate j-forces in f32
  // memory, so a force summed from two ranges differs from one range's in f32 round-off (of the
  // pair terms, which cancel to a smaller net force: 1e-5 of the largest force).
  const cases: [string, MdOptions, { f: number; e: number; vir: number }][] = [
    ['SPC/E water box, f64 lj-rf 4x4', { system: 'water', gro: WATER, cluster: '4x4', precision: 'f64' }, { f: 1e-12, e: 1e-12, vir: 1e-12 }],
    ['LJ fluid, f64 4x2', { system: 'lj', cells: 6, cluster: '4x2', precision: 'f64' }, { f: 1e-12, e: 1e-12, vir: 1e-12 }],
    ['LJ fluid, f64 1x1 full list', { system: 'lj', cells: 5, cluster: '1x1', list: 'full', precision: 'f64' }, { f: 1e-12, e: 1e-12, vir: 1e-12 }],
    ['SPC/E water box, wasm f32 lj-rf 4x4', { system: 'water', gro: WATER, target: 'wasm', cluster: '4x4' }, { f: 1e-5, e: 1e-6, vir: 1e-5 }],
    ['SPC/E water box, wasm f32 lj-rf 8x4', { system: 'water', gro: WATER, target: 'wasm', cluster: '8x4' }, { f: 1e-5, e: 1e-6, vir: 1e-5 }],
    ['LJ fluid, wasm f32 4x4', { system: 'lj', cells: 6, target: 'wasm', cluster: '4x4' }, { f: 1e-5, e: 1e-6, vir: 1e-5 }],
  ];
  for (const [name, o, tol] of cases) {
    it(name, async () => {
      const one = await forces(o, 1);
      if (name.includes('water')) expect(one.keyF).toContain('.lj-rf.');
      if (name.includes('wasm')) expect(one.keyF).toContain('.wasm.');
      for (const t of [2, 3]) {
        const par = await forces(o, t);
        expect(par.nci).toBe(one.nci);
        // The clustering and the pair search split over the threads give the same layout and list,
        // entry for entry (the third list joined by the threads, each copying its own parts).
        if (!name.includes('full list')) expect(par.joinedHere).toBe(1);
        expect(par.layout).toEqual(one.layout);
        expect(par.list).toEqual(one.list);
        for (const [a, b] of [[par.f0, one.f0], [par.f1, one.f1], [par.f2, one.f2], [par.f3, one.f3]] as const) expect(rel(a, b)).toBeLessThan(tol.f);
        // Force-only and energy calls agree with each other as they do single-threaded.
        expect(rel(par.f1, par.f0)).toBeLessThan(tol.f);
        for (const [a, b] of [[par.e0, one.e0], [par.e2, one.e2]] as const) {
          expect(relNum(a.vdw, b.vdw)).toBeLessThan(tol.e);
          if (b.coul !== 0) expect(relNum(a.coul, b.coul)).toBeLessThan(tol.e);
          expect(rel(a.virial, b.virial)).toBeLessThan(tol.vir);
        }
      }
    });
  }
});

describe('the clustering over worker threads', () => {
  it('gives the layout of one thread, the worker binning chunks of the atoms', async () => {
    const p = await prepareRun({ system: 'lj', cells: 12, target: 'wasm', cluster: '4x4' });
    const r = p.run;
    const par = await MdWasmThreads.create(2, r.keyF, r.keyE);
    try {
      const sys = { ...r.topology, x: Float64Array.from(r.x, (xi, i) => xi + 0.05 * Math.sin(1.3 * i)) };
      const ljFirst = ljAtoms(sys);
      const plain = buildClusters(sys, 4, 4, { ljFirst });
      let workerBinned = 0;
      const split: ClusterSplit = (job, middle) => {
        const done = par.cluster(job, middle);
        const ncol = job.ncx * job.ncy;
        if (job.counts.subarray(ncol, 2 * ncol).some((c) => c > 0)) workerBinned++;
        return done;
      };
      // Ten calls, then more until the worker has taken part: on a loaded machine (the test
      // files run side by side on two cores) it may find no chunk left in the first ones.
      for (let k = 0; k < 10 || (workerBinned === 0 && k < 500); k++) {
        const s = buildClusters(sys, 4, 4, { ljFirst, split, orderHint: k > 0 ? plain.atomOf : undefined });
        expect(s.nPadded).toBe(plain.nPadded);
        expect(Array.from(s.atomOf)).toEqual(Array.from(plain.atomOf));
        expect(Array.from(s.slotOf)).toEqual(Array.from(plain.slotOf));
        expect(Array.from(s.x)).toEqual(Array.from(plain.x));
      }
      // The worker took part (it claims chunks as it comes, so not necessarily in every call).
      expect(workerBinned).toBeGreaterThan(0);
      // A non-finite coordinate is named as on one thread, and the threads stay usable.
      const bad = { ...sys, x: Float64Array.from(sys.x) };
      bad.x[3 * 5000] = NaN;
      expect(() => buildClusters(bad, 4, 4, { ljFirst, split })).toThrow(/^atom 5001: coordinate is not finite$/);
      expect(Array.from(buildClusters(sys, 4, 4, { ljFirst, split }).atomOf)).toEqual(Array.from(plain.atomOf));
    } finally {
      await par.close();
    }
  });
});

describe('a spinning worker claimed for its posted tasks (OP_TASKS)', () => {
  it('runs them from its spin loop where it can read them there, then takes the next claim; else goes back to its event loop', () => {
    const spin = new Int32Array(new SharedArrayBuffer(8));
    const seen: string[] = [];
    try {
      // Claimed for the tasks before it looks: it runs them (the Node worker entry reads them
      // with receiveMessageOnPort), spins on, and takes a step claimed after them.
      setRunPosted(() => {
        seen.push('tasks');
        Atomics.store(spin, 1, SPIN_CLAIMED + OP_ENERGIES);
      });
      Atomics.store(spin, 1, SPIN_CLAIMED + OP_TASKS);
      spinForSteps(spin, 1, (op) => seen.push(`step ${op}`));
      expect(seen).toEqual(['tasks', `step ${OP_ENERGIES}`]);
      // Nothing claimed it again: it stopped spinning (idle) after WORKER_SPIN_MS.
      expect(Atomics.load(spin, 1)).toBe(SPIN_IDLE);
      // Without a synchronous reader (a browser worker) it leaves the loop for its event loop at once.
      setRunPosted(undefined);
      seen.length = 0;
      Atomics.store(spin, 1, SPIN_CLAIMED + OP_TASKS);
      spinForSteps(spin, 1, (op) => seen.push(`step ${op}`));
      expect(seen).toEqual([]);
      expect(Atomics.load(spin, 1)).toBe(SPIN_IDLE);
    } finally {
      setRunPosted(undefined);
    }
  });
});

describe('splitByWork', () => {
  it('cuts the i-entries into contiguous ranges of about equal j-entry count', () => {
    // 10 i-entries with 1, 2, ..., 10 j-entries (work j + 1).
    const ci = new Int32Array(40);
    let j = 0;
    for (let e = 0; e < 10; e++) {
      ci.set([e, 13, j, j + e + 1], 4 * e);
      j += e + 1;
    }
    const b = splitByWork(ci, 2);
    expect(b[0]).toBe(0);
    expect(b[2]).toBe(10);
    const work = (lo: number, hi: number) => { let s = 0; for (let e = lo; e < hi; e++) s += e + 2; return s; };
    expect(Math.abs(work(0, b[1]!) - work(b[1]!, 10))).toBeLessThanOrEqual(11);
    expect(splitByWork(new Int32Array(0), 3)).toEqual([0, 0, 0, 0]);
    expect(splitByWork(ci, 1)).toEqual([0, 10]);
  });

  it('guided chunks: each a quarter of the work left on 2 threads, down to 1/128 of the whole; cut where the work reaches each fraction', () => {
    const f = guidedFractions(2);
    expect(f[0]).toBe(0.25);
    expect(f[1]).toBe(0.25 + 0.75 / 4);
    const steps = f.map((x, k) => x - (k ? f[k - 1]! : 0));
    for (let k = 1; k < steps.length; k++) expect(steps[k]!).toBeLessThanOrEqual(steps[k - 1]! + 1e-15);
    expect(Math.min(...steps)).toBeCloseTo(1 / 128, 12);
    expect(1 - f[f.length - 1]!).toBeGreaterThanOrEqual(1 / 256);
    expect(1 - f[f.length - 1]!).toBeLessThan(1 / 64);
    expect(f.length).toBe(15);
    // 100 i-entries of 9 j-entries each (work 10): cuts at a quarter, then a quarter of the rest.
    const ci = new Int32Array(400);
    for (let e = 0; e < 100; e++) ci.set([e, 0, 9 * e, 9 * e + 9], 4 * e);
    expect(splitAtWork(ci, [0.25, 0.4375, 0.99])).toEqual([0, 25, 44, 99, 100]);
    expect(splitAtWork(ci, [])).toEqual([0, 100]);
  });
});

describe('kernforge run md --threads', () => {
  const thermo = async (o: Parameters<typeof runMdWorkload>[0]) => (await runMdWorkload({ log: quiet, ...o })).outcome.thermo;
  it('a 30-step LJ run on 2 threads gives the thermo of 1 thread to round-off', async () => {
    const o = { system: 'lj' as const, cells: 6, cluster: '4x2', precision: 'f64' as const, steps: 30, thermo: 10 };
    const [a, b] = [await thermo({ ...o, threads: 1 }), await thermo({ ...o, threads: '2' })];
    expect(b.map((r) => r.step)).toEqual([0, 10, 20, 30]);
    for (let k = 0; k < a.length; k++) {
      for (const q of ['T', 'epot', 'etot', 'P'] as const) expect(relNum(b[k]![q], a[k]![q])).toBeLessThan(1e-10);
    }
  });
  it('a 30-step water run (SETTLE, leap-frog) on 2 threads gives the thermo of 1 thread to round-off', async () => {
    const o = { system: 'water' as const, gro: WATER, cluster: '4x4', precision: 'f64' as const, steps: 30, thermo: 10 };
    const [a, b] = [await thermo({ ...o, threads: 1 }), await thermo({ ...o, threads: 2 })];
    expect(b.length).toBe(a.length);
    for (let k = 0; k < a.length; k++) {
      for (const q of ['T', 'vdw', 'coul', 'etot', 'P'] as const) expect(relNum(b[k]![q], a[k]![q])).toBeLessThan(1e-9);
    }
  });
  it('a 30-step wasm LJ run on 2 threads gives the thermo of 1 thread up to f32 round-off', async () => {
    const o = { system: 'lj' as const, cells: 6, target: 'wasm' as const, cluster: '4x4', steps: 30, thermo: 10 };
    const [a, b] = [await thermo({ ...o, threads: 1 }), await thermo({ ...o, threads: 2 })];
    expect(b.map((r) => r.step)).toEqual([0, 10, 20, 30]);
    for (let k = 0; k < a.length; k++) {
      for (const q of ['T', 'epot', 'etot', 'P'] as const) expect(relNum(b[k]![q], a[k]![q])).toBeLessThan(1e-5);
    }
  });
  it('--reproducible: two wasm water runs on 2 threads give the same thermo bit for bit, and that of 1 thread up to f32 round-off', async () => {
    const o = { system: 'water' as const, gro: WATER, target: 'wasm' as const, cluster: '4x4', steps: 20, thermo: 10 };
    const [a, b, c] = [await thermo({ ...o, threads: 2, reproducible: true }), await thermo({ ...o, threads: 2, reproducible: true }), await thermo({ ...o, threads: 1 })];
    expect(b).toEqual(a);
    expect(a.map((r) => r.step)).toEqual([0, 10, 20]);
    for (let k = 0; k < a.length; k++) {
      for (const q of ['T', 'vdw', 'coul', 'etot', 'P'] as const) expect(relNum(a[k]![q], c[k]![q])).toBeLessThan(1e-4);
    }
  });
  it('PME salt water, wasm f64 on 2 threads: the mesh runs on a worker beside the kernels, the same mesh numbers and the thermo of 1 thread to round-off; --reproducible keeps it on this thread', async () => {
    const run = async (threads: number, reproducible = false) => {
      const p = await prepareRun({ system: 'water', gro: 'salt-water', coulomb: 'pme', target: 'wasm', precision: 'f64', tuned: false, threads, reproducible, nstcalcenergy: 5 });
      const eng = await MdEngine.create(p.run);
      try {
        const rows: ThermoRow[] = [];
        eng.simulate(10, { onThermo: (r) => rows.push(r) });
        return { rows, onThreads: eng.nb.longRangeOnThreads, hereCalls: p.run.longRange!.timers.calls };
      } finally {
        await eng.close();
      }
    };
    const [one, two, rep] = [await run(1), await run(2), await run(2, true)];
    expect(two.onThreads).toBe(true);
    expect(two.hereCalls).toBe(0); // this thread's mesh never ran
    expect(rep.onThreads).toBe(false);
    expect(rep.hereCalls).toBeGreaterThan(10);
    expect(one.rows.map((r) => r.step)).toEqual([0, 5, 10]);
    for (const r of [two, rep]) {
      expect(r.rows.map((x) => x.step)).toEqual([0, 5, 10]);
      // step 0: the same positions, so the same mesh numbers bit for bit wherever it ran
      expect(r.rows[0]!.recip).toBe(one.rows[0]!.recip);
      for (let k = 0; k < 3; k++) {
        for (const q of ['T', 'vdw', 'coul', 'recip', 'etot', 'P'] as const) expect(relNum(r.rows[k]![q], one.rows[k]![q])).toBeLessThan(1e-9);
      }
    }
  }, 60_000);
  it('refuses bad thread counts as user errors', async () => {
    for (const bad of ['0', '-1', '1.5', 'abc', '', String(maxThreads() + 1)]) {
      await expect(runMdWorkload({ system: 'lj', cells: 5, steps: 1, threads: bad, log: quiet })).rejects.toThrow(MdInputError);
      await expect(runMdWorkload({ system: 'lj', cells: 5, steps: 1, threads: bad, log: quiet })).rejects.toThrow(/--threads .*must be an integer from 1 to \d+/);
    }
    const program = new Command().exitOverride();
    registerMd(program.command('run'));
    await expect(program.parseAsync(['run', 'md', '--cells', '5', '--steps', '1', '--threads', 'x2'], { from: 'user' })).rejects.toThrow(/--threads x2: the thread count must be an integer/);
    await expect(NonbondedForce.create({ ...(await prepareRun({ system: 'lj', cells: 5 })).run, threads: 0 } as never)).rejects.toThrow(/threads 0/);
  });
});
