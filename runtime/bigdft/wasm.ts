// bigdft-conv WebAssembly SIMD variants (templates/wasm/bigdft-conv): each module exports one
// transposing pass `pass(x, y, n, m, j0, j1, scratch, yin, xt, scale)` on byte addresses of a
// shared linear memory it imports. A prepared problem allocates that memory once: the input,
// the pass buffers, one scratch row per thread and (magic filters) two slab buffers per thread;
// `run` takes the input, runs the passes inside the memory and returns a view of the result
// (valid until the next run). The magic filters run blocked, in two stages instead of three
// whole passes: the first pass by slabs of planes, each slab's input copied into the thread's
// slab buffer just before, then the second and third passes together by slabs of planes, the
// second's output kept in the other slab buffer for the third. That halves the traffic between
// the cores and memory (two round trips of the grid instead of four), which is what two threads
// otherwise fight over. The kinetic filter (transposed inputs and running sums) runs its three
// passes whole. With a worker pool of t workers, t threads share the work: this one and t - 1
// workers, each running the same module on the same memory. Each stage's slabs, or each pass's
// lines cut into chunks, are claimed as they go; every output line is computed by the same
// instructions on the same values whatever the split or blocking, so the result is identical
// bit for bit to one thread's whole passes. One posted task per worker and application runs all
// the stages, the threads meeting at a barrier in shared memory (Atomics) after each, and a
// worker's error comes back through shared memory too: no message round trip per stage or per
// application. The workers instantiate the main thread's compiled module (posted with the
// task), so they run its optimized code from the first call instead of compiling and tiering up
// a copy each.
import { wasmModule, variantParams } from '../variants.ts';
import { backend } from '../backends/registry.ts';
import type { FilterName } from './filters.ts';
import type { Boundary, Dims } from './reference.ts';
import type { Pool } from '../parallel/pool.ts';
import { splitRange, toShared } from '../parallel/pool.ts';
import { platform } from '../platform.ts';

/** The exports of a bigdft-conv wasm module. */
interface ConvWasmExports {
  reserved: WebAssembly.Global;
  scratchBytes(n: number): number;
  pass(x: number, y: number, n: number, m: number, j0: number, j1: number, s: number, yin: number, xt: number, scale: number): void;
}

/**
 * One pass of a worker task, on byte addresses of the memory: its lines cut into chunks
 * [bounds[c], bounds[c + 1]), which the workers claim in turn by raising the pass's word of
 * `next` until none is left.
 */
export interface ConvWasmPass {
  x: number; y: number; n: number; m: number; yin: number; xt: number; scale: number;
  bounds: Int32Array;
  /**
   * Blocked stages (the magic filters, not the kinetic one's running sums): 'in' is the first
   * pass by slabs of i3 planes [bounds[c], bounds[c + 1]) (the input's planes copied into the
   * thread's slab buffer first when the threads copy it in); 'out' is the second and third passes
   * by slabs of i1 (the second pass's output kept in the thread's slab buffer, which the third
   * reads while it is in cache). Absent: one pass by chunks of lines. `dims` is the grid.
   */
  blocked?: 'in' | 'out';
  dims?: Dims;
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
  /** This worker's scratch row(s), and (blocked stages) its slab buffers: input planes, second pass's output. */
  s: number;
  u?: number;
  t?: number;
  /** The passes in order; between two passes every worker waits at the barrier. */
  passes: ConvWasmPass[];
  /** The claim counters, one per pass (shared; zeroed by the caller before each application). */
  next: Int32Array;
  /**
   * The input when it lies on a SharedArrayBuffer: this worker copies the lines of the first
   * pass's chunks it claims into the memory (at the first pass's x) itself, so they arrive in its
   * own cache and the copy is split too; absent: the caller has copied the input in.
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
 * One thread's part of an application: the chunks of each pass it claims, a barrier after each
 * pass (the last one: every thread's output is complete). A thread whose instance or pass fails
 * still arrives at every barrier (the others would wait for it forever); returns its error.
 */
function runShare(ex: ConvWasmExports | undefined, a: Pick<ConvWasmTaskArgs, 'passes' | 'next' | 'input' | 'memory' | 's' | 'u' | 't' | 'barrier' | 'parties'>, err: unknown, spin: boolean, onError?: (e: unknown) => void): unknown {
  // reported before the barrier that follows, so the calling thread sees it after the last one
  if (err !== undefined) onError?.(err);
  a.passes.forEach((q, k) => {
    if (err === undefined && ex) {
      const b = q.bounds;
      try {
        for (let c = Atomics.add(a.next, k, 1); c < b.length - 1; c = Atomics.add(a.next, k, 1)) {
          const j0 = b[c]!, j1 = b[c + 1]!;
          if (q.blocked) runSlab(ex, q, j0, j1, a);
          else {
            if (k === 0 && a.input) new Float64Array(a.memory.buffer, q.x + 8 * j0 * q.n, (j1 - j0) * q.n).set(a.input.subarray(j0 * q.n, j1 * q.n));
            ex.pass(q.x, q.y, q.n, q.m, j0, j1, a.s, q.yin, q.xt, q.scale);
          }
        }
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
 * One slab of a blocked stage (ConvWasmPass.blocked), on this thread's slab buffers. Every call
 * is the variant's own pass on a range of its lines, with the line addresses moved (wasm's i32
 * arithmetic wraps, so a base below the slab buffer is fine): each output line is the same
 * instructions on the same values as in the whole pass, so the result is unchanged bit for bit.
 * 'in', planes i3 in [a, b): the first pass's lines i2 + n2*i3 of those planes, read from the
 * input's planes copied into u (or from x in place), written into y as the whole pass writes them.
 * 'out', planes i1 in [a, b): the second pass's lines i3 + n3*i1 (contiguous in x) written into t
 * as lines of a (b - a) x n2 x n3 grid; then per i2 the third pass's lines of t into y, at the
 * places the whole third pass writes them (a run of b - a points in each of the n3 rows).
 */
function runSlab(ex: ConvWasmExports, q: ConvWasmPass, a: number, b: number, th: Pick<ConvWasmTaskArgs, 'input' | 'memory' | 's' | 'u' | 't'>): void {
  const [n1, n2, n3] = q.dims!;
  const h = b - a;
  if (q.blocked === 'in') {
    const plane = n1 * n2;
    let x = q.x;
    if (th.input) {
      new Float64Array(th.memory.buffer, th.u!, h * plane).set(th.input.subarray(a * plane, b * plane));
      x = th.u! - 8 * a * plane;
    }
    ex.pass(x, q.y, n1, n2 * n3, n2 * a, n2 * b, th.s, 0, 0, 0);
    return;
  }
  const t = th.t!;
  ex.pass(q.x + 8 * n2 * n3 * a, t, n2, n3 * h, 0, n3 * h, th.s, 0, 0, 0);
  for (let i2 = 0; i2 < n2; i2++) ex.pass(t, q.y + 8 * (a + (n1 - h) * i2), n3, n1 * n2, h * i2, h * (i2 + 1), th.s, 0, 0, 0);
}

/**
 * Planes per slab of the blocked stages (4, 8, 16 and 32 measured on 128x126x130, one thread:
 * docs/performance.md, issue 16 run T): a slab's input planes and its second pass's output stay
 * in the core's cache (about 1 MiB each here), and 8 points of a row make whole 64-byte lines of
 * the third pass's output where n1 is a multiple of 8.
 */
export const CONV_SLAB = 8;

/**
 * Chunks of each pass per thread, claimed as they go (1, 4, 8 and 16 measured on 2 threads,
 * 128x126x130: docs/performance.md, issue 16 runs G, H and I).
 */
export const CONV_CHUNKS_PER_THREAD = 8;

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
  // the magic filters run blocked (runSlab); the kinetic filter's passes carry the transposed
  // inputs and running sums, and run whole
  const blocked = !kinetic;
  const slabIn = blocked ? 8 * CONV_SLAB * n1 * n2 : 0;
  const slabOut = blocked ? 8 * CONV_SLAB * n2 * n3 : 0;
  // layout: reserved | X | B0 | B1 | (kinetic: B2 | B3 | Z) | per thread: scratch (| slab buffers u, t)
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
  const B = Array.from({ length: kinetic ? 4 : 2 }, () => take(8 * size));
  const Z = kinetic ? take(8 * size) : 0;
  const rowBytes = Math.max(...dims.map((n) => ex.scratchBytes(n)));
  const S = Array.from({ length: threads }, () => ({ s: take(rowBytes), ...(blocked ? { u: take(slabIn), t: take(slabOut) } : {}) }));
  if (at > 65536 * PAGE) throw new Error(`grid ${dims.join('x')} needs ${at} bytes of wasm memory, more than 4 GiB`);
  memory.grow(Math.ceil(at / PAGE) - 1);
  const heap = (): Float64Array => new Float64Array(memory.buffer);
  // the passes: pass d reads `cur`, writes y (kinetic: also xt, adding the running sum acc)
  const plan: Omit<ConvWasmPass, 'bounds'>[] = [];
  let out: number;
  if (blocked) {
    // first pass by slabs of i3 into B0, then second and third by slabs of i1 into B1
    plan.push({ x: X, y: B[0]!, n: n3, m: 0, yin: 0, xt: 0, scale: 0, blocked: 'in', dims });
    plan.push({ x: B[0]!, y: B[1]!, n: n1, m: 0, yin: 0, xt: 0, scale: 0, blocked: 'out', dims });
    out = B[1]!;
  } else {
    let cur = X;
    let acc = Z;
    for (let d = 0; d < 3; d++) {
      const n = dims[d]!;
      const y = B[d % 2]!;
      const xt = kinetic ? B[2 + (d % 2)]! : 0;
      plan.push({ n, m: size / n, x: cur, y, yin: kinetic ? acc : 0, xt, scale: kinetic ? o.scale[d]! : 0 });
      cur = kinetic ? xt : y;
      acc = y;
    }
    out = kinetic ? acc : cur;
  }
  // each stage's work cut into pieces: slabs of CONV_SLAB planes (blocked; n is the planes), or
  // CONV_CHUNKS_PER_THREAD chunks of lines per thread cut on multiples of the variant's lines per
  // iteration (as the TS path does)
  const align = Math.max(1, Number(String(p.unroll).split('x')[1]) || 1);
  const cuts = (q: Omit<ConvWasmPass, 'bounds'>): number[] =>
    q.blocked ? Array.from({ length: Math.ceil(q.n / CONV_SLAB) + 1 }, (_, c) => Math.min(c * CONV_SLAB, q.n)) : [0, ...splitRange(q.m, threads * CONV_CHUNKS_PER_THREAD, align).map((r) => r[1])];
  const passes: ConvWasmPass[] = plan.map((q) => ({ ...q, bounds: toShared(Int32Array.from(cuts(q))) }));
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
        // blocked: a Float64Array's planes are copied slab by slab into the slab buffer
        const input = blocked && x instanceof Float64Array && x.length === size ? x : undefined;
        if (!input) copyIn(x);
        for (const q of passes) {
          if (!q.blocked) ex.pass(q.x, q.y, q.n, q.m, 0, q.m, S[0]!.s, q.yin, q.xt, q.scale);
          else for (let c = 0; c < q.bounds.length - 1; c++) runSlab(ex, q, q.bounds[c]!, q.bounds[c + 1]!, { input, memory, ...S[0]! });
        }
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
  const workerArgs = Array.from({ length: threads - 1 }, (_, w): ConvWasmTaskArgs => ({ key, memId, memory, module: mod, bytes: o.bytes, ...S[w + 1]!, barrier, parties: threads, passes, next, ctl }));
  return {
    ...base,
    async run(x) {
      next.fill(0);
      Atomics.store(ctl, 0, 0);
      // an input on a SharedArrayBuffer is copied in by the threads, each the planes or lines of the first stage's pieces it takes
      const input = x instanceof Float64Array && x.buffer instanceof SharedArrayBuffer && x.length === size ? x : undefined;
      if (!input) copyIn(x);
      workerArgs.forEach((a, w) => pool.post(w, { task: 'conv-wasm', args: { ...a, input } as unknown as Record<string, unknown> }));
      const err = runShare(ex, { passes, next, input, memory, ...S[0]!, barrier, parties: threads }, undefined, true);
      if (err !== undefined) throw err;
      if (Atomics.load(ctl, 0) !== 0) throw new Error(new TextDecoder().decode(new Uint8Array(ctl.buffer, 8, Atomics.load(ctl, 1)).slice()));
      return result();
    },
    async release() {
      await pool.run(Array.from({ length: pool.size }, () => ({ task: 'conv-wasm-release', args: { memId } })));
    },
  };
}
