// PME in the MD workload: the total force (short-range kernel with the exclusion and self terms,
// plus the mesh) is minus the gradient of the total energy; the .top subset reader; `run md
// --rerun` as a user meets it; and bad input (a grid too coarse for ewald-rtol, an order out of
// range, a net charge without its correction, unknown molecule and atom types) ending in one line,
// exit status 2 and nothing written.
import { describe, it, expect, beforeAll } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync, existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { waterBox, type MdSystem } from '../../runtime/md/system.ts';
import { evaluateEnergies } from '../../runtime/md/rerun.ts';
import { readTop, systemFromTop, BUNDLED_SALT_WATER, TopError } from '../../runtime/md/top.ts';
import { pmeSettings, ewaldKmax } from '../../runtime/md/pme.ts';
import { readGro, writeGro } from '../../runtime/md/gro.ts';
import { ONE_4PI_EPS0 } from '../../runtime/md/interaction.ts';
import { reference } from '../../runtime/md/reference.ts';
import { pmeReciprocal } from '../../runtime/pme/index.ts';

const root = new URL('../..', import.meta.url).pathname;
const cli = (...args: string[]) => spawnSync('node', [join(root, 'cli/kernforge.mjs'), 'run', 'md', ...args], { encoding: 'utf8', cwd: root });
const SALT_GRO = readFileSync(BUNDLED_SALT_WATER.gro, 'utf8');
const SALT_TOP = readFileSync(BUNDLED_SALT_WATER.top, 'utf8');

/** A water box with molecule 0 made a cation (+1 on O, H neutral) and molecule 1 an anion: ions with exclusions around them. */
function ionicWater(): MdSystem {
  const s = waterBox(300, 3);
  s.q[0] = 1;
  s.q[1] = s.q[2] = 0;
  s.q[3] = -1;
  s.q[4] = s.q[5] = 0;
  return s;
}

/** A folder with the salt water's topology (edited) and a .gro (edited), for the CLI's error cases. */
function saltCase(o: { top?: (t: string) => string; gro?: string } = {}): { dir: string; top: string; gro: string } {
  const dir = mkdtempSync(join(tmpdir(), 'kf-pme-'));
  const top = join(dir, 'topol.top');
  const gro = join(dir, 'conf.gro');
  // includes resolve among the bundled force fields (data/md/ff), since none is next to the copy
  writeFileSync(top, (o.top ?? ((t) => t))(SALT_TOP));
  writeFileSync(gro, o.gro ?? SALT_GRO);
  return { dir, top, gro };
}

/** Worst |F_i + dE/dx_i| / max(1, |F_i|) by central differences (step h) over coordinates `idx`. */
async function fdWorst(x0: Float64Array, f: Float64Array, energy: (x: Float64Array) => Promise<number> | number, idx: number[], h: number): Promise<number> {
  let worst = 0;
  for (const i of idx) {
    const xp = Float64Array.from(x0);
    const xm = Float64Array.from(x0);
    xp[i]! += h;
    xm[i]! -= h;
    const fd = -((await energy(xp)) - (await energy(xm))) / (2 * h);
    worst = Math.max(worst, Math.abs(fd - f[i]!) / Math.max(1, Math.abs(f[i]!)));
  }
  return worst;
}

describe('PME forces are minus the gradient of the PME energy (ionic water: 900 atoms, two ions, rc 0.9, spacing 0.12)', () => {
  const sys = ionicWater();
  // O and H of the cation, anion, waters near and far
  const idx = [0, 1, 2, 3, 4, 5, 9, 301, 602, 1500, 2000, 2699];

  it.each([4, 5])('exact-erfc pair sum (exclusion correction, self term) + mesh, order %i: to 1e-7', async (pmeOrder) => {
    const p = pmeSettings({ pmeOrder }, 0.9, sys.box, sys.q, ONE_4PI_EPS0);
    const s = { interaction: 'lj-ewald', comb: 'geom' as const, shift: true, rc: 0.9, ewaldBeta: p.beta };
    const mesh = { beta: p.beta, grid: p.grid, order: p.order };
    const total = (x: Float64Array, f?: Float64Array): number => {
      const r = reference({ ...sys, x }, s);
      const m = pmeReciprocal(x, sys.q, sys.box, mesh, f ? r.f : undefined);
      if (f) f.set(r.f);
      return r.vdw + r.coul + m.energy;
    };
    const f = new Float64Array(sys.x.length);
    total(sys.x, f);
    const worst = await fdWorst(sys.x, f, total, idx, 1e-5);
    console.log(`reference + mesh, order ${pmeOrder}: worst |F + dE/dx| / |F| ${worst.toExponential(2)}`);
    expect(worst).toBeLessThan(1e-7);
  }, 30_000);

  it('the generated kernels + mesh (what run md integrates): tabulated forces equal the reference + mesh forces; analytical ones are -dE/dx to 1e-4', async () => {
    const o = { coulomb: 'pme' as const, rc: 0.9 };
    const tab = await evaluateEnergies(sys, 'geom', { ...o, ewald: 'tabulated' });
    // the reference + mesh forces, whose gradient test is above
    const r = reference(sys, { interaction: 'lj-ewald', comb: 'geom', shift: true, rc: 0.9, ewaldBeta: tab.pme!.beta });
    pmeReciprocal(sys.x, sys.q, sys.box, { beta: tab.pme!.beta, grid: tab.pme!.grid, order: tab.pme!.order }, r.f);
    let num = 0;
    let den = 0;
    for (let i = 0; i < r.f.length; i++) {
      num += (tab.f[i]! - r.f[i]!) ** 2;
      den += r.f[i]! ** 2;
    }
    // (a finite difference of the tabulated energy sees its piecewise-linear table, 1/20000 nm a step)
    const an = await evaluateEnergies(sys, 'geom', { ...o, ewald: 'analytical' });
    const worst = await fdWorst(sys.x, an.f, async (x) => (await evaluateEnergies({ ...sys, x }, 'geom', { ...o, ewald: 'analytical' })).terms.at(-1)![1], idx.slice(0, 8), 1e-5);
    console.log(`kernels + mesh: tabulated forces vs reference + mesh ${Math.sqrt(num / den).toExponential(2)} RMS relative; analytical worst |F + dE/dx| / |F| ${worst.toExponential(2)} (its rational erfc's force and energy fits differ)`);
    expect(Math.sqrt(num / den)).toBeLessThan(1e-8);
    expect(worst).toBeLessThan(1e-4);
  }, 60_000);
});

describe('the .top subset', () => {
  it('reads the bundled salt water: OPLS-AA types from data/md/ff, SETTLE water, Na+ and Cl-, neutral', () => {
    const top = readTop(BUNDLED_SALT_WATER.top);
    expect(top.defaults).toEqual({ nbfunc: 1, combRule: 3, genPairs: true, fudgeLJ: 0.5, fudgeQQ: 0.5 });
    expect(top.molecules.map((m) => [m.name, m.count])).toEqual([['SOL', 2956], ['NA', 8], ['CL', 8]]);
    const t = systemFromTop(top, readGro(SALT_GRO, 'conf.gro'), 'conf.gro');
    expect(t.comb).toBe('geom');
    expect(t.settle).toEqual({ doh: 0.1, dhh: 0.1633 });
    expect(t.waters.length).toBe(3 * 2956);
    expect(Math.abs(t.netCharge)).toBeLessThan(1e-9);
    const na = 3 * 2956;
    expect([t.sys.q[na], t.mass[na], t.sys.ljTypes[t.sys.type[na]!]]).toEqual([1, 22.98977, { sigma: 0.333045, epsilon: 0.011598 }]);
    expect([t.sys.q[na + 8], t.mass[na + 8], t.sys.ljTypes[t.sys.type[na + 8]!]]).toEqual([-1, 35.453, { sigma: 0.441724, epsilon: 0.492833 }]);
    expect(Array.from(t.sys.exclusions[0]!)).toEqual([1, 2]);
    expect(t.sys.exclusions[na]!.length).toBe(0);
  });

  it.each([
    ['an unknown molecule type', (t: string) => t.replace(/^CL(\s+)8$/m, 'K$18'), /topol\.top:14: unknown molecule type K in \[ molecules \] \(known: SOL, NA, CL\)/],
    ['an unknown atom type', (t: string) => t.replace('[ system ]', '[ moleculetype ]\nXX 1\n[ atoms ]\n1 opls_999 1 XX XX 1 0 1\n\n[ system ]'), /topol\.top:10: unknown atom type opls_999 in molecule XX/],
    ['a missing include', (t: string) => t.replace('oplsaa.ff/ions.itp', 'amber99.ff/ions.itp'), /topol\.top:5: #include "amber99\.ff\/ions\.itp": not found/],
    ['a bonded molecule', (t: string) => t.replace('[ system ]', '[ moleculetype ]\nXX 1\n[ atoms ]\n1 opls_116 1 XX O 1 0 1\n2 opls_117 1 XX H 1 0 1\n[ bonds ]\n1 2 1 0.1 1000\n[ system ]'), /topol\.top:13: \[ bonds \] in molecule XX is not supported/],
  ])('refuses %s with file:line', (_what, edit, message) => {
    const { top } = saltCase({ top: edit });
    expect(() => readTop(top)).toThrow(TopError);
    expect(() => readTop(top)).toThrow(message);
  });
});

describe('PME settings', () => {
  const box: [number, number, number] = [4.5, 4.5, 4.5];
  const q = new Float64Array([1, -1]);
  it('takes GROMACS defaults: spacing 0.12 -> 40^3 on 4.5 nm, order 4, beta 3.12341 for rc 1.0 and ewald-rtol 1e-5', () => {
    const p = pmeSettings({}, 1.0, box, q, ONE_4PI_EPS0);
    expect(p.grid).toEqual([40, 40, 40]);
    expect(p.order).toBe(4);
    expect(p.beta).toBeCloseTo(3.12341, 5);
    // the largest spacing allowed for these parameters (the coarse-grid rule)
    expect(Math.PI / ewaldKmax(p.beta, 1e-5)).toBeCloseTo(0.1482, 4);
  });
  it.each([
    ['a grid too coarse for ewald-rtol', { fourierSpacing: 0.2 }, /--fourier-spacing 0\.2: the grid 24x24x24 \(spacing 0\.1875 nm along x\) is too coarse for --ewald-rtol 0\.00001.*allowed: a spacing up to 0\.1482 nm/],
    ['order 2', { pmeOrder: 2 }, /--pme-order 2: out of range \(allowed: an integer 3 to 12/],
    ['order 13', { pmeOrder: 13 }, /--pme-order 13: out of range/],
    ['a net charge without the correction', {}, /net charge of 1\.0000 e: PME needs a neutral system or the uniform-background correction/],
  ])('refuses %s', (_what, o, message) => {
    expect(() => pmeSettings(o, 1.0, box, _what.startsWith('a net') ? new Float64Array([1, 0]) : q, ONE_4PI_EPS0)).toThrow(message);
  });
  it('accepts a net charge with the correction; a looser ewald-rtol allows a coarser grid', () => {
    expect(pmeSettings({ netChargeCorrection: true }, 1.0, box, new Float64Array([1, 0]), ONE_4PI_EPS0).netChargeCorrection).toBe(true);
    expect(pmeSettings({ fourierSpacing: 0.16, ewaldRtol: 1e-4 }, 1.0, box, q, ONE_4PI_EPS0).grid).toEqual([32, 32, 32]);
  });
});

describe('kernforge run md --rerun and --coulomb pme from the command line', () => {
  let rerunOut = '';
  beforeAll(() => {
    // salt-water: the bundled box and its topology
    const r = cli('--rerun', 'salt-water', '--coulomb', 'pme');
    expect(r.status, r.stderr).toBe(0);
    rerunOut = r.stdout;
  }, 60_000);

  it('prints the terms GROMACS prints, in its order, and the potential is their sum', () => {
    expect(rerunOut).toMatch(/ {8}LJ \(SR\) {3}Coulomb \(SR\) {3}Coul\. recip\. {6}Potential\n {4}2\.71694e\+04 {3}-1\.70588e\+05 {4}7\.38361e\+02 {3}-1\.42681e\+05/);
    const v = Object.fromEntries([...rerunOut.matchAll(/^(LJ \(SR\)|Coulomb \(SR\)|Coul\. recip\.|Potential) +(-?[\d.]+) kJ\/mol$/gm)].map((m) => [m[1], Number(m[2])]));
    expect(Object.keys(v)).toEqual(['LJ (SR)', 'Coulomb (SR)', 'Coul. recip.', 'Potential']);
    expect(v.Potential).toBeCloseTo(v['LJ (SR)']! + v['Coulomb (SR)']! + v['Coul. recip.']!, 5);
  });

  const bad: [string, () => { args: string[]; dir: string }, RegExp][] = [
    ['a grid too coarse for the accuracy', () => ({ ...saltCase(), args: ['--fourier-spacing', '0.25'] }), /--fourier-spacing 0\.25: the grid .* is too coarse for --ewald-rtol/],
    ['an order out of range', () => ({ ...saltCase(), args: ['--pme-order', '14'] }), /--pme-order 14: out of range \(allowed: an integer 3 to 12/],
    ['an unknown molecule type', () => ({ ...saltCase({ top: (t) => t.replace(/^NA(\s+)8$/m, 'SOD$18') }), args: [] }), /topol\.top:13: unknown molecule type SOD/],
    [
      'a net charge without a correction',
      () => {
        // the salt water without its last chloride: +1 e
        const frame = readGro(SALT_GRO, 'conf.gro');
        const n = frame.atoms.length - 1;
        const gro = writeGro({ ...frame, atoms: frame.atoms.slice(0, n), x: frame.x.slice(0, 3 * n), v: frame.v?.slice(0, 3 * n) }, { precision: 3 });
        return { ...saltCase({ top: (t) => t.replace(/^CL(\s+)8$/m, 'CL$17'), gro }), args: [] };
      },
      /net charge of 1\.0000 e: PME needs a neutral system or the uniform-background correction \(allowed: add counter-ions, or --net-charge-correction/,
    ],
  ];
  it.each(bad)('refuses %s: one line, exit status 2, nothing written (rerun and run)', (_what, make, message) => {
    const { args, dir } = make();
    const top = join(dir, 'topol.top');
    const gro = join(dir, 'conf.gro');
    const rr = cli('--rerun', gro, '--top', top, '--coulomb', 'pme', ...args);
    expect(rr.status, rr.stderr + rr.stdout).toBe(2);
    expect(rr.stderr).toMatch(message);
    expect(rr.stderr.trim().split('\n')).toHaveLength(1);
    const before = readdirSync(dir).sort();
    const run = cli('--gro', gro, '--top', top, '--coulomb', 'pme', '--steps', '2', '-c', join(dir, 'out.gro'), '--traj', join(dir, 'traj.gro'), '--state-out', join(dir, 'state.json'), ...args);
    expect(run.status, run.stderr).toBe(2);
    expect(run.stderr).toMatch(message);
    expect(run.stderr).not.toMatch(/\n\s+at /);
    expect(readdirSync(dir).sort()).toEqual(before);
    expect(existsSync(join(dir, 'out.gro'))).toBe(false);
  }, 60_000);
});

describe('PME in f32 (GROMACS mixed precision) with nothing tuned', () => {
  it('takes the WebAssembly f32x4 tabulated 4x4 kernel and the f32 wasm mesh where SIMD runs; step-0 energies agree with the f64 TypeScript default', async () => {
    const { prepareRun } = await import('../../runtime/md/setup.ts');
    const { MdEngine } = await import('../../runtime/md/engine.ts');
    const { backend } = await import('../../runtime/backends/registry.ts');
    const step0 = async (precision: 'f32' | 'f64') => {
      const p = await prepareRun({ system: 'water', gro: 'salt-water', coulomb: 'pme', precision, tuned: false, nstcalcenergy: 1 });
      const eng = await MdEngine.create(p.run);
      try {
        const rows: { vdw: number; coul: number; recip: number }[] = [];
        eng.simulate(0, { onThermo: (r) => rows.push(r) });
        return { key: p.run.keyF, mesh: p.run.longRange!.description, row: rows[0]! };
      } finally {
        await eng.close();
      }
    };
    const f32 = await step0('f32');
    const f64 = await step0('f64');
    const simd = (await backend('wasm').available()).ok;
    expect(f32.key).toBe(simd ? 'md-nonbonded.wasm.lj-ewald.geom.shift.f32.f.tabulated.4x4.mask.mask.simd128' : 'md-nonbonded.ts.lj-ewald.geom.shift.f32.f.tabulated.4x4.mask.mask');
    expect(f64.key).toBe('md-nonbonded.ts.lj-ewald.geom.shift.f64.f.tabulated.4x4.mask.mask');
    // f32 kernels: Coulomb (SR) is a sum of ~1e7 pair terms near -1.7e5 kJ/mol
    expect(Math.abs(f32.row.coul - f64.row.coul) / Math.abs(f64.row.coul)).toBeLessThan(1e-5);
    expect(Math.abs(f32.row.vdw - f64.row.vdw) / Math.abs(f64.row.vdw)).toBeLessThan(1e-5);
    // the mesh: f32 wasm (f32x4 z runs) in the f32 run where SIMD runs, f64 in the f64 run
    expect(f32.mesh).toContain(simd ? 'mesh pme-mesh.wasm.order4.f32.full.tile0' : 'mesh pme-mesh.ts.order4.f64.full.tile0');
    expect(f64.mesh).toMatch(/mesh pme-mesh\.\w+\.order4\.f64\./);
    const recipErr = Math.abs(f32.row.recip - f64.row.recip) / Math.abs(f64.row.recip);
    expect(recipErr).toBeLessThan(2e-5); // the pme-mesh gate's f32 energy bar
    if (simd) expect(recipErr).toBeGreaterThan(1e-12); // really an f32 grid
  }, 60_000);
});
