// The grid pair search on randomized boxes against the O(N^2) builder (the oracle): small boxes
// (rlist just under half an edge), sparse boxes with empty grid columns, clumped atoms, exclusions,
// LJ-first cluster order; each atom pair within rlist exactly once with the right mask bit; and the
// search split over column ranges or claimed chunks (as worker threads run it) joined into the same list.
import { describe, it, expect } from 'vitest';
import {
  buildClusters, buildPairList, buildPairListBrute, chunkArenas, columnRanges, listBuffers, searchColumnChunks, searchColumns,
  type ClusterLayout, type PairList, type SearchInput, type SplitParts,
} from '../../runtime/md/clusters.ts';
import { randomSystem, type MdSystem } from '../../runtime/md/system.ts';
import { seededRng as rng } from '../../runtime/tune/strategies.ts';

/** Atoms packed into one corner of the box (most grid columns empty), with random exclusions between near neighbours. */
function clumped(n: number, box: [number, number, number], seed: number): MdSystem {
  const base = randomSystem({ n, box: [box[0] / 3, box[1] / 3, box[2]], seed, minDist: 0.1, exclusionFraction: 0.3 });
  return { ...base, box };
}

/** Every atom pair within rlist (minimum image) counted exactly once (one image within rlist) unless excluded; no excluded pair counted; returns the pairs counted within rlist. */
function coverage(sys: MdSystem, L: ClusterLayout, list: PairList): { counted: number; bad: string[] } {
  const n = sys.q.length;
  const { M, N } = list;
  const seen = new Map<number, number>();
  const bad: string[] = [];
  const rl2 = list.rlist ** 2;
  for (let e = 0; e < list.ci.length; e += 4) {
    const i = list.ci[e]!;
    const s = list.ci[e + 1]!;
    for (let k = list.ci[e + 2]!; k < list.ci[e + 3]!; k++) {
      const j = list.cj[k]!;
      for (let a = 0; a < M; a++) {
        for (let b = 0; b < N; b++) {
          const bit = a * N + b;
          if (!((list.excl[k * list.maskWords + (bit >> 5)]! >>> (bit & 31)) & 1)) continue;
          const pa = i * M + a;
          const pb = j * N + b;
          const A = L.atomOf[pa]!;
          const B = L.atomOf[pb]!;
          if (A < 0 || B < 0 || A === B) bad.push(`slots ${pa}-${pb}: a dummy or self pair is computed`);
          // Only images within rlist count: the default rBB lets in cluster pairs whose atom pairs
          // lie beyond it (the kernels' cut-off leaves those out).
          let d2 = 0;
          for (let d = 0; d < 3; d++) d2 += (L.x[3 * pa + d]! + list.shiftVec[3 * s + d]! - L.x[3 * pb + d]!) ** 2;
          if (d2 >= rl2) continue;
          const key = Math.min(A, B) * n + Math.max(A, B);
          seen.set(key, (seen.get(key) ?? 0) + 1);
        }
      }
    }
  }
  const ex = new Set<number>();
  sys.exclusions.forEach((l, a) => l?.forEach((b) => ex.add(Math.min(a, b) * n + Math.max(a, b))));
  for (let a = 0; a < n; a++) {
    for (let b = a + 1; b < n; b++) {
      let d2 = 0;
      for (let d = 0; d < 3; d++) {
        let dx = sys.x[3 * a + d]! - sys.x[3 * b + d]!;
        dx -= sys.box[d]! * Math.round(dx / sys.box[d]!);
        d2 += dx * dx;
      }
      const key = a * n + b;
      const count = seen.get(key) ?? 0;
      const want = ex.has(key) ? 0 : d2 < rl2 ? 1 : 0;
      if (count !== want) bad.push(`atoms ${a}-${b} at ${Math.sqrt(d2).toFixed(4)} nm${ex.has(key) ? ' (excluded)' : ''}: counted ${count} times, want ${want}`);
    }
  }
  return { counted: seen.size, bad };
}

/** coverage() as an assertion: returns the pairs counted within rlist. */
function checkCoverage(sys: MdSystem, L: ClusterLayout, list: PairList, name: string): number {
  const { counted, bad } = coverage(sys, L, list);
  expect(bad.slice(0, 5), name).toEqual([]);
  return counted;
}

const same = (a: PairList, b: PairList): void => {
  expect(Array.from(a.ci)).toEqual(Array.from(b.ci));
  expect(Array.from(a.cj)).toEqual(Array.from(b.cj));
  expect(Array.from(a.excl)).toEqual(Array.from(b.excl));
};

/** The randomized boxes: [name, system, rlist]. */
function boxes(): [string, MdSystem, number][] {
  const out: [string, MdSystem, number][] = [];
  const r = rng(20261124);
  for (let t = 0; t < 3; t++) {
    const box: [number, number, number] = [1.6 + r(), 1.6 + r(), 1.6 + r()];
    const rlist = Math.min(...box) / 2 - 0.01 - 0.2 * r();
    out.push([`dense ${t}`, randomSystem({ n: 60 + Math.floor(80 * r()), box, seed: 100 + t, minDist: 0.2, exclusionFraction: 0.5 * r() }), rlist]);
  }
  // rlist just under half the smallest edge: the periodic images meet.
  out.push(['small box', randomSystem({ n: 40, box: [1.21, 1.3, 1.25], seed: 7, minDist: 0.15, exclusionFraction: 0.4 }), 0.6]);
  out.push(['sparse', randomSystem({ n: 12, box: [3.1, 2.9, 3.0], seed: 11, exclusionFraction: 0.5 }), 1.0]);
  out.push(['clumped', clumped(90, [3.3, 3.0, 2.4], 5), 0.7]);
  return out;
}

describe('grid pair search on randomized boxes against the brute-force list', () => {
  const cases = boxes();
  it.each([[1, 1], [2, 2], [4, 2], [4, 4], [8, 4], [4, 8]])('%ix%i: same list with rbb = 0; every pair within rlist once with the default rbb', (M, N) => {
    for (const [name, sys, rlist] of cases) {
      // LJ-first cluster order on a random half of the atoms, as MdProblem asks for water.
      const r = rng(M * 10 + N);
      const ljFirst = Array.from(sys.type, () => r() < 0.5);
      for (const opts of [{}, { ljFirst }]) {
        const L = buildClusters(sys, M, N, opts);
        const brute = buildPairListBrute(sys, L, rlist);
        const grid = buildPairList(sys, L, rlist, { rbb: 0 });
        same(grid, brute);
        if (M === 1 && N === 1) same(buildPairList(sys, L, rlist, { rbb: 0, generic: true }), brute);
        expect(checkCoverage(sys, L, buildPairList(sys, L, rlist), name)).toBeGreaterThan(0);
        expect(checkCoverage(sys, L, grid, name)).toBeGreaterThan(0);
      }
    }
  });

  it("runs the caller's `meanwhile` once on every path: grid, split, 1x1, brute force; with the split, before the caller searches", () => {
    const [, sys, rlist] = boxes()[0]!;
    const L = buildClusters(sys, 4, 4);
    let calls = 0;
    const meanwhile = () => void calls++;
    const whole = buildPairList(sys, L, rlist, { meanwhile });
    expect(calls).toBe(1);
    // A split that runs meanwhile first, then searches two column ranges here.
    const order: string[] = [];
    const split = (inp: SearchInput, mw?: () => void): SplitParts => {
      mw?.();
      order.push('search');
      const b = columnRanges(inp.grid, 2);
      return { parts: [searchColumns(inp, b[0]!, b[1]!), searchColumns(inp, b[1]!, b[2]!)] };
    };
    const joined = buildPairList(sys, L, rlist, { split, meanwhile: () => { calls++; order.push('meanwhile'); } });
    expect(calls).toBe(2);
    expect(order).toEqual(['meanwhile', 'search']);
    expect(Array.from(joined.cj)).toEqual(Array.from(whole.cj));
    buildPairList(sys, buildClusters(sys, 1, 1), rlist, { meanwhile });
    expect(calls).toBe(3);
    const { grid: _g, ...noGrid } = buildClusters(sys, 2, 2);
    buildPairList(sys, noGrid, rlist, { meanwhile });
    expect(calls).toBe(4);
  });

  it('the coverage check catches a pair left out and an excluded pair let in', () => {
    const [, sys, rlist] = boxes()[0]!;
    const L = buildClusters(sys, 4, 4);
    const list = buildPairList(sys, L, rlist, { rbb: 0 });
    expect(coverage(sys, L, list).bad).toEqual([]);
    // Clear the bit of a computed pair within rlist: it goes missing.
    const dropped = { ...list, excl: list.excl.slice() };
    let cleared = false;
    for (let e = 0; e < list.ci.length && !cleared; e += 4) {
      const [i, s] = [list.ci[e]!, list.ci[e + 1]!];
      for (let k = list.ci[e + 2]!; k < list.ci[e + 3]! && !cleared; k++) {
        for (let bit = 0; bit < 16 && !cleared; bit++) {
          if (!((list.excl[k]! >>> bit) & 1)) continue;
          const [pa, pb] = [4 * i + (bit >> 2), 4 * list.cj[k]! + (bit & 3)];
          let d2 = 0;
          for (let d = 0; d < 3; d++) d2 += (L.x[3 * pa + d]! + list.shiftVec[3 * s + d]! - L.x[3 * pb + d]!) ** 2;
          if (d2 < rlist ** 2) {
            dropped.excl[k] = (list.excl[k]! & ~(1 << bit)) >>> 0;
            cleared = true;
          }
        }
      }
    }
    expect(cleared).toBe(true);
    expect(coverage(sys, L, dropped).bad.length).toBeGreaterThan(0);
    // Set every bit of a masked entry: excluded pairs (or dummies, or pairs counted elsewhere) come in.
    const m = list.cj.findIndex((_, e) => list.excl[e] !== 0xffff);
    const opened = { ...list, excl: list.excl.slice() };
    opened.excl[m] = 0xffff;
    expect(coverage(sys, L, opened).bad.length).toBeGreaterThan(0);
  });

  it('the search split over column ranges (worker threads) joins into the list of one search', () => {
    for (const [, sys, rlist] of boxes()) {
      for (const [M, N] of [[4, 4], [8, 4], [2, 2]] as const) {
        const L = buildClusters(sys, M, N);
        const whole = buildPairList(sys, L, rlist);
        for (const parts of [2, 3, 5]) {
          let ranges: number[] = [];
          const split = (inp: SearchInput): SplitParts => {
            ranges = columnRanges(inp.grid, parts);
            return { parts: ranges.slice(0, -1).map((m0, k) => searchColumns(inp, m0, ranges[k + 1]!)) };
          };
          same(buildPairList(sys, L, rlist, { split }), whole);
          expect(ranges.length).toBe(parts + 1);
        }
      }
    }
  });
  it('chunks of columns claimed in turn by two searchers (one workspace each) join, in chunk order, into the list of one search', () => {
    for (const [, sys, rlist] of boxes()) {
      for (const [M, N] of [[4, 4], [2, 2]] as const) {
        const L = buildClusters(sys, M, N);
        const whole = buildPairList(sys, L, rlist);
        let taken: number[][] = [];
        const split = (inp: SearchInput): SplitParts => {
          const bounds = columnRanges(inp.grid, 7);
          // A claims chunk 0, B chunks 1 and 2, A the rest: a counter shared the way threads share it
          let next = 0;
          const byB = new Set([1, 2]);
          const a = searchColumnChunks(inp, bounds, () => { while (byB.has(next)) next++; return next++; });
          next = 1;
          const b = searchColumnChunks(inp, bounds, () => (next <= 2 ? next++ : bounds.length));
          taken = [a.map((c) => c.chunk), b.map((c) => c.chunk)];
          return { parts: [...a, ...b].sort((x, y) => x.chunk - y.chunk).map((c) => c.part) };
        };
        same(buildPairList(sys, L, rlist, { split }), whole);
        expect(taken).toEqual([[0, 3, 4, 5, 6], [1, 2]]);
      }
    }
  });

  it('with an arena per searcher, the parts are views on shared arrays reused from search to search, and the joined lists stay those of one search', () => {
    const A = chunkArenas();
    const B = chunkArenas();
    let bufsA: ArrayBufferLike[] = [];
    for (const [, sys, rlist] of boxes()) {
      for (const [M, N] of [[4, 4], [2, 2], [8, 4]] as const) {
        const L = buildClusters(sys, M, N);
        const whole = buildPairList(sys, L, rlist);
        // three searches in a row on the same arenas (the second and third overwrite the first's views)
        for (let rep = 0; rep < 3; rep++) {
          const split = (inp: SearchInput): SplitParts => {
            const bounds = columnRanges(inp.grid, 9);
            let next = 0;
            const a = searchColumnChunks(inp, bounds, () => (next < 5 ? next++ : bounds.length), A);
            const b = searchColumnChunks(inp, bounds, () => next++, B);
            const parts = [...a, ...b].sort((x, y) => x.chunk - y.chunk).map((c) => c.part);
            for (const p of a.map((c) => c.part)) expect(p.cj.buffer).toBeInstanceOf(SharedArrayBuffer);
            bufsA = a.map((c) => c.part.cj.buffer);
            return { parts };
          };
          same(buildPairList(sys, L, rlist, { split }), whole);
        }
      }
    }
    // all of searcher A's parts of the last search share one array
    expect(new Set(bufsA).size).toBe(1);
  });

  it('joined into list buffers, a list stays intact through the next search and shares its arrays with the one after', () => {
    const [, sys, rlist] = boxes()[0]!;
    const split = (inp: SearchInput): SplitParts => {
      const bounds = columnRanges(inp.grid, 5);
      let next = 0;
      return { parts: searchColumnChunks(inp, bounds, () => next++).map((c) => c.part) };
    };
    const join = listBuffers();
    const L = buildClusters(sys, 4, 4);
    const whole = buildPairList(sys, L, rlist);
    const L2 = buildClusters(sys, 2, 2);
    const whole2 = buildPairList(sys, L2, rlist);
    const first = buildPairList(sys, L, rlist, { split, join });
    const second = buildPairList(sys, L2, rlist, { split, join });
    same(first, whole);
    same(second, whole2);
    expect(first.cj.buffer).not.toBe(second.cj.buffer);
    const third = buildPairList(sys, L, rlist, { split, join });
    same(third, whole);
    expect(third.cj.buffer).toBe(first.cj.buffer);
    expect(third.excl.buffer).toBe(first.excl.buffer);
    same(second, whole2);
  });
});
