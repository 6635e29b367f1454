import { describe, it, expect } from 'vitest';
import { STRATEGIES, STRATEGY_NAMES, replayStrategy, neighbours, seededRng, type Candidate } from '../../runtime/tune/strategies.ts';

// A synthetic landscape over three axes, one failing point.
const cands: Candidate[] = [];
const times = new Map<string, number | null>();
const params = new Map<string, Record<string, string | number>>();
for (const x of [1, 2, 4, 8]) for (const y of ['p', 'q', 'r']) for (const z of [0, 1]) {
  const key = `s.x${x}.${y}.z${z}`;
  const p = { x, y, z };
  cands.push({ key, params: p });
  params.set(key, p);
  times.set(key, x === 8 && y === 'r' ? null : Math.abs(Math.log2(x) - 2) + (y === 'q' ? 0 : 0.7) + z * 0.3 + 1);
}
const trueBest = [...times].filter(([, t]) => t !== null).sort((a, b) => a[1]! - b[1]!)[0]![0];

describe('strategies', () => {
  it.each(STRATEGY_NAMES)('%s is deterministic for a seed and stays within the budget', async (name) => {
    const a = await replayStrategy(name, times, 10, 7, params);
    const b = await replayStrategy(name, times, 10, 7, params);
    expect(a.evaluations).toEqual(b.evaluations);
    expect(new Set(a.evaluations.map((e) => e.key)).size).toBe(a.evaluations.length);
    expect(a.evaluations.length).toBeLessThanOrEqual(10);
    expect(a.evaluations.length).toBe(10);
  });

  it.each(STRATEGY_NAMES)('%s with the whole budget evaluates everything and finds the true best', async (name) => {
    const r = await replayStrategy(name, times, cands.length, 3, params);
    expect(new Set(r.evaluations.map((e) => e.key)).size).toBe(cands.length);
    expect(r.bestKey).toBe(trueBest);
  });

  it('exhaustive finds the true best; failures are never the best', async () => {
    const r = await replayStrategy('exhaustive', times, 1000, 1, params);
    expect(r.bestKey).toBe(trueBest);
    expect(r.bestMs).toBe(times.get(trueBest));
    expect(r.evaluations.filter((e) => e.medianMs === null).length).toBe(2);
    expect(r.bestSoFar.at(-1)).toBe(r.bestMs);
  });

  it('different seeds give different random orders', async () => {
    const a = await replayStrategy('random', times, 24, 1, params);
    const b = await replayStrategy('random', times, 24, 2, params);
    expect(a.evaluations.map((e) => e.key)).not.toEqual(b.evaluations.map((e) => e.key));
  });

  it('neighbours differ in one axis; conditional axes are ignored', () => {
    const c = cands.find((x) => x.key === 's.x2.q.z0')!;
    const n = neighbours(c, cands).map((x) => x.key).sort();
    expect(n).toEqual(['s.x1.q.z0', 's.x2.p.z0', 's.x2.q.z1', 's.x2.r.z0', 's.x4.q.z0', 's.x8.q.z0']);
    const md: Candidate[] = [
      { key: 'h', params: { cluster: '1x1', list: 'half', excl: 'mask' } },
      { key: 'f', params: { cluster: '1x1', list: 'full', excl: 'mask' } },
      { key: 'q', params: { cluster: '4x4', excl: 'mask' } },
      { key: 'qb', params: { cluster: '4x4', excl: 'branch' } },
    ];
    expect(neighbours(md[0]!, md).map((x) => x.key).sort()).toEqual(['f', 'q']);
    expect(neighbours(md[2]!, md).map((x) => x.key).sort()).toEqual(['f', 'h', 'qb']);
  });

  it('annealing and bandit beat the budget-limited average on a smooth landscape (seeded)', async () => {
    // not a proof, a regression guard: the best found within half the budget is near the optimum
    for (const name of ['annealing', 'bandit'] as const) {
      let found = 0;
      for (let seed = 1; seed <= 10; seed++) {
        const r = await replayStrategy(name, times, 12, seed, params);
        if (r.bestMs! <= times.get(trueBest)! + 0.31) found++;
      }
      expect(found, name).toBeGreaterThanOrEqual(6);
    }
  });

  it('descent and model find the optimum of an additive landscape in far fewer evaluations than the space', async () => {
    // 5 x 4 x 3 x 2 = 120 variants; log time is a sum of per-axis effects (plus a failing corner)
    const t2 = new Map<string, number | null>();
    const p2 = new Map<string, Record<string, string | number>>();
    const eff = { a: [0.5, 0.1, 0.9, 0.3, 0.7], b: [0.2, 0, 0.6, 0.4], c: [0.3, 0.1, 0], d: [0, 0.25] };
    for (let a = 0; a < 5; a++) for (let b = 0; b < 4; b++) for (let c = 0; c < 3; c++) for (let d = 0; d < 2; d++) {
      const key = `t.a${a}.b${b}.c${c}.d${d}`;
      p2.set(key, { a, b, c, d });
      t2.set(key, a === 2 && b === 2 ? null : Math.exp(eff.a[a]! + eff.b[b]! + eff.c[c]! + eff.d[d]!));
    }
    const best = Math.exp(0.1 + 0 + 0 + 0);
    for (const name of ['descent', 'model'] as const) {
      let found = 0;
      for (let seed = 1; seed <= 10; seed++) {
        // budget: a quarter of the space
        const r = await replayStrategy(name, t2, 30, seed, p2);
        if (Math.abs(r.bestMs! - best) < 1e-12) found++;
      }
      expect(found, name).toBeGreaterThanOrEqual(9);
    }
  });

  it('a strategy can be stopped by evaluate throwing', async () => {
    let n = 0;
    await expect(
      STRATEGIES.annealing(cands, async () => {
        if (++n > 3) throw new Error('stop');
        return 1;
      }, 100, seededRng(1)),
    ).rejects.toThrow('stop');
    expect(n).toBe(4);
  });
});
