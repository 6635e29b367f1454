// The MD loop: velocity Verlet or leap-frog, optional rigid-water constraints and thermostat,
// non-bonded forces from generated kernels with the pair list rebuilt every nstlist steps,
// thermodynamic output, trajectory frames, timers, and a blow-up guard that keeps the last good
// frame: forces and positions every step, and the sanity checks of runtime/md/sanity.ts (how far
// atoms move between pair searches, jumps of the conserved energy and the temperature between
// thermo samples). Positions are kept unwrapped (molecules stay whole); the pair search wraps
// internally. On one thread the update (kick + drift), SETTLE and the checks' passes run in
// WebAssembly SIMD on a workspace in the module's memory (runtime/md/settle-simd.ts), the same
// numbers bit for bit as the TypeScript loops here, which run where it is missing.
import { NonbondedForce, type SearchOptions } from './forces.ts';
import type { MdSettings } from './interaction.ts';
import type { MdSystem } from './system.ts';
import { MdBlowUpError, MdInputError } from './errors.ts';
import { RunChecks, type MdSanity } from './sanity.ts';
import type { LongRangeForce } from './pme.ts';
import type { SettleJob, SettleSplit } from './settle.ts';
import { UpdateWorkspace } from './settle-simd.ts';

/** kB in kJ mol^-1 K^-1 (GROMACS units); LJ units use 1. */
export const KB_GROMACS = 0.0083144626;
/** 1 kJ mol^-1 nm^-3 in bar. */
export const PRESSURE_BAR = 16.6054;

/** Rigid-body constraints (SETTLE) as the engine calls them. */
export interface Constraints {
  /** `split`: run it over the non-bonded worker threads (runtime/parallel/md.ts), when the arrays are in shared memory. */
  positions(xOld: Float64Array, xNew: Float64Array, v?: Float64Array, invdt?: number, virial?: Float64Array, split?: SettleSplit): void;
  /** The job a positions() call with these arguments hands a SettleSplit (SETTLE: Settle.job); without it the update is not split over threads. */
  job?(xOld: Float64Array, xNew: Float64Array, v: Float64Array | undefined, invdt: number | undefined, virial: boolean): SettleJob;
  velocities(x: Float64Array, v: Float64Array, virial?: Float64Array): void;
  /** Degrees of freedom removed. */
  removedDof: number;
}

export interface Thermostat {
  /** Velocity scaling factor given the current kinetic energy and degrees of freedom. */
  factor(kinetic: number, ndof: number, dt: number): number;
}

export interface ThermoRow {
  step: number;
  time: number;
  /** Temperature (K, or LJ units). */
  T: number;
  vdw: number;
  /** Coulomb (SR): the short-range kernels' electrostatics with the self and exclusion terms. */
  coul: number;
  /** Coul. recip. (PME's mesh part with the net-charge term); 0 without a long-range part. */
  recip: number;
  epot: number;
  ekin: number;
  etot: number;
  /** Total energy minus the energy the thermostat took out (conserved with v-rescale). */
  conserved: number;
  /** Pressure (bar, or LJ units). */
  P: number;
  /** Total momentum magnitude. */
  momentum: number;
}

export interface MdRun {
  topology: MdSystem;
  mass: Float64Array;
  x: Float64Array;
  v: Float64Array;
  units: 'lj' | 'gromacs';
  settings: MdSettings;
  rlist: number;
  nstlist: number;
  dt: number;
  integrator: 'vv' | 'leapfrog';
  keyF: string;
  keyE: string;
  constraints?: Constraints;
  thermostat?: Thermostat;
  search?: SearchOptions;
  /** Energies/thermo every this many steps (0: only first and last). */
  nstcalcenergy: number;
  /** Starting step number and time (continuing a run). */
  step0?: number;
  /** Thermostat energy removed so far (continuing a run). */
  thermostatEnergy?: number;
  /** Largest force component allowed before the run is declared blown up. */
  maxForce?: number;
  /** The long-range electrostatics (PME's mesh), added to the forces after the short-range kernels every step. */
  longRange?: LongRangeForce;
  /** Threads for the non-bonded kernels (default 1). Call MdEngine.close() when done. */
  threads?: number;
  /** With threads: the same numbers run after run (NonbondedForce.create `reproducible`). */
  reproducible?: boolean;
  /**
   * With threads: SETTLE on positions over them too (issue 16; runtime/parallel/md.ts). Off by
   * default: on the shared 2-core host under load (2026-11-24) each extra hand-over to a worker
   * cost a descheduled worker's time slice (integration 0.9 -> 7 ms/step on 2 threads).
   */
  settleOnThreads?: boolean;
  /**
   * The run-time sanity checks (runtime/md/sanity.ts RunChecks): on by default, with these
   * options; false turns them off (the force and position guard stays).
   */
  sanity?: MdSanity | false;
}

export interface MdCallbacks {
  onThermo?(row: ThermoRow): void;
  /** Called every step after the update; return true to write a frame (the engine passes copies-on-demand). */
  onStep?(step: number, x: Float64Array, v: Float64Array): void;
}

export interface MdTimers {
  search: number;
  kernel: number;
  /** The long-range part (PME mesh: spread, FFTs, solve, gather). */
  mesh: number;
  integrate: number;
  output: number;
  total: number;
}

export interface MdOutcome {
  steps: number;
  thermo: ThermoRow[];
  timers: MdTimers;
  nonbonded: NonbondedForce;
  x: Float64Array;
  v: Float64Array;
  step: number;
  thermostatEnergy: number;
  pairSearches: number;
}

/** Blown-up state: the last frame that passed the guard, kept for the user. */
export class MdBlowUp extends MdBlowUpError {
  constructor(
    message: string,
    readonly lastGood: { step: number; x: Float64Array; v: Float64Array },
  ) {
    super(message);
  }
}

export class MdEngine {
  readonly kB: number;
  readonly ndof: number;
  private readonly f: Float64Array;
  private readonly invMass: Float64Array;
  thermostatEnergy: number;

  private constructor(
    readonly run: MdRun,
    readonly nb: NonbondedForce,
  ) {
    const n = run.mass.length;
    this.kB = run.units === 'lj' ? 1 : KB_GROMACS;
    this.ndof = 3 * n - 3 - (run.constraints?.removedDof ?? 0);
    this.f = new Float64Array(3 * n);
    this.invMass = run.mass.map((m) => 1 / m);
    this.thermostatEnergy = run.thermostatEnergy ?? 0;
  }

  static async create(run: MdRun): Promise<MdEngine> {
    const n = run.mass.length;
    if (run.x.length !== 3 * n || run.v.length !== 3 * n) throw new MdInputError(`positions/velocities for ${run.x.length / 3}/${run.v.length / 3} atoms, masses for ${n}`);
    for (let i = 0; i < 3 * n; i++) {
      if (!Number.isFinite(run.x[i]!) || !Number.isFinite(run.v[i]!)) throw new MdInputError(`atom ${Math.floor(i / 3) + 1}: position or velocity is not finite`);
    }
    const half = Math.min(...run.topology.box) / 2;
    if (!(run.rlist < half)) {
      throw new MdInputError(`the list cut-off (cut-off + buffer = ${run.rlist.toFixed(4)}) must be shorter than half the smallest box edge (${half.toFixed(4)}); use a larger system or a shorter cut-off`);
    }
    if (!(run.dt > 0) || !(run.nstlist >= 1)) throw new MdInputError(`dt must be > 0 and nstlist >= 1 (got ${run.dt}, ${run.nstlist})`);
    const nb = await NonbondedForce.create({ topology: run.topology, settings: run.settings, rlist: run.rlist, keyF: run.keyF, keyE: run.keyE, search: run.search, threads: run.threads, reproducible: run.reproducible });
    // On threads, the long-range part runs on a worker beside the kernels (where it can).
    if (run.longRange && nb.threads > 1) await nb.overlapLongRange(run.longRange);
    return new MdEngine(run, nb);
  }

  /** End the non-bonded worker threads (if any). The engine cannot simulate afterwards. */
  async close(): Promise<void> {
    await this.nb.close();
  }

  private kinetic(v: Float64Array): number {
    const m = this.run.mass;
    let s = 0;
    for (let a = 0; a < m.length; a++) s += m[a]! * (v[3 * a]! * v[3 * a]! + v[3 * a + 1]! * v[3 * a + 1]! + v[3 * a + 2]! * v[3 * a + 2]!);
    return 0.5 * s;
  }

  private momentum(v: Float64Array): number {
    const m = this.run.mass;
    const p = [0, 0, 0];
    for (let a = 0; a < m.length; a++) for (let d = 0; d < 3; d++) p[d]! += m[a]! * v[3 * a + d]!;
    return Math.hypot(p[0]!, p[1]!, p[2]!);
  }

  /** `xFinite`: the positions are known to be finite (the displacement check measured them): only the forces are looked at. */
  private guard(step: number, x: Float64Array, f: Float64Array, lastGood: { step: number; x: Float64Array; v: Float64Array }, xFinite = false, ws?: UpdateWorkspace, sumSq?: number): void {
    const fmax = this.run.maxForce ?? (this.run.units === 'lj' ? 1e6 : 1e7);
    // Where the displacement check saw finite positions, the forces alone (the sum of their
    // squares first: as the threads summed the forces (sumSq), or in the workspace's module
    // where there is one; see forcesWithin).
    if (xFinite && ws ? (sumSq ?? ws.sumSqForces()) <= 0.5 * fmax * fmax || largestWithin(f, fmax) : xFinite ? forcesWithin(f, fmax) : quickCheck(f, x, fmax)) return;
    for (let i = 0; i < f.length; i++) {
      const fi = f[i]!;
      if (!(Math.abs(fi) <= fmax) || !Number.isFinite(x[i]!)) {
        const atom = Math.floor(i / 3) + 1;
        const what = Number.isFinite(x[i]!) ? `force ${fi.toExponential(3)} on atom ${atom} exceeds ${fmax.toExponential(0)}` : `atom ${atom} has a non-finite position`;
        throw new MdBlowUp(`step ${step}: ${what}; the system blew up (time step too long, overlapping atoms, or a wrong input)`, lastGood);
      }
    }
  }

  private thermo(step: number, v: Float64Array, ekin: number, e: { vdw: number; coul: number; recip: number; virial: Float64Array }, cvir: Float64Array): ThermoRow {
    const box = this.run.topology.box;
    const V = box[0] * box[1] * box[2];
    const epot = e.vdw + e.coul + e.recip;
    const trXi = e.virial[0]! + e.virial[4]! + e.virial[8]! + cvir[0]! + cvir[4]! + cvir[8]!;
    const p = ((2 / (3 * V)) * (ekin - trXi)) * (this.run.units === 'lj' ? 1 : PRESSURE_BAR);
    return {
      step,
      time: step * this.run.dt,
      T: (2 * ekin) / (this.ndof * this.kB),
      vdw: e.vdw,
      coul: e.coul,
      recip: e.recip,
      epot,
      ekin,
      etot: epot + ekin,
      conserved: epot + ekin + this.thermostatEnergy,
      P: p,
      momentum: this.momentum(v),
    };
  }

  /** Run nsteps steps from the current state (x, v are updated in place). */
  simulate(nsteps: number, cb: MdCallbacks = {}): MdOutcome {
    const { run, nb } = this;
    // SETTLE on the worker threads too (issue 16, when asked): the run works on copies of x and v
    // in shared memory, copied back at the end (also when it fails).
    const split = run.constraints && run.settleOnThreads ? nb.settleSplit : undefined;
    if (!split) {
      // The kick + drift and SETTLE in WebAssembly SIMD (runtime/md/settle-simd.ts) where it
      // runs: the run works on copies of x and v in the module's memory, copied back at the end
      // (also when it fails).
      // On worker threads, a shared one: they run ranges of the update on it (MdWorkers.update).
      const ws = UpdateWorkspace.take(run.mass.length, nb.threads > 1);
      if (!ws) return this.steps(nsteps, cb, run.x, run.v, undefined);
      try {
        ws.x.set(run.x);
        ws.v.set(run.v);
        // Velocity Verlet's second half kick by the threads that sum the forces, where they do
        // (not with a long-range part: its forces are added after the sums).
        if (run.integrator === 'vv' && ws.shared && !run.longRange) nb.kickInSums({ v: ws.v, h: ws.h3 });
        return { ...this.steps(nsteps, cb, ws.x, ws.v, undefined, ws), x: run.x, v: run.v };
      } finally {
        nb.kickInSums(undefined);
        run.x.set(ws.x);
        run.v.set(ws.v);
        ws.release();
      }
    }
    const xs = sharedCopy(run.x);
    const vs = sharedCopy(run.v);
    try {
      return { ...this.steps(nsteps, cb, xs, vs, split), x: run.x, v: run.v };
    } finally {
      run.x.set(xs);
      run.v.set(vs);
    }
  }

  private steps(nsteps: number, cb: MdCallbacks, x: Float64Array, v: Float64Array, split: SettleSplit | undefined, ws?: UpdateWorkspace): MdOutcome {
    const { run, nb, invMass } = this;
    // With the workspace, the forces, old positions and dt/2m per coordinate live there too.
    const f = ws ? ws.f : this.f;
    const { dt, nstlist } = run;
    const n = run.mass.length;
    const step0 = run.step0 ?? 0;
    const nste = run.nstcalcenergy;
    const timers: MdTimers = { search: 0, kernel: 0, mesh: 0, integrate: 0, output: 0, total: 0 };
    const lr = run.longRange;
    /** Short-range forces and energies, then the long-range part added (its energy and virial too). */
    const forces = (xs: Float64Array, energies: boolean, kick = true): { vdw: number; coul: number; recip: number; virial: Float64Array } | null => {
      const sr = nb.compute(xs, f, energies, kick);
      // With the long-range part on a worker thread (beside the kernels), it came with sr.
      const l = nb.longRangeOnThreads ? sr?.longRange : lr?.compute(xs, f, energies);
      if (!sr) return null;
      if (!l) return { ...sr, recip: 0 };
      const virial = Float64Array.from(sr.virial, (w, k) => w + l.virial[k]!);
      return { vdw: sr.vdw, coul: sr.coul, recip: l.recip, virial };
    };
    const thermoRows: ThermoRow[] = [];
    const tStart = performance.now();
    const xOld = ws ? ws.xOld : split ? sharedCopy(new Float64Array(3 * n)) : new Float64Array(3 * n);
    // dt / (2 m) per atom.
    const halfDtIm = invMass.map((im) => 0.5 * dt * im);
    if (ws) for (let i = 0; i < 3 * n; i++) ws.h3[i] = halfDtIm[Math.floor(i / 3)]!;
    /** engine.ts kickDrift, on the workspace where there is one. */
    const update = (lambda: number, scale: number, measure = false, twice = false): void => {
      if (ws) ws.kickDrift(lambda, scale, dt, run.constraints !== undefined, measure, twice);
      else kickDrift(v, x, run.constraints ? xOld : undefined, halfDtIm, f, lambda, scale, dt);
    };
    // The kick and drift (and SETTLE, the displacement check) split over the worker threads, on a shared workspace (MdWorkers.update).
    const updateSplit = ws?.shared ? nb.updateSplit : undefined;
    /**
     * update(), then SETTLE on the new positions (the virial into `vir`, if given). `measure`:
     * the displacement check follows (a split update measures it on the threads).
     */
    const advance = (lambda: number, scale: number, vir: Float64Array | undefined, measure: boolean): void => {
      const c = run.constraints;
      const twice = kickLeft;
      kickLeft = false;
      if (updateSplit && !c) {
        // Without constraints: the kick and drift alone, each thread on the atoms whose forces it summed.
        if (updateSplit(ws!, lambda, scale, dt, false, undefined, measure, twice)) return;
      } else if (updateSplit) {
        const job = c?.job?.(xOld, x, v, 1 / dt, vir !== undefined);
        const parts = job && updateSplit(ws!, lambda, scale, dt, true, job, measure);
        if (parts) {
          c!.positions(xOld, x, v, 1 / dt, vir, () => parts);
          return;
        }
      }
      // Without constraints the displacement check's pass goes with the update's (the workspace's).
      update(lambda, scale, measure && !c, twice);
      c?.positions(xOld, x, v, 1 / dt, vir, split);
    };
    // Velocity Verlet without constraints or a thermostat, on the workspace: a step's second half
    // kick may be left to the next step's kick and drift, which then kicks twice in its pass
    // (v + h F, then + h F: the same numbers as two passes), on steps after which nothing reads v
    // (kickLeft: one is pending).
    const leaveKick = run.integrator === 'vv' && ws !== undefined && !run.constraints && !run.thermostat && !cb.onStep;
    let kickLeft = false;
    const cvir = new Float64Array(9);
    const lastGood = { step: step0, x: Float64Array.from(x), v: Float64Array.from(v) };
    const checks = run.sanity === false ? undefined : new RunChecks({ n, rlist: run.rlist, rc: run.settings.rc, nstlist, kB: this.kB, units: run.units, sanity: run.sanity, lists: ws });
    // The frame of the last thermo sample that passed the checks: what a failed sample falls back to.
    const sampleGood = { step: step0, x: Float64Array.from(x), v: Float64Array.from(v) };
    /** Report a thermo row, then check it against the previous one; `xs`, `vs`: the frame of its step. */
    const emit = (row: ThermoRow, xs: Float64Array, vs: Float64Array): void => {
      thermoRows.push(row);
      cb.onThermo?.(row);
      if (!checks) return;
      const bad = checks.sample(row);
      if (bad) throw new MdBlowUp(bad, sampleGood);
      sampleGood.step = row.step;
      sampleGood.x.set(xs);
      sampleGood.v.set(vs);
    };
    /** Whether step s's positions get the displacement check (not a search step). */
    const checked = (s: number): boolean => checks !== undefined && (s - step0) % nstlist !== 0;
    const isEnergyStep = (s: number): boolean => s === step0 || s === step0 + nsteps || (nste > 0 && s % nste === 0);

    // Forces at the start.
    nb.rebuild(x);
    checks?.listBuilt(step0, x);
    let e = forces(x, true)!;
    this.guard(step0, x, f, lastGood);
    // Leap-frog: v holds v(t - dt/2); thermo at t uses the average of the two half-step kinetic
    // energies. The half step's kinetic energy is summed only where it is used: for the
    // thermostat, and before an energy step.
    let ekinHalfOld = this.kinetic(v);
    if (run.integrator === 'vv') {
      emit(this.thermo(step0, v, this.kinetic(v), e, cvir), x, v);
    }
    for (let s = step0; s < step0 + nsteps; s++) {
      const t0 = performance.now();
      const next = s + 1;
      cvir.fill(0);
      if (run.integrator === 'vv') {
        // v(t + dt/2) = v(t) + dt/2 F(t)/m; x(t + dt) = x(t) + dt v(t + dt/2); constrain.
        // The positions' constraint virial is not used here: the thermo of vv takes the velocities' one.
        advance(1, 1, undefined, checked(next));
      } else {
        // Leap-frog: v(t + dt/2) = lambda (v(t - dt/2) + dt F(t)/m); x(t + dt) = x(t) + dt v(t + dt/2).
        let lambda = 1;
        if (run.thermostat) {
          lambda = run.thermostat.factor(ekinHalfOld, this.ndof, dt);
          this.thermostatEnergy += (1 - lambda * lambda) * ekinHalfOld;
        }
        // The constraint virial only where the thermo of step s reads it (as GROMACS computes the
        // virial on energy steps only).
        advance(lambda, 2, isEnergyStep(s) ? cvir : undefined, checked(next));
        const ekinHalf = run.thermostat || isEnergyStep(s) || isEnergyStep(next) ? this.kinetic(v) : NaN;
        if (isEnergyStep(s)) {
          // Thermo of step s: kinetic energy as the average of the half steps around it.
          const ekin = 0.5 * (ekinHalfOld + ekinHalf);
          // lastGood holds the frame of step s (kept at the end of the step before, an energy step).
          emit(this.thermo(s, v, ekin, e, cvir), lastGood.x, lastGood.v);
        }
        ekinHalfOld = ekinHalf;
      }
      const t1 = performance.now();
      timers.integrate += t1 - t0;
      // Whether the displacement check saw only finite positions (the guard then checks the forces alone).
      let xFinite = false;
      if ((next - step0) % nstlist === 0) {
        nb.rebuild(x);
        checks?.listBuilt(next, x);
      } else if (checks) {
        // The list of the last search is used once more: no atom may have moved too far since.
        const bad = checks.displacement(next, x);
        if (bad) throw new MdBlowUp(bad, lastGood);
        xFinite = checks.lastFinite;
      }
      const energies = isEnergyStep(next);
      // Not before a thermo sample, a search (lastGood keeps v there) or the run's end.
      const leave = leaveKick && !energies && (next - step0) % nstlist !== 0 && next < step0 + nsteps;
      const r = forces(x, energies, !leave);
      if (r) e = r;
      // The threads' sum of squares is of the short-range forces: not with a long-range part added after.
      this.guard(next, x, f, lastGood, xFinite, ws, lr ? undefined : nb.forcesSumSq);
      const t2 = performance.now();
      if (run.integrator === 'vv') {
        cvir.fill(0);
        // The threads that summed the forces may have kicked already (NonbondedForce.kickInSums).
        if (leave) kickLeft = true;
        else if (!nb.kicked) {
          if (ws) ws.kick();
          else kick(v, halfDtIm, f);
        }
        run.constraints?.velocities(x, v, cvir);
        if (run.thermostat) {
          const ek = this.kinetic(v);
          const lambda = run.thermostat.factor(ek, this.ndof, dt);
          for (let i = 0; i < 3 * n; i++) v[i]! *= lambda;
          this.thermostatEnergy += (1 - lambda * lambda) * ek;
        }
        if (energies) emit(this.thermo(next, v, this.kinetic(v), e, cvir), x, v);
      }
      const t3 = performance.now();
      timers.integrate += t3 - t2;
      if (energies || (next - step0) % nstlist === 0) {
        lastGood.step = next;
        lastGood.x.set(x);
        lastGood.v.set(v);
      }
      cb.onStep?.(next, x, v);
      timers.output += performance.now() - t3;
    }
    if (run.integrator === 'leapfrog') {
      // The last step's thermo needs v(t + dt/2) of one more half step: use the kick only (no drift).
      const ekin0 = ekinHalfOld;
      cvir.fill(0);
      let ekinNext: number;
      if (ws && run.constraints) {
        // On the workspace: the same kick and drift and SETTLE as a step, in place, then x and v
        // put back (x from the kept old positions).
        const vNow = Float64Array.from(v);
        update(1, 2);
        run.constraints.positions(xOld, x, v, 1 / dt, cvir);
        ekinNext = this.kinetic(v);
        x.set(xOld);
        v.set(vNow);
      } else {
        const vNext = Float64Array.from(v);
        for (let i = 0; i < 3 * n; i++) vNext[i]! += 2 * halfDtIm[Math.floor(i / 3)]! * f[i]!;
        if (run.constraints) {
          const xNext = Float64Array.from(x);
          for (let i = 0; i < 3 * n; i++) xNext[i]! += dt * vNext[i]!;
          run.constraints.positions(x, xNext, vNext, 1 / dt, cvir);
        }
        ekinNext = this.kinetic(vNext);
      }
      emit(this.thermo(step0 + nsteps, v, 0.5 * (ekin0 + ekinNext), e, cvir), lastGood.x, lastGood.v);
    }
    timers.search = nb.timers.search;
    timers.kernel = nb.timers.kernel;
    timers.mesh = lr?.timers.mesh ?? 0;
    timers.total = performance.now() - tStart;
    return { steps: nsteps, thermo: thermoRows, timers, nonbonded: nb, x, v, step: step0 + nsteps, thermostatEnergy: this.thermostatEnergy, pairSearches: nb.timers.searches };
  }
}

/** A copy of a in shared memory (other threads can work on it). */
function sharedCopy(a: Float64Array): Float64Array {
  const s = new Float64Array(new SharedArrayBuffer(a.byteLength));
  s.set(a);
  return s;
}

// The update loops live in small functions of their own: the optimizing compiler then compiles
// them as whole functions after a few calls, instead of on-stack replacement inside simulate().

/**
 * v = lambda v + (scale h) F; xOld = x (when given); x += dt v, in one pass over the atoms. h is
 * dt/(2m) per atom, so scale 1 is a half kick (velocity Verlet) and scale 2 a full one
 * (leap-frog). lambda 1 leaves out the product 1 v, which is v exactly.
 */
export function kickDrift(v: Float64Array, x: Float64Array, xOld: Float64Array | undefined, h: Float64Array, f: Float64Array, lambda: number, scale: number, dt: number): void {
  if (xOld) {
    if (lambda === 1) kickDriftKeep(v, x, xOld, h, f, scale, dt);
    else kickDriftScaleKeep(v, x, xOld, h, f, lambda, scale, dt);
    return;
  }
  if (lambda === 1) kickDriftPlain(v, x, h, f, scale, dt);
  else kickDriftScaleKeep(v, x, x, h, f, lambda, scale, dt);
}

function kickDriftKeep(v: Float64Array, x: Float64Array, xOld: Float64Array, h: Float64Array, f: Float64Array, scale: number, dt: number): void {
  for (let a = 0, i = 0, n = h.length; a < n; a++, i += 3) {
    const q = scale * h[a]!;
    const x0 = x[i]!, x1 = x[i + 1]!, x2 = x[i + 2]!;
    xOld[i] = x0; xOld[i + 1] = x1; xOld[i + 2] = x2;
    const v0 = v[i]! + q * f[i]!, v1 = v[i + 1]! + q * f[i + 1]!, v2 = v[i + 2]! + q * f[i + 2]!;
    v[i] = v0; v[i + 1] = v1; v[i + 2] = v2;
    x[i] = x0 + dt * v0; x[i + 1] = x1 + dt * v1; x[i + 2] = x2 + dt * v2;
  }
}

function kickDriftPlain(v: Float64Array, x: Float64Array, h: Float64Array, f: Float64Array, scale: number, dt: number): void {
  for (let a = 0, i = 0, n = h.length; a < n; a++, i += 3) {
    const q = scale * h[a]!;
    const v0 = v[i]! + q * f[i]!, v1 = v[i + 1]! + q * f[i + 1]!, v2 = v[i + 2]! + q * f[i + 2]!;
    v[i] = v0; v[i + 1] = v1; v[i + 2] = v2;
    x[i] = x[i]! + dt * v0; x[i + 1] = x[i + 1]! + dt * v1; x[i + 2] = x[i + 2]! + dt * v2;
  }
}

/** With a thermostat's lambda; xOld may be x itself (nothing kept). */
function kickDriftScaleKeep(v: Float64Array, x: Float64Array, xOld: Float64Array, h: Float64Array, f: Float64Array, lambda: number, scale: number, dt: number): void {
  for (let a = 0, i = 0, n = h.length; a < n; a++, i += 3) {
    const q = scale * h[a]!;
    const x0 = x[i]!, x1 = x[i + 1]!, x2 = x[i + 2]!;
    xOld[i] = x0; xOld[i + 1] = x1; xOld[i + 2] = x2;
    const v0 = lambda * v[i]! + q * f[i]!, v1 = lambda * v[i + 1]! + q * f[i + 1]!, v2 = lambda * v[i + 2]! + q * f[i + 2]!;
    v[i] = v0; v[i + 1] = v1; v[i + 2] = v2;
    x[i] = x0 + dt * v0; x[i + 1] = x1 + dt * v1; x[i + 2] = x2 + dt * v2;
  }
}

/** v += h F (a half kick), h per atom. */
export function kick(v: Float64Array, h: Float64Array, f: Float64Array): void {
  for (let a = 0, i = 0, n = h.length; a < n; a++, i += 3) {
    const q = h[a]!;
    v[i] = v[i]! + q * f[i]!;
    v[i + 1] = v[i + 1]! + q * f[i + 1]!;
    v[i + 2] = v[i + 2]! + q * f[i + 2]!;
  }
}

/**
 * Whether every |F| <= fmax and every x is finite, without branches: the largest |F| through
 * Math.max (which propagates NaN) and sums of x * 0 (NaN for a non-finite x), in two independent
 * chains so consecutive iterations do not wait on each other.
 */
function quickCheck(f: Float64Array, x: Float64Array, fmax: number): boolean {
  let w0 = 0;
  let w1 = 0;
  let p0 = 0;
  let p1 = 0;
  const n2 = f.length & ~1;
  for (let i = 0; i < n2; i += 2) {
    w0 = Math.max(w0, Math.abs(f[i]!));
    w1 = Math.max(w1, Math.abs(f[i + 1]!));
    p0 += x[i]! * 0;
    p1 += x[i + 1]! * 0;
  }
  for (let i = n2; i < f.length; i++) {
    w0 = Math.max(w0, Math.abs(f[i]!));
    p0 += x[i]! * 0;
  }
  return Math.max(w0, w1) <= fmax && p0 + p1 === 0;
}

/**
 * Whether every |F| <= fmax (quickCheck without the positions). First the sum of the squares in
 * four independent chains (half the time of the largest |F| through Math.max): at most fmax^2 / 2
 * means every component is within fmax; NaN, an infinity or a larger sum goes to the exact check.
 */
export function forcesWithin(f: Float64Array, fmax: number): boolean {
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  const n4 = f.length & ~3;
  for (let i = 0; i < n4; i += 4) {
    const a = f[i]!, b = f[i + 1]!, c = f[i + 2]!, d = f[i + 3]!;
    s0 += a * a;
    s1 += b * b;
    s2 += c * c;
    s3 += d * d;
  }
  for (let i = n4; i < f.length; i++) s0 += f[i]! * f[i]!;
  // Half of fmax^2: no rounding of a square near fmax^2 can pass a component just above fmax.
  if (s0 + s1 + s2 + s3 <= 0.5 * fmax * fmax) return true;
  return largestWithin(f, fmax);
}

/** Whether every |F| <= fmax, component by component. */
function largestWithin(f: Float64Array, fmax: number): boolean {
  let w0 = 0;
  let w1 = 0;
  const n2 = f.length & ~1;
  for (let i = 0; i < n2; i += 2) {
    w0 = Math.max(w0, Math.abs(f[i]!));
    w1 = Math.max(w1, Math.abs(f[i + 1]!));
  }
  for (let i = n2; i < f.length; i++) w0 = Math.max(w0, Math.abs(f[i]!));
  return Math.max(w0, w1) <= fmax;
}
