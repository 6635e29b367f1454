// Devices the tuner can measure on: the CPU (TypeScript variants) and a WebGPU adapter (WGSL
// variants). Each has a fingerprint, a stable hex hash of what makes timings comparable: for
// the CPU its model, core count and the Node version; for WebGPU the adapter's vendor,
// architecture, device and description (which carries the driver, e.g. "Mesa 22.3.6") and Dawn's
// backend (Vulkan, OpenGL ES, ...). Tuning results are stored per fingerprint
// (runtime/tune/cache.ts), so a new machine, driver or Node version starts afresh.
// A device that is absent is reported with `available: false` and the reason, never thrown.
import { createHash } from 'node:crypto';
import { cpus, totalmem, platform, arch } from 'node:os';

export type DeviceId = 'cpu' | 'webgpu';
export type DeviceTarget = 'ts' | 'wgsl';

export interface Device {
  id: DeviceId;
  /** The generated target whose variants run on it. */
  target: DeviceTarget;
  name: string;
  available: boolean;
  /** Why the device is not available. */
  why?: string;
  /** Stable hex hash (16 digits) of the identifying properties. */
  fingerprint: string;
  /** Limits, backend, core count and the like (JSON-able). */
  details: Record<string, unknown>;
}

export const DEVICE_IDS: readonly DeviceId[] = ['cpu', 'webgpu'];

/** Stable 16-hex-digit hash of the fields, in the given order. */
export function fingerprintOf(fields: Record<string, unknown>): string {
  return createHash('sha256').update(JSON.stringify(fields)).digest('hex').slice(0, 16);
}

/** The CPU device (always available). */
export function cpuDevice(): Device {
  const list = cpus();
  const model = (list[0]?.model ?? 'unknown CPU').trim();
  const cores = list.length;
  const node = process.version;
  return {
    id: 'cpu',
    target: 'ts',
    name: `${model} x ${cores}, node ${node}`,
    available: true,
    fingerprint: fingerprintOf({ device: 'cpu', model, cores, node }),
    details: { model, cores, node, v8: process.versions.v8, platform: platform(), arch: arch(), memoryBytes: totalmem(), speedMHz: list[0]?.speed },
  };
}

let webgpuPromise: Promise<Device> | undefined;

/** The WebGPU device: the adapter the runtime uses (a real GPU, else Mesa llvmpipe). Probed once per process. */
export function webgpuDevice(): Promise<Device> {
  webgpuPromise ??= (async (): Promise<Device> => {
    const { probeGpu, gpu } = await import('../backends/webgpu.ts');
    const probe = await probeGpu();
    if (!probe.ok) {
      return { id: 'webgpu', target: 'wgsl', name: 'WebGPU', available: false, why: probe.why, fingerprint: fingerprintOf({ device: 'webgpu', unavailable: true }), details: {} };
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
    return {
      id: 'webgpu',
      target: 'wgsl',
      name: ctx.adapterName,
      available: true,
      fingerprint: fingerprintOf(id),
      details: { ...id, isFallbackAdapter: (info as { isFallbackAdapter?: boolean }).isFallbackAdapter, limits },
    };
  })();
  return webgpuPromise;
}

/** Both devices; WebGPU is probed only when `ids` asks for it (default: both). */
export async function detectDevices(ids: readonly DeviceId[] = DEVICE_IDS): Promise<Device[]> {
  const out: Device[] = [];
  for (const id of ids) out.push(id === 'cpu' ? cpuDevice() : await webgpuDevice());
  return out;
}

/** One device by id. */
export async function deviceById(id: DeviceId): Promise<Device> {
  return id === 'cpu' ? cpuDevice() : webgpuDevice();
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
