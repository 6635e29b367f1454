// NVE molecular dynamics of SPC/E water with PME (run md --coulomb pme: the f64 tabulated lj-ewald
// kernel, runtime/pme's f64 mesh, SETTLE, leap-frog, dt 2 fs): the conserved energy's drift
// against what the Verlet buffer estimate (runtime/md/verletbuf.ts, seed 001's appendix, with
// the Ewald real-space derivatives) predicts for the list radius the run used, and the total
// momentum. PME does not conserve momentum exactly: the mesh's forces do not cancel pairwise
// (B-spline interpolation breaks translational invariance), so the system's momentum performs a
// small random walk; reaction field, a pair force, keeps it at rounding. Both are measured here.
import { describe, it, expect, beforeAll } from 'vitest';
import { join } from 'node:path';
import { runMdWorkload, type RunMdSummary } from '../../runtime/md/workload.ts';
import { estimateVerletBuffer, spceVerletTypes } from '../../runtime/md/verletbuf.ts';
import { KB_GROMACS } from '../../runtime/md/engine.ts';

const WATER = join(import.meta.dirname, '../fixtures/gromacs/spce/conf.gro');
const STEPS = 200;

describe('NVE SPC/E water with PME (884 molecules, rc 1.0, spacing 0.12, order 4, 0.4 ps)', () => {
  let pme: RunMdSummary;
  let rf: RunMdSummary;
  beforeAll(async () => {
    pme = await runMdWorkload({ system: 'water', gro: WATER, coulomb: 'pme', steps: STEPS, thermo: 5, tuned: false });
    rf = await runMdWorkload({ system: 'water', gro: WATER, coulomb: 'rf', steps: 20, thermo: 5, tuned: false });
  }, 120_000);

  it('drifts less than the Verlet buffer estimate predicts for its list radius', () => {
    const run = pme.prepared.run;
    const n = run.mass.length;
    const box = run.topology.box;
    const est = estimateVerletBuffer({
      types: spceVerletTypes(n / 3),
      volume: box[0] * box[1] * box[2],
      temperature: 300,
      kB: KB_GROMACS,
      dt: run.dt,
      nstlist: run.nstlist,
      rc: run.settings.rc,
      interaction: 'lj-ewald',
      beta: pme.prepared.pme!.beta,
      ljShift: true,
      tolerance: 0.005,
      cluster: [4, 4],
    });
    expect(run.rlist).toBeCloseTo(est.rlist, 10);
    const rows = pme.outcome.thermo;
    expect(rows).toHaveLength(STEPS / 5 + 1);
    const span = Math.max(...rows.map((r) => r.conserved)) - Math.min(...rows.map((r) => r.conserved));
    console.log(
      `PME NVE, ${n} atoms, rlist ${run.rlist.toFixed(3)} nm, nstlist ${run.nstlist}: drift ${pme.drift.toExponential(2)} kJ/mol/ps per atom ` +
        `(predicted at most ${est.driftAtRlist.toExponential(2)}), conserved energy range ${span.toFixed(2)} kJ/mol over ${(STEPS * run.dt).toFixed(2)} ps, ` +
        `Coul. recip. ${rows[0]!.recip.toFixed(2)} -> ${rows.at(-1)!.recip.toFixed(2)} kJ/mol`,
    );
    expect(rows.every((r) => r.recip > 0)).toBe(true);
    expect(Math.abs(pme.drift)).toBeLessThan(est.driftAtRlist);
  });

  it('momentum: PME lets it wander (measured), reaction field keeps it at rounding', () => {
    const run = pme.prepared.run;
    let M = 0;
    for (const m of run.mass) M += m;
    const p = pme.outcome.thermo.at(-1)!.momentum;
    const p0 = pme.outcome.thermo[0]!.momentum;
    // the thermal scale of the centre-of-mass velocity, sqrt(kB T / M)
    const vth = Math.sqrt((KB_GROMACS * 300) / M);
    const prf = rf.outcome.thermo.at(-1)!.momentum;
    console.log(
      `total momentum after ${STEPS} steps: PME ${p.toExponential(2)} amu nm/ps (first thermo row ${p0.toExponential(2)}; centre-of-mass velocity ${(p / M).toExponential(2)} nm/ps = ${((p / M / vth) * 100).toFixed(2)}% of sqrt(kB T / M)); reaction field after 20 steps ${prf.toExponential(2)}`,
    );
    // the run starts with the centre-of-mass motion removed; the first row (leap-frog, step 0) is half a step of mesh force later
    expect(p0).toBeLessThan(0.05 * p);
    expect(p).toBeGreaterThan(1e3 * prf);
    expect(p / M).toBeLessThan(0.05 * vth);
    expect(prf).toBeLessThan(1e-8);
  });
});
