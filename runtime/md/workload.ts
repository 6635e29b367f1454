// The MD workload (`kernforge run md`, the main job, a library call): molecular dynamics with the
// generated md-nonbonded kernels. The MiniMD LJ fluid (fcc, LJ units, NVE velocity Verlet) or
// SPC/E water from a .gro file (reaction field, SETTLE, leap-frog, optional thermostat). Thermo
// lines as it goes (with an ETA) and a summary with where the time went, through `log` (what
// `kernforge run md` prints; silent by default); optional trajectory, final configuration and a
// state file that continues the run exactly. Output files appear only when complete.
import { shortKey } from '../keys.ts';
import { checkOutputFile, openOutput, type OutputWriter } from '../output.ts';
import { prepareRun, type MdOptions, type MdState, type PreparedRun } from './setup.ts';
import { MdEngine, MdBlowUp, type ThermoRow, type MdOutcome } from './engine.ts';
import { writeGro, writeFileAtomic, type GroAtom } from './gro.ts';
import { MdInputError } from './errors.ts';

export interface RunMdOptions extends MdOptions {
  steps?: number;
  thermo?: number;
  traj?: string;
  trajEvery?: number;
  confout?: string;
  stateOut?: string;
  /** The report, line by line: the run's description, thermo lines, the summary (default: none). */
  log?: (line: string) => void;
}

/** What an MD run did: the prepared run, the engine's outcome, the energy drift and the speed. */
export interface RunMdSummary {
  /** The run as prepared from the options (system, settings, chosen variants, buffer). */
  prepared: PreparedRun;
  /** The engine's outcome: final positions and velocities, thermo rows, timers. */
  outcome: MdOutcome;
  /** Drift of the conserved energy per atom per time unit (linear fit over the thermo rows). */
  drift: number;
  /** MD steps per wall-clock second of the simulation. */
  stepsPerSecond: number;
}

/** Positions wrapped for output: whole water molecules by their oxygen, every other atom (ions, LJ) on its own. */
function wrapped(x: Float64Array, box: [number, number, number], molecules?: Int32Array): Float64Array {
  const w = Float64Array.from(x);
  const n = x.length / 3;
  const inWater = new Uint8Array(n);
  const groups: number[][] = molecules ? Array.from({ length: molecules.length / 3 }, (_, m) => [molecules[3 * m]!, molecules[3 * m + 1]!, molecules[3 * m + 2]!]) : [];
  for (const g of groups) for (const a of g) inWater[a] = 1;
  for (let a = 0; a < n; a++) if (!inWater[a]) groups.push([a]);
  for (const g of groups) {
    for (let d = 0; d < 3; d++) {
      const s = box[d]! * Math.floor(x[3 * g[0]! + d]! / box[d]!);
      for (const a of g) w[3 * a + d] = x[3 * a + d]! - s;
    }
  }
  return w;
}

function atomNames(p: PreparedRun): GroAtom[] {
  return p.names ?? Array.from({ length: p.run.mass.length }, (_, a) => ({ resnr: a + 1, resname: 'AR', name: 'AR' }));
}

function frameText(format: 'gro' | 'xyz', p: PreparedRun, step: number, x: Float64Array, v: Float64Array | undefined, precision = 3): string {
  const box = p.run.topology.box;
  const xw = wrapped(x, box, p.molecules);
  // GROMACS reads the time and step of a .gro frame from "t= ... step= ..." in its title.
  const title = `kernforge md${p.run.units === 'lj' ? ' (LJ units)' : ''} t= ${(step * p.run.dt).toFixed(5)} step= ${step}`;
  if (format === 'gro') return writeGro({ title, atoms: atomNames(p), x: xw, v, box }, { precision });
  const names = atomNames(p);
  const lines = [`${names.length}`, `${title} box ${box.join(' ')}`];
  for (let a = 0; a < names.length; a++) lines.push(`${names[a]!.name.padEnd(4)} ${xw[3 * a]!.toFixed(5)} ${xw[3 * a + 1]!.toFixed(5)} ${xw[3 * a + 2]!.toFixed(5)}`);
  return `${lines.join('\n')}\n`;
}

function trajFormat(path: string): 'gro' | 'xyz' {
  if (path.endsWith('.gro')) return 'gro';
  if (path.endsWith('.xyz')) return 'xyz';
  throw new MdInputError(`--traj ${path}: the trajectory must end in .gro or .xyz`);
}

function thermoHeader(units: 'lj' | 'gromacs', recip = false): string {
  if (recip) return `${'Step'.padStart(8)} ${'Time(ps)'.padStart(9)} ${'T(K)'.padStart(8)} ${'LJ(SR)'.padStart(12)} ${'Coul(SR)'.padStart(13)} ${'Coul.recip.'.padStart(12)} ${'Potential'.padStart(13)} ${'Total'.padStart(13)} ${'Conserved'.padStart(13)} ${'Pres(bar)'.padStart(10)} ${'ETA'.padStart(8)}`;
  return units === 'lj'
    ? `${'Step'.padStart(8)} ${'Temp'.padStart(12)} ${'E_pair/N'.padStart(12)} ${'TotEng/N'.padStart(12)} ${'Press'.padStart(12)} ${'|p|'.padStart(9)} ${'ETA'.padStart(8)}`
    : `${'Step'.padStart(8)} ${'Time(ps)'.padStart(9)} ${'T(K)'.padStart(8)} ${'LJ(SR)'.padStart(12)} ${'Coul(SR)'.padStart(13)} ${'Potential'.padStart(13)} ${'Total'.padStart(13)} ${'Conserved'.padStart(13)} ${'Pres(bar)'.padStart(10)} ${'ETA'.padStart(8)}`;
}

function thermoLine(units: 'lj' | 'gromacs', r: ThermoRow, n: number, eta: string, recip = false): string {
  if (recip) {
    return `${String(r.step).padStart(8)} ${r.time.toFixed(3).padStart(9)} ${r.T.toFixed(2).padStart(8)} ${r.vdw.toFixed(3).padStart(12)} ${r.coul.toFixed(3).padStart(13)} ${r.recip.toFixed(3).padStart(12)} ${r.epot.toFixed(3).padStart(13)} ${r.etot.toFixed(3).padStart(13)} ${r.conserved.toFixed(3).padStart(13)} ${r.P.toFixed(1).padStart(10)} ${eta.padStart(8)}`;
  }
  if (units === 'lj') {
    // MiniMD prints T, U per atom and P to 7 significant digits.
    return `${String(r.step).padStart(8)} ${r.T.toPrecision(7).padStart(12)} ${(r.epot / n).toPrecision(7).padStart(12)} ${(r.etot / n).toPrecision(7).padStart(12)} ${r.P.toPrecision(7).padStart(12)} ${r.momentum.toExponential(1).padStart(9)} ${eta.padStart(8)}`;
  }
  return `${String(r.step).padStart(8)} ${r.time.toFixed(3).padStart(9)} ${r.T.toFixed(2).padStart(8)} ${r.vdw.toFixed(3).padStart(12)} ${r.coul.toFixed(3).padStart(13)} ${r.epot.toFixed(3).padStart(13)} ${r.etot.toFixed(3).padStart(13)} ${r.conserved.toFixed(3).padStart(13)} ${r.P.toFixed(1).padStart(10)} ${eta.padStart(8)}`;
}

/** Least-squares slope of conserved energy per atom against time. */
export function driftPerAtom(rows: ThermoRow[], natoms: number): number {
  if (rows.length < 2) return 0;
  const t = rows.map((r) => r.time);
  const e = rows.map((r) => r.conserved / natoms);
  const tm = t.reduce((a, b) => a + b, 0) / t.length;
  const em = e.reduce((a, b) => a + b, 0) / e.length;
  let num = 0;
  let den = 0;
  for (let k = 0; k < t.length; k++) {
    num += (t[k]! - tm) * (e[k]! - em);
    den += (t[k]! - tm) ** 2;
  }
  return den > 0 ? num / den : 0;
}

function fmtEta(seconds: number): string {
  if (!Number.isFinite(seconds)) return '';
  if (seconds < 60) return `${seconds.toFixed(0)}s`;
  return `${Math.floor(seconds / 60)}m${String(Math.round(seconds % 60)).padStart(2, '0')}s`;
}

/** Run the workload; reports through `log` and returns the summary. Mistakes in the options are MdInputErrors (user errors). */
export async function runMdWorkload(o: RunMdOptions): Promise<RunMdSummary> {
  const log = o.log ?? (() => {});
  const steps = o.steps ?? 100;
  if (!Number.isInteger(steps) || steps < 0) throw new MdInputError(`--steps ${o.steps}: must be an integer >= 0`);
  const thermoEvery = o.thermo ?? undefined;
  if (thermoEvery !== undefined && !(Number.isInteger(thermoEvery) && thermoEvery >= 0)) throw new MdInputError(`--thermo ${thermoEvery}: must be an integer >= 0`);
  const fmt = o.traj ? trajFormat(o.traj) : undefined;
  const trajEvery = o.trajEvery ?? 100;
  if (!(Number.isInteger(trajEvery) && trajEvery >= 1)) throw new MdInputError(`--traj-every ${o.trajEvery}: must be a positive integer`);
  // the output policy (runtime/output.ts): the output paths are checked before the run, not after it
  if (o.traj) checkOutputFile(o.traj, '--traj');
  if (o.confout) checkOutputFile(o.confout, '-c');
  if (o.stateOut) checkOutputFile(o.stateOut, '--state-out');
  const p = await prepareRun({ ...o, nstcalcenergy: thermoEvery ?? o.nstcalcenergy });
  const run = p.run;
  const n = run.mass.length;
  log(p.description);
  log(
    `variant ${run.keyF} (energy steps: ${shortKey(run.keyE)}); ${run.integrator === 'vv' ? 'velocity Verlet' : 'leap-frog'}, dt ${run.dt}, ` +
      `rc ${run.settings.rc}, buffer ${p.rb.toFixed(4)} (${p.rbSource}), rlist ${run.rlist.toFixed(4)}, list every ${run.nstlist} steps${run.thermostat ? `, ${o.thermostat} thermostat` : ', NVE'}` +
      ((run.threads ?? 1) > 1 ? `; non-bonded kernels on ${run.threads} threads` : ''),
  );
  if (run.longRange) log(run.longRange.description);
  const engine = await MdEngine.create(run);
  if (engine.nb.longRangeOnThreads) log('the PME mesh runs on a worker thread beside the non-bonded kernels (its time is inside the kernel time)');
  try {
    return await simulateAndReport(o, p, engine, steps, fmt, trajEvery, log);
  } finally {
    // The worker threads (--threads > 1) end with the run, whatever happens.
    await engine.close();
  }
}

async function simulateAndReport(
  o: RunMdOptions,
  p: PreparedRun,
  engine: MdEngine,
  steps: number,
  fmt: 'gro' | 'xyz' | undefined,
  trajEvery: number,
  log: (line: string) => void,
): Promise<RunMdSummary> {
  const run = p.run;
  const n = run.mass.length;
  const units = run.units;
  const pme = run.longRange !== undefined;
  log(thermoHeader(units, pme));
  const t0 = performance.now();
  const start = run.step0 ?? 0;
  const onThermo = (r: ThermoRow) => {
    const done = r.step - start;
    const el = (performance.now() - t0) / 1000;
    const eta = done > 0 && done < steps ? fmtEta((el / done) * (steps - done)) : '';
    log(thermoLine(units, r, n, eta, pme));
  };
  // The trajectory goes to a temporary file (runtime/output.ts openOutput) that takes its name at
  // the end, or after a blow-up; a failed write removes it and ends the run as one OutputError.
  const trajFd: OutputWriter | undefined = o.traj ? openOutput(o.traj, '--traj') : undefined;
  const writeFrame = (step: number, x: Float64Array, v: Float64Array) => {
    if (trajFd !== undefined) trajFd.write(frameText(fmt!, p, step, x, fmt === 'gro' ? v : undefined));
  };
  let outcome: MdOutcome;
  try {
    if (trajFd !== undefined) writeFrame(start, run.x, run.v);
    outcome = engine.simulate(steps, {
      onThermo,
      onStep: (step, x, v) => {
        if (trajFd !== undefined && (step - start) % trajEvery === 0) writeFrame(step, x, v);
      },
    });
  } catch (e) {
    // After a blow-up every frame written passed the guard: keep them, under the name asked for.
    if (trajFd !== undefined) {
      if (e instanceof MdBlowUp) trajFd.commit();
      else trajFd.abort();
    }
    if (e instanceof MdBlowUp) {
      const path = o.confout ? o.confout.replace(/(\.gro)?$/, '.lastgood.gro') : 'md-lastgood.gro';
      writeFileAtomic(path, frameText('gro', p, e.lastGood.step, e.lastGood.x, e.lastGood.v, 6));
      e.message += `; last good frame (step ${e.lastGood.step}) written to ${path}`;
    }
    throw e;
  }
  trajFd?.commit();
  const seconds = (performance.now() - t0) / 1000;
  if (o.confout) writeFileAtomic(o.confout, frameText('gro', p, outcome.step, outcome.x, outcome.v, 6));
  if (o.stateOut) {
    const state: MdState = {
      format: 'kernforge-md-state',
      version: 1,
      system: run.units === 'lj' ? 'lj' : 'water',
      box: run.topology.box,
      step: outcome.step,
      dt: run.dt,
      thermostatEnergy: outcome.thermostatEnergy,
      names: p.names,
      x: Array.from(outcome.x),
      v: Array.from(outcome.v),
    };
    writeFileAtomic(o.stateOut, JSON.stringify(state));
  }
  const drift = driftPerAtom(outcome.thermo, n);
  const tm = outcome.timers;
  const list = outcome.nonbonded.list;
  const perStep = (ms: number) => (steps > 0 ? (ms / steps).toFixed(3) : '-');
  log('');
  log(`${steps} steps in ${seconds.toFixed(2)} s: ${(steps / seconds).toFixed(1)} steps/s, ${((steps * n) / seconds / 1e6).toFixed(2)} M atom-steps/s` + (units === 'gromacs' ? `, ${((steps * run.dt * 86400) / seconds / 1000).toFixed(3)} ns/day` : ''));
  log(
    `time per step (ms): pair search ${perStep(tm.search)} (${outcome.pairSearches} searches), non-bonded kernel ${perStep(tm.kernel)}${pme ? `, PME mesh ${perStep(tm.mesh)}` : ''}, integration${run.constraints ? ' + SETTLE' : ''} ${perStep(tm.integrate)}, output ${perStep(tm.output)}`,
  );
  log(`pair list: ${list.stats.clusterPairs} cluster pairs, ${list.stats.computedPairs} computed atom pairs (${(list.stats.computedPairs / n).toFixed(1)} per atom)`);
  if (outcome.thermo.length >= 2) {
    const last = outcome.thermo[outcome.thermo.length - 1]!;
    log(`conserved-energy drift ${drift.toExponential(3)} per atom per ${units === 'lj' ? 'tau' : 'ps'} (least squares over ${outcome.thermo.length} thermo samples); total momentum ${last.momentum.toExponential(2)}`);
  }
  const files = [o.traj && `trajectory ${o.traj}`, o.confout && `final frame ${o.confout}`, o.stateOut && `state ${o.stateOut} (continue with --continue)`].filter(Boolean);
  if (files.length) log(`wrote ${files.join(', ')}`);
  return { prepared: p, outcome, drift, stepsPerSecond: steps / seconds };
}
