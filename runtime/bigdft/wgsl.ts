// bigdft-conv WGSL variants: three transposing 1-D passes (seed 002, the paper's GPU scheme),
// each one dispatch of the generated kernel over (lines / WL) x (n / tile) workgroups, all
// three encoded in one command buffer. f32 storage; the kinetic filter also carries the
// transposed input and the running sum (as the TypeScript separable-t passes do). Transfers go
// through kept staging buffers. prepareWgslHamiltonian chains three variants, the potential
// product and the sum H psi on the device: `run bigdft` with all three filters on WGSL.
import { gpu, storage, uniform, bindBuffers, pipeline, grid2d, mapReadBuffer, readBack, type BindingKind, type GpuContext } from '../backends/webgpu.ts';
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
  /** The input buffer (natural layout, f32) and the buffer the third pass writes the result to. */
  input: GPUBuffer;
  output: GPUBuffer;
  /** Upload x (natural layout) into the input buffer (through a kept staging buffer; resolves once it is queued). */
  upload(x: ArrayLike<number>): Promise<void>;
  /**
   * Record the three passes into `enc` (no submission): chains with other work on the device.
   * `stamps`: GPU timestamps at the start of the first pass and the end of the last (a device with 'timestamp-query').
   */
  encode(enc: GPUCommandEncoder, stamps?: PassStamps): void;
  /** Run the three passes on the uploaded input and wait for the queue. */
  dispatch(): Promise<void>;
  /** The result of the last dispatch, natural layout. */
  result(): Promise<Float32Array>;
  destroy(): void;
}

/** Where a run of compute passes writes its GPU timestamps: indices of its start and end in a query set. */
export interface PassStamps {
  querySet: GPUQuerySet;
  begin: number;
  end: number;
}

/** The timestampWrites of pass `i` of `n` in a run stamped by `s`. */
function passStamps(s: PassStamps | undefined, i: number, n: number): GPUComputePassDescriptor {
  if (!s || (i > 0 && i < n - 1)) return {};
  return { timestampWrites: { querySet: s.querySet, ...(i === 0 ? { beginningOfPassWriteIndex: s.begin } : {}), ...(i === n - 1 ? { endOfPassWriteIndex: s.end } : {}) } };
}

/**
 * Load a WGSL variant, compile it and allocate its buffers for an n1 x n2 x n3 grid. `input`: read
 * the grid from this buffer (another variant's, to chain them on the device) instead of one of its own.
 */
export async function prepareWgsl3d(key: string, dims: Dims, o: Apply3dOptions & { input?: GPUBuffer } = {}): Promise<PreparedWgsl3d> {
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
  const A = o.input ?? buf();
  const B = buf();
  const Cb = buf();
  const extra = kinetic ? { Z: buf(), T0: buf(), T1: buf() } : undefined;
  // buffers this variant owns (a given input stays its owner's)
  const all = [...(o.input ? [] : [A]), B, Cb, ...(extra ? Object.values(extra) : [])];
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
  // kept staging buffers for the transfers: on an H100 through Dawn's Vulkan backend, a mapped kept
  // buffer and a copy moved a 128x126x130 grid up in 1.1 ms against 7.0 ms for queue.writeBuffer,
  // and back in 1.6 ms against about 5 ms through a staging buffer made per read
  // (docs/performance-log.md, "WGSL on an NVIDIA H100")
  const bytes = Math.ceil((size * 4) / 16) * 16;
  // (made on first use: a variant chained on the device may never need them)
  let up: GPUBuffer | undefined;
  let down: GPUBuffer | undefined;
  const encode = (enc: GPUCommandEncoder, stamps?: PassStamps): void => {
    for (const [i, ps] of passes.entries()) {
      const pass = enc.beginComputePass(passStamps(stamps, i, passes.length));
      pass.setPipeline(pl);
      pass.setBindGroup(0, ps.bind);
      pass.dispatchWorkgroups(ps.gx, ps.gy);
      pass.end();
    }
  };
  return {
    key,
    filter: name,
    boundary,
    dims,
    adapterName: ctx.adapterName,
    workgroup: [WL, WP],
    outputs: U,
    input: A,
    output: B,
    async upload(x) {
      up ??= device.createBuffer({ size: bytes, usage: GPUBufferUsage.MAP_WRITE | GPUBufferUsage.COPY_SRC });
      await up.mapAsync(GPUMapMode.WRITE);
      new Float32Array(up.getMappedRange(), 0, size).set(x);
      up.unmap();
      const enc = device.createCommandEncoder();
      enc.copyBufferToBuffer(up, 0, A, 0, bytes);
      device.queue.submit([enc.finish()]);
    },
    encode,
    async dispatch() {
      const enc = device.createCommandEncoder();
      encode(enc);
      device.queue.submit([enc.finish()]);
      await device.queue.onSubmittedWorkDone();
    },
    async result() {
      down ??= mapReadBuffer(device, bytes);
      return new Float32Array(await readBack(device, B, size * 4, down));
    },
    destroy() {
      for (const b of [...all, ...uniforms, ...(up ? [up] : []), ...(down ? [down] : [])]) b.destroy();
    },
  };
}

/** Apply a WGSL variant's 3-D convolution to x (natural layout); returns the f32 result as Float64Array. */
export async function applyWgsl3d(key: string, x: ArrayLike<number>, dims: Dims, o: Apply3dOptions = {}): Promise<Float64Array> {
  const pre = await prepareWgsl3d(key, dims, o);
  try {
    checkInput(x, dims);
    await pre.upload(x);
    await pre.dispatch();
    return Float64Array.from(await pre.result());
  } finally {
    pre.destroy();
  }
}

// The potential product of the local Hamiltonian on the device: vpsi = V psi_r, and per workgroup
// the partial sum of psi_r vpsi (E_pot before normalization), summed in f64 on the host.
const POTENTIAL_WG = 256;
const POTENTIAL_WGSL = /* wgsl */ `
struct Params { n: u32, gx: u32, groups: u32, pad: u32 };
@group(0) @binding(0) var<storage, read> psir: array<f32>;
@group(0) @binding(1) var<storage, read> V: array<f32>;
@group(0) @binding(2) var<storage, read_write> vpsi: array<f32>;
@group(0) @binding(3) var<storage, read_write> partial: array<f32>;
@group(0) @binding(4) var<uniform> P: Params;
var<workgroup> s: array<f32, ${POTENTIAL_WG}>;
@compute @workgroup_size(${POTENTIAL_WG})
fn main(@builtin(workgroup_id) wg: vec3<u32>, @builtin(local_invocation_index) li: u32) {
  let g = wg.y * P.gx + wg.x;
  let i = g * ${POTENTIAL_WG}u + li;
  var e = 0.0f;
  if (i < P.n) {
    let r = psir[i];
    let v = V[i] * r;
    vpsi[i] = v;
    e = r * v;
  }
  s[li] = e;
  workgroupBarrier();
  for (var k = ${POTENTIAL_WG / 2}u; k > 0u; k = k >> 1u) {
    if (li < k) {
      s[li] += s[li + k];
    }
    workgroupBarrier();
  }
  if (li == 0u && g < P.groups) {
    partial[g] = s[0];
  }
}
`;

// H psi = MF^T (V psi_r) + T psi on the device (one f32 addition per point, as the host's loop rounds it).
const SUM_WGSL = /* wgsl */ `
struct Params { n: u32, gx: u32, groups: u32, pad: u32 };
@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read> t: array<f32>;
@group(0) @binding(2) var<storage, read_write> h: array<f32>;
@group(0) @binding(3) var<uniform> P: Params;
@compute @workgroup_size(${POTENTIAL_WG})
fn main(@builtin(workgroup_id) wg: vec3<u32>, @builtin(local_invocation_index) li: u32) {
  let i = (wg.y * P.gx + wg.x) * ${POTENTIAL_WG}u + li;
  if (i < P.n) {
    h[i] = a[i] + t[i];
  }
}
`;

/** GPU milliseconds of one application's parts, from timestamp queries. */
export interface HamiltonianGpuMs {
  mf: number;
  potential: number;
  mft: number;
  kin: number;
  sum: number;
}

/** The local Hamiltonian kept on the device (prepareWgslHamiltonian). */
export interface WgslHamiltonian {
  adapterName: string;
  /**
   * One application to x (natural layout, f32): upload x (MF's upload), then in one submission MF,
   * the potential product, MF^T, T and their sum, then read back H x (into `hx`) and T x.
   * `epot` = sum psi_r V psi_r (f64 sum of the workgroups' f32 partial sums). `t` is reused by
   * the next call.
   */
  apply(x: Float32Array, hx: Float32Array): Promise<{ t: Float32Array; epot: number; gpuMs?: HamiltonianGpuMs }>;
  /** Whether apply gives the GPU's times of its parts (the device has 'timestamp-query'). */
  timestamps: boolean;
  destroy(): void;
}

/**
 * H psi = MF^T (V MF psi) + T psi with three WGSL variants chained on the device: psi goes up once
 * per application (MF and T read the same buffer), psi_r, V psi_r and MF^T (V psi_r) never leave
 * it, and two grids come back (H psi and T psi). The variants must be periodic magic, magic-t and kinetic ones (the caller checks).
 */
export async function prepareWgslHamiltonian(keys: { mf: string; mft: string; kin: string }, dims: Dims, h: number, V: ArrayLike<number>): Promise<WgslHamiltonian> {
  const size = dims[0] * dims[1] * dims[2];
  const ctx = await gpu();
  const { device } = ctx;
  const made: { destroy(): void }[] = [];
  try {
    const mf = await prepareWgsl3d(keys.mf, dims, { h: [h, h, h] });
    made.push(mf);
    const kin = await prepareWgsl3d(keys.kin, dims, { h: [h, h, h], input: mf.input });
    made.push(kin);
    const mft = await prepareWgsl3d(keys.mft, dims, { h: [h, h, h] });
    made.push(mft);
    const groups = Math.ceil(size / POTENTIAL_WG);
    const g = grid2d(ctx, groups);
    const pl = await pipeline(device, POTENTIAL_WGSL, 'bigdft potential product', ['read-only-storage', 'read-only-storage', 'storage', 'storage', 'uniform']);
    const Vb = storage(device, V instanceof Float32Array ? V : Float32Array.from(V));
    const partial = storage(device, new Float32Array(groups), true);
    const ub = uniform(device, new Uint32Array([size, g.gx, groups, 0]).buffer);
    const bytes = mf.input.size; // every grid buffer's size
    const sa = mapReadBuffer(device, bytes);
    const st = mapReadBuffer(device, bytes);
    const sp = mapReadBuffer(device, groups * 4);
    made.push(Vb, partial, ub, sa, st, sp);
    const bind = await bindBuffers(device, pl, [mf.output, Vb, mft.input, partial, ub], 'bigdft potential product');
    // the sum writes H psi over V psi_r (MF^T's input, read by then)
    const sumPl = await pipeline(device, SUM_WGSL, 'bigdft H psi sum', ['read-only-storage', 'read-only-storage', 'storage', 'uniform']);
    const sumBind = await bindBuffers(device, sumPl, [mft.output, kin.output, mft.input, ub], 'bigdft H psi sum');
    const t = new Float32Array(size);
    // GPU times of the five parts where the device has timestamp queries: start and end of each
    const parts = ['mf', 'potential', 'mft', 'kin', 'sum'] as const;
    const stamps = ctx.timestamps ? { querySet: device.createQuerySet({ type: 'timestamp', count: 2 * parts.length }), resolve: device.createBuffer({ size: 16 * parts.length, usage: GPUBufferUsage.QUERY_RESOLVE | GPUBufferUsage.COPY_SRC }), read: mapReadBuffer(device, 16 * parts.length) } : undefined;
    if (stamps) made.push(stamps.querySet, stamps.resolve, stamps.read);
    const at = (k: number): PassStamps | undefined => (stamps ? { querySet: stamps.querySet, begin: 2 * k, end: 2 * k + 1 } : undefined);
    const pass = (enc: GPUCommandEncoder, p: GPUComputePipeline, b: GPUBindGroup, s?: PassStamps): void => {
      const c = enc.beginComputePass(passStamps(s, 0, 1));
      c.setPipeline(p);
      c.setBindGroup(0, b);
      c.dispatchWorkgroups(g.gx, g.gy);
      c.end();
    };
    return {
      adapterName: ctx.adapterName,
      timestamps: !!stamps,
      async apply(x, hx) {
        await mf.upload(x); // queued before the submission below
        const enc = device.createCommandEncoder();
        mf.encode(enc, at(0));
        pass(enc, pl, bind, at(1));
        mft.encode(enc, at(2));
        kin.encode(enc, at(3));
        pass(enc, sumPl, sumBind, at(4));
        if (stamps) {
          enc.resolveQuerySet(stamps.querySet, 0, 2 * parts.length, stamps.resolve, 0);
          enc.copyBufferToBuffer(stamps.resolve, 0, stamps.read, 0, 16 * parts.length);
        }
        enc.copyBufferToBuffer(mft.input, 0, sa, 0, bytes);
        enc.copyBufferToBuffer(kin.output, 0, st, 0, bytes);
        enc.copyBufferToBuffer(partial, 0, sp, 0, sp.size);
        device.queue.submit([enc.finish()]);
        await Promise.all([sa.mapAsync(GPUMapMode.READ), st.mapAsync(GPUMapMode.READ), sp.mapAsync(GPUMapMode.READ), stamps?.read.mapAsync(GPUMapMode.READ)]);
        let gpuMs: HamiltonianGpuMs | undefined;
        if (stamps) {
          const ns = new BigUint64Array(stamps.read.getMappedRange(), 0, 2 * parts.length);
          const ms = (k: number): number => Number(ns[2 * k + 1]! - ns[2 * k]!) / 1e6;
          gpuMs = { mf: ms(0), potential: ms(1), mft: ms(2), kin: ms(3), sum: ms(4) };
          stamps.read.unmap();
        }
        hx.set(new Float32Array(sa.getMappedRange(), 0, size));
        t.set(new Float32Array(st.getMappedRange(), 0, size));
        const sums = new Float32Array(sp.getMappedRange(), 0, groups);
        let epot = 0;
        for (let i = 0; i < groups; i++) epot += sums[i]!;
        sa.unmap();
        st.unmap();
        sp.unmap();
        return { t, epot, ...(gpuMs ? { gpuMs } : {}) };
      },
      destroy() {
        for (const m of made) m.destroy();
      },
    };
  } catch (e) {
    for (const m of made) m.destroy();
    throw e;
  }
}
