// gem-potential gpu.js variants: the generated file is a JavaScript module whose `kernel` is a
// gpu.js kernel function (one thread per vertex, a loop over the atoms); gpu.js compiles it for
// the backend the variant names (`mode`: cpu, webasm, headlessgl or webgpu; runtime/backends/gpujs.ts). The atom-independent terms
// are folded on the host in f64 (as for WGSL) and handed over as kernel constants; the arrays go
// in as Float32Array, phi comes back as f32 (precision 'single').
import { callKernel, gpujsFor, type GpujsMode } from '../backends/gpujs.ts';
import { variantParams } from '../variants.ts';
import { backend } from '../backends/registry.ts';
import type { GemAtoms, GemVertices } from './io.ts';
import { gemParams, type GemParams, type GemRegion } from './model.ts';
import { checkVariant, gemVariantInfo, type GemRunOptions, type GemRunResult } from './run.ts';
import { gemWgslConstants } from './wgsl.ts';

export { GpujsModeError, probeGpujsMode, type GpujsMode } from '../backends/gpujs.ts';

/** A generated gpu.js variant module. */
export interface GemGpujsModule {
  /** Canonical variant key. */
  key: string;
  /** The gpu.js backend the variant runs on. */
  MODE: GpujsMode;
  /** Names of the float constants the kernel reads (this.constants), folded on the host in f64. */
  CONSTANTS: string[];
  /** The gpu.js kernel function (one thread per vertex); gpu.js parses its source, so it is never called directly. */
  kernel: (...args: Float32Array[]) => number;
}

/** The source text of a gpu.js variant: the library file, or rendered on demand. */
export { gpujsSource } from '../variants.ts';

/** The module of a gpu.js variant (imported from its text; it has no imports of its own). */
export function loadGpujsModule(key: string): Promise<GemGpujsModule> {
  return backend('gpujs').load(key) as Promise<GemGpujsModule>;
}

/** A gpu.js variant's kernel built for one problem: run it repeatedly (timing), then destroy it. */
export interface PreparedGemGpujs {
  /** Run the kernel once over every vertex; returns phi (f32 widened to f64). */
  run(): Promise<Float64Array>;
  /** Release the gpu.js instance. */
  destroy(): void;
  /** The kernel constants used. */
  params: GemParams;
  /** The region the variant computes. */
  region: GemRegion;
  /** The gpu.js backend it runs on. */
  mode: GpujsMode;
}

/** Build a gpu.js variant's kernel for one problem (compiled on the first run). */
export async function prepareGemGpujs(key: string, atoms: GemAtoms, v: GemVertices, opts: GemRunOptions = {}): Promise<PreparedGemGpujs> {
  const p = await variantParams(key);
  if (p.target !== 'gpujs') throw new Error(`variant ${key} is a ${p.target} variant, not gpu.js (use runGem or runGemWgsl)`);
  const info = await gemVariantInfo(key);
  const params = opts.params ?? gemParams(atoms, opts);
  checkVariant(key, info, params);
  const mod = await loadGpujsModule(key);
  const mode = mod.MODE;
  const salt = info.salt === 'nonzero';
  const c = gemWgslConstants(atoms, params, info.region, salt);
  const all: Record<string, number> = { p: params.p, ion: params.ionRadius, kappa: salt ? params.kappa : 0, g: c.g, h: c.h, kc: c.kc, scale: c.scale, phi0: c.phi0 };
  const constants: Record<string, number> = { na: atoms.n };
  const constantTypes: Record<string, string> = { na: 'Integer' };
  for (const n of mod.CONSTANTS) {
    constants[n] = all[n]!;
    constantTypes[n] = 'Float';
  }
  const f32 = (a: Float64Array): Float32Array => Float32Array.from(a);
  // gpu.js textures need at least one element; an empty problem never reaches the kernel.
  const nonEmpty = (a: Float64Array): Float32Array => (a.length > 0 ? f32(a) : new Float32Array(1));
  const inputs = [v.x, v.y, v.z, v.nx, v.ny, v.nz, atoms.x, atoms.y, atoms.z, atoms.q].map(nonEmpty);
  const gpu = await gpujsFor(mode);
  const kernel = gpu.createKernel(mod.kernel, {
    output: [Math.max(v.n, 1)],
    constants,
    constantTypes,
    precision: 'single',
    loopMaxIterations: Math.max(atoms.n, 1),
    tactic: 'precision',
  } as never);
  return {
    params,
    region: info.region,
    mode,
    async run() {
      if (v.n === 0) return new Float64Array(0);
      const out = await callKernel<Float32Array>(kernel, inputs, { mode, key });
      return Float64Array.from(out.subarray(0, v.n));
    },
    destroy() {
      gpu.destroy();
    },
  };
}

/** Run one gpu.js variant over all vertices and atoms (the gpu.js counterpart of runGem). */
export async function runGemGpujs(key: string, atoms: GemAtoms, vertices: GemVertices, opts: GemRunOptions = {}): Promise<GemRunResult> {
  const prep = await prepareGemGpujs(key, atoms, vertices, opts);
  try {
    return { phi: await prep.run(), params: prep.params, region: prep.region };
  } finally {
    prep.destroy();
  }
}
