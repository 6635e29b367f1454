// The PME mesh as the MD engine runs it: the generated pme-mesh spread and gather kernels of one
// variant (runtime/pme/targets.ts runs them per target) around the f64 solve (FFT and influence
// function, reference.ts PmeSolver). createPmeMesh picks, verifies once and prepares a variant;
// compute() is then one spread, one solve and one gather per call.
//
// The CPU kernels (TypeScript, WebAssembly) read a layout made here: per atom its grid cell and
// the fraction within it per dimension (in f64 from the positions), the charges, and an atom
// order (tile by tile of t^3 cells when the variant's tile axis is t > 0); they spread onto a
// grid padded by the order (padded point c + a, a = 0..p-1, for an atom in cell c: no periodic
// wrap inside the kernels), which fold() adds onto the periodic grid; gather reads phi unfolded
// onto the same padded grid.
import { keyTarget } from '../keys.ts';
import { variantParams } from '../variants.ts';
import { PmeInputError, PmeSolver, checkPmeArrays, checkPmeParams, type PmeParams, type PmeResult } from './reference.ts';

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

/** Padded grid dimensions of the CPU kernels: n + p - 1 along x and y, n + p along z (the wasm z run reads ceil(p/2) pairs). */
export function paddedDims(grid: readonly [number, number, number], order: number): [number, number, number] {
  return [grid[0] + order - 1, grid[1] + order - 1, grid[2] + order];
}

/** The cell floor(u) and fraction u - floor(u) of every atom and dimension, u = n x / L wrapped into [0, n). */
export function cellsAndFractions(x: Float64Array, box: Box3, grid: readonly [number, number, number], cell: Int32Array, frac: Float64Array | Float32Array): void {
  const n = cell.length / 3;
  for (let i = 0; i < n; i++) {
    for (let d = 0; d < 3; d++) {
      const nd = grid[d]!;
      let s = x[3 * i + d]! / box[d]!;
      s -= Math.floor(s);
      const u = s * nd;
      let c = Math.floor(u);
      if (c >= nd) c -= nd; // s just below 1 rounding up
      cell[3 * i + d] = c;
      frac[3 * i + d] = u - Math.floor(u);
    }
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
export function fold(padded: Float64Array | Float32Array, grid: readonly [number, number, number], order: number, out: Float64Array): void {
  const [nx, ny, nz] = grid;
  const [px, py, pz] = paddedDims(grid, order);
  const mx = wrapTable(px, nx, order), my = wrapTable(py, ny, order), mz = wrapTable(pz, nz, order);
  out.fill(0);
  for (let a = 0; a < px; a++) {
    for (let b = 0; b < py; b++) {
      const src = (a * py + b) * pz;
      const dst = (mx[a]! * ny + my[b]!) * nz;
      for (let c = 0; c < pz; c++) out[dst + mz[c]!] += padded[src + c]!;
    }
  }
}

/** Copies the periodic grid onto the padded one (the inverse layout of fold). */
export function unfold(grid3: Float64Array, grid: readonly [number, number, number], order: number, padded: Float64Array | Float32Array): void {
  const [nx, ny, nz] = grid;
  const [px, py, pz] = paddedDims(grid, order);
  const mx = wrapTable(px, nx, order), my = wrapTable(py, ny, order), mz = wrapTable(pz, nz, order);
  for (let a = 0; a < px; a++) {
    for (let b = 0; b < py; b++) {
      const dst = (a * py + b) * pz;
      const src = (mx[a]! * ny + my[b]!) * nz;
      for (let c = 0; c < pz; c++) padded[dst + c] = grid3[src + mz[c]!]!;
    }
  }
}

const wrapTable = (len: number, n: number, order: number): Int32Array => Int32Array.from({ length: len }, (_, i) => (((i - (order - 1)) % n) + n) % n);

/** A pme-mesh variant prepared for one box, grid and atom count: spread and gather (sync on the CPU targets, a Promise on WGSL). */
export interface PreparedMesh {
  /** Spreads charges q at x (3N, nm) onto `out`, the periodic grid [nx][ny][nz] (overwritten, f64). */
  spread(x: Float64Array, q: Float64Array, out: Float64Array): void | Promise<void>;
  /** Adds the forces of the atoms of the last spread, gathered from the potential mesh phi ([nx][ny][nz], f64), to f (3N). */
  gather(phi: Float64Array, f: Float64Array): void | Promise<void>;
  /** Frees what prepare took. */
  dispose(): void;
  /** Where it runs (e.g. `WebAssembly SIMD (this process, one thread)`). */
  device: string;
  /** The grid's precision. */
  precision: 'f64' | 'f32';
}

/** Options of createPmeMesh. */
export interface PmeMeshOptions {
  /** A pme-mesh variant key (default: defaultPmeMeshKey(order), the fastest CPU target here). */
  variant?: string;
  /** Skip the one-time check against the f64 reference (default false: checked once per key and order). */
  unverified?: boolean;
}

/** The mesh of one run: compute() is the reciprocal part with the chosen variant. */
export interface PmeMesh {
  /** The variant run. */
  readonly key: string;
  /** What it runs on, for reports. */
  readonly device: string;
  /** Milliseconds in spread, solve (FFT and influence function) and gather, and the calls. */
  readonly timers: { spread: number; solve: number; gather: number; calls: number };
  /**
   * The reciprocal energy and virial of charges q at x (3N, nm, any periodic image); adds the
   * forces to f when given. Synchronous on the CPU targets (ts, wasm); a WGSL variant needs computeAsync.
   */
  compute(x: Float64Array, q: Float64Array, f?: Float64Array): PmeResult;
  /** compute() for any target. */
  computeAsync(x: Float64Array, q: Float64Array, f?: Float64Array): Promise<PmeResult>;
  /** Frees the variant's buffers. */
  dispose(): void;
}

/**
 * The PME mesh of a run with the generated pme-mesh kernels: box (nm), params (beta, grid,
 * order 4..6 for the kernels, epsfac), n atoms. The variant is opts.variant or the default for
 * the order (the fastest CPU target available here, runtime/pme/defaults.ts); it is checked
 * once against the f64 reference (runtime/pme/gate.ts) before it is used.
 *
 * ```ts
 * const mesh = await createPmeMesh(box, { beta, grid, order: 4, epsfac }, n);
 * const { energy, virial } = mesh.compute(x, q, f); // adds the forces to f
 * ```
 */
export async function createPmeMesh(box: Box3, params: PmeParams, n: number, opts: PmeMeshOptions = {}): Promise<PmeMesh> {
  checkPmeParams(params, 'createPmeMesh');
  const { defaultPmeMeshKey } = await import('./defaults.ts');
  const key = opts.variant ?? (await defaultPmeMeshKey(params.order));
  const shape = await meshShape(key);
  if (shape.order !== params.order) throw new PmeInputError(`createPmeMesh: variant ${key} has order ${shape.order}, the mesh order ${params.order} (allowed: a pme-mesh variant of order ${params.order})`);
  if (!opts.unverified) {
    const { verifyPmeKey } = await import('./gate.ts');
    const v = await verifyPmeKey(key);
    if (!v.ok) throw new Error(`pme-mesh variant ${key} does not match the f64 reference: ${v.detail}`);
  }
  const { PME_TARGETS } = await import('./targets.ts');
  const prep = await PME_TARGETS.get(shape.target, 'the PME mesh').prepare(key, box, params.grid, n);
  const solver = new PmeSolver(box, params);
  const grid = new Float64Array(params.grid[0] * params.grid[1] * params.grid[2]);
  const timers = { spread: 0, solve: 0, gather: 0, calls: 0 };
  const sync = shape.target !== 'wgsl';
  const after = <T>(v: void | Promise<void>, then: () => T): T | Promise<T> => (v instanceof Promise ? v.then(then) : then());
  const run = (x: Float64Array, q: Float64Array, f?: Float64Array): PmeResult | Promise<PmeResult> => {
    checkPmeArrays(x, q, f, 'PmeMesh.compute');
    if (q.length !== n) throw new PmeInputError(`PmeMesh.compute: ${q.length} charges for a mesh made for ${n} atoms`);
    const t0 = performance.now();
    return after(prep.spread(x, q, grid), () => {
      const t1 = performance.now();
      const r = solver.solve(grid);
      const t2 = performance.now();
      timers.spread += t1 - t0;
      timers.solve += t2 - t1;
      timers.calls++;
      if (!f) return r;
      return after(prep.gather(grid, f), () => {
        timers.gather += performance.now() - t2;
        return r;
      }) as PmeResult;
    }) as PmeResult | Promise<PmeResult>;
  };
  return {
    key,
    device: prep.device,
    timers,
    compute(x, q, f) {
      if (!sync) throw new PmeInputError(`PmeMesh.compute: variant ${key} runs on WGSL (asynchronous); use computeAsync, or a ts or wasm variant`);
      return run(x, q, f) as PmeResult;
    },
    computeAsync: async (x, q, f) => run(x, q, f),
    dispose: () => prep.dispose(),
  };
}
