// Full neighbour lists (runtime/md/fulllist.ts): every ordered pair once, laid out as the
// kernels expect; and the `list: full` 1x1 kernels agree with the half-list ones.
import { describe, it, expect } from 'vitest';
import { waterBox, randomSystem, type MdSystem } from '../../runtime/md/system.ts';
import { buildClusters, buildPairList, CENTRAL_SHIFT, type PairList, type ClusterLayout } from '../../runtime/md/clusters.ts';
import { toFullList, isFullList } from '../../runtime/md/fulllist.ts';
import { MdProblem } from '../../runtime/md/problem.ts';
import { runTs, problemFor } from '../../runtime/md/kernels.ts';
import { settingsOf } from '../../runtime/md/verify.ts';
import { libraryKeys } from '../../runtime/variants.ts';
import type { MdResult } from '../../runtime/md/reference.ts';

const bit = (l: PairList, k: number, b: number): number => (l.excl[k * l.maskWords + (b >> 5)]! >>> (b & 31)) & 1;

/** Every j-entry as (i-entry, i-cluster, shift, j-cluster, k). */
function entries(l: PairList): { e: number; ci: number; s: number; cj: number; k: number }[] {
  const out = [];
  for (let e = 0; e < l.ci.length >> 2; e++) {
    for (let k = l.ci[4 * e + 2]!; k < l.ci[4 * e + 3]!; k++) out.push({ e, ci: l.ci[4 * e]!, s: l.ci[4 * e + 1]!, cj: l.cj[k]!, k });
  }
  return out;
}

/** Minimum-image distance between two atoms. */
function dist(sys: MdSystem, a: number, b: number): number {
  let d2 = 0;
  for (let c = 0; c < 3; c++) {
    let d = sys.x[3 * a + c]! - sys.x[3 * b + c]!;
    d -= sys.box[c]! * Math.round(d / sys.box[c]!);
    d2 += d * d;
  }
  return Math.sqrt(d2);
}

function lists(sys: MdSystem, M: number, rlist: number): { L: ClusterLayout; half: PairList; full: PairList } {
  const L = buildClusters(sys, M, M);
  const half = buildPairList(sys, L, rlist);
  return { L, half, full: toFullList(half, L) };
}

const excludedSet = (sys: MdSystem): Set<number> => {
  const n = sys.q.length;
  const s = new Set<number>();
  sys.exclusions.forEach((ex, a) => ex?.forEach((b) => (s.add(a * n + b), s.add(b * n + a))));
  return s;
};

const systems: [string, () => MdSystem, number][] = [
  ['water-216', () => waterBox(216, 3), 0.85],
  ['random-301 with exclusions', () => randomSystem({ n: 301, box: [2.2, 2.0, 2.4], seed: 5, exclusionFraction: 0.3 }), 0.95],
];

describe('toFullList (1x1)', () => {
  it.each(systems)('%s: each ordered pair within rlist appears exactly once as i <- j, with the right shift and mask', (_n, make, rlist) => {
    const sys = make();
    const n = sys.q.length;
    const { L, half, full } = lists(sys, 1, rlist);
    expect(isFullList(full)).toBe(true);
    expect(isFullList(half)).toBe(false);
    const excl = excludedSet(sys);
    const seen = new Map<number, number>();
    const bad: string[] = []; // collected, then one expect: per-pair expects would dominate the run time
    for (const { ci, s, cj, k } of entries(full)) {
      const a = L.atomOf[ci]!;
      const b = L.atomOf[cj]!;
      if (a < 0 || b < 0) bad.push(`entry ${k} names a dummy`);
      else if (a === b) {
        if (bit(full, k, 0) !== 0) bad.push(`self entry ${k} interacts`);
        continue;
      }
      seen.set(a * n + b, (seen.get(a * n + b) ?? 0) + 1);
      // The shift puts the pair at its minimum-image distance.
      let d2 = 0;
      for (let c = 0; c < 3; c++) d2 += (L.x[3 * ci + c]! + full.shiftVec[3 * s + c]! - L.x[3 * cj + c]!) ** 2;
      if (!(Math.abs(Math.sqrt(d2) - dist(sys, a, b)) < 1e-9)) bad.push(`${a} <- ${b}: shift ${s} is not the minimum image`);
      if (bit(full, k, 0) !== (excl.has(a * n + b) ? 0 : 1)) bad.push(`${a} <- ${b}: mask bit wrong`);
    }
    let within = 0;
    for (let a = 0; a < n; a++) {
      for (let b = 0; b < n; b++) {
        if (a === b || dist(sys, a, b) >= rlist) continue;
        within++;
        if (seen.get(a * n + b) !== 1) bad.push(`${a} <- ${b} listed ${seen.get(a * n + b) ?? 0} times`);
      }
    }
    expect(bad.slice(0, 10)).toEqual([]);
    expect(within).toBeGreaterThan(1000);
    // Nothing else is listed twice either.
    expect([...seen.values()].every((c) => c === 1)).toBe(true);
  });

  it.each(systems)('%s: twice the half list minus self entries, every half entry mirrored with the opposite shift', (_n, make, rlist) => {
    const { half, full } = lists(make(), 1, rlist);
    const h = entries(half);
    const self = h.filter((x) => x.ci === x.cj && x.s === CENTRAL_SHIFT).length;
    expect(full.cj.length).toBe(2 * half.cj.length - self);
    expect(full.stats.clusterPairs).toBe(full.cj.length);
    expect(full.stats.computedPairs).toBe(full.cj.length);
    const fullSet = new Set(entries(full).map((x) => `${x.ci},${x.s},${x.cj}`));
    expect(fullSet.size).toBe(full.cj.length);
    const missing = h.filter((x) => !fullSet.has(`${x.ci},${x.s},${x.cj}`) || !fullSet.has(`${x.cj},${26 - x.s},${x.ci}`));
    expect(missing.slice(0, 5)).toEqual([]);
  });

  it('lays i-entries out by i-cluster and shift, contiguous, cleared masks first, then ascending j', () => {
    const { full } = lists(randomSystem({ n: 301, box: [2.2, 2.0, 2.4], seed: 5, exclusionFraction: 0.3 }), 1, 0.95);
    const nci = full.ci.length >> 2;
    let prevKey = -1;
    let end = 0;
    for (let e = 0; e < nci; e++) {
      const [ci, s, j0, j1] = [full.ci[4 * e]!, full.ci[4 * e + 1]!, full.ci[4 * e + 2]!, full.ci[4 * e + 3]!];
      expect(ci * 27 + s).toBeGreaterThan(prevKey); // one entry per (i-cluster, shift), in order
      prevKey = ci * 27 + s;
      expect(j0).toBe(end);
      expect(j1).toBeGreaterThan(j0);
      end = j1;
      let inRest = false;
      let prevJ = -1;
      for (let k = j0; k < j1; k++) {
        const masked = bit(full, k, 0) === 0;
        if (!masked && !inRest) (inRest = true), (prevJ = -1);
        expect(masked && inRest).toBe(false); // no cleared mask after the first full one
        expect(full.cj[k]!).toBeGreaterThan(prevJ);
        prevJ = full.cj[k]!;
      }
    }
    expect(end).toBe(full.cj.length);
    expect(full.excl.length).toBe(full.cj.length * full.maskWords);
  });

  it('transposes masks of square clusters: 2x2, each interacting ordered pair once', () => {
    const sys = randomSystem({ n: 301, box: [2.2, 2.0, 2.4], seed: 5, exclusionFraction: 0.3 });
    const n = sys.q.length;
    const { L, half, full } = lists(sys, 2, 0.95);
    const pairsOf = (l: PairList): Map<string, number> => {
      const m = new Map<string, number>();
      for (const { ci, s, cj, k } of entries(l)) {
        for (let a = 0; a < 2; a++) {
          for (let b = 0; b < 2; b++) {
            if (!bit(l, k, a * 2 + b)) continue;
            const key = `${L.atomOf[2 * ci + a]},${L.atomOf[2 * cj + b]},${s}`;
            m.set(key, (m.get(key) ?? 0) + 1);
          }
        }
      }
      return m;
    };
    const h = pairsOf(half);
    const f = pairsOf(full);
    expect(f.size).toBe(2 * h.size);
    expect([...f.values()].every((c) => c === 1)).toBe(true);
    for (const key of h.keys()) {
      const [a, b, s] = key.split(',').map(Number) as [number, number, number];
      expect(f.has(key)).toBe(true);
      expect(f.has(`${b},${a},${26 - s}`)).toBe(true);
      expect(a).not.toBe(b);
      expect(a < n && b < n).toBe(true);
    }
  });

  it('refuses non-square clusters and lists that are already full', () => {
    const sys = waterBox(216, 3);
    const L = buildClusters(sys, 4, 2);
    expect(() => toFullList(buildPairList(sys, L, 0.85), L)).toThrow(/M == N/);
    const { L: L1, full } = lists(sys, 1, 0.85);
    expect(() => toFullList(full, L1)).toThrow(/already a full list/);
  });
});

describe('full-list kernels', () => {
  const keys = libraryKeys('md-nonbonded', 'ts');

  it('the library has full and half 1x1 variants, and only 1x1 has either', () => {
    expect(keys.filter((k) => k.includes('.1x1.full.')).length).toBeGreaterThanOrEqual(30);
    for (const k of keys) expect(k.includes('.1x1.')).toBe(k.includes('.1x1.half.') || k.includes('.1x1.full.'));
    expect(keys.some((k) => /\.(half|full)\./.test(k) && !k.includes('.1x1.'))).toBe(false);
  });

  it('runTs refuses a list of the wrong kind', async () => {
    const sys = waterBox(216, 3);
    const key = 'md-nonbonded.ts.lj-rf.geom.shift.f64.fev.1x1.full.mask.mask';
    const s = await settingsOf(key, 0.8);
    await expect(runTs(key, new MdProblem(sys, s, 1, 1, 0.85))).rejects.toThrow(/needs a full neighbour list/);
    await expect(runTs(key.replace('.full.', '.half.'), new MdProblem(sys, s, 1, 1, 0.85, { full: true }))).rejects.toThrow(/needs a half neighbour list/);
  });

  // Half and full lists compute the same sums in another order: f64 agrees to rounding.
  const pairs = [
    'md-nonbonded.ts.lj-rf.geom.shift.f64.fev.1x1.*.mask.mask',
    'md-nonbonded.ts.lj.geom.plain.f64.fev.1x1.*.mask.mask',
    'md-nonbonded.ts.lj-ewald.geom.shift.f64.fev.analytical.1x1.*.mask.mask',
    'md-nonbonded.ts.buckingham-rf.geom.shift.f64.fev.1x1.*.mask.mask',
  ];
  const water = waterBox(216, 3);
  it.each(pairs)('%s: half and full agree to 1e-12 relative on a water box', async (pattern) => {
    const halfKey = pattern.replace('*', 'half');
    const fullKey = pattern.replace('*', 'full');
    const s = await settingsOf(halfKey, 0.8);
    const h: MdResult = await runTs(halfKey, await problemFor(halfKey, water, s, 0.85));
    const f: MdResult = await runTs(fullKey, await problemFor(fullKey, water, s, 0.85));
    const n = water.q.length;
    let fMax = 0;
    for (let a = 0; a < 3 * n; a++) fMax = Math.max(fMax, Math.abs(h.f[a]!));
    for (let a = 0; a < n; a++) {
      const norm = Math.hypot(h.f[3 * a]!, h.f[3 * a + 1]!, h.f[3 * a + 2]!);
      for (let c = 0; c < 3; c++) expect(Math.abs(f.f[3 * a + c]! - h.f[3 * a + c]!)).toBeLessThanOrEqual(1e-12 * norm + 1e-15 * fMax);
    }
    for (const q of ['vdw', 'coul'] as const) expect(Math.abs(f[q] - h[q])).toBeLessThanOrEqual(1e-12 * Math.abs(h[q]));
    const vMax = Math.max(...h.virial.map(Math.abs));
    for (let k = 0; k < 9; k++) expect(Math.abs(f.virial[k]! - h.virial[k]!)).toBeLessThanOrEqual(1e-12 * vMax);
    expect(fMax).toBeGreaterThan(0);
  });
});
