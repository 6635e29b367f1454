// A synthetic family whose runs split over threads (test/tune/threads.test.ts): keys
// fakethr.ts.v<V> (V in 0..2); v0 and v1 offer 1, 2 and 4 threads, v2 only one. A run's time is
// the variant's base time over the speed-up of its thread count (2 threads best).
import type { TuningFamily } from '../../runtime/tune/family.ts';

export const BASE = [3, 2, 2.5];
export const SPEEDUP: Record<number, number> = { 1: 1, 2: 1.8, 4: 1.5 };
/** Verifications per key (the tuner verifies a key once, whatever its thread counts). */
export const verified = new Map<string, number>();
const v = (key: string): number => Number(/^fakethr\.ts\.v(\d)$/.exec(key)![1]);

export const family: TuningFamily = {
  family: 'fakethr',
  measures: 'synthetic milliseconds',
  problems: () => [{ name: 'p', description: 'a synthetic landscape over threads' }],
  async candidates(device) {
    return device.target === 'ts' ? [0, 1, 2].map((i) => `fakethr.ts.v${i}`) : [];
  },
  defaultKey: () => 'fakethr.ts.v0',
  async params(key) {
    return { v: v(key) };
  },
  threadCounts: (key) => (v(key) === 2 ? [1] : [1, 2, 4]),
  async verify(key) {
    verified.set(key, (verified.get(key) ?? 0) + 1);
    return { ok: true, error: 0 };
  },
  async prepare() {
    return {
      async run(key, o = {}) {
        const t = o.threads ?? 1;
        if (!(t in SPEEDUP)) throw new Error(`asked for ${t} threads`);
        return BASE[v(key)]! / SPEEDUP[t]!;
      },
      dispose() {},
    };
  },
};
