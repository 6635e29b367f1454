// Verlet buffer estimate: agreement with GROMACS 2022 grompp (fixtures recorded by
// test/fixtures/verletbuf/run.sh), a closed-form single-type check, the Gaussian tail
// moments against quadrature, monotonicity, and the MiniMD LJ-units sanity case.
import { describe, it, expect } from 'vitest';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  estimateVerletBuffer,
  energyDrift,
  gaussianTailMoments,
  clusterSurfaceFraction,
  spceVerletTypes,
  type VerletBufferOptions,
  type VerletAtomType,
} from '../../runtime/md/verletbuf.ts';

const fixture = fileURLToPath(new URL('../fixtures/verletbuf/gromacs-2022.tsv', import.meta.url));
const [header, ...rows] = readFileSync(fixture, 'utf8').trim().split('\n').map((l) => l.split('\t'));
const cases = rows.map((r) => Object.fromEntries(header!.map((k, i) => [k, r[i]!])) as Record<string, string>);

const argon = (n: number): VerletAtomType[] => [{ mass: 39.948, charge: 0, c6: 4 * 0.996 * 0.3405 ** 6, c12: 4 * 0.996 * 0.3405 ** 12, count: n }];

/** The estimator options for one grompp case, in GROMACS 2022 mode (LJ: -V' only; no V(rc) jump). */
function optionsFor(c: Record<string, string>): VerletBufferOptions {
  const nat = +c.natoms!;
  const rc = +c.rc!;
  const epsRf = +c.epsilon_rf!;
  return {
    types: c.system === 'water' ? spceVerletTypes(nat / 3) : argon(nat),
    volume: (+c.box!) ** 3,
    temperature: +c.ref_t!,
    dt: +c.dt!,
    nstlist: +c.nstlist!,
    rc,
    tolerance: +c.tolerance!,
    interaction: c.coulombtype === 'PME' ? 'lj-ewald' : 'lj-rf',
    ljShift: c.vdw_modifier !== 'none',
    krf: epsRf === 0 ? undefined : (epsRf - 1) / ((2 * epsRf + 1) * rc ** 3),
    ljOrder: 1,
    potentialJump: false,
  };
}

describe('agreement with GROMACS 2022 grompp', () => {
  it('has the recorded cases', () => expect(cases.length).toBeGreaterThanOrEqual(20));
  it.each(cases.map((c) => [c.name!, c] as const))('%s', (_name, c) => {
    const o = optionsFor(c);
    // Same 0.001 nm grid as grompp: the printed 1x1 and 4x4 rlist agree exactly.
    expect(estimateVerletBuffer(o).rlist).toBeCloseTo(+c.rlist_1x1!, 9);
    expect(estimateVerletBuffer({ ...o, cluster: [4, 4] }).rlist).toBeCloseTo(+c.rlist_4x4!, 9);
    // gmx_d with GMX_VERLET_BUFFER_RES=0.00001: agrees on the 1e-5 grid.
    expect(Math.abs(estimateVerletBuffer({ ...o, cluster: [4, 4], resolution: 1e-5 }).rlist - +c.rlist_4x4_fine!)).toBeLessThan(1.5e-5);
    // With the LJ second and third derivatives (default; GROMACS >= 2023) the buffer only grows, by < 0.008 nm here.
    const full = estimateVerletBuffer({ ...o, ljOrder: 3, cluster: [4, 4] }).rlist - +c.rlist_4x4!;
    expect(full).toBeGreaterThanOrEqual(-1e-9);
    expect(full).toBeLessThan(0.008);
  });
  it('the 4x4 cluster correction factor matches grompp -debug (0.092 at rlist 1.067, SPC/E)', () => {
    const dp = Math.cbrt((Math.SQRT2 * 27) / 2652);
    expect(dp).toBeCloseTo(0.243277, 6); // "particle distance assuming HCP packing: 0.243277 nm"
    expect(clusterSurfaceFraction(4, dp, 1.067) ** 2).toBeCloseTo(0.092, 3);
    expect(clusterSurfaceFraction(4, dp, 1.141) ** 2).toBeCloseTo(0.090, 3);
  });
  it('drift values match the grompp -debug bisection trace (SPC/E, RF, nstlist 10, 1x1 and 4x4)', () => {
    const o = optionsFor(cases[0]!);
    // Lines "ib  -1  70 141 rb 0.070 1x1 fac 1.000 drift 4.1e-02" (gmx prints %.1e; we compare the same formatting).
    const trace = readFileSync(fileURLToPath(new URL('../fixtures/verletbuf/gromacs-2022-debug-water-rf-n10-dt2.txt', import.meta.url)), 'utf8')
      .split('\n')
      .map((l) => /rb ([0-9.]+) (\d)x(\d) fac ([0-9.]+) drift ([0-9.e+-]+)/.exec(l))
      .filter((m) => m !== null);
    expect(trace.length).toBeGreaterThanOrEqual(14);
    for (const m of trace) {
      const cluster: [number, number] = [+m[2]!, +m[3]!];
      const drift = energyDrift({ ...o, cluster }, +m[1]!);
      const gmx = (+m[5]!).toExponential(1);
      expect(drift.toExponential(1)).toBe(gmx);
    }
  });
});

describe('maths', () => {
  it('Gaussian tail moments J_n = E[(X - a)_+^n]/n! match quadrature', () => {
    for (const [a, s2] of [[0, 0.01], [0.05, 0.0008], [0.2, 0.01], [1.3, 0.4]] as const) {
      const s = Math.sqrt(s2);
      const J = [0, 0, 0, 0];
      const n = 200000;
      const hi = a + 12 * s;
      const h = (hi - a) / n;
      for (let k = 0; k <= n; k++) {
        const x = a + k * h;
        const w = (k === 0 || k === n ? 0.5 : 1) * h * Math.exp((-x * x) / (2 * s2)) / Math.sqrt(2 * Math.PI * s2);
        J[0] += w * (x - a);
        J[1] += (w * (x - a) ** 2) / 2;
        J[2] += (w * (x - a) ** 3) / 6;
        J[3] += (w * (x - a) ** 4) / 24;
      }
      const m = gaussianTailMoments(a, s2);
      for (let k = 0; k < 4; k++) expect(Math.abs(m[k]! - J[k]!)).toBeLessThan(1e-7 * Math.abs(J[k]!) + 1e-18);
    }
  });

  it('closed form at rb = 0 for one unconstrained type with the force term only', () => {
    // J2(0) = s^2 / 4, so drift = |F(rc)| s^2/4 * n(n-1)/2 * 4 pi (rc + s)^2 / V / (nstlist dt n), s^2 = 2 kB T t^2 / m.
    const n = 1000;
    const o: VerletBufferOptions = { types: argon(n), volume: 3.6 ** 3, temperature: 120, dt: 0.005, nstlist: 40, rc: 1.0, interaction: 'lj', ljShift: true, ljOrder: 1 };
    const [c6, c12] = [argon(1)[0]!.c6, argon(1)[0]!.c12];
    const t = 39 * 0.005;
    const s2 = (2 * 0.0083144626 * 120 * t * t) / 39.948;
    const force = 12 * c12 - 6 * c6; // -V'(1)
    const expected = (((Math.abs(force) * s2) / 4) * ((n * (n - 1)) / 2) * 4 * Math.PI * (1 + Math.sqrt(s2)) ** 2) / 3.6 ** 3 / (40 * 0.005 * n);
    expect(energyDrift(o, 0) / expected - 1).toBeCloseTo(0, 12);
  });

  it('the drift at rb equals the tolerance to 1e-6 relative', () => {
    for (const c of [cases[0]!, cases[8]!, cases[cases.length - 1]!]) {
      for (const cluster of [[1, 1], [4, 4], [2, 2]] as [number, number][]) {
        const o = { ...optionsFor(c), cluster, ljOrder: 3 as const };
        const r = estimateVerletBuffer(o);
        if (r.rb === 0) continue;
        expect(Math.abs(r.drift / o.tolerance! - 1)).toBeLessThan(1e-6);
        expect(r.driftAtRlist).toBeLessThanOrEqual(o.tolerance!);
        expect(energyDrift(o, r.rlist - o.rc - 0.001)).toBeGreaterThan(o.tolerance!);
      }
    }
  });

  it('SETTLE water: only H counts as constrained, and constraints shrink the buffer', () => {
    const o = { ...optionsFor(cases[0]!), cluster: [4, 4] as [number, number] };
    const free = spceVerletTypes(884).map(({ constrained: _c, ...t }) => t);
    const noO = spceVerletTypes(884).map((t, i) => (i === 0 ? { ...t, constrained: undefined } : t));
    expect(estimateVerletBuffer({ ...o, types: noO }).rb).toBe(estimateVerletBuffer(o).rb);
    expect(estimateVerletBuffer({ ...o, types: free }).rb).toBeGreaterThan(estimateVerletBuffer(o).rb + 0.01);
    // The older arcsin chord model (GROMACS < 2020) differs from grompp 2022 at nstlist 40: 1.34674 vs 1.34121.
    const o40 = { ...optionsFor(cases[2]!), cluster: [4, 4] as [number, number], resolution: 1e-5 };
    expect(estimateVerletBuffer({ ...o40, constraintModel: 'arcsin' }).rlist).toBeCloseTo(1.34674, 5);
    expect(estimateVerletBuffer(o40).rlist).toBeCloseTo(1.34121, 5);
  });
});

describe('monotonicity', () => {
  const water: VerletBufferOptions = { ...optionsFor(cases[0]!), ljOrder: 3, cluster: [4, 4] };
  const ar: VerletBufferOptions = { ...optionsFor(cases.find((c) => c.name === 'argon-n40-tol1e-4')!), ljOrder: 3 };
  const rb = (o: VerletBufferOptions) => estimateVerletBuffer(o).rb;
  const increasing = (xs: number[]) => xs.every((x, i) => i === 0 || x > xs[i - 1]!);
  it.each([['water', water], ['argon', ar]] as const)('%s: rb grows with nstlist, T and dt, shrinks with tolerance and mass', (_n, o) => {
    expect(increasing([10, 20, 40, 80].map((nstlist) => rb({ ...o, nstlist })))).toBe(true);
    expect(increasing([250, 300, 350, 400].map((temperature) => rb({ ...o, temperature })))).toBe(true);
    expect(increasing([0.001, 0.002, 0.004].map((dt) => rb({ ...o, dt })))).toBe(true);
    expect(increasing([0.05, 0.005, 0.001, 1e-4].map((tolerance) => rb({ ...o, tolerance: tolerance * o.tolerance! / 0.005 })))).toBe(true);
    const heavier = (f: number) => o.types.map((t) => ({ ...t, mass: t.mass * f, constrained: t.constrained && { ...t.constrained, partnerMass: t.constrained.partnerMass * f } }));
    expect(increasing([4, 2, 1, 0.5].map((f) => rb({ ...o, types: heavier(f) })))).toBe(true);
    // The drift itself falls monotonically with the buffer.
    const d = [0, 0.02, 0.05, 0.1, 0.2].map((b) => energyDrift(o, b));
    expect(d.every((x, i) => i === 0 || x < d[i - 1]!)).toBe(true);
  });
  it('cluster lists need smaller buffers: 1x1 > 2x2 > 4x4 = 4x8 (8 treated as 4)', () => {
    const r = (cluster: [number, number]) => rb({ ...water, cluster });
    expect(r([1, 1])).toBeGreaterThan(r([2, 2]));
    expect(r([2, 2])).toBeGreaterThan(r([4, 4]));
    expect(r([4, 8])).toBe(r([4, 4]));
  });
});

describe('MiniMD LJ fluid in LJ units (density 0.8442, T 1.44, dt 0.005, rc 2.5, plain LJ, mass 1, kB 1)', () => {
  const N = 4000;
  const mini: VerletBufferOptions = {
    types: [{ mass: 1, charge: 0, c6: 4, c12: 4, count: N }],
    volume: N / 0.8442, temperature: 1.44, kB: 1, dt: 0.005, nstlist: 20, rc: 2.5, interaction: 'lj', ljShift: false,
  };
  it('gives a finite positive buffer of the order of the 0.3 skin (1x1 list, V(rc) jump included)', () => {
    const r = estimateVerletBuffer(mini);
    expect(Number.isFinite(r.rb)).toBe(true);
    expect(r.rb).toBeGreaterThan(0.3);
    expect(r.rb).toBeLessThan(0.45);
    expect(r.rb).toBeCloseTo(0.3746, 3);
    // MiniMD's fixed skin 0.3 is estimated to drift ~3.5x the tolerance.
    expect(energyDrift(mini, 0.3)).toBeCloseTo(0.01734, 4);
    // GROMACS-style (no V(rc) jump, as if shifted) the buffer is smaller.
    expect(estimateVerletBuffer({ ...mini, potentialJump: false }).rb).toBeCloseTo(0.2549, 3);
  });
  it('is monotone in nstlist and tolerance', () => {
    const bySteps = [5, 10, 20, 40].map((nstlist) => estimateVerletBuffer({ ...mini, nstlist }).rb);
    expect(bySteps.every((x, i) => i === 0 || x > bySteps[i - 1]!)).toBe(true);
    const byTol = [0.05, 0.005, 0.0005].map((tolerance) => estimateVerletBuffer({ ...mini, tolerance }).rb);
    expect(byTol.every((x, i) => i === 0 || x > byTol[i - 1]!)).toBe(true);
  });
});
