// bigdft-conv gpu.js variants (templates/gpujs/bigdft-conv): three transposing 1-D passes, each
// one call of the generated gpu.js kernel with one thread per output point, compiled by gpu.js
// for the backend the key's `mode` names (runtime/backends/gpujs.ts). Every pass has n1 n2 n3
// outputs, so one compiled kernel serves all three (n and m are scalar arguments). f32 storage
// and, except in mode cpu, f32 arithmetic. The kinetic filter carries the running sum and the
// transposed input (a second, copying kernel), as the TypeScript and WGSL passes do.
import { callKernel, gpujsFor, type GpujsMode } from '../backends/gpujs.ts';
import { gpujsModule, variantParams } from '../variants.ts';
import { backend } from '../backends/registry.ts';
import { filter, type FilterName } from './filters.ts';
import { checkDims, checkInput, kineticScale, ConvInputError, type Apply3dOptions } from './conv.ts';
import type { Boundary, Dims } from './reference.ts';

/** A generated bigdft-conv gpu.js module. */
export interface ConvGpujsModule {
  key: string;
  KINETIC: boolean;
  kernel: (...args: unknown[]) => number;
  /** Kinetic only: x transposed. */
  transpose?: (...args: unknown[]) => number;
}

export interface PreparedGpujs3d {
  key: string;
  filter: FilterName;
  boundary: Boundary;
  dims: Dims;
  mode: GpujsMode;
  /** The three passes on x (natural layout); the f32 result in the natural layout. */
  run(x: ArrayLike<number>): Promise<Float32Array>;
  /** Release the gpu.js instance. */
  destroy(): void;
}

/**
 * Load a gpu.js variant and compile its kernels for an n1 x n2 x n3 grid; GpujsModeError when
 * its mode does not run here. `source` replaces the variant's module text (tests of the gate).
 */
export async function prepareGpujs3d(key: string, dims: Dims, o: Apply3dOptions & { source?: string } = {}): Promise<PreparedGpujs3d> {
  const p = await variantParams(key);
  if (!key.startsWith('bigdft-conv.') || p.target !== 'gpujs') throw new ConvInputError(`${key} is not a bigdft-conv gpu.js variant`);
  const name = String(p.filter) as FilterName;
  const boundary = (p.boundary === 'free' ? 'free' : 'periodic') as Boundary;
  checkDims(dims, filter(name).taps, name, boundary);
  const mode = String(p.mode) as GpujsMode;
  const mod = (o.source !== undefined ? await gpujsModule(key, o.source) : await backend('gpujs').load(key)) as ConvGpujsModule;
  const size = dims[0] * dims[1] * dims[2];
  const gpu = await gpujsFor(mode);
  const settings = { output: [size], precision: 'single', tactic: 'precision' } as never;
  const pass = gpu.createKernel(mod.kernel as never, settings);
  const transpose = mod.KINETIC ? gpu.createKernel(mod.transpose as never, settings) : undefined;
  const scale = kineticScale(o.h);
  const zero = new Float32Array(size);
  const call = (k: unknown, args: unknown[]): Promise<Float32Array> => callKernel<Float32Array>(k, args, { mode, key });
  return {
    key,
    filter: name,
    boundary,
    dims,
    mode,
    async run(x) {
      checkInput(x, dims);
      let cur: Float32Array = x instanceof Float32Array ? x : Float32Array.from(x);
      let sum: Float32Array = zero;
      for (let d = 0; d < 3; d++) {
        const n = dims[d]!;
        const m = size / n;
        if (!mod.KINETIC) {
          cur = await call(pass, [cur, n, m]);
          continue;
        }
        sum = await call(pass, [cur, sum, n, m, scale[d]!]);
        if (d < 2) cur = await call(transpose, [cur, n, m]);
      }
      return mod.KINETIC ? sum : cur;
    },
    destroy() {
      gpu.destroy();
    },
  };
}

/** Apply a gpu.js variant's 3-D convolution to x (natural layout); returns the f32 result as Float64Array. */
export async function applyGpujs3d(key: string, x: ArrayLike<number>, dims: Dims, o: Apply3dOptions = {}): Promise<Float64Array> {
  const pre = await prepareGpujs3d(key, dims, o);
  try {
    return Float64Array.from(await pre.run(x));
  } finally {
    pre.destroy();
  }
}
