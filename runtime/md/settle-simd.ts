// SETTLE and the leap-frog / velocity-Verlet kick + drift in WebAssembly SIMD (issue 16): the
// module generator/md-settle-wat.ts builds (two molecules per f64x2 vector; the operations of
// runtime/md/settle.ts settleRange and runtime/md/engine.ts kickDrift in the same order, so the
// same numbers bit for bit), compiled once per thread from the committed bytes
// (runtime/md/settle-simd-bytes.ts: no file to fetch, in Node and in the browser alike). Where
// WebAssembly SIMD is missing, nothing here is made and both stay in TypeScript.
//
// The MD engine runs on a workspace (UpdateWorkspace: positions, velocities, old positions,
// forces and dt/2m per coordinate in one module memory of this thread), so that the kick + drift
// and SETTLE work in place; a SETTLE call on other arrays copies them into an instance of its own.
// The same module, instantiated on a md-nonbonded kernel's memory (kernelTransfers), writes the
// positions into the kernel's layout and its forces into atom order at every step.
import { EmbeddedWasm } from './embedded-wasm.ts';
import { SETTLE_SIMD_SHARED_WASM, SETTLE_SIMD_WASM } from './settle-simd-bytes.ts';

/** What settleRange reads: one molecule kind's constants and the arrays of one constraint call (plain numbers and typed arrays: it can move to another thread). */
export interface SettleJob {
  mols: Int32Array;
  mO: number;
  mH: number;
  ra: number;
  rb: number;
  rc: number;
  xOld: Float64Array;
  xNew: Float64Array;
  v: Float64Array | undefined;
  invdt: number;
  /** Correct v (leap-frog) / sum the virial. */
  doV: boolean;
  virial: boolean;
}

type SettleExport = (
  mols: number, xo: number, xn: number, v: number, acc: number, m0: number, m1: number,
  wO: number, wH: number, mH: number, ra: number, rb: number, rc: number, rc2: number, iv: number, doV: number, virial: number,
) => void;
type SumSqExport = (f: number, n: number) => number;
type MaxDisp2Export = (x: number, x0: number, atoms: number) => number;
type KickDriftExport = (x: number, v: number, xo: number, h: number, f: number, n: number, lambda: number, scale: number, dt: number, keep: number, plain: number, twice: number) => void;
type KickDriftMeasureExport = (x: number, v: number, xo: number, h: number, f: number, atoms: number, lambda: number, scale: number, dt: number, keep: number, plain: number, twice: number, x0: number) => number;
type KickExport = (v: number, h: number, f: number, n: number) => void;

const embedded = new EmbeddedWasm(SETTLE_SIMD_WASM);
const embeddedShared = new EmbeddedWasm(SETTLE_SIMD_SHARED_WASM);

/** The compiled module, or null where this engine has no WebAssembly SIMD (or it is switched off). */
const simdModule = (): WebAssembly.Module | null => embedded.module();
/** The module on an imported shared memory, or null (also without shared memory: no SharedArrayBuffer, as on a page that is not cross-origin isolated). */
const sharedModule = (): WebAssembly.Module | null => (embedded.enabled && typeof SharedArrayBuffer === 'function' ? embeddedShared.module() : null);

/** Use the module (default) or keep everything in TypeScript (for comparisons; Settle.simd does it per Settle). */
export function setUpdateSimd(on: boolean): void {
  embedded.enabled = on;
}

/** One module instance on a memory of `bytes` bytes (grown before any view is taken), or on a given shared memory. */
class Instance {
  readonly mem: WebAssembly.Memory;
  readonly settle: SettleExport;
  readonly kickDrift: KickDriftExport;
  readonly kickDriftMeasure: KickDriftMeasureExport;
  readonly kick: KickExport;
  readonly sumSq: SumSqExport;
  readonly maxDisp2: MaxDisp2Export;
  constructor(m: WebAssembly.Module, bytes: number, memory?: WebAssembly.Memory) {
    this.mem = memory ?? new WebAssembly.Memory({ initial: Math.max(1, Math.ceil(bytes / 65536)) });
    const inst = new WebAssembly.Instance(m, { env: { memory: this.mem } });
    this.settle = inst.exports.settle as SettleExport;
    this.kickDrift = inst.exports.kickDrift as KickDriftExport;
    this.kickDriftMeasure = inst.exports.kickDriftMeasure as KickDriftMeasureExport;
    this.kick = inst.exports.kick as KickExport;
    this.sumSq = inst.exports.sumSq as SumSqExport;
    this.maxDisp2 = inst.exports.maxDisp2 as MaxDisp2Export;
  }
}

type SlotsExport = (x: number, atomOf: number, off: number, out: number, np: number) => void;
type AtomsExport = (fb: number, slotOf: number, f: number, n: number) => void;

/** The per-step transfers into and out of a md-nonbonded wasm kernel's layout, run on its memory. */
export interface KernelTransfers {
  /** Positions of slots [0, np) into the layout at `out` (reals of the kernel's precision), from x and off (f64) by atomOf. */
  slots: SlotsExport;
  /** Forces of n atoms (f64, 3 each) from the layout's force block at `fb`, by slotOf. */
  atoms: AtomsExport;
  /** The same in f32, 3 each (f32 layouts only): the kernel's numbers in half the bytes. */
  atoms32: AtomsExport | undefined;
}

/**
 * This module's transfers instantiated on a kernel instance's memory (runtime/md/wasm.ts WasmMd),
 * for its precision; null where the module is not available (the TypeScript loops run then).
 */
export function kernelTransfers(memory: WebAssembly.Memory, precision: 'f32' | 'f64'): KernelTransfers | null {
  const m = simdModule();
  if (!m) return null;
  const ex = new WebAssembly.Instance(m, { env: { memory } }).exports;
  const T = precision === 'f64' ? 'F64' : 'F32';
  return { slots: ex[`slots${T}`] as SlotsExport, atoms: ex[`atoms${T}`] as AtomsExport, atoms32: precision === 'f32' ? (ex.atomsF32ToF32 as AtomsExport) : undefined };
}

/** Ranges of an update split over threads, each with its own SETTLE sums in the workspace (UpdateRanges.accOf). */
export const UPDATE_MAX_RANGES = 64;

/**
 * Byte layout of nAtoms atoms' arrays: x, v, xOld, f, h3, xList (3 f64 each per atom), the
 * molecules (at most nAtoms / 3 triples of i32), 10 sums per range of a split update (the first:
 * one thread's), and the largest displacement since the search per range of a split update.
 */
function layout(nAtoms: number) {
  const a = 24 * nAtoms;
  const mols = 6 * a;
  const acc = mols + 8 * Math.ceil((4 * nAtoms) / 8);
  const d2 = acc + 80 * UPDATE_MAX_RANGES;
  return { x: 0, v: a, xOld: 2 * a, f: 3 * a, h: 4 * a, xList: 5 * a, mols, acc, d2, bytes: d2 + 8 * UPDATE_MAX_RANGES };
}

/** Run SETTLE's pairs (molecules [0, 4 floor(nMols / 4))) on an instance whose memory holds the job's molecules and arrays; acc set to their sums; returns how many molecules it took. */
function runSettle(r: UpdateRanges, c: SettleJob, acc: Float64Array): number {
  const even = (c.mols.length / 3) & ~3;
  r.settle(0, even, 0, c.mO, c.mH, c.ra, c.rb, c.rc, c.invdt, c.doV && c.v !== undefined, c.virial);
  acc.set(r.accOf(0));
  return even;
}

/** SETTLE for one set of molecules on arrays of nAtoms atoms, copied into an instance of its own. */
export class SimdSettle {
  private readonly L: ReturnType<typeof layout>;
  private readonly f64: Float64Array;
  private readonly ranges: UpdateRanges;

  private constructor(
    inst: Instance,
    readonly nAtoms: number,
    private readonly mols: Int32Array,
  ) {
    this.L = layout(nAtoms);
    new Int32Array(inst.mem.buffer, this.L.mols, mols.length).set(mols);
    this.f64 = new Float64Array(inst.mem.buffer);
    this.ranges = new UpdateRanges(inst, nAtoms);
  }

  /** An instance for these molecules on arrays of nAtoms atoms, or undefined without WebAssembly SIMD. */
  static create(mols: Int32Array, nAtoms: number): SimdSettle | undefined {
    const m = simdModule();
    if (!m) return undefined;
    try {
      return new SimdSettle(new Instance(m, layout(nAtoms).bytes), nAtoms, mols);
    } catch {
      return undefined; // no memory this large for the module: TypeScript then
    }
  }

  /**
   * SETTLE on molecules [0, 4 floor(nMols / 4)) (a multiple of 4: two vectors of two molecules at
   * a time), xNew and v in place; acc (10 numbers) set to their virial sums and clamp count, as
   * settleRange sets them. Returns how many molecules it took. On the arrays of the thread's
   * update workspace it works there in place; other arrays are copied in and out.
   */
  pairs(c: SettleJob, acc: Float64Array): number {
    const ws = active;
    if (ws && c.xOld === ws.xOld && c.xNew === ws.x && (!c.doV || c.v === ws.v)) {
      ws.holdMols(this.mols);
      return runSettle(ws.ranges, c, acc);
    }
    const n3 = 3 * this.nAtoms;
    const f = this.f64;
    const L = this.L;
    f.set(c.xOld.subarray(0, n3), L.xOld / 8);
    f.set(c.xNew.subarray(0, n3), L.x / 8);
    const doV = c.doV && c.v !== undefined;
    if (doV) f.set(c.v!.subarray(0, n3), L.v / 8);
    const even = runSettle(this.ranges, c, acc);
    c.xNew.set(f.subarray(L.x / 8, L.x / 8 + n3));
    if (doV) c.v!.set(f.subarray(L.v / 8, L.v / 8 + n3));
    return even;
  }
}

/** The workspace in use on this thread (one MD run at a time uses it). */
let active: UpdateWorkspace | undefined;
let spare: UpdateWorkspace | undefined;

/**
 * Positions, velocities, old positions, forces and dt/2m per coordinate of an MD run in the
 * module's memory, where kickDrift and SETTLE (SimdSettle.pairs) work in place. One per thread
 * at a time: `take` gives undefined while another run holds it, or without WebAssembly SIMD.
 */
export class UpdateWorkspace {
  readonly x: Float64Array;
  readonly v: Float64Array;
  readonly xOld: Float64Array;
  readonly f: Float64Array;
  readonly h3: Float64Array;
  /** Positions at the last pair search (runtime/md/sanity.ts RunChecks keeps them here). */
  readonly xList: Float64Array;
  /** The molecules whose triples are in the memory now. */
  molsOf: Int32Array | undefined;
  /** This thread's ranges of a split update (on a shared workspace). */
  readonly ranges: UpdateRanges;

  private constructor(
    readonly inst: Instance,
    readonly nAtoms: number,
    readonly L: ReturnType<typeof layout>,
    /** The memory is shared: worker threads can run ranges of the update on it (UpdateRanges.attach). */
    readonly shared: boolean,
  ) {
    this.ranges = new UpdateRanges(inst, nAtoms);
    const b = inst.mem.buffer;
    const n3 = 3 * nAtoms;
    this.x = new Float64Array(b, L.x, n3);
    this.v = new Float64Array(b, L.v, n3);
    this.xOld = new Float64Array(b, L.xOld, n3);
    this.f = new Float64Array(b, L.f, n3);
    this.h3 = new Float64Array(b, L.h, n3);
    this.xList = new Float64Array(b, L.xList, n3);
  }

  /**
   * The thread's workspace for nAtoms atoms, held until release(); undefined while held or
   * without WebAssembly SIMD. `shared`: on a shared memory where this engine has one (else a
   * private one), for worker threads to run ranges of the update on (runtime/parallel/md.ts).
   */
  static take(nAtoms: number, shared = false): UpdateWorkspace | undefined {
    if (active) return undefined;
    const m = simdModule();
    if (!m) return undefined;
    const sm = shared ? sharedModule() : null;
    let ws = spare && spare.nAtoms === nAtoms && spare.shared === (sm !== null) ? spare : undefined;
    if (!ws) {
      spare = undefined;
      const L = layout(nAtoms);
      try {
        if (sm) {
          const pages = Math.max(1, Math.ceil(L.bytes / 65536));
          ws = new UpdateWorkspace(new Instance(sm, L.bytes, new WebAssembly.Memory({ initial: pages, maximum: pages, shared: true })), nAtoms, L, true);
        } else ws = new UpdateWorkspace(new Instance(m, L.bytes), nAtoms, L, false);
      } catch {
        return undefined; // no memory this large for the module (32-bit addresses): TypeScript then
      }
    }
    spare = ws;
    active = ws;
    return ws;
  }

  release(): void {
    if (active === this) active = undefined;
  }

  /** The memory worker threads attach to (UpdateRanges.attach). */
  get memory(): WebAssembly.Memory {
    return this.inst.mem;
  }

  /** Put these molecules' triples into the memory (SETTLE reads them there), unless they are there. */
  holdMols(mols: Int32Array): void {
    if (this.molsOf === mols) return;
    new Int32Array(this.inst.mem.buffer, this.L.mols, mols.length).set(mols);
    this.molsOf = mols;
  }

  /** The sum of the squares of the forces (a bound for the guard: engine.ts forcesWithin). */
  sumSqForces(): number {
    return this.inst.sumSq(this.L.f, 3 * this.nAtoms);
  }

  /**
   * sanity.ts maxDisplacement2(x, xList), the same number, for x the workspace's positions: as a
   * split update measured it on the threads for its ranges (`measured`, taken once), else here.
   */
  maxDisplacement2(x: Float64Array): number {
    if (x !== this.x) throw new Error('UpdateWorkspace.maxDisplacement2: x is not the workspace\'s positions');
    const m = this.measured;
    this.measured = undefined;
    return m ?? this.inst.maxDisp2(this.L.x, this.L.xList, this.nAtoms);
  }

  /**
   * The largest squared displacement since the search that the last split update measured over
   * its ranges (runtime/parallel/md.ts MdWorkers.update with `measure`), for the next
   * maxDisplacement2 call, which takes it; undefined: none.
   */
  measured: number | undefined;

  /** Range k's largest squared displacement as a split update measured it (UpdateRanges.run). */
  measuredOf(k: number): number {
    return new Float64Array(this.inst.mem.buffer, this.L.d2 + 8 * k, 1)[0]!;
  }

  /** engine.ts kick (v += h F) on the workspace's arrays (h3 set by the caller). */
  kick(): void {
    const L = this.L;
    this.inst.kick(L.v, L.h, L.f, 3 * this.nAtoms);
  }

  /**
   * engine.ts kickDrift on the workspace's arrays (h3 set by the caller), xOld kept when `keep`;
   * with `measure`, the largest squared displacement since the search in the same pass (for the
   * next maxDisplacement2 call: no constraints move the atoms after it); with `twice`, kick()
   * first, in the same pass (velocity Verlet's second half kick of the step before).
   */
  kickDrift(lambda: number, scale: number, dt: number, keep: boolean, measure = false, twice = false): void {
    if (measure) this.measured = this.ranges.kickDriftMeasure(0, this.nAtoms, lambda, scale, dt, keep, twice);
    else this.ranges.kickDrift(0, this.nAtoms, lambda, scale, dt, keep, twice);
  }
}

/**
 * The scalars of one split update (UpdateRanges.run), in this order in a shared Float64Array:
 * the kick and drift's lambda, scale, dt and keep (xOld kept: 1), then whether SETTLE runs (1),
 * and SETTLE's mO, mH, ra, rb, rc, invdt, doV (1) and virial (1), then whether each range
 * measures its displacement since the search (1), then whether the kick and drift kicks twice (1:
 * UpdateWorkspace.kickDrift's `twice`).
 */
export const UPDATE_PAR_WORDS = 15;

/** The update's scalars (UPDATE_PAR_WORDS) written into `par`. */
export function updatePar(par: Float64Array, lambda: number, scale: number, dt: number, keep: boolean, job: SettleJob | undefined, measure = false, twice = false): void {
  par[13] = measure ? 1 : 0;
  par[14] = twice ? 1 : 0;
  par[0] = lambda;
  par[1] = scale;
  par[2] = dt;
  par[3] = keep ? 1 : 0;
  par[4] = job ? 1 : 0;
  if (!job) return;
  par[5] = job.mO;
  par[6] = job.mH;
  par[7] = job.ra;
  par[8] = job.rb;
  par[9] = job.rc;
  par[10] = job.invdt;
  par[11] = job.doV && job.v !== undefined ? 1 : 0;
  par[12] = job.virial ? 1 : 0;
}

/**
 * One thread's instance of the module on an update workspace's memory: runs ranges of a step's
 * kick and drift and SETTLE there (split over threads: runtime/parallel/md.ts MdWorkers.update).
 * Each coordinate and each molecule is computed as in the whole call, so positions and
 * velocities are the same bit for bit; each range has its own SETTLE sums.
 */
export class UpdateRanges {
  private readonly L: ReturnType<typeof layout>;

  constructor(
    private readonly inst: Instance,
    readonly nAtoms: number,
  ) {
    this.L = layout(nAtoms);
  }

  /** An instance on a shared workspace's memory (another thread's UpdateWorkspace.memory), or null without the shared module. */
  static attach(memory: WebAssembly.Memory, nAtoms: number): UpdateRanges | null {
    const m = sharedModule();
    return m ? new UpdateRanges(new Instance(m, 0, memory), nAtoms) : null;
  }

  /**
   * Kick and drift atoms [a0, a1); then, if par[4], SETTLE molecules [m0, m1) (a multiple of 4,
   * their atoms among those; the triples in the workspace: holdMols), its sums into range k's;
   * then, if par[13], the atoms' largest squared displacement since the search into range k's
   * slot (UpdateWorkspace.measuredOf; sanity.ts maxDisplacement2's number for these atoms).
   */
  run(par: Float64Array, a0: number, a1: number, m0: number, m1: number, k: number): void {
    const L = this.L;
    const d2 = (): Float64Array => new Float64Array(this.inst.mem.buffer, L.d2 + 8 * k, 1);
    if (par[13] === 1 && par[4] !== 1) {
      // No SETTLE after the drift: the displacement in the same pass.
      d2()[0] = this.kickDriftMeasure(a0, a1, par[0]!, par[1]!, par[2]!, par[3] === 1, par[14] === 1);
      return;
    }
    this.kickDrift(a0, a1, par[0]!, par[1]!, par[2]!, par[3] === 1, par[14] === 1);
    if (par[4] === 1) this.settle(m0, m1, k, par[5]!, par[6]!, par[7]!, par[8]!, par[9]!, par[10]!, par[11] === 1, par[12] === 1);
    if (par[13] === 1) d2()[0] = this.inst.maxDisp2(L.x + 24 * a0, L.xList + 24 * a0, a1 - a0);
  }

  /** engine.ts kickDrift on atoms [a0, a1) of the workspace's arrays (h3 set by the caller), xOld kept when `keep`; kick() on them first with `twice`. */
  kickDrift(a0: number, a1: number, lambda: number, scale: number, dt: number, keep: boolean, twice = false): void {
    const L = this.L;
    const o = 24 * a0;
    this.inst.kickDrift(L.x + o, L.v + o, L.xOld + o, L.h + o, L.f + o, 3 * (a1 - a0), lambda, scale, dt, keep ? 1 : 0, lambda === 1 ? 1 : 0, twice ? 1 : 0);
  }

  /** kickDrift on atoms [a0, a1), returning their largest squared displacement from the positions at the search (maxDisp2's number) after it. */
  kickDriftMeasure(a0: number, a1: number, lambda: number, scale: number, dt: number, keep: boolean, twice = false): number {
    const L = this.L;
    const o = 24 * a0;
    return this.inst.kickDriftMeasure(L.x + o, L.v + o, L.xOld + o, L.h + o, L.f + o, a1 - a0, lambda, scale, dt, keep ? 1 : 0, lambda === 1 ? 1 : 0, twice ? 1 : 0, L.xList + o);
  }

  /** SETTLE (settleRange's numbers) on molecules [m0, m1) (a multiple of 4) of the triples in the memory, in place; the sums into range k's. */
  settle(m0: number, m1: number, k: number, mO: number, mH: number, ra: number, rb: number, rc: number, invdt: number, doV: boolean, virial: boolean): void {
    const L = this.L;
    const M = mO + 2 * mH;
    this.inst.settle(L.mols, L.xOld, L.x, L.v, L.acc + 80 * k, m0, m1, mO / M, mH / M, mH, ra, rb, rc, 2 * rc, invdt, doV ? 1 : 0, virial ? 1 : 0);
  }

  /** Range k's SETTLE sums (SETTLE_ACC_WORDS), as of its last run. */
  accOf(k: number): Float64Array {
    return new Float64Array(this.inst.mem.buffer, this.L.acc + 80 * k, 10);
  }
}
