// bigdft-conv WGSL variants: three transposing 1-D passes (seed 002, the paper's GPU scheme),
// each one dispatch of the generated kernel over (lines / WL) x (n / tile) workgroups, all
// three encoded in one command buffer. f32 storage; the kinetic filter also carries the
// transposed input and the running sum (as the TypeScript separable-t passes do).
import { gpu, storage, readBack, uniform, bindBuffers, type BindingKind, type GpuContext } from '../backends/webgpu.ts';
import { backend } from '../backends/registry.ts';
import { variantParams } from '../variants.ts';
import { filter, type FilterName } from './filters.ts';
import { checkDims, checkInput, kineticScale, ConvInputError, type Apply3dOptions } from './conv.ts';
import type { Boundary, Dims } from './reference.ts';

export interface PreparedWgsl3d {
  key: string;
  filter: FilterName;
  boundary: Boundary;
  dims: Dims;
  adapterName: string;
  /** Workgroup shape (lines x position-invocations) and outputs per invocation. */
  workgroup: [number, number];
  outputs: number;
  /** Upload x (natural layout) into the input buffer. */
  upload(x: ArrayLike<number>): void;
  /** Run the three passes on the uploaded input and wait for the queue. */
  dispatch(): Promise<void>;
  /** The result of the last dispatch, natural layout. */
  result(): Promise<Float32Array>;
  destroy(): void;
}

/** Load a WGSL variant, compile it and allocate its buffers for an n1 x n2 x n3 grid. */
export async function prepareWgsl3d(key: string, dims: Dims, o: Apply3dOptions = {}): Promise<PreparedWgsl3d> {
  const p = await variantParams(key);
  if (!key.startsWith('bigdft-conv.') || p.target !== 'wgsl') throw new ConvInputError(`${key} is not a bigdft-conv WGSL variant`);
  const name = String(p.filter) as FilterName;
  const boundary = (p.boundary === 'free' ? 'free' : 'periodic') as Boundary;
  const f = filter(name);
  checkDims(dims, f.taps, name, boundary);
  const [WL, WP] = String(p.workgroup).split('x').map(Number) as [number, number];
  const U = Number(p.outputs);
  const TI = WP * U;
  const kinetic = name === 'kinetic';
  const ctx: GpuContext = await gpu();
  const { device } = ctx;
  const lim = ctx.limits;
  if (WL * WP > lim.maxComputeInvocationsPerWorkgroup || WL > lim.maxComputeWorkgroupSizeX || WP > lim.maxComputeWorkgroupSizeY) {
    throw new ConvInputError(`${key}: workgroup ${WL}x${WP} exceeds this adapter's limits (${lim.maxComputeWorkgroupSizeX}x${lim.maxComputeWorkgroupSizeY}, ${lim.maxComputeInvocationsPerWorkgroup} invocations)`);
  }
  const size = dims[0] * dims[1] * dims[2];
  if (size * 4 > lim.maxStorageBufferBindingSize) throw new ConvInputError(`grid ${dims.join('x')}: ${size * 4} bytes exceed the adapter's storage binding limit ${lim.maxStorageBufferBindingSize}`);
  const kinds: BindingKind[] = kinetic ? ['read-only-storage', 'storage', 'uniform', 'read-only-storage', 'storage'] : ['read-only-storage', 'storage', 'uniform'];
  const { pipeline: pl } = await backend('wgsl').pipeline(key, kinds);
  const scale = kineticScale(o.h);
  const empty = new Float32Array(size);
  const buf = (): GPUBuffer => storage(device, empty, true);
  // magic: A -> B -> C -> B; kinetic: x A, running sums Z (zero) -> Y0 -> Y1 -> Y0, transposed inputs T0, T1
  const A = buf();
  const B = buf();
  const Cb = buf();
  const extra = kinetic ? { Z: buf(), T0: buf(), T1: buf() } : undefined;
  const all = [A, B, Cb, ...(extra ? Object.values(extra) : [])];
  const passes: { bind: GPUBindGroup; gx: number; gy: number }[] = [];
  const uniforms: GPUBuffer[] = [];
  for (let d = 0; d < 3; d++) {
    const n = dims[d]!;
    const m = size / n;
    const gx = Math.ceil(m / WL);
    const gy = Math.ceil(n / TI);
    if (gx > lim.maxComputeWorkgroupsPerDimension || gy > lim.maxComputeWorkgroupsPerDimension) {
      throw new ConvInputError(`grid ${dims.join('x')}: pass ${d + 1} needs ${gx} x ${gy} workgroups, over the adapter's ${lim.maxComputeWorkgroupsPerDimension} per dimension`);
    }
    const u = new ArrayBuffer(16);
    new Uint32Array(u).set([n, m], 0);
    new Float32Array(u).set([kinetic ? scale[d]! : 0], 2);
    const ub = uniform(device, u);
    uniforms.push(ub);
    let bufs: GPUBuffer[];
    if (!kinetic) bufs = [[A, B], [B, Cb], [Cb, B]][d]!.concat(ub);
    else {
      const e = extra!;
      // x, y, P, yin, xt
      bufs = [
        [A, B, ub, e.Z, e.T0],
        [e.T0, Cb, ub, B, e.T1],
        [e.T1, B, ub, Cb, e.T0],
      ][d]!;
    }
    passes.push({ bind: await bindBuffers(device, pl, bufs, key), gx, gy });
  }
  return {
    key,
    filter: name,
    boundary,
    dims,
    adapterName: ctx.adapterName,
    workgroup: [WL, WP],
    outputs: U,
    upload(x) {
      device.queue.writeBuffer(A, 0, x instanceof Float32Array ? x : Float32Array.from(x));
    },
    async dispatch() {
      const enc = device.createCommandEncoder();
      for (const ps of passes) {
        const pass = enc.beginComputePass();
        pass.setPipeline(pl);
        pass.setBindGroup(0, ps.bind);
        pass.dispatchWorkgroups(ps.gx, ps.gy);
        pass.end();
      }
      device.queue.submit([enc.finish()]);
      await device.queue.onSubmittedWorkDone();
    },
    async result() {
      return new Float32Array(await readBack(device, B, size * 4));
    },
    destroy() {
      for (const b of [...all, ...uniforms]) b.destroy();
    },
  };
}

/** Apply a WGSL variant's 3-D convolution to x (natural layout); returns the f32 result as Float64Array. */
export async function applyWgsl3d(key: string, x: ArrayLike<number>, dims: Dims, o: Apply3dOptions = {}): Promise<Float64Array> {
  const pre = await prepareWgsl3d(key, dims, o);
  try {
    checkInput(x, dims);
    pre.upload(x);
    await pre.dispatch();
    return Float64Array.from(await pre.result());
  } finally {
    pre.destroy();
  }
}
