// The pair search's inner scan in WebAssembly SIMD (runtime/md/search-simd.ts) against the
// TypeScript search (the oracle), bit for bit: the same i-entries, j-entries and masks on
// randomized boxes (dense, small with meeting images, sparse, clumped, exclusions, LJ-first order,
// a larger box with dummies), for rBB 0 (every pair pruned atom by atom), the default rBB and an
// rBB at rlist (no prune), and over column ranges as worker threads search; the committed module
// bytes are the generator's.
import { readFileSync } from 'node:fs';
import { describe, it, expect, afterEach } from 'vitest';
import { buildClusters, buildPairList, columnRanges, searchColumns, type PairList, type SearchInput, type SplitParts } from '../../runtime/md/clusters.ts';
import { prefilterBounds, searchWorkspace, setSearchSimd } from '../../runtime/md/search-simd.ts';
import { randomSystem, type MdSystem } from '../../runtime/md/system.ts';
import { searchBytesModule } from '../../generator/md-search-wat.ts';
import { seededRng as rng } from '../../runtime/tune/strategies.ts';

function boxes(): [string, MdSystem, number][] {
  const out: [string, MdSystem, number][] = [];
  const r = rng(7011);
  for (let t = 0; t < 3; t++) {
    const box: [number, number, number] = [1.6 + r(), 1.6 + r(), 1.6 + r()];
    const rlist = Math.min(...box) / 2 - 0.01 - 0.2 * r();
    out.push([`dense ${t}`, randomSystem({ n: 60 + Math.floor(80 * r()), box, seed: 300 + t, minDist: 0.2, exclusionFraction: 0.5 * r() }), rlist]);
  }
  out.push(['small box', randomSystem({ n: 40, box: [1.21, 1.3, 1.25], seed: 7, minDist: 0.15, exclusionFraction: 0.4 }), 0.6]);
  out.push(['sparse', randomSystem({ n: 12, box: [3.1, 2.9, 3.0], seed: 11, exclusionFraction: 0.5 }), 1.0]);
  const base = randomSystem({ n: 90, box: [1.1, 1.0, 2.4], seed: 5, minDist: 0.1, exclusionFraction: 0.3 });
  out.push(['clumped', { ...base, box: [3.3, 3.0, 2.4] }, 0.7]);
  out.push(['large', randomSystem({ n: 1500, box: [3.2, 3.4, 3.0], seed: 21, minDist: 0.12, exclusionFraction: 0.2 }), 0.9]);
  return out;
}

const flat = (l: PairList) => ({ ci: Array.from(l.ci), cj: Array.from(l.cj), excl: Array.from(l.excl), bb: l.stats.bbChecks, pairs: l.stats.computedPairs });

describe('pair search in WebAssembly SIMD against the TypeScript search', () => {
  afterEach(() => setSearchSimd(true));

  it("the f32 pre-test's bounds decide only what the f64 test decides the same way", () => {
    // Pairs with d within 1e-4 of rlist (where f32 rounding could flip the decision), at
    // coordinates up to `reach`: d^2 from the f32-rounded coordinates in f32 arithmetic (as the
    // module computes it) below lo must be within rl2 in f64, and at or above hi must not be.
    const f = Math.fround;
    const r = rng(4242);
    let lows = 0;
    let highs = 0;
    for (const [rlist, reach] of [[1.067, 10.2], [0.9, 3.5], [2.5, 70]] as const) {
      const rl2 = rlist * rlist;
      const { lo, hi } = prefilterBounds(rl2, reach);
      expect(lo).toBeLessThan(rl2);
      expect(hi).toBeGreaterThan(rl2);
      // the band is narrow: f32 rounding of d^2 is a few 1e-7 relative here
      expect((hi - lo) / rl2).toBeLessThan(2e-3);
      for (let k = 0; k < 200000; k++) {
        const a = [0, 1, 2].map(() => (2 * r() - 1) * (reach - rlist - 1));
        const u = [r() - 0.5, r() - 0.5, r() - 0.5];
        const n = Math.hypot(...u);
        const d = rlist * (1 + (2 * r() - 1) * 1e-4 * (k % 2 ? 1 : 30));
        const b = a.map((c, i) => c + (d * u[i]!) / n);
        const d2 = (a[0]! - b[0]!) ** 2 + (a[1]! - b[1]!) ** 2 + (a[2]! - b[2]!) ** 2;
        const dx = f(f(a[0]!) - f(b[0]!)), dy = f(f(a[1]!) - f(b[1]!)), dz = f(f(a[2]!) - f(b[2]!));
        const d2f = f(f(f(dx * dx) + f(dy * dy)) + f(dz * dz));
        if (d2f < lo) {
          lows++;
          expect(d2).toBeLessThan(rl2);
        } else if (d2f >= hi) {
          highs++;
          expect(d2).toBeGreaterThanOrEqual(rl2);
        }
      }
    }
    // both certain sides were exercised
    expect(lows).toBeGreaterThan(10000);
    expect(highs).toBeGreaterThan(10000);
  });

  it('the committed module bytes are the generator output', async () => {
    const committed = readFileSync(new URL('../../runtime/md/search-simd-bytes.ts', import.meta.url), 'utf8');
    expect(committed).toBe(await searchBytesModule());
  });

  it.each([[4, 4], [8, 4], [4, 2], [2, 2], [4, 8], [8, 8]])('%ix%i: the same list, bit for bit (rBB 0, default, rlist)', (M, N) => {
    let entries = 0;
    for (const [name, sys, rlist] of boxes()) {
      const r = rng(M * 10 + N);
      const ljFirst = Array.from(sys.type, () => r() < 0.5);
      for (const copts of [{}, { ljFirst }]) {
        const L = buildClusters(sys, M, N, copts);
        setSearchSimd(true);
        expect(searchWorkspace(M, N, 1, new Float64Array(6), new Float64Array(3 * N), new Int32Array(N))).not.toBeNull();
        for (const rbb of [0, undefined, rlist]) {
          const opts = rbb === undefined ? {} : { rbb };
          setSearchSimd(false);
          const ts = buildPairList(sys, L, rlist, opts);
          setSearchSimd(true);
          const wasm = buildPairList(sys, L, rlist, opts);
          expect(flat(wasm), `${name} rbb ${rbb}`).toEqual(flat(ts));
          entries += ts.cj.length;
        }
      }
    }
    expect(entries).toBeGreaterThan(1000);
  });

  it('over column ranges (worker threads): the same list as the TypeScript search', () => {
    for (const [name, sys, rlist] of boxes()) {
      for (const [M, N] of [[4, 4], [8, 4], [2, 2]] as const) {
        const L = buildClusters(sys, M, N);
        setSearchSimd(false);
        const ts = buildPairList(sys, L, rlist);
        setSearchSimd(true);
        for (const parts of [2, 3]) {
          const split = (inp: SearchInput): SplitParts => {
            const b = columnRanges(inp.grid, parts);
            return { parts: b.slice(0, -1).map((m0, k) => searchColumns(inp, m0, b[k + 1]!)) };
          };
          expect(flat(buildPairList(sys, L, rlist, { split })), `${name} ${M}x${N} ${parts}`).toEqual(flat(ts));
        }
      }
    }
  });
});
