// Plain f64 references of the 3-D convolutions, in the natural layout x[(i3*n2 + i2)*n1 + i1]
// (i1 fastest), periodic or free (x = 0 outside the grid, output of the same size).
// `separable` applies the 1-D filter along each axis in place of the transposing passes;
// `direct` is the triple sum over all taps at once, O(taps^3) per point, for small grids. The
// kinetic operator is the sum over axes of scale_d times the 1-D second derivative along
// axis d (scale_d = -1 / (2 h_d^2)).
import { filter, type Filter, type FilterName } from './filters.ts';

export type Dims = readonly [number, number, number];
/** periodic: indices wrap around; free: x is zero outside [0, n) along every axis. */
export type Boundary = 'periodic' | 'free';

const mod = (a: number, n: number): number => ((a % n) + n) % n;

/** 1-D filter along axis d (0: i1, 1: i2, 2: i3) of a 3-D array. */
export function filterAxis(f: Filter, x: Float64Array, dims: Dims, d: 0 | 1 | 2, boundary: Boundary = 'periodic'): Float64Array {
  const [n1, n2] = dims;
  const n = dims[d];
  const stride = d === 0 ? 1 : d === 1 ? n1 : n1 * n2;
  const y = new Float64Array(x.length);
  for (let p = 0; p < x.length; p++) {
    const i = Math.floor(p / stride) % n;
    const base = p - i * stride;
    let s = 0;
    for (let k = 0; k < f.taps; k++) {
      const q = i + k + f.offset;
      if (boundary === 'free' && (q < 0 || q >= n)) continue;
      s += f.coefficients[k]! * x[base + mod(q, n) * stride]!;
    }
    y[p] = s;
  }
  return y;
}

/** Separable reference: three 1-D applications (product for magic filters, scaled sum for kinetic). */
export function separable(name: FilterName, x: Float64Array, dims: Dims, scale: Dims = [-0.5, -0.5, -0.5], boundary: Boundary = 'periodic'): Float64Array {
  const f = filter(name);
  if (name !== 'kinetic') return filterAxis(f, filterAxis(f, filterAxis(f, x, dims, 0, boundary), dims, 1, boundary), dims, 2, boundary);
  const y = new Float64Array(x.length);
  for (const d of [0, 1, 2] as const) {
    const t = filterAxis(f, x, dims, d, boundary);
    for (let p = 0; p < y.length; p++) y[p]! += scale[d] * t[p]!;
  }
  return y;
}

/** Direct reference: the 3-D stencil summed point by point (magic: the tensor-product triple sum). */
export function direct(name: FilterName, x: Float64Array, dims: Dims, scale: Dims = [-0.5, -0.5, -0.5], boundary: Boundary = 'periodic'): Float64Array {
  const f = filter(name);
  const [n1, n2, n3] = dims;
  const c = f.coefficients;
  const y = new Float64Array(x.length);
  const free = boundary === 'free';
  const at = (a: number, b: number, e: number): number =>
    free && (a < 0 || a >= n1 || b < 0 || b >= n2 || e < 0 || e >= n3) ? 0 : x[(mod(e, n3) * n2 + mod(b, n2)) * n1 + mod(a, n1)]!;
  for (let i3 = 0; i3 < n3; i3++) {
    for (let i2 = 0; i2 < n2; i2++) {
      for (let i1 = 0; i1 < n1; i1++) {
        let s = 0;
        for (let k3 = 0; k3 < f.taps; k3++) {
          if (name === 'kinetic') {
            const o = k3 + f.offset;
            s += c[k3]! * (scale[0] * at(i1 + o, i2, i3) + scale[1] * at(i1, i2 + o, i3) + scale[2] * at(i1, i2, i3 + o));
            continue;
          }
          for (let k2 = 0; k2 < f.taps; k2++) {
            const c23 = c[k3]! * c[k2]!;
            for (let k1 = 0; k1 < f.taps; k1++) s += c23 * c[k1]! * at(i1 + k1 + f.offset, i2 + k2 + f.offset, i3 + k3 + f.offset);
          }
        }
        y[(i3 * n2 + i2) * n1 + i1] = s;
      }
    }
  }
  return y;
}
