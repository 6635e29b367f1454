// A synthetic tuning family for the tuner tests: keys fake.ts.a<A>.b<B> (A, B in 0..3) on a known
// landscape, one deliberately wrong variant (the fastest one, a0.b0), an optional delay per
// run (env FAKE_TUNE_DELAY_MS) so a spawned `kernforge tune` can be interrupted mid-run, and
// optional start keys (env FAKE_TUNE_START, comma-separated).
import type { TuningFamily } from '../../runtime/tune/family.ts';

export const A = [0, 1, 2, 3];
export const B = [0, 1, 2, 3];
export const BROKEN = 'fake.ts.a0.b0';
/** True time (ms) of a variant: best is a2.b1 among the correct ones. */
export const landscape = (a: number, b: number): number => (a === 0 && b === 0 ? 0.5 : 1 + (a - 2) ** 2 + 0.5 * (b - 1) ** 2 + 0.1 * a);
export const keyOf = (a: number, b: number): string => `fake.ts.a${a}.b${b}`;
const parse = (key: string): { a: number; b: number } => {
  const m = /^fake\.ts\.a(\d)\.b(\d)$/.exec(key);
  if (!m) throw new Error(`not a fake key: ${key}`);
  return { a: Number(m[1]), b: Number(m[2]) };
};

export const family: TuningFamily = {
  family: 'fake',
  measures: 'synthetic milliseconds',
  problems: () => [
    { name: 'tiny', description: 'a synthetic landscape' },
    { name: 'tiny-quick', description: 'the same, quick', quick: true, serves: 'tiny' },
  ],
  async candidates(device) {
    if (device.target !== 'ts') return [];
    return A.flatMap((a) => B.map((b) => keyOf(a, b)));
  },
  defaultKey: () => keyOf(3, 3),
  startKeys: () => (process.env.FAKE_TUNE_START ? process.env.FAKE_TUNE_START.split(',') : []),
  async params(key) {
    const { a, b } = parse(key);
    return { a, b };
  },
  async verify(key) {
    if (key === BROKEN) return { ok: false, error: 1e6, detail: 'returns wrong numbers on purpose' };
    return { ok: true, error: 0 };
  },
  async prepare() {
    const delay = Number(process.env.FAKE_TUNE_DELAY_MS ?? 0);
    return {
      async run(key) {
        if (delay > 0) await new Promise((r) => setTimeout(r, delay));
        const { a, b } = parse(key);
        return landscape(a, b);
      },
      dispose() {},
    };
  },
};
