// What every bigdft-conv runner shares (TypeScript and wasm in apply.ts, WGSL in wgsl.ts, gpu.js
// in gpujs.ts, the pool's pass tasks in runtime/parallel/tasks.ts): the shape of a generated
// TypeScript module, the options of a 3-D application, the grid and input checks and their
// user error. apply.ts re-exports them.
import { KernforgeError } from '../errors.ts';
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
export class ConvInputError extends KernforgeError {}

/** Options of apply3d and prepare3d. */
export interface Apply3dOptions {
  /** Grid spacings h1, h2, h3 of the kinetic operator, scale_d = -1 / (2 h_d^2); default 1. */
  h?: Dims;
  /** apply3d: worker threads (default 1: this thread); each pass's lines are split between them. */
  threads?: number;
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

/** Length and finiteness of an input array. */
export function checkInput(x: ArrayLike<number>, dims: Dims): void {
  const [n1, n2, n3] = dims;
  if (x.length !== n1 * n2 * n3) throw new ConvInputError(`x has ${x.length} values, expected n1*n2*n3 = ${n1}*${n2}*${n3} = ${n1 * n2 * n3}`);
  for (let p = 0; p < x.length; p++) {
    if (!Number.isFinite(x[p])) throw new ConvInputError(`x[${p}] = ${x[p]} is not finite`);
  }
}
