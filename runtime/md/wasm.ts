// md-nonbonded WebAssembly SIMD variants (templates/wasm/md-nonbonded): the kernel works on a
// layout of 4-atom blocks in linear memory, one block as x[4] y[4] z[4] q[4] sqrtC6[4] sqrtC12[4]
// and forces fx[4] fy[4] fz[4], in the variant's precision (f32 kernels: f32x4, M x 4 clusters;
// f64 kernels: f64x2, M x 2 and M x 4; the same word indices in a Float32Array or Float64Array
// view), and the Ewald table, if any, as F, F', V, V' per point. WasmMd owns one instance and its memory: bind() copies
// a problem's list and particle data in (once per pair search), positions() writes moved
// positions straight from the engine's f64 coordinates, run() computes a range of i-entries, and
// the outputs are read from memory. loadWasmKernel wraps the same steps behind the TS kernel
// interface (`kernel(a: MdArgs)`, outputs accumulated), so a wasm variant runs wherever a TS one
// does (verification, tuning).
import type { MdArgs } from '../../generated/md-nonbonded/ts/abi.ts';
import { backend } from '../backends/registry.ts';
import type { MdProblem } from './problem.ts';
import { kernelTransfers, type KernelTransfers } from './settle-simd.ts';
import type { MdResult } from './reference.ts';
import { checkShape, mdShape, type MdTsModule } from './kernels.ts';
import type { Precision } from './problem.ts';

/** Words (reals of the variant's precision) per 4-atom block: coordinates, charges, LJ parameters; forces (generator/families/md-nonbonded.ts). */
export const WASM_XQ_WORDS = 24;
export const WASM_F_WORDS = 12;
const PAGE = 65536;
/**
 * Where a kernel's scratch may start (its argument sb): constants and i-atom splats that its j loop
 * reads from memory (templates/wasm/md-nonbonded/kernel.wat.hbs), 2,048 bytes from sb. Four bases
 * 1 KiB apart put those reads at every position of the 4 KiB whose low 12 address bits a load is
 * compared on with the stores before it (the stack spills of the kernel's i-forces among them).
 * At some stack positions the two share those bits, and the water kernel ran 1.3-2x slower
 * (4K aliasing, docs/performance-log.md); a WasmMd then moves to the next base (WasmMd.timed).
 */
export const SCRATCH_BASES = [0, 1024, 2048, 3072] as const;
/** The kernels' scratch from its base (generator/families/md-nonbonded.ts WASM_SCRATCH_BYTES). */
const KERNEL_SCRATCH_BYTES = 2048;
const SCRATCH_BYTES = SCRATCH_BASES[SCRATCH_BASES.length - 1] + KERNEL_SCRATCH_BYTES;
/** A call with fewer j-entries does not count towards moving the scratch base (too short to time). */
const SCRATCH_MIN_ENTRIES = 4096;
/**
 * Calls are judged in windows of SCRATCH_WINDOW (counted calls): the window's fastest time per
 * j-entry (a busy host only adds time, so the minimum sees through it) SCRATCH_SLOW times the
 * fastest window yet moves the base.
 */
const SCRATCH_WINDOW = 8;
const SCRATCH_SLOW = 1.25;

type KernelFn = (
  nci: number, ciP: number, cjP: number, exP: number, xP: number, fP: number, svP: number, eP: number, fsP: number, tabP: number,
  rc2: number, sh6: number, sh12: number, krf: number, crf: number, beta: number, shEw: number, tabScale: number, sb: number,
) => void;

/** A Float32Array or Float64Array view of a wasm memory, by the variant's precision. */
export type WasmReals = Float32Array | Float64Array;

/** The list arrays a WasmMd holds: the problem's i-entries, j-entries, masks and shift vectors. */
export type WasmList = Pick<MdArgs, 'ci' | 'cj' | 'excl' | 'shiftVec' | 'params'>;

interface Layout {
  nc: number;
  xP: number;
  fP: number;
  ciP: number;
  cjP: number;
  exP: number;
  svP: number;
  eP: number;
  fsP: number;
  tabP: number;
  /** Ewald table points held (0: none). */
  tabN: number;
  /** The transfers' arrays (per slot, at most 4 nc atoms): x (3 f64), atomOf (i32), offsets (3 f64), slotOf (i32), forces in atom order (3 f64). */
  xaP: number;
  aoP: number;
  ofP: number;
  soP: number;
  faP: number;
  bytes: number;
}

const up16 = (n: number): number => (n + 15) & ~15;
/** 4-atom blocks holding `nPadded` slots (2 x 2 clusters may leave the last block half used). */
export const blocksOf = (nPadded: number): number => (nPadded + 3) >> 2;

function layoutFor(nc: number, a: Pick<MdArgs, 'ci' | 'cj' | 'excl'>, bytes: number, tabN: number): Layout {
  let o = SCRATCH_BYTES;
  const take = (n: number): number => {
    const at = o;
    o = up16(o + n);
    return at;
  };
  const xP = take(nc * WASM_XQ_WORDS * bytes);
  const fP = take(nc * WASM_F_WORDS * bytes);
  const ciP = take(4 * a.ci.length);
  const cjP = take(4 * a.cj.length);
  const exP = take(4 * a.excl.length);
  const svP = take(bytes * 81);
  const eP = take(16);
  const fsP = take(8 * 81);
  const tabP = take(4 * bytes * tabN);
  const slots = 4 * nc;
  const xaP = take(24 * slots);
  const aoP = take(4 * slots);
  const ofP = take(24 * slots);
  const soP = take(4 * slots);
  const faP = take(24 * slots);
  return { nc, xP, fP, ciP, cjP, exP, svP, eP, fsP, tabP, tabN, xaP, aoP, ofP, soP, faP, bytes: o };
}

/** One instance of a wasm md-nonbonded variant and its memory. */
export class WasmMd {
  private L: Layout | undefined;
  /** The list arrays and LJ parameters last copied in (by identity). */
  private bound: { list: WasmList; ljp?: MdArgs['ljp'] } | undefined;
  /** The memory as reals of the variant's precision, and as f64 (energies, shift forces). */
  private mr: WasmReals;
  private f64 = new Float64Array(0);
  /** Bytes per real. */
  private readonly rb: number;
  /** The per-step transfers in WebAssembly on this memory (made on first use; null: the TypeScript loops). */
  private xfer: KernelTransfers | null | undefined;
  /**
   * The slot maps and image offsets in memory for the transfers: they change with the list only
   * (a pair search), so they are copied in once per bound list (cleared when one is bound).
   */
  private maps: { atomOf?: Int32Array; off?: Float64Array; slotOf?: Int32Array } = {};
  /** The memory as i32 (the i-entries' j ranges). */
  private i32 = new Int32Array(0);
  /** SCRATCH_BASES index of the kernel's scratch, and what moves it (timed). */
  private sb = 0;
  private bestMsPerEntry = Infinity;
  private windowMin = Infinity;
  private windowCalls = 0;
  /** The first windows try each base in turn, then the fastest is taken (null: done). */
  private calibration: number[] | null = [];
  /** Times the scratch base moved (tests, benches). */
  scratchMoves = 0;

  private constructor(
    private readonly memory: WebAssembly.Memory,
    private readonly kernel: KernelFn,
    /** The kernel's precision: f32 (f32x4) or f64 (f64x2). */
    readonly precision: Precision,
  ) {
    this.rb = precision === 'f64' ? 8 : 4;
    this.mr = precision === 'f64' ? new Float64Array(0) : new Float32Array(0);
  }

  static async instantiate(bytes: Uint8Array | WebAssembly.Module, precision: Precision = 'f32'): Promise<WasmMd> {
    const module = bytes instanceof WebAssembly.Module ? bytes : await WebAssembly.compile(bytes as Uint8Array<ArrayBuffer>);
    const instance = await WebAssembly.instantiate(module, {});
    const ex = instance.exports as { memory: WebAssembly.Memory; kernel: KernelFn };
    return new WasmMd(ex.memory, ex.kernel, precision);
  }

  /** Views of the whole memory (renewed after it grows). */
  private views(): void {
    if (this.f64.buffer !== this.memory.buffer) {
      this.mr = this.precision === 'f64' ? new Float64Array(this.memory.buffer) : new Float32Array(this.memory.buffer);
      this.f64 = new Float64Array(this.memory.buffer);
      this.i32 = new Int32Array(this.memory.buffer);
    }
  }

  /** Index of byte offset `o` in the reals view. */
  private w(o: number): number {
    return this.rb === 8 ? o >> 3 : o >> 2;
  }

  /**
   * Hold this list for `nPadded` particles (a multiple of 2; the last 4-atom block may be half
   * used, by no cluster of the list): lay out memory and copy the list in,
   * unless it is the one already held (same arrays). Returns whether anything was copied.
   */
  bindList(list: WasmList, nPadded: number): boolean {
    const b = this.bound;
    if (b && b.list.ci === list.ci && b.list.cj === list.cj && b.list.excl === list.excl && b.list.shiftVec === list.shiftVec && b.list.params.tabF === list.params.tabF && this.L!.nc === blocksOf(nPadded)) return false;
    const tab = list.params.tabF;
    const tabN = tab.length > 1 ? tab.length - 1 : 0;
    const L = layoutFor(blocksOf(nPadded), list, this.rb, tabN);
    const need = Math.ceil(L.bytes / PAGE);
    const have = this.memory.buffer.byteLength / PAGE;
    if (need > have) this.memory.grow(need - have);
    this.views();
    const buf = this.memory.buffer;
    new Int32Array(buf, L.ciP, list.ci.length).set(list.ci);
    new Int32Array(buf, L.cjP, list.cj.length).set(list.cj);
    new Uint32Array(buf, L.exP, list.excl.length).set(list.excl);
    const sv = list.shiftVec;
    const mr = this.mr;
    for (let k = 0; k < 81; k++) mr[this.w(L.svP) + k] = sv[k]!;
    // Ewald table: per point k, F(k), F(k+1) - F(k), V(k), V(k+1) - V(k) (one or two vector loads per lane)
    const tv = list.params.tabV;
    for (let k = 0, o = this.w(L.tabP); k < tabN; k++, o += 4) {
      mr[o] = tab[k]!;
      mr[o + 1] = tab[k + 1]! - tab[k]!;
      mr[o + 2] = tv[k]!;
      mr[o + 3] = tv[k + 1]! - tv[k]!;
    }
    this.L = L;
    this.bound = { list };
    this.maps = {};
    return true;
  }

  /** bindList, plus charges and LJ parameters from the problem's packed arrays (when not held yet). */
  bind(a: Omit<MdArgs, 'f' | 'energy' | 'fshift'>): void {
    const np = a.xq.length >> 2;
    if (np % 2 !== 0) throw new Error(`wasm kernel: ${np} padded particles is not a whole number of 2-atom clusters`);
    const fresh = this.bindList(a, np);
    if (!fresh && this.bound!.ljp === a.ljp) return;
    this.setXq(a.xq);
    const mf = this.mr;
    const x0 = this.w(this.L!.xP);
    const ljp = a.ljp;
    for (let p = 0; p < np; p++) {
      const b = x0 + 24 * (p >> 2) + (p & 3);
      mf[b + 16] = ljp[2 * p]!;
      mf[b + 20] = ljp[2 * p + 1]!;
    }
    this.bound!.ljp = a.ljp;
  }

  /** Copy x, y, z, q of every padded particle from an MdArgs xq array (4 per particle). */
  setXq(xq: MdArgs['xq']): void {
    const mf = this.mr;
    const x0 = this.w(this.L!.xP);
    const np = xq.length >> 2;
    for (let p = 0; p < np; p++) {
      const b = x0 + 24 * (p >> 2) + (p & 3);
      mf[b] = xq[4 * p]!;
      mf[b + 4] = xq[4 * p + 1]!;
      mf[b + 8] = xq[4 * p + 2]!;
      mf[b + 12] = xq[4 * p + 3]!;
    }
  }

  /**
   * Positions of the atoms' slots: slot p holds atom atomOf[p] at x[atom] + off[p] (rounded to
   * the kernel's precision once); dummy slots keep theirs.
   *
   * `own` (threads on a shared x: runtime/parallel/md.ts): this thread's range [i0, i1) of x's
   * numbers, which it writes itself in the next update; the others' are written back into x from
   * the copy taken here, the same bits, so that their cache lines leave this core modified rather
   * than shared. The other core's next write to a line this core only read waits for the copy
   * here to be invalidated, about 10x a private write on a 2-vCPU EPYC VM in some states; after
   * the write-back it takes the line over as fast as a private write (docs/performance-log.md,
   * "handing lines back"). Nothing else writes x during a force call, so the write-back races
   * with nothing but reads of the same values.
   */
  positions(x: Float64Array, atomOf: Int32Array, off: Float64Array, own?: readonly [number, number]): void {
    const L = this.L!;
    const t = this.transfers();
    if (!t || atomOf.length > 4 * L.nc) {
      writePositions(this.mr, this.w(L.xP), x, atomOf, off);
      return;
    }
    // x copied in (atomOf and the offsets once per list), then the gather in WebAssembly: 2.5-3x
    // the TypeScript loop (water, LJ fluid).
    const buf = this.memory.buffer;
    const copy = new Float64Array(buf, L.xaP, x.length);
    if (own) {
      // this thread's own numbers first (its lines, before the others hand theirs back), then the rest, then the rest back
      const [i0, i1] = own;
      copy.subarray(i0, i1).set(x.subarray(i0, i1));
      copy.subarray(0, i0).set(x.subarray(0, i0));
      copy.subarray(i1).set(x.subarray(i1));
      x.subarray(0, i0).set(copy.subarray(0, i0));
      x.subarray(i1).set(copy.subarray(i1));
    } else copy.set(x);
    const m = this.maps;
    if (m.atomOf !== atomOf || m.off !== off) {
      new Int32Array(buf, L.aoP, atomOf.length).set(atomOf);
      new Float64Array(buf, L.ofP, off.length).set(off);
      m.atomOf = atomOf;
      m.off = off;
    }
    t.slots(L.xaP, L.aoP, L.ofP, L.xP, atomOf.length);
  }

  /**
   * f (3 per atom) = the forces of the last run, atom a's from slot slotOf[a]. In f64, or in f32
   * from an f32 kernel (its own numbers, which f64 holds exactly: half the bytes to hand over).
   */
  forcesToAtoms(slotOf: Int32Array, f: Float64Array | Float32Array): void {
    const L = this.L!;
    const t = this.transfers();
    const narrow = f instanceof Float32Array;
    if (narrow && this.precision !== 'f32') throw new Error('wasm kernel: f32 forces in atom order come from f32 kernels only');
    if (!t || slotOf.length > 4 * L.nc) {
      gatherWasmForces(this.forces, slotOf, f);
      return;
    }
    const buf = this.memory.buffer;
    if (this.maps.slotOf !== slotOf) {
      new Int32Array(buf, L.soP, slotOf.length).set(slotOf);
      this.maps.slotOf = slotOf;
    }
    if (narrow) {
      t.atoms32!(L.fP, L.soP, L.faP, slotOf.length);
      f.set(new Float32Array(buf, L.faP, 3 * slotOf.length));
      return;
    }
    t.atoms(L.fP, L.soP, L.faP, slotOf.length);
    f.set(new Float64Array(buf, L.faP, 3 * slotOf.length));
  }

  private transfers(): KernelTransfers | null {
    if (this.xfer === undefined) this.xfer = kernelTransfers(this.memory, this.precision);
    return this.xfer;
  }

  /** The particle data in memory (WASM_XQ_WORDS per cluster): read it, or set() another copy's. */
  get xqBlock(): WasmReals {
    const L = this.L!;
    return this.mr.subarray(this.w(L.xP), this.w(L.xP) + WASM_XQ_WORDS * L.nc);
  }

  /** Forces of the last run (WASM_F_WORDS per cluster: fx[4] fy[4] fz[4]). */
  get forces(): WasmReals {
    const L = this.L!;
    return this.mr.subarray(this.w(L.fP), this.w(L.fP) + WASM_F_WORDS * L.nc);
  }

  /** V_LJ and V_Coulomb of the last run. */
  get energy(): Float64Array {
    return this.f64.subarray(this.L!.eP >> 3, (this.L!.eP >> 3) + 2);
  }

  /** Shift forces of the last run (27 x 3). */
  get fshift(): Float64Array {
    return this.f64.subarray(this.L!.fsP >> 3, (this.L!.fsP >> 3) + 81);
  }

  /** Zero the outputs and run the kernel over i-entries [e0, e1) of the bound list. */
  run(params: MdArgs['params'], e0: number, e1: number): void {
    this.zero();
    this.accumulate(params, e0, e1);
  }

  /** Zero the outputs: forces, energies, shift forces. */
  zero(): void {
    const L = this.L!;
    this.mr.fill(0, this.w(L.fP), this.w(L.fP) + WASM_F_WORDS * L.nc);
    this.f64.fill(0, L.eP >> 3, (L.eP >> 3) + 2);
    this.f64.fill(0, L.fsP >> 3, (L.fsP >> 3) + 81);
  }

  /** Run the kernel over i-entries [e0, e1) of the bound list, adding to the outputs. */
  accumulate(params: MdArgs['params'], e0: number, e1: number): void {
    if (e1 <= e0) return;
    const L = this.L!;
    const entries = this.i32[(L.ciP >> 2) + 4 * (e1 - 1) + 3]! - this.i32[(L.ciP >> 2) + 4 * e0 + 2]!;
    const t0 = performance.now();
    this.kernel(e1 - e0, L.ciP + 16 * e0, L.cjP, L.exP, L.xP, L.fP, L.svP, L.eP, L.fsP, L.tabP,
      params.rc2, params.sh6, params.sh12, params.krf, params.crf, params.beta, params.shEwald, params.tabScale, SCRATCH_BASES[this.sb]);
    this.timed(performance.now() - t0, entries);
  }

  /**
   * A kernel call of `entries` j-entries took `ms`. The first SCRATCH_BASES.length windows of
   * SCRATCH_WINDOW such calls run at each base in turn, and the base of the fastest window (its
   * fastest call per j-entry) is kept. After that, a window whose fastest call is SCRATCH_SLOW
   * times the fastest window yet moves the scratch to the next base: the kernel's stack position
   * changes when its JavaScript callers are optimized. The forces do not depend on the base, bit
   * for bit.
   */
  timed(ms: number, entries: number): void {
    if (entries < SCRATCH_MIN_ENTRIES) return;
    this.windowMin = Math.min(this.windowMin, ms / entries);
    if (++this.windowCalls < SCRATCH_WINDOW) return;
    const m = this.windowMin;
    this.windowMin = Infinity;
    this.windowCalls = 0;
    this.bestMsPerEntry = Math.min(this.bestMsPerEntry, m);
    const cal = this.calibration;
    if (cal) {
      cal.push(m);
      if (cal.length < SCRATCH_BASES.length) this.sb = cal.length;
      else {
        this.sb = cal.indexOf(Math.min(...cal));
        this.calibration = null;
      }
    } else if (m > SCRATCH_SLOW * this.bestMsPerEntry) {
      this.sb = (this.sb + 1) % SCRATCH_BASES.length;
      this.scratchMoves++;
    }
  }

  /** Try every base again from the first (SCRATCH_BASES), and forget the times so far. */
  calibrateScratch(): void {
    this.setScratchBase(0);
    this.calibration = [];
  }

  /** Byte offset of the kernel's scratch now (one of SCRATCH_BASES). */
  get scratchBase(): number {
    return SCRATCH_BASES[this.sb];
  }

  /** Put the kernel's scratch at SCRATCH_BASES[k], without trying the others first, and start its timing afresh (tests). */
  setScratchBase(k: number): void {
    this.sb = k;
    this.bestMsPerEntry = Infinity;
    this.windowMin = Infinity;
    this.windowCalls = 0;
    this.calibration = null;
  }

  /** Add the forces of the last run into `f` (3 per padded slot). */
  addForcesPadded(f: MdArgs['f'] | Float64Array): void {
    addWasmForces(this.forces, f);
  }
}

/**
 * Positions into a particle block in the wasm layout (WASM_XQ_WORDS per 4-atom cluster) that
 * starts at word x0 of `mf`: slot p holds atom atomOf[p] at x[atom] + off[p], rounded to the
 * block's precision once; dummy slots keep theirs.
 */
export function writePositions(mf: WasmReals, x0: number, x: Float64Array, atomOf: Int32Array, off: Float64Array): void {
  const np = atomOf.length;
  for (let p = 0; p < np; p++) {
    const a = atomOf[p]!;
    if (a < 0) continue;
    const b = x0 + WASM_XQ_WORDS * (p >> 2) + (p & 3);
    mf[b] = x[3 * a]! + off[3 * p]!;
    mf[b + 4] = x[3 * a + 1]! + off[3 * p + 1]!;
    mf[b + 8] = x[3 * a + 2]! + off[3 * p + 2]!;
  }
}

/** Add forces in the wasm cluster layout (WASM_F_WORDS per cluster of 4: x, y, z lanes) into f, 3 per padded slot. */
export function addWasmForces(b: WasmReals, f: MdArgs['f'] | Float64Array): void {
  const np = Math.min((b.length / WASM_F_WORDS) * 4, f.length / 3);
  for (let p = 0; p < np; p++) {
    const k = WASM_F_WORDS * (p >> 2) + (p & 3);
    f[3 * p] += b[k]!;
    f[3 * p + 1] += b[k + 4]!;
    f[3 * p + 2] += b[k + 8]!;
  }
}

/** Modules handed to this thread by another (worker threads get the caller's). */
const adopted = new Map<string, WebAssembly.Module>();
const instances = new Map<string, Promise<WasmMd>>();

/**
 * The compiled module of a variant in this thread: one adopted from the caller (postMessage
 * shares compiled code between threads, so code the engine has optimized for one thread serves
 * all, instead of each worker starting again from the baseline compiler), else the variant cache's.
 */
export async function wasmModule(key: string): Promise<WebAssembly.Module> {
  return adopted.get(key) ?? backend('wasm').load(key);
}

/** Use this compiled module for `key` in this thread (a worker, given the caller's module). */
export function adoptWasmModule(key: string, module: WebAssembly.Module): void {
  if (!adopted.has(key)) adopted.set(key, module);
}

/** The instances made so far, by key (readyWasmInstance). */
const ready = new Map<string, WasmMd>();

/** The instance of a variant in this thread (one per key, shared by its users; bind() before each use). */
export async function wasmInstance(key: string): Promise<WasmMd> {
  let p = instances.get(key);
  if (!p) {
    p = Promise.all([wasmModule(key), mdShape(key)]).then(async ([m, shape]) => {
      const w = await WasmMd.instantiate(m, shape.precision);
      ready.set(key, w);
      return w;
    });
    p.catch(() => instances.delete(key));
    instances.set(key, p);
  }
  return p;
}

/** wasmInstance's instance of `key` where it is made already (else undefined), without waiting. */
export function readyWasmInstance(key: string): WasmMd | undefined {
  return ready.get(key);
}

/** One call through the TS kernel interface: bind, copy xq, run, add the outputs into a.f, a.energy, a.fshift. */
function call(w: WasmMd, M: number, a: MdArgs): void {
  const want = w.precision === 'f64' ? Float64Array : Float32Array;
  if (!(a.xq instanceof want)) throw new Error(`this wasm md-nonbonded kernel takes ${w.precision} arrays (MdProblem.args("${w.precision}"))`);
  const np = a.xq.length >> 2;
  if (np % M !== 0 || np % 2 !== 0) throw new Error(`wasm kernel: ${np} padded particles is not a whole number of ${M}-atom clusters`);
  w.bind(a);
  w.setXq(a.xq);
  w.run(a.params, 0, a.ci.length >> 2);
  w.addForcesPadded(a.f);
  if (a.energy) {
    const e = w.energy;
    a.energy[0] += e[0]!;
    a.energy[1] += e[1]!;
  }
  if (a.fshift) {
    const fs = w.fshift;
    for (let k = 0; k < 81; k++) a.fshift[k] += fs[k]!;
  }
}

/**
 * A wasm variant behind the TS kernel interface (key, M, N, kernel(MdArgs)); one instance and
 * memory per key, reused (memory grows when a larger problem comes). `bytes` replaces the
 * variant's binary with another build of it (an uncached instance: tests of the gate).
 */
export async function loadWasmKernel(key: string, bytes?: Uint8Array): Promise<MdTsModule> {
  const shape = await mdShape(key);
  if (shape.target !== 'wasm') throw new Error(`variant ${key} is a ${shape.target} variant, not WebAssembly`);
  const inst = bytes ? await WasmMd.instantiate(bytes, shape.precision) : await wasmInstance(key);
  return { key, M: shape.M, N: shape.N, kernel: (a: MdArgs) => call(inst, shape.M, a) };
}

/** Run a wasm variant once over the problem's list (in its precision) and post-process its outputs, as runTs does. */
export async function runWasm(key: string, problem: MdProblem): Promise<MdResult> {
  return runWasmWith(key, problem);
}

/** runWasm with the variant's binary replaced by `bytes` (when given). */
export async function runWasmWith(key: string, problem: MdProblem, bytes?: Uint8Array): Promise<MdResult> {
  const mod = await loadWasmKernel(key, bytes);
  const shape = await mdShape(key);
  checkShape(key, shape, problem);
  const out = problem.outputs(shape.precision);
  mod.kernel({ ...problem.args(shape.precision), ...out });
  return problem.finish(shape.precision, out);
}

/**
 * f (3 per atom) = the forces of a block in the wasm layout (slot p: word 12 (p >> 2) + (p & 3),
 * + 4 per component), through slotOf.
 */
export function gatherWasmForces(b: WasmReals, slotOf: Int32Array, f: Float64Array | Float32Array): void {
  const n = slotOf.length;
  for (let a = 0; a < n; a++) {
    const p = slotOf[a]!;
    const k = WASM_F_WORDS * (p >> 2) + (p & 3);
    f[3 * a] = b[k]!;
    f[3 * a + 1] = b[k + 4]!;
    f[3 * a + 2] = b[k + 8]!;
  }
}

