// What scaling the machine offers at a given moment: independent compute loops on worker threads,
// timed beside the threaded runs of a benchmark (bench bigdft-conv, bench md). How much of k
// loops' work k threads do in one loop's time is the speed-up k threads can reach at best then,
// whatever else shares the cores; a threaded run's speed-up is read against it. Beside them, what
// handing data from one core to the other costs then (measureHandover): the split update and
// each thread's read of all positions pay it every step.
import { Worker } from 'node:worker_threads';

/** A scalar floating-point loop (four independent chains, registers only): 2e7 rounds take about 40 ms on one idle core. */
const CEILING_LOOP = `const { parentPort } = require('node:worker_threads');
parentPort.on('message', (n) => {
  let a = 1, b = 0.5, c = 0.25, d = 0.125;
  for (let i = 0; i < n; i++) { a = a * 1.0000001 + 1e-9; b = b * 0.9999999 + 1e-9; c = c * 1.0000002 - 1e-9; d = d * 0.9999998 + 2e-9; }
  parentPort.postMessage(a + b + c + d);
});`;

/**
 * What handing data from one core to the other costs at this moment. Two threads share an array
 * of `bytes`; in each round both first read the whole array (as every MD thread reads all
 * positions into its kernel), or only their own half, or the whole array and then write the
 * other's half back with the same values (as the MD threads hand lines back:
 * runtime/parallel/md.ts handBack); then, after a barrier, each overwrites its own half (as the
 * split update writes its atoms) and times that write. Where the other core holds the lines it
 * read, the write must take them back first (cross-core coherence); on a 2-vCPU VM this cost 8-9x
 * the private write (2026-12-07: 167-192 against 20 us for 384 KB), and 14-17 us where the other
 * core had written them back.
 */
const HANDOVER_LOOP = `const { parentPort, workerData } = require('node:worker_threads');
const { sab, me, n, rounds } = workerData;
const X = new Float64Array(sab, 0, n), ctl = new Int32Array(sab, 8 * n, 4), tmp = new Float64Array(n), src = new Float64Array(n / 2).fill(me + 1);
const lo = me * n / 2;
let gen = 0;
const barrier = () => { gen++; Atomics.add(ctl, 0, 1); while (Atomics.load(ctl, 0) < 2 * gen) {} };
const best = { all: Infinity, own: Infinity, back: Infinity };
const olo = (1 - me) * n / 2;
for (let r = 0; r < rounds; r++) {
  for (const mode of ['all', 'own', 'back']) {
    barrier();
    if (mode === 'own') tmp.set(X.subarray(lo, lo + n / 2), lo);
    else tmp.set(X);
    if (mode === 'back') X.set(tmp.subarray(olo, olo + n / 2), olo);
    barrier();
    const t = performance.now();
    X.set(src, lo);
    best[mode] = Math.min(best[mode], performance.now() - t);
  }
}
parentPort.postMessage(best);`;

/**
 * The fastest write of a thread's half after both threads read the whole array (`afterShared`),
 * after each read only its own half (`afterOwn`), and after both read the whole array and wrote
 * the other's half back (`afterHandBack`), in microseconds; over several measurements
 * (Ceiling.measure after each round), `afterSharedMax` is the slowest of the fastest writes
 * after a shared read: the cost moves within minutes on a VM, as its vCPUs move between cores.
 */
export interface Handover {
  afterShared: number;
  afterOwn: number;
  afterHandBack?: number;
  afterSharedMax?: number;
}

/** Two Handovers as one: the fastest writes of both, and the slowest of their fastest writes after a shared read. */
export const mergeHandover = (a: Handover | undefined, b: Handover): Handover => ({
  afterShared: Math.min(b.afterShared, a?.afterShared ?? Infinity),
  afterOwn: Math.min(b.afterOwn, a?.afterOwn ?? Infinity),
  afterHandBack: Math.min(b.afterHandBack ?? Infinity, a?.afterHandBack ?? Infinity),
  afterSharedMax: Math.max(b.afterSharedMax ?? b.afterShared, a?.afterSharedMax ?? 0),
});

/** Measure a Handover on two worker threads (bytes: the whole array; the default, 768 KiB, is the LJ fluid's positions in f64). */
export async function measureHandover(bytes = 786_432, rounds = 40): Promise<Handover> {
  const n = 2 * Math.floor(bytes / 16);
  const sab = new SharedArrayBuffer(8 * n + 16);
  const out = await Promise.all([0, 1].map((me) => new Promise<{ all: number; own: number; back: number }>((resolve, reject) => {
    const w = new Worker(HANDOVER_LOOP, { eval: true, workerData: { sab, me, n, rounds } });
    w.once('message', (m: { all: number; own: number; back: number }) => {
      resolve(m);
      void w.terminate();
    });
    w.once('error', reject);
  })));
  return { afterShared: 1000 * Math.min(...out.map((o) => o.all)), afterOwn: 1000 * Math.min(...out.map((o) => o.own)), afterHandBack: 1000 * Math.min(...out.map((o) => o.back)) };
}

export interface CeilingLoops {
  /** Run the loop on k of the workers at once; resolves when all k are done. */
  run(k: number): Promise<void>;
  close(): Promise<void>;
}

/** `threads` workers running CEILING_LOOP, started, compiled and warm. */
export async function ceilingLoops(threads: number): Promise<CeilingLoops> {
  const ws = Array.from({ length: threads }, () => {
    const w = new Worker(CEILING_LOOP, { eval: true });
    const s: { w: Worker; done?: { resolve(): void; reject(e: Error): void } } = { w };
    w.on('message', () => s.done?.resolve());
    w.on('error', (e) => s.done?.reject(e));
    return s;
  });
  const one = (s: (typeof ws)[number], n: number) => new Promise<void>((resolve, reject) => {
    s.done = { resolve, reject };
    s.w.postMessage(n);
  });
  for (let r = 0; r < 2; r++) await Promise.all(ws.map((s) => one(s, 2e7)));
  return {
    run: async (k) => {
      await Promise.all(ws.slice(0, k).map((s) => one(s, 2e7)));
    },
    close: async () => {
      await Promise.all(ws.map((s) => s.w.terminate()));
    },
  };
}

/**
 * The ceiling of each thread count over the rounds of a benchmark: measure() after each round's
 * runs times one loop and t loops at once (the fastest of `reps` each, on workers started for it
 * and ended after); ratio(t) is t times the fastest single loop over the fastest t loops, over
 * all rounds (as the runs it is read against keep their fastest round).
 */
export class Ceiling {
  private readonly best = new Map<number, number>();
  private readonly counts: number[];

  constructor(threadCounts: readonly number[]) {
    this.counts = [...new Set([1, ...threadCounts])].sort((a, b) => a - b);
  }

  /** The fastest hand-over writes over the rounds (measured where 2 threads run). */
  handover: Handover | undefined;

  async measure(reps = 3): Promise<void> {
    if (this.counts.includes(2)) this.handover = mergeHandover(this.handover, await measureHandover());
    const loops = await ceilingLoops(this.counts.at(-1)!);
    try {
      for (let r = 0; r < reps; r++) {
        for (const k of r % 2 ? [...this.counts].reverse() : this.counts) {
          const s = performance.now();
          await loops.run(k);
          const ms = performance.now() - s;
          this.best.set(k, Math.min(ms, this.best.get(k) ?? Infinity));
        }
      }
    } finally {
      await loops.close();
    }
  }

  /** t loops' work over one loop's, in the same time (NaN before measure()). */
  ratio(t: number): number {
    return (t * (this.best.get(1) ?? NaN)) / (this.best.get(t) ?? NaN);
  }
}

/** A Ceiling for the rounds of a benchmark where more than one thread runs (else undefined). */
export const ceilingFor = (threadCounts: readonly number[]): Ceiling | undefined => (threadCounts.some((t) => t > 1) ? new Ceiling(threadCounts) : undefined);

/** "; independent compute loops 1.84x in the same rounds", or nothing for a ratio not measured (undefined, NaN). */
export const loopsPhrase = (ratio: number | undefined): string =>
  ratio !== undefined && Number.isFinite(ratio) ? `; independent compute loops ${ratio.toFixed(2)}x in the same rounds` : '';

/**
 * "; a thread's write of half a 768 KiB array its partner had just read: 180 us, 20 us when it had
 * not (9.0x, cross-core coherence)", with a range over the rounds ("28-163 us ... (2.0-11.6x") where
 * they differ; or nothing.
 */
export const handoverPhrase = (h: Handover | undefined): string => {
  if (!h || !Number.isFinite(h.afterShared) || !Number.isFinite(h.afterOwn) || !(h.afterOwn > 0)) return '';
  const lo = h.afterShared.toFixed(0);
  const hi = h.afterSharedMax !== undefined && h.afterSharedMax.toFixed(0) !== lo ? h.afterSharedMax : undefined;
  const us = hi === undefined ? `${lo} us` : `${lo}-${hi.toFixed(0)} us over the rounds`;
  const x = hi === undefined ? `${(h.afterShared / h.afterOwn).toFixed(1)}x` : `${(h.afterShared / h.afterOwn).toFixed(1)}-${(hi / h.afterOwn).toFixed(1)}x`;
  const back = h.afterHandBack !== undefined && Number.isFinite(h.afterHandBack) ? `, ${h.afterHandBack.toFixed(0)} us when the partner had written its lines back` : '';
  return `; a thread's write of half a 768 KiB array its partner had just read: ${us}, ${h.afterOwn.toFixed(0)} us when it had not (${x}, cross-core coherence)${back}`;
};

/** loopsPhrase of a Ceiling's ratio on `threads`, and on 2 threads its hand-over phrase (nothing without a Ceiling). */
export const ceilingText = (c: Ceiling | undefined, threads: number): string => {
  const loops = loopsPhrase(c?.ratio(threads));
  return loops && threads === 2 ? loops + handoverPhrase(c?.handover) : loops;
};
