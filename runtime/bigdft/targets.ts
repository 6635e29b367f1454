// bigdft-conv's runners, one per target, behind one interface: prepare binds a variant to a grid
// (buffers allocated, kernels compiled or loaded), then per application upload takes the input
// field, run applies the three 1-D passes (the timed part), result reads the output back, and
// dispose frees what prepare took. The gate (runtime/bigdft/verify.ts verifyConv), apply3d, the
// local Hamiltonian workload, the open() handle, the tuning family and the benchmark dispatch on
// a key's target through CONV_TARGETS; adding a target is one line here (with its backend,
// runtime/backends/registry.ts).
import { TargetTable } from '../backends/table.ts';
import type { Pool } from '../parallel/pool.ts';
import { kineticScale } from './conv.ts';
import type { Dims } from './reference.ts';

type Real = Float32Array | Float64Array;

/** Options of ConvTargetRunner.prepare. */
export interface ConvPrepareOptions {
  /** Grid spacings h1, h2, h3 of the kinetic operator (scale -1/(2 h_d^2)); default 1. */
  h?: Dims;
  /** ts and wasm: split each pass's lines over this pool's workers (left open). */
  pool?: Pool;
  /** wasm: another build of the variant's binary (tests of the gate). */
  wasmBytes?: Uint8Array;
  /** gpu.js: another text of the variant's module (tests of the gate). */
  gpujsSource?: string;
}

/** A variant bound to one grid: upload a field, run, read back (repeatedly), then dispose. */
export interface PreparedConv {
  /** The precision the variant stores the grid in (upload converts other arrays to it). */
  precision: 'f32' | 'f64';
  /**
   * Take the input field x[(i3*n2 + i2)*n1 + i1] (ts, wasm and gpu.js read it when they run: it
   * is kept, converted to `precision` unless it already is of it; WGSL writes it to the GPU now).
   */
  upload(x: ArrayLike<number>): void | Promise<void>;
  /** Apply the three passes to the uploaded field (WGSL: three dispatches, waited for; gpu.js with its transfers). */
  run(): Promise<void>;
  /** The output of the last run, natural layout (ts, wasm: an internal buffer, valid until the next run). */
  result(): Promise<Real>;
  /** Free what prepare took (GPU buffers, a gpu.js instance, the workers' wasm instances of this grid). */
  dispose(): void | Promise<void>;
  /** Where it runs (e.g. `TypeScript (this process, 2 worker threads)`). */
  device: string;
}

/** bigdft-conv's runner for one target. */
export interface ConvTargetRunner {
  /** Bind variant `key` to an n1 x n2 x n3 grid (the grid checked against its filter: ConvInputError). */
  prepare(key: string, dims: Dims, o?: ConvPrepareOptions): Promise<PreparedConv>;
}

/** `x` as an array of `precision`: itself when it already is one. */
function asPrecision(x: ArrayLike<number>, precision: 'f32' | 'f64'): Real {
  if (precision === 'f32') return x instanceof Float32Array ? x : Float32Array.from(x);
  return x instanceof Float64Array ? x : Float64Array.from(x);
}

/** A runner of a variant that computes when called (run(x) gives the output), around the upload/run/result interface. */
function computeOnRun(precision: 'f32' | 'f64', device: string, apply: (x: Real) => Real | Promise<Real>, dispose: () => void | Promise<void> = () => {}): PreparedConv {
  let x: Real | undefined;
  let y: Real | undefined;
  return {
    precision,
    upload(v) {
      x = asPrecision(v, precision);
    },
    async run() {
      if (!x) throw new Error('bigdft-conv runner: run() before upload()');
      y = await apply(x);
    },
    async result() {
      if (!y) throw new Error('bigdft-conv runner: result() before run()');
      return y;
    },
    dispose,
    device,
  };
}

/** Where a CPU variant runs: this thread, or the pool's workers. */
const cpuWhere = (threads: number): string => (threads > 1 ? `this process, ${threads} worker threads` : 'this process, one thread');

/** TypeScript (any algorithm): prepare3d, or prepareParallel3d on a pool (runtime/bigdft/cpu.ts). */
const tsRunner: ConvTargetRunner = {
  async prepare(key, dims, o = {}) {
    const { prepare3d, prepareParallel3d } = await import('./cpu.ts');
    if (o.pool) {
      const p = await prepareParallel3d(key, dims, o.pool, { h: o.h });
      return computeOnRun(p.precision, `TypeScript (${cpuWhere(p.threads)})`, (x) => p.run(x), async () => p.release?.());
    }
    const p = await prepare3d(key, dims, { h: o.h });
    return computeOnRun(p.precision, `TypeScript (${cpuWhere(1)})`, (x) => p.run(x));
  },
};

/** WebAssembly SIMD (f64x2): through prepare3d / prepareParallel3d as TypeScript, or prepareWasm3d with another binary. */
const wasmRunner: ConvTargetRunner = {
  async prepare(key, dims, o = {}) {
    if (o.wasmBytes) {
      const { prepareWasm3d } = await import('./wasm.ts');
      const p = await prepareWasm3d(key, dims, { scale: kineticScale(o.h), bytes: o.wasmBytes, ...(o.pool ? { pool: o.pool } : {}) });
      return computeOnRun('f64', `WebAssembly SIMD (${cpuWhere(p.threads)})`, (x) => p.run(x), async () => p.release?.());
    }
    const p = await tsRunner.prepare(key, dims, o);
    return { ...p, device: p.device.replace(/^TypeScript/, 'WebAssembly SIMD') };
  },
};

/** WGSL: three dispatches of the variant on the WebGPU adapter (runtime/bigdft/wgsl.ts prepareWgsl3d); f32 storage. */
const wgslRunner: ConvTargetRunner = {
  async prepare(key, dims, o = {}) {
    const { prepareWgsl3d } = await import('./wgsl.ts');
    const p = await prepareWgsl3d(key, dims, { h: o.h });
    return {
      precision: 'f32',
      upload: (x) => p.upload(x),
      run: () => p.dispatch(),
      result: () => p.result(),
      dispose: () => p.destroy(),
      device: `WebGPU ${p.adapterName}`,
    };
  },
};

/** gpu.js: the variant's kernels in its mode (runtime/bigdft/gpujs.ts prepareGpujs3d), compiled on the first run; f32 storage. */
const gpujsRunner: ConvTargetRunner = {
  async prepare(key, dims, o = {}) {
    const { prepareGpujs3d } = await import('./gpujs.ts');
    const p = await prepareGpujs3d(key, dims, { h: o.h, ...(o.gpujsSource !== undefined ? { source: o.gpujsSource } : {}) });
    return computeOnRun('f32', `gpu.js ${p.mode} mode (this process)`, (x) => p.run(x), () => p.destroy());
  },
};

/** bigdft-conv's runners by target, one line each. */
export const CONV_TARGETS = new TargetTable<ConvTargetRunner>('bigdft-conv', {
  ts: tsRunner,
  wasm: wasmRunner,
  wgsl: wgslRunner,
  gpujs: gpujsRunner,
});
