// gem-potential benchmark (seed 003, Fig. 1b/4a in kind, CPU part of issue 4): the paper's
// optimization ladder on one core, each rung as a ratio to a plain C reference of the same
// formula (bench/gem/gem_ref.c) compiled with `gcc -O3 -march=native` and timed in the same run.
// Molecules: 1uwo_A (1441 atoms x 16529 vertices) and Mb.Hhelix; region 1 (p = 0), no salt,
// eps 80/1, as GEM's defaults; optionally region 3 (p = 3) for the C/TS comparison. Every TS
// variant and both C builds are checked against the f64 reference (model.ts) before timing.
// WGSL rungs (untiled, unrolled, atoms tiled through workgroup memory, plus the vertices x atoms
// register tile) run on the WebGPU adapter, one dispatch timed (uploads and read-back left out),
// checked against the same reference, as a ratio to the C f32 build; llvmpipe, where that is the
// adapter, is a CPU rasterizer using every core, which the output says.
// WebAssembly SIMD rungs (f32x4 / f64x2, runtime/gem/wasm.ts): one kernel call timed (the inputs
// are copied into the instance's memory once, outside the timing), checked like the TS rungs, in
// rounds (every rung once per round, and the C -ffast-math f32 build once more; each row's
// fastest round), so that the rows and that baseline are timed in the same minutes.
// The C reference is also built with -ffast-math (which lets gcc vectorize the atom loop and use
// rsqrtps with a Newton step): the best TS and wasm rows are printed as ratios to both builds.
// The larger case: a molecule without a .vert file (the nucleosome, 25086 atoms) on a generated
// SES (runtime/gem/surface.ts, default density 3, ~250k vertices): the C reference and three TS
// variants, each checked against the f64 reference on a spread subset of the vertices (the full
// reference would take minutes), timed once each by default (one run is ~10^10 pairs).
// Threads (issue 7): the best TS and wasm rows and the workload's defaults run again with the
// vertices split over 2.. worker threads (runGemParallel / prepareGemWasm on a runtime/parallel
// pool), each checked to equal the one-thread output bit for bit before it is timed, with the
// per-core ratio (ratio to the one-thread C builds / threads). gpu.js rows (runtime/gem/gpujs.ts,
// f32, the paper's RMSE bar) in every mode that runs here; the others are printed as skipped with
// the reason. A "limits" line per molecule puts this run's measurements together (the C builds'
// vector instructions, Newton rsqrt against sqrt + div, region 3 against region 1, thread scaling).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir, availableParallelism } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { loadTsModule } from '../runtime/variants.ts';
import {
  readPqr, readVert, gemParams, gemReference, selectRegion, gemArgs, gemVariantInfo, checkVariant,
  type GemAtoms, type GemVertices, type GemParams, type GemRegion, type GemTsModule, type GemPrecision,
} from '../runtime/gem/index.ts';
import { generateSurface, type GemSurface, type SurfaceOptions } from '../runtime/gem/surface.ts';
import { GEM_TARGETS } from '../runtime/gem/targets.ts';
import { keyTarget } from '../runtime/keys.ts';
import { threadLadder, PoolsByThreads } from '../runtime/tune/threads.ts';
import type { GpujsMode } from '../runtime/backends/gpujs.ts';
import { asmFacts, formatAsmFacts, BENCH_GPUJS_MODES, type AsmFacts } from './common.ts';
import { preferredGemKey } from '../runtime/gem/defaults.ts';
import { oneRootLoop } from '../runtime/gem/model.ts';
import { probeWasmRelaxedSimd } from '../runtime/backends/wasm.ts';
import { dividerNs } from './divider.ts';

// A full garbage collection before each warm-up keeps earlier garbage out of the measurements.
setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as () => void;

/** The bundled samples (data/gem, runtime/data.ts). */
import { GEM_DATA_DIR } from '../runtime/data.ts';
export { GEM_DATA_DIR };
/** The C reference's source. */
export const GEM_REF_SOURCE = new URL('./gem/gem_ref.c', import.meta.url).pathname;
/** The paper's accuracy bar: RMSE of single-precision variants against the serial version. */
export const GEM_F32_RMSE = 8.4e-5;
/** f64 variants must match the f64 reference to this, relative to max |phi| (rounding order only). */
export const GEM_F64_RTOL = 1e-9;

export interface GemBenchOptions {
  /** Timed repetitions per variant after the warm-up (fastest counts; default 5). */
  reps?: number;
  /** Repetitions of the naive rung, which is slow (default 2). */
  naiveReps?: number;
  /** Molecules in the data directory (default 1uwo_A, mb_hhelix, nucleosome); one without a .vert gets a generated surface and the short ladder. */
  molecules?: string[];
  /** Vertex density of generated surfaces (default 3 per A^2). */
  density?: number;
  /** Vertices checked against the f64 reference in the large case (default 2000). */
  verifyVertices?: number;
  /** Also compare region 3 (p = 3) against C (default true). */
  region3?: boolean;
  /** Compare generated surfaces with the MSMS ones of the molecules that have a .vert (default true). */
  compareSurfaces?: boolean;
  /** Timed runs per variant in the large (generated surface) case (default 1). */
  largeReps?: number;
  /** WGSL rungs on the WebGPU adapter (default true; skipped with the reason when there is none). */
  wgsl?: boolean;
  /** WebAssembly SIMD rungs (default true). */
  wasm?: boolean;
  /** The TypeScript ladder (default true). */
  ts?: boolean;
  /** gpu.js rows: true (default) for every mode of GEM_GPUJS_MODES that runs here, false for none, or the modes to try. */
  gpujs?: boolean | GpujsMode[];
  /**
   * Thread counts (default 1, 2, 4, ... up to the cores: 1, 2 on two cores); each count above 1
   * times the best TS and wasm rows and the workload's defaults on that many worker threads.
   */
  threads?: number[];
  /** Data directory (default GEM_DATA_DIR). */
  dataDir?: string;
  /** Where the text goes (default console.log). */
  log?: (line: string) => void;
}

export interface GemBenchRow {
  molecule: string;
  region: GemRegion;
  /** The rung of the paper's ladder. */
  rung: string;
  /** Variant key, `model.ts gemReference`, or `C gem_ref.c (...)`. */
  key: string;
  precision: GemPrecision;
  seconds: number;
  /** (median - fastest)/fastest. */
  spread: number;
  pairsPerSecond: number;
  /** C time / this time, C of the same precision (> 1: faster than C); undefined without gcc. */
  vsC?: number;
  /** The same against the C build with -ffast-math. */
  vsCFast?: number;
  /** Worker threads the vertices were split over (absent: this thread). */
  threads?: number;
  /** vsC / threads and vsCFast / threads (the C builds run on one thread); set with the ratios. */
  perCore?: number;
  perCoreFast?: number;
  /** Threaded rows: the one-thread row's time / this time. */
  speedup?: number;
  /** Threaded rows: the output equals the one-thread output bit for bit (checked before timing; a difference throws). */
  identical?: boolean;
  /** RMSE and max |diff| against the f64 reference over every vertex. */
  rmse: number;
  maxAbs: number;
}

export interface GemRefBuild {
  /** Executables per precision, or why there are none. */
  bins?: Record<GemPrecision, string>;
  why?: string;
  cmd?: string;
}

export interface GemRefResult {
  precision: GemPrecision;
  seconds: number;
  pairsPerSecond: number;
  /** Sum of phi as printed by the C program. */
  checksum: number;
  phi: Float64Array;
}

const fastest = (xs: number[]): number => Math.min(...xs);
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
export const rmseOf = (a: ArrayLike<number>, b: ArrayLike<number>): number => {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += (a[i]! - b[i]!) ** 2;
  return Math.sqrt(s / a.length);
};
export const maxAbsOf = (a: ArrayLike<number>, b: ArrayLike<number>): number => {
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i]! - b[i]!));
  return m;
};

/**
 * Compile the C reference in f64 and f32 into `dir` with gcc -O3 -march=native (plus -ffast-math
 * with o.fastMath); `why` when gcc is missing or fails.
 */
export function compileGemRef(dir: string, o: { fastMath?: boolean } = {}): GemRefBuild {
  const flags = ['-O3', '-march=native', ...(o.fastMath ? ['-ffast-math'] : [])];
  const tag = o.fastMath ? '_fast' : '';
  const bins = { f64: join(dir, `gem_ref${tag}_f64`), f32: join(dir, `gem_ref${tag}_f32`) };
  try {
    execFileSync('gcc', [...flags, '-DREAL=double', '-o', bins.f64, GEM_REF_SOURCE, '-lm'], { stdio: 'pipe' });
    execFileSync('gcc', [...flags, '-DREAL=float', '-o', bins.f32, GEM_REF_SOURCE, '-lm'], { stdio: 'pipe' });
  } catch (e) {
    const err = e as NodeJS.ErrnoException & { stderr?: Buffer };
    if (err.code === 'ENOENT') return { why: 'gcc not found on PATH' };
    return { why: `gcc failed: ${String(err.stderr ?? err.message).trim().split('\n').slice(0, 3).join(' ')}` };
  }
  return { bins, cmd: `gcc ${flags.join(' ')} -DREAL=double|float bench/gem/gem_ref.c -lm` };
}

/** The C reference's input file: int32 nv, na, region, 0; 8 f64 params; f64 vertex then atom arrays (little endian). */
export function writeGemRefInput(file: string, atoms: GemAtoms, v: GemVertices, P: GemParams, region: GemRegion): void {
  const hdr = new Int32Array([v.n, atoms.n, region, 0]);
  const params = new Float64Array([P.A, P.p, P.epsIn, P.epsOut, P.kappa, P.alpha, P.ionRadius, P.qScale]);
  const body = new Float64Array(6 * v.n + 4 * atoms.n);
  [v.x, v.y, v.z, v.nx, v.ny, v.nz].forEach((a, k) => body.set(a, k * v.n));
  [atoms.x, atoms.y, atoms.z, atoms.q].forEach((a, k) => body.set(a, 6 * v.n + k * atoms.n));
  writeFileSync(file, Buffer.concat([Buffer.from(hdr.buffer), Buffer.from(params.buffer), Buffer.from(body.buffer)]));
}

/**
 * Run a compiled C reference on an input file: its own timing (fastest of `reps`), checksum and
 * phi. `twoRoots`: region 1 with both roots at p = 0 too (GEM's formula as written; by default the
 * C code takes the kernels' one-root loop there).
 */
export function runGemRef(bin: string, input: string, precision: GemPrecision, reps: number, n: number, twoRoots = false): GemRefResult {
  const out = `${input}.${precision}.phi`;
  const text = execFileSync(bin, [input, out, String(reps), ...(twoRoots ? ['two-roots'] : [])], { encoding: 'utf8' });
  const field = (k: string): number => {
    const m = new RegExp(`${k}=(\\S+)`).exec(text);
    if (!m) throw new Error(`gem_ref: no ${k} in its output: ${text.trim()}`);
    return Number(m[1]);
  };
  const buf = readFileSync(out);
  const phi = new Float64Array(buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength));
  if (phi.length !== n) throw new Error(`gem_ref wrote ${phi.length} potentials, expected ${n}`);
  return { precision, seconds: field('seconds_min'), pairsPerSecond: field('pairs_per_s'), checksum: field('checksum'), phi };
}

/** Accuracy check against the f64 reference: f32 RMSE <= 8.4e-5, f64 max |diff| <= 1e-9 max |phi|. */
export function gemAccuracy(phi: ArrayLike<number>, ref: Float64Array, precision: GemPrecision): { ok: boolean; rmse: number; maxAbs: number; bar: string } {
  const rmse = rmseOf(phi, ref);
  const maxAbs = maxAbsOf(phi, ref);
  const finite = Array.prototype.every.call(phi, Number.isFinite) as boolean;
  if (precision === 'f32') return { ok: finite && rmse <= GEM_F32_RMSE, rmse, maxAbs, bar: `RMSE <= ${GEM_F32_RMSE}` };
  const tol = GEM_F64_RTOL * Math.max(1, ...Array.from(ref, Math.abs));
  return { ok: finite && maxAbs <= tol, rmse, maxAbs, bar: `max |diff| <= ${tol.toExponential(1)}` };
}

/** The ladder on region 1 without salt: rung and key (keys outside the library are rendered on demand). */
function ladder(region: GemRegion): { rung: string; key: string }[] {
  const k = (prec: GemPrecision, unroll: number, rs: 'div' | 'nr', block: number): string =>
    `gem-potential.ts.region${region}.${prec}.zero.unroll${unroll}.${rs}.block${block}`;
  if (region !== 1) return [{ rung: 'unrolled', key: k('f64', 4, 'div', 0) }, { rung: 'f32', key: k('f32', 4, 'div', 0) }];
  return [
    { rung: 'structure of arrays (+ hoisted branches)', key: k('f64', 1, 'div', 0) },
    { rung: 'unrolled', key: k('f64', 4, 'div', 0) },
    { rung: 'unrolled', key: k('f64', 8, 'div', 0) },
    { rung: 'blocked', key: k('f64', 4, 'div', 256) },
    { rung: 'blocked', key: k('f64', 4, 'div', 1024) },
    { rung: 'f32', key: k('f32', 1, 'div', 0) },
    { rung: 'f32', key: k('f32', 4, 'div', 0) },
    { rung: 'f32 blocked', key: k('f32', 4, 'div', 256) },
    { rung: 'rsqrt nr', key: k('f32', 4, 'nr', 0) },
    { rung: 'rsqrt nr', key: k('f32', 8, 'nr', 0) },
    { rung: 'rsqrt nr blocked', key: k('f32', 4, 'nr', 256) },
    { rung: 'rsqrt nr blocked', key: k('f32', 4, 'nr', 1024) },
  ];
}

/** The WGSL rungs: one vertex per invocation, unrolled, tiled (workgroup memory), tiled with the register tile. */
export function wgslLadder(region: GemRegion): { rung: string; key: string }[] {
  const k = (unroll: number, tile: number, atoms: number): string =>
    `gem-potential.wgsl.region${region}.f32.zero.unroll${unroll}.div.block${tile}.workgroup64${tile > 0 ? `.atoms${atoms}` : ''}`;
  const rows = [
    { rung: 'WGSL unrolled', key: k(4, 0, 1) },
    { rung: 'WGSL tiled (workgroup memory)', key: k(4, 64, 1) },
    { rung: 'WGSL tiled + 4x4 register tile', key: k(4, 64, 4) },
  ];
  return region === 1 ? [{ rung: 'WGSL (one vertex per invocation)', key: k(1, 0, 1) }, ...rows] : rows;
}

/** The WebGPU adapter for the WGSL rungs, or why there is none (printed once per run). */
export async function benchAdapter(): Promise<{ name: string; cpu: boolean } | { why: string }> {
  const { probeGpu } = await import('../runtime/backends/webgpu.ts');
  const p = await probeGpu();
  if (!p.ok) return { why: p.why };
  const { gemAdapter } = await import('../runtime/gem/wgsl.ts');
  return gemAdapter();
}

/**
 * Time WGSL variants on one problem: each prepared once (upload, pipeline), one dispatch whose
 * result is checked against `ref` (the paper's f32 RMSE bar), one more to warm up, then `reps`
 * timed dispatches (each waits for completion). Throws when a variant misses the bar.
 */
export async function benchGemWgsl(rungs: { rung: string; key: string }[], atoms: GemAtoms, verts: GemVertices, params: GemParams, ref: Float64Array, reps: number): Promise<Omit<GemBenchRow, 'molecule' | 'region' | 'pairsPerSecond'>[]> {
  const { prepareGemWgsl } = await import('../runtime/gem/wgsl.ts');
  const out: Omit<GemBenchRow, 'molecule' | 'region' | 'pairsPerSecond'>[] = [];
  for (const { rung, key } of rungs) {
    const prep = await prepareGemWgsl(key, atoms, verts, { params });
    try {
      await prep.dispatch();
      const acc = gemAccuracy(await prep.result(), ref, 'f32');
      if (!acc.ok) throw new Error(`${key} failed verification (${acc.bar}): RMSE ${acc.rmse.toExponential(2)}, max |diff| ${acc.maxAbs.toExponential(2)}`);
      await prep.dispatch();
      const times: number[] = [];
      for (let r = 0; r < reps; r++) {
        const t0 = performance.now();
        await prep.dispatch();
        times.push((performance.now() - t0) / 1000);
      }
      out.push({ rung, key, precision: 'f32', seconds: fastest(times), spread: (median(times) - fastest(times)) / fastest(times), rmse: acc.rmse, maxAbs: acc.maxAbs });
    } finally {
      prep.destroy();
    }
  }
  return out;
}

/**
 * The WebAssembly SIMD rungs: 4 vertices per f32x4 (unrolled by 1 and 2 vectors), the Newton
 * estimate, the mixed form (8 vertices: at p = 0, one vector's 1/sqrt by the divider and the
 * other's by Newton steps; with both roots, the roots by the divider and their product's
 * reciprocal by Newton steps), 4 atoms per vector, f64x2 by the divider and with the f32
 * divider's estimate and an f64 Newton step (4 and 8 vertices); in regions 2 and 3 (one root per
 * pair) 8 vertices by the divider and the mixed form, and f64x2 both ways; with `relaxed` (the
 * engine compiles relaxed SIMD) the f32 and the f64 Newton rungs again with relaxed_madd. The
 * mixed form also with the divider units' sums split over the atom loop's two steps (axis sums:
 * the faster one is the engine's).
 */
export function wasmLadder(region: GemRegion, relaxed = false): { rung: string; key: string }[] {
  // mix has the axis sums (the divider units' sums: one, or one per step of the atom loop's two)
  const k = (prec: GemPrecision, unroll: number, rs: 'div' | 'nr' | 'mix', vector: 'vertices' | 'atoms', simd: 'simd128' | 'relaxed' = 'simd128', sums: 1 | 2 = 1): string =>
    `gem-potential.wasm.region${region}.${prec}.zero.unroll${unroll}.${rs}.block0.${vector}.${simd}${rs === 'mix' ? `.sums${sums}` : ''}`;
  const fma = (rows: { rung: string; key: string }[]) =>
    relaxed ? [...rows, ...rows.filter((r) => r.key.includes('.f32.') || r.key.includes('.nr.')).map((r) => ({ rung: `${r.rung} relaxed FMA`, key: r.key.replace(/\.simd128(?=$|\.sums)/, '.relaxed') }))] : rows;
  if (region !== 1) {
    return fma([
      { rung: 'wasm f32x4 (8 vertices)', key: k('f32', 8, 'div', 'vertices') },
      { rung: 'wasm f32x4 rsqrt mix (8 vertices)', key: k('f32', 8, 'mix', 'vertices') },
      { rung: 'wasm f32x4 rsqrt mix, two divider sums', key: k('f32', 8, 'mix', 'vertices', 'simd128', 2) },
      { rung: 'wasm f64x2', key: k('f64', 4, 'div', 'vertices') },
      { rung: 'wasm f64x2 rsqrt nr (f32 estimate)', key: k('f64', 4, 'nr', 'vertices') },
    ]);
  }
  return fma([
    { rung: 'wasm f32x4 (4 vertices)', key: k('f32', 4, 'div', 'vertices') },
    { rung: 'wasm f32x4 (8 vertices)', key: k('f32', 8, 'div', 'vertices') },
    { rung: 'wasm f32x4 rsqrt nr', key: k('f32', 8, 'nr', 'vertices') },
    { rung: 'wasm f32x4 rsqrt mix (8 vertices)', key: k('f32', 8, 'mix', 'vertices') },
    { rung: 'wasm f32x4 rsqrt mix, two divider sums', key: k('f32', 8, 'mix', 'vertices', 'simd128', 2) },
    { rung: 'wasm f32x4 (4 atoms x 4 vertices)', key: k('f32', 4, 'div', 'atoms') },
    { rung: 'wasm f64x2', key: k('f64', 4, 'div', 'vertices') },
    { rung: 'wasm f64x2 rsqrt nr (f32 estimate)', key: k('f64', 4, 'nr', 'vertices') },
    { rung: 'wasm f64x2 rsqrt nr (f32 estimate, 8 vertices)', key: k('f64', 8, 'nr', 'vertices') },
  ]);
}

/**
 * A baseline timed once more in each round of benchGemWasm (the C -ffast-math f32 build: its own
 * kernel time of one run, in seconds); `times` collects them.
 */
export interface GemRoundPeer {
  run: () => number;
  times: number[];
}

/**
 * Time wasm variants on one problem (one thread): each prepared once (layout, copy into the
 * instance's memory) and one run checked against `ref`; then `reps` rounds, each calling every
 * variant once in turn (reversed in odd rounds) and `peer` once, the first round a warm-up where
 * reps > 1. Each row's time is its fastest round: rows timed one after another, minutes apart,
 * on a host whose neighbours come and go, were as much as 1.5x apart from one run to the next (the
 * multiply-add-bound `mix` and `nr` rows most); in rounds every row and the peer see the same
 * minutes. Throws when a variant misses the bar. `check` picks the vertices `ref` is for (all by default).
 */
export async function benchGemWasm(rungs: { rung: string; key: string }[], atoms: GemAtoms, verts: GemVertices, params: GemParams, ref: Float64Array, reps: number, check?: number[], phis?: Map<string, Float64Array>, peer?: GemRoundPeer): Promise<Omit<GemBenchRow, 'molecule' | 'region' | 'pairsPerSecond'>[]> {
  const { prepareGemWasm } = await import('../runtime/gem/wasm.ts');
  const runs: { rung: string; key: string; precision: GemPrecision; prep: Awaited<ReturnType<typeof prepareGemWasm>>; acc: ReturnType<typeof gemAccuracy>; times: number[] }[] = [];
  try {
    for (const { rung, key } of rungs) {
      const info = await gemVariantInfo(key);
      const prep = await prepareGemWasm(key, atoms, verts, { params });
      let phi: Float64Array;
      try {
        phi = await prep.run();
      } catch (e) {
        await prep.destroy();
        throw e;
      }
      const acc = gemAccuracy(check ? Float64Array.from(check, (i) => phi[i]!) : phi, ref, info.precision);
      runs.push({ rung, key, precision: info.precision, prep, acc, times: [] });
      if (!acc.ok) throw new Error(`${key} failed verification (${acc.bar}): RMSE ${acc.rmse.toExponential(2)}, max |diff| ${acc.maxAbs.toExponential(2)}`);
      phis?.set(key, phi);
    }
    collect();
    for (let r = 0; r < Math.max(1, reps); r++) {
      const order = r % 2 === 0 ? runs : [...runs].reverse();
      for (const x of order) {
        const t0 = performance.now();
        await x.prep.run();
        x.times.push((performance.now() - t0) / 1000);
      }
      if (peer) peer.times.push(peer.run());
    }
    return runs.map((x) => {
      // the first of several rounds is the warm-up
      const times = reps > 1 ? x.times.slice(1) : x.times;
      return { rung: x.rung, key: x.key, precision: x.precision, seconds: fastest(times), spread: times.length > 1 ? (median(times) - fastest(times)) / fastest(times) : NaN, rmse: x.acc.rmse, maxAbs: x.acc.maxAbs };
    });
  } finally {
    for (const x of runs) await x.prep.destroy();
  }
}

/** gpu.js modes of the GEM rows, in the order they are tried (webgpu before headlessgl: Dawn and headless-gl never share a process, and the WGSL rows open Dawn first). */
export const GEM_GPUJS_MODES: readonly GpujsMode[] = BENCH_GPUJS_MODES;

/** The gpu.js key of a region and mode: one vertex per kernel thread, f32, zero salt (rendered on demand where the library lacks it). */
export const gemGpujsKey = (region: GemRegion, mode: GpujsMode): string => `gem-potential.gpujs.region${region}.f32.zero.unroll1.div.block0.${mode}`;

/** The gpu.js modes among `modes` that run in this process, and why each other one does not (probed in order). */
export async function gemGpujsModes(modes: readonly GpujsMode[] = GEM_GPUJS_MODES): Promise<{ modes: GpujsMode[]; skipped: { mode: GpujsMode; why: string }[] }> {
  const { availableGpujsModes } = await import('../runtime/backends/gpujs.ts');
  const a = await availableGpujsModes(modes);
  return { modes: a.modes, skipped: Object.entries(a.unavailable).map(([mode, why]) => ({ mode: mode as GpujsMode, why: why! })) };
}

/**
 * Time gpu.js variants on one problem: each prepared once, the first run (which compiles the
 * kernel) checked against `ref` with the paper's f32 RMSE bar, one more to warm up, then `reps`
 * timed runs (each returns phi to this thread). Throws when a variant misses the bar.
 */
export async function benchGemGpujs(modes: readonly GpujsMode[], region: GemRegion, atoms: GemAtoms, verts: GemVertices, params: GemParams, ref: Float64Array, reps: number): Promise<Omit<GemBenchRow, 'molecule' | 'region' | 'pairsPerSecond'>[]> {
  const { prepareGemGpujs } = await import('../runtime/gem/gpujs.ts');
  const out: Omit<GemBenchRow, 'molecule' | 'region' | 'pairsPerSecond'>[] = [];
  for (const mode of modes) {
    const key = gemGpujsKey(region, mode);
    const prep = await prepareGemGpujs(key, atoms, verts, { params });
    try {
      collect();
      const acc = gemAccuracy(await prep.run(), ref, 'f32');
      if (!acc.ok) throw new Error(`${key} failed verification (${acc.bar}): RMSE ${acc.rmse.toExponential(2)}, max |diff| ${acc.maxAbs.toExponential(2)}`);
      await prep.run();
      const times: number[] = [];
      for (let r = 0; r < Math.max(1, reps); r++) {
        const t0 = performance.now();
        await prep.run();
        times.push((performance.now() - t0) / 1000);
      }
      out.push({ rung: `gpu.js ${mode}`, key, precision: 'f32', seconds: fastest(times), spread: times.length > 1 ? (median(times) - fastest(times)) / fastest(times) : NaN, rmse: acc.rmse, maxAbs: acc.maxAbs });
    } finally {
      prep.destroy();
    }
  }
  return out;
}

/**
 * Time TS and wasm variants on worker threads: for each variant and each count above 1, the
 * vertices split over a pool of that many workers (TS: runGemParallel on shared arguments; wasm:
 * prepareGemWasm on the pool, every worker holding the problem). The first run's phi must equal
 * the one-thread output `single.get(key)` bit for bit (as runGemParallel and the wasm runner
 * promise) and pass the accuracy bar against `ref` (on the vertices `check` when given); then
 * `reps` timed runs (with `timeFirst`, the checked run is the first timed one, as in the large
 * case where one run takes seconds). Rows carry `threads`, `identical` and (from `oneThread`) the speed-up.
 */
export async function benchGemThreads(variants: { rung: string; key: string }[], counts: number[], atoms: GemAtoms, verts: GemVertices, params: GemParams, ref: Float64Array, reps: number, single: Map<string, Float64Array>, pools: PoolsByThreads, check?: number[], oneThread?: Map<string, number>, timeFirst = false): Promise<Omit<GemBenchRow, 'molecule' | 'region' | 'pairsPerSecond'>[]> {
  const out: Omit<GemBenchRow, 'molecule' | 'region' | 'pairsPerSecond'>[] = [];
  for (const { rung, key } of variants) {
    const want = single.get(key);
    if (!want) throw new Error(`benchGemThreads: no one-thread output of ${key} to check the threaded ones against`);
    const info = await gemVariantInfo(key);
    checkVariant(key, info, params);
    for (const t of counts.filter((n) => n > 1)) {
      // the runner of the key's target (runtime/gem/targets.ts) on the pool: TS runGemParallel
      // on shared arguments, wasm every worker holding the problem
      const pool = await pools.get(t);
      const prep = await GEM_TARGETS.get(keyTarget(key), 'bench gem').prepare(key, atoms, verts, { params, pool });
      const run = async (): Promise<Float64Array> => {
        await prep.run();
        return prep.result();
      };
      const destroy = async (): Promise<void> => prep.dispose();
      try {
        collect();
        const t1 = performance.now();
        const phi = await run(); // warm-up (JIT in the workers), and the output that is checked
        const first = (performance.now() - t1) / 1000;
        for (let i = 0; i < want.length; i++) {
          if (!(phi[i] === want[i])) throw new Error(`${key} on ${t} threads differs from one thread at vertex ${i}: ${phi[i]} vs ${want[i]} (the threaded runners promise the same result bit for bit)`);
        }
        const acc = gemAccuracy(check ? Float64Array.from(check, (i) => phi[i]!) : phi, ref, info.precision);
        if (!acc.ok) throw new Error(`${key} on ${t} threads failed verification (${acc.bar}): RMSE ${acc.rmse.toExponential(2)}`);
        const times: number[] = timeFirst ? [first] : [];
        while (times.length < Math.max(1, reps)) {
          const t0 = performance.now();
          await run();
          times.push((performance.now() - t0) / 1000);
        }
        const seconds = fastest(times);
        const one = oneThread?.get(key);
        out.push({ rung, key, precision: info.precision, seconds, spread: times.length > 1 ? (median(times) - seconds) / seconds : NaN, rmse: acc.rmse, maxAbs: acc.maxAbs, threads: t, identical: true, ...(one !== undefined ? { speedup: one / seconds } : {}) });
      } finally {
        await destroy();
      }
    }
  }
  return out;
}

/** The variants timed on threads in one table: the best one-thread TS and wasm rows and the workload's defaults (TS f32 unroll 4, wasm f32x4 unroll 8, as runtime/gem/defaults.ts preferredGemKey). */
function threadPicks(rows: GemBenchRow[], region: GemRegion, withDefaults: boolean): { rung: string; key: string }[] {
  const one = rows.filter((r) => (r.threads ?? 1) === 1);
  const best = (prefix: string) => {
    const m = one.filter((r) => r.key.startsWith(prefix));
    return m.length ? m.reduce((a, b) => (a.seconds <= b.seconds ? a : b)) : undefined;
  };
  const defaults = withDefaults ? [preferredGemKey(region, 'zero'), preferredGemKey(region, 'zero', 'wasm')] : [];
  const picks = [best('gem-potential.ts.'), best('gem-potential.wasm.'), ...defaults.map((k) => one.find((r) => r.key === k))];
  const out: { rung: string; key: string }[] = [];
  for (const r of picks) if (r && !out.some((o) => o.key === r.key)) out.push({ rung: r.rung, key: r.key });
  return out;
}

/** The threads table: for each variant with threaded rows, its one-thread row and those; ratios to both C builds and per core. */
export function formatGemThreads(rows: GemBenchRow[]): string {
  const head = ['variant', 'threads', 'ms (min)', 'pairs/s', 'speed-up', 'vs C', 'per core', 'vs C -ffast-math', 'per core (fast)', 'check'];
  const lines = [`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`];
  const keys = [...new Set(rows.filter((r) => (r.threads ?? 1) > 1).map((r) => r.key))];
  const x = (v: number | undefined) => (v === undefined ? '-' : `${v.toFixed(2)}x`);
  for (const key of keys) {
    const one = rows.find((r) => r.key === key && (r.threads ?? 1) === 1);
    for (const r of [...(one ? [one] : []), ...rows.filter((q) => q.key === key && (q.threads ?? 1) > 1)]) {
      const t = r.threads ?? 1;
      lines.push(`| ${[
        `\`${key}\``, String(t), (r.seconds * 1e3).toFixed(1), r.pairsPerSecond.toExponential(3), t === 1 ? '1.00x' : x(r.speedup),
        x(r.vsC), x(r.perCore ?? (r.vsC !== undefined ? r.vsC / t : undefined)), x(r.vsCFast), x(r.perCoreFast ?? (r.vsCFast !== undefined ? r.vsCFast / t : undefined)),
        t === 1 ? `RMSE ${r.rmse.toExponential(2)}` : `${r.identical ? '= 1 thread bit for bit' : 'NOT CHECKED'}, RMSE ${r.rmse.toExponential(2)}`,
      ].join(' | ')} |`);
    }
  }
  return lines.join('\n');
}

/**
 * Per precision, the best per-core ratio to the -ffast-math C build among the TS and wasm rows
 * (one thread: the ratio itself), as goal lines: f32 >= 0.6x (issue 16), f64 >= 0.5x.
 */
function perCoreGoal(rows: GemBenchRow[], goals: Record<'f32' | 'f64', number> = { f32: 0.6, f64: 0.5 }): string | undefined {
  const out: string[] = [];
  for (const prec of ['f32', 'f64'] as const) {
    const cpu = rows.filter((r) => r.precision === prec && (r.key.startsWith('gem-potential.ts.') || r.key.startsWith('gem-potential.wasm.')) && r.perCoreFast !== undefined);
    if (cpu.length === 0) continue;
    const b = cpu.reduce((a, c) => (a.perCoreFast! >= c.perCoreFast! ? a : c));
    const goal = goals[prec];
    out.push(`  best ${prec} per core (goal >= ${goal}x the C ${prec} -ffast-math build per core): ${b.key} on ${b.threads ?? 1} thread${(b.threads ?? 1) > 1 ? 's' : ''}: ${b.perCoreFast!.toFixed(2)}x per core (${b.perCoreFast! >= goal ? 'met' : 'not met'})`);
  }
  return out.length ? out.join('\n') : undefined;
}

/** The vector instructions in gcc's code for gem_ref.c (f32), plain and -ffast-math; undefined without gcc. */
export function gemAsmFacts(): { plain?: AsmFacts; fast?: AsmFacts } {
  return {
    plain: asmFacts(GEM_REF_SOURCE, ['-O3', '-march=native', '-DREAL=float']),
    fast: asmFacts(GEM_REF_SOURCE, ['-O3', '-march=native', '-ffast-math', '-DREAL=float']),
  };
}

/**
 * What bounds the rows of one molecule, from this run's measurements: the C builds (their
 * vector instructions and the -ffast-math gain), the best one-thread row against them, the
 * Newton rsqrt against sqrt + div (same unroll), the wasm `div` kernels against loops of their
 * square roots and divisions alone (`divider`, dividerLimits), region 3 against region 1,
 * thread scaling.
 */
export function gemLimits(rows: GemBenchRow[], asm: { plain?: AsmFacts; fast?: AsmFacts }, divider?: GemDividerLoops): string[] {
  const out: string[] = [];
  const time = (key: string, region: GemRegion = 1) => rows.find((r) => r.key === key && r.region === region && (r.threads ?? 1) === 1)?.seconds;
  const c = (fast: boolean, region: GemRegion = 1, two = false) => time(gemRefKey(fast, 'f32', two), region);
  const cp = c(false), cf = c(true), c2 = c(true, 1, true);
  if (cp !== undefined && cf !== undefined) {
    out.push(`C f32: the -ffast-math build is ${(cp / cf).toFixed(2)}x the plain one${asm.plain && asm.fast ? ` (gcc's code: plain ${formatAsmFacts(asm.plain)}; -ffast-math ${formatAsmFacts(asm.fast)})` : ''}`);
  }
  if (cf !== undefined && c2 !== undefined) {
    out.push(`C f32 -ffast-math at p = 0: the one-root loop (as the kernels take it) is ${(c2 / cf).toFixed(2)}x the same build with both roots (GEM's formula as written, ${(c2 * 1e3).toFixed(1)} ms)`);
  }
  const one = rows.filter((r) => r.region === 1 && (r.threads ?? 1) === 1 && r.precision === 'f32' && (r.key.startsWith('gem-potential.ts.') || r.key.startsWith('gem-potential.wasm.')));
  if (one.length > 0) {
    const b = one.reduce((a, x) => (a.seconds <= x.seconds ? a : x));
    const vsTwo = c2 !== undefined ? `${(c2 / b.seconds).toFixed(2)}x C -ffast-math with both roots, ` : '';
    out.push(`best one-thread f32 row ${b.key}: ${b.vsCFast !== undefined ? `${b.vsCFast.toFixed(2)}x C -ffast-math, ` : ''}${vsTwo}${b.vsC !== undefined ? `${b.vsC.toFixed(2)}x plain C, ` : ''}${b.pairsPerSecond.toExponential(2)} pairs/s${b.key.startsWith('gem-potential.wasm.') ? ` (WebAssembly SIMD: 128-bit f32x4${b.key.split('.').includes('relaxed') ? ', relaxed_madd' : ', no FMA'}, ${/\.nr\./.test(b.key) ? 'bit-level rsqrt estimate + Newton steps' : /\.mix\./.test(b.key) ? 'sqrt + div beside the rsqrt estimate + Newton steps' : 'sqrt + div'}; gcc's -ffast-math code uses 512-bit vectors here)` : ' (JavaScript: scalar doubles)'}`);
  }
  const pair = (what: string, a: string, b: string) => {
    const ta = time(a), tb = time(b);
    return ta !== undefined && tb !== undefined ? `${what} ${(tb / ta).toFixed(2)}x` : undefined;
  };
  const nr = [
    pair('wasm', 'gem-potential.wasm.region1.f32.zero.unroll8.nr.block0.vertices.simd128', 'gem-potential.wasm.region1.f32.zero.unroll8.div.block0.vertices.simd128'),
    pair('TS', 'gem-potential.ts.region1.f32.zero.unroll4.nr.block0', 'gem-potential.ts.region1.f32.zero.unroll4.div.block0'),
  ].filter(Boolean);
  if (nr.length) {
    const wasmNr = /wasm (\S+)x/.exec(nr.join(' '));
    const verdict = wasmNr ? (Number(wasmNr[1]) > 1.05 ? '; sqrt + div latency does cost the wasm kernel' : '; the Newton steps on the multiply-add pipes cost more than the divider time they save') : '';
    out.push(`the Newton rsqrt form against sqrt + div (same unroll), speed ratio ${nr.join(', ')} (> 1: the Newton form is faster)${verdict}`);
  }
  // region 3 rows have region 3, region 1 rows region 1: compare across regions
  const t3 = (key3: string, key1: string) => {
    const a = time(key3, 3), b = time(key1, 1);
    return a !== undefined && b !== undefined ? b / a : undefined;
  };
  const w3 = t3('gem-potential.wasm.region3.f32.zero.unroll8.div.block0.vertices.simd128', 'gem-potential.wasm.region1.f32.zero.unroll8.div.block0.vertices.simd128');
  const s3 = t3('gem-potential.ts.region3.f32.zero.unroll4.div.block0', 'gem-potential.ts.region1.f32.zero.unroll4.div.block0');
  const c3 = c(true, 3) !== undefined && cf !== undefined ? cf / c(true, 3)! : undefined;
  const parts3 = [w3 !== undefined ? `wasm ${w3.toFixed(2)}x` : '', s3 !== undefined ? `TS ${s3.toFixed(2)}x` : '', c3 !== undefined ? `C -ffast-math ${c3.toFixed(2)}x` : ''].filter(Boolean);
  if (parts3.length) out.push(`region 3 (zero salt: q/d per pair) against region 1 at p = 0 (one root per pair too, the factor 1 - g in the scale), speed ratio ${parts3.join(', ')}`);
  if (divider) out.push(...dividerLimits(rows, divider));
  for (const r of rows.filter((x) => (x.threads ?? 1) > 1 && x.region === 1 && x.speedup !== undefined)) {
    out.push(`${r.key} on ${r.threads} threads: ${r.speedup!.toFixed(2)}x one thread (${((100 * r.speedup!) / r.threads!).toFixed(0)}% per core)`);
  }
  return out;
}

/** The divider's loop with the wasm f32 `div` kernels' operations per vector (bench/divider.ts): ns per iteration. */
export interface GemDividerLoops {
  /** 1 f32x4.sqrt + 1 f32x4.div: 1/sqrt(d^2), the one root per pair of region 3 and of region 1 at p = 0 (the bench's regions). */
  oneRoot: number;
}

/** Time the divider's loop of the wasm f32 `div` kernels, in this process. */
export async function gemDividerLoops(): Promise<GemDividerLoops> {
  return { oneRoot: await dividerNs(1, 1, 'f32x4') };
}

/**
 * The fastest one-thread wasm f32 `div` row of each region against a loop of the same square
 * roots and divisions per vector of 4 pairs: near 100%, the divider bounds the kernel.
 */
export function dividerLimits(rows: GemBenchRow[], d: GemDividerLoops): string[] {
  const out: string[] = [];
  for (const region of [1, 3] as const) {
    const [ns, ops] = [d.oneRoot, '1 f32x4.sqrt + 1 f32x4.div'];
    const rs = rows.filter((r) => r.region === region && (r.threads ?? 1) === 1 && r.precision === 'f32' && r.key.startsWith('gem-potential.wasm.') && r.key.includes('.div.'));
    if (rs.length === 0) continue;
    const b = rs.reduce((a, x) => (a.seconds <= x.seconds ? a : x));
    const perVector = 4e9 / b.pairsPerSecond;
    const share = ns / perVector;
    out.push(
      `region ${region}, ${b.key}: ${perVector.toFixed(2)} ns per f32x4 of 4 pairs; its ${ops} alone, in a loop timed now: ${ns.toFixed(2)} ns (${(100 * share).toFixed(0)}%)` +
        (share >= 0.9 ? ': the divider bounds this kernel (gcc -ffast-math uses rsqrt estimates, no divider; WebAssembly has no such estimate)' : ''),
    );
  }
  return out;
}

/** C times per precision: the plain build and the -ffast-math one. */
interface CTimes {
  plain: Partial<Record<GemPrecision, number>>;
  fast: Partial<Record<GemPrecision, number>>;
}

/** Set each row's ratios to the C builds of its precision. */
function setRatios(rows: GemBenchRow[], c: CTimes): void {
  for (const r of rows) {
    const t = r.threads ?? 1;
    if (c.plain[r.precision] !== undefined) {
      r.vsC = c.plain[r.precision]! / r.seconds;
      r.perCore = r.vsC / t;
    }
    if (c.fast[r.precision] !== undefined) {
      r.vsCFast = c.fast[r.precision]! / r.seconds;
      r.perCoreFast = r.vsCFast / t;
    }
  }
}

/** "best <what>: key ms, pairs/s; ratios to each C build" for the fastest row whose key starts with `prefix`, per precision. */
function bestLines(rows: GemBenchRow[], prefix: string, what: string, c: CTimes): string[] {
  const out: string[] = [];
  for (const prec of ['f32', 'f64'] as const) {
    const mine = rows.filter((r) => r.key.startsWith(prefix) && r.precision === prec && (r.threads ?? 1) === 1);
    if (mine.length === 0) continue;
    const b = mine.reduce((x, y) => (x.seconds <= y.seconds ? x : y));
    const ratios = [
      c.plain[prec] !== undefined ? `${(c.plain[prec]! / b.seconds).toFixed(2)}x the C ${prec} -O3 -march=native` : '',
      c.fast[prec] !== undefined ? `${(c.fast[prec]! / b.seconds).toFixed(2)}x the C ${prec} -O3 -march=native -ffast-math` : '',
    ].filter(Boolean);
    out.push(`  best ${what} ${prec}: ${b.key} ${(b.seconds * 1e3).toFixed(1)} ms, ${b.pairsPerSecond.toExponential(3)} pairs/s${ratios.length ? `; ${ratios.join(', ')}` : '; no C reference to compare with'}`);
  }
  return out;
}

/** The key of a C row: build, and region 1's two-root form at p = 0 (GEM's formula as written). */
export const gemRefKey = (fast: boolean, precision: GemPrecision, twoRoots = false): string =>
  `C gem_ref.c${fast ? ' -ffast-math' : ''}${twoRoots ? ' two-roots' : ''} (REAL=${precision === 'f64' ? 'double' : 'float'})`;

/**
 * Run both C builds (when compiled) on one input file, check them, push their rows; their times per
 * precision. `twoRoots` (region 1 at p = 0): the -ffast-math build also with both roots, GEM's
 * formula as written, in rows of their own (the ratios stay against the like-for-like C).
 */
function runCBuilds(builds: { build: GemRefBuild; fast: boolean }[], input: string, verts: GemVertices, reps: number, ref: Float64Array, pick: (a: Float64Array) => Float64Array, push: (r: Omit<GemBenchRow, 'molecule' | 'region' | 'pairsPerSecond'>) => void, log: (l: string) => void, sums?: string[], twoRoots = false): CTimes {
  const times: CTimes = { plain: {}, fast: {} };
  for (const { build, fast } of builds) {
    if (!build.bins) continue;
    for (const two of fast && twoRoots ? [false, true] : [false]) {
      for (const precision of ['f64', 'f32'] as const) {
        const c = runGemRef(build.bins[precision], input, precision, reps, verts.n, two);
        const acc = gemAccuracy(pick(c.phi), ref, precision);
        const sum = c.phi.reduce((s, x) => s + x, 0);
        const name = `C ${precision}${fast ? ' -ffast-math' : ''}${two ? ' two-roots' : ''}`;
        if (Math.abs(sum - c.checksum) > 1e-9 * Math.max(1, Math.abs(sum))) throw new Error(`gem_ref ${name}: checksum ${c.checksum} but its phi sums to ${sum}`);
        if (!acc.ok) log(`  warning: ${name} misses the bar against the f64 reference (${acc.bar}): RMSE ${acc.rmse.toExponential(2)}, max |diff| ${acc.maxAbs.toExponential(2)}; its time is still a baseline`);
        if (!two) (fast ? times.fast : times.plain)[precision] = c.seconds;
        sums?.push(`${name} ${c.checksum.toPrecision(12)}`);
        push({ rung: two ? 'C -ffast-math, both roots (GEM as written)' : fast ? 'C reference -ffast-math' : 'C reference', key: gemRefKey(fast, precision, two), precision, seconds: c.seconds, spread: NaN, rmse: acc.rmse, maxAbs: acc.maxAbs });
      }
    }
  }
  return times;
}

function timeCalls(run: () => void, reps: number): number[] {
  const times: number[] = [];
  for (let r = 0; r < reps; r++) {
    const t0 = performance.now();
    run();
    times.push((performance.now() - t0) / 1000);
  }
  return times;
}

/** Run the benchmark and print its tables; returns the rows. */
export async function benchGem(o: GemBenchOptions = {}): Promise<GemBenchRow[]> {
  const log = o.log ?? ((s: string) => console.log(s));
  const reps = o.reps ?? 5;
  const naiveReps = o.naiveReps ?? 2;
  const data = o.dataDir ?? GEM_DATA_DIR;
  const molecules = o.molecules ?? ['1uwo_A', 'mb_hhelix', 'nucleosome'];
  const dir = mkdtempSync(join(tmpdir(), 'kernforge-gem-bench-'));
  const rows: GemBenchRow[] = [];
  const counts = [...new Set(o.threads ?? threadLadder(availableParallelism()))].sort((a, b) => a - b);
  const pools = new PoolsByThreads();
  try {
    const build = compileGemRef(dir);
    const fastBuild = compileGemRef(dir, { fastMath: true });
    log(build.bins ? `C reference: ${build.cmd} (one thread, no -ffast-math)` : `C reference skipped: ${build.why}; no ratios to C`);
    log(fastBuild.bins ? `C reference -ffast-math: ${fastBuild.cmd} (one thread)` : `C reference -ffast-math skipped: ${fastBuild.why}`);
    const cBuilds = [{ build, fast: false }, { build: fastBuild, fast: true }];
    if (o.wasm !== false) {
      const rx = probeWasmRelaxedSimd();
      log(rx.ok ? 'wasm: relaxed SIMD compiles here: the f32 and f64 Newton rungs also with relaxed_madd (simd: relaxed)' : `wasm: relaxed SIMD rungs unavailable: ${rx.why}`);
    }
    const adapter = o.wgsl === false ? { why: 'not asked for' } : await benchAdapter();
    if ('why' in adapter) log(`WGSL rungs skipped: ${adapter.why}`);
    else {
      log(`WGSL rungs of the ladders (MSMS surfaces) on the WebGPU adapter ${adapter.name}: one dispatch timed, uploads and read-back left out`);
      if (adapter.cpu) log(`  note: ${adapter.name.includes('llvmpipe') ? 'llvmpipe' : 'this adapter'} is a CPU rasterizer (Mesa's software renderer), not a GPU: the WGSL rows run on this machine's CPU cores, all of them (the C and TS rows use one thread)`);
    }
    // gpu.js: probed after Dawn is open (the WGSL rows), so headlessgl is refused rather than breaking WebGPU
    const gj = o.gpujs === false ? { modes: [] as GpujsMode[], skipped: [] } : await gemGpujsModes(Array.isArray(o.gpujs) ? o.gpujs : GEM_GPUJS_MODES);
    if (o.gpujs !== false) {
      log(gj.modes.length ? `gpu.js rows (MSMS surfaces; f32, one vertex per kernel thread, the first run compiles and is verified) in mode${gj.modes.length > 1 ? 's' : ''} ${gj.modes.join(', ')}` : 'gpu.js rows: no mode runs here');
      for (const sk of gj.skipped) log(`  gpu.js ${sk.mode} skipped: ${sk.why}`);
    }
    const more = counts.filter((t) => t > 1);
    log(more.length ? `Threads: the best TS and wasm rows and the defaults also on ${more.join(', ')} worker threads (${availableParallelism()} CPUs here); per core = ratio to the one-thread C / threads` : 'Threads: one thread only (--threads 1)');
    const asm = build.bins ? gemAsmFacts() : {};
    for (const mol of molecules) {
      if (!existsSync(join(data, `${mol}.vert`))) {
        rows.push(...(await benchGemLarge({ molecule: mol, dataDir: data, reps: o.largeReps ?? 1, density: o.density, verifyVertices: o.verifyVertices, log, build, fastBuild, dir, wasm: o.wasm, ts: o.ts, threads: counts, pools })));
        continue;
      }
      const molRows: GemBenchRow[] = [];
      const atoms = readPqr(join(data, `${mol}.pqr`));
      const verts = readVert(join(data, `${mol}.vert`));
      const regions: GemRegion[] = o.region3 === false ? [1] : [1, 3];
      for (const region of regions) {
        const params = gemParams(atoms, { p: region === 1 ? 0 : 3 });
        if (selectRegion(params.A, params.p, params.ionRadius) !== region) throw new Error(`p = ${params.p} does not give region ${region}`);
        const pairs = atoms.n * verts.n;
        log(`\n### ${mol}: ${atoms.n} atoms x ${verts.n} vertices = ${pairs.toExponential(3)} pairs; region ${region} (p = ${params.p}), A = ${params.A.toFixed(4)}, eps 80/1, no salt`);
        const mine: GemBenchRow[] = [];
        const push = (r: Omit<GemBenchRow, 'molecule' | 'region' | 'pairsPerSecond'>): void => {
          const row = { molecule: mol, region, pairsPerSecond: pairs / r.seconds, ...r };
          mine.push(row);
          molRows.push(row);
          rows.push(row);
        };
        /** One-thread outputs (phi widened to f64) of the TS and wasm rows, to check the threaded runs against. */
        const single = new Map<string, Float64Array>();

        // naive: the f64 reference itself (a per-pair function call with the region's switch, every term of the formula).
        collect();
        const t0 = performance.now();
        const ref = gemReference(atoms, verts, params, region);
        const first = (performance.now() - t0) / 1000;
        if (region === 1) {
          const times = [first, ...timeCalls(() => gemReference(atoms, verts, params, region), Math.max(0, naiveReps - 1))];
          push({ rung: 'naive', key: 'model.ts gemReference', precision: 'f64', seconds: fastest(times), spread: (median(times) - fastest(times)) / fastest(times), rmse: 0, maxAbs: 0 });
        }

        const sums: string[] = [];
        let cTimes: CTimes = { plain: {}, fast: {} };
        // the C builds' input file (written where they run)
        const input = join(dir, `${mol}.r${region}.bin`);
        if (build.bins || fastBuild.bins) {
          writeGemRefInput(input, atoms, verts, params, region);
          cTimes = runCBuilds(cBuilds, input, verts, reps, ref, (a) => a, push, log, sums, oneRootLoop(region, params));
          log(`  checksums (sum of phi): ${sums.join(', ')}, f64 reference ${ref.reduce((s, x) => s + x, 0).toPrecision(12)}`);
        }

        for (const { rung, key } of o.ts === false ? [] : ladder(region)) {
          const info = await gemVariantInfo(key);
          checkVariant(key, info, params);
          const mod = await loadTsModule<GemTsModule>(key);
          const args = gemArgs(atoms, verts, params, info.precision);
          collect();
          mod.kernel(args); // warm-up (JIT) and the output that is verified
          const acc = gemAccuracy(args.phi, ref, info.precision);
          if (!acc.ok) throw new Error(`${key} failed verification on ${mol} (${acc.bar}): RMSE ${acc.rmse.toExponential(2)}, max |diff| ${acc.maxAbs.toExponential(2)}`);
          single.set(key, Float64Array.from(args.phi));
          mod.kernel(args);
          const times = timeCalls(() => mod.kernel(args), reps);
          push({ rung, key, precision: info.precision, seconds: fastest(times), spread: (median(times) - fastest(times)) / fastest(times), rmse: acc.rmse, maxAbs: acc.maxAbs });
        }
        if (!('why' in adapter)) {
          for (const r of await benchGemWgsl(wgslLadder(region), atoms, verts, params, ref, reps)) push(r);
        }
        if (o.wasm !== false) {
          // The C -ffast-math f32 build once more in each of the wasm rows' rounds: its fastest run
          // of all is the baseline, timed in the same minutes as the rows it is compared with.
          const fastBin = fastBuild.bins?.f32;
          const peer: GemRoundPeer | undefined = fastBin && cTimes.fast.f32 !== undefined ? { run: () => runGemRef(fastBin, input, 'f32', 1, verts.n).seconds, times: [] } : undefined;
          for (const r of await benchGemWasm(wasmLadder(region, probeWasmRelaxedSimd().ok), atoms, verts, params, ref, reps + 1, undefined, single, peer)) push(r);
          if (peer && peer.times.length > 0) {
            const before = cTimes.fast.f32!;
            const t = Math.min(before, fastest(peer.times));
            cTimes.fast.f32 = t;
            const row = mine.find((x) => x.key === gemRefKey(true, 'f32'));
            if (row) {
              row.seconds = t;
              row.pairsPerSecond = pairs / t;
            }
            log(`  C f32 -ffast-math timed again in each of the ${peer.times.length} rounds of the wasm rows: fastest ${(fastest(peer.times) * 1e3).toFixed(2)} ms (its own ${reps} runs before: ${(before * 1e3).toFixed(2)} ms); the baseline is the faster`);
          }
        }
        if (gj.modes.length > 0) {
          for (const r of await benchGemGpujs(gj.modes, region, atoms, verts, params, ref, reps)) push(r);
        }
        const oneThread = new Map(mine.map((r) => [r.key, r.seconds] as const));
        if (more.length > 0) {
          for (const r of await benchGemThreads(threadPicks(mine, region, true), counts, atoms, verts, params, ref, reps, single, pools, undefined, oneThread)) push(r);
        }
        setRatios(mine, cTimes);
        const c32 = cTimes.plain.f32;
        log(formatGemTable(mine.filter((r) => (r.threads ?? 1) === 1), region === 1));
        for (const l of [...bestLines(mine, 'gem-potential.ts.', 'TS', cTimes), ...bestLines(mine, 'gem-potential.wasm.', 'wasm', cTimes), ...bestLines(mine, 'gem-potential.gpujs.', 'gpu.js', cTimes)]) log(l);
        if (mine.some((r) => (r.threads ?? 1) > 1)) {
          log(`  threads (the vertices split over worker threads; ratios to the one-thread C builds; per core = ratio / threads):`);
          log(formatGemThreads(mine));
        }
        const goal = perCoreGoal(mine);
        if (goal) log(goal);
        const wg = mine.filter((r) => r.key.startsWith('gem-potential.wgsl.'));
        if (wg.length > 0) {
          const bw = wg.reduce((a, b) => (a.seconds <= b.seconds ? a : b));
          log(`  best WGSL: ${bw.key} ${(bw.seconds * 1e3).toFixed(1)} ms, ${bw.pairsPerSecond.toExponential(3)} pairs/s${c32 !== undefined ? `; ${(c32 / bw.seconds).toFixed(2)}x the C f32 reference` : ''}${'cpu' in adapter && adapter.cpu ? ' (on a CPU rasterizer)' : ''}`);
        }
      }
      const limits = gemLimits(molRows, asm, o.wasm !== false ? await gemDividerLoops() : undefined);
      if (limits.length) log([`  limits on ${mol} (measured in this run):`, ...limits.map((l) => `    - ${l}`)].join('\n'));
    }
    if (o.compareSurfaces !== false) {
      const withVert = molecules.filter((m) => existsSync(join(data, `${m}.vert`)));
      if (withVert.length > 0) {
        log('\n### Generated SES (probe 1.5, density 3, as the bundled MSMS files) against MSMS; GEM potentials from the f64 reference (region 1, eps 80/1, no salt)');
        log(formatSurfaceComparison(withVert.map((m) => compareSurfaceWithMsms(m, data))));
      }
    }
    log('Ratio "vs C" = C time / TS, wasm, gpu.js or WGSL time for the same precision (> 1: faster than C), against the plain build and the -ffast-math one; both C builds run on one thread, so per core = ratio / threads. TS f32 variants store f32 but compute in double (JS numbers); the C f32 builds, the wasm f32x4, the WGSL variants and gpu.js (except its cpu mode) compute and accumulate in float.');
    return rows;
  } finally {
    await pools.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The markdown table of one molecule and region. */
export function formatGemTable(rows: GemBenchRow[], notes = true): string {
  const head = ['rung', 'variant', 'prec', 'ms (min)', 'median +', 'pairs/s', 'vs C (same prec)', 'vs C -ffast-math', 'RMSE vs f64 ref'];
  const lines = [`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`];
  const hoisted = rows.findIndex((r) => r.rung.startsWith('structure of arrays'));
  rows.forEach((r, i) => {
    lines.push(`| ${[
      r.rung, `\`${r.key}\``, r.precision, (r.seconds * 1e3).toFixed(1),
      Number.isNaN(r.spread) ? '-' : `${(r.spread * 100).toFixed(1)}%`,
      r.pairsPerSecond.toExponential(3), r.vsC === undefined ? '-' : `${r.vsC.toFixed(2)}x`, r.vsCFast === undefined ? '-' : `${r.vsCFast.toFixed(2)}x`,
      r.key === 'model.ts gemReference' ? '(is the reference)' : r.rmse.toExponential(2),
    ].join(' | ')} |`);
    if (notes && i === hoisted) lines.push('| hoisted branches | (every generated variant: the region is a specialization, not a branch) | | | | | | | |');
  });
  return lines.join('\n');
}

/** Generated surface against MSMS's for one molecule: geometry and GEM potentials (region 1, eps 80/1, no salt). */
export interface SurfaceComparison {
  molecule: string;
  atoms: number;
  msmsVertices: number;
  genVertices: number;
  /** Mesh area of the generated surface (A^2); MSMS's .vert has no area. */
  genArea: number;
  /** Vertices per A^2 of the generated area: generated, MSMS. */
  genPerArea: number;
  msmsPerArea: number;
  /** Distance from each MSMS vertex to the nearest generated vertex (A): mean, 95th percentile, max. */
  nearMean: number;
  near95: number;
  nearMax: number;
  /** Mean angle between an MSMS normal and its nearest generated vertex's normal (degrees). */
  normalAngleMean: number;
  /** Potential statistics (kcal/mol/e) over the vertices of each surface. */
  phiMsms: { mean: number; min: number; max: number };
  phiGen: { mean: number; min: number; max: number };
  /** |phi at an MSMS vertex - phi at its nearest generated vertex|: mean and max; and the RMS of phi on MSMS's. */
  phiDiffMean: number;
  phiDiffMax: number;
  phiRms: number;
  genSeconds: number;
}

/** The nearest of the points `v` to each point of `q` (index), through a cell list. */
export function nearestVertices(v: GemVertices, q: GemVertices, cell = 1.5): Int32Array {
  const cells = new Map<string, number[]>();
  const k = (x: number, y: number, z: number) => `${Math.floor(x / cell)},${Math.floor(y / cell)},${Math.floor(z / cell)}`;
  for (let i = 0; i < v.n; i++) {
    const key = k(v.x[i]!, v.y[i]!, v.z[i]!);
    const l = cells.get(key);
    if (l) l.push(i);
    else cells.set(key, [i]);
  }
  const out = new Int32Array(q.n).fill(-1);
  for (let i = 0; i < q.n; i++) {
    let best = -1, bd = Infinity;
    for (let w = 1; best < 0 && w <= 64; w *= 2) {
      const cx = Math.floor(q.x[i]! / cell), cy = Math.floor(q.y[i]! / cell), cz = Math.floor(q.z[i]! / cell);
      for (let dz = -w; dz <= w; dz++) for (let dy = -w; dy <= w; dy++) for (let dx = -w; dx <= w; dx++) {
        for (const j of cells.get(`${cx + dx},${cy + dy},${cz + dz}`) ?? []) {
          const d = (q.x[i]! - v.x[j]!) ** 2 + (q.y[i]! - v.y[j]!) ** 2 + (q.z[i]! - v.z[j]!) ** 2;
          if (d < bd) {
            bd = d;
            best = j;
          }
        }
      }
    }
    out[i] = best;
  }
  return out;
}

const stats = (a: ArrayLike<number>) => {
  let s = 0, mn = Infinity, mx = -Infinity;
  for (let i = 0; i < a.length; i++) {
    s += a[i]!;
    mn = Math.min(mn, a[i]!);
    mx = Math.max(mx, a[i]!);
  }
  return { mean: s / a.length, min: mn, max: mx };
};

/** Compare a generated SES (MSMS's settings by default: probe 1.5, density 3) with the molecule's MSMS .vert. */
export function compareSurfaceWithMsms(molecule: string, dataDir = GEM_DATA_DIR, opts: SurfaceOptions = { kind: 'ses', probe: 1.5, density: 3 }): SurfaceComparison {
  const atoms = readPqr(join(dataDir, `${molecule}.pqr`));
  const msms = readVert(join(dataDir, `${molecule}.vert`));
  const gen: GemSurface = generateSurface(atoms, opts);
  const P = gemParams(atoms);
  const phiM = gemReference(atoms, msms, P);
  const phiG = gemReference(atoms, gen, P);
  const near = nearestVertices(gen, msms);
  const dist = new Float64Array(msms.n);
  let ang = 0, dsum = 0, dmax = 0, rms = 0;
  for (let i = 0; i < msms.n; i++) {
    const j = near[i]!;
    dist[i] = Math.hypot(msms.x[i]! - gen.x[j]!, msms.y[i]! - gen.y[j]!, msms.z[i]! - gen.z[j]!);
    const c = msms.nx[i]! * gen.nx[j]! + msms.ny[i]! * gen.ny[j]! + msms.nz[i]! * gen.nz[j]!;
    ang += (Math.acos(Math.max(-1, Math.min(1, c))) * 180) / Math.PI;
    const d = Math.abs(phiM[i]! - phiG[j]!);
    dsum += d;
    dmax = Math.max(dmax, d);
    rms += phiM[i]! ** 2;
  }
  const sorted = Float64Array.from(dist).sort();
  return {
    molecule, atoms: atoms.n, msmsVertices: msms.n, genVertices: gen.n, genArea: gen.totalArea,
    genPerArea: gen.n / gen.totalArea, msmsPerArea: msms.n / gen.totalArea,
    nearMean: dist.reduce((s, x) => s + x, 0) / msms.n, near95: sorted[Math.floor(0.95 * (msms.n - 1))]!, nearMax: sorted[msms.n - 1]!,
    normalAngleMean: ang / msms.n, phiMsms: stats(phiM), phiGen: stats(phiG),
    phiDiffMean: dsum / msms.n, phiDiffMax: dmax, phiRms: Math.sqrt(rms / msms.n), genSeconds: gen.seconds,
  };
}

/** The comparison as a markdown table, one column per molecule. */
export function formatSurfaceComparison(rows: SurfaceComparison[]): string {
  const f = (x: number, d = 3) => x.toFixed(d);
  const lines: [string, (r: SurfaceComparison) => string][] = [
    ['atoms', (r) => String(r.atoms)],
    ['vertices: MSMS / generated', (r) => `${r.msmsVertices} / ${r.genVertices}`],
    ['generated mesh area (A^2)', (r) => f(r.genArea, 1)],
    ['MSMS area estimate n/3.0 (A^2)', (r) => f(r.msmsVertices / 3, 1)],
    ['vertices per A^2 of the generated area: MSMS / generated', (r) => `${f(r.msmsPerArea)} / ${f(r.genPerArea)}`],
    ['MSMS vertex to nearest generated vertex (A): mean / 95% / max', (r) => `${f(r.nearMean)} / ${f(r.near95)} / ${f(r.nearMax)}`],
    ['normal angle to nearest generated vertex, mean (deg)', (r) => f(r.normalAngleMean, 1)],
    ['phi on MSMS: mean / min / max', (r) => `${f(r.phiMsms.mean)} / ${f(r.phiMsms.min)} / ${f(r.phiMsms.max)}`],
    ['phi on generated: mean / min / max', (r) => `${f(r.phiGen.mean)} / ${f(r.phiGen.min)} / ${f(r.phiGen.max)}`],
    ['abs(phi MSMS vertex - phi nearest generated): mean / max', (r) => `${f(r.phiDiffMean)} / ${f(r.phiDiffMax)}`],
    ['RMS phi on MSMS', (r) => f(r.phiRms)],
    ['generation time (s)', (r) => f(r.genSeconds, 2)],
  ];
  const out = [`| | ${rows.map((r) => r.molecule).join(' | ')} |`, `|---|${rows.map(() => '---').join('|')}|`];
  for (const [name, get] of lines) out.push(`| ${name} | ${rows.map(get).join(' | ')} |`);
  return out.join('\n');
}

export interface GemLargeBenchOptions {
  /** A molecule in the data directory; its surface is generated (default nucleosome). */
  molecule?: string;
  dataDir?: string;
  /** Generated surface's vertices per A^2 (default 3). */
  density?: number;
  /** Timed runs per variant (default 1; the first run is the one verified). */
  reps?: number;
  /** Vertices checked against the f64 reference (default 2000). */
  verifyVertices?: number;
  log?: (line: string) => void;
  /** Compiled C references (plain and -ffast-math) and a scratch directory (compiled here when absent). */
  build?: GemRefBuild;
  fastBuild?: GemRefBuild;
  /** The wasm row (default true). */
  wasm?: boolean;
  /** The TS rows (default true). */
  ts?: boolean;
  /** Thread counts: counts above 1 time the best TS and the best wasm row on that many worker threads (default 1, 2, ... as benchGem). */
  threads?: number[];
  /** Worker pools to use (started here, and closed, when absent). */
  pools?: PoolsByThreads;
  dir?: string;
}

/** The variants timed in the large case: the workload's default, its Newton-Raphson rsqrt form, f64, and WebAssembly SIMD f32x4. */
export const GEM_LARGE_KEYS = [
  { rung: 'f32 (run gem default)', key: preferredGemKey(1, 'zero') },
  { rung: 'rsqrt nr', key: 'gem-potential.ts.region1.f32.zero.unroll4.nr.block0' },
  { rung: 'unrolled f64', key: 'gem-potential.ts.region1.f64.zero.unroll4.div.block0' },
  { rung: 'wasm f32x4 (8 vertices)', key: preferredGemKey(1, 'zero', 'wasm') },
];

/** The larger case: a generated SES, region 1, eps 80/1, no salt; both C builds, three TS variants and one wasm variant. */
export async function benchGemLarge(o: GemLargeBenchOptions = {}): Promise<GemBenchRow[]> {
  const log = o.log ?? ((s: string) => console.log(s));
  const mol = o.molecule ?? 'nucleosome';
  const reps = o.reps ?? 1;
  const own = o.dir ? undefined : mkdtempSync(join(tmpdir(), 'kernforge-gem-large-'));
  const dir = o.dir ?? own!;
  const pools = o.pools ?? new PoolsByThreads();
  const counts = [...new Set(o.threads ?? threadLadder(availableParallelism()))].sort((a, b) => a - b);
  try {
    const build = o.build ?? compileGemRef(dir);
    const fastBuild = o.fastBuild ?? compileGemRef(dir, { fastMath: true });
    const atoms = readPqr(join(o.dataDir ?? GEM_DATA_DIR, `${mol}.pqr`));
    const verts = generateSurface(atoms, { kind: 'ses', density: o.density });
    const params = gemParams(atoms, { p: 0 });
    const region = selectRegion(params.A, params.p, params.ionRadius);
    const pairs = atoms.n * verts.n;
    const label = `${mol} (generated SES)`;
    log(`\n### ${label}: ${atoms.n} atoms x ${verts.n} vertices = ${pairs.toExponential(3)} pairs; region ${region} (p = 0), A = ${params.A.toFixed(4)}, eps 80/1, no salt`);
    log(`  surface: SES probe ${verts.probe} A, density ${verts.density}/A^2, grid ${verts.gridSpacing.toFixed(3)} A, area ${verts.totalArea.toFixed(0)} A^2, generated in ${verts.seconds.toFixed(2)} s`);
    const m = Math.min(o.verifyVertices ?? 2000, verts.n);
    const idx = Array.from({ length: m }, (_, i) => Math.floor((i * verts.n) / m));
    const pick = (a: ArrayLike<number>) => Float64Array.from(idx, (i) => a[i]!);
    const sub: GemVertices = { n: m, x: pick(verts.x), y: pick(verts.y), z: pick(verts.z), nx: pick(verts.nx), ny: pick(verts.ny), nz: pick(verts.nz) };
    const ref = gemReference(atoms, sub, params, region);
    const rows: GemBenchRow[] = [];
    const push = (r: Omit<GemBenchRow, 'molecule' | 'region' | 'pairsPerSecond'>) => rows.push({ molecule: label, region, pairsPerSecond: pairs / r.seconds, ...r });
    let cTimes: CTimes = { plain: {}, fast: {} };
    if (build.bins || fastBuild.bins) {
      const input = join(dir, `${mol}.large.bin`);
      writeGemRefInput(input, atoms, verts, params, region);
      cTimes = runCBuilds([{ build, fast: false }, { build: fastBuild, fast: true }], input, verts, reps, ref, pick, push, log);
    } else log(`  C reference skipped: ${build.why}`);
    const single = new Map<string, Float64Array>();
    for (const { rung, key } of GEM_LARGE_KEYS) {
      if (key.startsWith('gem-potential.wasm.')) {
        if (o.wasm !== false) for (const r of await benchGemWasm([{ rung, key }], atoms, verts, params, ref, reps, idx, single)) push(r);
        continue;
      }
      if (o.ts === false) continue;
      const info = await gemVariantInfo(key);
      checkVariant(key, info, params);
      const mod = await loadTsModule<GemTsModule>(key);
      const args = gemArgs(atoms, verts, params, info.precision);
      collect();
      const times = timeCalls(() => mod.kernel(args), reps); // the first run is verified too
      const acc = gemAccuracy(pick(args.phi), ref, info.precision);
      if (!acc.ok) throw new Error(`${key} failed verification on ${label} (${acc.bar}): RMSE ${acc.rmse.toExponential(2)}`);
      push({ rung, key, precision: info.precision, seconds: fastest(times), spread: times.length > 1 ? (median(times) - fastest(times)) / fastest(times) : NaN, rmse: acc.rmse, maxAbs: acc.maxAbs });
      single.set(key, Float64Array.from(args.phi));
    }
    if (counts.some((t) => t > 1)) {
      // the best TS and the best wasm row (each threaded run is as long as a one-thread run / threads)
      const oneThread = new Map(rows.map((r) => [r.key, r.seconds] as const));
      for (const r of await benchGemThreads(threadPicks(rows, region, false), counts, atoms, verts, params, ref, reps, single, pools, idx, oneThread, true)) push(r);
    }
    setRatios(rows, cTimes);
    log(formatGemTable(rows.filter((r) => (r.threads ?? 1) === 1), false));
    for (const l of [...bestLines(rows, 'gem-potential.ts.', 'TS', cTimes), ...bestLines(rows, 'gem-potential.wasm.', 'wasm', cTimes)]) log(l);
    if (rows.some((r) => (r.threads ?? 1) > 1)) {
      log(`  threads (the vertices split over worker threads; ratios to the one-thread C builds; per core = ratio / threads):`);
      log(formatGemThreads(rows));
    }
    const goal = perCoreGoal(rows);
    if (goal) log(goal);
    log(`  accuracy checked on ${m} vertices spread over the surface (RMSE column); ${reps} timed run(s) per row; no gpu.js rows here (MSMS surfaces only)`);
    return rows;
  } finally {
    if (!o.pools) await pools.close();
    if (own) rmSync(own, { recursive: true, force: true });
  }
}
