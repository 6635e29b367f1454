// The MD workload: MiniMD's printed thermo reproduced digit for digit, results independent of
// cluster shape, list type and data ordering, energy conservation within what the Verlet buffer
// promises, momentum conservation, exact continuation from a state file, and the blow-up guard.
import { describe, it, expect } from 'vitest';
import { mkdtempSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { prepareRun, type MdOptions } from '../../runtime/md/setup.ts';
import { MdEngine, MdBlowUp, type ThermoRow } from '../../runtime/md/engine.ts';
import { runMdWorkload, driftPerAtom } from '../../runtime/md/workload.ts';
import { ljFluid, ljTemperature } from '../../runtime/md/ljfluid.ts';

const WATER = new URL('../fixtures/gromacs/spce/conf.gro', import.meta.url).pathname;
const quiet = () => {};

async function simulate(o: MdOptions, steps: number): Promise<{ rows: ThermoRow[]; x: Float64Array; v: Float64Array; n: number }> {
  const p = await prepareRun(o);
  const eng = await MdEngine.create(p.run);
  const out = eng.simulate(steps);
  return { rows: out.thermo, x: out.x, v: out.v, n: p.run.mass.length };
}

describe('MiniMD LJ benchmark (4,000 atoms, f64)', () => {
  it("initial velocities: MiniMD's generator gives T0 exactly and zero total momentum", () => {
    const { v, mass } = ljFluid({ cells: 10 });
    expect(ljTemperature(v, mass)).toBeCloseTo(1.44, 14);
    for (let d = 0; d < 3; d++) {
      let p = 0;
      for (let a = 0; a < mass.length; a++) p += v[3 * a + d]!;
      expect(Math.abs(p)).toBeLessThan(1e-10);
    }
  });
  it("reproduces MiniMD's printed thermo at steps 0 and 100 to all printed digits (1x1 list, skin 0.3, every 20 steps)", async () => {
    const { rows, n } = await simulate({ system: 'lj', cells: 10, cluster: '1x1', precision: 'f64', nstcalcenergy: 100 }, 100);
    const fmt = (r: ThermoRow) => [r.T.toPrecision(7), (r.epot / n).toPrecision(7), r.P.toPrecision(7)];
    expect(rows.map((r) => r.step)).toEqual([0, 100]);
    expect(fmt(rows[0]!)).toEqual(['1.440000', '-6.773368', '-5.019973']);
    expect(fmt(rows[1]!)).toEqual(['0.7208599', '-5.701261', '0.5236926']);
  });
});

describe('results do not depend on cluster shape, list type or ordering', () => {
  // nstlist 1: every list holds every pair inside the cut-off at every step, so all layouts
  // integrate the same dynamics and may differ only by summation order.
  const base: MdOptions = { system: 'lj', cells: 4, nstlist: 1, rb: 0.2, precision: 'f64', nstcalcenergy: 10 };
  const layouts: Partial<MdOptions>[] = [
    { cluster: '1x1', list: 'half' },
    { cluster: '1x1', list: 'full' },
    { cluster: '4x4' },
    { cluster: '4x8' },
    { cluster: '8x8', ordering: 'hilbert' },
    { cluster: '4x4', ordering: 'morton' },
    { cluster: '2x2', ordering: 'hilbert-rm' },
  ];
  it('positions, energies and pressure after 40 steps agree to round-off', async () => {
    const runs = [];
    for (const l of layouts) runs.push(await simulate({ ...base, ...l }, 40));
    const ref = runs[0]!;
    for (const [k, r] of runs.entries()) {
      let dx = 0;
      for (let i = 0; i < ref.x.length; i++) dx = Math.max(dx, Math.abs(r.x[i]! - ref.x[i]!));
      expect(dx, JSON.stringify(layouts[k])).toBeLessThan(1e-9);
      const a = r.rows[r.rows.length - 1]!;
      const b = ref.rows[ref.rows.length - 1]!;
      expect(Math.abs(a.epot - b.epot) / Math.abs(b.epot)).toBeLessThan(1e-11);
      expect(Math.abs(a.P - b.P)).toBeLessThan(1e-9);
    }
  });
});

describe('energy and momentum conservation (NVE)', () => {
  it('LJ fluid: drift within the tolerance the estimated buffer was chosen for, and beyond it without a buffer; momentum stays zero', async () => {
    const tol = 0.005;
    const o: MdOptions = { system: 'lj', cells: 5, nstlist: 20, nstcalcenergy: 20 };
    const buffered = await simulate({ ...o, cluster: '4x4', verletTolerance: tol }, 2000);
    expect(Math.abs(driftPerAtom(buffered.rows.slice(10), buffered.n))).toBeLessThan(tol);
    for (const r of buffered.rows) expect(r.momentum).toBeLessThan(1e-9);
    // The control: an atom-pair list with no buffer loses pairs and the energy drifts well beyond it.
    const bare = await simulate({ ...o, cluster: '1x1', rb: 0 }, 2000);
    expect(Math.abs(driftPerAtom(bare.rows.slice(10), bare.n))).toBeGreaterThan(2 * tol);
  }, 120_000);
  it('SPC/E water with SETTLE: drift within the buffer tolerance (0.005 kJ/mol/ps per atom); momentum conserved', async () => {
    const tol = 0.005;
    const { rows, n } = await simulate({ system: 'water', gro: WATER, cluster: '4x4', verletTolerance: tol, nstcalcenergy: 10 }, 300);
    const drift = driftPerAtom(rows, n);
    expect(Math.abs(drift)).toBeLessThan(tol);
    for (const r of rows) expect(r.momentum).toBeLessThan(1e-6);
    // Rigid water at about the temperature GROMACS equilibrated it to.
    expect(rows[0]!.T).toBeGreaterThan(280);
    expect(rows[0]!.T).toBeLessThan(320);
  }, 240_000);
});

describe('integrators and thermostats', () => {
  it('SPC/E water with velocity Verlet + SETTLE (positions and velocities): energy conserved, constraints hold', async () => {
    const p = await prepareRun({ system: 'water', gro: WATER, cluster: '4x4', integrator: 'vv', verletTolerance: 0.005, nstcalcenergy: 10 });
    const eng = await MdEngine.create(p.run);
    const out = eng.simulate(200);
    expect(Math.abs(driftPerAtom(out.thermo, p.run.mass.length))).toBeLessThan(0.005);
    const x = out.x;
    const mols = p.molecules!;
    let worst = 0;
    for (let m = 0; m < mols.length / 3; m++) {
      const [o, h1, h2] = [mols[3 * m]!, mols[3 * m + 1]!, mols[3 * m + 2]!];
      const d = (a: number, b: number) => Math.hypot(x[3 * a]! - x[3 * b]!, x[3 * a + 1]! - x[3 * b + 1]!, x[3 * a + 2]! - x[3 * b + 2]!);
      worst = Math.max(worst, Math.abs(d(o, h1) - 0.1), Math.abs(d(o, h2) - 0.1), Math.abs(d(h1, h2) - 0.163298086));
    }
    expect(worst).toBeLessThan(1e-9);
  }, 120_000);
  it('v-rescale takes the LJ fluid to the reference temperature and keeps the conserved energy', async () => {
    const p = await prepareRun({ system: 'lj', cells: 4, cluster: '4x4', thermostat: 'v-rescale', refT: 2.0, tauT: 0.1, seed: 3, nstcalcenergy: 10 });
    const eng = await MdEngine.create(p.run);
    const out = eng.simulate(3000);
    const late = out.thermo.slice(out.thermo.length / 2);
    const meanT = late.reduce((a, r) => a + r.T, 0) / late.length;
    // 256 atoms: T fluctuates by sqrt(2/765) ~ 5%; the mean of 150 correlated samples is within 2%.
    expect(Math.abs(meanT - 2.0)).toBeLessThan(0.04);
    // The thermostat removed energy; the conserved quantity does not drift.
    expect(Math.abs(out.thermo.at(-1)!.etot - out.thermo[0]!.etot)).toBeGreaterThan(10);
    expect(Math.abs(driftPerAtom(out.thermo, 256))).toBeLessThan(0.005);
  }, 120_000);
});

describe('state files and the blow-up guard', () => {
  it('40 steps equal 20 steps, a state file, and 20 more (leap-frog water)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kf-md-'));
    const state = join(dir, 'state.json');
    const o: MdOptions = { system: 'water', gro: WATER, cluster: '4x4', nstcalcenergy: 10 };
    const straight = await runMdWorkload({ ...o, steps: 40, log: quiet });
    await runMdWorkload({ ...o, steps: 20, stateOut: state, log: quiet });
    const cont = await runMdWorkload({ ...o, gro: undefined, state, steps: 20, log: quiet });
    expect(cont.outcome.step).toBe(40);
    let dx = 0;
    for (let i = 0; i < straight.outcome.x.length; i++) dx = Math.max(dx, Math.abs(cont.outcome.x[i]! - straight.outcome.x[i]!));
    expect(dx).toBeLessThan(1e-12);
    const a = straight.outcome.thermo.at(-1)!;
    const b = cont.outcome.thermo.at(-1)!;
    expect(b.epot).toBeCloseTo(a.epot, 8);
  }, 120_000);
  it('a blow-up stops the run with a message and keeps the last good frame', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kf-md-'));
    const confout = join(dir, 'out.gro');
    // dt 0.05 tau is ten times too long for the LJ fluid: atoms collide within a few steps
    // (forceDt: past the up-front limit, to the run-time guard).
    const err = await runMdWorkload({ system: 'lj', cells: 4, dt: 0.05, forceDt: true, t0: 3, steps: 200, nstcalcenergy: 1, confout, log: quiet }).catch((e) => e);
    expect(err).toBeInstanceOf(MdBlowUp);
    expect(err.message).toMatch(/step \d+: .*blew up.*last good frame \(step \d+\) written to .*out\.lastgood\.gro/);
    const good = join(dir, 'out.lastgood.gro');
    expect(existsSync(good)).toBe(true);
    expect(existsSync(confout)).toBe(false);
    expect(readFileSync(good, 'utf8').split('\n')[1]!.trim()).toBe('256');
    expect(err.lastGood.x.every((c: number) => Number.isFinite(c))).toBe(true);
  });
});
