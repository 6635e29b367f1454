// Running bigdft-conv TypeScript variants on 3-D grids (periodic or free), whatever their
// algorithm (REFERENCES.md section 2). The array is x[(i3*n2 + i2)*n1 + i1].
//   separable-t: three transposing 1-D passes (Eq. 3): the array is read as n2*n3 lines of n1
//     points; each pass writes its result transposed, so after three passes the layout is the
//     natural one again. For the kinetic filter each pass also carries the transposed input and
//     a running sum, giving sum_d scale_d * D2_d x.
//   separable: three 1-D passes along the axes in place of the layout (strided lines).
//   direct: one call for the whole 3-D triple sum.
// WebAssembly variants (transposing passes in linear memory, runtime/bigdft/wasm.ts) run behind
// prepare3d and prepareParallel3d like the TypeScript ones: these are the CPU runners of the
// table of targets (runtime/bigdft/targets.ts); WGSL and gpu.js variants have their own
// (runtime/bigdft/wgsl.ts, gpujs.ts). apply3d (runtime/bigdft/apply.ts) runs any of them.
import { variantParams } from '../variants.ts';
import { backend } from '../backends/registry.ts';
import { filter, type FilterName } from './filters.ts';
import type { Boundary, Dims } from './reference.ts';
import { Pool, sharedArray, splitRange, toShared } from '../parallel/pool.ts';
import type { ConvSPassArgs, ConvTPassArgs } from '../parallel/tasks.ts';
import { ConvInputError, checkDims, kineticScale, type Apply3dOptions, type ConvTsModule } from './conv.ts';

type Real = Float32Array | Float64Array;

/** A variant bound to one grid, with its buffers allocated once (for benchmarks). */
export interface Prepared3d {
  /** The variant key. */
  key: string;
  /** The filter it applies. */
  filter: FilterName;
  /** periodic, or free (zero outside the grid). */
  boundary: Boundary;
  /** direct (the triple sum), separable (strided passes in place) or separable-t (transposing passes). */
  algorithm: ConvTsModule['algorithm'];
  /** The variant's precision; run takes and returns arrays of it. */
  precision: 'f32' | 'f64';
  /** The grid [n1, n2, n3], i1 fastest. */
  dims: Dims;
  /** Runs the convolution on `x` (already of the variant's precision); returns an internal buffer. */
  run(x: Real): Real;
}

/** Check a TypeScript variant's key against the grid and load it. */
async function loadChecked(key: string, dims: Dims): Promise<{ name: FilterName; boundary: Boundary; mod: ConvTsModule; precision: 'f32' | 'f64' }> {
  const p = await variantParams(key);
  if (!String(key).startsWith('bigdft-conv.')) throw new ConvInputError(`${key} is not a bigdft-conv variant`);
  if (p.target !== 'ts') throw new ConvInputError(`${key} is a ${String(p.target)} variant: use prepareWgsl3d (runtime/bigdft/wgsl.ts) or apply3d`);
  const name = String(p.filter) as FilterName;
  const boundary = (p.boundary === 'free' ? 'free' : 'periodic') as Boundary;
  const f = filter(name);
  checkDims(dims, f.taps, name, boundary);
  const mod = (await backend('ts').load(key)) as ConvTsModule;
  const precision = p.precision === 'f32' ? 'f32' : 'f64';
  return { name, boundary, mod, precision };
}

/**
 * A WebAssembly variant bound to the grid (runtime/bigdft/wasm.ts), after the checks TypeScript
 * variants get; undefined for any other target. With a pool its passes are split over the workers.
 */
async function prepareWasmChecked(key: string, dims: Dims, o: Apply3dOptions, pool?: Pool) {
  const p = await variantParams(key);
  if (p.target !== 'wasm') return undefined;
  if (!String(key).startsWith('bigdft-conv.')) throw new ConvInputError(`${key} is not a bigdft-conv variant`);
  const name = String(p.filter) as FilterName;
  checkDims(dims, filter(name).taps, name, p.boundary === 'free' ? 'free' : 'periodic');
  const { prepareWasm3d } = await import('./wasm.ts');
  return prepareWasm3d(key, dims, { scale: kineticScale(o.h), pool });
}

/** Load a TypeScript or WebAssembly variant and allocate its buffers for an n1 x n2 x n3 grid. */
export async function prepare3d(key: string, dims: Dims, o: Apply3dOptions = {}): Promise<Prepared3d> {
  const wasm = await prepareWasmChecked(key, dims, o);
  if (wasm) return { ...wasm, run: (x: Real) => wasm.run(x) as Float64Array };
  const { name, boundary, mod, precision } = await loadChecked(key, dims);
  const [n1, n2, n3] = dims;
  const size = n1 * n2 * n3;
  const alloc = (): Real => (precision === 'f32' ? new Float32Array(size) : new Float64Array(size));
  const scale = kineticScale(o.h);
  const kinetic = name === 'kinetic';
  const algorithm = mod.algorithm;
  let run: (x: Real) => Real;
  if (algorithm === 'direct') {
    const y = alloc();
    run = (x) => {
      mod.kernel3d!({ x, y, n1, n2, n3 });
      return y;
    };
  } else if (algorithm === 'separable') {
    const geo = separableGeometry(dims);
    const bufs = [alloc(), alloc()] as const;
    const zero = kinetic ? alloc() : bufs[0];
    run = (x) => {
      let cur = x;
      let acc = zero;
      for (let d = 0; d < 3; d++) {
        const y = bufs[d % 2];
        if (kinetic) {
          mod.kernel!({ x, y, ...geo[d]!, yin: acc, scale: scale[d]! });
          acc = y;
        } else {
          mod.kernel!({ x: cur, y, ...geo[d]! });
          cur = y;
        }
      }
      return kinetic ? acc : cur;
    };
  } else {
    const bufs = [alloc(), alloc(), alloc(), alloc()] as const;
    const zero = kinetic ? alloc() : bufs[0];
    run = (x) => {
      let cur = x;
      let acc = zero;
      for (let d = 0; d < 3; d++) {
        const n = dims[d]!;
        const y = bufs[d % 2 === 0 ? 0 : 1];
        if (kinetic) {
          const xt = bufs[d % 2 === 0 ? 2 : 3];
          mod.kernel!({ x: cur, y, n, m: size / n, yin: acc, xt, scale: scale[d]! });
          cur = xt;
        } else {
          mod.kernel!({ x: cur, y, n, m: size / n });
          cur = y;
        }
        acc = y;
      }
      return kinetic ? acc : cur;
    };
  }
  return { key, filter: name, boundary, algorithm, precision, dims, run };
}

/** A variant bound to one grid and a worker pool; run is asynchronous. */
export interface PreparedParallel3d extends Omit<Prepared3d, 'run'> {
  /** Workers the passes are split over (1 for direct variants, which run on this thread). */
  threads: number;
  /** Runs the convolution on `x` (of the variant's precision; copied to shared memory unless it is there); returns an internal shared buffer. */
  run(x: Real): Promise<Real>;
  /** wasm variants: make the workers drop their instances of this grid's memory. */
  release?(): Promise<void>;
}

/**
 * prepare3d on a worker pool: each 1-D pass is split over the pool's workers, every worker
 * calling the variant's own pass on a contiguous range of lines (separable-t: lines of the
 * transposing pass, aligned to the variant's lines per iteration; separable: lines, or groups
 * for the middle axis). Each output line is computed exactly as in one call over the whole
 * grid, so the result is identical bit for bit to prepare3d's. All buffers lie on
 * SharedArrayBuffers. Direct variants (one 3-D call, no ranges) run on this thread.
 */
export async function prepareParallel3d(key: string, dims: Dims, pool: Pool, o: Apply3dOptions = {}): Promise<PreparedParallel3d> {
  const wasm = await prepareWasmChecked(key, dims, o, pool);
  if (wasm) return { ...wasm, run: async (x: Real) => wasm.run(x) };
  const { name, boundary, mod, precision } = await loadChecked(key, dims);
  const algorithm = mod.algorithm;
  if (algorithm === 'direct') {
    const single = await prepare3d(key, dims, o);
    return { ...single, threads: 1, run: async (x) => single.run(x) };
  }
  await pool.preload([key]);
  const [n1, n2, n3] = dims;
  const size = n1 * n2 * n3;
  const alloc = (): Real => sharedArray(precision, size);
  const scale = kineticScale(o.h);
  const kinetic = name === 'kinetic';
  const align = Math.max(1, Number(mod.L) || 1);
  const task = (t: string, args: ConvTPassArgs | ConvSPassArgs) => ({ task: t, args: args as unknown as Record<string, unknown> });
  let run: (x: Real) => Promise<Real>;
  if (algorithm === 'separable') {
    const geo = separableGeometry(dims);
    const bufs = [alloc(), alloc()] as const;
    const zero = kinetic ? alloc() : bufs[0];
    const pass = (d: number, x: Real, y: Real, yin?: Real, sc?: number): Promise<unknown> => {
      const g = geo[d]!;
      // the middle axis splits its groups (planes), the others their lines
      const byGroups = g.groups > 1;
      const parts = splitRange(byGroups ? g.groups : g.lines, pool.size, byGroups ? 1 : align);
      return pool.run(parts.map(([a, b]) => task('conv-s', {
        key, x, y, yin, scale: sc, ...g,
        off: byGroups ? a * g.gs : a * g.ls,
        groups: byGroups ? b - a : g.groups,
        lines: byGroups ? g.lines : b - a,
      })));
    };
    run = async (x0) => {
      const x = toShared(x0);
      let cur = x;
      let acc = zero;
      for (let d = 0; d < 3; d++) {
        const y = bufs[d % 2]!;
        if (kinetic) {
          await pass(d, x, y, acc, scale[d]!);
          acc = y;
        } else {
          await pass(d, cur, y);
          cur = y;
        }
      }
      return kinetic ? acc : cur;
    };
  } else {
    const bufs = [alloc(), alloc(), alloc(), alloc()] as const;
    const zero = kinetic ? alloc() : bufs[0];
    run = async (x0) => {
      let cur = toShared(x0);
      let acc = zero;
      for (let d = 0; d < 3; d++) {
        const n = dims[d]!;
        const m = size / n;
        const y = bufs[d % 2 === 0 ? 0 : 1];
        const parts = splitRange(m, pool.size, align);
        if (kinetic) {
          const xt = bufs[d % 2 === 0 ? 2 : 3];
          await pool.run(parts.map(([j0, j1]) => task('conv-t', { key, x: cur, y, n, m, j0, j1, yin: acc, xt, scale: scale[d]! })));
          cur = xt;
        } else {
          await pool.run(parts.map(([j0, j1]) => task('conv-t', { key, x: cur, y, n, m, j0, j1 })));
          cur = y;
        }
        acc = y;
      }
      return kinetic ? acc : cur;
    };
  }
  return { key, filter: name, boundary, algorithm, precision, dims, threads: pool.size, run };
}

/** Per axis d, the strided lines of a separable pass: length n, point stride, groups, group stride, lines per group, line stride. */
function separableGeometry([n1, n2, n3]: Dims): { n: number; ps: number; groups: number; gs: number; lines: number; ls: number }[] {
  return [
    { n: n1, ps: 1, groups: 1, gs: 0, lines: n2 * n3, ls: n1 },
    { n: n2, ps: n1, groups: n3, gs: n1 * n2, lines: n1, ls: 1 },
    { n: n3, ps: n1 * n2, groups: 1, gs: 0, lines: n1 * n2, ls: 1 },
  ];
}
