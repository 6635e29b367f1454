// Running bigdft-conv TypeScript variants on 3-D grids (periodic or free), whatever their
// algorithm (REFERENCES.md section 2). The array is x[(i3*n2 + i2)*n1 + i1].
//   separable-t: three transposing 1-D passes (Eq. 3): the array is read as n2*n3 lines of n1
//     points; each pass writes its result transposed, so after three passes the layout is the
//     natural one again. For the kinetic filter each pass also carries the transposed input and
//     a running sum, giving sum_d scale_d * D2_d x.
//   separable: three 1-D passes along the axes in place of the layout (strided lines).
//   direct: one call for the whole 3-D triple sum.
// WGSL variants run through runtime/bigdft/wgsl.ts (apply3d routes them there).
import { loadTsModule, variantParams } from '../variants.ts';
import { filter, type FilterName } from './filters.ts';
import type { Boundary, Dims } from './reference.ts';

type Real = Float32Array | Float64Array;

/** What every generated bigdft-conv TypeScript module exports. */
export interface ConvTsModule {
  key: string;
  algorithm: 'direct' | 'separable' | 'separable-t';
  boundary: Boundary;
  taps: number;
  offset: number;
  C: number;
  L: number;
  /** separable-t: a transposing pass; separable: a strided pass (see the generated abi.ts). */
  kernel?(a: Record<string, unknown>): void;
  /** direct: the whole 3-D sum. */
  kernel3d?(a: { x: Real; y: Real; n1: number; n2: number; n3: number }): void;
}

/** Invalid grid or input for a convolution. */
export class ConvInputError extends Error {}

export interface Apply3dOptions {
  /** Grid spacings h1, h2, h3 of the kinetic operator, scale_d = -1 / (2 h_d^2); default 1. */
  h?: Dims;
}

/** A variant bound to one grid, with its buffers allocated once (for benchmarks). */
export interface Prepared3d {
  key: string;
  filter: FilterName;
  boundary: Boundary;
  algorithm: ConvTsModule['algorithm'];
  precision: 'f32' | 'f64';
  dims: Dims;
  /** Runs the convolution on `x` (already of the variant's precision); returns an internal buffer. */
  run(x: Real): Real;
}

/** Every dimension must hold the whole filter (periodic: the wrap tables; free: the split loops). */
export function checkDims(dims: Dims, taps: number, name: string, boundary: Boundary = 'periodic'): void {
  dims.forEach((n, d) => {
    if (!Number.isInteger(n) || n < taps) {
      throw new ConvInputError(`grid dimension n${d + 1} = ${n} is smaller than the ${name} filter (${taps} taps) or not an integer; each dimension needs at least ${taps} points (${boundary} boundary)`);
    }
  });
}

/** The scale factors -1 / (2 h_d^2) of the kinetic operator. */
export function kineticScale(h: Dims = [1, 1, 1]): [number, number, number] {
  return [-1 / (2 * h[0] * h[0]), -1 / (2 * h[1] * h[1]), -1 / (2 * h[2] * h[2])];
}

/** Load a TypeScript variant and allocate its buffers for an n1 x n2 x n3 grid. */
export async function prepare3d(key: string, dims: Dims, o: Apply3dOptions = {}): Promise<Prepared3d> {
  const p = await variantParams(key);
  if (!String(key).startsWith('bigdft-conv.')) throw new ConvInputError(`${key} is not a bigdft-conv variant`);
  if (p.target !== 'ts') throw new ConvInputError(`${key} is a ${String(p.target)} variant: use prepareWgsl3d (runtime/bigdft/wgsl.ts) or apply3d`);
  const name = String(p.filter) as FilterName;
  const boundary = (p.boundary === 'free' ? 'free' : 'periodic') as Boundary;
  const f = filter(name);
  checkDims(dims, f.taps, name, boundary);
  const mod = await loadTsModule<ConvTsModule>(key);
  const precision = p.precision === 'f32' ? 'f32' : 'f64';
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
    // axis d: n, point stride, groups, group stride, lines per group, line stride
    const geo = [
      { n: n1, ps: 1, groups: 1, gs: 0, lines: n2 * n3, ls: n1 },
      { n: n2, ps: n1, groups: n3, gs: n1 * n2, lines: n1, ls: 1 },
      { n: n3, ps: n1 * n2, groups: 1, gs: 0, lines: n1 * n2, ls: 1 },
    ];
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

/** Length and finiteness of an input array. */
export function checkInput(x: ArrayLike<number>, dims: Dims): void {
  const [n1, n2, n3] = dims;
  if (x.length !== n1 * n2 * n3) throw new ConvInputError(`x has ${x.length} values, expected n1*n2*n3 = ${n1}*${n2}*${n3} = ${n1 * n2 * n3}`);
  for (let p = 0; p < x.length; p++) {
    if (!Number.isFinite(x[p])) throw new ConvInputError(`x[${p}] = ${x[p]} is not finite`);
  }
}

/**
 * Apply a variant's 3-D convolution (its boundary: periodic or free) to x[(i3*n2 + i2)*n1 + i1];
 * returns a new Float64Array in the same layout. TypeScript and WGSL variants alike. Throws
 * ConvInputError for a wrong length, a non-finite value or a dimension smaller than the filter.
 */
export async function apply3d(key: string, x: ArrayLike<number>, n1: number, n2: number, n3: number, o: Apply3dOptions = {}): Promise<Float64Array> {
  const dims: Dims = [n1, n2, n3];
  const p = await variantParams(key);
  if (p.target === 'wgsl') {
    const { applyWgsl3d } = await import('./wgsl.ts');
    return applyWgsl3d(key, x, dims, o);
  }
  const pre = await prepare3d(key, dims, o);
  checkInput(x, dims);
  const input = pre.precision === 'f32' ? Float32Array.from(x) : Float64Array.from(x);
  return Float64Array.from(pre.run(input));
}
