// Verification of bigdft-conv variants before use: any variant (TypeScript of any algorithm,
// WebAssembly SIMD, WGSL, gpu.js: its target's runner, runtime/bigdft/targets.ts) against the plain f64 separable reference of its filter and boundary on a small odd
// grid, within a bound derived from the precision and the filter's gain.
import { variantParams, UnknownVariantError } from '../variants.ts';
import { UserError } from '../errors.ts';
import { NoAdapterError } from '../backends/webgpu.ts';
import { filter, type FilterName } from './filters.ts';
import { kineticScale, ConvInputError } from './conv.ts';
import { CONV_TARGETS } from './targets.ts';
import { separable, type Boundary, type Dims } from './reference.ts';

/** Small odd grids of the checks: the 16-tap magic filters, the 29-tap kinetic filter. */
export const VERIFY_DIMS: Record<FilterName, Dims> = { magic: [17, 19, 21], 'magic-t': [17, 19, 21], kinetic: [31, 29, 33] };

/**
 * Bound on |result| per unit max|x|: (sum |f|)^3 for the magic filters (three passes),
 * sum_d |scale_d| * sum |d2| for the kinetic operator.
 */
export function convGain(name: FilterName, scale: Dims = [-0.5, -0.5, -0.5]): number {
  const l1 = filter(name).coefficients.reduce((s, c) => s + Math.abs(c), 0);
  return name === 'kinetic' ? (Math.abs(scale[0]) + Math.abs(scale[1]) + Math.abs(scale[2])) * l1 : l1 ** 3;
}

/**
 * Largest accepted max |got - ref| for max|x| = xmax.
 * TypeScript f64: the kernels differ from the reference by summation order only, 64 ulps of
 * the bound gain * xmax. TypeScript f32: storage in f32 (input and three intermediate
 * roundings of 2^-24 relative each), arithmetic in doubles: 8 * 2^-24 * gain * xmax.
 * WGSL and gpu.js (f32 arithmetic): each pass sums `taps` products in f32, at most (taps + 1) roundings of
 * 2^-24 of the pass's bound, plus the input rounding, three passes: 3 * (taps + 2) * 2^-24.
 */
export function convTolerance(target: string, precision: string, name: FilterName, gain: number, xmax: number): number {
  if (target === 'wgsl' || target === 'gpujs') return 3 * (filter(name).taps + 2) * 2 ** -24 * gain * xmax;
  return (precision === 'f32' ? 8 * 2 ** -24 : 64 * 2 ** -53) * gain * xmax;
}

export interface ConvVerification {
  key: string;
  dims: Dims;
  boundary: Boundary;
  maxError: number;
  tolerance: number;
  ok: boolean;
}

/** Pseudo-random values in [-1, 1) (LCG), reproducible. */
export function randomValues(n: number, seed: number): Float64Array {
  let s = seed >>> 0;
  return Float64Array.from({ length: n }, () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 31 - 1;
  });
}

/**
 * Run any bigdft-conv variant on a small odd grid against the f64 separable reference of its
 * boundary. WebAssembly variants get the TypeScript f64 bound; `wasmBytes` replaces a wasm
 * variant's binary by another build, `gpujsSource` a gpu.js variant's module text (tests of the gate).
 */
export async function verifyConv(key: string, o: { h?: number; dims?: Dims; wasmBytes?: Uint8Array; gpujsSource?: string } = {}): Promise<ConvVerification> {
  const p = await variantParams(key);
  const name = String(p.filter) as FilterName;
  const boundary = (p.boundary === 'free' ? 'free' : 'periodic') as Boundary;
  const dims = o.dims ?? VERIFY_DIMS[name];
  const h = o.h ?? 1;
  const hd: Dims = [h, h, h];
  const n = dims[0] * dims[1] * dims[2];
  const x = randomValues(n, 2024);
  const f32 = p.precision === 'f32';
  const xin = f32 ? Float32Array.from(x) : Float64Array.from(x);
  // the runner of the key's target (runtime/bigdft/targets.ts)
  const pre = await CONV_TARGETS.get(String(p.target), 'verification').prepare(key, dims, { h: hd, wasmBytes: o.wasmBytes, gpujsSource: o.gpujsSource });
  let got: ArrayLike<number>;
  try {
    await pre.upload(xin);
    await pre.run();
    got = await pre.result();
  } finally {
    await pre.dispose();
  }
  const scale = kineticScale(hd);
  const ref = separable(name, Float64Array.from(xin), dims, scale, boundary);
  const tolerance = convTolerance(String(p.target), String(p.precision), name, convGain(name, scale), 1);
  let maxError = 0;
  for (let i = 0; i < n; i++) {
    const d = Math.abs(got[i]! - ref[i]!);
    maxError = Number.isNaN(d) ? Infinity : Math.max(maxError, d);
  }
  return { key, dims, boundary, maxError, tolerance, ok: maxError <= tolerance };
}

// The gate of the local Hamiltonian workload (runtime/bigdft/hamiltonian.ts, `kernforge run
// bigdft`) and of the bigdft-conv tuning family: the key must be a periodic variant of the wanted
// filter and precision, then verifyConv.

export interface VerificationResult {
  key: string;
  dims: Dims;
  maxError: number;
  tolerance: number;
}

/** Check that a key is a periodic variant of the wanted filter and precision (user errors otherwise). */
export async function checkWorkloadKey(key: string, want: FilterName, precision: 'f64' | 'f32'): Promise<Record<string, string | number>> {
  let p: Record<string, string | number>;
  try {
    p = await variantParams(key);
  } catch (e) {
    if (e instanceof UnknownVariantError) throw new UserError(`variant ${key}: ${e.message}`);
    throw e;
  }
  if (!key.startsWith('bigdft-conv.')) throw new UserError(`${key} is not a bigdft-conv variant`);
  if (p.filter !== want) throw new UserError(`${key} applies the ${String(p.filter)} filter; this option needs a ${want} variant`);
  if (p.boundary !== 'periodic') throw new UserError(`${key} has the ${String(p.boundary)} boundary; the workload's grid is periodic`);
  if (p.precision !== precision) throw new UserError(`${key} is an ${String(p.precision)} variant but --precision is ${precision}`);
  return p;
}

/**
 * Check one variant of the workload (periodic, the given filter and precision; TypeScript of any
 * algorithm, or WGSL) against the f64 separable reference on a small odd grid (17x19x21 for the
 * magic filters, 31x29x33 for the 29-tap kinetic filter); bound: convTolerance
 * (above), e.g. (f32: 8 * 2^-24, f64: 64 * 2^-53) * gain * max|x| for
 * TypeScript, gain = (sum |f|)^3 (magic) or sum_d |scale_d| sum |d2| (kinetic).
 */
export async function verifyBigdftVariant(key: string, want: FilterName, precision: 'f64' | 'f32', h: number): Promise<VerificationResult> {
  await checkWorkloadKey(key, want, precision);
  try {
    const v = await verifyConv(key, { h });
    return { key, dims: v.dims, maxError: v.maxError, tolerance: v.tolerance };
  } catch (e) {
    if (e instanceof ConvInputError || e instanceof UnknownVariantError || e instanceof NoAdapterError) throw new UserError((e as Error).message);
    throw e;
  }
}
