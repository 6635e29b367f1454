// Running bigdft-conv TypeScript variants on 3-D periodic grids: three transposing 1-D
// passes (REFERENCES.md section 2, Eq. 3). The array x[(i3*n2 + i2)*n1 + i1] is read as
// n2*n3 lines of n1 points; each pass writes its result transposed, so after three passes
// the layout is the natural one again. For the kinetic filter each pass also carries the
// transposed input and a running sum, giving sum_d scale_d * D2_d x.
import { loadTsModule, variantParams } from '../variants.ts';
import { filter, type FilterName } from './filters.ts';
import type { Dims } from './reference.ts';

type Real = Float32Array | Float64Array;

/** What every generated bigdft-conv TypeScript module exports. */
export interface ConvTsModule {
  key: string;
  taps: number;
  offset: number;
  C: number;
  L: number;
  kernel(a: { x: Real; y: Real; n: number; m: number; yin?: Real; xt?: Real; scale?: number }): void;
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
  precision: 'f32' | 'f64';
  dims: Dims;
  /** Runs the three passes on `x` (already of the variant's precision); returns an internal buffer. */
  run(x: Real): Real;
}

function checkDims(dims: Dims, taps: number, name: string): void {
  dims.forEach((n, d) => {
    if (!Number.isInteger(n) || n < taps) {
      throw new ConvInputError(`grid dimension n${d + 1} = ${n} is smaller than the ${name} filter (${taps} taps) or not an integer; each dimension needs at least ${taps} points`);
    }
  });
}

/** Load a variant and allocate its buffers for an n1 x n2 x n3 grid. */
export async function prepare3d(key: string, dims: Dims, o: Apply3dOptions = {}): Promise<Prepared3d> {
  const p = await variantParams(key);
  if (p.target !== 'ts' || !String(key).startsWith('bigdft-conv.')) throw new ConvInputError(`${key} is not a bigdft-conv TypeScript variant`);
  const name = String(p.filter) as FilterName;
  const f = filter(name);
  checkDims(dims, f.taps, name);
  const mod = await loadTsModule<ConvTsModule>(key);
  const precision = p.precision === 'f32' ? 'f32' : 'f64';
  const size = dims[0] * dims[1] * dims[2];
  const alloc = (): Real => (precision === 'f32' ? new Float32Array(size) : new Float64Array(size));
  const h = o.h ?? [1, 1, 1];
  const scale = h.map((v) => -1 / (2 * v * v));
  const bufs = [alloc(), alloc(), alloc(), alloc()] as const;
  const zero = name === 'kinetic' ? alloc() : bufs[0];
  const run = (x: Real): Real => {
    let cur = x;
    let acc = zero;
    for (let d = 0; d < 3; d++) {
      const n = dims[d]!;
      const y = bufs[d % 2 === 0 ? 0 : 1];
      if (name === 'kinetic') {
        const xt = bufs[d % 2 === 0 ? 2 : 3];
        mod.kernel({ x: cur, y, n, m: size / n, yin: acc, xt, scale: scale[d]! });
        cur = xt;
      } else {
        mod.kernel({ x: cur, y, n, m: size / n });
        cur = y;
      }
      acc = y;
    }
    return name === 'kinetic' ? acc : cur;
  };
  return { key, filter: name, precision, dims, run };
}

/**
 * Apply a variant's 3-D periodic convolution to x[(i3*n2 + i2)*n1 + i1]; returns a new
 * Float64Array in the same layout. Throws ConvInputError for a wrong length, a non-finite
 * value or a dimension smaller than the filter.
 */
export async function apply3d(key: string, x: ArrayLike<number>, n1: number, n2: number, n3: number, o: Apply3dOptions = {}): Promise<Float64Array> {
  const dims: Dims = [n1, n2, n3];
  const pre = await prepare3d(key, dims, o);
  if (x.length !== n1 * n2 * n3) throw new ConvInputError(`x has ${x.length} values, expected n1*n2*n3 = ${n1}*${n2}*${n3} = ${n1 * n2 * n3}`);
  for (let p = 0; p < x.length; p++) {
    if (!Number.isFinite(x[p])) throw new ConvInputError(`x[${p}] = ${x[p]} is not finite`);
  }
  const input = pre.precision === 'f32' ? Float32Array.from(x) : Float64Array.from(x);
  return Float64Array.from(pre.run(input));
}
