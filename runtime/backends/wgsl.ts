// The WGSL backend: variants are WGSL compute shaders (library files, or rendered on demand),
// run on the shared WebGPU device (runtime/backends/webgpu.ts: a GPU through Dawn, else Mesa
// llvmpipe). load() gives the source text (read once per key); pipeline() compiles it into a
// compute pipeline with an explicit binding layout, as every family's WGSL runner needs.
import { wgslSource } from '../variants.ts';
import type { Backend } from './backend.ts';
import { gpu, pipeline, probeGpu, type BindingKind, type GpuContext } from './webgpu.ts';

/** The WGSL backend: load() gives the source; pipeline() the shared device and the compiled pipeline. */
export interface WgslBackend extends Backend<string> {
  /**
   * The shared WebGPU device and the variant's compute pipeline, whose group 0 holds `bindings`
   * in binding order (compiled once per source; compile errors carry the messages).
   * NoAdapterError where there is no adapter.
   */
  pipeline(key: string, bindings: BindingKind[]): Promise<{
    /** The shared device, its adapter's name and limits. */
    ctx: GpuContext;
    /** The compiled pipeline (entry point `main`). */
    pipeline: GPUComputePipeline;
  }>;
}

const sources = new Map<string, Promise<string>>();

/** The WGSL target: available where WebGPU gives an adapter. */
export const wgslBackend: WgslBackend = {
  target: 'wgsl',
  description: 'WGSL compute shaders on the WebGPU adapter',
  threaded: false,
  async available() {
    const p = await probeGpu();
    return p.ok ? { ok: true, detail: p.name } : { ok: false, why: p.why };
  },
  load(key) {
    let s = sources.get(key);
    if (!s) {
      s = wgslSource(key);
      s.catch(() => sources.delete(key));
      sources.set(key, s);
    }
    return s;
  },
  async pipeline(key, bindings) {
    const ctx = await gpu();
    const code = await wgslBackend.load(key);
    return { ctx, pipeline: await pipeline(ctx.device, code, key, bindings) };
  },
};
