// Physical sanity of an MD run (issue 13, "physics nonsense with exit 0"): the bound on the time
// step checked before a run, the validation of a state file that --continue reads (with the
// .gro reader's kind of message: file, field, what is allowed), and the checks the engine makes
// as it goes: how far atoms move between pair searches, and jumps of the conserved energy and
// the temperature between thermo samples. The bounds and the measurements behind them are in
// docs/safety-md.md.
//
// Time step. The LJ fluid (LJ units): MiniMD and LAMMPS run it at 0.005 tau; velocity Verlet on
// it blows up from about 0.028 sqrt(1.44 / T) tau (measured: 0.03 at T 1.44, 0.02 at T 3, 0.01 at
// T 10; the collision time falls as 1/sqrt(T)). The limit is the smaller of 0.01 tau (twice
// MiniMD's step; at 0.015 atoms already move further than the displacement check below allows
// with MiniMD's list, every 20 steps with a 0.3 buffer) and half the blow-up step,
// 0.014 sqrt(1.44 / T) (below 0.01 from T 2.8 on).
// Rigid SPC/E water with SETTLE: GROMACS runs it at 0.002 ps; its manual puts the limit near 0.004 ps even
// with the fastest motions removed (at least 5 steps per period of the fastest motion left), and
// this engine's water drifts 14 times the buffer's tolerance at 0.008 ps and heats to 660 K
// within 0.5 ps at 0.01 ps: the limit is 0.005 ps. `forceDt` runs longer steps anyway (the
// run-time checks below still stop a run that goes wrong).
//
// Displacement. The pair list holds the pairs within rlist = rc + rb when it is built and is used
// for nstlist steps. GROMACS sizes the buffer rb statistically (a small energy drift from pairs
// that get inside rc unseen is accepted), so atoms do move further than rb in good runs (measured:
// 1.25 rb in MiniMD's LJ run, 1.6 rb in the SPC/E water run, and an estimate for a loose
// tolerance may be rb = 0). What must not happen is that a pair left out of the list gets deep
// inside the cut-off: two atoms that moved d each come at most 2d closer, so the engine stops
// when an atom moved more than (rlist - rc/2) / 2 since the last pair search, the distance at
// which a pair beyond rlist at the search could be within half the cut-off.
//
// Energy and temperature. Between two thermo samples the conserved energy (total energy plus the
// energy a thermostat took out) may change by at most kB T per atom per 1000 steps (at least
// kB T), with T the larger of the previous sample's temperature and the run's reference
// temperature (good runs change it by 0.01 kB T per atom or less; the drift the buffer allows is
// 0.005 kJ/mol/ps per atom, 0.4% of kB T at 300 K per 1000 steps of 0.002 ps); the same bound
// holds since the first sample (with its temperature), which catches a run that heats up a
// little at every sample; and the temperature may not rise above 10 times that T.
import { MdInputError } from './errors.ts';
import type { GroAtom } from './gro.ts';

/** The time step limit without `forceDt`, in tau (LJ units, up to T 2.8) and ps (SPC/E water). */
export const DT_LIMIT = { lj: 0.01, water: 0.005 } as const;

/**
 * The longest time step accepted without `forceDt` for the system at this temperature (tau or ps),
 * to 3 significant digits: LJ min(0.01, 0.014 sqrt(1.44 / T)), water 0.005 (see the head of
 * runtime/md/sanity.ts).
 */
export function timeStepLimit(system: 'lj' | 'water', temperature: number): number {
  if (system === 'water') return DT_LIMIT.water;
  return +Math.min(DT_LIMIT.lj, 0.014 * Math.sqrt(1.44 / Math.max(temperature, 1e-300))).toPrecision(3);
}

/**
 * Refuse a time step beyond timeStepLimit. `what` names where it came from ("--dt 3", "the
 * default time step 0.005", "state.json: dt 3"); `option` how to run it anyway.
 */
export function checkTimeStep(what: string, dt: number, system: 'lj' | 'water', temperature: number, option = '--force-dt'): void {
  const lim = timeStepLimit(system, temperature);
  if (dt <= lim) return;
  const why =
    system === 'water'
      ? `${lim} ps is the limit for rigid SPC/E water with SETTLE: GROMACS runs water at 0.002 ps and puts the limit near 0.004 ps; at 0.01 ps this water heats to 660 K within 0.5 ps`
      : `${lim} tau is the limit for the LJ fluid at T = ${+temperature.toPrecision(4)}: the smaller of 0.01, twice the 0.005 tau of MiniMD and LAMMPS, and half the step at which velocity Verlet blows up on this fluid, about 0.028 sqrt(1.44/T) tau`;
  throw new MdInputError(`${what}: longer than the stable time step (allowed: 0 < dt <= ${lim}; ${why}); ${option} runs it anyway`);
}

/** A value for a message: JSON for what JSON holds, the type's name otherwise, cut to 40 characters. */
function show(v: unknown): string {
  if (v === undefined) return 'missing';
  const s = typeof v === 'number' ? String(v) : JSON.stringify(v) ?? typeof v;
  return s.length > 40 ? `${s.slice(0, 37)}...` : s;
}

/** How many box edges an unwrapped position may lie outside the box in a state file. */
export const STATE_POSITION_BOXES = 1000;

/** Largest kinetic energy of one atom in a state file, in kB T (T: see checkStateVelocities). */
export const STATE_MAX_KINETIC_KT = 100;

/** Saved run state (runtime/md/setup.ts MdState) as checkState returns it: every field checked. */
export interface CheckedState {
  /** Always 'kernforge-md-state'. */
  format: 'kernforge-md-state';
  /** Always 1. */
  version: 1;
  /** The system the state is of. */
  system: 'lj' | 'water';
  /** Box edges: positive and finite. */
  box: [number, number, number];
  /** Step number: an integer >= 0. */
  step: number;
  /** Time step: positive and finite (its bound is checked with the run's temperature). */
  dt: number;
  /** Energy the thermostat took out so far: finite. */
  thermostatEnergy: number;
  /** Residue and atom names, one per atom (water; optional for LJ). */
  names?: GroAtom[];
  /** Positions, 3 per atom: finite, within STATE_POSITION_BOXES box edges of the box. */
  x: number[];
  /** Velocities, 3 per atom: finite (their size is checked by checkStateVelocities). */
  v: number[];
}

const COMPONENT = ['x', 'y', 'z'];

/**
 * Check a parsed state file field by field; throws MdInputError `file: field: what (allowed: ...)`.
 * Positions are unwrapped in a state (molecules stay whole), so they may lie outside the box, but
 * not beyond STATE_POSITION_BOXES box edges (no run of this engine moves an atom that far).
 */
export function checkState(raw: unknown, file: string): CheckedState {
  const fail = (what: string, allowed: string): never => {
    throw new MdInputError(`${file}: ${what} (allowed: ${allowed})`);
  };
  const stateFile = 'the JSON object that run md --state-out writes';
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) fail(`not a kernforge state file: the top level is ${Array.isArray(raw) ? 'an array' : show(raw)}`, stateFile);
  const s = raw as Record<string, unknown>;
  if (s.format !== 'kernforge-md-state') fail(`not a kernforge state file: format is ${show(s.format)}`, `"kernforge-md-state", in ${stateFile}`);
  if (s.version !== 1) fail(`version ${show(s.version)} is not one this kernforge reads`, '1');
  if (s.system !== 'lj' && s.system !== 'water') fail(`system ${show(s.system)}`, '"lj", "water"');
  const boxAllowed = 'three positive finite edges [Lx, Ly, Lz]';
  if (!Array.isArray(s.box) || s.box.length !== 3) fail(`box ${show(s.box)}`, boxAllowed);
  const box = s.box as unknown[];
  box.forEach((b, i) => {
    if (!(typeof b === 'number' && Number.isFinite(b) && b > 0)) fail(`box[${i}] ${show(b)} is not a positive finite edge`, boxAllowed);
  });
  if (!(typeof s.step === 'number' && Number.isSafeInteger(s.step) && s.step >= 0)) fail(`step ${show(s.step)}`, 'an integer >= 0');
  if (!(typeof s.dt === 'number' && Number.isFinite(s.dt) && s.dt > 0)) fail(`dt ${show(s.dt)}`, 'a positive finite time step');
  if (!(typeof s.thermostatEnergy === 'number' && Number.isFinite(s.thermostatEnergy))) fail(`thermostatEnergy ${show(s.thermostatEnergy)}`, 'a finite number (0 without a thermostat)');
  const arrays = 'an array of 3 finite numbers per atom';
  if (!Array.isArray(s.x)) fail(`x is ${show(s.x)}`, `${arrays} (positions)`);
  if (!Array.isArray(s.v)) fail(`v is ${show(s.v)}`, `${arrays} (velocities)`);
  const x = s.x as unknown[];
  const v = s.v as unknown[];
  if (x.length === 0 || x.length % 3 !== 0) fail(`x has ${x.length} numbers`, `${arrays}, at least one atom`);
  if (v.length !== x.length) fail(`v has ${v.length} numbers for the ${x.length / 3} atoms of x`, `${x.length}: ${arrays}`);
  const n = x.length / 3;
  const K = STATE_POSITION_BOXES;
  for (let i = 0; i < x.length; i++) {
    const c = i % 3;
    const what = `${COMPONENT[c]} coordinate of atom ${Math.floor(i / 3) + 1}`;
    if (!(typeof x[i] === 'number' && Number.isFinite(x[i]))) fail(`x[${i}]: ${what} is ${show(x[i])}`, 'finite numbers');
    const xi = x[i] as number;
    const L = box[c] as number;
    if (!(xi >= -K * L && xi < (K + 1) * L)) {
      const p6 = (u: number) => +u.toPrecision(6);
      fail(`x[${i}]: ${what} is ${xi}, more than ${K} box edges outside the box [0, ${p6(L)})`, `${p6(-K * L)} <= ${COMPONENT[c]} < ${p6((K + 1) * L)}: positions are unwrapped, but no run moves an atom that far`);
    }
  }
  for (let i = 0; i < v.length; i++) {
    const vi = v[i];
    if (!(typeof vi === 'number' && Number.isFinite(vi))) fail(`v[${i}]: ${COMPONENT[i % 3]} velocity of atom ${Math.floor(i / 3) + 1} is ${show(vi)}`, 'finite numbers');
  }
  let names: GroAtom[] | undefined;
  if (s.names !== undefined || s.system === 'water') {
    const nameAllowed = 'one {"resnr": integer, "resname": text, "name": text} per atom';
    if (!Array.isArray(s.names)) fail(`names is ${show(s.names)}${s.system === 'water' ? ' (a water state needs the atom names)' : ''}`, nameAllowed);
    const list = s.names as unknown[];
    if (list.length !== n) fail(`names has ${list.length} entries for ${n} atoms`, nameAllowed);
    list.forEach((a, i) => {
      const r = a as Record<string, unknown> | null;
      if (typeof r !== 'object' || r === null || Array.isArray(r)) fail(`names[${i}] is ${show(a)}`, nameAllowed);
      if (!(typeof r!.resnr === 'number' && Number.isSafeInteger(r!.resnr))) fail(`names[${i}].resnr ${show(r!.resnr)}`, 'an integer');
      if (typeof r!.resname !== 'string') fail(`names[${i}].resname ${show(r!.resname)}`, 'text');
      if (typeof r!.name !== 'string' || r!.name === '') fail(`names[${i}].name ${show(r!.name)}`, 'non-empty text');
    });
    names = list as GroAtom[];
  }
  return {
    format: 'kernforge-md-state',
    version: 1,
    system: s.system as 'lj' | 'water',
    box: [box[0] as number, box[1] as number, box[2] as number],
    step: s.step as number,
    dt: s.dt as number,
    thermostatEnergy: s.thermostatEnergy as number,
    names,
    x: x as number[],
    v: v as number[],
  };
}

/**
 * Check the size of a state's velocities once the masses are known: no atom may carry more than
 * STATE_MAX_KINETIC_KT kB T of kinetic energy, T being the larger of `temperature` (the system's
 * usual one) and the state's median temperature (robust to the outliers this looks for). In a
 * Maxwell-Boltzmann distribution the chance of one such atom is below e^-95.
 */
export function checkStateVelocities(file: string, v: ArrayLike<number>, mass: ArrayLike<number>, kB: number, temperature: number, units: 'lj' | 'gromacs'): void {
  const n = mass.length;
  const mv2 = new Float64Array(n);
  for (let a = 0; a < n; a++) mv2[a] = mass[a]! * (v[3 * a]! ** 2 + v[3 * a + 1]! ** 2 + v[3 * a + 2]! ** 2);
  // The median of m v^2 / kB T over three degrees of freedom (chi-square, 3) is 2.366.
  const median = Float64Array.from(mv2).sort()[Math.floor(n / 2)]!;
  const T = Math.max(temperature, median / (2.366 * kB));
  const limit = 2 * STATE_MAX_KINETIC_KT * kB * T;
  for (let a = 0; a < n; a++) {
    if (!(mv2[a]! <= limit)) {
      const speed = Math.hypot(v[3 * a]!, v[3 * a + 1]!, v[3 * a + 2]!);
      const vmax = Math.sqrt(limit / mass[a]!);
      const u = units === 'lj' ? '' : ' nm/ps';
      const tu = units === 'lj' ? '' : ' K';
      throw new MdInputError(
        `${file}: v[${3 * a}..${3 * a + 2}]: atom ${a + 1} moves at ${+speed.toPrecision(4)}${u} ` +
          `(allowed: at most ${+vmax.toPrecision(4)}${u}, a kinetic energy of ${STATE_MAX_KINETIC_KT} kB T at T = ${+T.toPrecision(4)}${tu}, the larger of the state's median temperature and ${temperature}${tu})`,
      );
    }
  }
}

/** How often the conserved energy may change by kB T per atom (steps; at least kB T between two samples). */
export const ENERGY_JUMP_STEPS = 1000;

/** The temperature may not rise above this many times the larger of the previous sample's and the reference. */
export const TEMPERATURE_JUMP = 10;

/** Options of the run-time checks (MdRun.sanity); `false` there turns them off. */
export interface MdSanity {
  /** Largest distance any atom may move between two pair searches (default (rlist - rc/2) / 2). */
  maxDisplacement?: number;
  /** Reference temperature of the energy and temperature checks (K, or LJ units; default: the first sample's). */
  temperature?: number;
}

/** One thermo sample as the checks see it. */
export interface SampleRow {
  /** Step number. */
  step: number;
  /** Temperature (K, or LJ units). */
  T: number;
  /** Conserved energy of the whole system (kJ/mol, or LJ units). */
  conserved: number;
}

/**
 * The run-time checks of MdEngine.simulate. Each returns undefined when the run is sane, else the
 * one-line message the engine stops the run with (an MdBlowUp that keeps the last good frame).
 */
export class RunChecks {
  /** Positions at the last pair search. */
  private readonly xList: Float64Array;
  private listStep = 0;
  private previous?: SampleRow;
  private first?: SampleRow;
  /** Largest distance any atom may move between pair searches. */
  readonly maxDisplacement: number;
  private readonly len: string;
  private readonly eu: string;
  private readonly tu: string;
  private readonly floor: number;

  constructor(
    private readonly o: {
      /** Atoms. */
      n: number;
      /** List cut-off and interaction cut-off. */
      rlist: number;
      rc: number;
      nstlist: number;
      kB: number;
      units: 'lj' | 'gromacs';
      sanity?: MdSanity;
      /**
       * Where to keep the positions at the last search, and the largest squared displacement
       * from them (maxDisplacement2's number; the engine's WebAssembly workspace, runtime/md/settle-simd.ts).
       */
      lists?: { xList: Float64Array; maxDisplacement2(x: Float64Array): number };
    },
  ) {
    this.xList = o.lists?.xList ?? new Float64Array(3 * o.n);
    this.maxDisplacement = o.sanity?.maxDisplacement ?? (o.rlist - o.rc / 2) / 2;
    const lj = o.units === 'lj';
    this.len = lj ? ' sigma' : ' nm';
    this.eu = lj ? ' epsilon' : ' kJ/mol';
    this.tu = lj ? '' : ' K';
    // The smallest temperature scale: a cold start (T 0) is not a reason to stop at the first warming.
    this.floor = lj ? 0.1 : 30;
  }

  /** The pair list was built from `x` at `step`. */
  listBuilt(step: number, x: Float64Array): void {
    this.xList.set(x);
    this.listStep = step;
  }

  /**
   * Whether every position the last displacement() call measured was finite (a NaN or infinite
   * one makes the largest distance NaN or infinite; the positions at the search are finite, the
   * engine's guard checks them): the engine's guard then needs to look at the forces only.
   */
  lastFinite = false;

  /** Positions at `step`, about to be used with the list of the last search. */
  displacement(step: number, x: Float64Array): string | undefined {
    const lim = this.maxDisplacement;
    const d2 = this.o.lists ? this.o.lists.maxDisplacement2(x) : maxDisplacement2(x, this.xList);
    this.lastFinite = Number.isFinite(d2);
    // NaN positions pass here: the force guard names them.
    if (!(d2 > lim * lim)) return undefined;
    let worst = 0;
    let atom = 0;
    for (let a = 0; a < this.o.n; a++) {
      const d2 = (x[3 * a]! - this.xList[3 * a]!) ** 2 + (x[3 * a + 1]! - this.xList[3 * a + 1]!) ** 2 + (x[3 * a + 2]! - this.xList[3 * a + 2]!) ** 2;
      if (d2 > worst) {
        worst = d2;
        atom = a;
      }
    }
    const p = (v: number) => +v.toPrecision(3);
    const rb = this.o.rlist - this.o.rc;
    return (
      `step ${step}: atom ${atom + 1} moved ${p(Math.sqrt(worst))}${this.len} since the pair search at step ${this.listStep}, more than ${p(lim)}${this.len} ` +
      `(allowed: (rlist - rc/2)/2 = (${p(this.o.rlist)} - ${p(this.o.rc)}/2)/2, so that no pair left out of the list comes within half the cut-off); ` +
      `the system blew up, or the time step and --nstlist ${this.o.nstlist} are too long for the buffer ${p(rb)}${this.len}`
    );
  }

  /** A thermo sample (in step order). */
  sample(row: SampleRow): string | undefined {
    const prev = this.previous;
    const first = this.first;
    if (!prev || !first) {
      this.previous = this.first = row;
      return undefined;
    }
    const ref = this.o.sanity?.temperature ?? 0;
    const p = (v: number) => +v.toPrecision(3);
    const cause = 'the system blew up (time step too long, overlapping atoms, or a wrong input)';
    // The jump since the previous sample, then the drift since the first (a run that heats up a
    // little more at every sample), each within kB T per atom per ENERGY_JUMP_STEPS steps.
    const Tprev = Math.max(prev.T, ref, this.floor);
    for (const [since, T] of [[prev, Tprev], [first, Math.max(first.T, ref, this.floor)]] as const) {
      const perAtom = Math.abs(row.conserved - since.conserved) / this.o.n;
      const allowed = this.o.kB * T * Math.max(1, (row.step - since.step) / ENERGY_JUMP_STEPS);
      if (!(perAtom <= allowed)) {
        return (
          `step ${row.step}: the conserved energy changed by ${p(perAtom)}${this.eu} per atom since step ${since.step} ` +
          `(allowed: at most ${p(allowed)}, kB T per atom per ${ENERGY_JUMP_STEPS} steps at T = ${p(T)}${this.tu}); ${cause}`
        );
      }
    }
    if (!(row.T <= TEMPERATURE_JUMP * Tprev)) {
      return `step ${row.step}: the temperature rose from ${p(prev.T)}${this.tu} at step ${prev.step} to ${p(row.T)}${this.tu} (allowed: at most ${TEMPERATURE_JUMP} x ${p(Tprev)}${this.tu}); ${cause}`;
    }
    this.previous = row;
    return undefined;
  }
}

/** The largest squared distance between x and x0 of any atom (NaN when a position is NaN). */
export function maxDisplacement2(x: Float64Array, x0: Float64Array): number {
  let m0 = 0;
  let m1 = 0;
  const n = x.length;
  let i = 0;
  for (; i + 6 <= n; i += 6) {
    const a = x[i]! - x0[i]!;
    const b = x[i + 1]! - x0[i + 1]!;
    const c = x[i + 2]! - x0[i + 2]!;
    const d = x[i + 3]! - x0[i + 3]!;
    const e = x[i + 4]! - x0[i + 4]!;
    const f = x[i + 5]! - x0[i + 5]!;
    m0 = Math.max(m0, a * a + b * b + c * c);
    m1 = Math.max(m1, d * d + e * e + f * f);
  }
  for (; i < n; i += 3) {
    const a = x[i]! - x0[i]!;
    const b = x[i + 1]! - x0[i + 1]!;
    const c = x[i + 2]! - x0[i + 2]!;
    m0 = Math.max(m0, a * a + b * b + c * c);
  }
  return Math.max(m0, m1);
}
