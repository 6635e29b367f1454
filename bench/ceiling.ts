// What scaling the machine offers at a given moment: independent compute loops on worker threads,
// timed beside the threaded runs of a benchmark (bench bigdft-conv, bench md). How much of k
// loops' work k threads do in one loop's time is the speed-up k threads can reach at best then,
// whatever else shares the cores; a threaded run's speed-up is read against it.
import { Worker } from 'node:worker_threads';

/** A scalar floating-point loop (four independent chains, registers only): 2e7 rounds take about 40 ms on one idle core. */
const CEILING_LOOP = `const { parentPort } = require('node:worker_threads');
parentPort.on('message', (n) => {
  let a = 1, b = 0.5, c = 0.25, d = 0.125;
  for (let i = 0; i < n; i++) { a = a * 1.0000001 + 1e-9; b = b * 0.9999999 + 1e-9; c = c * 1.0000002 - 1e-9; d = d * 0.9999998 + 2e-9; }
  parentPort.postMessage(a + b + c + d);
});`;

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

  async measure(reps = 3): Promise<void> {
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

/** loopsPhrase of a Ceiling's ratio on `threads` (nothing without a Ceiling). */
export const ceilingText = (c: Ceiling | undefined, threads: number): string => loopsPhrase(c?.ratio(threads));
