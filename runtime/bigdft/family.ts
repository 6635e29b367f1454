// Tuning bigdft-conv for the BigDFT workload (`kernforge run bigdft`), one problem per filter
// since the workload applies three (magic filter, its transpose, kinetic):
//   magic, magic-t, kinetic                  the workload's grid 128x126x130, f64
//   magic-small, magic-t-small, kinetic-small   64x62x66, for quick runs (stand in for the above)
//   magic-f32, magic-t-f32, kinetic-f32      the same in f32 (`kernforge run bigdft --precision
//                                            f32`): TypeScript f32 (f32 storage, double
//                                            arithmetic) against gpu.js f32 in the device's gpu.js
//                                            modes (cpu: cpu, webasm; webgpu: headlessgl, webgpu)
//   *-f32-small                              64x62x66, for quick runs
// Tuning axes varied: unroll (columns x lines), coefficients inline/array, wrap table/split;
// with WebAssembly SIMD on the device (cpu: targets ts + wasm) also the wasm variants of the same
// filter (f64x2 schemes lines / shifted), all run through prepare3d and the same gate.
// Measured: milliseconds of one 3-D application (three transposing passes) on the grid.
// Verified with the workload's gate (runtime/bigdft/verify.ts verifyBigdftVariant): the f64 separable reference on a small
// odd grid (17x19x21, kinetic 31x29x33).
import { keyTarget } from '../keys.ts';
import { variantParams } from '../variants.ts';
import { inGpujsModes, sameSemantics } from '../tune/semantic.ts';
import { defaultVariants, defaultWgslKey } from './filters.ts';
import type { Device } from '../tune/devices.ts';
import type { PreparedProblem, ProblemClass, TuningFamily, CandidateOptions } from '../tune/family.ts';
import { problemOf, type RunOptions } from '../tune/family.ts';
import { cpuThreadCounts, PoolsByThreads } from '../tune/threads.ts';
import type { FilterName } from './filters.ts';
import type { Dims } from './reference.ts';

const FILTERS: FilterName[] = ['magic', 'magic-t', 'kinetic'];
const GRID: Dims = [128, 126, 130];
const SMALL: Dims = [64, 62, 66];
type Precision = 'f64' | 'f32';
const PROBLEMS: (ProblemClass & { filter: FilterName; dims: Dims; precision: Precision })[] = [
  ...FILTERS.map((f) => ({ name: f, filter: f, dims: GRID, precision: 'f64' as const, description: `${f} filter, one 3-D application on ${GRID.join('x')} (f64)` })),
  ...FILTERS.map((f) => ({ name: `${f}-small`, filter: f, dims: SMALL, precision: 'f64' as const, quick: true, serves: f, description: `${f} filter on ${SMALL.join('x')} (f64)` })),
  ...FILTERS.map((f) => ({ name: `${f}-f32`, filter: f, dims: GRID, precision: 'f32' as const, description: `${f} filter, one 3-D application on ${GRID.join('x')} in f32: TypeScript vs gpu.js` })),
  ...FILTERS.map((f) => ({ name: `${f}-f32-small`, filter: f, dims: SMALL, precision: 'f32' as const, quick: true, serves: `${f}-f32`, description: `${f} filter on ${SMALL.join('x')} in f32` })),
];
const problemSpec = (name: string): (typeof PROBLEMS)[number] => {
  problemOf(family, name); // throws with the allowed names
  return PROBLEMS.find((p) => p.name === name)!;
};
const H = 0.4;
/** The wasm variant whose semantic axes (filter, periodic, f64) the wasm candidates share. */
const wasmReference = (f: FilterName): string => `bigdft-conv.wasm.${f}.periodic.f64.separable-t.2x2.inline.lines`;

export const family: TuningFamily = {
  family: 'bigdft-conv',
  measures: 'ms of one 3-D convolution (three transposing 1-D passes) on the grid (WGSL: the three dispatches on input already on the device)',
  problems: () => PROBLEMS.map(({ filter: _f, dims: _d, precision: _p, ...p }) => p),

  async candidates(device: Device, problem: string, o: CandidateOptions = {}): Promise<string[]> {
    // the workload's semantic axes (filter, boundary, precision...), every tuning axis free;
    // only the TypeScript target has a runner here (prepare3d). The direct triple sum is the
    // reference algorithm (O(n 16^3), ~100x slower): it is benchmarked, never tuned over.
    const spec = problemSpec(problem);
    const def = family.defaultKey(device, problem);
    const out = def ? (await sameSemantics(def, o.space)).filter((k) => !k.includes('.direct.')) : [];
    if (spec.precision === 'f64' && def && (device.targets ?? []).includes('wasm')) out.push(...(await sameSemantics(wasmReference(spec.filter), o.space)));
    // WGSL (f32 classes, on a device with WebGPU): the WGSL variants of the filter
    if (spec.precision === 'f32' && (device.targets ?? []).includes('wgsl')) out.push(...(await sameSemantics(defaultWgslKey(spec.filter), o.space)));
    // gpu.js (f32 classes): the modes that run on this device, whatever its primary target
    if (spec.precision === 'f32') out.push(...(await inGpujsModes(`bigdft-conv.gpujs.${spec.filter}.periodic.f32.separable-t.split`, device.gpujsModes, o.space)));
    return out;
  },

  startKeys(device: Device, problem: string): string[] {
    // the wasm reference beside the TypeScript default (f64 classes, where wasm SIMD validates)
    const spec = problemSpec(problem);
    return device.target === 'ts' && spec.precision === 'f64' && (device.targets ?? []).includes('wasm') ? [wasmReference(spec.filter)] : [];
  },

  defaultKey(device: Device, problem: string): string | undefined {
    // the workload's own default (runtime/bigdft/filters.ts defaultVariants, f64)
    const { filter: f, precision } = problemSpec(problem);
    // WebGPU: the f32 classes start from the plain WGSL tile (16x16, one output per invocation)
    if (device.target === 'wgsl') return precision === 'f32' ? defaultWgslKey(f) : undefined;
    if (device.target !== 'ts') return undefined;
    return defaultVariants(precision)[f === 'magic' ? 'mf' : f === 'magic-t' ? 'mft' : 'kin'];
  },

  threadCounts: cpuThreadCounts,

  async verifyKey(key: string) {
    const { verifyConv } = await import('./verify.ts');
    const v = await verifyConv(key, { h: H });
    const error = v.tolerance > 0 ? v.maxError / v.tolerance : Infinity;
    return { ok: error <= 1, error, detail: error <= 1 ? undefined : `max error ${v.maxError.toExponential(2)} > tolerance ${v.tolerance.toExponential(2)} on ${v.dims.join('x')}` };
  },

  async verify(key: string, _device: Device, problem: string) {
    const { verifyBigdftVariant } = await import('./verify.ts');
    const spec = problemSpec(problem);
    const v = await verifyBigdftVariant(key, spec.filter, spec.precision, H);
    const error = v.tolerance > 0 ? v.maxError / v.tolerance : Infinity;
    return { ok: error <= 1, error, detail: error <= 1 ? undefined : `max error ${v.maxError.toExponential(2)} > tolerance ${v.tolerance.toExponential(2)} on ${v.dims.join('x')}` };
  },

  async prepare(_device: Device, problem: string): Promise<PreparedProblem> {
    const { dims } = problemSpec(problem);
    const { CONV_TARGETS } = await import('./targets.ts');
    const n = dims[0] * dims[1] * dims[2];
    let s = 12345;
    const x = Float64Array.from({ length: n }, () => {
      s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
      return s / 2 ** 31 - 1;
    });
    // the input in the problem's precision (an f32 variant's run takes f32 arrays)
    const xin = problemSpec(problem).precision === 'f32' ? Float32Array.from(x) : x;
    const pools = new PoolsByThreads();
    let cur: { id: string; run: () => Promise<unknown>; destroy: () => void | Promise<void> } | undefined;
    return {
      async run(key: string, o: RunOptions = {}) {
        const threads = o.threads ?? 1;
        const id = `${key}@${threads}`;
        if (cur?.id !== id) {
          await cur?.destroy();
          cur = undefined;
          // the runner of the key's target (runtime/bigdft/targets.ts) with the input uploaded once,
          // timed as `run bigdft` chains the filters: WGSL's three dispatches on data already on the
          // device (an H100 moves the grid each way in 1-2 ms, the passes take 0.1-0.2 ms: timing the
          // transfers hid the variants' differences); gpu.js compiled on the first run (the
          // warm-up), with its transfers; TS and wasm with each pass's lines split over the pool's
          // workers when threads > 1 (wasm's copies into its memory included)
          const pool = threads > 1 ? await pools.get(threads) : undefined;
          const p = await CONV_TARGETS.get(keyTarget(key), 'tuning').prepare(key, dims, { h: [H, H, H], ...(pool ? { pool } : {}) });
          try {
            await p.upload(xin);
          } catch (e) {
            await p.dispose();
            throw e;
          }
          cur = { id, run: () => p.run(), destroy: () => p.dispose() };
        }
        const t0 = performance.now();
        await cur.run();
        return performance.now() - t0;
      },
      async dispose() {
        await cur?.destroy();
        cur = undefined;
        await pools.close();
      },
    };
  },

  params: (key: string) => variantParams(key),
};
