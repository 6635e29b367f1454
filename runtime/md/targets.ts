// md-nonbonded's runners, one per target, behind one interface: prepare binds a variant to a
// problem (clusters and pair list; WGSL: uploaded), run zeroes the outputs and makes one kernel
// call over the list (the timed part), result reads the outputs back and post-processes them
// (forces in atom order, energies with the self terms, the virial), dispose frees what prepare
// took. The gate (runtime/md/verify.ts), the open() handle, the tuning family and the benchmark
// dispatch on a key's target through MD_TARGETS; adding a target is one line here (with its
// backend, runtime/backends/registry.ts). The engine's force call (runtime/md/forces.ts
// NonbondedForce) runs the targets whose runner has `kernel` (ts, wasm) its own way: positions
// packed in, forces out, on worker threads.
import { backend } from '../backends/registry.ts';
import { TargetTable } from '../backends/table.ts';
import { checkShape, mdShape, type MdTsModule } from './kernels.ts';
import type { MdProblem, Precision } from './problem.ts';
import type { MdResult } from './reference.ts';

/** One problem bound to one variant: run it (repeatedly, for timing), read the result back, dispose. */
export interface PreparedMd {
  /** Zero the outputs and run the kernel once over the problem's list (WGSL: one dispatch, waited for; no read-back). */
  run(): Promise<void>;
  /** The outputs of the last run, post-processed: forces in atom order, energies, virial. */
  result(): Promise<MdResult>;
  /** Free what prepare took (GPU buffers, a gpu.js instance). */
  dispose(): void | Promise<void>;
  /** Where it runs (e.g. `WebGPU <adapter>`). */
  device: string;
}

/** md-nonbonded's runner for one target. */
export interface MdTargetRunner {
  /** Bind variant `key` to `problem` (its cluster shape and list kind checked). */
  prepare(key: string, problem: MdProblem): Promise<PreparedMd>;
  /**
   * The variant behind the TypeScript kernel interface (key, M, N, kernel(MdArgs)), for targets
   * the engine's force call runs (ts, wasm): what loadTuned hands out. Absent for the others.
   */
  kernel?(key: string): Promise<MdTsModule>;
}

/** Zero every output array (forces, energies, shift forces accumulate). */
function zero(out: Record<string, Float32Array | Float64Array>): void {
  for (const a of Object.values(out)) a.fill(0);
}

/**
 * A runner for kernels behind the TypeScript kernel interface (TS modules, wasm instances):
 * one call on this thread over the problem's arguments in `precision` (the variant's).
 */
function kernelRunner(load: (key: string) => Promise<MdTsModule>, precisionOf: (p: Precision) => Precision, device: string): MdTargetRunner {
  return {
    kernel: load,
    async prepare(key, problem) {
      const mod = await load(key);
      const shape = await mdShape(key);
      checkShape(key, shape, problem);
      const prec = precisionOf(shape.precision);
      const out = problem.outputs(prec);
      const args = { ...problem.args(prec), ...out };
      return {
        run: async () => {
          zero(out);
          mod.kernel(args);
        },
        result: async () => problem.finish(prec, out),
        dispose() {},
        device,
      };
    },
  };
}

/** TypeScript: the module's kernel on this thread, in the variant's precision. */
const tsRunner = kernelRunner(async (key) => (await backend('ts').load(key)) as MdTsModule, (p) => p, 'TypeScript (this process, one thread)');

/** WebAssembly SIMD: the variant's instance behind the TS kernel interface (runtime/md/wasm.ts), in its precision (f32x4 or f64x2). */
const wasmRunner = kernelRunner(async (key) => (await import('./wasm.ts')).loadWasmKernel(key), (p) => p, 'WebAssembly SIMD (this process, one thread)');

/** WGSL: the problem uploaded to the WebGPU adapter (runtime/md/wgsl.ts prepareWgsl); run is one dispatch. */
const wgslRunner: MdTargetRunner = {
  async prepare(key, problem) {
    const prep = await (await import('./wgsl.ts')).prepareWgsl(key, problem);
    return { run: () => prep.dispatch(), result: () => prep.result(), dispose: () => prep.destroy(), device: `WebGPU ${prep.adapterName}` };
  },
};

/** gpu.js: the variant's kernel in its mode over the full list in f32 (runtime/md/gpujs.ts), compiled on the first run. */
const gpujsRunner: MdTargetRunner = {
  async prepare(key, problem) {
    const shape = await mdShape(key);
    checkShape(key, shape, problem);
    const k = await (await import('./gpujs.ts')).loadGpujsKernel(key);
    const out = problem.outputs('f32');
    const args = { ...problem.args('f32'), ...out };
    return {
      run: async () => {
        zero(out);
        await k.run(args);
      },
      result: async () => problem.finish('f32', out),
      dispose: () => k.destroy(),
      device: `gpu.js ${k.mode} mode (this process)`,
    };
  },
};

/** md-nonbonded's runners by target, one line each. */
export const MD_TARGETS = new TargetTable<MdTargetRunner>('md-nonbonded', {
  ts: tsRunner,
  wasm: wasmRunner,
  wgsl: wgslRunner,
  gpujs: gpujsRunner,
});

/** Run variant `key` once over `problem` on its target's runner (prepare, run, read back, dispose); `purpose` names the caller in a missing-runner error. */
export async function runMdKey(key: string, problem: MdProblem, purpose: string): Promise<MdResult> {
  const prep = await MD_TARGETS.get((await mdShape(key)).target, purpose).prepare(key, problem);
  try {
    await prep.run();
    return await prep.result();
  } finally {
    await prep.dispose();
  }
}
