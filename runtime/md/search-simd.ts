// The MD pair search's inner scan in WebAssembly SIMD (issue 16): the module
// generator/md-search-wat.ts builds (per i-cluster image and shift: the neighbour columns' gaps,
// cursors and z windows, box tests two j boxes per f64x2, the atom-pair prune two j atoms per
// f64x2, the masks of disjoint pairs; the same arithmetic as runtime/md/clusters.ts searchColumn,
// so the same list; clusters.ts searchColumnSimd drives it),
// compiled once per thread from the committed bytes (runtime/md/search-simd-bytes.ts). One
// instance per thread holds the search's j boxes and j atoms for the whole search; where
// WebAssembly SIMD is missing (or the shape has no scan), the search stays in TypeScript.
import { EmbeddedWasm } from './embedded-wasm.ts';
import { SEARCH_SIMD_WASM } from './search-simd-bytes.ts';

type ScanExport = (
  bb: number, nj: number, xj: number, ix: number, out: number, full: number, msk: number, exclJ: number, exm: number, jn: number,
  cols: number, k0: number, k1: number, jmin: number, jself: number, ci: number, nI: number, rrow: number, full0: number, full1: number,
  zlo: number, ilx: number, ily: number, ilz: number, ihx: number, ihy: number, ihz: number,
  rl2: number, rbb2: number, margin: number, xjf: number, ixs: number, lo: number, hi: number,
) => number;

/** A thread's module memory laid out for one search. */
export interface SearchWorkspace {
  scan: ScanExport;
  nj: number;
  /** Byte offsets of the module's arrays. */
  bb: number;
  xj: number;
  ix: number;
  /** The j atoms rounded to f32 (N x, N y, N z per cluster) and the i atoms as f32 splats (x4, y4, z4 per atom): the pre-test's. */
  xjf: number;
  ixs: number;
  out: number;
  full: number;
  msk: number;
  exclJ: number;
  exm: number;
  jn: number;
  cols: number;
  /** Byte offset of the real-pair masks of i-clusters with nI real atoms: rmask + 8 (N + 1) nI. */
  rmask: number;
  /** The box tests, full entries and masked entries of the last call (i32 at bytes 0, 4, 8). */
  checks: Int32Array;
  /** Views on ix (3 M f64), out (self pairs: j, full and masked entries before it), full (j), msk (j, mask words). */
  ixView: Float64Array;
  /** ixs: 12 f32 per i atom. */
  ixsView: Float32Array;
  outView: Int32Array;
  fullView: Int32Array;
  mskView: Int32Array;
  /** Per j-cluster: the i-cluster that has an excluded partner there, and those pairs' mask bits (two words). */
  exclJView: Int32Array;
  exmView: Int32Array;
  /** The grid columns of one i-column's neighbours, 6 f64 per column: x lo, x hi, y lo, y hi, then cursor and end as i32. */
  colsF: Float64Array;
  colsI: Int32Array;
}

const embedded = new EmbeddedWasm(SEARCH_SIMD_WASM);
let inst: { mem: WebAssembly.Memory; exports: WebAssembly.Exports } | undefined;

/** The compiled module, or null where this engine has no WebAssembly SIMD (or it is switched off). */
const simdModule = (): WebAssembly.Module | null => embedded.module();

/** Search with the module (default) or in TypeScript only (for comparisons and tests). */
export function setSearchSimd(on: boolean): void {
  embedded.enabled = on;
}

const MAX_M = 16;

/**
 * This thread's workspace for a search with j-clusters of N atoms (N 2, 4 or 8; M at most 16),
 * filled with the j boxes (bbJ: lo x, y, z, hi x, y, z per cluster) and the padded positions;
 * exclJ set to -1. Null when the module is not available or the shape has no scan.
 */
export function searchWorkspace(M: number, N: number, columns: number, bbJ: Float64Array, x: Float64Array, atomOf: Int32Array): SearchWorkspace | null {
  if (M > MAX_M || (N !== 2 && N !== 4 && N !== 8)) return null;
  const mod = simdModule();
  if (!mod) return null;
  const nj = bbJ.length / 6;
  const ixs = 512;
  const bb = ixs + 48 * MAX_M;
  const xj = bb + 48 * (nj + 2);
  const xjf = xj + 24 * N * nj;
  const exclJ = xjf + 12 * N * nj;
  const out = exclJ + 4 * (nj + 2);
  const full = out + 12 * (nj + 2);
  const msk = full + 4 * (nj + 2);
  const exm = msk + 12 * (nj + 2);
  const rmask = exm + 8 * (nj + 2);
  const jn = rmask + 8 * (MAX_M + 1) * (N + 1);
  // At most every column under each of the 27 shifts.
  const cols = 16 * Math.ceil((jn + nj + 16) / 16);
  const bytes = cols + 48 * 27 * Math.max(1, columns);
  try {
    if (!inst) {
      const mem = new WebAssembly.Memory({ initial: Math.max(1, Math.ceil(bytes / 65536)) });
      inst = { mem, exports: new WebAssembly.Instance(mod, { env: { memory: mem } }).exports };
    } else if (inst.mem.buffer.byteLength < bytes) {
      inst.mem.grow(Math.ceil((bytes - inst.mem.buffer.byteLength) / 65536));
    }
  } catch {
    return null;
  }
  const buf = inst.mem.buffer;
  const f = new Float64Array(buf);
  const s = nj + 2;
  for (let d = 0; d < 6; d++) {
    const o = bb / 8 + d * s;
    for (let j = 0; j < nj; j++) f[o + j] = bbJ[6 * j + d]!;
    f[o + nj] = 0;
    f[o + nj + 1] = 0;
  }
  const N3 = 3 * N;
  const f32 = new Float32Array(buf);
  for (let j = 0; j < nj; j++) {
    const o = xj / 8 + N3 * j;
    const o32 = xjf / 4 + N3 * j;
    for (let b = 0; b < N; b++) {
      const p = 3 * (j * N + b);
      f[o + b] = f32[o32 + b] = x[p]!;
      f[o + N + b] = f32[o32 + N + b] = x[p + 1]!;
      f[o + 2 * N + b] = f32[o32 + 2 * N + b] = x[p + 2]!;
    }
  }
  // Real atoms per j-cluster (dummies trail), and the masks of the pairs of nI and nJ real atoms.
  const real = new Uint8Array(buf, jn, nj);
  for (let j = 0; j < nj; j++) {
    let nJ = N;
    while (nJ > 0 && atomOf[j * N + nJ - 1]! < 0) nJ--;
    real[j] = nJ;
  }
  new Int32Array(buf, rmask, 2 * (M + 1) * (N + 1)).set(realMasks(M, N));
  const exclJView = new Int32Array(buf, exclJ, nj);
  exclJView.fill(-1);
  return {
    scan: inst.exports[`groupN${N}`] as ScanExport,
    nj, bb, xj, ix: 64, xjf, ixs, out, full, msk, exclJ, exm, jn, cols, rmask,
    checks: new Int32Array(buf, 0, 3),
    ixView: new Float64Array(buf, 64, 3 * MAX_M),
    ixsView: new Float32Array(buf, ixs, 12 * MAX_M),
    outView: new Int32Array(buf, out, 3 * (nj + 2)),
    fullView: new Int32Array(buf, full, nj + 2),
    mskView: new Int32Array(buf, msk, 3 * (nj + 2)),
    exclJView,
    exmView: new Int32Array(buf, exm, 2 * (nj + 2)),
    colsF: new Float64Array(buf, cols, 6 * 27 * Math.max(1, columns)),
    colsI: new Int32Array(buf, cols, 12 * 27 * Math.max(1, columns)),
  };
}

/**
 * The f32 pre-test's bounds on d^2 (scan's lo and hi): below lo a pair is within rlist^2 = rl2 for
 * certain, at or above hi it is not, when every coordinate (i atoms with their shift, j atoms) is at
 * most `reach` in magnitude. Rounding a coordinate to f32 moves it by at most u reach (u = 2^-24),
 * a difference by 2 u reach + u |dx|, and d^2 by at most 2 sqrt(3) |d| (2 u reach) + 4 u d^2 near
 * |d| = rlist; the bounds leave four times that. A coordinate beyond reach (the dummies, far
 * away) only moves its d^2 further above hi.
 */
export function prefilterBounds(rl2: number, reach: number): { lo: number; hi: number } {
  const u = 2 ** -24;
  const r = Math.sqrt(rl2);
  const slack = 4 * (2 * Math.sqrt(3) * (r + 1) * 2 * u * reach + 4 * u * rl2);
  return { lo: Math.fround(rl2 - 2 * slack), hi: Math.fround(rl2 + 2 * slack) };
}

/**
 * Interaction masks (2 words) of an M x N cluster pair whose i-cluster has nI real atoms and whose
 * j-cluster has nJ (dummies trail): entry 2 (nI (N + 1) + nJ) + w, bit a N + b set for a < nI, b < nJ.
 */
export function realMasks(M: number, N: number): Int32Array {
  const t = new Int32Array(2 * (M + 1) * (N + 1));
  for (let nI = 0; nI <= M; nI++) {
    for (let nJ = 0; nJ <= N; nJ++) {
      let w0 = 0;
      let w1 = 0;
      for (let a = 0; a < nI; a++) {
        for (let b = 0; b < nJ; b++) {
          const bit = a * N + b;
          if (bit < 32) w0 |= 1 << bit;
          else w1 |= 1 << (bit - 32);
        }
      }
      t[2 * (nI * (N + 1) + nJ)] = w0;
      t[2 * (nI * (N + 1) + nJ) + 1] = w1;
    }
  }
  return t;
}
