// Full neighbour lists (seed 004, MiniMD "full/half neighbour lists"): every ordered atom pair
// i <- j once, so a kernel accumulates forces on i only and never writes j (no Newton's third
// law, no scattered j stores), at the price of computing each pair twice.
//
// Built from the half list of buildPairList: each j-entry (iCluster ci, shift s, jCluster cj,
// mask) is kept and gets a mirror (cj, 26 - s, ci, mask transposed): shift index
// (sx+1) + 3 (sy+1) + 9 (sz+1) has its opposite at 26 - s. A self entry (ci == cj, central
// shift) is its own mirror: it is kept once, its mask or-ed with its transpose. The result is
// laid out as the kernels expect: i-entries [iCluster, shift, jStart, jEnd] ordered by i-cluster
// then shift, one per (i-cluster, shift) that has j-entries; within an i-entry the j-entries
// with a cleared mask bit come first, then ascending j-cluster (as in the half list).
import type { ClusterLayout, PairList } from './clusters.ts';
import { CENTRAL_SHIFT } from './clusters.ts';

const fullLists = new WeakSet<PairList>();

/** Whether a list came from toFullList (kernels of the `full` list variants need one). */
export function isFullList(list: PairList): boolean {
  return fullLists.has(list);
}

/** Mask bit i*N+j moved to j*N+i (square clusters). */
function transposeInto(src: Uint32Array, so: number, dst: Uint32Array, d0: number, n: number): void {
  for (let a = 0; a < n; a++) {
    for (let b = 0; b < n; b++) {
      const s = a * n + b;
      if ((src[so + (s >> 5)]! >>> (s & 31)) & 1) {
        const t = b * n + a;
        dst[d0 + (t >> 5)] = (dst[d0 + (t >> 5)]! | (1 << (t & 31))) >>> 0;
      }
    }
  }
}

/**
 * The full list of a half pair list: each atom pair of the half list appears twice, once as
 * i <- j and once as j <- i with the opposite shift. Needs square clusters (M == N); the
 * kernels with `list: full` exist for 1x1, where a mask is one bit.
 */
export function toFullList(list: PairList, layout: ClusterLayout): PairList {
  const { M, N, maskWords: W } = list;
  if (M !== N) throw new Error(`a full list mirrors cluster pairs, which needs M == N (got ${M}x${N})`);
  if (layout.M !== M || layout.N !== N) throw new Error(`list is ${M}x${N} but the layout is ${layout.M}x${layout.N}`);
  if (fullLists.has(list)) throw new Error('the list is already a full list');
  const nClusters = layout.nPadded / M;
  const nGroups = nClusters * 27;
  const full = Array.from({ length: W }, (_, w) => (w < W - 1 || (M * N) % 32 === 0 ? 0xffffffff : 2 ** ((M * N) % 32) - 1) >>> 0);
  const nci = list.ci.length >> 2;

  // Pass 1: directed entries per (i-cluster, shift) group.
  const count = new Int32Array(nGroups + 1);
  for (let e = 0; e < nci; e++) {
    const ci = list.ci[4 * e]!;
    const s = list.ci[4 * e + 1]!;
    for (let k = list.ci[4 * e + 2]!; k < list.ci[4 * e + 3]!; k++) {
      const cj = list.cj[k]!;
      count[ci * 27 + s]!++;
      if (!(cj === ci && s === CENTRAL_SHIFT)) count[cj * 27 + (26 - s)]!++;
    }
  }
  const start = new Int32Array(nGroups + 1);
  for (let g = 0; g < nGroups; g++) start[g + 1] = start[g]! + count[g]!;
  const total = start[nGroups]!;
  const fill = start.slice(0, nGroups);
  const dirJ = new Int32Array(total);
  const dirMask = new Uint32Array(total * W);

  // Pass 2: place the entries and their mirrors.
  for (let e = 0; e < nci; e++) {
    const ci = list.ci[4 * e]!;
    const s = list.ci[4 * e + 1]!;
    for (let k = list.ci[4 * e + 2]!; k < list.ci[4 * e + 3]!; k++) {
      const cj = list.cj[k]!;
      const p = fill[ci * 27 + s]!++;
      dirJ[p] = cj;
      for (let w = 0; w < W; w++) dirMask[p * W + w] = list.excl[k * W + w]!;
      if (cj === ci && s === CENTRAL_SHIFT) {
        // Its own mirror: the pairs below the diagonal are the transposed ones above it.
        transposeInto(list.excl, k * W, dirMask, p * W, M);
        continue;
      }
      const q = fill[cj * 27 + (26 - s)]!++;
      dirJ[q] = ci;
      transposeInto(list.excl, k * W, dirMask, q * W, M);
    }
  }

  // Pass 3: per group, sort (cleared bits first, then j), merge entries that name the same
  // j-cluster (a cluster pair whose mirror was in the half list too), emit.
  const ciOut: number[] = [];
  const cjOut = new Int32Array(total);
  const exclOut = new Uint32Array(total * W);
  let n = 0;
  const masked = (p: number): boolean => {
    for (let w = 0; w < W; w++) if (dirMask[p * W + w] !== full[w]) return true;
    return false;
  };
  for (let g = 0; g < nGroups; g++) {
    const a = start[g]!;
    const b = start[g + 1]!;
    if (a === b) continue;
    const idx = Array.from({ length: b - a }, (_, t) => a + t).sort((p, q) => dirJ[p]! - dirJ[q]!);
    // Merge duplicates of one j-cluster; a pair bit set twice would be counted twice.
    const merged: number[] = [];
    for (const p of idx) {
      const last = merged[merged.length - 1];
      if (last !== undefined && dirJ[last] === dirJ[p]) {
        for (let w = 0; w < W; w++) {
          if ((dirMask[last * W + w]! & dirMask[p * W + w]!) !== 0) {
            throw new Error(`half list holds an atom pair twice (i-cluster ${Math.floor(g / 27)}, shift ${g % 27}, j-cluster ${dirJ[p]})`);
          }
          dirMask[last * W + w] = (dirMask[last * W + w]! | dirMask[p * W + w]!) >>> 0;
        }
      } else merged.push(p);
    }
    const first = merged.filter(masked);
    const rest = merged.filter((p) => !masked(p));
    const from = n;
    for (const p of [...first, ...rest]) {
      cjOut[n] = dirJ[p]!;
      for (let w = 0; w < W; w++) exclOut[n * W + w] = dirMask[p * W + w]!;
      n++;
    }
    ciOut.push(Math.floor(g / 27), g % 27, from, n);
  }

  const out: PairList = {
    M,
    N,
    maskWords: W,
    ci: Int32Array.from(ciOut),
    cj: cjOut.slice(0, n),
    excl: exclOut.slice(0, n * W),
    shiftVec: list.shiftVec,
    rlist: list.rlist,
    stats: { ...list.stats, clusterPairs: n, computedPairs: n * M * N },
  };
  fullLists.add(out);
  return out;
}
