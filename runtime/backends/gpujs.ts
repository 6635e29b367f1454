// gpu.js backends, shared by every family's gpujs target. A variant names its mode; this module
// says whether the mode really runs here (a probe compiles and runs a tiny kernel and checks the
// kernel class gpu.js chose, since its automatic modes fall back silently), hands out GPU
// instances in that mode, and calls kernels the same way whatever the mode (webgpu kernels return
// Promises, the others return their result).
//   cpu         JavaScript on this thread
//   webasm      gpu.js's WebAssembly backend
//   headlessgl  WebGL through the `gl` package: needs it built and a display (xvfb-run -a); on
//               the browser platform the browser's own WebGL2 (gpu.js mode webgl2)
//   webgpu      WGSL compute shaders through Dawn (the `webgpu` package), on the adapter the
//               WGSL target uses (runtime/backends/webgpu.ts): navigator.gpu is wired to it
// gpujsBackend (at the end) is the gpujs target's Backend (runtime/backends/backend.ts).
import { KernforgeError } from '../errors.ts';
import { platform } from '../platform.ts';
import { gpujsModule } from '../variants.ts';
import type { Backend } from './backend.ts';
import type { GPU } from 'gpu.js';

/** gpu.js itself, loaded on first use (importing kernforge does not load it). */
let gpujsLib: Promise<typeof import('gpu.js')> | undefined;
const loadGpujs = (): Promise<typeof import('gpu.js')> => (gpujsLib ??= import('gpu.js'));

/** The gpu.js backend a gpujs variant runs on: cpu (JavaScript), webasm (WebAssembly), headlessgl (WebGL through `gl`, needs a display) or webgpu (Dawn). */
import { GPUJS_MODES, GPUJS_MODES_ON, type GpujsMode } from './gpujs-modes.ts';
export { GPUJS_MODES, type GpujsMode };

/** The kernel class gpu.js must pick for each mode. */
const KERNEL_CLASS: Record<GpujsMode, string> = { cpu: 'CPUKernel', webasm: 'WebAssemblyKernel', headlessgl: 'HeadlessGLKernel', webgpu: 'WebGPUKernel' };

/**
 * The gpu.js mode a variant's mode is run in here, and the kernel class gpu.js must pick: the
 * mode itself, but in a browser WebGL is the page's own (gpu.js webgl2), not headless-gl.
 */
function libMode(mode: GpujsMode): { mode: string; cls: string } {
  if (mode === 'headlessgl' && platform().name === 'browser') return { mode: 'webgl2', cls: 'WebGL2Kernel' };
  return { mode, cls: KERNEL_CLASS[mode] };
}

/** A gpu.js mode that is not available here; the message says why and what it takes. */
export class GpujsModeError extends KernforgeError {}

export type GpujsProbe = { ok: true } | { ok: false; why: string };

const probes = new Map<GpujsMode, Promise<GpujsProbe>>();
let navigatorReady: Promise<void> | undefined;

/** Define globalThis.navigator.gpu (Node has none) from the shared WebGPU instance (Dawn, or the browser's), once. */
function wireNavigator(): Promise<void> {
  navigatorReady ??= (async () => {
    const { navigatorGpu } = await import('./webgpu.ts');
    const g = await navigatorGpu();
    const nav = (globalThis as unknown as { navigator?: Record<string, unknown> }).navigator;
    // a browser's own navigator.gpu is shadowed too: gpu.js's devices then get the adapter's
    // storage-buffer limits (webgpu.ts navigatorGpu), not WebGPU's default of 8 per stage
    if (nav && nav.gpu && platform().name !== 'browser') return;
    if (nav) Object.defineProperty(nav, 'gpu', { value: g, configurable: true });
    else Object.defineProperty(globalThis, 'navigator', { value: { gpu: g }, configurable: true, writable: true });
  })();
  navigatorReady.catch(() => {
    navigatorReady = undefined;
  });
  return navigatorReady;
}

/** The name gpu.js's kernel object has (which backend really compiled it). */
export function kernelClass(kernel: unknown): string | undefined {
  return (kernel as { kernel?: { constructor: { name: string } } }).kernel?.constructor.name;
}

/** A hint on what a mode needs, appended to probe failures. */
function hint(mode: GpujsMode): string {
  if (mode === 'headlessgl' && platform().name === 'browser') return ' (the browser gives no WebGL2 context)';
  if (mode === 'headlessgl') return platform().env('DISPLAY') ? ' (the gl package may not be built)' : ' (no DISPLAY: run under xvfb-run -a; the gl package must be built)';
  if (mode === 'webgpu') return ' (needs a WebGPU adapter from Dawn: a GPU, or Mesa llvmpipe with libegl1 libegl-mesa0 libgl1-mesa-dri)';
  return '';
}

/**
 * Whether gpu.js runs `mode` here: a tiny kernel must compile on the expected kernel class and
 * give the right numbers. Cached per process; never throws.
 */
export function probeGpujsMode(mode: GpujsMode): Promise<GpujsProbe> {
  let p = probes.get(mode);
  if (!p) {
    p = (async (): Promise<GpujsProbe> => {
      if (!(mode in KERNEL_CLASS)) return { ok: false, why: `unknown gpu.js mode "${mode}" (known: ${GPUJS_MODES.join(', ')})` };
      let gpu: GPU | undefined;
      try {
        const webgpu = await import('./webgpu.ts');
        // headless-gl (GLX) and Dawn on Mesa's GL cannot share a process (an X error kills it)
        const browser = platform().name === 'browser';
        if (mode === 'headlessgl' && !browser && webgpu.dawnOpened()) {
          return { ok: false, why: 'gpu.js mode headlessgl is not available in this process: WebGPU (Dawn) is open here, and Mesa cannot serve headless-gl and Dawn in one process (run headlessgl variants in a process of their own, e.g. kernforge run gem --variant ...headlessgl under xvfb-run)' };
        }
        if (mode === 'webgpu') await wireNavigator();
        const { GPU } = await loadGpujs();
        const lib = libMode(mode);
        gpu = new GPU({ mode: lib.mode as GpujsMode });
        const k = gpu.createKernel(function (this: { thread: { x: number } }, a: number[]) {
          return a[this.thread.x]! * 2.5;
        }, { output: [3], precision: 'single' });
        const out = Array.from((await k(new Float32Array([1, 2, 3]))) as Float32Array);
        const cls = kernelClass(k);
        if (cls !== lib.cls) throw new Error(`gpu.js chose ${cls ?? 'no kernel'} instead of ${lib.cls}`);
        if (out.join() !== '2.5,5,7.5') throw new Error(`a test kernel gave ${out.join(', ')}`);
        if (mode === 'headlessgl' && !browser) webgpu.markHeadlessGlInUse('gpu.js headlessgl mode is in use');
        return { ok: true };
      } catch (e) {
        return { ok: false, why: `gpu.js mode ${mode} is not available here: ${(e as Error).message}${hint(mode)}` };
      } finally {
        try {
          gpu?.destroy();
        } catch {
          // destroying a half-made GPU may throw; nothing to release then
        }
      }
    })();
    probes.set(mode, p);
  }
  return p;
}

/** The modes among `modes` that run here, and why each other one does not. */
export async function availableGpujsModes(modes: readonly GpujsMode[] = GPUJS_MODES): Promise<{ modes: GpujsMode[]; unavailable: Partial<Record<GpujsMode, string>> }> {
  const out: GpujsMode[] = [];
  const unavailable: Partial<Record<GpujsMode, string>> = {};
  for (const m of modes) {
    const r = await probeGpujsMode(m);
    if (r.ok) out.push(m);
    else unavailable[m] = r.why;
  }
  return { modes: out, unavailable };
}

/** A GPU instance in `mode`; GpujsModeError (with the probe's reason) when the mode does not run here. */
export async function gpujsFor(mode: GpujsMode): Promise<GPU> {
  const r = await probeGpujsMode(mode);
  if (!r.ok) throw new GpujsModeError(r.why);
  const { GPU } = await loadGpujs();
  return new GPU({ mode: libMode(mode).mode as GpujsMode });
}

/**
 * Call a gpu.js kernel and await its result (webgpu kernels return a Promise, the others the
 * value). With `expect`, also check that gpu.js compiled it for that mode (its kernel class after
 * the call; GpujsModeError naming `key` when it fell back to another backend).
 */
export async function callKernel<T = Float32Array>(kernel: unknown, args: readonly unknown[], expect?: { mode: GpujsMode; key: string }): Promise<T> {
  if (expect?.mode === 'webgpu') {
    // gpu.js's webgpu mode binds one storage buffer per array argument and one for the output: a
    // kernel that needs more than the adapter allows is refused here, in one line, instead of
    // failing inside gpu.js (which also logs a console error)
    const buffers = args.filter((a) => ArrayBuffer.isView(a) || Array.isArray(a)).length + 1;
    const { gpu } = await import('./webgpu.ts');
    const max = (await gpu()).limits.maxStorageBuffersPerShaderStage;
    if (buffers > max) throw new GpujsModeError(`${expect.key} needs ${buffers} storage buffers in gpu.js's webgpu mode (one per array argument and one for the output); this WebGPU adapter allows ${max} per shader stage`);
  }
  const out = (await (kernel as (...a: unknown[]) => unknown)(...args)) as T;
  if (expect) {
    const cls = kernelClass(kernel);
    const want = libMode(expect.mode).cls;
    if (cls !== want) throw new GpujsModeError(`gpu.js ran ${expect.key} as ${cls ?? 'no kernel'}, not ${want}`);
  }
  return out;
}

/** Whether KERNFORGE_GPUJS turns the gpujs target off (off, 0, no, false), and its value. */
function turnedOff(): string | undefined {
  const off = platform().env('KERNFORGE_GPUJS');
  return /^(off|0|no|false)$/i.test(off ?? '') ? off : undefined;
}

/** The modes available() probes when no mode is named: those that cannot keep Dawn or headless-gl from opening later. */
const SAFE_MODES: readonly GpujsMode[] = GPUJS_MODES_ON.cpu;

/**
 * The gpu.js target: a variant's module (its `kernel` a gpu.js kernel function) runs in the mode
 * its key names. available(mode) probes that mode; without a mode, the CPU modes (cpu, webasm):
 * probing headlessgl or webgpu decides which of headless-gl and Dawn this process may open, so
 * they are probed only when named. KERNFORGE_GPUJS=off turns the target off.
 */
export const gpujsBackend: Backend<unknown> = {
  target: 'gpujs',
  description: 'gpu.js kernels in the mode each variant names (cpu, webasm, headlessgl, webgpu)',
  threaded: false,
  async available(mode) {
    const off = turnedOff();
    if (off !== undefined) return { ok: false, why: `turned off by KERNFORGE_GPUJS=${off}` };
    if (mode !== undefined) {
      const r = await probeGpujsMode(mode as GpujsMode);
      return r.ok ? { ok: true, detail: `gpu.js ${mode} mode` } : r;
    }
    const a = await availableGpujsModes(SAFE_MODES);
    if (a.modes.length > 0) return { ok: true, detail: `gpu.js modes ${a.modes.join(', ')} (headlessgl and webgpu are probed when named)` };
    return { ok: false, why: SAFE_MODES.map((m) => a.unavailable[m]).join('; ') };
  },
  load: (key) => gpujsModule<unknown>(key),
};
