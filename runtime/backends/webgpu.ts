// WebGPU through Dawn (the `webgpu` package). A real GPU is tried first (Vulkan, core
// feature level); without one, Dawn's OpenGL ES backend on Mesa llvmpipe via surfaceless
// EGL (compatibility feature level). No adapter at all is reported, not thrown at random.
// The `GPU` instances come from the platform (runtime/platform.ts: webgpu; Node: Dawn's create()).
import { KernforgeError } from '../errors.ts';
import { platform } from '../platform.ts';

/** No WebGPU adapter could be obtained; the message says what was tried. */
export class NoAdapterError extends KernforgeError {}

export interface GpuContext {
  device: GPUDevice;
  /** e.g. "llvmpipe (LLVM 15.0.6, 256 bits) / opengles". */
  adapterName: string;
  backend: 'vulkan' | 'opengles' | 'default';
  limits: GPUSupportedLimits;
  /** Whether the device has 'timestamp-query' (GPU times of compute passes), where the adapter offers it. */
  timestamps: boolean;
}

let ctxPromise: Promise<GpuContext> | undefined;
// The GPU instances and adapters must outlive the device: if the garbage collector frees the
// instance, Dawn's event processing later aborts on a destroyed mutex (seen as random
// crashes and hangs with webgpu 0.6.2). Every instance created is kept here for good.
const keepAlive: unknown[] = [];
/** The Dawn instance and adapter options that gave the shared device (for navigator.gpu). */
let chosen: { instance: GPU; opts: GPURequestAdapterOptions } | undefined;

/** The shared device (created once per process). */
export function gpu(): Promise<GpuContext> {
  ctxPromise ??= open();
  return ctxPromise;
}

/**
 * Whether this process has opened Dawn (the shared device). Mesa's GL cannot serve Dawn's
 * OpenGL ES backend and headless-gl (GLX) in one process: the second one to make its context
 * current dies on an X error. runtime/backends/gpujs.ts keeps the two apart with this.
 */
export function dawnOpened(): boolean {
  return ctxPromise !== undefined;
}

/** Set by runtime/backends/gpujs.ts once headless-gl has made a GL context current here. */
let glInUse: string | undefined;
export function markHeadlessGlInUse(why: string): void {
  glInUse = why;
}

async function open(): Promise<GpuContext> {
  if (glInUse) throw new NoAdapterError(`WebGPU is not opened in this process: ${glInUse}, and Mesa cannot serve headless-gl and Dawn's GL backend in one process (run WebGPU work in a process without gpu.js's headlessgl mode)`);
  const p = platform();
  if (!p.webgpu) throw new NoAdapterError(`WebGPU unavailable: the ${p.name} platform offers none`);
  const create = p.webgpu.bind(p);
  const tried: string[] = [];
  const attempts: { flags: string[]; opts: GPURequestAdapterOptions; backend: GpuContext['backend'] }[] = [
    { flags: [], opts: { powerPreference: 'high-performance' }, backend: 'default' },
    { flags: ['backend=opengles'], opts: { featureLevel: 'compatibility' } as GPURequestAdapterOptions, backend: 'opengles' },
  ];
  if (p.env('KERNFORGE_WEBGPU_BACKEND') === 'opengles') attempts.shift();
  for (const a of attempts) {
    let g: GPU | undefined;
    try {
      g = await create(a.flags);
    } catch (e) {
      throw new NoAdapterError(`WebGPU unavailable: ${(e as Error).message}`);
    }
    if (!g) {
      tried.push(`${a.flags.join(' ') || 'default backends'} (not on the ${p.name} platform)`);
      continue;
    }
    keepAlive.push(g);
    const adapter = await g.requestAdapter(a.opts).catch(() => null);
    if (!adapter) {
      tried.push(a.flags.join(' ') || 'default backends');
      continue;
    }
    const want = [
      'maxStorageBuffersPerShaderStage',
      'maxComputeWorkgroupSizeX',
      'maxComputeInvocationsPerWorkgroup',
      'maxStorageBufferBindingSize',
      'maxBufferSize',
      'maxComputeWorkgroupStorageSize',
      'maxComputeWorkgroupsPerDimension',
    ] as const;
    const requiredLimits: Record<string, number> = {};
    for (const k of want) requiredLimits[k] = adapter.limits[k];
    keepAlive.push(adapter);
    chosen = { instance: g, opts: a.opts };
    const timestamps = adapter.features.has('timestamp-query');
    const device = await adapter.requestDevice({ requiredLimits, ...(timestamps ? { requiredFeatures: ['timestamp-query' as GPUFeatureName] } : {}) });
    const info = adapter.info;
    const name = [info.description || info.device || info.vendor || 'unknown adapter', info.architecture].filter(Boolean).join(' ');
    return { device, adapterName: `${name} / ${a.flags.length ? 'opengles' : (info as { backendType?: string }).backendType ?? 'default'}`, backend: a.backend, limits: device.limits, timestamps: device.features.has('timestamp-query') };
  }
  throw new NoAdapterError(
    `no WebGPU adapter: tried ${tried.join(', then ')}. On a machine without a GPU, Dawn needs Mesa's EGL/GL ` +
      `(Debian: libegl1 libegl-mesa0 libgl1-mesa-dri); set EGL_PLATFORM=surfaceless.`,
  );
}

/**
 * A `navigator.gpu` for libraries that look for one (gpu.js's webgpu mode): requestAdapter goes
 * to the Dawn instance and backend that gave the shared device, with the same options (e.g.
 * the compatibility feature level on OpenGL ES), so they get the same adapter. Throws
 * NoAdapterError as gpu() does.
 */
export async function navigatorGpu(): Promise<GPU> {
  await gpu();
  const { instance, opts } = chosen!;
  // The device a library asks for gets the adapter's storage-buffer limits as well: WebGPU's
  // defaults (8 per stage on the compatibility level) are below what kernels with one buffer per
  // input array need, and the adapter offers more.
  const requestAdapter = async (o?: GPURequestAdapterOptions): Promise<GPUAdapter | null> => {
    const adapter = await instance.requestAdapter({ ...opts, ...o });
    if (!adapter) return null;
    keepAlive.push(adapter);
    const requestDevice = adapter.requestDevice.bind(adapter);
    const raise = ['maxStorageBuffersPerShaderStage', 'maxBindingsPerBindGroup', 'maxStorageBufferBindingSize', 'maxBufferSize', 'maxComputeWorkgroupStorageSize'] as const;
    return new Proxy(adapter, {
      get(target, prop) {
        if (prop === 'requestDevice') {
          return (d?: GPUDeviceDescriptor) => {
            const requiredLimits: Record<string, number> = { ...(d?.requiredLimits as Record<string, number> | undefined) };
            for (const k of raise) requiredLimits[k] = Math.max(requiredLimits[k] ?? 0, target.limits[k]);
            return requestDevice({ ...d, requiredLimits });
          };
        }
        const v = Reflect.get(target, prop, target) as unknown;
        return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
      },
    });
  };
  return {
    requestAdapter,
    getPreferredCanvasFormat: () => 'rgba8unorm',
    wgslLanguageFeatures: instance.wgslLanguageFeatures,
  } as GPU;
}

/** Whether an adapter is available, without throwing; the reason when not. */
export async function probeGpu(): Promise<{
  /** An adapter was obtained. */
  ok: true;
  /** The adapter's name and backend. */
  name: string;
} | {
  /** No adapter could be obtained. */
  ok: false;
  /** What was tried and why it failed. */
  why: string;
}> {
  try {
    const c = await gpu();
    return { ok: true, name: c.adapterName };
  } catch (e) {
    ctxPromise = undefined;
    return { ok: false, why: (e as Error).message };
  }
}

/** A storage buffer holding `data`. */
export function storage(device: GPUDevice, data: ArrayBufferView, writable = false): GPUBuffer {
  const size = Math.max(16, Math.ceil(data.byteLength / 16) * 16);
  const buf = device.createBuffer({
    size,
    usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST | (writable ? GPUBufferUsage.COPY_SRC : 0),
    mappedAtCreation: true,
  });
  new Uint8Array(buf.getMappedRange()).set(new Uint8Array(data.buffer, data.byteOffset, data.byteLength));
  buf.unmap();
  return buf;
}

/** A buffer the host maps to read what the device copies into it (a staging buffer of at least `bytes`). */
export function mapReadBuffer(device: GPUDevice, bytes: number): GPUBuffer {
  return device.createBuffer({ size: Math.max(16, Math.ceil(bytes / 16) * 16), usage: GPUBufferUsage.COPY_DST | GPUBufferUsage.MAP_READ });
}

/**
 * Copy a buffer back to the host, through `staging` (a mapReadBuffer kept by the caller for
 * repeated reads) or a staging buffer made for this read. Kept ones are much cheaper where reads
 * repeat: on an H100, 1.6 ms against about 5 ms for a 128x126x130 f32 grid (docs/performance-log.md).
 */
export async function readBack(device: GPUDevice, src: GPUBuffer, bytes: number, staging?: GPUBuffer): Promise<ArrayBuffer> {
  const size = Math.ceil(bytes / 4) * 4;
  const s = staging ?? mapReadBuffer(device, size);
  const enc = device.createCommandEncoder();
  enc.copyBufferToBuffer(src, 0, s, 0, size);
  device.queue.submit([enc.finish()]);
  await s.mapAsync(GPUMapMode.READ);
  const out = s.getMappedRange(0, size).slice(0);
  s.unmap();
  if (!staging) s.destroy();
  return out;
}

const pipelines = new Map<string, Promise<GPUComputePipeline>>();

/** Binding kinds of group 0, in binding order. */
export type BindingKind = GPUBufferBindingType;

/**
 * Compile a WGSL module into a compute pipeline with an explicit layout (an 'auto' layout
 * drops bindings a variant does not use). Cached by source; compile errors carry the messages.
 */
export function pipeline(device: GPUDevice, code: string, label: string, bindings: BindingKind[]): Promise<GPUComputePipeline> {
  let p = pipelines.get(code);
  if (!p) {
    p = (async () => {
      const module = device.createShaderModule({ code, label });
      const info = await module.getCompilationInfo();
      const errors = info.messages.filter((m) => m.type === 'error');
      if (errors.length > 0) {
        throw new Error(`WGSL compile error in ${label}:\n${errors.map((m) => `  line ${m.lineNum}:${m.linePos}: ${m.message}`).join('\n')}`);
      }
      device.pushErrorScope('validation');
      const bgl = device.createBindGroupLayout({
        entries: bindings.map((type, binding) => ({ binding, visibility: GPUShaderStage.COMPUTE, buffer: { type } })),
      });
      const layout = device.createPipelineLayout({ bindGroupLayouts: [bgl] });
      const pl = device.createComputePipeline({ layout, compute: { module, entryPoint: 'main' }, label });
      const err = await device.popErrorScope();
      if (err) throw new Error(`WGSL pipeline error in ${label}: ${err.message}`);
      return pl;
    })();
    pipelines.set(code, p);
  }
  return p;
}

/** A uniform buffer holding `data`. */
export function uniform(device: GPUDevice, data: ArrayBuffer): GPUBuffer {
  const buf = device.createBuffer({ size: data.byteLength, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
  device.queue.writeBuffer(buf, 0, data);
  return buf;
}

/** Bind `buffers` to group 0 in binding order; a validation error names the variant. */
export async function bindBuffers(device: GPUDevice, pl: GPUComputePipeline, buffers: GPUBuffer[], label: string): Promise<GPUBindGroup> {
  device.pushErrorScope('validation');
  const bind = device.createBindGroup({
    layout: pl.getBindGroupLayout(0),
    entries: buffers.map((buffer, binding) => ({ binding, resource: { buffer } })),
  });
  const err = await device.popErrorScope();
  if (err) throw new Error(`WebGPU bind group for ${label}: ${err.message}`);
  return bind;
}

/** Spread `groups` workgroups over x and y within the per-dimension limit. */
export function grid2d(ctx: GpuContext, groups: number): { gx: number; gy: number } {
  const gx = Math.max(1, Math.min(groups, ctx.limits.maxComputeWorkgroupsPerDimension));
  return { gx, gy: Math.ceil(groups / gx) };
}

/** Clear `clear` (if given), run one compute pass, and wait until the queue is done. */
export async function runPass(device: GPUDevice, pl: GPUComputePipeline, bind: GPUBindGroup, g: { gx: number; gy: number }, clear?: GPUBuffer): Promise<void> {
  const enc = device.createCommandEncoder();
  if (clear) enc.clearBuffer(clear);
  const pass = enc.beginComputePass();
  pass.setPipeline(pl);
  pass.setBindGroup(0, bind);
  pass.dispatchWorkgroups(g.gx, g.gy);
  pass.end();
  device.queue.submit([enc.finish()]);
  await device.queue.onSubmittedWorkDone();
}
