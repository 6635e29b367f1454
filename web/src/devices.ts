// What this browser offers the kernels, seen from the page itself, each with the reason when it
// is missing: WebGPU (the adapter, its info and limits), WebAssembly SIMD, threads (Web Workers
// over SharedArrayBuffer, which needs a cross-origin isolated page), WebGL (gpu.js's WebGL mode)
// and IndexedDB (the resumable tuning cache). The core's own view (fingerprints, targets, gpu.js
// modes) comes from the worker (runtime/tune/devices.ts detectDevices).

export interface DeviceFact {
  id: 'webgpu' | 'wasm-simd' | 'threads' | 'webgl' | 'storage';
  what: string;
  ok: boolean;
  detail: string;
  why?: string;
}

/** A module with one v128 function (i8x16.splat, i8x16.popcnt): validates only where WebAssembly SIMD is. */
const SIMD_PROBE = new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 10, 1, 8, 0, 65, 0, 253, 15, 253, 98, 11]);

const LIMITS = ['maxComputeWorkgroupSizeX', 'maxComputeInvocationsPerWorkgroup', 'maxComputeWorkgroupStorageSize', 'maxStorageBufferBindingSize', 'maxBufferSize', 'maxComputeWorkgroupsPerDimension'] as const;

async function webgpu(): Promise<DeviceFact> {
  const what = 'WebGPU (WGSL kernels, gpu.js WebGPU mode)';
  const gpu = (navigator as Navigator & { gpu?: GPU }).gpu;
  if (!gpu) {
    return { id: 'webgpu', what, ok: false, detail: '', why: isSecureContext ? 'navigator.gpu is absent: this browser has no WebGPU, or it is turned off (Chromium: chrome://flags/#enable-unsafe-webgpu on Linux); the WGSL kernels are left out and the CPU ones run' : 'navigator.gpu is absent: WebGPU needs a secure context (https, or http://localhost)' };
  }
  let adapter: GPUAdapter | null = null;
  try {
    adapter = await gpu.requestAdapter();
  } catch (e) {
    return { id: 'webgpu', what, ok: false, detail: '', why: `requestAdapter() failed: ${(e as Error).message}` };
  }
  if (!adapter) return { id: 'webgpu', what, ok: false, detail: '', why: 'requestAdapter() found no adapter (no GPU, a blocklisted driver, or WebGPU disabled); the WGSL kernels are left out and the CPU ones run' };
  const info = adapter.info;
  const name = [info.vendor, info.architecture, info.device, info.description].filter(Boolean).join(' / ') || 'unnamed adapter';
  const limits = LIMITS.map((k) => `${k} ${(adapter!.limits as unknown as Record<string, number>)[k]}`).join(', ');
  const fallback = (info as GPUAdapterInfo & { isFallbackAdapter?: boolean }).isFallbackAdapter ? ' (a fallback, software adapter)' : '';
  return { id: 'webgpu', what, ok: true, detail: `${name}${fallback}; f16: ${adapter.features.has('shader-f16') ? 'yes' : 'no'}; ${limits}` };
}

function wasmSimd(): DeviceFact {
  const what = 'WebAssembly SIMD (wasm kernels, gpu.js webasm)';
  if (typeof WebAssembly !== 'object') return { id: 'wasm-simd', what, ok: false, detail: '', why: 'WebAssembly is absent (turned off in this browser)' };
  const ok = WebAssembly.validate(SIMD_PROBE);
  return ok ? { id: 'wasm-simd', what, ok, detail: '128-bit SIMD validates' } : { id: 'wasm-simd', what, ok, detail: '', why: 'a module using v128 does not validate: this browser has WebAssembly without SIMD; the wasm kernels are left out' };
}

function threads(): DeviceFact {
  const what = 'threads (Web Workers over SharedArrayBuffer)';
  const cores = navigator.hardwareConcurrency ?? 1;
  if (!crossOriginIsolated) return { id: 'threads', what, ok: false, detail: '', why: `the page is not cross-origin isolated (it was served without the COOP/COEP headers that \`kernforge serve\` sends), so SharedArrayBuffer is unavailable: the CPU kernels run on one thread (${cores} logical CPUs here)` };
  if (typeof SharedArrayBuffer !== 'function') return { id: 'threads', what, ok: false, detail: '', why: 'SharedArrayBuffer is absent in this browser: the CPU kernels run on one thread' };
  return { id: 'threads', what, ok: true, detail: `${cores} logical CPUs; cross-origin isolated, SharedArrayBuffer available` };
}

function webgl(): DeviceFact {
  const what = 'WebGL 2 (gpu.js WebGL mode)';
  try {
    const gl = document.createElement('canvas').getContext('webgl2');
    if (!gl) return { id: 'webgl', what, ok: false, detail: '', why: 'getContext("webgl2") returned null (no GPU driver, or WebGL disabled): gpu.js runs in its other modes' };
    const dbg = gl.getExtension('WEBGL_debug_renderer_info');
    const r = dbg ? gl.getParameter(dbg.UNMASKED_RENDERER_WEBGL) : gl.getParameter(gl.RENDERER);
    gl.getExtension('WEBGL_lose_context')?.loseContext();
    return { id: 'webgl', what, ok: true, detail: String(r) };
  } catch (e) {
    return { id: 'webgl', what, ok: false, detail: '', why: `WebGL failed: ${(e as Error).message}` };
  }
}

function storage(): DeviceFact {
  const what = 'IndexedDB (the tuning cache and artefact, kept across reloads)';
  return typeof indexedDB === 'object' && indexedDB
    ? { id: 'storage', what, ok: true, detail: 'available: a reload in the middle of a tune goes on from what was measured' }
    : { id: 'storage', what, ok: false, detail: '', why: 'IndexedDB is absent (a private window, or storage turned off): measurements last until the page is closed' };
}

/** Every fact, WebGPU first. */
export async function deviceFacts(): Promise<DeviceFact[]> {
  return [await webgpu(), wasmSimd(), threads(), webgl(), storage()];
}
