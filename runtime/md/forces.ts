// Non-bonded forces for the MD engine: a pair of generated variants of the same cluster shape and
// precision (force-only for most steps, force + energy + virial for output steps), the cluster
// layout and pair list rebuilt every nstlist steps, and the cheap per-step position update in
// between (the layout keeps each atom's slot and periodic image until the next rebuild).
import type { MdArgs, Real } from '../../generated/md-nonbonded/ts/abi.ts';
import { variantParams } from '../variants.ts';
import { backend } from '../backends/registry.ts';
import { mdShape, type MdTsModule } from './kernels.ts';
import { MdProblem, type Precision } from './problem.ts';
import type { MdSettings } from './interaction.ts';
import type { MdSystem } from './system.ts';
import { MdInputError } from './errors.ts';
import { addWasmForces, wasmInstance, type WasmMd } from './wasm.ts';
import { MdThreads, MdWasmThreads, type HandBackCount, type MdKick, type MdWorkers } from '../parallel/md.ts';
import { parseThreads, ThreadCountError } from '../parallel/pool.ts';
import type { SettleSplit } from './settle.ts';
import type { LongRangeEnergy, LongRangeForce } from './long-range.ts';
import { listBuffers } from './clusters.ts';

export interface NonbondedEnergies {
  vdw: number;
  coul: number;
  /** Virial -1/2 sum r_ij (x) F_ij, row-major 3x3. */
  virial: Float64Array;
  /** The long-range part's, where a worker computed it with the kernels (overlapLongRange). */
  longRange?: LongRangeEnergy;
}

export interface SearchOptions {
  /** Order of the x/y grid columns in memory (see runtime/md/orderings.ts); default row-major. */
  columnOrder?: (ncx: number, ncy: number) => Int32Array;
}

export interface NonbondedTimers {
  search: number;
  kernel: number;
  searches: number;
  calls: number;
}

/** The variants a NonbondedForce runs: TypeScript modules, or WebAssembly instances (wasm.ts), with their worker threads. */
type Kernels =
  | { kind: 'ts'; F: MdTsModule; E: MdTsModule; par: MdThreads | undefined }
  | { kind: 'wasm'; F: WasmMd; E: WasmMd; par: MdWasmThreads | undefined };

export class NonbondedForce {
  private problem!: MdProblem;
  private args!: Omit<MdArgs, 'f' | 'energy' | 'fshift'>;
  /** Image offset of each padded slot relative to the atom's unwrapped position at the last rebuild. */
  private offset!: Float64Array;
  private fPad!: Real;
  private readonly energy = new Float64Array(2);
  private readonly fshift = new Float64Array(81);
  /** With threads > 1: the summed per-range outputs of energy steps. */
  private fSum: Float64Array | undefined;
  /** The arrays behind offset, fPad and fSum (at least as long). */
  private slotBuffers: { offset: Float64Array; fPad: Real; fSum: Float64Array | undefined } | undefined;
  /** Where a search split over threads joins its list (two generations in turn: `list` is overwritten two searches later). */
  private readonly joinBuffers = listBuffers();
  private readonly energySum = new Float64Array(2);
  private readonly fshiftSum = new Float64Array(81);
  /** The list (MdWasmThreads.setups) whose charges and LJ parameters the workers' shared particle block holds (wasm threads). */
  private xqSetup = -1;
  /** The kick fused into the threads' force sums (kickInSums), if any. */
  private kick: MdKick | undefined;
  /**
   * Whether the last compute() kicked the velocities given to kickInSums (a force-only call whose
   * forces the threads summed); the caller kicks them itself otherwise.
   */
  kicked = false;
  /** The sum of the squares of the last compute()'s forces where the threads summed them (a force-only call), else undefined: the engine's guard takes it instead of a pass of its own. */
  forcesSumSq: number | undefined;

  /**
   * From the next force-only call on, where the worker threads sum the forces (into shared
   * forces: MdWasmThreads.sumInto), they also kick `k.v` with them (velocity Verlet's second
   * half kick, MdKick), unless the long-range part is added after the sums; `kicked` tells
   * whether a call did. undefined: no more kicks.
   */
  kickInSums(k: MdKick | undefined): void {
    this.kick = k;
  }
  readonly timers: NonbondedTimers = { search: 0, kernel: 0, searches: 0, calls: 0 };

  private constructor(
    readonly topology: MdSystem,
    readonly settings: MdSettings,
    readonly rlist: number,
    readonly keyF: string,
    readonly keyE: string,
    /** The force-only and energy variants on this thread, and the worker threads (threads > 1). */
    private readonly kernels: Kernels,
    readonly M: number,
    readonly N: number,
    readonly precision: Precision,
    readonly full: boolean,
    private readonly search: SearchOptions,
  ) {}

  /** Threads computing the forces (this one included). */
  get threads(): number {
    return this.kernels.par?.threads ?? 1;
  }

  /**
   * keyF computes forces (output f or better), keyE forces, energies and shift forces (output fev).
   * Both must have the same cluster shape, precision and list type.
   */
  static async create(o: {
    topology: MdSystem;
    settings: MdSettings;
    rlist: number;
    keyF: string;
    keyE: string;
    search?: SearchOptions;
    /**
     * Threads for the kernels (default 1: this thread only). With n > 1, n - 1 worker threads and
     * this one each compute a range of i-entries; close() ends them.
     */
    threads?: number | string;
    /**
     * With threads, WebAssembly variants: a fixed split of the list over the threads, so the same
     * numbers come out run after run. Default: the threads claim chunks of the list as they go
     * (faster on a busy host; the forces equal one thread's to round-off, which varies per run).
     */
    reproducible?: boolean;
  }): Promise<NonbondedForce> {
    let threads: number;
    try {
      threads = parseThreads(o.threads ?? 1, 'threads');
    } catch (e) {
      if (e instanceof ThreadCountError) throw new MdInputError(e.message);
      throw e;
    }
    const [sf, se] = [await mdShape(o.keyF), await mdShape(o.keyE)];
    if (se.output !== 'fev') throw new MdInputError(`variant ${o.keyE} computes "${se.output}"; energy steps need output fev`);
    // TypeScript and WebAssembly variants share the kernel interface (wasm.ts adapts the latter).
    if (sf.M !== se.M || sf.N !== se.N || sf.precision !== se.precision || sf.target !== se.target || !['ts', 'wasm'].includes(sf.target)) {
      throw new MdInputError(`variants ${o.keyF} and ${o.keyE} must both be TypeScript (or both WebAssembly) with the same cluster shape and precision`);
    }
    const full = (await variantParams(o.keyF)).list === 'full';
    if (((await variantParams(o.keyE)).list === 'full') !== full) throw new MdInputError(`variants ${o.keyF} and ${o.keyE} use different list types (half/full)`);
    let kernels: Kernels;
    if (sf.target === 'wasm') {
      const [F, E] = [await wasmInstance(o.keyF), await wasmInstance(o.keyE)];
      kernels = { kind: 'wasm', F, E, par: threads > 1 ? await MdWasmThreads.create(threads, o.keyF, o.keyE, o.reproducible ?? false) : undefined };
    } else {
      const ts = backend('ts');
      const F = (await ts.load(o.keyF)) as MdTsModule;
      const E = o.keyE === o.keyF ? F : ((await ts.load(o.keyE)) as MdTsModule);
      kernels = { kind: 'ts', F, E, par: threads > 1 ? await MdThreads.create(threads, o.keyF, o.keyE) : undefined };
    }
    return new NonbondedForce(o.topology, o.settings, o.rlist, o.keyF, o.keyE, kernels, sf.M, sf.N, sf.precision, full, o.search ?? {});
  }

  /**
   * Compute `lr` on a worker thread with every force call from now on (WebAssembly variants on
   * more than one thread, claiming chunks, not `reproducible`): compute() then adds its forces
   * after the short-range ones, as lr.compute would, and returns its energy and virial on energy
   * steps (`longRange`, through lr.fromMesh). The worker prepares the same mesh variant
   * (lr.recipe(), runtime/pme/prepared.ts): the same numbers from the same positions. Resolves to
   * whether it does; if not, the caller keeps calling lr.
   */
  async overlapLongRange(lr: LongRangeForce): Promise<boolean> {
    const par = this.kernels.kind === 'wasm' ? this.kernels.par : undefined;
    const recipe = lr.recipe?.();
    if (!par || !recipe || !lr.fromMesh) return false;
    if (await par.overlapLongRange(recipe, this.topology.x.length / 3)) this.longRange = lr;
    return this.longRangeOnThreads;
  }

  /** The long-range part computed on a worker (overlapLongRange). */
  private longRange: LongRangeForce | undefined;

  /** Whether compute() includes the long-range part (overlapLongRange). */
  get longRangeOnThreads(): boolean {
    return this.longRange !== undefined;
  }

  /** SETTLE over the worker threads (undefined on one thread): for the engine's constraint calls. */
  get settleSplit(): SettleSplit | undefined {
    return this.kernels.par?.settle;
  }

  /** Ranges of SETTLE calls run on the worker threads so far (0 on one thread). */
  get settleOnWorkers(): number {
    return this.kernels.par?.settleOnWorkers ?? 0;
  }

  /** The kick and drift and SETTLE over the worker threads, on a shared update workspace (undefined on one thread). */
  get updateSplit(): MdWorkers['update'] | undefined {
    return this.kernels.par?.update;
  }

  /** Ranges of split updates run on the worker threads so far (0 on one thread). */
  get updateOnWorkers(): number {
    return this.kernels.par?.updateOnWorkers ?? 0;
  }

  /**
   * Force-only calls with the threads' sums so far, and how many of them handed lines back
   * between the cores (runtime/parallel/md.ts HandBackChoice); undefined on one thread and with
   * TypeScript variants.
   */
  get handBack(): HandBackCount | undefined {
    const par = this.kernels.kind === 'wasm' ? this.kernels.par : undefined;
    return par && { on: par.handBack.onCalls, calls: par.handBack.calls };
  }

  /** End the worker threads (if any); safe to call more than once. */
  async close(): Promise<void> {
    await this.kernels.par?.close();
  }

  /** Grid, cluster and search again from positions x (any periodic image). */
  rebuild(x: Float64Array): void {
    const t0 = performance.now();
    const sys: MdSystem = { ...this.topology, x };
    // With worker threads the clustering and the pair search are split over them too (the same layout and list).
    const split = this.kernels.par?.search;
    const cluster = this.kernels.par?.cluster;
    // The last layout's atom order: atoms moved little since, so each column is nearly z-sorted in it.
    const orderHint = this.problem?.layout.atomOf;
    // The particles' packing and the image offsets need the layout only: with worker threads,
    // this thread makes them while the workers start the search.
    const meanwhile = (p: MdProblem): void => {
      p.particles(this.precision);
      this.writeOffsets(p.layout, x);
    };
    this.problem = new MdProblem(sys, this.settings, this.M, this.N, this.rlist, { full: this.full, columnOrder: this.search.columnOrder, cluster, split, join: split && this.joinBuffers, orderHint, meanwhile });
    this.args = this.problem.args(this.precision);
    const L = this.problem.layout;
    const off = this.offset!;
    // TS threads share this.args in place: it is the problem's cached object, so finish() sees the shared xq.
    if (this.kernels.kind === 'wasm') this.kernels.par?.setup(this.args, L.nPadded, L.slotOf, L.atomOf, off, x);
    else this.kernels.par?.setup(this.args, L.nPadded);
    this.timers.search += performance.now() - t0;
    this.timers.searches++;
  }

  /** The image offsets of the layout's slots (its position minus its atom's in x): positions() adds them to x. */
  private writeOffsets(L: MdProblem['layout'], x: Float64Array): void {
    // The per-slot buffers are kept while the padded size stays (it seldom changes between
    // searches): offsets are written for every real slot and read for real slots only, the
    // force buffers are cleared or overwritten before each use.
    const np3 = 3 * L.nPadded;
    if (this.offset?.length !== np3) {
      // Views of exactly the padded size on arrays kept while they are large enough (10% spare):
      // fresh pages cost more than the loops over them on some hosts (the LJ fluid's padded size
      // changes at most searches; 2.2 ms of a 28 ms search on 2 threads went to new arrays here).
      const b = this.slotBuffers;
      if (!b || b.offset.length < np3) {
        const cap = Math.ceil(1.1 * np3 / 3) * 3;
        this.slotBuffers = {
          // read by the worker threads too (wasm: each writes its own positions)
          offset: this.kernels.par ? new Float64Array(new SharedArrayBuffer(8 * cap)) : new Float64Array(cap),
          fPad: this.precision === 'f64' ? new Float64Array(cap) : new Float32Array(cap),
          fSum: this.kernels.par || this.kernels.kind === 'wasm' ? new Float64Array(cap) : undefined,
        };
      }
      const k = this.slotBuffers!;
      this.offset = k.offset.subarray(0, np3);
      this.fPad = k.fPad.subarray(0, np3);
      this.fSum = k.fSum?.subarray(0, np3);
    }
    const off = this.offset;
    const { atomOf, x: lx } = L;
    for (let p = 0; p < L.nPadded; p++) {
      const a = atomOf[p]!;
      if (a < 0) continue;
      off[3 * p] = lx[3 * p]! - x[3 * a]!;
      off[3 * p + 1] = lx[3 * p + 1]! - x[3 * a + 1]!;
      off[3 * p + 2] = lx[3 * p + 2]! - x[3 * a + 2]!;
    }
  }

  /** The current pair list. With worker threads its arrays are reused: read it before the search after next. */
  get list() {
    return this.problem.list;
  }

  get layout() {
    return this.problem.layout;
  }

  /**
   * Forces on the atoms at positions x (the same periodic images as at the last rebuild, moved),
   * written into f (3 per atom). With energies, also returns V_LJ, V_Coulomb (with self terms) and
   * the virial. `kick` false: the threads summing the forces leave out kickInSums' kick this call
   * (`kicked` is then false).
   */
  compute(x: Float64Array, f: Float64Array, energies: boolean, kick = true): NonbondedEnergies | null {
    const t0 = performance.now();
    this.kicked = false;
    this.forcesSumSq = undefined;
    const k = this.kernels;
    if (k.kind === 'wasm') {
      const res = this.computeWasm(k, x, f, energies, kick);
      this.timers.kernel += performance.now() - t0;
      this.timers.calls++;
      return res;
    }
    const L = this.problem.layout;
    this.writeXq(x);
    let res: NonbondedEnergies | null = null;
    if (k.par) {
      res = this.computeThreaded(k.par, energies ? k.E : k.F, f, energies);
    } else if (energies) {
      this.fPad.fill(0);
      this.energy.fill(0);
      this.fshift.fill(0);
      const out = { f: this.fPad, energy: this.energy, fshift: this.fshift };
      k.E.kernel({ ...this.args, ...out });
      const r = this.problem.finish(this.precision, out);
      f.set(r.f);
      res = { vdw: r.vdw, coul: r.coul, virial: r.virial };
    } else {
      this.fPad.fill(0);
      k.F.kernel({ ...this.args, f: this.fPad, energy: this.energy, fshift: this.fshift });
      const fp = this.fPad;
      const slot = L.slotOf;
      for (let a = 0; a < slot.length; a++) {
        const p = 3 * slot[a]!;
        f[3 * a] = fp[p]!;
        f[3 * a + 1] = fp[p + 1]!;
        f[3 * a + 2] = fp[p + 2]!;
      }
    }
    this.timers.kernel += performance.now() - t0;
    this.timers.calls++;
    return res;
  }

  /** compute() over the threads: each range into its own outputs, summed here in range order. */
  private computeThreaded(par: MdThreads, mod: MdTsModule, f: Float64Array, energies: boolean): NonbondedEnergies | null {
    const chunks = par.run((a) => mod.kernel(a), energies);
    const nc = chunks.length;
    const slot = this.problem.layout.slotOf;
    if (!energies) {
      for (let a = 0; a < slot.length; a++) {
        const p = 3 * slot[a]!;
        let fx = 0;
        let fy = 0;
        let fz = 0;
        for (let c = 0; c < nc; c++) {
          const fc = chunks[c]!.f;
          fx += fc[p]!;
          fy += fc[p + 1]!;
          fz += fc[p + 2]!;
        }
        f[3 * a] = fx;
        f[3 * a + 1] = fy;
        f[3 * a + 2] = fz;
      }
      return null;
    }
    const fs = this.fSum!;
    fs.set(chunks[0]!.f);
    for (let c = 1; c < nc; c++) {
      const fc = chunks[c]!.f;
      for (let i = 0; i < fs.length; i++) fs[i]! += fc[i]!;
    }
    return this.finishSums(fs, chunks, f);
  }

  /** The packed kernel positions (this.args.xq) from x: each real slot's atom plus its image offset. */
  private writeXq(x: Float64Array): void {
    const L = this.problem.layout;
    const xq = this.args.xq;
    const off = this.offset;
    for (let p = 0; p < L.nPadded; p++) {
      const a = L.atomOf[p]!;
      if (a < 0) continue;
      xq[4 * p] = x[3 * a]! + off[3 * p]!;
      xq[4 * p + 1] = x[3 * a + 1]! + off[3 * p + 1]!;
      xq[4 * p + 2] = x[3 * a + 2]! + off[3 * p + 2]!;
    }
  }

  /** An energy step's end: energies and shift forces summed over the ranges' outputs, then finished (virial) with the summed padded forces `fs`. */
  private finishSums(fs: Float64Array, outs: readonly { energy: ArrayLike<number>; fshift: ArrayLike<number> }[], f: Float64Array): NonbondedEnergies {
    const es = this.energySum;
    const ss = this.fshiftSum;
    es.fill(0);
    ss.fill(0);
    for (const c of outs) {
      for (let k = 0; k < 2; k++) es[k]! += c.energy[k]!;
      for (let k = 0; k < 81; k++) ss[k]! += c.fshift[k]!;
    }
    const r = this.problem.finish(this.precision, { f: fs, energy: es, fshift: ss });
    f.set(r.f);
    return { vdw: r.vdw, coul: r.coul, virial: r.virial };
  }

  /**
   * compute() with WebAssembly variants: positions go straight from x into the instance's memory
   * (and to the workers as one block copy), forces straight from the wasm layout into f. The
   * outputs of the threads are summed in thread order.
   */
  private computeWasm(w: Extract<Kernels, { kind: 'wasm' }>, x: Float64Array, f: Float64Array, energies: boolean, kick: boolean): NonbondedEnergies | null {
    const inst = energies ? w.E : w.F;
    const L = this.problem.layout;
    const args = this.args;
    inst.bind(args);
    const par = w.par;
    if (par) {
      // Each thread writes the positions into its own instance, from a shared copy of x (the
      // workers) or x (this thread): writing them once into a shared block that every thread
      // then copied cost twice as long, its cache lines taken back from the other core's cache
      // (LJ fluid, f64: 0.6-1.0 ms per call). The block as of the search (charges, LJ
      // parameters, dummies) goes to the workers once per list, from this thread's instance.
      if (this.xqSetup !== par.setups) {
        par.xq.set(inst.xqBlock);
        this.xqSetup = par.setups;
      }
      // x itself where the workers read it (a shared update workspace's: MdWasmThreads.setup).
      if (par.x !== x) par.x.set(x);
      const mesh = par.longRange;
      if (mesh && mesh.x !== par.x) mesh.x.set(x);
      // Force-only calls on forces in shared memory (the update workspace's): the threads add the
      // workers' forces, each for a range of atoms (MdWasmThreads.sumInto).
      const sum = !energies && par.sumInto(f, mesh ? undefined : this.kick);
      const mine = (): void => {
        // With the sums over the threads (x then in shared memory, each thread updating its
        // atoms' positions), the other threads' positions handed back where that pays
        // (WasmMd.positions, HandBackChoice).
        inst.positions(x, L.atomOf, this.offset, par.handingBack ? par.ownCoords : undefined);
        par.share(inst, args.params);
        // This thread's forces into atom order while each worker gathers its own (force-only
        // steps); the workers' are added after, in worker order: the same f64 sums, in the same
        // order, as summing all blocks at the end. With the sums over the threads, into the
        // shared array they add from (in the kernel's precision), not into f.
        if (!energies) inst.forcesToAtoms(L.slotOf, sum ? par.ownAtoms : f);
      };
      par.run(energies, sum ? () => par.sumHere(mine, kick) : mine, sum, kick);
      this.kicked = sum && !mesh && this.kick !== undefined && kick;
      this.forcesSumSq = sum && !mesh ? par.sumSq() : undefined;
      if (!energies) {
        if (!sum) for (const c of par.chunks) addAtomForces(f, c.fAtoms);
        if (mesh) addAtomForces(f, mesh.f);
        return null;
      }
    } else {
      inst.positions(x, L.atomOf, this.offset);
      inst.run(args.params, 0, args.ci.length >> 2);
    }
    if (!energies) {
      // one thread: the threaded force-only steps returned above
      inst.forcesToAtoms(L.slotOf, f);
      return null;
    }
    const blocks = [inst.forces, ...(par?.chunks ?? []).map((c) => c.f)];
    // Energy steps: padded forces, the positions as the kernel saw them (virial), and the sums.
    this.writeXq(x);
    const fs = this.fSum!;
    fs.fill(0);
    for (const b of blocks) addWasmForces(b, fs);
    const e = this.finishSums(fs, [{ energy: inst.energy, fshift: inst.fshift }, ...(par?.chunks ?? [])], f);
    const mesh = par?.longRange;
    if (!mesh) return e;
    addAtomForces(f, mesh.f);
    return { ...e, longRange: this.longRange!.fromMesh!(mesh.out[0]!, mesh.out.subarray(1, 10)) };
  }
}

/**
 * f += g (3 per atom), per component: the workers' gathered forces, and the long-range ones as
 * lr.compute(x, f) adds them (its mesh adds each atom's force once). Three components a time:
 * 1.7x faster than one element a time here.
 */
function addAtomForces(f: Float64Array, g: Float64Array | Float32Array): void {
  for (let i = 0; i < f.length; i += 3) {
    f[i] += g[i]!;
    f[i + 1] += g[i + 1]!;
    f[i + 2] += g[i + 2]!;
  }
}
