// The BigDFT workload (`kernforge run bigdft`, the main job, a library call): the local part of
// BigDFT's Hamiltonian on a periodic grid with the bigdft-conv variants (seed 002, REFERENCES.md
// section 2; issue 5, part 1).
//
//   psi_r = MF psi                      magic filter: scaling-function coefficients -> grid values
//   E_pot = <psi_r | V psi_r>
//   H psi = MF^T (V psi_r) + T psi      T = sum_d -1/(2 h^2) D2_d (the 29-tap second derivative)
//   E_kin = <psi | T psi>
//
// Convention: psi holds the coefficients of orthonormal (Daubechies) scaling functions,
// normalized to sum_i psi_i^2 = 1, as in BigDFT. Every inner product is therefore a plain sum
// over the grid points with no volume element: psi_r = MF psi is h^{3/2} times the
// wavefunction's value at a grid point, so sum_i V_i psi_r,i^2 is the quadrature of
// the integral of V |psi|^2.
//
// Each chosen variant is checked against the plain f64 separable reference on a small odd grid
// before use (runtime/bigdft/verify.ts verifyBigdftVariant); a variant that fails is refused. The
// default variants are the tuned ones, else the library's (runtime/bigdft/defaults.ts). Each
// iteration applies H once, reports the energies (through `log`, silent by default) and then
// takes one steepest-descent step psi <- psi - tau (H psi - <psi|H psi> psi),
// renormalized, so the energies go down from one iteration to the next.
import { ConvInputError } from './conv.ts';
import { CONV_TARGETS } from './targets.ts';
import { Pool, withPool, parseThreads, sharedArray, ThreadCountError } from '../parallel/pool.ts';
import type { Dims } from './reference.ts';
import { checkWorkloadKey, verifyBigdftVariant, type VerificationResult } from './verify.ts';
import { NoAdapterError } from '../backends/webgpu.ts';
import type { WgslHamiltonian } from './wgsl.ts';
import { GpujsModeError } from '../backends/gpujs.ts';
import { filter, defaultWasmVariants, type FilterName } from './filters.ts';
import { tunedThreads, tunedVariants } from './defaults.ts';
import { UnknownVariantError } from '../variants.ts';
import { UserError } from '../errors.ts';
import { allocationFailed, bigdftMemory, checkMemory, isAllocationFailure, memoryLimit } from '../limits.ts';

export type { VerificationResult } from './verify.ts';

type Real = Float32Array | Float64Array;
export type Precision = 'f64' | 'f32';

export interface BigdftOptions {
  /** "n1xn2xn3" or the three sizes; default 128x126x130. */
  grid?: string | Dims;
  /** Grid spacing (bohr); default 0.4. */
  h?: number | string;
  /** Applications of H; default 3. */
  iterations?: number | string;
  precision?: string;
  /** Magic filter variant key; default the 8x1 inline table variant of the precision. */
  variantMf?: string;
  /** Transposed magic filter variant key; default the 8x1 inline table variant (rendered on demand). */
  variantMft?: string;
  /** Kinetic variant key; default the 8x1 inline table variant of the precision. */
  variantKin?: string;
  /** Wavefunction coefficients (natural layout, i1 fastest); normalized here. Default: built-in smooth psi. */
  psi?: ArrayLike<number>;
  /** Local potential per grid point, or one constant. Default: built-in sum of cosines. */
  potential?: ArrayLike<number> | number;
  /** Steepest-descent step between iterations: a number, or 'auto' (default; 0 keeps psi fixed). */
  step?: number | 'auto';
  /** The report, line by line (what `kernforge run bigdft` prints); default: none. */
  log?: (line: string) => void;
  /** Worker threads for the TypeScript and wasm variants (default 1: this thread); each pass's lines are split between them. */
  threads?: number | string;
  /**
   * Target of the default variants: 'ts' (default: the tuned or library defaults), 'wasm'
   * (defaultWasmVariants; f64 only) or 'wgsl' (the WebGPU adapter's tuned variants, else the WGSL
   * defaults; f32 only, and the default precision then).
   */
  target?: string;
  /** Memory limit (bytes, or a size such as '4G'); default: half of the machine's memory (runtime/limits.ts). A grid whose estimate is above it is refused up front. */
  maxMemory?: number | string;
}

export interface IterationResult {
  iteration: number;
  epot: number;
  ekin: number;
  /** <psi | H psi> (= E_pot + E_kin up to rounding). */
  ehpsi: number;
  /**
   * Milliseconds of this application: each 3-D convolution, the potential product, the whole H.
   * With all three filters on WGSL the application is one submission: `h` is the host's wall
   * clock, the parts are the GPU's timestamps where the adapter has timestamp queries, else NaN.
   */
  ms: { mf: number; potential: number; mft: number; kin: number; h: number };
}


export interface BigdftSummary {
  grid: Dims;
  points: number;
  h: number;
  precision: Precision;
  variants: { mf: string; mft: string; kin: string };
  verification: VerificationResult[];
  convention: string;
  step: number;
  iterations: IterationResult[];
  /** Median over the iterations, milliseconds. */
  medianMs: IterationResult['ms'];
  /** Flops per application with the paper's count. */
  flops: { mf: number; mft: number; kin: number; h: number };
  gflops: { mf: number; mft: number; kin: number; h: number };
  /** Worker threads the passes ran on (1: this thread). */
  threads: number;
}

export const DEFAULT_GRID = '128x126x130';
export const CONVENTION =
  'psi = coefficients of orthonormal scaling functions, sum psi^2 = 1; inner products are plain grid sums (no volume element); energies in hartree for h in bohr';

/** Parse "n1xn2xn3" (positive integers). */
export function parseGrid(s: string | Dims): Dims {
  if (typeof s !== 'string') {
    if (s.length !== 3 || !s.every((n) => Number.isInteger(n) && n > 0)) throw new UserError(`grid ${JSON.stringify(s)} must be three positive integers`);
    return [s[0], s[1], s[2]];
  }
  const m = /^\s*(\d+)\s*[xX]\s*(\d+)\s*[xX]\s*(\d+)\s*$/.exec(s);
  if (!m) throw new UserError(`--grid "${s}" is not of the form n1xn2xn3 (three positive integers, e.g. ${DEFAULT_GRID})`);
  const d = [Number(m[1]), Number(m[2]), Number(m[3])] as const;
  if (d.some((n) => n <= 0 || !Number.isSafeInteger(n))) throw new UserError(`--grid "${s}": every dimension must be a positive integer`);
  return d;
}


function positive(name: string, v: number | string, integer: boolean): number {
  const x = typeof v === 'number' ? v : Number(String(v).trim() === '' ? NaN : v);
  if (!Number.isFinite(x) || x <= 0 || (integer && !Number.isInteger(x))) {
    throw new UserError(`${name} = ${String(v)} must be a finite positive ${integer ? 'integer' : 'number'}`);
  }
  return x;
}

const idx = (dims: Dims, i1: number, i2: number, i3: number): number => (i3 * dims[1] + i2) * dims[0] + i1;

/**
 * The default wavefunction: three periodic Gaussian-like bumps exp(a (cos(2 pi x/L) - 1)) per
 * axis (smooth and periodic) plus a weak plane wave, normalized to sum psi^2 = 1.
 */
export function defaultPsi(dims: Dims, h: number): Float64Array {
  const [n1, n2, n3] = dims;
  const L = dims.map((n) => n * h);
  // centres (fractions of the box) and widths (bohr)
  const bumps = [
    { c: [0.3, 0.4, 0.5], w: 1.2, a: 1 },
    { c: [0.65, 0.55, 0.35], w: 1.6, a: 0.7 },
    { c: [0.5, 0.8, 0.7], w: 1.0, a: 0.5 },
  ];
  const axis = (d: number, n: number, c: number, w: number): Float64Array => {
    // exp(a (cos(theta) - 1)) ~ exp(-x^2 / (2 w^2)) near the centre: a = (L / (2 pi w))^2
    const a = (L[d]! / (2 * Math.PI * w)) ** 2;
    return Float64Array.from({ length: n }, (_, i) => Math.exp(a * (Math.cos(2 * Math.PI * (i / n - c)) - 1)));
  };
  const psi = new Float64Array(n1 * n2 * n3);
  for (const b of bumps) {
    const g = [axis(0, n1, b.c[0]!, b.w), axis(1, n2, b.c[1]!, b.w), axis(2, n3, b.c[2]!, b.w)];
    for (let i3 = 0; i3 < n3; i3++) for (let i2 = 0; i2 < n2; i2++) {
      const f23 = b.a * g[2]![i3]! * g[1]![i2]!;
      const base = idx(dims, 0, i2, i3);
      for (let i1 = 0; i1 < n1; i1++) psi[base + i1]! += f23 * g[0]![i1]!;
    }
  }
  for (let i3 = 0; i3 < n3; i3++) for (let i2 = 0; i2 < n2; i2++) for (let i1 = 0; i1 < n1; i1++) {
    psi[idx(dims, i1, i2, i3)]! += 0.05 * Math.cos(2 * Math.PI * (i1 / n1 + 2 * i2 / n2 - i3 / n3));
  }
  return normalize(psi);
}

/** The default potential (hartree): -0.5 * (cos(2 pi x/L1) + cos(4 pi y/L2) + cos(2 pi z/L3)) + 0.2 cos(2 pi (x/L1 + z/L3)). */
export function defaultPotential(dims: Dims): Float64Array {
  const [n1, n2, n3] = dims;
  const v = new Float64Array(n1 * n2 * n3);
  for (let i3 = 0; i3 < n3; i3++) for (let i2 = 0; i2 < n2; i2++) for (let i1 = 0; i1 < n1; i1++) {
    const t1 = (2 * Math.PI * i1) / n1;
    const t2 = (2 * Math.PI * i2) / n2;
    const t3 = (2 * Math.PI * i3) / n3;
    v[idx(dims, i1, i2, i3)] = -0.5 * (Math.cos(t1) + Math.cos(2 * t2) + Math.cos(t3)) + 0.2 * Math.cos(t1 + t3);
  }
  return v;
}

function normalize(x: Float64Array): Float64Array {
  let s = 0;
  for (let i = 0; i < x.length; i++) s += x[i]! * x[i]!;
  if (!(s > 0) || !Number.isFinite(s)) throw new UserError(`psi has norm ${Math.sqrt(s)}; it must be finite and non-zero`);
  const r = 1 / Math.sqrt(s);
  for (let i = 0; i < x.length; i++) x[i]! *= r;
  return x;
}

function finiteArray(name: string, x: ArrayLike<number>, n: number, dims: Dims): Float64Array {
  if (x.length !== n) throw new UserError(`${name} has ${x.length} values, expected n1*n2*n3 = ${dims.join('*')} = ${n}`);
  const y = Float64Array.from(x);
  for (let i = 0; i < n; i++) if (!Number.isFinite(y[i])) throw new UserError(`${name}[${i}] = ${y[i]} is not finite`);
  return y;
}

/** A variant bound to the workload's grid on its target's runner: one application per run. */
interface Runner {
  key: string;
  run(x: Real): Promise<Real>;
}

/**
 * Bind a variant to the grid, after checkWorkloadKey, on its target's runner
 * (runtime/bigdft/targets.ts): TypeScript and wasm on the pool when there is one (WGSL and gpu.js
 * do not use it); each run uploads x, applies the filter and reads the result back.
 */
async function prepareChecked(key: string, want: FilterName, precision: Precision, dims: Dims, h: number, pool?: Pool): Promise<Runner> {
  const p = await checkWorkloadKey(key, want, precision);
  try {
    const pre = await CONV_TARGETS.get(String(p.target), 'run bigdft').prepare(key, dims, { h: [h, h, h], ...(pool ? { pool } : {}) });
    return {
      key,
      async run(x: Real) {
        await pre.upload(x);
        await pre.run();
        return pre.result();
      },
    };
  } catch (e) {
    if (e instanceof ConvInputError || e instanceof UnknownVariantError || e instanceof NoAdapterError || e instanceof GpujsModeError) throw new UserError((e as Error).message);
    throw e;
  }
}

/**
 * A time or rate with one more digit below 1 (a GPU's 0.07 ms), or '-' where it was not measured
 * (NaN: the parts of an application kept on a device without timestamp queries).
 */
const fixed = (v: number, digits: number): string => (Number.isFinite(v) ? v.toFixed(Math.abs(v) < 1 ? digits + 1 : digits) : '-');

const median = (a: number[]): number => {
  const s = [...a].sort((p, q) => p - q);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

/**
 * Run the workload; reports through `log` and returns the summary. Throws UserError for bad input.
 * With threads > 1 the TypeScript variants' passes run on a pool of worker threads (closed at the end).
 */
export async function runBigdftWorkload(opts: BigdftOptions = {}): Promise<BigdftSummary> {
  let threads: number;
  try {
    // without --threads: the thread count the tuned variants won with (the largest of the three
    // filters', since one pool serves them all), else 1
    threads = parseThreads(opts.threads ?? ((opts.target ?? 'ts') === 'ts' ? await tunedThreads(opts) : 1));
  } catch (e) {
    if (e instanceof ThreadCountError) throw new UserError(e.message);
    throw e;
  }
  try {
    return threads === 1 ? await runWorkload(opts) : await withPool(threads, (pool) => runWorkload(opts, pool));
  } catch (e) {
    // the engine refused an allocation the estimate allowed: one line, not a stack trace
    if (isAllocationFailure(e)) throw allocationFailed('run bigdft', e, 'a smaller --grid');
    throw e;
  }
}

async function runWorkload(opts: BigdftOptions, pool?: Pool): Promise<BigdftSummary> {
  const log = opts.log ?? (() => {});
  const dims = parseGrid(opts.grid ?? DEFAULT_GRID);
  const h = positive('--h', opts.h ?? 0.4, false);
  const iterations = positive('--iterations', opts.iterations ?? 3, true);
  const target = opts.target ?? 'ts';
  if (target !== 'ts' && target !== 'wasm' && target !== 'wgsl') throw new UserError(`--target ${String(target)}: use ts, wasm or wgsl (other variants by key: --variant-mf ...)`);
  const precision = (opts.precision ?? (target === 'wgsl' ? 'f32' : 'f64')) as Precision;
  if (precision !== 'f64' && precision !== 'f32') throw new UserError(`--precision ${String(opts.precision)}: use f64 or f32`);
  const maxTaps = Math.max(...(['magic', 'magic-t', 'kinetic'] as const).map((f) => filter(f).taps));
  dims.forEach((n, d) => {
    if (n < maxTaps) {
      throw new UserError(`grid ${dims.join('x')}: n${d + 1} = ${n} is smaller than the kinetic filter (${maxTaps} taps); every dimension needs at least ${maxTaps} points`);
    }
  });
  const N = dims[0] * dims[1] * dims[2];
  if (target === 'wasm' && precision !== 'f64') throw new UserError('--target wasm: the WebAssembly SIMD variants are f64 only (f64x2); use --precision f64');
  if (target === 'wgsl' && precision !== 'f32') throw new UserError('--target wgsl: the WGSL variants are f32 only; use --precision f32');
  // --target wgsl without an adapter: the WGSL defaults, refused with one line when verified below
  const def = target === 'wasm' ? defaultWasmVariants() : await tunedVariants(precision, opts, target === 'wgsl' ? 'webgpu' : 'cpu');
  const variants = { mf: opts.variantMf ?? def.mf, mft: opts.variantMft ?? def.mft, kin: opts.variantKin ?? def.kin };
  // the memory the grid needs, before anything grid-sized is allocated (runtime/limits.ts)
  checkMemory(`run bigdft: a ${dims.join('x')} grid (${N} points, ${precision})`, bigdftMemory(dims, precision, Object.values(variants)), memoryLimit(opts.maxMemory), '--max-memory <size>', 'a smaller --grid');

  // inputs (checked before any heavy work)
  const psi = opts.psi !== undefined ? normalize(finiteArray('psi', opts.psi, N, dims)) : defaultPsi(dims, h);
  let V: Float64Array;
  if (typeof opts.potential === 'number') {
    if (!Number.isFinite(opts.potential)) throw new UserError(`potential = ${opts.potential} is not finite`);
    V = new Float64Array(N).fill(opts.potential);
  } else V = opts.potential !== undefined ? finiteArray('potential', opts.potential, N, dims) : defaultPotential(dims);

  log(`kernforge run bigdft: local Hamiltonian H psi = MF^T (V MF psi) + T psi on a periodic ${dims.join('x')} grid (${N} points), h = ${h} bohr, ${precision}`);
  log(`  convention: ${CONVENTION}`);
  if (pool) log(`  threads: ${pool.size} for the TypeScript and wasm variants, each pass's lines split between them (TypeScript: ${pool.size} worker threads; wasm: this thread and ${pool.size - 1} worker${pool.size - 1 === 1 ? '' : 's'})`);

  // 1. verify every chosen variant against the f64 reference before use
  const verification: VerificationResult[] = [];
  for (const [key, want] of [[variants.mf, 'magic'], [variants.mft, 'magic-t'], [variants.kin, 'kinetic']] as const) {
    const v = await verifyBigdftVariant(key, want, precision, h);
    verification.push(v);
    const ok = v.maxError <= v.tolerance;
    log(`  verify ${ok ? 'ok  ' : 'FAIL'} ${key} on ${v.dims.join('x')}: max error ${v.maxError.toExponential(2)} (tolerance ${v.tolerance.toExponential(2)})`);
    if (!ok) throw new UserError(`variant ${key} does not match the f64 reference (max error ${v.maxError.toExponential(3)} > ${v.tolerance.toExponential(3)}); refusing to use it`);
  }

  // all three on WGSL: the whole application stays on the device (runtime/bigdft/wgsl.ts
  // prepareWgslHamiltonian); a mix runs each filter on its own target with its transfers
  const resident = Object.values(variants).every((k) => k.startsWith('bigdft-conv.wgsl.'));
  if (Object.values(variants).some((k) => k.startsWith('bigdft-conv.wgsl.'))) {
    const { gpu } = await import('../backends/webgpu.ts');
    const ctx = await gpu();
    const dev = (ctx.device as GPUDevice & { adapterInfo?: { device?: string } }).adapterInfo?.device ?? '';
    const cpu = /llvmpipe|swiftshader|lavapipe/i.test(`${ctx.adapterName} ${dev}`);
    const how = resident
      ? `each application is one submission (psi up; MF, V psi_r, MF^T, T and their sum on the device; H psi and T psi back), so H is timed whole, ${ctx.timestamps ? "and its parts are the GPU's own times (timestamp queries)" : 'and its parts are not (the adapter has no timestamp queries)'}`
      : 'their times include the upload and read-back';
    log(`  WGSL variants run on ${ctx.adapterName}${dev ? ` (${dev})` : ''}${cpu ? ': a CPU rasterizer, not a GPU' : ''}; ${how}`);
  }
  const Vw = precision === 'f32' ? Float32Array.from(V) : V;
  const onDevice = resident ? await prepareResident(variants, dims, h, Vw) : undefined;
  try {
    return await iterate();
  } finally {
    onDevice?.destroy();
  }

  async function iterate(): Promise<BigdftSummary> {
    // 2. bind the variants to the grid
    const [mf, mft, kin] = onDevice
      ? []
      : [
          await prepareChecked(variants.mf, 'magic', precision, dims, h, pool),
          await prepareChecked(variants.mft, 'magic-t', precision, dims, h, pool),
          await prepareChecked(variants.kin, 'kinetic', precision, dims, h, pool),
        ];
    // with threads, in shared memory so that the workers read the inputs where they are
    const alloc = (): Real => (pool ? sharedArray(precision, N) : precision === 'f32' ? new Float32Array(N) : new Float64Array(N));
    const x = alloc(); // psi in the working precision
    const vpsi = onDevice ? undefined : alloc();
    const hpsi = alloc();

    /** One application of H to x; returns E_pot (fused into the potential product) and timings. */
    const apply = async (): Promise<{ epot: number; tpsi: Real; ms: IterationResult['ms'] }> => {
      const t0 = performance.now();
      if (onDevice) {
        const r = await onDevice.apply(x as Float32Array, hpsi as Float32Array);
        const g = r.gpuMs;
        return { epot: r.epot, tpsi: r.t, ms: { mf: g?.mf ?? NaN, potential: g?.potential ?? NaN, mft: g?.mft ?? NaN, kin: g?.kin ?? NaN, h: performance.now() - t0 } };
      }
      const psir = await mf!.run(x);
      const t1 = performance.now();
      const epot = potentialProduct(Vw, psir, vpsi!);
      const t2 = performance.now();
      const a = await mft!.run(vpsi!);
      const t3 = performance.now();
      const tpsi = await kin!.run(x);
      const t4 = performance.now();
      addArrays(hpsi, a, tpsi);
      const t5 = performance.now();
      return { epot, tpsi, ms: { mf: t1 - t0, potential: t2 - t1, mft: t3 - t2, kin: t4 - t3, h: t5 - t0 } };
    };

    // steepest-descent step: tau = 1 / (bound on the largest eigenvalue of H)
    const l1 = (f: FilterName) => filter(f).coefficients.reduce((s, c) => s + Math.abs(c), 0);
    let vmax = 0;
    for (let i = 0; i < N; i++) vmax = Math.max(vmax, Math.abs(V[i]!));
    const hbound = (3 * l1('kinetic')) / (2 * h * h) + vmax * l1('magic') ** 3 * l1('magic-t') ** 3;
    const step = opts.step === undefined || opts.step === 'auto' ? 1 / hbound : opts.step;
    if (!Number.isFinite(step) || step < 0) throw new UserError(`step = ${step} must be a finite non-negative number`);

    // one untimed warm-up application (JIT, page faults)
    x.set(psi);
    await apply();

    const results: IterationResult[] = [];
    log(`  iter        E_pot              E_kin              <psi|H psi>       H (ms)   MF (ms)  MF^T (ms)  kin (ms)`);
    for (let it = 1; it <= iterations; it++) {
      x.set(psi);
      const { epot, tpsi, ms } = await apply();
      let [ekin, ehpsi, norm] = products(x, tpsi, hpsi);
      // x is psi rounded to the working precision: report the Rayleigh quotients of x
      ekin /= norm;
      ehpsi /= norm;
      const ep = epot / norm;
      if (![ep, ekin, ehpsi].every(Number.isFinite)) throw new UserError(`iteration ${it}: the energies are not finite (E_pot ${ep}, E_kin ${ekin})`);
      results.push({ iteration: it, epot: ep, ekin, ehpsi, ms });
      log(
        `  ${String(it).padStart(4)}  ${ep.toFixed(12).padStart(17)}  ${ekin.toFixed(12).padStart(17)}  ${ehpsi.toFixed(12).padStart(17)}  ` +
          `${ms.h.toFixed(1).padStart(8)}  ${fixed(ms.mf, 1).padStart(8)}  ${fixed(ms.mft, 1).padStart(9)}  ${fixed(ms.kin, 1).padStart(8)}`,
      );
      if (it < iterations && step > 0) {
        descend(psi, step, hpsi, ehpsi, x);
        normalize(psi);
      }
    }

    const medianMs = {
      mf: median(results.map((r) => r.ms.mf)),
      potential: median(results.map((r) => r.ms.potential)),
      mft: median(results.map((r) => r.ms.mft)),
      kin: median(results.map((r) => r.ms.kin)),
      h: median(results.map((r) => r.ms.h)),
    };
    const flops = { mf: 3 * 32 * N, mft: 3 * 32 * N, kin: 3 * 2 * 29 * N, h: 0 };
    flops.h = flops.mf + flops.mft + flops.kin + 2 * N;
    const gf = (f: number, ms: number): number => (ms > 0 ? f / (ms * 1e6) : Infinity);
    const gflops = { mf: gf(flops.mf, medianMs.mf), mft: gf(flops.mft, medianMs.mft), kin: gf(flops.kin, medianMs.kin), h: gf(flops.h, medianMs.h) };
    const last = results[results.length - 1]!;
    log('');
    log(`summary: grid ${dims.join('x')} (${N} points), h = ${h}, ${precision}, ${iterations} iteration(s), descent step ${step.toExponential(3)}`);
    log(`  variants: MF ${variants.mf}`);
    log(`            MF^T ${variants.mft}`);
    log(`            T ${variants.kin}`);
    log(`  last iteration: E_pot = ${last.epot.toFixed(12)}  E_kin = ${last.ekin.toFixed(12)}  <psi|H psi> = ${last.ehpsi.toFixed(12)} hartree`);
    log(`  median time per application (ms) and GFlop/s (paper's count: 3*32*n per 3-D magic filter, 3*2*29*n per kinetic application):`);
    log(`    H (whole local Hamiltonian) ${medianMs.h.toFixed(2).padStart(9)} ms  ${gflops.h.toFixed(2).padStart(6)} GFlop/s  (MF + MF^T + T + 2n for V psi_r and the sum)`);
    log(`    MF   (magic filter)         ${fixed(medianMs.mf, 2).padStart(9)} ms  ${fixed(gflops.mf, 2).padStart(6)} GFlop/s`);
    log(`    MF^T (transposed)           ${fixed(medianMs.mft, 2).padStart(9)} ms  ${fixed(gflops.mft, 2).padStart(6)} GFlop/s`);
    log(`    T    (kinetic)              ${fixed(medianMs.kin, 2).padStart(9)} ms  ${fixed(gflops.kin, 2).padStart(6)} GFlop/s`);
    log(`    V psi_r (potential product) ${fixed(medianMs.potential, 2).padStart(9)} ms`);

    return { grid: dims, points: N, h, precision, variants, verification, convention: CONVENTION, step, iterations: results, medianMs, flops, gflops, threads: pool?.size ?? 1 };
  }
}

// The point-by-point loops of an iteration are functions of their own: inside the iteration's
// closure, over arrays it captures, the potential product took 12.3 ms on 128x126x130 against
// 5.1-5.3 ms here (same arithmetic, same order).

/** out = a + b point by point. */
function addArrays(out: Real, a: Real, b: Real): void {
  for (let i = 0; i < out.length; i++) out[i] = a[i]! + b[i]!;
}

/** [<x|t>, <x|h>, <x|x>], each summed in point order. */
function products(x: Real, t: Real, h: Real): [number, number, number] {
  let xt = 0;
  let xh = 0;
  let xx = 0;
  for (let i = 0; i < x.length; i++) {
    const p = x[i]!;
    xt += p * t[i]!;
    xh += p * h[i]!;
    xx += p * p;
  }
  return [xt, xh, xx];
}

/** One steepest-descent step: psi -= step (H x - e x). */
function descend(psi: Float64Array, step: number, hx: Real, e: number, x: Real): void {
  for (let i = 0; i < psi.length; i++) psi[i] = psi[i]! - step * (hx[i]! - e * x[i]!);
}

/** out = V psi_r point by point; returns E_pot = sum_i psi_r,i (V psi_r)_i, summed in point order. */
function potentialProduct(V: Real, psir: Real, out: Real): number {
  let epot = 0;
  for (let i = 0; i < out.length; i++) {
    const v = V[i]! * psir[i]!;
    out[i] = v;
    epot += psir[i]! * v;
  }
  return epot;
}

/** The three WGSL variants chained on the device (runtime/bigdft/wgsl.ts); bad input as one-line UserErrors. */
async function prepareResident(variants: { mf: string; mft: string; kin: string }, dims: Dims, h: number, V: Real): Promise<WgslHamiltonian> {
  const { prepareWgslHamiltonian } = await import('./wgsl.ts');
  try {
    return await prepareWgslHamiltonian(variants, dims, h, V);
  } catch (e) {
    if (e instanceof ConvInputError || e instanceof NoAdapterError) throw new UserError((e as Error).message);
    throw e;
  }
}

