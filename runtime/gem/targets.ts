// gem-potential's runners, one per target, behind one interface: prepare lays one problem out
// for a variant (upload), then run computes the potential on every vertex (the timed part),
// result reads it back and dispose frees what prepare took. The gate (runtime/gem/gate.ts
// verifyGemKey), the workload (`kernforge run gem`), the open() handle, the tuning family and the
// benchmarks dispatch on a key's target through GEM_TARGETS; adding a target is one line here
// (with its backend, runtime/backends/registry.ts).
import { backend } from '../backends/registry.ts';
import { TargetTable } from '../backends/table.ts';
import { NoAdapterError } from '../backends/webgpu.ts';
import { GpujsModeError } from '../backends/gpujs.ts';
import { UserError } from '../errors.ts';
import { Pool, parseThreads } from '../parallel/pool.ts';
import type { GemAtoms, GemVertices } from './io.ts';
import type { GemParams } from './model.ts';
import { gemArgs, gemVariantInfo, runGemParallel, shareGemArgs, type GemPrecision, type GemTsModule } from './run.ts';

/** Options of GemTargetRunner.prepare. */
export interface GemPrepareOptions {
  /** The kernel constants (gemParams of the atoms and the settings). */
  params: GemParams;
  /** Worker threads the vertices are split over (ts and wasm; default 1: this thread); a pool of them is started and closed by dispose. */
  threads?: number;
  /** A pool to split the vertices over instead (ts and wasm; its size is the thread count; left open). */
  pool?: Pool;
}

/** One problem laid out for one variant: run it (repeatedly, for timing), read the potential back, dispose. */
export interface PreparedGem {
  /** Compute the potential on every vertex once (WGSL: one dispatch, waited for; no read-back). */
  run(): Promise<void>;
  /** The potential of the last run per vertex (kcal/mol/e), widened to f64. */
  result(): Promise<Float64Array>;
  /** Free what prepare took (GPU buffers, a gpu.js instance, a pool it started). */
  dispose(): void | Promise<void>;
  /** Where it runs, for the workload's summary (e.g. `WebAssembly SIMD (this process, one thread)`). */
  device: string;
  /** The precision it computes and accumulates in: the gate's tolerance (WGSL and gpu.js: f32). */
  precision: GemPrecision;
}

/** gem-potential's runner for one target. */
export interface GemTargetRunner {
  /** Lay out `atoms` and `vertices` for variant `key` (the region and salt of the params checked, except on ts). */
  prepare(key: string, atoms: GemAtoms, vertices: GemVertices, opts: GemPrepareOptions): Promise<PreparedGem>;
  /**
   * The workload's user error for an error of this target's gate that means the target does not
   * run here (no WebGPU adapter, a gpu.js mode that does not run); undefined for any other error.
   */
  unavailable?(key: string, e: unknown): UserError | undefined;
}

/** The thread count of the options: the pool's size, else opts.threads (default 1). */
const threadsOf = (o: GemPrepareOptions): number => (o.pool ? o.pool.size : parseThreads(o.threads ?? 1, 'threads'));

/** TypeScript: the module's kernel on this thread, or the vertices split over worker threads (runGemParallel). */
const tsRunner: GemTargetRunner = {
  async prepare(key, atoms, vertices, o) {
    const info = await gemVariantInfo(key);
    const mod = (await backend('ts').load(key)) as GemTsModule;
    const threads = threadsOf(o);
    if (threads > 1) {
      const own = o.pool ? undefined : await Pool.create(threads);
      const pool = o.pool ?? own!;
      try {
        await pool.preload([key]);
      } catch (e) {
        await own?.close();
        throw e;
      }
      const args = shareGemArgs(gemArgs(atoms, vertices, o.params, info.precision));
      return {
        run: () => runGemParallel(pool, key, args),
        result: async () => Float64Array.from(args.phi),
        dispose: async () => {
          await own?.close();
        },
        device: `TypeScript (this process, ${threads} worker threads)`,
        precision: info.precision,
      };
    }
    const args = gemArgs(atoms, vertices, o.params, info.precision);
    return {
      run: async () => mod.kernel(args),
      result: async () => Float64Array.from(args.phi),
      dispose() {},
      device: 'TypeScript (this process, one thread)',
      precision: info.precision,
    };
  },
};

/** WebAssembly SIMD: instances holding the problem (runtime/gem/wasm.ts prepareGemWasm), on this thread or every worker's. */
const wasmRunner: GemTargetRunner = {
  async prepare(key, atoms, vertices, o) {
    const { prepareGemWasm } = await import('./wasm.ts');
    const prep = await prepareGemWasm(key, atoms, vertices, { params: o.params, ...(o.pool ? { pool: o.pool } : { threads: o.threads }) });
    const { precision } = await gemVariantInfo(key);
    return {
      ...keepResult(() => prep.run()),
      dispose: () => prep.destroy(),
      device: `WebAssembly SIMD (this process, ${prep.threads > 1 ? `${prep.threads} worker threads` : 'one thread'})`,
      precision,
    };
  },
};

/** WGSL: the problem uploaded to the WebGPU adapter (runtime/gem/wgsl.ts prepareGemWgsl); run is one dispatch. */
const wgslRunner: GemTargetRunner = {
  async prepare(key, atoms, vertices, o) {
    const { prepareGemWgsl, gemAdapter } = await import('./wgsl.ts');
    const prep = await prepareGemWgsl(key, atoms, vertices, { params: o.params });
    const adapter = await gemAdapter();
    return {
      run: () => prep.dispatch(),
      result: () => prep.result(),
      dispose: () => prep.destroy(),
      device: `WebGPU ${adapter.name}${adapter.cpu ? ' (a CPU rasterizer, not a GPU)' : ''}`,
      precision: 'f32',
    };
  },
  unavailable(key, e) {
    if (!(e instanceof NoAdapterError)) return undefined;
    return new UserError(`variant ${key} is a WGSL variant and needs a WebGPU adapter, but ${e.message.replace(/^no WebGPU adapter: /, 'none was found: ')} (leave out --variant and --target wgsl, or give a gem-potential.ts key, to run on the CPU)`);
  },
};

/** gpu.js: the variant's kernel in its mode (runtime/gem/gpujs.ts prepareGemGpujs), compiled on the first run. */
const gpujsRunner: GemTargetRunner = {
  async prepare(key, atoms, vertices, o) {
    const { prepareGemGpujs } = await import('./gpujs.ts');
    const prep = await prepareGemGpujs(key, atoms, vertices, { params: o.params });
    return {
      ...keepResult(() => prep.run()),
      dispose: () => prep.destroy(),
      device: `gpu.js ${prep.mode} mode (this process)`,
      precision: 'f32',
    };
  },
  unavailable(key, e) {
    return e instanceof GpujsModeError ? new UserError(`variant ${key}: ${e.message} (leave out --variant, or give a gem-potential.ts key, to run on the CPU)`) : undefined;
  },
};

/** gem-potential's runners by target, one line each. */
export const GEM_TARGETS = new TargetTable<GemTargetRunner>('gem-potential', {
  ts: tsRunner,
  wasm: wasmRunner,
  wgsl: wgslRunner,
  gpujs: gpujsRunner,
});

/** Run variant `key` once over every vertex on its target's runner (prepare, run, read back, dispose); `purpose` names the caller in a missing-runner error. */
export async function runGemKey(key: string, target: string, atoms: GemAtoms, vertices: GemVertices, opts: GemPrepareOptions, purpose: string): Promise<Float64Array> {
  const prep = await GEM_TARGETS.get(target, purpose).prepare(key, atoms, vertices, opts);
  try {
    await prep.run();
    return await prep.result();
  } finally {
    await prep.dispose();
  }
}

/** run() and result() for a runner whose run returns the potentials: result() reads the last run's, running once if none was. */
function keepResult(run: () => Promise<Float64Array>): { run(): Promise<void>; result(): Promise<Float64Array> } {
  let phi: Float64Array | undefined;
  return {
    run: async () => {
      phi = await run();
    },
    result: async () => phi ?? (await run()),
  };
}
