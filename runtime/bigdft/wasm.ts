// bigdft-conv WebAssembly SIMD variants (templates/wasm/bigdft-conv): each module exports one
// transposing pass `pass(x, y, n, m, j0, j1, scratch, yin, xt, scale)` on byte addresses of a
// shared linear memory it imports. A prepared problem allocates that memory once: the input,
// the pass buffers, and per thread a scratch row and slab buffers; `run` takes the input, runs
// the passes inside the memory and returns a view of the result (valid until the next run).
// The three passes run blocked, in two stages: the first pass by slabs of planes, each slab's
// input copied into the thread's slab buffer just before, then the second and third passes
// together by slabs of planes, the second's output kept in slab buffers for the third. The grid
// goes through memory twice instead of four times (copy in, three passes), and that traffic is
// what two threads otherwise fight over. With a worker pool of t workers, t threads share the
// work: this one and t - 1 workers, each running the same module on the same memory. Each
// stage's slabs are claimed as they go; every output line is computed by the same instructions
// on the same values whatever the split or blocking, so the result is identical bit for bit to
// one thread's, and to the three whole passes. One posted task per worker and application runs
// both stages, the threads meeting at a barrier in shared memory (Atomics) after each, and a
// worker's error comes back through shared memory too: no message round trip per stage or per
// application. The workers instantiate the main thread's compiled module (posted with the
// task), so they run its optimized code from the first call instead of compiling and tiering up
// a copy each.
import { wasmModule, variantParams } from '../variants.ts';
import { backend } from '../backends/registry.ts';
import type { FilterName } from './filters.ts';
import type { Boundary, Dims } from './reference.ts';
import type { Pool } from '../parallel/pool.ts';
import { toShared } from '../parallel/pool.ts';
import { platform } from '../platform.ts';

/** The exports of a bigdft-conv wasm module. */
interface ConvWasmExports {
  reserved: WebAssembly.Global;
  scratchBytes(n: number): number;
  pass(x: number, y: number, n: number, m: number, j0: number, j1: number, s: number, yin: number, xt: number, scale: number): void;
}

/**
 * One stage of an application, on byte addresses of the memory: its slabs of planes
 * [bounds[c], bounds[c + 1]), which the threads claim in turn by raising the stage's word of
 * `next` until none is left (runSlab). 'in' is the first pass by slabs of i3: x its input (when
 * the caller copied it in), y and xt its outputs, yin a slab of zeros (kinetic). 'out' is the
 * second and third passes by slabs of i1: x and yin the second pass's inputs (the first pass's
 * xt and y; magic: y alone, in x), y the third pass's output and xt where it drops its transposed
 * input (kinetic: a buffer no longer read). `scale` and `scale3`: the kinetic filter's factors
 * of the stage's passes; `dims` is the grid; `kinetic` whether the running sums are carried.
 */
export interface ConvWasmStage {
  kind: 'in' | 'out';
  x: number; y: number; yin: number; xt: number; scale: number; scale3: number;
  dims: Dims;
  kinetic: boolean;
  bounds: Int32Array;
}

/** Arguments of one worker task: this worker's lines of every pass of one application (tasks.ts 'conv-wasm'). */
export interface ConvWasmTaskArgs {
  key: string;
  /** Identifies the prepared problem's memory in the worker (one instance per memory). */
  memId: string;
  memory: WebAssembly.Memory;
  /** The compiled module (the main thread's: workers share its code); absent: compiled from `bytes` or the key's binary. */
  module?: WebAssembly.Module;
  /** Another build of the variant (tests of the gate); the key's binary when absent. */
  bytes?: Uint8Array;
  /**
   * This thread's scratch row(s) and slab buffers: u the input's planes of a slab, t the second
   * pass's output (y) of a slab, t2 its transposed input (xt, kinetic).
   */
  s: number;
  u: number;
  t: number;
  t2: number;
  /** The stages in order; between two stages every thread waits at the barrier. */
  stages: ConvWasmStage[];
  /** The claim counters, one per stage (shared; zeroed by the caller before each application). */
  next: Int32Array;
  /**
   * The input when it lies on a SharedArrayBuffer (or, on one thread, any Float64Array): the
   * thread copies the planes of the first stage's slabs it claims into its slab buffer itself, so
   * they arrive in its own cache and the copy is split too; absent: the caller has copied the
   * input in.
   */
  input?: Float64Array;
  /** Barrier of the threads (Int32Array on a SharedArrayBuffer: arrivals, generation) and their count (the calling thread and the workers). */
  barrier: Int32Array;
  parties: number;
  /** Where a worker reports its error (ctlError): a flag, the text's length, the text. */
  ctl: Int32Array;
}

/** Bytes of a prepared problem's error block (ConvWasmTaskArgs.ctl): flag and length words, then the text. */
const CTL_BYTES = 8 + 2048;

/** Report a worker's error through the error block (the first one wins). */
function ctlError(ctl: Int32Array, e: unknown): void {
  if (Atomics.compareExchange(ctl, 0, 0, 1) !== 0) return;
  const text = new TextEncoder().encode(e instanceof Error ? `${e.name}: ${e.message}` : String(e)).subarray(0, CTL_BYTES - 8);
  new Uint8Array(ctl.buffer, 8, text.length).set(text);
  Atomics.store(ctl, 1, text.length);
}

/** The calling thread spins at most this long at a barrier for a worker, then takes it for dead. */
const BARRIER_TIMEOUT_MS = 600_000;

/**
 * Wait until all `parties` threads have arrived (a reusable barrier: the last to arrive resets
 * the count and bumps the generation the others wait on). Workers sleep in Atomics.wait; the
 * calling thread (`spin`) spins, as a browser's main thread may not wait, and its waits are
 * short: it computes beside the workers.
 */
function arrive(b: Int32Array, parties: number, spin = false): void {
  const gen = Atomics.load(b, 1);
  if (Atomics.add(b, 0, 1) === parties - 1) {
    Atomics.store(b, 0, 0);
    Atomics.add(b, 1, 1);
    Atomics.notify(b, 1);
  } else if (spin) {
    const deadline = performance.now() + BARRIER_TIMEOUT_MS;
    while (Atomics.load(b, 1) === gen) {
      if (performance.now() > deadline) throw new Error(`bigdft-conv wasm threads: a worker did not reach the barrier within ${BARRIER_TIMEOUT_MS / 1000} s`);
    }
  } else {
    while (Atomics.load(b, 1) === gen) Atomics.wait(b, 1, gen);
  }
}

/**
 * One thread's part of an application: the slabs of each stage it claims, a barrier after each
 * stage (the last one: every thread's output is complete). A thread whose instance or pass fails
 * still arrives at every barrier (the others would wait for it forever); returns its error.
 */
function runShare(ex: ConvWasmExports | undefined, a: Pick<ConvWasmTaskArgs, 'stages' | 'next' | 'input' | 'memory' | 's' | 'u' | 't' | 't2' | 'barrier' | 'parties'>, err: unknown, spin: boolean, onError?: (e: unknown) => void): unknown {
  // reported before the barrier that follows, so the calling thread sees it after the last one
  if (err !== undefined) onError?.(err);
  a.stages.forEach((q, k) => {
    if (err === undefined && ex) {
      const b = q.bounds;
      try {
        for (let c = Atomics.add(a.next, k, 1); c < b.length - 1; c = Atomics.add(a.next, k, 1)) runSlab(ex, q, b[c]!, b[c + 1]!, a);
      } catch (e) {
        err = e ?? new Error('unknown error');
        onError?.(err);
      }
    }
    arrive(a.barrier, a.parties, spin);
  });
  return err;
}

/**
 * One slab of a stage, on this thread's slab buffers. Every call is the variant's own pass on a
 * range of its lines, with the line addresses moved (wasm's i32 arithmetic wraps, so a base
 * below a slab buffer is fine): each output line is the same instructions on the same values as
 * in the whole pass, so the result is the whole passes' bit for bit.
 * 'in', planes i3 in [a, b): the first pass's lines i2 + n2*i3 of those planes, read from the
 * input's planes copied into u (or from x in place), written into y (and xt) as the whole pass
 * writes them.
 * 'out', planes i1 in [a, b): the second pass's lines i3 + n3*i1 (contiguous in its inputs)
 * written into t (and t2) as lines of a (b - a) x n2 x n3 grid; then per i2 the third pass's
 * lines of those into y, at the places the whole third pass writes them (a run of b - a points
 * in each of the n3 rows).
 */
function runSlab(ex: ConvWasmExports, q: ConvWasmStage, a: number, b: number, th: Pick<ConvWasmTaskArgs, 'input' | 'memory' | 's' | 'u' | 't' | 't2'>): void {
  const [n1, n2, n3] = q.dims;
  const h = b - a;
  if (q.kind === 'in') {
    const plane = n1 * n2;
    let x = q.x;
    if (th.input) {
      new Float64Array(th.memory.buffer, th.u, h * plane).set(th.input.subarray(a * plane, b * plane));
      x = th.u - 8 * a * plane;
    }
    ex.pass(x, q.y, n1, n2 * n3, n2 * a, n2 * b, th.s, q.kinetic ? q.yin - 8 * a * plane : 0, q.xt, q.scale);
    return;
  }
  const at = 8 * n2 * n3 * a;
  // kinetic: the second pass's xt (t2) is the third's input and its y (t) the third's running sum
  const [x3, yin3] = q.kinetic ? [th.t2, th.t] : [th.t, 0];
  ex.pass(q.x + at, th.t, n2, n3 * h, 0, n3 * h, th.s, q.kinetic ? q.yin + at : 0, q.kinetic ? th.t2 : 0, q.scale);
  for (let i2 = 0; i2 < n2; i2++) {
    const to = 8 * (a + (n1 - h) * i2);
    ex.pass(x3, q.y + to, n3, n1 * n2, h * i2, h * (i2 + 1), th.s, yin3, q.kinetic ? q.xt + to : 0, q.scale3);
  }
}

/**
 * Planes per slab of the stages (4, 8, 16 and 32 measured on 128x126x130, one and two threads:
 * docs/performance-log.md, issue 16 run T): a slab's input planes and its second pass's output stay
 * in the core's cache (about 1 MiB each here), and 8 points of a row make whole 64-byte lines of
 * the third pass's output where n1 is a multiple of 8. Slabs are also the pieces the threads
 * claim (16 or 17 per stage here; chunks of lines, 8 per thread, before).
 */
export const CONV_SLAB = 8;

const PAGE = 65536;
async function instantiate(mod: WebAssembly.Module, memory: WebAssembly.Memory): Promise<ConvWasmExports> {
  const inst = await WebAssembly.instantiate(mod, { env: { memory } });
  return inst.exports as unknown as ConvWasmExports;
}

/** Worker side: instances per (key, memory), created on the first task that names them. */
const workerInstances = new Map<string, Promise<ConvWasmExports>>();
export async function convWasmTask(a: ConvWasmTaskArgs): Promise<void> {
  const id = `${a.key}\0${a.memId}`;
  let p = workerInstances.get(id);
  if (!p) {
    p = (a.module ? Promise.resolve(a.module) : wasmModule(a.key, a.bytes)).then((m) => instantiate(m, a.memory));
    p.catch(() => workerInstances.delete(id));
    workerInstances.set(id, p);
  }
  let ex: ConvWasmExports | undefined;
  let err: unknown;
  try {
    ex = await p;
  } catch (e) {
    err = e ?? new Error('unknown error');
  }
  // the error goes to the calling thread through the error block (the task is posted, its reply dropped)
  runShare(ex, a, err, false, (e) => ctlError(a.ctl, e));
}

/** Forget a prepared problem's instances in this worker (its memory can then be collected). */
export function convWasmRelease(memId: string): void {
  for (const k of [...workerInstances.keys()]) if (k.endsWith(`\0${memId}`)) workerInstances.delete(k);
}

export interface PreparedWasm3d {
  key: string;
  filter: FilterName;
  boundary: Boundary;
  algorithm: 'separable-t';
  precision: 'f64';
  dims: Dims;
  threads: number;
  /** Runs the convolution on x (copied in); returns a view of the result in the module's memory, valid until the next run. */
  run(x: ArrayLike<number>): Float64Array | Promise<Float64Array>;
  /** With a pool: make its workers drop their instances of this grid (its memory can then be collected). */
  release?(): Promise<void>;
}

let memIds = 0;

/**
 * Bind a wasm variant to an n1 x n2 x n3 grid: one shared memory holding the input, the pass
 * buffers (kinetic: also the transposed inputs and a zero running sum) and a scratch row per
 * thread. With a pool, run is asynchronous and splits each pass's lines over its workers.
 * `bytes` replaces the variant's binary (tests of the gate). Checks of the key and grid are the
 * caller's (runtime/bigdft/apply.ts prepare3d).
 */
export async function prepareWasm3d(key: string, dims: Dims, o: { scale: [number, number, number]; pool?: Pool; bytes?: Uint8Array }): Promise<PreparedWasm3d> {
  const p = await variantParams(key);
  if (p.target !== 'wasm') throw new Error(`${key} is a ${String(p.target)} variant, not WebAssembly`);
  const name = String(p.filter) as FilterName;
  const kinetic = name === 'kinetic';
  const mod = o.bytes ? await wasmModule(key, o.bytes) : await backend('wasm').load(key);
  const [n1, n2, n3] = dims;
  const size = n1 * n2 * n3;
  const threads = o.pool?.size ?? 1;
  const plane = n1 * n2;
  // layout: reserved | X | B0 | B1 | (kinetic: B2 | zeros of a slab) | per thread: scratch, slab
  // buffers u, t (kinetic: t2)
  const memory = new WebAssembly.Memory({ initial: 1, maximum: 65536, shared: true });
  const ex = await instantiate(mod, memory);
  const up = (b: number): number => (b + 63) & ~63;
  let at = up(Number(ex.reserved.value));
  const take = (bytes: number): number => {
    const a = at;
    at = up(at + bytes);
    return a;
  };
  const X = take(8 * size);
  const B = Array.from({ length: kinetic ? 3 : 2 }, () => take(8 * size));
  // the first pass's running sum: zeros, read slab by slab (never written)
  const Z = kinetic ? take(8 * CONV_SLAB * plane) : 0;
  const rowBytes = Math.max(...dims.map((n) => ex.scratchBytes(n)));
  const slabOut = 8 * CONV_SLAB * n2 * n3;
  const S = Array.from({ length: threads }, () => ({ s: take(rowBytes), u: take(8 * CONV_SLAB * plane), t: take(slabOut), t2: kinetic ? take(slabOut) : 0 }));
  if (at > 65536 * PAGE) throw new Error(`grid ${dims.join('x')} needs ${at} bytes of wasm memory, more than 4 GiB`);
  memory.grow(Math.ceil(at / PAGE) - 1);
  const heap = (): Float64Array => new Float64Array(memory.buffer);
  // The stages (runSlab): the first pass by slabs of i3 into B0 (kinetic: its xt into B2), then
  // the second and third passes by slabs of i1 into B1 (kinetic: the third pass's xt dropped into
  // X, which no stage reads any more). Slabs of CONV_SLAB planes.
  const k = kinetic ? o.scale : [0, 0, 0];
  const common = { dims, kinetic };
  const plan: Omit<ConvWasmStage, 'bounds'>[] = [
    { ...common, kind: 'in', x: X, y: B[0]!, yin: Z, xt: kinetic ? B[2]! : 0, scale: k[0]!, scale3: 0 },
    { ...common, kind: 'out', x: kinetic ? B[2]! : B[0]!, yin: kinetic ? B[0]! : 0, y: B[1]!, xt: kinetic ? X : 0, scale: k[1]!, scale3: k[2]! },
  ];
  const out = B[1]!;
  const slabs = (n: number): number[] => Array.from({ length: Math.ceil(n / CONV_SLAB) + 1 }, (_, c) => Math.min(c * CONV_SLAB, n));
  const stages: ConvWasmStage[] = plan.map((q) => ({ ...q, bounds: toShared(Int32Array.from(slabs(q.kind === 'in' ? n3 : n1))) }));
  const copyIn = (x: ArrayLike<number>): void => {
    if (x.length !== size) throw new Error(`x has ${x.length} values, expected ${size}`);
    heap().set(x, X / 8);
  };
  const result = (): Float64Array => new Float64Array(memory.buffer, out, size);
  const base = { key, filter: name, boundary: (p.boundary === 'free' ? 'free' : 'periodic') as Boundary, algorithm: 'separable-t' as const, precision: 'f64' as const, dims, threads };
  const pool = o.pool;
  if (!pool || threads === 1) {
    return {
      ...base,
      run(x) {
        // a Float64Array's planes are copied slab by slab into the slab buffer
        const input = x instanceof Float64Array && x.length === size ? x : undefined;
        if (!input) copyIn(x);
        for (const q of stages) for (let c = 0; c < q.bounds.length - 1; c++) runSlab(ex, q, q.bounds[c]!, q.bounds[c + 1]!, { input, memory, ...S[0]! });
        return result();
      },
    };
  }
  const memId = `${platform().pid}.${++memIds}`;
  // `threads` threads: this one and threads - 1 of the pool's workers (the pool has `threads`,
  // the last one stays idle). This thread computes beside them, so an application starts without
  // waiting for a worker to wake and ends without waiting for a reply message: a task's round
  // trip through the workers' event loops took 0.5-1.3 ms here, against 12-13 ms for the
  // application on 2 threads.
  // The pieces of each stage are claimed as they go: a thread that another process slows for a
  // while takes fewer instead of holding the others at the barrier after the stage.
  const barrier = new Int32Array(new SharedArrayBuffer(8));
  const next = new Int32Array(new SharedArrayBuffer(4 * plan.length));
  const ctl = new Int32Array(new SharedArrayBuffer(CTL_BYTES));
  const workerArgs = Array.from({ length: threads - 1 }, (_, w): ConvWasmTaskArgs => ({ key, memId, memory, module: mod, bytes: o.bytes, ...S[w + 1]!, barrier, parties: threads, stages, next, ctl }));
  return {
    ...base,
    async run(x) {
      next.fill(0);
      Atomics.store(ctl, 0, 0);
      // an input on a SharedArrayBuffer is copied in by the threads, each the planes of the first stage's slabs it takes
      const input = x instanceof Float64Array && x.buffer instanceof SharedArrayBuffer && x.length === size ? x : undefined;
      if (!input) copyIn(x);
      workerArgs.forEach((a, w) => pool.post(w, { task: 'conv-wasm', args: { ...a, input } as unknown as Record<string, unknown> }));
      const err = runShare(ex, { stages, next, input, memory, ...S[0]!, barrier, parties: threads }, undefined, true);
      if (err !== undefined) throw err;
      if (Atomics.load(ctl, 0) !== 0) throw new Error(new TextDecoder().decode(new Uint8Array(ctl.buffer, 8, Atomics.load(ctl, 1)).slice()));
      return result();
    },
    async release() {
      await pool.run(Array.from({ length: pool.size }, () => ({ task: 'conv-wasm-release', args: { memId } })));
    },
  };
}
