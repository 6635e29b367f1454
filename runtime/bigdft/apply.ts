// Applying bigdft-conv variants on 3-D grids (periodic or free), whatever their target and
// algorithm (REFERENCES.md section 2). The array is x[(i3*n2 + i2)*n1 + i1]. apply3d runs any
// variant on its target's runner (runtime/bigdft/targets.ts CONV_TARGETS); the TypeScript and
// WebAssembly runners (prepare3d, prepareParallel3d) are runtime/bigdft/cpu.ts, re-exported here.
import { variantParams } from '../variants.ts';
import { backend } from '../backends/registry.ts';
import type { Dims } from './reference.ts';
import { withPool, parseThreads, ThreadCountError } from '../parallel/pool.ts';
import { ConvInputError, checkInput, type Apply3dOptions } from './conv.ts';
import { CONV_TARGETS, type PreparedConv } from './targets.ts';

export { ConvInputError, checkDims, checkInput, kineticScale, type Apply3dOptions, type ConvTsModule } from './conv.ts';
export { prepare3d, prepareParallel3d, type Prepared3d, type PreparedParallel3d } from './cpu.ts';

/**
 * Apply a variant's 3-D convolution (its boundary: periodic or free) to x[(i3*n2 + i2)*n1 + i1];
 * returns a new Float64Array in the same layout. Any target with a runner (TypeScript, wasm,
 * WGSL, gpu.js); `threads` splits the passes of the CPU targets (ts, wasm) over worker threads.
 * Throws ConvInputError for a wrong length, a non-finite value, a dimension smaller than the
 * filter or a bad thread count.
 */
export async function apply3d(key: string, x: ArrayLike<number>, n1: number, n2: number, n3: number, o: Apply3dOptions = {}): Promise<Float64Array> {
  const dims: Dims = [n1, n2, n3];
  const target = String((await variantParams(key)).target);
  const runner = CONV_TARGETS.get(target, 'apply3d');
  let threads = 1;
  if (backend(target).threaded) {
    try {
      threads = parseThreads(o.threads ?? 1, 'threads');
    } catch (e) {
      if (e instanceof ThreadCountError) throw new ConvInputError(e.message);
      throw e;
    }
  }
  const once = async (pre: PreparedConv): Promise<Float64Array> => {
    try {
      checkInput(x, dims);
      await pre.upload(x);
      await pre.run();
      return Float64Array.from(await pre.result());
    } finally {
      await pre.dispose();
    }
  };
  if (threads > 1) return withPool(threads, async (pool) => once(await runner.prepare(key, dims, { h: o.h, pool })));
  return once(await runner.prepare(key, dims, { h: o.h }));
}
