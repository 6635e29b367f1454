// Cluster layout and cluster-pair list: the exclusion-mask convention (bit i*N+j set = the
// pair interacts), each atom pair within rlist exactly once, padding, periodic shifts, errors.
import { describe, it, expect } from 'vitest';
import { buildClusters, buildPairList, buildPairListBrute, clusterAtoms, clusterColumns, DUMMY_COORD, CENTRAL_SHIFT, type ClusterSplit } from '../../runtime/md/clusters.ts';
import { randomSystem, waterBox } from '../../runtime/md/system.ts';

const sys = randomSystem({ n: 157, box: [2.0, 2.2, 2.1], seed: 9, exclusionFraction: 0.4 });
const rlist = 0.8;

describe.each([[1, 1], [2, 2], [4, 2], [4, 4], [4, 8], [8, 4], [8, 8]])('%ix%i', (M, N) => {
  const L = buildClusters(sys, M, N);
  const list = buildPairList(sys, L, rlist);
  it('pads columns to multiples of max(M, N) with far-away dummies', () => {
    expect(L.nPadded % Math.max(M, N)).toBe(0);
    let real = 0;
    for (let p = 0; p < L.nPadded; p++) {
      if (L.atomOf[p]! >= 0) real++;
      else expect(L.x[3 * p]).toBe(DUMMY_COORD);
    }
    expect(real).toBe(157);
  });
  it('covers every atom pair within rlist exactly once, with the right mask bit', () => {
    const excluded = new Set<string>();
    sys.exclusions.forEach((e, a) => e.forEach((b) => excluded.add(`${a},${b}`)));
    const seen = new Map<string, number>();
    for (let e = 0; e < list.ci.length / 4; e++) {
      const [ci, sh, j0, j1] = [list.ci[4 * e]!, list.ci[4 * e + 1]!, list.ci[4 * e + 2]!, list.ci[4 * e + 3]!];
      for (let k = j0; k < j1; k++) {
        const cj = list.cj[k]!;
        for (let i = 0; i < M; i++) {
          for (let j = 0; j < N; j++) {
            const pa = ci * M + i;
            const pb = cj * N + j;
            const a = L.atomOf[pa]!;
            const b = L.atomOf[pb]!;
            const bit = i * N + j;
            const set = ((list.excl[k * list.maskWords + (bit >> 5)]! >>> (bit & 31)) & 1) === 1;
            const counted = a >= 0 && b >= 0 && pa < pb;
            expect(set).toBe(counted && !excluded.has(`${a},${b}`));
            if (!counted) continue;
            let d2 = 0;
            for (let c = 0; c < 3; c++) d2 += (L.x[3 * pa + c]! + list.shiftVec[3 * sh + c]! - L.x[3 * pb + c]!) ** 2;
            if (d2 < rlist * rlist) {
              const id = `${Math.min(a, b)},${Math.max(a, b)}`;
              seen.set(id, (seen.get(id) ?? 0) + 1);
            }
          }
        }
      }
    }
    let expected = 0;
    for (let a = 0; a < 157; a++) {
      for (let b = a + 1; b < 157; b++) {
        let d2 = 0;
        for (let c = 0; c < 3; c++) {
          let d = sys.x[3 * a + c]! - sys.x[3 * b + c]!;
          d -= sys.box[c]! * Math.round(d / sys.box[c]!);
          d2 += d * d;
        }
        if (d2 < rlist * rlist) {
          expected++;
          expect(seen.get(`${a},${b}`), `pair ${a},${b}`).toBe(1);
        }
      }
    }
    expect(seen.size).toBe(expected);
  });
  it('lists entries with exclusions before full ones within each i-entry', () => {
    const fullWord = (w: number) => (w < list.maskWords - 1 || (M * N) % 32 === 0 ? 0xffffffff : 2 ** ((M * N) % 32) - 1);
    for (let e = 0; e < list.ci.length / 4; e++) {
      let sawFull = false;
      for (let k = list.ci[4 * e + 2]!; k < list.ci[4 * e + 3]!; k++) {
        let full = true;
        for (let w = 0; w < list.maskWords; w++) full &&= list.excl[k * list.maskWords + w] === fullWord(w);
        if (full) sawFull = true;
        else expect(sawFull).toBe(false);
      }
    }
  });
});

describe('pair list errors and shifts', () => {
  it('uses the central shift for most entries and real shifts across the boundary', () => {
    const w = waterBox(64, 2);
    const list = buildPairList(w, buildClusters(w, 4, 4), 0.5);
    const shifts = new Set<number>();
    for (let e = 0; e < list.ci.length / 4; e++) shifts.add(list.ci[4 * e + 1]!);
    expect(shifts.has(CENTRAL_SHIFT)).toBe(true);
    expect(shifts.size).toBeGreaterThan(1);
  });
  it('rejects a list cut-off of half the box or more', () => {
    expect(() => buildPairList(sys, buildClusters(sys, 4, 4), 1.0)).toThrow(/half the smallest box edge/);
  });
  it('names the atom with a non-finite coordinate', () => {
    const bad = { ...sys, x: Float64Array.from(sys.x) };
    bad.x[3 * 41 + 1] = NaN;
    expect(() => buildClusters(bad, 4, 4)).toThrow(/atom 42/);
  });
});

describe('clustering from an earlier layout\'s order', () => {
  // Water whose atoms moved since the layout that gives the hint (some across columns and
  // periodic edges), with LJ-first reordering inside i-clusters: the hint only changes where
  // each column's sort starts, never the layout.
  const w = waterBox(300, 5);
  const moved = { ...w, x: Float64Array.from(w.x, (v, i) => v + 0.09 * Math.sin(1.7 * i + 0.3)) };
  const lj = Array.from(w.type, (t) => w.ljTypes[t]!.epsilon !== 0);
  const same = (a: ReturnType<typeof buildClusters>, b: ReturnType<typeof buildClusters>) => {
    expect(b.nPadded).toBe(a.nPadded);
    expect(Array.from(b.atomOf)).toEqual(Array.from(a.atomOf));
    expect(Array.from(b.slotOf)).toEqual(Array.from(a.slotOf));
    expect(Array.from(b.x)).toEqual(Array.from(a.x));
    expect(Array.from(b.grid.colStart)).toEqual(Array.from(a.grid.colStart));
  };
  it.each([[4, 4], [4, 8], [8, 4], [2, 2]])('%ix%i: the same layout with the hint, in shared memory or not, as without it', (M, N) => {
    const hint = buildClusters(w, M, N, { ljFirst: lj }).atomOf;
    const plain = buildClusters(moved, M, N, { ljFirst: lj });
    // The hint really is a different order from the one the plain call starts from (atom index).
    expect(Array.from(hint).filter((a) => a >= 0)).not.toEqual(Array.from({ length: w.q.length }, (_, a) => a));
    same(plain, buildClusters(moved, M, N, { ljFirst: lj, orderHint: hint }));
    const shared = buildClusters(moved, M, N, { ljFirst: lj, orderHint: hint, shared: true });
    same(plain, shared);
    expect(shared.x.buffer).toBeInstanceOf(SharedArrayBuffer);
    expect(shared.atomOf.buffer).toBeInstanceOf(SharedArrayBuffer);
  });
  it('ignores a hint that does not hold every atom exactly once', () => {
    const plain = buildClusters(moved, 4, 4);
    const hint = buildClusters(w, 4, 4).atomOf;
    const dup = Int32Array.from(hint);
    const k = dup.findIndex((a) => a >= 0);
    const k2 = dup.findIndex((a, i) => i > k && a >= 0);
    dup[k2] = dup[k]!;
    const short = hint.filter((a) => a !== 5);
    const outOfRange = Int32Array.from(hint, (a) => (a === 7 ? w.q.length + 3 : a));
    for (const bad of [dup, short, outOfRange, new Int32Array(0)]) same(plain, buildClusters(moved, 4, 4, { orderHint: bad }));
  });
});

describe('the clustering split into its passes, as worker threads run it', () => {
  // 301 molecules: 903 atoms, an odd count (the split's arrays are sized before the padding is known).
  const w = waterBox(301, 5);
  const moved = { ...w, x: Float64Array.from(w.x, (v, i) => v + 0.09 * Math.sin(1.7 * i + 0.3)) };
  const lj = Array.from(w.type, (t) => w.ljTypes[t]!.epsilon !== 0);
  /**
   * A split as threads run it, here in one thread: the atoms in `parts` ranges, each counted into
   * its own row, taken in reverse order; then middle; then the columns in `parts` ranges, reversed.
   */
  const splitInto = (parts: number): ClusterSplit => (job, middle) => {
    const ncol = job.ncx * job.ncy;
    job.counts = new Int32Array(parts * ncol);
    const cut = (k: number, n: number) => Math.round((n * k) / parts);
    for (let k = parts - 1; k >= 0; k--) clusterAtoms(job, cut(k, job.n), cut(k + 1, job.n), job.counts.subarray(k * ncol, (k + 1) * ncol));
    middle();
    for (let k = parts - 1; k >= 0; k--) clusterColumns(job, cut(k, ncol), cut(k + 1, ncol));
    return true;
  };
  /** Bounding boxes of the clusters of `size` slots, from the layout's slots (lo x, y, z, hi x, y, z; none: +-Infinity). */
  const boxesOf = (L: ReturnType<typeof buildClusters>, size: number): number[] => {
    const out: number[] = [];
    for (let c = 0; c < L.nPadded / size; c++) {
      const lo = [Infinity, Infinity, Infinity];
      const hi = [-Infinity, -Infinity, -Infinity];
      for (let p = c * size; p < (c + 1) * size; p++) {
        if (L.atomOf[p]! < 0) continue;
        for (let d = 0; d < 3; d++) (lo[d] = Math.min(lo[d]!, L.x[3 * p + d]!), hi[d] = Math.max(hi[d]!, L.x[3 * p + d]!));
      }
      out.push(...lo, ...hi);
    }
    return out;
  };
  it.each([[4, 4], [4, 8], [8, 4], [2, 2], [1, 1]])('%ix%i: the same layout in 2 and 5 parts as in one pass, with and without LJ-first and the hint; the clusters\' boxes', (M, N) => {
    const hint = buildClusters(w, M, N, { ljFirst: lj }).atomOf;
    for (const o of [{}, { ljFirst: lj }, { ljFirst: lj, orderHint: hint }]) {
      const plain = buildClusters(moved, M, N, o);
      expect(Array.from(plain.boxes.bbI)).toEqual(boxesOf(plain, M));
      expect(Array.from(plain.boxes.bbJ)).toEqual(boxesOf(plain, N));
      expect(plain.boxes.bbJ === plain.boxes.bbI).toBe(M === N);
      for (const parts of [2, 5]) {
        const s = buildClusters(moved, M, N, { ...o, split: splitInto(parts) });
        expect(s.nPadded).toBe(plain.nPadded);
        expect(Array.from(s.atomOf)).toEqual(Array.from(plain.atomOf));
        expect(Array.from(s.slotOf)).toEqual(Array.from(plain.slotOf));
        expect(Array.from(s.x)).toEqual(Array.from(plain.x));
        expect(Array.from(s.grid.colStart)).toEqual(Array.from(plain.grid.colStart));
        expect(Array.from(s.grid.colEnd)).toEqual(Array.from(plain.grid.colEnd));
        expect(Array.from(s.boxes.bbI)).toEqual(Array.from(plain.boxes.bbI));
        expect(Array.from(s.boxes.bbJ)).toEqual(Array.from(plain.boxes.bbJ));
        expect(s.x.buffer).toBeInstanceOf(SharedArrayBuffer);
      }
    }
  });
  it('names the first atom with a non-finite coordinate, whichever part meets it', () => {
    const bad = { ...moved, x: Float64Array.from(moved.x) };
    bad.x[3 * 700 + 2] = Infinity;
    bad.x[3 * 41 + 1] = NaN;
    expect(() => buildClusters(bad, 4, 4, { split: splitInto(5) })).toThrow(/^atom 42: coordinate is not finite$/);
    expect(() => buildClusters(bad, 4, 4)).toThrow(/^atom 42: coordinate is not finite$/);
  });
  it('a split that declines leaves the clustering to the caller (the same layout)', () => {
    const plain = buildClusters(moved, 4, 4, { ljFirst: lj });
    const s = buildClusters(moved, 4, 4, { ljFirst: lj, split: () => false });
    expect(Array.from(s.atomOf)).toEqual(Array.from(plain.atomOf));
    expect(Array.from(s.x)).toEqual(Array.from(plain.x));
  });
});

describe('grid pair search (seed 001) against the O(N^2) builder', () => {
  it.each([[1, 1], [2, 2], [4, 2], [4, 4], [4, 8], [8, 4], [8, 8]])('%ix%i: same entries, masks and order as the brute-force list (rbb = 0)', (M, N) => {
    for (const s of [sys, waterBox(300, 4)]) {
      const L = buildClusters(s, M, N);
      const brute = buildPairListBrute(s, L, rlist);
      const grid = buildPairList(s, L, rlist, { rbb: 0 });
      expect(Array.from(grid.ci)).toEqual(Array.from(brute.ci));
      expect(Array.from(grid.cj)).toEqual(Array.from(brute.cj));
      expect(Array.from(grid.excl)).toEqual(Array.from(brute.excl));
    }
  });
  it('with the default rBB, keeps every entry of the exact list and adds only entries whose boxes are closer than rlist', () => {
    const w = waterBox(300, 4);
    const L = buildClusters(w, 4, 4);
    const exact = buildPairList(w, L, rlist, { rbb: 0 });
    const fast = buildPairList(w, L, rlist);
    expect(fast.stats.clusterPairs).toBeGreaterThanOrEqual(exact.stats.clusterPairs);
    expect(fast.stats.clusterPairs).toBeLessThan(1.1 * exact.stats.clusterPairs);
  });
  it('is linear: bounding-box tests per atom do not grow with the system', () => {
    const per = [500, 4000].map((nMol) => {
      const w = waterBox(nMol, 2);
      return buildPairList(w, buildClusters(w, 4, 4), 0.9).stats.bbChecks / (3 * nMol);
    });
    // Same density, same cut-off: the work per atom is the same up to surface effects.
    expect(per[1]! / per[0]!).toBeLessThan(1.15);
    expect(per[1]! / per[0]!).toBeGreaterThan(0.85);
  });
});

describe('1x1 atom-pair list', () => {
  it('the dedicated atom-pair search equals the general cluster search, on water with exclusions and on an fcc lattice', async () => {
    const { ljFluid } = await import('../../runtime/md/ljfluid.ts');
    for (const [s, rl] of [[waterBox(300, 4), 0.8], [ljFluid({ cells: 6 }).sys, 2.8]] as const) {
      const L = buildClusters(s, 1, 1);
      const a = buildPairList(s, L, rl);
      const b = buildPairList(s, L, rl, { generic: true });
      expect(Array.from(a.ci)).toEqual(Array.from(b.ci));
      expect(Array.from(a.cj)).toEqual(Array.from(b.cj));
      expect(Array.from(a.excl)).toEqual(Array.from(b.excl));
    }
  });
});
