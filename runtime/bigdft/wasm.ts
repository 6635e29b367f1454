// bigdft-conv WebAssembly SIMD variants (templates/wasm/bigdft-conv): each module exports one
// transposing pass `pass(x, y, n, m, j0, j1, scratch, yin, xt, scale)` on byte addresses of a
// shared linear memory it imports. A prepared problem allocates that memory once: the input,
// the pass buffers and one scratch row per thread; `run` copies the input in, runs the three
// passes inside the memory and returns a view of the result (valid until the next run). With a
// worker pool of t workers, t threads share the work: this one and t - 1 workers, each running
// the same module on the same memory. Each pass's lines are cut into chunks the threads claim as
// they go; every output line is computed by the same instructions whatever the split, so the
// result is identical bit for bit to one thread's. One posted task per worker and application
// runs all three passes, the threads meeting at a barrier in shared memory (Atomics) after each
// pass, and a worker's error comes back through shared memory too: no message round trip per
// pass or per application. The workers instantiate the main thread's compiled module (posted
// with the task), so they run its optimized code from the first call instead of compiling and
// tiering up a copy each.
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
  /** This worker's scratch row(s). */
  s: number;
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
function runShare(ex: ConvWasmExports | undefined, a: Pick<ConvWasmTaskArgs, 'passes' | 'next' | 'input' | 'memory' | 's' | 'barrier' | 'parties'>, err: unknown, spin: boolean, onError?: (e: unknown) => void): unknown {
  // reported before the barrier that follows, so the calling thread sees it after the last one
  if (err !== undefined) onError?.(err);
  a.passes.forEach((q, k) => {
    if (err === undefined && ex) {
      const b = q.bounds;
      try {
        for (let c = Atomics.add(a.next, k, 1); c < b.length - 1; c = Atomics.add(a.next, k, 1)) {
          const j0 = b[c]!, j1 = b[c + 1]!;
          if (k === 0 && a.input) new Float64Array(a.memory.buffer, q.x + 8 * j0 * q.n, (j1 - j0) * q.n).set(a.input.subarray(j0 * q.n, j1 * q.n));
          ex.pass(q.x, q.y, q.n, q.m, j0, j1, a.s, q.yin, q.xt, q.scale);
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
  // layout: reserved | X | B0 | B1 | (kinetic: B2 | B3 | Z) | scratch per thread
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
  const S = Array.from({ length: threads }, () => take(rowBytes));
  if (at > 65536 * PAGE) throw new Error(`grid ${dims.join('x')} needs ${at} bytes of wasm memory, more than 4 GiB`);
  memory.grow(Math.ceil(at / PAGE) - 1);
  const heap = (): Float64Array => new Float64Array(memory.buffer);
  // the passes: pass d reads `cur`, writes y (kinetic: also xt, adding the running sum acc)
  const plan: { n: number; m: number; x: number; y: number; yin: number; xt: number; scale: number }[] = [];
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
  const out = kinetic ? acc : cur;
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
        copyIn(x);
        for (const q of plan) ex.pass(q.x, q.y, q.n, q.m, 0, q.m, S[0]!, q.yin, q.xt, q.scale);
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
  // Each pass's lines in CONV_CHUNKS_PER_THREAD chunks per thread, cut on multiples of the
  // variant's lines per iteration (as the TS path does), claimed as they go: a thread that
  // another process slows for a while takes fewer chunks instead of holding the others at the
  // barrier after the pass.
  const align = Math.max(1, Number(String(p.unroll).split('x')[1]) || 1);
  const passes: ConvWasmPass[] = plan.map((q) => ({ ...q, bounds: toShared(Int32Array.from([0, ...splitRange(q.m, threads * CONV_CHUNKS_PER_THREAD, align).map((r) => r[1])])) }));
  const barrier = new Int32Array(new SharedArrayBuffer(8));
  const next = new Int32Array(new SharedArrayBuffer(4 * plan.length));
  const ctl = new Int32Array(new SharedArrayBuffer(CTL_BYTES));
  const workerArgs = Array.from({ length: threads - 1 }, (_, w): ConvWasmTaskArgs => ({ key, memId, memory, module: mod, bytes: o.bytes, s: S[w + 1]!, barrier, parties: threads, passes, next, ctl }));
  return {
    ...base,
    async run(x) {
      next.fill(0);
      Atomics.store(ctl, 0, 0);
      // an input on a SharedArrayBuffer is copied in by the threads, each the lines of the first pass's chunks it takes
      const input = x instanceof Float64Array && x.buffer instanceof SharedArrayBuffer && x.length === size ? x : undefined;
      if (!input) copyIn(x);
      workerArgs.forEach((a, w) => pool.post(w, { task: 'conv-wasm', args: { ...a, input } as unknown as Record<string, unknown> }));
      const err = runShare(ex, { passes, next, input, memory, s: S[0]!, barrier, parties: threads }, undefined, true);
      if (err !== undefined) throw err;
      if (Atomics.load(ctl, 0) !== 0) throw new Error(new TextDecoder().decode(new Uint8Array(ctl.buffer, 8, Atomics.load(ctl, 1)).slice()));
      return result();
    },
    async release() {
      await pool.run(Array.from({ length: pool.size }, () => ({ task: 'conv-wasm-release', args: { memId } })));
    },
  };
}
