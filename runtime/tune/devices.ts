// Devices the tuner can measure on: the CPU (TypeScript variants, and WebAssembly SIMD variants
// where the runtime validates a SIMD module) and a WebGPU adapter (WGSL variants). A device may
// offer several targets (`targets`): a family's candidates for a problem can then come from all of
// them, and the tuner picks among them (e.g. md-nonbonded f32: TypeScript vs WebAssembly SIMD).
// `target` stays the device's primary target (what the cache and the artefact record as before). Each has a fingerprint, a stable hex hash of what makes timings comparable: for
// the CPU its model, core count and the Node version; for WebGPU the adapter's vendor,
// architecture, device and description (which carries the driver, e.g. "Mesa 22.3.6") and Dawn's
// backend (Vulkan, OpenGL ES, ...). Tuning results are stored per fingerprint
// (runtime/tune/cache.ts), so a new machine, driver or Node version starts afresh.
// A device that is absent is reported with `available: false` and the reason, never thrown.
import { GPUJS_MODES_ON, type GpujsMode } from '../backends/gpujs-modes.ts';
import { platform } from '../platform.ts';
import { probeWasmSimd, type WasmSimdProbe } from '../backends/wasm.ts';

/** A device the tuner can measure on: the CPU, or the WebGPU adapter. */
export type DeviceId = 'cpu' | 'webgpu';
/** A generated target a device can run: TypeScript, WGSL, WebAssembly SIMD or gpu.js. */
export type DeviceTarget = 'ts' | 'wgsl' | 'wasm' | 'gpujs';

/** gpu.js modes (runtime/backends/gpujs.ts), by the device they compute on. */
export type GpujsModeName = GpujsMode;
/** The CPU runs gpu.js's cpu and webasm modes; the GPU device its WebGL and WebGPU modes. */
export const GPUJS_MODES_OF: Record<DeviceId, readonly GpujsModeName[]> = GPUJS_MODES_ON;

/** A device as detected; an absent one is reported with `available: false` and the reason, never thrown. */
export interface Device {
  /** cpu or webgpu. */
  id: DeviceId;
  /** The primary generated target whose variants run on it (its defaults come from this one). */
  target: DeviceTarget;
  /** Every target available on it, the primary first (cpu: ts, then wasm when WebAssembly SIMD validates). */
  targets: DeviceTarget[];
  /**
   * Targets (or gpu.js modes, as "gpujs:<mode>") the device could offer but does not here, with
   * the reason (cpu: wasm without SIMD; webgpu: gpujs:headlessgl without a display).
   */
  unavailableTargets?: Record<string, string>;
  /** gpu.js modes that run on this device here (target gpujs is offered when there is one). */
  gpujsModes?: GpujsModeName[];
  /** Human-readable name: the CPU model, or the adapter's description and backend. */
  name: string;
  /** Whether it can run variants here (see why). */
  available: boolean;
  /** Why the device is not available. */
  why?: string;
  /** Stable hex hash (16 digits) of the identifying properties. */
  fingerprint: string;
  /**
   * Who made it: cpu, from the model string (cpuVendor: "AMD", "Intel", "Apple", "ARM", else the
   * model's first word); webgpu, the adapter's vendor (e.g. "nvidia", "mesa"). Recorded in the
   * tuned artefact: loadTuned's nearest device must have the same vendor and architecture.
   */
  vendor?: string;
  /** cpu: process.arch (x64, arm64, ...); webgpu: the adapter's architecture (e.g. "ampere"). */
  architecture?: string;
  /** Limits, backend, core count and the like (JSON-able). */
  details: Record<string, unknown>;
}

export const DEVICE_IDS: readonly DeviceId[] = ['cpu', 'webgpu'];

/** Stable 16-hex-digit hash of the fields, in the given order. */
export function fingerprintOf(fields: Record<string, unknown>): string {
  return platform().sha256(JSON.stringify(fields)).slice(0, 16);
}

// The WebAssembly SIMD probe is the wasm backend's (runtime/backends/wasm.ts).
export { probeWasmSimd, type WasmSimdProbe } from '../backends/wasm.ts';

export interface CpuDeviceOptions {
  /** The WebAssembly SIMD probe result to use instead of probing (tests; default probeWasmSimd()). */
  wasmSimd?: WasmSimdProbe;
  /**
   * gpu.js modes on the CPU that run here, and why the others do not (default: none known —
   * cpuDevice is synchronous; deviceById and detectDevices probe them).
   */
  gpujs?: GpujsModes;
}

/** The outcome of probing gpu.js modes. */
export interface GpujsModes {
  modes: GpujsModeName[];
  unavailable: Partial<Record<GpujsModeName, string>>;
}

/**
 * Probe the gpu.js modes of a device (compiles and runs a tiny kernel in each).
 * KERNFORGE_GPUJS=off turns the gpujs target off, as if no mode ran.
 */
export async function probeGpujs(id: DeviceId): Promise<GpujsModes> {
  const modes = GPUJS_MODES_OF[id];
  const off = platform().env('KERNFORGE_GPUJS');
  if (/^(off|0|no|false)$/i.test(off ?? '')) {
    return { modes: [], unavailable: Object.fromEntries(modes.map((m) => [m, `turned off by KERNFORGE_GPUJS=${off}`])) };
  }
  try {
    const { availableGpujsModes } = await import('../backends/gpujs.ts');
    return await availableGpujsModes(modes);
  } catch (e) {
    return { modes: [], unavailable: Object.fromEntries(modes.map((m) => [m, `gpu.js failed to load (${(e as Error).message})`])) };
  }
}

/** Add the gpujs target and its modes (unavailable ones as "gpujs:<mode>") to a device. */
function withGpujs(d: Device, g: GpujsModes | undefined): Device {
  if (!g) return d;
  const unavailable: Record<string, string> = { ...d.unavailableTargets };
  for (const [m, why] of Object.entries(g.unavailable)) unavailable[`gpujs:${m}`] = why!;
  const targets: DeviceTarget[] = g.modes.length > 0 ? [...d.targets, 'gpujs'] : d.targets;
  const has = Object.keys(unavailable).length > 0;
  const out: Device = { ...d, targets, gpujsModes: [...g.modes], details: { ...d.details, targets, gpujsModes: [...g.modes], ...(has ? { unavailableTargets: unavailable } : {}) } };
  if (has) out.unavailableTargets = unavailable;
  else delete out.unavailableTargets;
  return out;
}

/**
 * The CPU vendor from its model string: "AMD", "Intel", "Apple", "ARM" (Arm designs: Neoverse,
 * Cortex), else the model's first word ("unknown" for an empty model).
 */
export function cpuVendor(model: string): string {
  if (/\b(AMD|Ryzen|EPYC|Threadripper)\b/i.test(model)) return 'AMD';
  if (/\b(Intel|Xeon)\b|\bCore\(TM\)/i.test(model)) return 'Intel';
  if (/\bApple\b/i.test(model)) return 'Apple';
  if (/\b(ARM|Arm|Neoverse|Cortex)/.test(model)) return 'ARM';
  return model.trim().split(/[\s(@,]+/)[0] || 'unknown';
}

/**
 * The CPU device (always available): targets ts, and wasm when WebAssembly SIMD validates. The
 * fingerprint does not depend on the targets (the Node version, which decides SIMD, is in it), so
 * TS timings stay comparable whether or not wasm is on.
 */
export function cpuDevice(o: CpuDeviceOptions = {}): Device {
  const c = platform().cpu();
  const { model, cores } = c;
  // Under Node the fields are those of before (`node`: its version), so fingerprints stay the same
  const rt: Record<string, string> = c.runtime === 'node' ? { node: c.version } : { runtime: `${c.runtime} ${c.version}` };
  const simd = o.wasmSimd ?? probeWasmSimd();
  const targets: DeviceTarget[] = simd.ok ? ['ts', 'wasm'] : ['ts'];
  const unavailableTargets: Device['unavailableTargets'] = simd.ok ? undefined : { wasm: simd.why ?? 'WebAssembly SIMD is not available' };
  return withGpujs({
    id: 'cpu',
    target: 'ts',
    targets,
    ...(unavailableTargets ? { unavailableTargets } : {}),
    name: `${model} x ${cores}, ${c.runtime} ${c.version}`,
    available: true,
    fingerprint: fingerprintOf({ device: 'cpu', model, cores, ...rt }),
    vendor: cpuVendor(model),
    architecture: c.arch,
    details: { model, cores, ...rt, v8: c.v8, platform: c.os, arch: c.arch, memoryBytes: c.memoryBytes, speedMHz: c.speedMHz, targets, ...(unavailableTargets ? { unavailableTargets } : {}) },
  }, o.gpujs);
}

let webgpuPromise: Promise<Device> | undefined;

/** The WebGPU device: the adapter the runtime uses (a real GPU, else Mesa llvmpipe). Probed once per process. */
export function webgpuDevice(): Promise<Device> {
  webgpuPromise ??= (async (): Promise<Device> => {
    const { probeGpu, gpu } = await import('../backends/webgpu.ts');
    const probe = await probeGpu();
    if (!probe.ok) {
      return { id: 'webgpu', target: 'wgsl', targets: ['wgsl'], name: 'WebGPU', available: false, why: probe.why, fingerprint: fingerprintOf({ device: 'webgpu', unavailable: true }), details: {} };
    }
    const ctx = await gpu();
    const info = ((ctx.device as unknown as { adapterInfo?: GPUAdapterInfo }).adapterInfo ?? {}) as Partial<GPUAdapterInfo>;
    const id = {
      device: 'webgpu',
      vendor: info.vendor ?? '',
      architecture: info.architecture ?? '',
      adapter: info.device ?? '',
      description: info.description ?? '',
      backend: ctx.backend === 'default' ? ctx.adapterName.split(' / ').pop() ?? 'default' : ctx.backend,
    };
    const limits: Record<string, number> = {};
    for (const k in ctx.limits) {
      const v = (ctx.limits as unknown as Record<string, unknown>)[k];
      if (typeof v === 'number') limits[k] = v;
    }
    const dev: Device = {
      id: 'webgpu',
      target: 'wgsl',
      targets: ['wgsl'],
      name: ctx.adapterName,
      available: true,
      fingerprint: fingerprintOf(id),
      ...(id.vendor ? { vendor: id.vendor } : {}),
      ...(id.architecture ? { architecture: id.architecture } : {}),
      details: { ...id, isFallbackAdapter: (info as { isFallbackAdapter?: boolean }).isFallbackAdapter, limits },
    };
    return withGpujs(dev, await probeGpujs('webgpu'));
  })();
  return webgpuPromise;
}

/** Both devices; WebGPU is probed only when `ids` asks for it (default: both). */
export async function detectDevices(ids: readonly DeviceId[] = DEVICE_IDS): Promise<Device[]> {
  const out: Device[] = [];
  for (const id of ids) out.push(await deviceById(id));
  return out;
}

/** One device by id, its gpu.js modes probed (`cpu` options: injected probe results). */
export async function deviceById(id: DeviceId, o: CpuDeviceOptions = {}): Promise<Device> {
  return id === 'cpu' ? cpuDevice({ ...o, gpujs: o.gpujs ?? (await probeGpujs('cpu')) }) : webgpuDevice();
}

/** For WebGPU: a function telling whether the shared device has been lost since this call. */
export async function watchDeviceLost(device: Device): Promise<() => boolean> {
  if (device.id !== 'webgpu' || !device.available) return () => false;
  const { gpu } = await import('../backends/webgpu.ts');
  let lost = false;
  void (await gpu()).device.lost.then(() => {
    lost = true;
  });
  return () => lost;
}
