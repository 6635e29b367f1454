// The layout the CPU pme-mesh kernels read (runtime/pme/mesh.ts has the whole picture): per atom
// its grid cell and the fraction within it per dimension (in f64 from the positions), an atom
// order (tile by tile of t^3 cells for a variant's tile axis t > 0), and the grid padded by the
// order (padded point c + a, a = 0..p-1, for an atom in cell c), folded onto the periodic grid
// after the spread and unfolded from the potential mesh before the gather. Also the interface of
// a prepared variant (PreparedMesh) that every target's runner (targets.ts) returns.
import { keyTarget } from '../keys.ts';
import { variantParams } from '../variants.ts';
import { PmeInputError } from './reference.ts';
import { fftAlloc, type Real, type RealFft3dOptions } from './fft.ts';

/** Box edges (nm) of a rectangular box. */
export type Box3 = readonly [number, number, number];

/** What a pme-mesh key fixes: its target, order, precision and tile. */
export interface MeshShape {
  target: string;
  order: number;
  precision: 'f64' | 'f32';
  tile: number;
}

/** The key's shape, or a PmeInputError when the key is not a pme-mesh variant. */
export async function meshShape(key: string): Promise<MeshShape> {
  const p = await variantParams(key);
  if (!key.startsWith('pme-mesh.')) throw new PmeInputError(`${key} is not a pme-mesh variant`);
  return { target: keyTarget(key), order: Number(p.order), precision: p.precision as 'f64' | 'f32', tile: Number(p.tile ?? 0) };
}

/** Padded grid dimensions of the CPU kernels: n + p - 1 along x and y, n + 4 ceil(p/4) along z (the wasm z run reads ceil(p/2) f64x2 pairs or ceil(p/4) f32x4 fours). */
export function paddedDims(grid: readonly [number, number, number], order: number): [number, number, number] {
  return [grid[0] + order - 1, grid[1] + order - 1, grid[2] + 4 * Math.ceil(order / 4)];
}

/** The cell floor(u) and fraction u - floor(u) of every atom and dimension, u = n x / L wrapped into [0, n). */
export function cellsAndFractions(x: Float64Array, box: Box3, grid: readonly [number, number, number], cell: Int32Array, frac: Float64Array | Float32Array): void {
  const n = cell.length / 3;
  // per dimension written out (no tuple reads in the loop): this runs every MD step
  const [nx, ny, nz] = grid;
  const [lx, ly, lz] = box;
  for (let i = 0, k = 0; i < n; i++, k += 3) {
    let s = x[k]! / lx;
    s -= Math.floor(s);
    let u = s * nx;
    let c = Math.floor(u);
    frac[k] = u - c;
    cell[k] = c >= nx ? c - nx : c; // s just below 1 rounding up
    s = x[k + 1]! / ly;
    s -= Math.floor(s);
    u = s * ny;
    c = Math.floor(u);
    frac[k + 1] = u - c;
    cell[k + 1] = c >= ny ? c - ny : c;
    s = x[k + 2]! / lz;
    s -= Math.floor(s);
    u = s * nz;
    c = Math.floor(u);
    frac[k + 2] = u - c;
    cell[k + 2] = c >= nz ? c - nz : c;
  }
}

/** The atoms tile by tile of t^3 cells (a counting sort on the tile index), into `order`. */
export function tileOrder(cell: Int32Array, grid: readonly [number, number, number], t: number, order: Int32Array): void {
  const n = cell.length / 3;
  const tx = Math.ceil(grid[0] / t), ty = Math.ceil(grid[1] / t), tz = Math.ceil(grid[2] / t);
  const count = new Int32Array(tx * ty * tz + 1);
  const tileOf = (i: number): number => (Math.floor(cell[3 * i]! / t) * ty + Math.floor(cell[3 * i + 1]! / t)) * tz + Math.floor(cell[3 * i + 2]! / t);
  for (let i = 0; i < n; i++) count[tileOf(i) + 1]++;
  for (let k = 1; k < count.length; k++) count[k] += count[k - 1]!;
  for (let i = 0; i < n; i++) order[count[tileOf(i)]++] = i;
}

/** Adds the padded grid onto the periodic grid (overwritten): real point (pi - (p-1)) mod n gets padded point pi. */
export function fold(padded: Float64Array | Float32Array, grid: readonly [number, number, number], order: number, out: Float64Array | Float32Array): void {
  const [nx, ny, nz] = grid;
  const [px, py, pz] = paddedDims(grid, order);
  const mx = wrapTable(px, nx, order), my = wrapTable(py, ny, order), mz = wrapTable(pz, nz, order);
  const p1 = order - 1;
  // z runs: padded c in [p1, p1 + nz) is real c - p1 (no table); the rest wrap through mz
  out.fill(0);
  for (let a = 0; a < px; a++) {
    for (let b = 0; b < py; b++) {
      const src = (a * py + b) * pz;
      const dst = (mx[a]! * ny + my[b]!) * nz;
      const s0 = src + p1;
      for (let c = 0; c < nz; c++) out[dst + c] += padded[s0 + c]!;
      for (let c = 0; c < p1; c++) out[dst + mz[c]!] += padded[src + c]!;
      for (let c = p1 + nz; c < pz; c++) out[dst + mz[c]!] += padded[src + c]!;
    }
  }
}

/** Copies the periodic grid onto the padded one (the inverse layout of fold). */
export function unfold(grid3: Float64Array | Float32Array, grid: readonly [number, number, number], order: number, padded: Float64Array | Float32Array): void {
  const [nx, ny, nz] = grid;
  const [px, py, pz] = paddedDims(grid, order);
  const mx = wrapTable(px, nx, order), my = wrapTable(py, ny, order), mz = wrapTable(pz, nz, order);
  const p1 = order - 1;
  for (let a = 0; a < px; a++) {
    for (let b = 0; b < py; b++) {
      const dst = (a * py + b) * pz;
      const src = (mx[a]! * ny + my[b]!) * nz;
      padded.set(grid3.subarray(src, src + nz), dst + p1);
      for (let c = 0; c < p1; c++) padded[dst + c] = grid3[src + mz[c]!]!;
      for (let c = p1 + nz; c < pz; c++) padded[dst + c] = grid3[src + mz[c]!]!;
    }
  }
}

const wrapTable = (len: number, n: number, order: number): Int32Array => Int32Array.from({ length: len }, (_, i) => (((i - (order - 1)) % n) + n) % n);

/** A pme-mesh variant prepared for one box, grid and atom count: spread and gather (sync on the CPU targets, a Promise on WGSL). */
export interface PreparedMesh {
  /** Spreads charges q at x (3N, nm) onto `out`, the periodic grid [nx][ny][nz] (overwritten; f64, or f32 where the variant's fft.alloc gives f32). */
  spread(x: Float64Array, q: Float64Array, out: Float64Array | Float32Array): void | Promise<void>;
  /** Adds the forces of the atoms of the last spread, gathered from the potential mesh phi ([nx][ny][nz], f64), to f (3N). */
  gather(phi: Float64Array | Float32Array, f: Float64Array): void | Promise<void>;
  /** Frees what prepare took. */
  dispose(): void;
  /** The FFT this variant brings (a wasm variant's SIMD passes on its memory), for the solve between spread and gather; absent: TypeScript. */
  fft?: RealFft3dOptions;
  /** Where it runs (e.g. `WebAssembly SIMD (this process, one thread)`). */
  device: string;
  /** The grid's precision. */
  precision: 'f64' | 'f32';
}

/** A periodic grid [nx][ny][nz] where a prepared variant's solve reads it: in its FFT's memory (a wasm variant's module, in its precision), else a new f64 array. */
export function periodicGrid(prep: PreparedMesh, grid: readonly [number, number, number]): Real {
  return fftAlloc(prep.fft)(grid[0] * grid[1] * grid[2]);
}
