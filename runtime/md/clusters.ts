// Cluster layout and cluster-pair list (seed 001), built for correctness rather than speed:
// x/y gridding with z-sorted columns cut into blocks of S = max(M, N) particles, dummy
// padding, per-cluster bounding boxes, a bounding-box search over periodic shifts with an
// atom-pair prune, and exclusion masks. i-cluster c covers padded particles [cM, cM+M),
// j-cluster c covers [cN, cN+N); both tile the same padded array.
import type { MdSystem } from './system.ts';
import { prefilterBounds, realMasks, searchWorkspace, type SearchWorkspace } from './search-simd.ts';

/** Atoms sorted into clusters: i-cluster c covers padded slots [cM, cM+M), j-cluster c covers [cN, cN+N) of the same padded array. */
export interface ClusterLayout {
  /** Atoms per i-cluster (the kernel's i-cluster size). */
  M: number;
  /** Atoms per j-cluster (the kernel's j-cluster size). */
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

export interface ClusterGrid {
  /** Columns along x and y, and their widths (nm). */
  ncx: number;
  ncy: number;
  sx: number;
  sy: number;
  /** Memory position -> column (cx * ncy + cy); columns are laid out in this order. */
  columns: Int32Array;
  /** First padded slot of each column (by column index) and one past its last. */
  colStart: Int32Array;
  colEnd: Int32Array;
}

export interface ClusterOptions {
  /**
   * Order of the x/y grid columns in memory: memory position -> column index cx * ncy + cy.
   * Default row-major (the identity). See runtime/md/orderings.ts for Hilbert, Morton and hybrids.
   */
  columnOrder?: (ncx: number, ncy: number) => Int32Array;
  /**
   * Per atom, whether it has LJ parameters (ljAtoms()). When given and M <= N (an i-cluster then never splits a
   * j-cluster), each i-cluster in which at most half the atoms have LJ holds those first, in z order, then the
   * others (GROMACS's sort_cluster_on_flag): a kernel can then compute LJ for the first M/2 i-atoms only.
   */
  ljFirst?: ArrayLike<boolean>;
  /**
   * The atoms in the order of an earlier layout of the same atoms (its `atomOf`: -1 for dummies): each
   * column's atoms are then z-sorted from that order, nearly sorted when atoms moved little since.
   * Only a hint: the layout is the same with or without it (ignored unless it holds every atom once).
   */
  orderHint?: Int32Array;
  /** Allocate the layout's arrays in shared memory (where there is any): for searches on worker threads. */
  shared?: boolean;
  /** Run the clustering's passes over threads (ClusterSplit); the layout's arrays are then in shared memory. */
  split?: ClusterSplit;
}

/** What buildClusters allocates per call and keeps none of: reused while the atom count stays (in shared memory for a split clustering). */
let clusterScratch: { n: number; shared: boolean; w: Float64Array; col: Int32Array; byCol: Int32Array; seen: Uint8Array } | undefined;

/** A fresh typed array of `len` elements, in shared memory when asked and available. */
function fresh<T extends Float64Array | Int32Array | Uint32Array | Uint8Array>(Arr: { new (len: number): T; new (b: ArrayBufferLike): T; BYTES_PER_ELEMENT: number }, len: number, shared: boolean | undefined): T {
  return shared && typeof SharedArrayBuffer === 'function' ? new Arr(new SharedArrayBuffer(len * Arr.BYTES_PER_ELEMENT)) : new Arr(len);
}

/**
 * The clustering's data, as its two passes read and write it: plain numbers and typed arrays, so
 * a pass can run on ranges on other threads (shared memory). Pass 1 (clusterAtoms, by atoms)
 * wraps positions into the box and bins atoms into columns; the caller then sorts the atoms by
 * column (buildClusters's `middle`); pass 2 (clusterColumns, by columns) z-sorts each column and
 * places its atoms, padding included, in the layout, and makes the clusters' boxes.
 */
export interface ClusterJob {
  n: number;
  /** Cluster size max(M, N); the i- and j-cluster sizes (LJ-first blocks, boxes). */
  S: number;
  M: number;
  N: number;
  box: [number, number, number];
  ncx: number;
  ncy: number;
  /** The positions (3 per atom) and the wrapped ones; each atom's column. */
  X: Float64Array;
  w: Float64Array;
  col: Int32Array;
  /**
   * Pass 1's atom counts per column: one row of ncol per part that counts apart (row 0: the
   * calling thread's), all summed between the passes. A split replaces it with rows for its threads.
   */
  counts: Int32Array;
  /** The lowest atom with a non-finite coordinate pass 1 met (n: none). */
  bad: Int32Array;
  /** The atoms by column (each column's range [first[c], first[c + 1])), and each column's slots [colStart[c], colEnd[c]). */
  byCol: Int32Array;
  first: Int32Array;
  colStart: Int32Array;
  colEnd: Int32Array;
  /** Per atom 1 where it has LJ parameters, when each i-cluster holds those first (ClusterOptions.ljFirst). */
  lj: Uint8Array | undefined;
  /** The layout's arrays (at least nPadded slots), and its clusters' bounding boxes (of size M; of size N, the same array when N = M). */
  atomOf: Int32Array;
  slotOf: Int32Array;
  x: Float64Array;
  bbI: Float64Array;
  bbJ: Float64Array;
}

/**
 * Pass 1 of the clustering on atoms [i0, i1): wrapped positions, columns, and the atom counts per
 * column added into `count`; job.bad lowered to the first atom with a non-finite coordinate.
 */
export function clusterAtoms(job: ClusterJob, i0: number, i1: number, count: Int32Array): void {
  const { X, w, col, ncx, ncy } = job;
  const [Lx, Ly, Lz] = job.box;
  for (let i = i0; i < i1; i++) {
    const x0 = X[3 * i]!, y0 = X[3 * i + 1]!, z0 = X[3 * i + 2]!;
    // x - x is 0 for finite x only (NaN for NaN and the infinities).
    if (x0 - x0 !== 0 || y0 - y0 !== 0 || z0 - z0 !== 0) {
      Atomics.store(job.bad, 0, Math.min(Atomics.load(job.bad, 0), i));
      return;
    }
    const x = x0 - Lx * Math.floor(x0 / Lx);
    const y = y0 - Ly * Math.floor(y0 / Ly);
    const z = z0 - Lz * Math.floor(z0 / Lz);
    // x - L floor(x/L) can round to L itself for tiny negative x.
    const wx = x < Lx ? x : 0;
    const wy = y < Ly ? y : 0;
    w[3 * i] = wx;
    w[3 * i + 1] = wy;
    w[3 * i + 2] = z < Lz ? z : 0;
    const cx = Math.min(ncx - 1, Math.floor((wx / Lx) * ncx));
    const cy = Math.min(ncy - 1, Math.floor((wy / Ly) * ncy));
    const c = cx * ncy + cy;
    col[i] = c;
    count[c]!++;
  }
}

/**
 * Pass 2 of the clustering on columns [c0, c1) (by column index): each column's atoms z-sorted
 * and placed in its slots (within each i-cluster the LJ atoms first, where job.lj), its padding
 * slots made dummies.
 */
export function clusterColumns(job: ClusterJob, c0: number, c1: number): void {
  const { w, byCol, first, colStart, colEnd, atomOf, slotOf, x, lj, M, N, bbI, bbJ } = job;
  /** Atom a into slot p. */
  const put = (a: number, p: number): void => {
    atomOf[p] = a;
    slotOf[a] = p;
    x[3 * p] = w[3 * a]!;
    x[3 * p + 1] = w[3 * a + 1]!;
    x[3 * p + 2] = w[3 * a + 2]!;
  };
  for (let c = c0; c < c1; c++) {
    const m0 = first[c]!;
    const m1 = first[c + 1]!;
    sortOnZ(byCol.subarray(m0, m1), w);
    const p0 = colStart[c]! - m0;
    atomOf.fill(-1, p0 + m1, colEnd[c]!);
    x.fill(DUMMY_COORD, 3 * (p0 + m1), 3 * colEnd[c]!);
    if (!lj) {
      for (let k = m0; k < m1; k++) put(byCol[k]!, p0 + k);
      continue;
    }
    // Within each M-slot i-cluster, atoms with LJ first when at most half of its atoms have LJ
    // (stable): written in that order (a pass over the written slots cost more than the writes).
    for (let k0 = m0; k0 < m1; k0 += M) {
      const end = Math.min(m1, k0 + M);
      let nlj = 0;
      for (let k = k0; k < end; k++) nlj += lj[byCol[k]!]!;
      let p = p0 + k0;
      if (nlj === 0 || nlj === end - k0 || 2 * nlj > M) {
        for (let k = k0; k < end; k++) put(byCol[k]!, p++);
        continue;
      }
      for (let k = k0; k < end; k++) if (lj[byCol[k]!]) put(byCol[k]!, p++);
      for (let k = k0; k < end; k++) if (!lj[byCol[k]!]) put(byCol[k]!, p++);
    }
  }
  // The boxes of these columns' clusters while their slots are still in cache (whole clusters of
  // either size: a column's slots are a multiple of max(M, N)).
  for (let c = c0; c < c1; c++) {
    clusterBoxes(x, atomOf, bbI, M, colStart[c]!, colEnd[c]!);
    if (bbJ !== bbI) clusterBoxes(x, atomOf, bbJ, N, colStart[c]!, colEnd[c]!);
  }
}

/** Bounding boxes (ClusterLayoutWithGrid.boxes) of the clusters of `size` slots in slots [p0, p1). */
function clusterBoxes(xs: Float64Array, atomOf: Int32Array, bb: Float64Array, size: number, p0: number, p1: number): void {
  for (let c = p0 / size; c < p1 / size; c++) {
    let lx = Infinity, ly = Infinity, lz = Infinity, hx = -Infinity, hy = -Infinity, hz = -Infinity;
    for (let p = c * size; p < (c + 1) * size; p++) {
      if (atomOf[p]! < 0) continue;
      const x = xs[3 * p]!, y = xs[3 * p + 1]!, z = xs[3 * p + 2]!;
      if (x < lx) lx = x;
      if (x > hx) hx = x;
      if (y < ly) ly = y;
      if (y > hy) hy = y;
      if (z < lz) lz = z;
      if (z > hz) hz = z;
    }
    const o = 6 * c;
    bb[o] = lx;
    bb[o + 1] = ly;
    bb[o + 2] = lz;
    bb[o + 3] = hx;
    bb[o + 4] = hy;
    bb[o + 5] = hz;
  }
}

/**
 * The clustering split over threads: runs clusterAtoms on ranges of atoms that together cover
 * [0, n) (each thread adding into its own row of job.counts), then `middle` on the calling thread
 * once all are done, then clusterColumns on ranges that together cover the columns [0, ncol);
 * returns once all are done. False: nothing done (cluster here). The job's arrays are in shared
 * memory, the layout's with room for every column padded (n + ncol (S - 1) slots), except
 * job.X (the split shares it where it is not) and job.counts (the split sets it, with a row per
 * part that counts apart).
 */
export type ClusterSplit = (job: ClusterJob, middle: () => void) => boolean;

/** Per atom 1 where it has LJ parameters (ClusterJob.lj), in shared memory where asked; kept per flags array. */
const ljBytes = new WeakMap<object, Uint8Array>();
function ljFlagBytes(flags: ArrayLike<boolean>, shared: boolean): Uint8Array {
  let b = ljBytes.get(flags);
  if (!b || (shared && !(b.buffer instanceof SharedArrayBuffer))) {
    b = fresh(Uint8Array, flags.length, shared);
    for (let a = 0; a < flags.length; a++) b[a] = flags[a] ? 1 : 0;
    ljBytes.set(flags, b);
  }
  return b;
}

/**
 * Which atoms have LJ parameters: a type without any (epsilon 0, and an all-zero row of the C6/C12 table when the
 * system holds one) has C6 = C12 = 0 with every type under every combination rule.
 */
export function ljAtoms(sys: MdSystem): boolean[] {
  const nt = sys.ljTypes.length;
  const has = sys.ljTypes.map((t, a) => {
    if (t.epsilon !== 0) return true;
    if (!sys.nbfp) return false;
    for (let b = 0; b < nt; b++) if (sys.nbfp[2 * (a * nt + b)] !== 0 || sys.nbfp[2 * (a * nt + b) + 1] !== 0) return true;
    return false;
  });
  return Array.from(sys.type, (t) => has[t]!);
}

export interface ClusterLayoutWithGrid extends ClusterLayout {
  grid: ClusterGrid;
  /**
   * The clusters' bounding boxes, six numbers per cluster (lo x, y, z, hi x, y, z; an all-dummy
   * cluster +Infinity, -Infinity), made as each column was placed: of the i-clusters (M) and of
   * the j-clusters (N; the same array when N = M). The pair search reads them.
   */
  boxes: { bbI: Float64Array; bbJ: Float64Array };
}

/**
 * Grid the atoms into x/y columns of about max(M,N)/density cross-section (seed 001), sort each
 * column on z, cut it into blocks of S = max(M, N) slots, pad with dummies. Linear in the number
 * of atoms apart from the per-column z sort. `opts.split` runs its two passes over threads (the
 * same layout).
 */
export function buildClusters(sys: MdSystem, M: number, N: number, opts: ClusterOptions = {}): ClusterLayoutWithGrid {
  const n = sys.q.length;
  const S = Math.max(M, N);
  const [Lx, Ly, Lz] = sys.box;
  const density = n / (Lx * Ly * Lz);
  const size = Math.cbrt(S / density);
  const ncx = Math.max(1, Math.floor(Lx / size));
  const ncy = Math.max(1, Math.floor(Ly / size));
  const ncol = ncx * ncy;
  const split = opts.split;
  // The job's arrays in shared memory where the passes may run on other threads.
  const sh = split !== undefined;
  const shared = opts.shared || sh;
  // Fresh pages cost more than the work on them on some hosts (1-2 us per 4 KiB page on a VM):
  // the per-call arrays are kept for the next call, fully overwritten before they are read.
  if (clusterScratch?.n !== n || clusterScratch.shared !== sh) {
    clusterScratch = { n, shared: sh, w: fresh(Float64Array, 3 * n, sh), col: fresh(Int32Array, n, sh), byCol: fresh(Int32Array, n, sh), seen: new Uint8Array(n) };
  }
  const { w, col, byCol } = clusterScratch;
  const columns = opts.columnOrder ? opts.columnOrder(ncx, ncy) : Int32Array.from({ length: ncol }, (_, k) => k);
  if (columns.length !== ncol) throw new Error(`column order has ${columns.length} entries for ${ncol} columns`);
  const lj = opts.ljFirst && M <= N ? ljFlagBytes(opts.ljFirst, sh) : undefined;
  // A split clustering places atoms into arrays made before the padding is known: room for
  // every column padded, the layout's arrays views of its first nPadded slots.
  const room = split ? n + ncol * (S - 1) : 0;
  const job: ClusterJob = {
    n, S, M, N, box: [Lx, Ly, Lz], ncx, ncy,
    X: sys.x, w, col,
    counts: new Int32Array(ncol),
    bad: fresh(Int32Array, 1, sh).fill(n),
    byCol, first: fresh(Int32Array, ncol + 1, sh), colStart: fresh(Int32Array, ncol, sh), colEnd: fresh(Int32Array, ncol, sh),
    lj,
    atomOf: split ? fresh(Int32Array, room, shared) : new Int32Array(0),
    slotOf: fresh(Int32Array, n, shared),
    x: split ? fresh(Float64Array, 3 * room, shared) : new Float64Array(0),
    bbI: new Float64Array(0),
    bbJ: new Float64Array(0),
  };
  if (split) {
    job.bbI = fresh(Float64Array, 6 * Math.ceil(room / M), shared);
    job.bbJ = N === M ? job.bbI : fresh(Float64Array, 6 * Math.ceil(room / N), shared);
  }
  let nPadded = 0;
  // Between the passes: counts by column, the counting sort of atoms by column, each column's
  // slots in memory order of the columns.
  const middle = (): void => {
    const bad = job.bad[0]!;
    if (bad < n) throw new Error(`atom ${bad + 1}: coordinate is not finite`);
    const { counts, first } = job;
    const count = counts.subarray(0, ncol);
    for (let r = ncol; r < counts.length; r += ncol) for (let c = 0; c < ncol; c++) count[c]! += counts[r + c]!;
    for (let c = 0; c < ncol; c++) first[c + 1] = first[c]! + count[c]!;
    const fill = first.slice(0, ncol);
    if (!(opts.orderHint && fillInOrder(opts.orderHint, n, col, fill, byCol, clusterScratch!.seen))) {
      fill.set(first.subarray(0, ncol));
      for (let i = 0; i < n; i++) byCol[fill[col[i]!]!++] = i;
    }
    for (const c of columns) {
      job.colStart[c] = nPadded;
      nPadded += Math.ceil(count[c]! / S) * S;
      job.colEnd[c] = nPadded;
    }
    if (!split) {
      job.atomOf = fresh(Int32Array, nPadded, shared);
      job.x = fresh(Float64Array, 3 * nPadded, shared);
      job.bbI = fresh(Float64Array, (6 * nPadded) / M, shared);
      job.bbJ = N === M ? job.bbI : fresh(Float64Array, (6 * nPadded) / N, shared);
    }
  };
  if (!split?.(job, middle)) {
    clusterAtoms(job, 0, n, job.counts.subarray(0, ncol));
    middle();
    clusterColumns(job, 0, ncol);
  }
  const atomOf = job.atomOf.subarray(0, nPadded);
  const x = job.x.subarray(0, 3 * nPadded);
  const bbI = job.bbI.subarray(0, (6 * nPadded) / M);
  const boxes = { bbI, bbJ: N === M ? bbI : job.bbJ.subarray(0, (6 * nPadded) / N) };
  return { M, N, nPadded, atomOf, slotOf: job.slotOf, x, grid: { ncx, ncy, sx: Lx / ncx, sy: Ly / ncy, columns, colStart: job.colStart, colEnd: job.colEnd }, boxes };
}

/**
 * The counting sort's placement (byCol by column, from fill) in the order of `hint` (an earlier
 * layout's atomOf); false, with byCol partly written, unless the hint holds each of the n atoms
 * exactly once.
 */
function fillInOrder(hint: Int32Array, n: number, col: Int32Array, fill: Int32Array, byCol: Int32Array, seen: Uint8Array): boolean {
  seen.fill(0);
  let k = 0;
  for (let p = 0; p < hint.length; p++) {
    const a = hint[p]!;
    if (a < 0) continue;
    if (a >= n || seen[a]) return false;
    seen[a] = 1;
    k++;
    byCol[fill[col[a]!]!++] = a;
  }
  return k === n;
}

/**
 * Sort atoms on z (w holds 3 per atom), ties by atom index: insertion sort for the short columns
 * (a few clusters), the library sort beyond. Both give the one order of that total order.
 */
function sortOnZ(members: Int32Array, w: Float64Array): void {
  const n = members.length;
  if (n > 96) {
    members.sort((a, b) => w[3 * a + 2]! - w[3 * b + 2]! || a - b);
    return;
  }
  for (let k = 1; k < n; k++) {
    const a = members[k]!;
    const za = w[3 * a + 2]!;
    let m = k - 1;
    while (m >= 0) {
      const b = members[m]!;
      const zb = w[3 * b + 2]!;
      if (zb < za || (zb === za && b < a)) break;
      members[m + 1] = b;
      m--;
    }
    members[m + 1] = a;
  }
}

/** A cluster-pair list over a ClusterLayout: i-entries, their j-clusters and the interaction masks, as the kernels read them. */
export interface PairList {
  /** Atoms per i-cluster (as in the layout). */
  M: number;
  /** Atoms per j-cluster (as in the layout). */
  N: number;
  /** 32-bit words per j-entry's mask: ceil(M N / 32). */
  maskWords: number;
  /** i-entries: i-cluster, shift index, first j-entry, end j-entry. */
  ci: Int32Array;
  /** j-entries: the j-cluster index of each (the i-entries give each its range). */
  cj: Int32Array;
  /**
   * maskWords words per j-entry: bit a N + b set when the pair of i-atom a and j-atom b is computed
   * (clear: excluded, a dummy, or counted in another entry).
   */
  excl: Uint32Array;
  /** 27 shift vectors (index (sx+1) + 3 (sy+1) + 9 (sz+1)), 13 = no shift. */
  shiftVec: Float64Array;
  /** The list cut-off (nm) the list was built with. */
  rlist: number;
  /** Atom pairs the list covers (inside rlist), and all i-j pairs it computes. */
  stats: {
    /** j-entries (cluster pairs) in the list. */
    clusterPairs: number;
    /** i-j slot pairs the kernels compute: M N per j-entry. */
    computedPairs: number;
    /** Bounding-box distance tests the search made (0 for the brute-force builder). */
    bbChecks: number;
  };
}

/** Index of the zero shift vector among the 27 periodic shifts in PairList.shiftVec. */
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
 * The O(N^2) list builder, kept as an independent check of the grid search (same entries, same
 * masks, same order). All cluster pairs with at least one atom pair closer than rlist. Each atom pair appears
 * once, in the entry where its padded i index is below its j index; masks clear that
 * pair's bit when it is excluded, a dummy, or counted elsewhere.
 */
export function buildPairListBrute(sys: MdSystem, L: ClusterLayout, rlist: number): PairList {
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
    stats: { clusterPairs: cj.length, computedPairs, bbChecks: 0 },
  };
}

/**
 * The diagonal of box c of flat boxes `bb` (six numbers per box: lo x, y, z, hi x, y, z), as
 * sqrt(dx^2 + dy^2 + dz^2): Math.hypot, which guards against overflow these lengths cannot
 * reach, took 1 ms of each LJ fluid search (16,000 2x2 clusters) here.
 */
function diagonal(bb: Float64Array, c: number): number {
  const dx = bb[6 * c + 3]! - bb[6 * c]!, dy = bb[6 * c + 4]! - bb[6 * c + 1]!, dz = bb[6 * c + 5]! - bb[6 * c + 2]!;
  return Math.sqrt(dx * dx + dy * dy + dz * dz);
}

export interface PairListOptions {
  /**
   * Cluster pairs whose bounding boxes are closer than rBB enter the list without the atom-pair
   * distance test; pairs between rBB and rlist are pruned atom by atom (seed 001). Default as in
   * GROMACS: rlist minus half the mean bounding-box diagonal.
   */
  rbb?: number;
  /** Use the general cluster search even for 1x1 (for tests). */
  generic?: boolean;
  /** Search column ranges elsewhere (worker threads); the joined list is the same. */
  split?: ColumnSplit;
  /** Work of the caller's that does not need the list, run once: with `split`, while the workers search (ColumnSplit); else before the search. */
  meanwhile?: () => void;
  /** Join the split search's parts into these buffers (listBuffers) instead of new arrays. */
  join?: ListBuffers;
}

/**
 * Two generations of shared arrays a split search's list is joined into, in turn, kept while
 * they are large enough: the list of one search stays intact while the next is built (and read
 * by the worker threads until they take that one), and is overwritten by the search after.
 * One per searcher (NonbondedForce) whose lists are dropped two searches later.
 */
export interface ListBuffers {
  gen: ListArrays[];
  turn: number;
}

/** Empty list buffers (each generation grows to the largest list it holds). */
export function listBuffers(): ListBuffers {
  const none = () => ({ ci: new Int32Array(0), cj: new Int32Array(0), excl: new Uint32Array(0) });
  return { gen: [none(), none()], turn: 0 };
}

/** `a`, or a new shared array 10% longer than `len` where `a` is shorter. */
function atLeast<T extends Int32Array | Uint32Array>(a: T, len: number, Arr: { new (len: number): T; new (b: ArrayBufferLike): T; BYTES_PER_ELEMENT: number }): T {
  return a.length >= len ? a : fresh(Arr, Math.ceil(1.1 * len), true);
}

/**
 * The cluster-pair search of seed 001, linear in the number of atoms: for each i-cluster and each
 * periodic image, only the grid columns within rlist of its bounding box are visited, and in each
 * column only the z-range of j-clusters within rlist (columns are z-sorted). Each atom pair within
 * rlist appears exactly once (in the entry whose padded i slot is below its j slot); masks clear
 * excluded pairs, dummies and pairs counted elsewhere; entries with exclusions come first in each
 * i-entry. Produces the same list as buildPairListBrute when rbb is 0.
 */
export function buildPairList(sys: MdSystem, L: ClusterLayoutWithGrid | ClusterLayout, rlist: number, opts: PairListOptions = {}): PairList {
  if (!('grid' in L)) {
    opts.meanwhile?.();
    return buildPairListBrute(sys, L, rlist);
  }
  const { M, N, grid: g } = L;
  const [Lx, Ly, Lz] = sys.box;
  const half = Math.min(Lx, Ly, Lz) / 2;
  if (!(rlist < half)) throw new Error(`list cut-off ${rlist} nm must be shorter than half the smallest box edge (${half.toFixed(4)} nm)`);
  const shiftVec = new Float64Array(27 * 3);
  for (let s = 0; s < 27; s++) {
    shiftVec[3 * s] = ((s % 3) - 1) * Lx;
    shiftVec[3 * s + 1] = ((Math.floor(s / 3) % 3) - 1) * Ly;
    shiftVec[3 * s + 2] = (Math.floor(s / 9) - 1) * Lz;
  }
  if (M === 1 && N === 1 && !opts.generic) {
    opts.meanwhile?.();
    return atomPairList(sys, L, rlist, shiftVec);
  }
  // The clustering's boxes (a split search shares what is not in shared memory yet: MdWorkers.search).
  const { bbI, bbJ } = L.boxes;
  const nci = L.nPadded / M;
  const rl2 = rlist * rlist;
  let rbb = opts.rbb;
  if (rbb === undefined) {
    let diag = 0;
    let nb = 0;
    // Diagonals of the i boxes, then of the j boxes (the same boxes again when M = N: their
    // diagonals are kept and summed a second time in the same order, not computed twice).
    const dI = new Float64Array(nci);
    let nI = 0;
    for (let c = 0; c < nci; c++) {
      if (bbI[6 * c]! > bbI[6 * c + 3]!) continue;
      const d = diagonal(bbI, c);
      dI[nI++] = d;
      diag += d;
    }
    nb += nI;
    if (bbJ === bbI) {
      for (let k = 0; k < nI; k++) diag += dI[k]!;
      nb += nI;
    } else {
      for (let c = 0; c < L.nPadded / N; c++) {
        if (bbJ[6 * c]! > bbJ[6 * c + 3]!) continue;
        diag += diagonal(bbJ, c);
        nb++;
      }
    }
    rbb = Math.max(0, rlist - (0.5 * diag) / Math.max(1, nb));
  }
  const rbb2 = rbb * rbb;
  const MN = M * N;
  const maskWords = Math.ceil(MN / 32);
  if (maskWords > 2) throw new Error(`cluster shape ${M}x${N} has more than 64 pairs`);
  const fullMask = new Uint32Array(maskWords);
  for (let w = 0; w < maskWords; w++) fullMask[w] = w < maskWords - 1 || MN % 32 === 0 ? 0xffffffff : (2 ** (MN % 32) - 1) >>> 0;
  // Exclusions as a sorted CSR by atom for quick membership tests.
  const { start: exStart, list: exList } = exclusionCsr(sys);
  const inp: SearchInput = {
    box: [Lx, Ly, Lz], M, N, maskWords, rlist, rl2, rbb2, shiftVec, bbI, bbJ,
    x: L.x, atomOf: L.atomOf, slotOf: L.slotOf, grid: g, exStart, exList,
    full0: fullMask[0]! | 0,
    full1: maskWords > 1 ? fullMask[1]! | 0 : 0,
  };
  // The generation of the join buffers this list goes into (joinParts moves on to the other).
  const split = opts.split?.(inp, opts.meanwhile, opts.join?.gen[opts.join.turn]);
  let parts = split?.parts;
  if (!parts) {
    opts.meanwhile?.();
    parts = [searchColumns(inp, 0, g.columns.length)];
  }
  return joinParts(parts, M, N, maskWords, shiftVec, rlist, opts.join, split?.joined);
}

/**
 * Everything the search of a range of columns reads: plain numbers and typed arrays, so it can
 * move to another thread (shared memory) and give the same entries there.
 */
export interface SearchInput {
  box: [number, number, number];
  M: number;
  N: number;
  maskWords: number;
  rlist: number;
  rl2: number;
  rbb2: number;
  shiftVec: Float64Array;
  bbI: Float64Array;
  bbJ: Float64Array;
  x: Float64Array;
  atomOf: Int32Array;
  slotOf: Int32Array;
  grid: ClusterGrid;
  exStart: Int32Array;
  exList: Int32Array;
  full0: number;
  full1: number;
}

/** The list entries of a range of columns; its i-entries index its own j-entries from 0. */
export interface ListPart {
  ci: Int32Array;
  cj: Int32Array;
  excl: Uint32Array;
  computedPairs: number;
  bbChecks: number;
}

/** A list's arrays: i-entries, j-entries and masks. */
export interface ListArrays {
  ci: Int32Array;
  cj: Int32Array;
  excl: Uint32Array;
}

/**
 * A split search's parts (ListPart per range, in column order, together all columns), and where
 * the threads copied them into the arrays handed to the split themselves (each thread its own
 * parts), those arrays cut to the list's length: the list joinParts would make.
 */
export interface SplitParts {
  parts: ListPart[];
  joined?: ListArrays;
}

/**
 * Searches the columns in ranges; buildPairList joins the parts into the list a single search
 * gives. `meanwhile`: the caller's work that needs no list, run on the calling thread once the
 * others have started searching (before it searches chunks itself). `into`: shared arrays the
 * threads may join the parts into, if the list fits (SplitParts.joined). Undefined: nothing done
 * (meanwhile not run either); search here.
 */
export type ColumnSplit = (inp: SearchInput, meanwhile?: () => void, into?: ListArrays) => SplitParts | undefined;

/**
 * Boundaries 0 = b[0] <= ... <= b[parts] = columns of column ranges (memory order) with about
 * equal weight: weight[m] per column position when given (e.g. the previous search's j-entries:
 * with a half list the first columns hold more), else its slot count.
 */
export function columnRanges(g: ClusterGrid, parts: number, weight?: Float64Array): number[] {
  const nc = g.columns.length;
  const w = weight && weight.length === nc ? weight : Float64Array.from(g.columns, (c) => g.colEnd[c]! - g.colStart[c]!);
  let total = 0;
  for (let m = 0; m < nc; m++) total += w[m]!;
  const b = [0];
  let acc = 0;
  let m = 0;
  for (let p = 1; p < parts; p++) {
    while (m < nc && acc + w[m]! / 2 < (total * p) / parts) acc += w[m++]!;
    b.push(m);
  }
  b.push(nc);
  return b;
}

/** Work per column position of a search's parts: j-entries plus one per i-entry of the column's i-clusters. */
export function columnWork(g: ClusterGrid, M: number, parts: ListPart[]): Float64Array {
  const nc = g.columns.length;
  let nClusters = 0;
  for (let m = 0; m < nc; m++) nClusters = Math.max(nClusters, g.colEnd[g.columns[m]!]! / M);
  const posOf = new Int32Array(nClusters);
  for (let m = 0; m < nc; m++) {
    const c = g.columns[m]!;
    for (let k = g.colStart[c]! / M; k < g.colEnd[c]! / M; k++) posOf[k] = m;
  }
  const work = new Float64Array(nc);
  for (const p of parts) {
    for (let e = 0; e < p.ci.length; e += 4) work[posOf[p.ci[e]!]!]! += p.ci[e + 3]! - p.ci[e + 2]! + 1;
  }
  return work;
}

/** The pair-list entries of the columns at memory positions [m0, m1). */
export function searchColumns(inp: SearchInput, m0: number, m1: number): ListPart {
  return searchRange(inp, m0, m1, m1 > m0 ? searchWorkspace(inp.M, inp.N, inp.grid.columns.length, inp.bbJ, inp.x, inp.atomOf) : null);
}

/** A chunk of columns' list entries (searchColumnChunks). */
export interface ChunkPart {
  chunk: number;
  part: ListPart;
}

/**
 * The list entries of chunks of columns, chunk c being the memory positions [bounds[c],
 * bounds[c + 1]), for each chunk `claim()` hands out (until it returns bounds.length - 1 or more),
 * one part per chunk. Threads that claim chunks from one counter give, in chunk order, the parts
 * of one search: whichever thread searched a chunk, its part is the same.
 */
export function searchColumnChunks(inp: SearchInput, bounds: ArrayLike<number>, claim: () => number, arenas?: ChunkArenas): ChunkPart[] {
  const out: ChunkPart[] = [];
  // With arenas, the parts are views on them, valid until their next search (which starts over).
  if (arenas) for (const a of [arenas.ci, arenas.cj, arenas.excl]) a.at = 0;
  // The inner scans in WebAssembly SIMD where this thread has the module (search-simd.ts): one
  // workspace for all this thread's chunks (its exclusion marks name the i-cluster, so they need
  // no clearing between chunks).
  let ws: SearchWorkspace | null | undefined;
  for (let c = claim(); c < bounds.length - 1; c = claim()) {
    const m0 = bounds[c]!;
    const m1 = bounds[c + 1]!;
    if (ws === undefined && m1 > m0) ws = searchWorkspace(inp.M, inp.N, inp.grid.columns.length, inp.bbJ, inp.x, inp.atomOf);
    out.push({ chunk: c, part: searchRange(inp, m0, m1, m1 > m0 ? (ws ?? null) : null, arenas) });
  }
  return out;
}

/**
 * A bump allocator of views on one shared array, kept between searches: a split search's chunk
 * outputs go there instead of into fresh arrays (fresh pages cost more than the search's work on
 * them on some hosts, and every search's arrays added external memory that made V8 run full
 * collections every 60-90 steps of the water box).
 */
interface ChunkArena<T extends Int32Array | Uint32Array> {
  buf: T;
  at: number;
  readonly Arr: { new (len: number): T; new (b: ArrayBufferLike): T; BYTES_PER_ELEMENT: number };
}

/**
 * One searcher's (thread's) arenas for the i-entries, j-entries and masks of the chunks it
 * searches (searchColumnChunks): the parts of one search are views on them, valid until the
 * same arenas serve the next search; the caller joins them before that.
 */
export interface ChunkArenas {
  ci: ChunkArena<Int32Array>;
  cj: ChunkArena<Int32Array>;
  excl: ChunkArena<Uint32Array>;
}

/** Empty arenas (they grow to the largest search they serve). */
export function chunkArenas(): ChunkArenas {
  return {
    ci: { buf: new Int32Array(0), at: 0, Arr: Int32Array },
    cj: { buf: new Int32Array(0), at: 0, Arr: Int32Array },
    excl: { buf: new Uint32Array(0), at: 0, Arr: Uint32Array },
  };
}

/** `len` elements of the arena (a larger shared array when it has no room left: the views already taken keep theirs). */
function arenaTake<T extends Int32Array | Uint32Array>(a: ChunkArena<T>, len: number): T {
  if (a.buf.length - a.at < len) {
    a.buf = fresh(a.Arr, Math.max(len, 2 * a.buf.length, 4096), true);
    a.at = 0;
  }
  const v = a.buf.subarray(a.at, a.at + len) as T;
  a.at += len;
  return v;
}

/**
 * The first `used` elements of a chunk's output `final` as a view on the arena: `view` (the last
 * view taken) less its unused end, or, where the search outgrew `view` into a plain array, a copy.
 */
function arenaKeep<T extends Int32Array | Uint32Array>(a: ChunkArena<T>, view: T, final: T, used: number): T {
  const last = view.buffer === a.buf.buffer && a.at === view.byteOffset / a.Arr.BYTES_PER_ELEMENT + view.length;
  if (final === view) {
    if (last) a.at -= view.length - used;
    return view.subarray(0, used) as T;
  }
  if (last) a.at -= view.length;
  const kept = arenaTake(a, used);
  kept.set(final.subarray(0, used));
  return kept;
}

function searchRange(inp: SearchInput, m0: number, m1: number, ws: SearchWorkspace | null, arenas?: ChunkArenas): ListPart {
  const g = inp.grid;
  const { M, N, maskWords } = inp;
  let slots = 0;
  for (let m = m0; m < m1; m++) slots += g.colEnd[g.columns[m]!]! - g.colStart[g.columns[m]!]!;
  const nci = Math.ceil(slots / M);
  // Output buffers handed out as views (no copy at the end), sized from the entries per
  // i-cluster of this thread's last search so they seldom grow: fresh ones for a whole search
  // (they become the list), views on this thread's arenas for chunks of a split search.
  const sc = scratch;
  const capCi = 4 * Math.ceil(1.1 * nci * sc.ciPerCluster + 16);
  const capCj = Math.ceil(1.1 * nci * sc.cjPerCluster + 64);
  const ci0 = arenas ? arenaTake(arenas.ci, capCi) : new Int32Array(capCi);
  const cj0 = arenas ? arenaTake(arenas.cj, capCj) : new Int32Array(capCj);
  const excl0 = arenas ? arenaTake(arenas.excl, capCj * maskWords) : new Uint32Array(capCj * maskWords);
  // Interaction masks of a cluster pair with nI real i atoms and nJ real j atoms (dummies trail).
  const realMask = realMasks(M, N);
  const st: ColumnSearch = {
    inp,
    // j-clusters that hold an excluded partner of some atom of the current i-cluster.
    exclJ: ws ? ws.exclJView : new Int32Array(inp.atomOf.length / N).fill(-1),
    nbl: (sc.nbl ??= new ColumnNeighbours()),
    ix: ws ? ws.ixView : new Float64Array(3 * M),
    ws,
    pre: prefilterBounds(inp.rl2, reach(inp)),
    realMask,
    ci: ci0,
    nci4: 0,
    cj: cj0,
    excl: excl0,
    ncj: 0,
    tmpJ: sc.tmpJ,
    xJ: new Int32Array(16),
    xPos: new Int32Array(16),
    computedPairs: 0,
    bbChecks: 0,
  };
  if (ws) for (let m = m0; m < m1; m++) searchColumnSimd(st, ws, g.columns[m]!);
  else for (let m = m0; m < m1; m++) searchColumn(st, g.columns[m]!);
  sc.tmpJ = st.tmpJ;
  if (arenas) {
    st.ci = arenaKeep(arenas.ci, ci0, st.ci, st.nci4);
    st.cj = arenaKeep(arenas.cj, cj0, st.cj, st.ncj);
    st.excl = arenaKeep(arenas.excl, excl0, st.excl, st.ncj * maskWords);
  }
  if (nci > 0) {
    sc.ciPerCluster = st.nci4 / 4 / nci;
    sc.cjPerCluster = st.ncj / nci;
  }
  return {
    ci: st.ci.subarray(0, st.nci4),
    cj: st.cj.subarray(0, st.ncj),
    excl: st.excl.subarray(0, st.ncj * maskWords),
    computedPairs: st.computedPairs,
    bbChecks: st.bbChecks,
  };
}

/**
 * What one search on this thread leaves the next: the scratch of the full entries, and the i- and
 * j-entries per i-cluster it made (to size the next one's outputs); the column neighbours, made
 * once per thread rather than once per range: a split search runs 16 ranges per thread, and fresh
 * ones (83 KB of typed arrays each) cost this thread 0.55 ms of its 7.6 ms share of a water search
 * on 2 threads.
 */
const scratch: {
  tmpJ: Int32Array;
  ciPerCluster: number;
  cjPerCluster: number;
  nbl?: ColumnNeighbours;
} = {
  tmpJ: new Int32Array(256),
  ciPerCluster: 4,
  cjPerCluster: 64,
};

/**
 * One list from the parts of consecutive column ranges: j-entry indices offset by the parts
 * before (joinPart). `joined`: the threads of a split search joined them already, into the
 * current generation of `into`.
 */
function joinParts(parts: ListPart[], M: number, N: number, maskWords: number, shiftVec: Float64Array, rlist: number, into?: ListBuffers, joined?: ListArrays): PairList {
  let nci4 = 0;
  let ncj = 0;
  let computedPairs = 0;
  let bbChecks = 0;
  for (const p of parts) {
    nci4 += p.ci.length;
    ncj += p.cj.length;
    computedPairs += p.computedPairs;
    bbChecks += p.bbChecks;
  }
  const stats = { clusterPairs: ncj, computedPairs, bbChecks };
  if (parts.length === 1 && !into) {
    const p = parts[0]!;
    return { M, N, maskWords, ci: p.ci, cj: p.cj, excl: p.excl, shiftVec, rlist, stats };
  }
  if (joined && into) {
    into.turn = 1 - into.turn;
    return { M, N, maskWords, ...joined, shiftVec, rlist, stats };
  }
  // Parts come from worker threads, which read the joined list next: in shared memory from the
  // start where there is any (no second copy when the threads take it); in the next generation
  // of `into` where given.
  let ci: Int32Array, cj: Int32Array, excl: Uint32Array;
  if (into) {
    const g = into.gen[into.turn]!;
    into.turn = 1 - into.turn;
    g.ci = atLeast(g.ci, nci4, Int32Array);
    g.cj = atLeast(g.cj, ncj, Int32Array);
    g.excl = atLeast(g.excl, ncj * maskWords, Uint32Array);
    ci = g.ci.subarray(0, nci4);
    cj = g.cj.subarray(0, ncj);
    excl = g.excl.subarray(0, ncj * maskWords);
  } else {
    ci = fresh(Int32Array, nci4, true);
    cj = fresh(Int32Array, ncj, true);
    excl = fresh(Uint32Array, ncj * maskWords, true);
  }
  let oi = 0;
  let oj = 0;
  for (const p of parts) {
    joinPart(p, { ci, cj, excl }, oi, oj, maskWords);
    oi += p.ci.length;
    oj += p.cj.length;
  }
  return { M, N, maskWords, ci, cj, excl, shiftVec, rlist, stats };
}

/** Part p into the list's arrays `to` from i-entry word oi and j-entry oj on (its j-entry indices offset by oj). */
export function joinPart(p: ListPart, to: ListArrays, oi: number, oj: number, maskWords: number): void {
  const { ci } = to;
  ci.set(p.ci, oi);
  for (let e = oi; e < oi + p.ci.length; e += 4) {
    ci[e + 2]! += oj;
    ci[e + 3]! += oj;
  }
  to.cj.set(p.cj, oj);
  to.excl.set(p.excl, oj * maskWords);
}

/** What the grid search keeps across columns: inputs, scratch and the growing outputs. */
interface ColumnSearch {
  inp: SearchInput;
  exclJ: Int32Array;
  nbl: ColumnNeighbours;
  /** The module's workspace when the scans run in WebAssembly. */
  ws: SearchWorkspace | null;
  /** The current i-cluster's atoms with the current shift added (x, y, z per atom). */
  ix: Float64Array;
  /** The module's f32 pre-test bounds on d^2 (search-simd.ts prefilterBounds). */
  pre: { lo: number; hi: number };
  /** Masks (2 words) by real atom counts: realMask[2 (nI (N + 1) + nJ) + w]. */
  realMask: Int32Array;
  ci: Int32Array;
  nci4: number;
  cj: Int32Array;
  excl: Uint32Array;
  ncj: number;
  tmpJ: Int32Array;
  /** searchColumnSimd's entries finished in TypeScript that came out full, and their places. */
  xJ: Int32Array;
  xPos: Int32Array;
  computedPairs: number;
  bbChecks: number;
}

/** The largest coordinate magnitude of a search: positions wrapped into the box, images shifted by shiftVec. */
function reach(inp: SearchInput): number {
  let shMax = 0;
  for (let k = 0; k < inp.shiftVec.length; k++) shMax = Math.max(shMax, Math.abs(inp.shiftVec[k]!));
  return Math.max(...inp.box) + shMax;
}

/** Margin (nm) on the per-column z window: it only skips j-clusters the box test would reject. */
const Z_WINDOW_MARGIN = 1e-6;

/**
 * The i-clusters of grid column `col` against their neighbours, appended to the outputs. One call
 * per column (rather than one loop over all columns) so the engine compiles this hot code as a
 * whole function, with complete type feedback, instead of on-stack replacement in a long call.
 */
function searchColumn(st: ColumnSearch, col: number): void {
  const { exclJ, nbl, ix, realMask } = st;
  const { box, grid: g, M, N, maskWords, rlist, rl2, rbb2, shiftVec, bbI, bbJ, exStart, exList, full0, full1, atomOf, slotOf } = st.inp;
  const [Lx, Ly, Lz] = box;
  const MN = M * N;
  const N1 = N + 1;
  const xs = st.inp.x;
  const colEnd = g.colEnd;
  let { ci, nci4, cj, excl, ncj, tmpJ, computedPairs, bbChecks } = st;
  nbl.build(g, col, shiftVec, box, rlist, N);
  const { cursor, bounds, jEnd, groupStart, groupShift } = nbl;
  const ng = nbl.groups;
  for (let i = g.colStart[col]! / M; i < colEnd[col]! / M; i++) {
    const o = 6 * i;
    if (bbI[o]! > bbI[o + 3]!) continue; // all dummies
    const i0 = i * M;
    const iEnd = i0 + M;
    const jmin = Math.floor(i0 / N);
    let nI = M;
    while (atomOf[i0 + nI - 1]! < 0) nI--;
    for (let a = 0; a < nI; a++) {
      const atom = atomOf[i0 + a]!;
      for (let k = exStart[atom]!; k < exStart[atom + 1]!; k++) exclJ[Math.floor(slotOf[exList[k]!]! / N)] = i;
    }
    const bIlx = bbI[o]!, bIly = bbI[o + 1]!, bIlz = bbI[o + 2]!;
    const bIhx = bbI[o + 3]!, bIhy = bbI[o + 4]!, bIhz = bbI[o + 5]!;
    for (let gi = 0; gi < ng; gi++) {
      const s = groupShift[gi]!;
      const shx = shiftVec[3 * s]!, shy = shiftVec[3 * s + 1]!, shz = shiftVec[3 * s + 2]!;
      const ilx = bIlx + shx, ily = bIly + shy, ilz = bIlz + shz;
      const ihx = bIhx + shx, ihy = bIhy + shy, ihz = bIhz + shz;
      // Image of the i box must reach into the unit cell.
      if (ihx < -rlist || ilx >= Lx + rlist || ihy < -rlist || ily >= Ly + rlist || ihz < -rlist || ilz >= Lz + rlist) continue;
      for (let a = 0; a < nI; a++) {
        const pa = 3 * (i0 + a);
        ix[3 * a] = xs[pa]! + shx;
        ix[3 * a + 1] = xs[pa + 1]! + shy;
        ix[3 * a + 2] = xs[pa + 2]! + shz;
      }
      // Entries with exclusions (or dummies, or the self pair) go straight to the output in
      // visiting order; the full ones wait in tmpJ and follow them.
      const entry0 = ncj;
      let nt = 0;
      const zlo = ilz - rlist;
      const kEnd = groupStart[gi + 1]!;
      for (let k = groupStart[gi]!; k < kEnd; k++) {
        // Gaps written out, not gap2() calls: this function is past the engine's inlining budget.
        const cxl = bounds[4 * k]!, cxh = bounds[4 * k + 1]!, cyl = bounds[4 * k + 2]!, cyh = bounds[4 * k + 3]!;
        const gcx = cxl > ihx ? cxl - ihx : ilx > cxh ? ilx - cxh : 0;
        const gcy = cyl > ihy ? cyl - ihy : ily > cyh ? ily - cyh : 0;
        const dxy2 = gcx * gcx + gcy * gcy;
        if (dxy2 >= rl2) continue;
        const j1 = jEnd[k]!;
        if (j1 <= jmin) continue;
        // Columns are z-sorted and the column's i-clusters go up in z: the cursor skips the
        // j-clusters entirely below the i box once (all-dummy clusters only trail a column).
        let j = cursor[k]!;
        while (j < j1 && bbJ[6 * j + 5]! < zlo) j++;
        cursor[k] = j;
        if (j < jmin) j = jmin;
        // The z window this column leaves within rlist of the i box (its x/y gap taken): the
        // j-clusters outside it are ones the box test rejects.
        const dz = Math.sqrt(rl2 - dxy2) + Z_WINDOW_MARGIN;
        const zloC = ilz - dz;
        const zhiC = ihz + dz;
        while (j < j1 && bbJ[6 * j + 5]! < zloC) j++;
        for (; j < j1; j++) {
          const p = 6 * j;
          // All-dummy clusters (lo z = +Infinity) only trail a column: they end it here too.
          if (bbJ[p + 2]! > zhiC) break;
          bbChecks++;
          const jlx = bbJ[p]!, jly = bbJ[p + 1]!, jlz = bbJ[p + 2]!, jhx = bbJ[p + 3]!, jhy = bbJ[p + 4]!, jhz = bbJ[p + 5]!;
          const gx = jlx > ihx ? jlx - ihx : ilx > jhx ? ilx - jhx : 0;
          const gy = jly > ihy ? jly - ihy : ily > jhy ? ily - jhy : 0;
          const gz = jlz > ihz ? jlz - ihz : ilz > jhz ? ilz - jhz : 0;
          const d2bb = gx * gx + gy * gy + gz * gz;
          if (d2bb >= rl2) continue;
          const j0s = j * N;
          const selfPair = j0s < iEnd;
          // The rBB shortcut only for disjoint clusters: a self pair holds no counted pair at distance 0.
          let within = d2bb < rbb2 && !selfPair;
          const exJ = exclJ[j] === i;
          if (!selfPair && !exJ && nI === M && atomOf[j0s + N - 1]! >= 0) {
            if (!within) {
              // Atom pairs until one lies within rlist. (A first pass rejecting j atoms far from
              // the i box cost more than it saved: 13-22% slower searches.)
              // Both clusters are z-sorted: start from the ends that face each other.
              if (bbJ[p + 2]! + bbJ[p + 5]! > ilz + ihz) {
                for (let a = 3 * (M - 1); a >= 0 && !within; a -= 3) {
                  const xa = ix[a]!, ya = ix[a + 1]!, za = ix[a + 2]!;
                  for (let pb = 3 * j0s; pb < 3 * j0s + 3 * N; pb += 3) {
                    const dx = xa - xs[pb]!, dy = ya - xs[pb + 1]!, dz = za - xs[pb + 2]!;
                    if (dx * dx + dy * dy + dz * dz < rl2) {
                      within = true;
                      break;
                    }
                  }
                }
              } else {
                for (let a = 0; a < 3 * M && !within; a += 3) {
                  const xa = ix[a]!, ya = ix[a + 1]!, za = ix[a + 2]!;
                  for (let pb = 3 * (j0s + N - 1); pb >= 3 * j0s; pb -= 3) {
                    const dx = xa - xs[pb]!, dy = ya - xs[pb + 1]!, dz = za - xs[pb + 2]!;
                    if (dx * dx + dy * dy + dz * dz < rl2) {
                      within = true;
                      break;
                    }
                  }
                }
              }
              if (!within) continue;
            }
            if (nt === tmpJ.length) tmpJ = grow(tmpJ, 2 * nt);
            tmpJ[nt++] = j;
            continue;
          }
          // Masks in two scalar words (M*N <= 64).
          let m0 = 0;
          let m1 = 0;
          if (selfPair) {
            for (let a = 0; a < nI; a++) {
              const pa = i0 + a;
              const atomA = atomOf[pa]!;
              const xa = ix[3 * a]!, ya = ix[3 * a + 1]!, za = ix[3 * a + 2]!;
              for (let b = 0; b < N; b++) {
                const pb = j0s + b;
                const atomB = atomOf[pb]!;
                if (atomB < 0 || pb <= pa) continue;
                if (!within) {
                  const dx = xa - xs[3 * pb]!, dy = ya - xs[3 * pb + 1]!, dz = za - xs[3 * pb + 2]!;
                  if (dx * dx + dy * dy + dz * dz < rl2) within = true;
                }
                if (exJ && csrHas(exStart, exList, atomA, atomB)) continue;
                const bit = a * N + b;
                if (bit < 32) m0 |= 1 << bit;
                else m1 |= 1 << (bit - 32);
              }
            }
          } else {
            // Disjoint clusters: every real pair counts; excluded ones are cleared from the
            // excluded partners' slots.
            let nJ = N;
            while (nJ > 0 && atomOf[j0s + nJ - 1]! < 0) nJ--;
            if (!within) {
              for (let a = 0; a < nI && !within; a++) {
                const xa = ix[3 * a]!, ya = ix[3 * a + 1]!, za = ix[3 * a + 2]!;
                for (let pb = 3 * j0s; pb < 3 * (j0s + nJ); pb += 3) {
                  const dx = xa - xs[pb]!, dy = ya - xs[pb + 1]!, dz = za - xs[pb + 2]!;
                  if (dx * dx + dy * dy + dz * dz < rl2) {
                    within = true;
                    break;
                  }
                }
              }
            }
            // An all-excluded entry stays: excluded pairs inside the cut-off still get the
            // reaction-field / Ewald exclusion correction.
            if (!within) continue;
            const r = 2 * (nI * N1 + nJ);
            m0 = realMask[r]!;
            m1 = realMask[r + 1]!;
            if (exJ) {
              for (let a = 0; a < nI; a++) {
                const atomA = atomOf[i0 + a]!;
                for (let e = exStart[atomA]!; e < exStart[atomA + 1]!; e++) {
                  const b = slotOf[exList[e]!]! - j0s;
                  if (b < 0 || b >= N) continue;
                  const bit = a * N + b;
                  if (bit < 32) m0 &= ~(1 << bit);
                  else m1 &= ~(1 << (bit - 32));
                }
              }
            }
          }
          if (!within) continue;
          if ((m0 | 0) === (full0 | 0) && (m1 | 0) === (full1 | 0)) {
            if (nt === tmpJ.length) tmpJ = grow(tmpJ, 2 * nt);
            tmpJ[nt++] = j;
            continue;
          }
          if (ncj === cj.length) {
            cj = grow(cj, 2 * ncj);
            excl = grow(excl, cj.length * maskWords);
          }
          cj[ncj] = j;
          excl[ncj * maskWords] = m0;
          if (maskWords === 2) excl[ncj * maskWords + 1] = m1;
          ncj++;
        }
      }
      if (ncj === entry0 && nt === 0) continue;
      if (nci4 + 4 > ci.length) ci = grow(ci, 2 * ci.length);
      if (ncj + nt > cj.length) {
        cj = grow(cj, 2 * (ncj + nt));
        excl = grow(excl, cj.length * maskWords);
      }
      for (let t = 0; t < nt; t++) cj[ncj + t] = tmpJ[t]!;
      fillMasks(excl, maskWords, ncj, ncj + nt, full0, full1);
      ncj += nt;
      ci[nci4] = i;
      ci[nci4 + 1] = s;
      ci[nci4 + 2] = entry0;
      ci[nci4 + 3] = ncj;
      nci4 += 4;
      computedPairs += (ncj - entry0) * MN;
    }
  }
  st.ci = ci;
  st.nci4 = nci4;
  st.cj = cj;
  st.excl = excl;
  st.ncj = ncj;
  st.tmpJ = tmpJ;
  st.computedPairs = computedPairs;
  st.bbChecks = bbChecks;
}

/**
 * searchColumn with the module (search-simd.ts) doing, per i-cluster image and shift, every
 * neighbour column's x/y gap, cursor and z window, the box tests, the atom-pair prune and the
 * masks of disjoint cluster pairs (real-pair table less the exclusion bits marked here per
 * i-cluster): it returns the full and the masked entries, each in visiting order; the self pairs
 * are finished here as in searchColumn and put in their places. Same list as searchColumn.
 */
function searchColumnSimd(st: ColumnSearch, ws: SearchWorkspace, col: number): void {
  const { outView: out, fullView: full, mskView: msk, exmView: exm, checks } = ws;
  // Self pairs that came out full (none in practice: the self pair clears the bits of pairs
  // counted elsewhere), with their place among the module's full entries.
  let xJ = st.xJ;
  let xPos = st.xPos;
  const { exclJ, nbl, ix } = st;
  const { box, grid: g, M, N, maskWords, rlist, rl2, rbb2, shiftVec, bbI, exStart, exList, full0, full1, atomOf, slotOf } = st.inp;
  const [Lx, Ly, Lz] = box;
  const MN = M * N;
  const N1 = N + 1;
  const xs = st.inp.x;
  const colEnd = g.colEnd;
  let { ci, nci4, cj, excl, ncj, computedPairs, bbChecks } = st;
  const nb = nbl.build(g, col, shiftVec, box, rlist, N);
  const { cursor, bounds, jEnd, groupStart, groupShift } = nbl;
  const ixs = ws.ixsView;
  const pre = st.pre;
  // The neighbour columns into the module: bounds, cursor, end.
  const { colsF, colsI } = ws;
  for (let k = 0; k < nb; k++) {
    colsF[6 * k] = bounds[4 * k]!;
    colsF[6 * k + 1] = bounds[4 * k + 1]!;
    colsF[6 * k + 2] = bounds[4 * k + 2]!;
    colsF[6 * k + 3] = bounds[4 * k + 3]!;
    colsI[12 * k + 8] = cursor[k]!;
    colsI[12 * k + 9] = jEnd[k]!;
  }
  const ng = nbl.groups;
  for (let i = g.colStart[col]! / M; i < colEnd[col]! / M; i++) {
    const o = 6 * i;
    if (bbI[o]! > bbI[o + 3]!) continue; // all dummies
    const i0 = i * M;
    const iEnd = i0 + M;
    const jmin = Math.floor(i0 / N);
    let nI = M;
    while (atomOf[i0 + nI - 1]! < 0) nI--;
    // j-clusters below jself hold slots of this i-cluster (the self pair).
    const jself = Math.ceil(iEnd / N);
    // The j-clusters with an excluded partner, and the bits of those pairs.
    for (let a = 0; a < nI; a++) {
      const atom = atomOf[i0 + a]!;
      for (let k = exStart[atom]!; k < exStart[atom + 1]!; k++) {
        const slot = slotOf[exList[k]!]!;
        const jc = Math.floor(slot / N);
        if (exclJ[jc] !== i) {
          exclJ[jc] = i;
          exm[2 * jc] = 0;
          exm[2 * jc + 1] = 0;
        }
        const bit = a * N + slot - jc * N;
        if (bit < 32) exm[2 * jc] |= 1 << bit;
        else exm[2 * jc + 1] |= 1 << (bit - 32);
      }
    }
    const rrow = ws.rmask + 8 * nI * N1;
    const bIlx = bbI[o]!, bIly = bbI[o + 1]!, bIlz = bbI[o + 2]!;
    const bIhx = bbI[o + 3]!, bIhy = bbI[o + 4]!, bIhz = bbI[o + 5]!;
    for (let gi = 0; gi < ng; gi++) {
      const s = groupShift[gi]!;
      const shx = shiftVec[3 * s]!, shy = shiftVec[3 * s + 1]!, shz = shiftVec[3 * s + 2]!;
      const ilx = bIlx + shx, ily = bIly + shy, ilz = bIlz + shz;
      const ihx = bIhx + shx, ihy = bIhy + shy, ihz = bIhz + shz;
      // Image of the i box must reach into the unit cell.
      if (ihx < -rlist || ilx >= Lx + rlist || ihy < -rlist || ily >= Ly + rlist || ihz < -rlist || ilz >= Lz + rlist) continue;
      for (let a = 0; a < nI; a++) {
        const pa = 3 * (i0 + a);
        const ax = (ix[3 * a] = xs[pa]! + shx);
        const ay = (ix[3 * a + 1] = xs[pa + 1]! + shy);
        const az = (ix[3 * a + 2] = xs[pa + 2]! + shz);
        const q = 12 * a;
        ixs[q] = ixs[q + 1] = ixs[q + 2] = ixs[q + 3] = ax;
        ixs[q + 4] = ixs[q + 5] = ixs[q + 6] = ixs[q + 7] = ay;
        ixs[q + 8] = ixs[q + 9] = ixs[q + 10] = ixs[q + 11] = az;
      }
      const nSelf = ws.scan(ws.bb, ws.nj, ws.xj, ws.ix, ws.out, ws.full, ws.msk, ws.exclJ, ws.exm, ws.jn, ws.cols,
        groupStart[gi]!, groupStart[gi + 1]!, jmin, jself, i, nI, rrow, full0, full1,
        ilz - rlist, ilx, ily, ilz, ihx, ihy, ihz, rl2, rbb2, Z_WINDOW_MARGIN, ws.xjf, ws.ixs, pre.lo, pre.hi);
      bbChecks += checks[0]!;
      const nf = checks[1]!;
      const nm = checks[2]!;
      if (nf === 0 && nm === 0 && nSelf === 0) continue;
      const entry0 = ncj;
      if (nci4 + 4 > ci.length) ci = grow(ci, 2 * ci.length);
      if (ncj + nf + nm + nSelf > cj.length) {
        cj = grow(cj, 2 * (ncj + nf + nm + nSelf));
        excl = grow(excl, cj.length * maskWords);
      }
      // Masked entries (exclusions, dummies, the self pair) in visiting order: the module's, with
      // the self pairs finished here in their places; then the full ones.
      let q = 0;
      let nx = 0;
      for (let t = 0; t < nSelf; t++) {
        const j = out[3 * t]!;
        const j0s = j * N;
        const exJ = exclJ[j] === i;
        let within = false;
        let m0 = 0;
        let m1 = 0;
        for (let a = 0; a < nI; a++) {
          const pa = i0 + a;
          const atomA = atomOf[pa]!;
          const xa = ix[3 * a]!, ya = ix[3 * a + 1]!, za = ix[3 * a + 2]!;
          for (let b = 0; b < N; b++) {
            const pb = j0s + b;
            const atomB = atomOf[pb]!;
            if (atomB < 0 || pb <= pa) continue;
            if (!within) {
              const dx = xa - xs[3 * pb]!, dy = ya - xs[3 * pb + 1]!, dz = za - xs[3 * pb + 2]!;
              if (dx * dx + dy * dy + dz * dz < rl2) within = true;
            }
            if (exJ && csrHas(exStart, exList, atomA, atomB)) continue;
            const bit = a * N + b;
            if (bit < 32) m0 |= 1 << bit;
            else m1 |= 1 << (bit - 32);
          }
        }
        if (!within) continue;
        if ((m0 | 0) === (full0 | 0) && (m1 | 0) === (full1 | 0)) {
          if (nx === xJ.length) {
            xJ = grow(xJ, 2 * nx);
            xPos = grow(xPos, 2 * nx);
          }
          xJ[nx] = j;
          xPos[nx++] = out[3 * t + 1]!;
          continue;
        }
        for (const qEnd = out[3 * t + 2]!; q < qEnd; q++, ncj++) {
          cj[ncj] = msk[3 * q]!;
          excl[ncj * maskWords] = msk[3 * q + 1]!;
          if (maskWords === 2) excl[ncj * maskWords + 1] = msk[3 * q + 2]!;
        }
        cj[ncj] = j;
        excl[ncj * maskWords] = m0;
        if (maskWords === 2) excl[ncj * maskWords + 1] = m1;
        ncj++;
      }
      for (; q < nm; q++, ncj++) {
        cj[ncj] = msk[3 * q]!;
        excl[ncj * maskWords] = msk[3 * q + 1]!;
        if (maskWords === 2) excl[ncj * maskWords + 1] = msk[3 * q + 2]!;
      }
      const nt = nf + nx;
      if (ncj === entry0 && nt === 0) continue;
      if (nx === 0) {
        cj.set(full.subarray(0, nf), ncj);
      } else {
        // The full entries in visiting order: the module's, with the ones finished here in their places.
        let f = 0;
        let t = ncj;
        for (let x = 0; x < nx; x++) {
          while (f < xPos[x]!) cj[t++] = full[f++]!;
          cj[t++] = xJ[x]!;
        }
        while (f < nf) cj[t++] = full[f++]!;
      }
      fillMasks(excl, maskWords, ncj, ncj + nt, full0, full1);
      ncj += nt;
      ci[nci4] = i;
      ci[nci4 + 1] = s;
      ci[nci4 + 2] = entry0;
      ci[nci4 + 3] = ncj;
      nci4 += 4;
      computedPairs += (ncj - entry0) * MN;
    }
  }
  st.ci = ci;
  st.nci4 = nci4;
  st.cj = cj;
  st.excl = excl;
  st.ncj = ncj;
  st.xJ = xJ;
  st.xPos = xPos;
  st.computedPairs = computedPairs;
  st.bbChecks = bbChecks;
}

/**
 * The (shift, j-column) pairs the atoms of one i-column can reach within rlist, grouped by shift
 * in increasing order, j-columns in increasing index; each with a cursor (in j-cluster units)
 * into its z-sorted column. Cursors only move forward while the column's i atoms or clusters go
 * up in z, so skipping the j-clusters below an i box costs O(1) amortized, not a binary search.
 */
class ColumnNeighbours {
  shift = new Int32Array(27 * 64);
  column = new Int32Array(27 * 64);
  cursor = new Int32Array(27 * 64);
  /** One past the column's last j-cluster. */
  jEnd = new Int32Array(27 * 64);
  /** The column's x and y extent (lo, hi, lo, hi) per entry: no divisions per i-cluster. */
  bounds = new Float64Array(4 * 27 * 64);
  /** Entries by shift: group g holds entries [groupStart[g], groupStart[g + 1]) of shift groupShift[g]. */
  groupStart = new Int32Array(28);
  groupShift = new Int32Array(27);
  groups = 0;

  build(g: ClusterGrid, c: number, shiftVec: Float64Array, box: [number, number, number], rlist: number, N: number): number {
    const cx = Math.floor(c / g.ncy);
    const cy = c % g.ncy;
    // j-clusters below this column's first i-cluster never pair with it (half list: j >= i in
    // j-cluster units): columns that end there, and empty ones, are left out.
    const jFirst = Math.floor(g.colStart[c]! / N);
    let nb = 0;
    this.groups = 0;
    for (let s = 0; s < 27; s++) {
      const nb0 = nb;
      const xlo = cx * g.sx + shiftVec[3 * s]! - rlist, xhi = (cx + 1) * g.sx + shiftVec[3 * s]! + rlist;
      const ylo = cy * g.sy + shiftVec[3 * s + 1]! - rlist, yhi = (cy + 1) * g.sy + shiftVec[3 * s + 1]! + rlist;
      if (xhi < 0 || xlo >= box[0] || yhi < 0 || ylo >= box[1]) continue;
      const jx0 = Math.max(0, Math.floor(xlo / g.sx)), jx1 = Math.min(g.ncx - 1, Math.floor(xhi / g.sx));
      const jy0 = Math.max(0, Math.floor(ylo / g.sy)), jy1 = Math.min(g.ncy - 1, Math.floor(yhi / g.sy));
      for (let jx = jx0; jx <= jx1; jx++) {
        for (let jy = jy0; jy <= jy1; jy++) {
          if (nb === this.shift.length) {
            this.shift = grow(this.shift, 2 * nb);
            this.column = grow(this.column, 2 * nb);
            this.cursor = grow(this.cursor, 2 * nb);
            this.jEnd = grow(this.jEnd, 2 * nb);
            const b = new Float64Array(8 * nb);
            b.set(this.bounds);
            this.bounds = b;
          }
          const jc = jx * g.ncy + jy;
          const jEnd = g.colEnd[jc]! / N;
          if (jEnd <= jFirst || g.colEnd[jc] === g.colStart[jc]) continue;
          this.shift[nb] = s;
          this.jEnd[nb] = jEnd;
          this.column[nb] = jc;
          this.cursor[nb] = g.colStart[jc]! / N;
          this.bounds[4 * nb] = jx * g.sx;
          this.bounds[4 * nb + 1] = (jx + 1) * g.sx;
          this.bounds[4 * nb + 2] = jy * g.sy;
          this.bounds[4 * nb + 3] = (jy + 1) * g.sy;
          nb++;
        }
      }
      if (nb > nb0) {
        this.groupShift[this.groups] = s;
        this.groupStart[this.groups++] = nb0;
        this.groupStart[this.groups] = nb;
      }
    }
    return nb;
  }
}

/** Squared gap between the intervals [lo, hi] and [a, b] along one axis (0 when they overlap). */
function gap2(lo: number, hi: number, a: number, b: number): number {
  const g = lo > b ? lo - b : a > hi ? a - hi : 0;
  return g * g;
}

/** CSRs of the exclusion arrays seen so far: the topology stays the same over a run's searches. */
const csrCache = new WeakMap<MdSystem['exclusions'], { n: number; csr: { start: Int32Array; list: Int32Array } }>();

/** Exclusions as a CSR by atom, partners sorted (built once per exclusions array and atom count). */
function exclusionCsr(sys: MdSystem): { start: Int32Array; list: Int32Array } {
  const n = sys.q.length;
  const hit = csrCache.get(sys.exclusions);
  if (hit && hit.n === n) return hit.csr;
  // In shared memory where there is any: searches on worker threads read it there, uncopied.
  const start = fresh(Int32Array, n + 1, true);
  for (let a = 0; a < n; a++) start[a + 1] = start[a]! + (sys.exclusions[a]?.length ?? 0);
  const list = fresh(Int32Array, start[n]!, true);
  for (let a = 0; a < n; a++) if (sys.exclusions[a]?.length) list.set(Int32Array.from(sys.exclusions[a]!).sort(), start[a]!);
  const csr = { start, list };
  csrCache.set(sys.exclusions, { n, csr });
  return csr;
}

/** Whether atom b is among atom a's exclusions. */
function csrHas(start: Int32Array, list: Int32Array, a: number, b: number): boolean {
  for (let k = start[a]!; k < start[a + 1]!; k++) if (list[k] === b) return true;
  return false;
}

/**
 * The 1x1 case of the grid search: a plain atom-pair (Verlet) list, each pair within rlist once,
 * grouped by i atom and shift. Same entries and order as the general search with rBB = 0, without
 * the bounding-box bookkeeping that clusters of one atom do not need.
 */
function atomPairList(sys: MdSystem, L: ClusterLayoutWithGrid, rlist: number, shiftVec: Float64Array): PairList {
  const g = L.grid;
  const xs = L.x;
  const n = L.nPadded;
  const [Lx, Ly, Lz] = sys.box;
  const rl2 = rlist * rlist;
  const { start: exStart, list: exList } = exclusionCsr(sys);
  let ci = new Int32Array(4 * Math.max(16, 2 * n));
  let nci4 = 0;
  let cj = new Int32Array(Math.max(64, 48 * n));
  let excl = new Uint32Array(cj.length);
  let ncj = 0;
  let tmpJ = new Int32Array(1024);
  let tmpM = new Uint8Array(1024);
  let bbChecks = 0;
  const nbl = new ColumnNeighbours();
  for (let m = 0; m < g.columns.length; m++) {
    const c = g.columns[m]!;
    const i0 = g.colStart[c]!;
    const i1 = g.colEnd[c]!;
    if (i0 === i1) continue;
    const nb = nbl.build(g, c, shiftVec, sys.box, rlist, 1);
    const { shift: nbShift, column: nbC, cursor, bounds } = nbl;
    for (let i = i0; i < i1; i++) {
      const atomA = L.atomOf[i]!;
      const hasEx = exStart[atomA + 1]! > exStart[atomA]!;
      let k = 0;
      while (k < nb) {
        const s = nbShift[k]!;
        let kEnd = k;
        while (kEnd < nb && nbShift[kEnd] === s) kEnd++;
        const ix = xs[3 * i]! + shiftVec[3 * s]!;
        const iy = xs[3 * i + 1]! + shiftVec[3 * s + 1]!;
        const iz = xs[3 * i + 2]! + shiftVec[3 * s + 2]!;
        if (ix < -rlist || ix >= Lx + rlist || iy < -rlist || iy >= Ly + rlist || iz < -rlist || iz >= Lz + rlist) {
          k = kEnd;
          continue;
        }
        const zlo = iz - rlist;
        let nt = 0;
        for (; k < kEnd; k++) {
          const jc = nbC[k]!;
          if (gap2(bounds[4 * k]!, bounds[4 * k + 1]!, ix, ix) + gap2(bounds[4 * k + 2]!, bounds[4 * k + 3]!, iy, iy) >= rl2) continue;
          const j1 = g.colEnd[jc]!;
          let j = cursor[k]!;
          while (j < j1 && xs[3 * j + 2]! < zlo) j++;
          cursor[k] = j;
          if (j <= i) j = i + 1;
          for (; j < j1; j++) {
            const dz = iz - xs[3 * j + 2]!;
            if (dz < -rlist) break;
            bbChecks++;
            const dx = ix - xs[3 * j]!;
            const dy = iy - xs[3 * j + 1]!;
            if (dx * dx + dy * dy + dz * dz >= rl2) continue;
            if (nt === tmpJ.length) {
              tmpJ = grow(tmpJ, 2 * nt);
              tmpM = grow(tmpM, 2 * nt);
            }
            const msk = hasEx && csrHas(exStart, exList, atomA, L.atomOf[j]!) ? 0 : 1;
            tmpJ[nt] = j;
            tmpM[nt] = msk;
            nt++;
          }
        }
        if (nt === 0) continue;
        if (nci4 + 4 > ci.length) ci = grow(ci, 2 * ci.length);
        if (ncj + nt > cj.length) {
          cj = grow(cj, 2 * (ncj + nt));
          excl = grow(excl, cj.length);
        }
        ci[nci4] = i;
        ci[nci4 + 1] = s;
        ci[nci4 + 2] = ncj;
        ci[nci4 + 3] = ncj + nt;
        nci4 += 4;
        // Excluded pairs (mask 0) first, as in the general search.
        for (let pass = 0; pass <= 1; pass++) {
          for (let t = 0; t < nt; t++) {
            if (tmpM[t] !== pass) continue;
            cj[ncj] = tmpJ[t]!;
            excl[ncj] = pass;
            ncj++;
          }
        }
      }
    }
  }
  return {
    M: 1,
    N: 1,
    maskWords: 1,
    ci: ci.slice(0, nci4),
    cj: cj.slice(0, ncj),
    excl: excl.slice(0, ncj),
    shiftVec,
    rlist,
    stats: { clusterPairs: ncj, computedPairs: ncj, bbChecks },
  };
}

function grow<T extends Int32Array | Uint32Array | Uint8Array>(a: T, len: number): T {
  const b = new (a.constructor as new (n: number) => T)(len);
  b.set(a);
  return b;
}

/** Masks of entries [from, to) set to the full mask (full0, and full1 where a mask takes two words). */
function fillMasks(excl: Uint32Array, maskWords: number, from: number, to: number, full0: number, full1: number): void {
  if (maskWords === 2) {
    for (let t = from; t < to; t++) {
      excl[2 * t] = full0;
      excl[2 * t + 1] = full1;
    }
  } else {
    excl.fill(full0, from, to);
  }
}
