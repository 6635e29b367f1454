// The gpu.js modes: the one list, read by the backend (runtime/backends/gpujs.ts), the devices,
// the generator's spec checks and the benchmarks. A leaf module: it imports nothing.

/** A gpu.js backend: JavaScript (cpu), its WebAssembly backend (webasm), WebGL through headless-gl (headlessgl), WebGPU (webgpu). */
export type GpujsMode = 'cpu' | 'webasm' | 'headlessgl' | 'webgpu';
/** Every gpu.js mode a gpujs variant may name. */
export const GPUJS_MODES: readonly GpujsMode[] = ['cpu', 'webasm', 'headlessgl', 'webgpu'];
/** The modes by the device they compute on: the CPU runs cpu and webasm, the GPU device headlessgl (WebGL) and webgpu. */
export const GPUJS_MODES_ON = { cpu: ['cpu', 'webasm'], webgpu: ['headlessgl', 'webgpu'] } as const satisfies Record<string, readonly GpujsMode[]>;
