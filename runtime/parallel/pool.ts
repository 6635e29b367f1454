// A small pool of worker_threads for the CPU workloads (issue 7). Each worker runs named tasks
// (runtime/parallel/tasks.ts) on typed arrays backed by SharedArrayBuffers, so a task reads its
// inputs and writes its slice of the output in place: nothing is copied between threads. The
// main thread posts one task per worker and awaits their replies. An idle pool does not keep the
// process alive (its workers are unref'd between runs); close() ends the workers. Workers come
// from the platform (runtime/platform.ts: worker; Node: worker_threads running ./worker.ts).
import { KernforgeError } from '../errors.ts';
import { need, platform, type TaskWorker } from '../platform.ts';

/** A thread count that is not an integer in 1..maxThreads(). */
export class ThreadCountError extends KernforgeError {}

/** The largest thread count accepted: twice the logical CPUs. */
export function maxThreads(): number {
  return platform().cpu().parallelism * 2;
}

/** Parse and check a thread count (an integer 1..maxThreads()); `name` names it in the error. */
export function parseThreads(v: number | string, name = '--threads'): number {
  const x = typeof v === 'number' ? v : String(v).trim() === '' ? NaN : Number(v);
  const max = maxThreads();
  if (!Number.isInteger(x) || x < 1 || x > max) {
    throw new ThreadCountError(`${name} ${String(v)}: the thread count must be an integer from 1 to ${max} (twice the ${max / 2} CPUs of this machine)`);
  }
  return x;
}

/**
 * A comma-separated list of thread counts ("1,2"), each checked as parseThreads does, sorted and
 * without repeats; `name` names the option in the error (ThreadCountError).
 */
export function parseThreadList(v: string | number, name = '--threads'): number[] {
  const parts = String(v).split(',').map((s) => s.trim());
  try {
    return [...new Set(parts.map((p) => parseThreads(p, name)))].sort((a, b) => a - b);
  } catch (e) {
    if (e instanceof ThreadCountError) throw new ThreadCountError(`${e.message} (in ${name} ${String(v)}: a comma-separated list of thread counts, e.g. 1,2)`);
    throw e;
  }
}

/** One task for one worker: the name of a task in tasks.ts and its arguments (structured-cloned; shared typed arrays are shared). */
export interface Task {
  task: string;
  args: Record<string, unknown>;
}

interface Pending {
  resolve(v: unknown): void;
  reject(e: Error): void;
}

export class Pool {
  private readonly workers: TaskWorker[];
  private readonly pending: Map<number, Pending>[];
  private nextId = 1;
  private busy = 0;
  private closed = false;
  private failure: Error | undefined;

  private constructor(readonly size: number) {
    this.workers = [];
    this.pending = [];
    const start = need('worker', 'worker threads');
    for (let w = 0; w < size; w++) {
      const pending = new Map<number, Pending>();
      const message = (msg: unknown): void => {
        const m = msg as { id: number; result?: unknown; error?: string; stack?: string };
        const p = pending.get(m.id);
        if (!p) return;
        pending.delete(m.id);
        if (m.error !== undefined) {
          const e = new Error(`worker ${w}: ${m.error}`);
          if (m.stack) e.stack = `${e.message}\n${m.stack}`;
          p.reject(e);
        } else p.resolve(m.result);
      };
      const fail = (e: Error): void => {
        this.failure ??= e;
        for (const p of pending.values()) p.reject(e);
        pending.clear();
      };
      const worker = start({
        message,
        error: (e) => fail(new Error(`worker ${w} failed: ${e.message}`)),
        exit: (code) => {
          if (!this.closed) fail(new Error(`worker ${w} exited (code ${code})`));
        },
      });
      worker.unref();
      this.workers.push(worker);
      this.pending.push(pending);
    }
  }

  /** Start `threads` workers (checked as parseThreads does) and wait until each has loaded its tasks. */
  static async create(threads: number): Promise<Pool> {
    const pool = new Pool(parseThreads(threads, 'threads'));
    try {
      await pool.run(Array.from({ length: pool.size }, () => ({ task: 'ping', args: {} })));
    } catch (e) {
      await pool.close();
      throw e;
    }
    return pool;
  }

  /** Run tasks[i] on worker i (at most `size` tasks); resolves with their results once all are done. */
  async run(tasks: Task[]): Promise<unknown[]> {
    if (this.closed) throw new Error('the worker pool is closed');
    if (this.failure) throw this.failure;
    if (tasks.length > this.size) throw new Error(`${tasks.length} tasks for a pool of ${this.size} workers`);
    if (this.busy++ === 0) for (const w of this.workers) w.ref();
    try {
      return await Promise.all(
        tasks.map((t, w) => new Promise<unknown>((resolve, reject) => {
          const id = this.nextId++;
          this.pending[w]!.set(id, { resolve, reject });
          this.workers[w]!.postMessage({ id, task: t.task, args: t.args });
        })),
      );
    } finally {
      if (--this.busy === 0 && !this.closed) for (const w of this.workers) w.unref();
    }
  }

  /**
   * Post a task to worker w without waiting for it (its reply is dropped): for callers that
   * synchronise through shared memory instead (runtime/parallel/md.ts), so the main thread can
   * block in Atomics.wait while the workers run. `transfer`: objects moved to the worker (a
   * MessagePort the caller reads synchronously with receiveMessageOnPort).
   */
  post(w: number, t: Task, transfer: Transferable[] = []): void {
    if (this.closed) throw new Error('the worker pool is closed');
    if (this.failure) throw this.failure;
    if (!(w >= 0 && w < this.size)) throw new Error(`no worker ${w} in a pool of ${this.size}`);
    this.workers[w]!.postMessage({ id: 0, task: t.task, args: t.args }, transfer);
  }

  /** Load these variant modules in every worker ahead of the first run (so timings leave the loading out). */
  async preload(keys: string[]): Promise<void> {
    await this.run(Array.from({ length: this.size }, () => ({ task: 'load', args: { keys } })));
  }

  /** End the workers. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await Promise.all(this.workers.map((w) => w.terminate()));
  }
}

/** Run `f` with a pool of `threads` workers, closed afterwards whatever happens. */
export async function withPool<T>(threads: number, f: (pool: Pool) => Promise<T>): Promise<T> {
  const pool = await Pool.create(threads);
  try {
    return await f(pool);
  } finally {
    await pool.close();
  }
}

/**
 * Split [0, n) into at most `parts` contiguous ranges of nearly equal length whose inner
 * boundaries are multiples of `align` (empty ranges are left out).
 */
export function splitRange(n: number, parts: number, align = 1): [number, number][] {
  const units = Math.ceil(n / align);
  const out: [number, number][] = [];
  let start = 0;
  for (let p = 0; p < parts; p++) {
    const end = p === parts - 1 ? n : Math.min(n, Math.round((units * (p + 1)) / parts) * align);
    if (end > start) out.push([start, end]);
    start = Math.max(start, end);
  }
  return out;
}

type Real = Float32Array | Float64Array;

/** A zeroed array of the same type as `like` (or of `type`) on a SharedArrayBuffer. */
export function sharedArray<T extends Real>(like: T | 'f32' | 'f64', length: number): T {
  const f32 = like === 'f32' || like instanceof Float32Array;
  const bytes = f32 ? 4 : 8;
  const buf = new SharedArrayBuffer(length * bytes);
  return (f32 ? new Float32Array(buf) : new Float64Array(buf)) as T;
}

/** `x` itself when it already lies on a SharedArrayBuffer, else a shared copy. */
export function toShared<T extends Real | Int32Array | Uint32Array | Uint8Array>(x: T): T {
  if (x.buffer instanceof SharedArrayBuffer) return x;
  const y = new (x.constructor as new (b: SharedArrayBuffer) => T)(new SharedArrayBuffer(x.byteLength));
  y.set(x as never);
  return y;
}
