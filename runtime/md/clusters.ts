// Cluster layout and cluster-pair list (seed 001), built for correctness rather than speed:
// x/y gridding with z-sorted columns cut into blocks of S = max(M, N) particles, dummy
// padding, per-cluster bounding boxes, a bounding-box search over periodic shifts with an
// atom-pair prune, and exclusion masks. i-cluster c covers padded particles [cM, cM+M),
// j-cluster c covers [cN, cN+N); both tile the same padded array.
import type { MdSystem } from './system.ts';

export interface ClusterLayout {
  M: number;
  N: number;
  /** Padded particle count (multiple of max(M, N)). */
  nPadded: number;
  /** Padded index -> atom index, or -1 for a dummy. */
  atomOf: Int32Array;
  /** Atom index -> padded index. */
  slotOf: Int32Array;
  /** Positions per padded slot, wrapped into the box; dummies far away. */
  x: Float64Array;
}

/** Coordinate given to dummy particles: far from everything, never inside a cut-off. */
export const DUMMY_COORD = -1.0e5;

export function buildClusters(sys: MdSystem, M: number, N: number): ClusterLayout {
  const n = sys.q.length;
  const S = Math.max(M, N);
  const [Lx, Ly, Lz] = sys.box;
  for (let i = 0; i < 3 * n; i++) {
    if (!Number.isFinite(sys.x[i]!)) throw new Error(`atom ${Math.floor(i / 3) + 1}: coordinate is not finite`);
  }
  const density = n / (Lx * Ly * Lz);
  const size = Math.cbrt(S / density);
  const ncx = Math.max(1, Math.floor(Lx / size));
  const ncy = Math.max(1, Math.floor(Ly / size));
  const wrap = (v: number, L: number): number => v - L * Math.floor(v / L);
  const cols: number[][] = Array.from({ length: ncx * ncy }, () => []);
  const w = new Float64Array(3 * n);
  for (let i = 0; i < n; i++) {
    w[3 * i] = wrap(sys.x[3 * i]!, Lx);
    w[3 * i + 1] = wrap(sys.x[3 * i + 1]!, Ly);
    w[3 * i + 2] = wrap(sys.x[3 * i + 2]!, Lz);
    const cx = Math.min(ncx - 1, Math.floor((w[3 * i]! / Lx) * ncx));
    const cy = Math.min(ncy - 1, Math.floor((w[3 * i + 1]! / Ly) * ncy));
    cols[cx * ncy + cy]!.push(i);
  }
  const atomOf: number[] = [];
  for (const col of cols) {
    col.sort((a, b) => w[3 * a + 2]! - w[3 * b + 2]! || a - b);
    atomOf.push(...col);
    while (atomOf.length % S !== 0) atomOf.push(-1);
  }
  const nPadded = atomOf.length;
  const slotOf = new Int32Array(n);
  const x = new Float64Array(3 * nPadded).fill(DUMMY_COORD);
  atomOf.forEach((a, p) => {
    if (a < 0) return;
    slotOf[a] = p;
    x.set(w.subarray(3 * a, 3 * a + 3), 3 * p);
  });
  return { M, N, nPadded, atomOf: Int32Array.from(atomOf), slotOf, x };
}

export interface PairList {
  M: number;
  N: number;
  maskWords: number;
  /** i-entries: i-cluster, shift index, first j-entry, end j-entry. */
  ci: Int32Array;
  cj: Int32Array;
  excl: Uint32Array;
  /** 27 shift vectors (index (sx+1) + 3 (sy+1) + 9 (sz+1)), 13 = no shift. */
  shiftVec: Float64Array;
  rlist: number;
  /** Atom pairs the list covers (inside rlist), and all i-j pairs it computes. */
  stats: { clusterPairs: number; computedPairs: number };
}

export const CENTRAL_SHIFT = 13;

interface Box3 {
  lo: [number, number, number];
  hi: [number, number, number];
}

function boundingBoxes(L: ClusterLayout, size: number): (Box3 | null)[] {
  const out: (Box3 | null)[] = [];
  for (let c = 0; c < L.nPadded / size; c++) {
    let bb: Box3 | null = null;
    for (let p = c * size; p < (c + 1) * size; p++) {
      if (L.atomOf[p]! < 0) continue;
      const v = [L.x[3 * p]!, L.x[3 * p + 1]!, L.x[3 * p + 2]!] as [number, number, number];
      if (!bb) bb = { lo: [...v], hi: [...v] };
      else for (let d = 0; d < 3; d++) (bb.lo[d] = Math.min(bb.lo[d]!, v[d]!), bb.hi[d] = Math.max(bb.hi[d]!, v[d]!));
    }
    out.push(bb);
  }
  return out;
}

function bbDist2(a: Box3, s: number[], b: Box3): number {
  let d2 = 0;
  for (let d = 0; d < 3; d++) {
    const g = Math.max(0, b.lo[d]! - (a.hi[d]! + s[d]!), a.lo[d]! + s[d]! - b.hi[d]!);
    d2 += g * g;
  }
  return d2;
}

/**
 * All cluster pairs with at least one atom pair closer than rlist. Each atom pair appears
 * once, in the entry where its padded i index is below its j index; masks clear that
 * pair's bit when it is excluded, a dummy, or counted elsewhere.
 */
export function buildPairList(sys: MdSystem, L: ClusterLayout, rlist: number): PairList {
  const { M, N } = L;
  const half = Math.min(...sys.box) / 2;
  if (rlist >= half) throw new Error(`list cut-off ${rlist} nm must be shorter than half the smallest box edge (${half.toFixed(4)} nm)`);
  const shiftVec = new Float64Array(27 * 3);
  for (let s = 0; s < 27; s++) {
    shiftVec[3 * s] = ((s % 3) - 1) * sys.box[0];
    shiftVec[3 * s + 1] = ((Math.floor(s / 3) % 3) - 1) * sys.box[1];
    shiftVec[3 * s + 2] = (Math.floor(s / 9) - 1) * sys.box[2];
  }
  const bbI = boundingBoxes(L, M);
  const bbJ = boundingBoxes(L, N);
  const excluded = new Set<number>();
  const n = sys.q.length;
  sys.exclusions.forEach((ex, a) => ex?.forEach((b) => excluded.add(a * n + b)));
  const rl2 = rlist * rlist;
  const maskWords = Math.ceil((M * N) / 32);
  const full = Array.from({ length: maskWords }, (_, w) => (w < maskWords - 1 || (M * N) % 32 === 0 ? 0xffffffff : 2 ** ((M * N) % 32) - 1) >>> 0);
  const ci: number[] = [];
  const cj: number[] = [];
  const excl: number[] = [];
  let computedPairs = 0;
  for (let i = 0; i < bbI.length; i++) {
    const bi = bbI[i];
    if (!bi) continue;
    for (let s = 0; s < 27; s++) {
      const sv = [shiftVec[3 * s]!, shiftVec[3 * s + 1]!, shiftVec[3 * s + 2]!];
      if (bbDist2(bi, sv, { lo: [0, 0, 0], hi: [...sys.box] }) >= rl2) continue;
      const entries: { j: number; mask: number[]; masked: boolean }[] = [];
      for (let j = Math.floor((i * M) / N); j < bbJ.length; j++) {
        const bj = bbJ[j];
        if (!bj || bbDist2(bi, sv, bj) >= rl2) continue;
        const mask = new Array<number>(maskWords).fill(0);
        let within = false;
        for (let a = 0; a < M; a++) {
          const pa = i * M + a;
          const atomA = L.atomOf[pa]!;
          if (atomA < 0) continue;
          for (let b = 0; b < N; b++) {
            const pb = j * N + b;
            const atomB = L.atomOf[pb]!;
            if (atomB < 0 || pb <= pa) continue;
            let d2 = 0;
            for (let d = 0; d < 3; d++) d2 += (L.x[3 * pa + d]! + sv[d]! - L.x[3 * pb + d]!) ** 2;
            if (d2 < rl2) within = true;
            if (!excluded.has(atomA * n + atomB)) {
              const bit = a * N + b;
              mask[bit >> 5] = (mask[bit >> 5]! | (1 << (bit & 31))) >>> 0;
            }
          }
        }
        if (!within) continue;
        entries.push({ j, mask, masked: mask.some((m, w) => m !== full[w]) });
      }
      if (entries.length === 0) continue;
      // Entries with exclusions first, as in the paper's lists (the kernels do not rely on it).
      entries.sort((p, q) => Number(q.masked) - Number(p.masked) || p.j - q.j);
      ci.push(i, s, cj.length, cj.length + entries.length);
      for (const e of entries) {
        cj.push(e.j);
        excl.push(...e.mask);
      }
      computedPairs += entries.length * M * N;
    }
  }
  return {
    M,
    N,
    maskWords,
    ci: Int32Array.from(ci),
    cj: Int32Array.from(cj),
    excl: Uint32Array.from(excl),
    shiftVec,
    rlist,
    stats: { clusterPairs: cj.length, computedPairs },
  };
}
