// kernforge's f64 RF kernel and f64 reference against GROMACS 2022 in double precision on an
// equilibrated SPC/E box (test/fixtures/gromacs/spce, made by make.sh there): LJ (SR),
// Coulomb (SR) and per-atom forces of a `gmx_d mdrun -rerun` of exactly the stored conf.gro.
//
// The one convention that differs is the electric conversion factor: kernforge uses
// f = 138.935458 (interaction.ts ONE_4PI_EPS0, the rounded pre-2019 GROMACS value); GROMACS
// 2022 computes it from the CODATA 2018 constants (units.h: c_one4PiEps0), 138.935457644...,
// 2.56e-9 lower. Every Coulomb term scales with f, so the Coulomb energy differs by exactly
// that ratio. With eps_rf = infinity, k_rf and c_rf do not depend on eps_r, so running with
// eps_r = 138.935458 / f_GROMACS gives GROMACS's f exactly; then everything agrees to f64
// rounding (energies) and to the 9 printed digits of the gmx dump forces.
import { describe, it, expect, beforeAll } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readGro } from '../../runtime/md/gro.ts';
import { waterSystemFromGro, type WaterTopology } from '../../runtime/md/topology.ts';
import { MdProblem } from '../../runtime/md/problem.ts';
import { runTs } from '../../runtime/md/kernels.ts';
import { reference, type MdResult } from '../../runtime/md/reference.ts';
import { ONE_4PI_EPS0, type MdSettings } from '../../runtime/md/interaction.ts';

const dir = join(import.meta.dirname, '../fixtures/gromacs/spce');
const KEY = 'md-nonbonded.ts.lj-rf.geom.shift.f64.fev.4x4.mask.mask';

/** GROMACS 2022 c_one4PiEps0 from CODATA 2018: e^2 N_A / (4 pi eps0), in kJ mol^-1 nm e^-2. */
const GMX_ONE_4PI_EPS0 = ((1.602176634e-19 ** 2 * 6.02214076e23) / (4 * Math.PI * 8.8541878128e-12)) * 1e9 * 1e-3;

interface Gmx {
  natoms: number;
  'LJ (SR)': number;
  'Coulomb (SR)': number;
  Potential: number;
  gmx_d: Record<string, string>;
}

const rel = (a: number, b: number): number => Math.abs(a - b) / Math.abs(b);

/** RMS of the force difference over the RMS force, and the worst component error in units of the printed rounding. */
function forceDiff(f: Float64Array, g: Float64Array): { rmsRel: number; worstUlps: number } {
  let num = 0;
  let den = 0;
  let worstUlps = 0;
  for (let i = 0; i < g.length; i++) {
    num += (f[i]! - g[i]!) ** 2;
    den += g[i]! ** 2;
    // %15.8e keeps 9 significant digits: the rounding is half a unit in the 9th digit.
    const half = g[i] === 0 ? 5e-300 : 0.5e-8 * 10 ** Math.floor(Math.log10(Math.abs(g[i]!)));
    worstUlps = Math.max(worstUlps, Math.abs(f[i]! - g[i]!) / half);
  }
  return { rmsRel: Math.sqrt(num / den), worstUlps };
}

describe('GROMACS 2022 double-precision rerun of SPC/E water (RF eps_rf = inf, rc 1.0, LJ shift)', () => {
  let gmx: Gmx;
  let gf: Float64Array;
  let top: WaterTopology;
  const settings: MdSettings = { interaction: 'lj-rf', comb: 'geom', shift: true, rc: 1.0, epsR: 1, epsRf: 0 };
  const gmxF: MdSettings = { ...settings, epsR: ONE_4PI_EPS0 / GMX_ONE_4PI_EPS0 };
  const results: Record<string, MdResult> = {};

  beforeAll(async () => {
    gmx = JSON.parse(readFileSync(join(dir, 'energies.json'), 'utf8')) as Gmx;
    gf = Float64Array.from(readFileSync(join(dir, 'forces.txt'), 'utf8').trim().split(/\s+/).map(Number));
    const frame = readGro(readFileSync(join(dir, 'conf.gro'), 'utf8'), 'conf.gro');
    top = waterSystemFromGro(frame, 'conf.gro');
    results.kernel = await runTs(KEY, new MdProblem(top.sys, settings, 4, 4));
    results.reference = reference(top.sys, settings);
    results.kernelGmxF = await runTs(KEY, new MdProblem(top.sys, gmxF, 4, 4));
    results.referenceGmxF = reference(top.sys, gmxF);
    const row = (k: string): string => {
      const r = results[k]!;
      const fd = forceDiff(r.f, gf);
      return `${k.padEnd(14)} LJ ${rel(r.vdw, gmx['LJ (SR)']).toExponential(2)}  Coul ${rel(r.coul, gmx['Coulomb (SR)']).toExponential(2)}  Pot ${rel(r.vdw + r.coul, gmx.Potential).toExponential(2)}  F rms ${fd.rmsRel.toExponential(2)}  F worst ${fd.worstUlps.toFixed(2)} x print rounding`;
    };
    console.log(`relative differences to ${gmx.gmx_d['GROMACS version']} (${gmx.gmx_d.Precision}), ${gmx.natoms} atoms:\n${Object.keys(results).map(row).join('\n')}`);
  }, 60_000);

  it('reads the stored configuration with all its decimals', () => {
    expect(top.sys.q.length).toBe(gmx.natoms);
    expect(gf.length).toBe(3 * gmx.natoms);
    expect(gmx.gmx_d.Precision).toBe('double');
    expect(gmx.Potential).toBeCloseTo(gmx['LJ (SR)'] + gmx['Coulomb (SR)'], 6);
  });

  it.each(['kernel', 'reference'])('%s: LJ (SR) and Coulomb (SR) within 1e-5 relative, forces within 1e-8 RMS relative', (k) => {
    const r = results[k]!;
    expect(rel(r.vdw, gmx['LJ (SR)'])).toBeLessThan(1e-12);
    expect(rel(r.coul, gmx['Coulomb (SR)'])).toBeLessThan(1e-5);
    // The whole Coulomb difference is the conversion factor (2.56e-9).
    expect(Math.abs(rel(r.coul, gmx['Coulomb (SR)']) - rel(ONE_4PI_EPS0, GMX_ONE_4PI_EPS0))).toBeLessThan(1e-12);
    expect(forceDiff(r.f, gf).rmsRel).toBeLessThan(1e-8);
  });

  it.each(['kernelGmxF', 'referenceGmxF'])('%s (GROMACS 2022 conversion factor): energies to 1e-12, forces to the printed digits', (k) => {
    const r = results[k]!;
    expect(rel(r.vdw, gmx['LJ (SR)'])).toBeLessThan(1e-12);
    expect(rel(r.coul, gmx['Coulomb (SR)'])).toBeLessThan(1e-12);
    expect(rel(r.vdw + r.coul, gmx.Potential)).toBeLessThan(1e-12);
    const fd = forceDiff(r.f, gf);
    expect(fd.rmsRel).toBeLessThan(3e-9);
    expect(fd.worstUlps).toBeLessThan(1.01);
  });
});
