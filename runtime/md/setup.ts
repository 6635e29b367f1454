// Building an MD run from user options: the MiniMD LJ fluid or SPC/E water from a .gro file (or a
// saved state), the variant pair (force-only and energy) for a cluster shape and precision, the
// Verlet buffer (given, or estimated from a drift tolerance), SETTLE and the thermostat. The time
// step and a state file are checked here before anything runs (runtime/md/sanity.ts).
import { keyTarget } from '../keys.ts';
import { backend } from '../backends/registry.ts';
import { platform } from '../platform.ts';
import { ljFluid } from './ljfluid.ts';
import { readGro, type GroAtom } from './gro.ts';
import { waterSystemFromGro } from './topology.ts';
import { Settle, SPCE_DOH, SPCE_DHH } from './settle.ts';
import { vrescaleFactor, berendsenFactor, refKinetic, gaussian } from './thermostat.ts';
import { estimateVerletBuffer, spceVerletTypes, type VerletAtomType } from './verletbuf.ts';
import { derive, ONE_4PI_EPS0, type MdSettings } from './interaction.ts';
import { rng, type MdSystem } from './system.ts';
import { cellOrder, parseOrdering, ORDERINGS } from './orderings.ts';
import { KB_GROMACS, type Constraints, type MdRun, type Thermostat } from './engine.ts';
import { MdInputError } from './errors.ts';
import { checkMemory, memoryLimit, mdMemory } from '../limits.ts';
import { checkState, checkStateVelocities, checkTimeStep, type CheckedState } from './sanity.ts';
import { siblingKey, variantParams } from '../variants.ts';
import { parseThreads, ThreadCountError } from '../parallel/pool.ts';
import { readTop, systemFromTop, resolveBundled } from './top.ts';
import { pmeSettings, PmeLongRange, type CoulombOptions, type PmeSettings } from './pme.ts';

export const CLUSTERS = ['1x1', '2x2', '4x2', '4x4', '4x8', '8x4', '8x8'] as const;

export interface MdOptions extends CoulombOptions {
  /** 'lj' (MiniMD fcc LJ fluid) or 'water' (SPC/E from gro, or water and ions with a topology). */
  system: 'lj' | 'water';
  gro?: string;
  /** A GROMACS .top (the subset runtime/md/top.ts reads) for the .gro: SETTLE water and monatomic ions; without it the built-in SPC/E model. */
  top?: string;
  /** PME: the pme-mesh variant (a ts or wasm key, or 'reference'); default createPmeMesh's (the fastest CPU target here; an f32 run: the f32 wasm mesh). */
  pmeMesh?: string;
  /** Continue from a state file written by a previous run. */
  state?: string;
  cells?: number;
  density?: number;
  t0?: number;
  dt?: number;
  nstlist?: number;
  rc?: number;
  /** Buffer given explicitly ... */
  rb?: number;
  /** ... or estimated for this drift tolerance (energy per atom per time unit). */
  verletTolerance?: number;
  integrator?: 'vv' | 'leapfrog';
  thermostat?: 'none' | 'v-rescale' | 'berendsen';
  refT?: number;
  tauT?: number;
  seed?: number;
  /** A force variant key; or target + cluster + precision + list to build one. */
  variant?: string;
  /** 'ts' (default) or 'wasm' (WebAssembly SIMD, f32, 4x4 or 8x4). */
  target?: 'ts' | 'wasm';
  cluster?: string;
  precision?: 'f32' | 'f64';
  list?: 'half' | 'full';
  ordering?: string;
  nstcalcenergy?: number;
  /** Memory limit (bytes, or a size such as '4G'; `--max-memory`); default: half of the machine's memory (runtime/limits.ts). A system whose estimate is above it is refused before it is built. */
  maxMemory?: number | string;
  /** Threads for the non-bonded kernels: an integer 1..2 x CPUs (default 1); TypeScript and WebAssembly variants. */
  threads?: number | string;
  /** With threads: the same numbers run after run (`--reproducible`; WebAssembly variants split the list over the threads the same way each step instead of claiming chunks of it). */
  reproducible?: boolean;
  /** The tuned artefact to take the variant from (default: $KERNFORGE_TUNED, else ./kernforge-tuned.json); false: the documented default. */
  tuned?: string | false;
  /**
   * Run a time step longer than the stable limit (LJ 0.01 tau, less above T 2.8; water 0.005 ps;
   * runtime/md/sanity.ts timeStepLimit) instead of refusing it (`--force-dt`). The run-time checks
   * still stop a run that goes wrong.
   */
  forceDt?: boolean;
}

/** Saved run state: enough to continue exactly (JSON keeps doubles exact); its fields and their checks are in runtime/md/sanity.ts. */
export type MdState = CheckedState;

export interface PreparedRun {
  run: MdRun;
  /** Residue/atom names for frames (water), or undefined (LJ: written as AR). */
  names?: GroAtom[];
  /** Water molecules (O,H1,H2) for whole-molecule wrapping of output frames. */
  molecules?: Int32Array;
  description: string;
  rb: number;
  rbSource: string;
  settle?: Settle;
  /** PME's settings when the run uses PME. */
  pme?: PmeSettings;
}

const DEFAULTS = {
  lj: { dt: 0.005, nstlist: 20, rc: 2.5, rb: 0.3, integrator: 'vv', nstcalcenergy: 100, cluster: '4x4' },
  water: { dt: 0.002, nstlist: 10, rc: 1.0, integrator: 'leapfrog', nstcalcenergy: 100, cluster: '4x4' },
} as const;

function checkNumber(name: string, v: number | undefined, ok: (x: number) => boolean, allowed: string): void {
  if (v !== undefined && !(Number.isFinite(v) && ok(v))) throw new MdInputError(`--${name} ${v}: must be ${allowed}`);
}

function readState(path: string): MdState {
  let text: string;
  try {
    text = platform().readText(path);
  } catch (e) {
    throw new MdInputError(`cannot read ${path}: ${(e as Error).message}`);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new MdInputError(`${path}: not a kernforge state file (${(e as Error).message})`);
  }
  // Every field, with the .gro reader's kind of message: file, field, what is allowed.
  return checkState(raw, path);
}

/** Kinetic temperature 2 Ekin / (ndof kB). */
function kineticTemperature(v: Float64Array, mass: Float64Array, ndof: number, kB: number): number {
  let s = 0;
  for (let a = 0; a < mass.length; a++) s += mass[a]! * (v[3 * a]! ** 2 + v[3 * a + 1]! ** 2 + v[3 * a + 2]! ** 2);
  return ndof > 0 ? s / (ndof * kB) : 0;
}

/**
 * Column order for the pair search from an ordering name. orderings.ts numbers 2-D cells x-fastest
 * (cy * ncx + cx); the cluster grid numbers columns cx * ncy + cy, so positions are converted.
 */
export function columnOrder(name: string | undefined): ((ncx: number, ncy: number) => Int32Array) | undefined {
  if (!name) return undefined;
  const canon = parseOrdering(name);
  if (!canon) throw new MdInputError(`--ordering ${name}: unknown (allowed: ${ORDERINGS.join(', ')})`);
  if (canon === 'row-major') return undefined;
  return (ncx, ncy) => cellOrder([ncx, ncy], canon).cells.map((c) => (c % ncx) * ncy + Math.floor(c / ncx));
}

/**
 * The run's memory (runtime/limits.ts mdMemory) against the limit, before the system's arrays are
 * built: `atoms` in `volume`, pair list out to `rlist`, the cluster shape, list and threads asked.
 */
function checkMdMemory(o: MdOptions, what: string, atoms: number, volume: number, rlist: number, smaller: string): void {
  const parts = o.variant?.split('.') ?? [];
  const cluster = o.cluster ?? parts.find((p) => /^\dx\d$/.test(p)) ?? '4x4';
  const list = o.list ?? (parts.includes('full') ? 'full' : 'half');
  const threads = Number(o.threads ?? 1);
  const est = mdMemory({ atoms, volume, rlist, cluster, list, threads: Number.isInteger(threads) && threads > 0 ? threads : 1 });
  checkMemory(`run md: ${what} (${atoms} atoms)`, est, memoryLimit(o.maxMemory), '--max-memory <size>', smaller);
}

export async function prepareRun(o: MdOptions): Promise<PreparedRun> {
  // `--gro salt-water`: the bundled salt water and its topology
  if (o.gro !== undefined) o = { ...o, ...resolveBundled(o.gro, o.top) };
  const state = o.state ? readState(o.state) : undefined;
  const kind = state?.system ?? o.system;
  const d = DEFAULTS[kind];
  checkNumber('dt', o.dt, (x) => x > 0, 'a positive time step');
  checkNumber('nstlist', o.nstlist, (x) => Number.isInteger(x) && x >= 1, 'a positive integer');
  checkNumber('rc', o.rc, (x) => x > 0, 'a positive cut-off');
  checkNumber('rb', o.rb, (x) => x >= 0, 'a buffer >= 0');
  checkNumber('verlet-tolerance', o.verletTolerance, (x) => x > 0, 'a positive drift tolerance');
  checkNumber('ref-t', o.refT, (x) => x >= 0, 'a temperature >= 0');
  checkNumber('tau-t', o.tauT, (x) => x > 0, 'a positive coupling time');
  if (state && o.dt !== undefined && o.dt !== state.dt) {
    throw new MdInputError(`--dt ${o.dt} with --continue ${o.state}: the state's time step is ${state.dt} and its steps and times go on with it (allowed: leave out --dt, or --dt ${state.dt})`);
  }
  const dt = state?.dt ?? o.dt ?? d.dt;
  const nstlist = o.nstlist ?? d.nstlist;
  const rc = o.rc ?? d.rc;
  const integrator = o.integrator ?? d.integrator;
  if (!['vv', 'leapfrog'].includes(integrator)) throw new MdInputError(`--integrator ${integrator}: allowed vv, leapfrog`);

  let topology: MdSystem;
  let mass: Float64Array;
  let v: Float64Array;
  let names: GroAtom[] | undefined;
  let molecules: Int32Array | undefined;
  let settings: MdSettings;
  let description: string;
  let temperature: number;
  const coulomb = o.coulomb ?? 'rf';
  if (coulomb !== 'rf' && coulomb !== 'pme') throw new MdInputError(`--coulomb ${o.coulomb}: allowed rf (reaction field), pme (smooth particle-mesh Ewald)`);
  let pme: PmeSettings | undefined;
  let comb: 'geom' | 'lb' = 'geom';
  let settleGeometry: { doh: number; dhh: number } | undefined;
  let what: string | undefined;
  let netCharge = 0;
  if (kind === 'lj' && (coulomb === 'pme' || o.top)) throw new MdInputError(`${coulomb === 'pme' ? '--coulomb pme' : '--top'} needs a water system (--gro <file.gro>; the LJ fluid has no charges)`);
  if (kind === 'lj') {
    const cells = state ? Math.round(Math.cbrt(state.x.length / 12)) : o.cells ?? 10;
    if (Number.isInteger(cells) && cells > 0) checkMdMemory(o, `the LJ fluid of ${cells} fcc cells per edge`, 4 * cells ** 3, (4 * cells ** 3) / (o.density ?? 0.8442), rc + (o.rb ?? DEFAULTS.lj.rb), 'fewer --cells');
    const lj = ljFluid({ cells, density: o.density, t0: o.t0 });
    topology = lj.sys;
    mass = lj.mass;
    v = lj.v;
    settings = { interaction: 'lj', comb: 'geom', shift: false, rc };
    temperature = o.t0 ?? 1.44;
    description = `LJ fluid (MiniMD): ${mass.length} atoms, fcc density ${o.density ?? 0.8442}, T0 ${temperature}, LJ units`;
  } else {
    const file = o.gro;
    if (!file && !state) throw new MdInputError('the water system needs --gro <file.gro> (SPC/E water) or --continue <state.json>');
    let frame;
    if (state) {
      // Positions in a state are unwrapped; the topology checks (molecules, O-H distances, minimum
      // image) see them wrapped into the box. The run starts from the exact ones (below).
      const xw = Float64Array.from(state.x, (c, i) => c - state.box[i % 3]! * Math.floor(c / state.box[i % 3]!));
      frame = { title: 'state', atoms: state.names ?? [], x: xw, box: state.box };
    } else {
      let text: string;
      try {
        text = platform().readText(file!);
      } catch (e) {
        throw new MdInputError(`cannot read ${file}: ${(e as Error).message}`);
      }
      frame = readGro(text, file);
    }
    checkMdMemory(o, `water from ${file ?? o.state}`, frame.x.length / 3, frame.box[0] * frame.box[1] * frame.box[2], rc + (o.rb ?? 0.1), 'a smaller system');
    const place = state ? { at: (i: number) => `${o.state}: atom ${i + 1} (names[${i}])`, ref: (i: number) => `atom ${i + 1}` } : undefined;
    if (o.top) {
      const t = systemFromTop(readTop(o.top), frame, file ?? o.state!);
      topology = t.sys;
      mass = t.mass;
      names = t.names;
      molecules = t.waters.length ? t.waters : undefined;
      comb = t.comb;
      settleGeometry = t.settle;
      what = `${t.counts} from ${o.top}`;
      netCharge = t.netCharge;
    } else {
      const w = waterSystemFromGro(frame, file ?? o.state, place);
      topology = w.sys;
      mass = w.mass;
      names = w.names;
      molecules = w.molecules;
    }
    if (coulomb === 'pme') {
      pme = pmeSettings(o, rc, topology.box, topology.q, ONE_4PI_EPS0);
      settings = { interaction: 'lj-ewald', comb, shift: true, rc, epsR: 1, ewaldRtol: pme.ewaldRtol, ewaldBeta: pme.beta };
    } else {
      if (Math.abs(netCharge) > 1e-4) throw new MdInputError(`the system has a net charge of ${netCharge.toFixed(4)} e (allowed with --coulomb rf: a neutral system)`);
      settings = { interaction: 'lj-rf', comb, shift: true, rc, epsR: 1, epsRf: 0 };
    }
    temperature = o.refT ?? 300;
    if (!state && frame.v) v = frame.v;
    else v = new Float64Array(3 * mass.length);
    if (!state && !frame.v) {
      // Maxwell-Boltzmann velocities at refT, made rigid below.
      const r = rng(o.seed ?? 1);
      for (let a = 0; a < mass.length; a++) for (let k = 0; k < 3; k++) v[3 * a + k] = gaussian(r) * Math.sqrt((KB_GROMACS * temperature) / mass[a]!);
    }
    const elec = pme ? `PME (grid ${pme.grid.join('x')}, order ${pme.order}, ewald-rtol ${pme.ewaldRtol})` : 'RF (eps_rf = inf)';
    description = `${what ?? `SPC/E water: ${(molecules?.length ?? 0) / 3} molecules`} (${mass.length} atoms), box ${topology.box.map((b) => b.toFixed(3)).join(' x ')} nm, ${elec} + LJ potential-shift${comb === 'lb' ? ' (Lorentz-Berthelot)' : ''}, rc ${rc} nm, SETTLE`;
  }
  let x = topology.x;
  let step0 = 0;
  let thermostatEnergy = 0;
  if (state) {
    if (state.x.length !== 3 * mass.length) {
      throw new MdInputError(
        kind === 'lj'
          ? `${o.state}: x holds ${state.x.length / 3} atoms (allowed for the LJ fluid: 4 n^3 atoms for n fcc cells per edge, such as 32, 108, 256, 500)`
          : `${o.state}: ${state.x.length / 3} atoms, the system has ${mass.length}`,
      );
    }
    x = Float64Array.from(state.x);
    v = Float64Array.from(state.v);
    topology = { ...topology, box: state.box, x };
    step0 = state.step;
    thermostatEnergy = state.thermostatEnergy;
    checkStateVelocities(o.state!, v, mass, kind === 'lj' ? 1 : KB_GROMACS, temperature, kind === 'lj' ? 'lj' : 'gromacs');
  }
  // The time step against the stable limit for this system at the larger of its reference and
  // starting temperatures (runtime/md/sanity.ts), unless forceDt.
  const kBu = kind === 'lj' ? 1 : KB_GROMACS;
  const startT = kineticTemperature(v, mass, 3 * mass.length - 3 - (molecules ? molecules.length : 0), kBu);
  const refT = o.thermostat !== undefined && o.thermostat !== 'none' ? o.refT ?? temperature : 0;
  const sanityT = Math.max(temperature, refT, startT);
  if (!o.forceDt) {
    const what = state ? `${o.state}: dt ${dt}` : o.dt !== undefined ? `--dt ${dt}` : `the default time step ${dt}`;
    checkTimeStep(what, dt, kind, Math.max(refT, startT, kind === 'lj' && !state ? temperature : 0));
  }

  // Variant pair.
  let keyF = o.variant;
  if (o.target !== undefined && !['ts', 'wasm'].includes(o.target)) throw new MdInputError(`--target ${o.target}: allowed ts (TypeScript), wasm (WebAssembly SIMD, f32 or f64)`);
  if (o.precision !== undefined && !['f32', 'f64'].includes(o.precision)) throw new MdInputError(`--precision ${o.precision}: allowed f32, f64`);
  // The key parts this system fixes: interaction, geometric LJ combination, shift.
  const semantic = `${settings.interaction}.${settings.comb}.${settings.shift ? 'shift' : 'plain'}`;
  // lj-ewald variants have one more axis, the erfc correction: tabulated by default (in f64 it
  // is 1e-9 from the exact erfc; the analytical variants' rational approximation is ~4e-7)
  const ewaldAxis = settings.interaction === 'lj-ewald' ? 'tabulated.' : '';
  if (!keyF && o.target === 'wasm') {
    // WebAssembly SIMD (f32 by default): f32x4 kernels with j-clusters of 4 in one vector register
    // (4x4, 8x4); f64x2 ones with j-clusters of 2 or 4 in one or two (2x2, 4x2, 4x4, 8x4). The
    // default f64 shape is the fastest measured here (2026-11-24): 2x2 for LJ alone (32,000-atom
    // fluid, 8.8 ms per step against 11.6 for 4x4), 4x2 with electrostatics (water RF, 12,177
    // atoms: 18.6 ms against 28.7 for 2x2 and 31.6 for 4x4); `kernforge tune` picks per machine.
    const wprec = o.precision ?? 'f32';
    const cluster = o.cluster ?? (wprec === 'f64' ? (settings.interaction === 'lj' ? '2x2' : '4x2') : '4x4');
    const shapes = wprec === 'f64' ? ['2x2', '4x2', '4x4', '8x4'] : ['4x4', '8x4'];
    if (!shapes.includes(cluster)) throw new MdInputError(`--cluster ${cluster} with --target wasm --precision ${wprec}: allowed ${shapes.join(', ')}`);
    if (o.list === 'full') throw new MdInputError('--list full needs --cluster 1x1 on the TypeScript target');
    keyF = `md-nonbonded.wasm.${semantic}.${wprec}.f.${ewaldAxis}${cluster}.mask.mask.simd128`;
  }
  // the thread count the tuned variant won with (when the run takes the tuned variant as it is)
  let tunedThreads: number | undefined;
  if (!keyF && !o.cluster && !o.list && o.tuned !== false) {
    // No explicit choice: the variant tuned on this machine (kernforge tune), else the default below.
    // f32: the winner of the f32 class (water-rf-f32 / lj-fluid-f32: TypeScript or WebAssembly
    // SIMD; --target ts keeps TypeScript), else the f64 class's winner at f32; f64: the f64 class.
    const { loadTuned } = await import('../tune/tuned.ts');
    const precision = o.precision ?? 'f64';
    // PME runs take the water winner's shape and target with the lj-ewald interaction (no PME class is tuned yet)
    const base = kind === 'lj' ? 'lj-fluid' : 'water-rf';
    const held: string[] = [];
    let t = precision === 'f32' ? await loadTuned('md-nonbonded', `${base}-f32`, { load: false, path: o.tuned, warn: (l) => held.push(l) }) : undefined;
    if (!t?.tuned) t = await loadTuned('md-nonbonded', base, { load: false, path: o.tuned, ...(t ? { warn: () => {} } : {}) });
    if (t.tuned && keyTarget(t.key) === 'gpujs') {
      // gpu.js kernels are not run by the engine (its force calls are synchronous, webgpu's are not)
      platform().stderr(`kernforge: the tuned ${t.key} is a gpu.js variant, which run md does not run; it takes a TypeScript variant instead (give --variant or --target to choose)`);
    }
    if (t.tuned) {
      const tp = await variantParams(t.key);
      // a wasm winner stays wasm (f32x4 or f64x2) where its sibling of this precision exists, else TypeScript below
      const target = o.target ?? (tp.target === 'wasm' ? 'wasm' : 'ts');
      const want = { interaction: settings.interaction, ljComb: settings.comb, ljShift: settings.shift ? 'shift' : 'plain', output: 'f', target, precision };
      const changes = Object.fromEntries(Object.entries(want).filter(([k, v]) => tp[k] !== v));
      keyF = Object.keys(changes).length === 0 ? t.key : await siblingKey(t.key, changes).catch(() => undefined);
      if (keyF === t.key) tunedThreads = t.threads;
    } else for (const l of held) platform().stderr(l); // nothing tuned for either class: say so once, for the f32 one
  }
  if (!keyF && settings.interaction === 'lj-ewald' && o.precision === 'f32' && !o.cluster && !o.list && o.target === undefined && (await backend('wasm').available()).ok) {
    // PME in f32 with nothing tuned (GROMACS's mixed precision): the f32x4 tabulated 4x4 kernel,
    // the fastest verified Ewald kernel on PME water (bench md: ~4x the TypeScript f64 one)
    keyF = `md-nonbonded.wasm.${semantic}.f32.f.tabulated.4x4.mask.mask.simd128`;
  }
  if (!keyF) {
    const cluster = o.cluster ?? d.cluster;
    if (!(CLUSTERS as readonly string[]).includes(cluster)) throw new MdInputError(`--cluster ${cluster}: allowed ${CLUSTERS.join(', ')}`);
    const precision = o.precision ?? 'f64';
    const list = cluster === '1x1' ? `.${o.list ?? 'half'}` : '';
    if (o.list === 'full' && cluster !== '1x1') throw new MdInputError('--list full needs --cluster 1x1');
    keyF = `md-nonbonded.ts.${semantic}.${precision}.f.${ewaldAxis}${cluster}${list}.mask.mask`;
  }
  const p = await variantParams(keyF);
  if (p.interaction !== settings.interaction || p.ljShift !== (settings.shift ? 'shift' : 'plain') || p.ljComb !== settings.comb || (p.target !== 'ts' && p.target !== 'wasm')) {
    throw new MdInputError(`variant ${keyF} does not compute this system's interaction (${settings.interaction}, ${settings.comb === 'lb' ? 'Lorentz-Berthelot' : 'geometric'} LJ, ${settings.shift ? 'potential-shift' : 'plain'}) on the TypeScript or WebAssembly target`);
  }
  const keyE = p.output === 'fev' ? keyF : await siblingKey(keyF, { output: 'fev' });
  let threads: number;
  try {
    threads = parseThreads(o.threads ?? tunedThreads ?? 1, '--threads');
  } catch (e) {
    if (e instanceof ThreadCountError) throw new MdInputError(e.message);
    throw e;
  }
  const [M, N] = String(p.cluster).split('x').map(Number) as [number, number];

  // Verlet buffer.
  let rb: number;
  let rbSource: string;
  if (o.rb !== undefined) {
    rb = o.rb;
    rbSource = 'given';
  } else if (kind === 'lj' && o.verletTolerance === undefined) {
    rb = DEFAULTS.lj.rb;
    rbSource = "MiniMD's skin";
  } else {
    const tol = o.verletTolerance ?? 0.005;
    const volume = topology.box[0] * topology.box[1] * topology.box[2];
    const dd = derive(settings);
    const types =
      kind === 'lj'
        ? [{ mass: 1, charge: 0, c6: 4, c12: 4, count: mass.length }]
        : o.top
          ? verletTypes(topology, mass, molecules, settleGeometry)
          : spceVerletTypes(mass.length / 3);
    const est = estimateVerletBuffer({
      types,
      volume,
      temperature,
      kB: kind === 'lj' ? 1 : KB_GROMACS,
      dt,
      nstlist,
      rc,
      interaction: settings.interaction as 'lj' | 'lj-rf' | 'lj-ewald',
      beta: pme?.beta,
      ljShift: settings.shift,
      krf: dd.krf,
      epsfac: dd.epsfac,
      tolerance: tol,
      cluster: [Math.min(M, 4), Math.min(N, 4)],
    });
    rb = est.rlist - rc;
    rbSource = `estimated for a drift of ${tol} per atom per time unit at T = ${temperature} (seed 001 appendix)`;
  }

  let constraints: Constraints | undefined;
  let settle: Settle | undefined;
  if (molecules) {
    const s = new Settle(molecules, mass, settleGeometry?.doh ?? SPCE_DOH, settleGeometry?.dhh ?? SPCE_DHH);
    settle = s;
    constraints = {
      positions: (xo, xn, vv, invdt, vir, split) => s.positions(xo, xn, vv, invdt, vir, split),
      job: (xo, xn, vv, invdt, vir) => s.job(xo, xn, vv, invdt, vir),
      velocities: (xx, vv, vir) => s.velocities(xx, vv, vir, 2 / dt),
      removedDof: molecules.length, // 3 constraints per molecule
    };
    if (!state) {
      // Make the starting velocities rigid and remove the centre-of-mass motion.
      s.velocities(x, v);
      removeComMotion(v, mass);
    }
  }
  let thermostat: Thermostat | undefined;
  const tkind = o.thermostat ?? 'none';
  if (!['none', 'v-rescale', 'berendsen'].includes(tkind)) throw new MdInputError(`--thermostat ${tkind}: allowed none, v-rescale, berendsen`);
  if (tkind !== 'none') {
    const refT = o.refT ?? temperature;
    const tau = o.tauT ?? (kind === 'lj' ? 0.5 : 0.1);
    const r = rng(o.seed ?? 1);
    thermostat = {
      factor: (k, ndof, h) => {
        const kref = kind === 'lj' ? 0.5 * ndof * refT : refKinetic(ndof, refT);
        return tkind === 'v-rescale' ? vrescaleFactor(k, kref, ndof, tau, h, r) : berendsenFactor(k, kref, tau, h);
      },
    };
  }
  return {
    run: {
      topology,
      mass,
      x,
      v,
      units: kind === 'lj' ? 'lj' : 'gromacs',
      settings,
      rlist: rc + rb,
      nstlist,
      dt,
      integrator,
      keyF,
      keyE,
      constraints,
      thermostat,
      search: { columnOrder: columnOrder(o.ordering) },
      nstcalcenergy: o.nstcalcenergy ?? d.nstcalcenergy,
      step0,
      thermostatEnergy,
      threads,
      reproducible: o.reproducible,
      sanity: { temperature: sanityT },
      longRange: pme ? await PmeLongRange.create(topology.box, topology.q, pme, o.pmeMesh, p.precision === 'f32' ? 'f32' : 'f64') : undefined,
    },
    names,
    molecules,
    description,
    rb,
    rbSource,
    settle,
    pme,
  };
}

/**
 * Atom types for the Verlet-buffer estimate of a topology's system: one per (LJ type, charge,
 * mass, rigid or not), SETTLE atoms constrained to their heaviest partner at d(OH).
 */
function verletTypes(sys: MdSystem, mass: Float64Array, waters: Int32Array | undefined, settle: { doh: number } | undefined): VerletAtomType[] {
  const partner = new Float64Array(mass.length);
  if (waters) {
    for (let m = 0; m < waters.length; m += 3) {
      const [o, h1, h2] = [waters[m]!, waters[m + 1]!, waters[m + 2]!];
      partner[o] = Math.max(mass[h1]!, mass[h2]!);
      partner[h1] = mass[o]!;
      partner[h2] = mass[o]!;
    }
  }
  const types = new Map<string, VerletAtomType>();
  for (let a = 0; a < mass.length; a++) {
    const t = sys.ljTypes[sys.type[a]!]!;
    const key = `${sys.type[a]}|${sys.q[a]}|${mass[a]}|${partner[a]}`;
    const seen = types.get(key);
    if (seen) seen.count++;
    else {
      types.set(key, {
        mass: mass[a]!,
        charge: sys.q[a]!,
        c6: 4 * t.epsilon * t.sigma ** 6,
        c12: 4 * t.epsilon * t.sigma ** 12,
        count: 1,
        ...(partner[a]! > 0 ? { constrained: { partnerMass: partner[a]!, length: settle?.doh ?? SPCE_DOH } } : {}),
      });
    }
  }
  return [...types.values()];
}

export function removeComMotion(v: Float64Array, mass: Float64Array): void {
  let mt = 0;
  const p = [0, 0, 0];
  for (let a = 0; a < mass.length; a++) {
    mt += mass[a]!;
    for (let d = 0; d < 3; d++) p[d]! += mass[a]! * v[3 * a + d]!;
  }
  for (let a = 0; a < mass.length; a++) for (let d = 0; d < 3; d++) v[3 * a + d]! -= p[d]! / mt;
}
