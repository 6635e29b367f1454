// bigdft-conv benchmark (seed 002, Table I in shape; issue 5, "Measure"): the 3-D periodic
// magic filter on a 128x126x130 grid. The baseline is a C reference of BigDFT's convrot scheme
// (bench/bigdft/convrot.c: three transposing passes, 8 lines per inner iteration), compiled
// with `gcc -O3 -march=native` and run in the same run on the same input, one thread. The
// ladder, as the paper's Table I: naive (the generated direct triple sum), simple (separable
// 1-D passes in place, 1x1), simple_t (transposing passes, 1x1), unrolled (separable, 2x4),
// unrolled_t (transposing, the Table II patterns and C x 1 ones), the coefficient array vs
// literals and wrap table vs split loops, f32 storage, and WGSL (f32, through Dawn; on a
// machine without a GPU that is Mesa llvmpipe, a CPU rasterizer that runs the shader on
// LLVM-compiled SIMD code over all CPU threads, so not a one-thread number), and WebAssembly
// SIMD (f64x2, one thread: two lines per vector, or the paper's two shifted filter copies). The
// summary picks the best TypeScript pattern and the best wasm one, and reports every ratio to
// the C time of the same run.
// Threads (issue 7): the best TS and wasm rows (and the workload's defaults) run again with each
// 1-D pass split over 2.. worker threads (runtime/bigdft/apply.ts prepareParallel3d), checked
// to equal the one-thread output bit for bit, with the per-core ratio (ratio to the one-thread
// C / threads). gpu.js rows (f32, runtime/bigdft/gpujs.ts) in every mode that runs here, the
// others printed as skipped with the reason. A second C build without -march=native (x86-64
// baseline: SSE2, 128-bit vectors, no FMA, as WebAssembly SIMD) and the vector instructions in
// gcc's code for convrot.c back the "limits" line with measurements.
//
// Every variant is checked before it is timed: the C program and each variant against the
// f64 separable reference on a small odd grid (verifyConv); the timed outputs are also compared
// with the reference on the benchmark grid. GFlop/s use the paper's count 3*32*n1*n2*n3 per
// application for every algorithm (the direct sum does 16^3 * 2 flops per point, 43x more).
import { keyTarget } from '../runtime/keys.ts';
import { spawnSync, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync, readFileSync } from 'node:fs';
import { tmpdir, availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { separable, type Dims } from '../runtime/bigdft/reference.ts';
import { defaultVariants, defaultWasmVariants, filter } from '../runtime/bigdft/filters.ts';
import { prepare3d, prepareParallel3d } from '../runtime/bigdft/apply.ts';
import { CONV_TARGETS } from '../runtime/bigdft/targets.ts';
import { randomValues, verifyConv } from '../runtime/bigdft/verify.ts';
import { probeGpu, gpu } from '../runtime/backends/webgpu.ts';
import { toShared } from '../runtime/parallel/pool.ts';
import { threadLadder, PoolsByThreads } from '../runtime/tune/threads.ts';
import type { GpujsMode } from '../runtime/backends/gpujs.ts';
import { asmFacts, formatAsmFacts, BENCH_GPUJS_MODES, type AsmFacts } from './common.ts';
import { ceilingLoops, handoverPhrase, measureHandover, mergeHandover, type Handover } from './ceiling.ts';

setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as () => void;

export const CONVROT_SOURCE = new URL('./bigdft/convrot.c', import.meta.url).pathname;
export const BENCH_GRID: Dims = [128, 126, 130];
/** Small odd grid of the pre-timing checks (as in verifyBigdftVariant). */
export const CHECK_GRID: Dims = [17, 19, 21];
/** Largest accepted relative error (max |got - ref| / max |ref|) of the f64 C reference. */
export const C_TOLERANCE = 1e-12;

/** The key of the naive rung: the plain f64 reference of runtime/bigdft/reference.ts. */
export const NAIVE_KEY = 'reference.magic.f64.separable';

export interface LadderRung {
  /** Name in the spirit of the paper's Table I. */
  rung: string;
  /** A bigdft-conv variant key, or NAIVE_KEY. */
  key: string;
}

const k = (p: string, u: string, c = 'inline', w = 'table', alg = 'separable-t'): string => `bigdft-conv.ts.magic.periodic.${p}.${alg}.${u}.${c}.${w}`;
const wg = (w: string, o: number): string => `bigdft-conv.wgsl.magic.periodic.f32.separable-t.${w}.outputs${o}`;
const wa = (u: string, simd: string, c = 'inline'): string => `bigdft-conv.wasm.magic.periodic.f64.separable-t.${u}.${c}.${simd}`;
const gj = (mode: GpujsMode): string => `bigdft-conv.gpujs.magic.periodic.f32.separable-t.split.${mode}`;

/** gpu.js modes of the ladder, in the order they are tried (webgpu before headlessgl: Dawn and headless-gl never share a process, and the WGSL rows open Dawn). */
export const BIGDFT_GPUJS_MODES: readonly GpujsMode[] = BENCH_GPUJS_MODES;

/** The run bigdft workload's default magic-filter keys (runtime/bigdft/filters.ts defaultVariants / defaultWasmVariants), timed on threads too. */
export const BIGDFT_DEFAULT_KEYS = { ts: defaultVariants('f64').mf, wasm: defaultWasmVariants().mf };

/** The ladder, in table order. Keys outside the library are rendered on demand. */
export const LADDER: LadderRung[] = [
  { rung: 'naive (direct)', key: k('f64', '1x1', 'inline', 'split', 'direct') },
  { rung: 'plain reference', key: NAIVE_KEY },
  { rung: 'simple (separable)', key: k('f64', '1x1', 'inline', 'split', 'separable') },
  { rung: 'simple_t', key: k('f64', '1x1', 'array') },
  { rung: 'simple_t', key: k('f64', '1x1') },
  { rung: 'unrolled (separable)', key: k('f64', '2x4', 'inline', 'split', 'separable') },
  ...['1x4', '1x8', '2x4', '4x2', '8x1'].map((u) => ({ rung: 'unrolled_t', key: k('f64', u) })),
  ...['4x1', '6x1', '8x1', '2x4'].map((u) => ({ rung: 'unrolled_t split', key: k('f64', u, 'inline', 'split') })),
  { rung: 'coeffs array', key: k('f64', '1x4', 'array') },
  { rung: 'wrap split', key: k('f64', '1x4', 'inline', 'split') },
  { rung: 'array + split', key: k('f64', '1x4', 'array', 'split') },
  ...['1x1', '1x4', '8x1'].map((u) => ({ rung: 'f32', key: k('f32', u) })),
  ...['4x1', '6x1'].map((u) => ({ rung: 'f32 split', key: k('f32', u, 'inline', 'split') })),
  { rung: 'WGSL', key: wg('16x16', 1) },
  { rung: 'WGSL', key: wg('16x16', 2) },
  { rung: 'WGSL', key: wg('32x8', 2) },
  ...['2x2', '4x2', '6x2'].map((u) => ({ rung: 'wasm f64x2 lines', key: wa(u, 'lines') })),
  ...['8x1', '4x2'].map((u) => ({ rung: 'wasm f64x2 shifted', key: wa(u, 'shifted') })),
  { rung: 'wasm coeffs array', key: wa('4x2', 'lines', 'array') },
  ...BIGDFT_GPUJS_MODES.map((m) => ({ rung: `gpu.js ${m}`, key: gj(m) })),
];

/** The target of a ladder key (the naive and plain-reference rungs count as ts). */
export function targetOfKey(key: string): 'ts' | 'wasm' | 'wgsl' | 'gpujs' {
  const t = key === NAIVE_KEY ? 'ts' : keyTarget(key);
  return t === 'wasm' || t === 'wgsl' || t === 'gpujs' ? t : 'ts';
}

/** Rungs that are slow by design: timed once. */
const SLOW = new Set(['naive (direct)', 'plain reference']);

export interface BigdftBenchOptions {
  /** Benchmark grid; default 128x126x130. */
  grid?: Dims;
  /** Timed repetitions per variant (fastest counts); default 5. The naive and plain-reference rungs run once. */
  reps?: number;
  /** Keys of the ladder to run (default all of LADDER). */
  keys?: string[];
  /** C compiler; default gcc. */
  cc?: string;
  /**
   * Thread counts for the threaded rows (default 1, 2, 4, ... up to the cores, as the tuner's
   * ladder: 1 and 2 on two cores); counts above 1 time the best TS and wasm rows and the
   * workload's defaults on that many worker threads. [1] leaves the threaded rows out.
   */
  threads?: number[];
  log?: (line: string) => void;
}

export interface BigdftBenchRow {
  rung: string;
  key: string;
  precision: 'f64' | 'f32';
  target: 'ts' | 'wgsl' | 'wasm' | 'gpujs' | 'reference';
  /** Fastest application, milliseconds (WGSL: the three dispatches and the wait, no upload or read-back). */
  ms: number;
  gflops: number;
  /** C convrot time / this time (speed relative to C; > 1 is faster); undefined without gcc. */
  vsC?: number;
  /** Threaded rows: worker threads the passes were split over (absent: this thread). */
  threads?: number;
  /** Threaded rows: vsC / threads (the C reference runs on one thread). */
  perCore?: number;
  /** Threaded rows: the one-thread time / this time, the fastest of each in rounds alternating the two. */
  speedup?: number;
  /**
   * Threaded rows: what `threads` independent compute loops (no memory traffic, no
   * synchronisation) ran in the same rounds, as a multiple of one loop's work: the scaling this
   * machine offered while the row was timed (below `threads` when other processes share the cores).
   */
  ceiling?: number;
  /** 2-thread rows: the hand-over writes measured in the same rounds (bench/ceiling.ts measureHandover; each pass reads lines the other thread wrote). */
  handover?: Handover;
  /** Threaded rows: the one-thread time in the same rounds (the speed-up's numerator). */
  oneMs?: number;
  /** Threaded rows: the output equals the one-thread output bit for bit (checked before timing; a difference throws). */
  identical?: boolean;
  /** Pre-timing check on CHECK_GRID: max absolute error and its bound (0 / 0 for the reference itself). */
  checkError: number;
  checkTolerance: number;
  /** max |got - ref| / max |ref| of the timed output on the benchmark grid against the naive result. */
  relError: number;
}

export interface ConvrotRun {
  ms: number;
  gflops: number;
  checksum: number;
  output?: Float64Array;
}

export interface BigdftBenchResult {
  grid: Dims;
  points: number;
  flops: number;
  /** The C reference: its timing and errors, or why it was skipped. */
  c: (ConvrotRun & { checkRelError: number; relError: number; compiler: string }) | { skipped: string };
  rows: BigdftBenchRow[];
  /** Fastest TypeScript variant (any precision), fastest f64 one, fastest WGSL one. */
  best?: BigdftBenchRow;
  bestF64?: BigdftBenchRow;
  bestWgsl?: BigdftBenchRow;
  /** Fastest WebAssembly SIMD variant (f64x2, one thread). */
  bestWasm?: BigdftBenchRow;
  /** Fastest gpu.js row (f32, any mode) and the ladder's gpu.js rows that did not run, with the reason. */
  bestGpujs?: BigdftBenchRow;
  gpujsSkipped: { key: string; why: string }[];
  /** The threaded rows (threads > 1), and the one with the best per-core ratio among them and the one-thread TS/wasm rows. */
  threaded: BigdftBenchRow[];
  bestPerCore?: BigdftBenchRow;
  /** The C reference built without -march=native (x86-64 baseline: SSE2, 128-bit, no FMA), timed on the same input. */
  cBaseline?: { ms: number; flags: string };
  /** Vector instructions in gcc's code for convrot.c with -O3 -march=native. */
  cAsm?: AsmFacts;
  /** What bounds the best rows, from this run's measurements. */
  limits: string[];
  /** The WebGPU adapter of the WGSL rows, or why they were skipped. */
  adapter?: string;
  wgslSkipped?: string;
  /** The paper's Table I rows measured in this run (TABLE_I). */
  tableI: BigdftTableRow[];
}

export interface BigdftTableRow {
  row: string;
  key: string;
  gflops: number;
  vsC?: number;
}

/** max |got - ref| / max |ref| (NaN counts as Infinity). */
export function maxRelError(got: ArrayLike<number>, ref: ArrayLike<number>): number {
  let e = 0;
  let m = 0;
  for (let i = 0; i < ref.length; i++) {
    const d = Math.abs(got[i]! - ref[i]!);
    e = Number.isNaN(d) ? Infinity : Math.max(e, d);
    m = Math.max(m, Math.abs(ref[i]!));
  }
  return m > 0 ? e / m : e;
}

/** Pseudo-random values in [-1, 1) (LCG), reproducible. */
export function randomField(n: number, seed = 2024): Float64Array {
  return randomValues(n, seed);
}

/** Compile convrot.c into `dir` with `cc -O3 -march=native` (or `flags`); returns the executable or why not. */
export function compileConvrot(dir: string, cc = 'gcc', flags: string[] = ['-O3', '-march=native']): { exe: string; compiler: string } | { skipped: string } {
  const v = spawnSync(cc, ['--version'], { encoding: 'utf8' });
  if (v.error || v.status !== 0) return { skipped: `${cc} not found (${v.error?.message ?? `exit ${v.status}`}); no C reference, no ratios` };
  const exe = join(dir, `convrot${flags.join('').replace(/[^A-Za-z0-9]/g, '_')}`);
  const r = spawnSync(cc, [...flags, '-o', exe, CONVROT_SOURCE], { encoding: 'utf8' });
  if (r.status !== 0) return { skipped: `${cc} ${flags.join(' ')} failed on ${CONVROT_SOURCE}: ${(r.stderr || r.error?.message || '').trim()}` };
  return { exe, compiler: `${v.stdout.split('\n')[0]} ${flags.join(' ')}` };
}

/**
 * Run the compiled convrot on `input` (natural layout) with the magic filter of filters.json
 * passed on stdin; fastest of `reps` applications after one warm-up. Returns the output too.
 */
export function runConvrot(exe: string, dims: Dims, reps: number, input: Float64Array, dir: string): ConvrotRun {
  const f = filter('magic');
  const inFile = join(dir, `in-${dims.join('x')}.bin`);
  const outFile = join(dir, `out-${dims.join('x')}.bin`);
  writeFileSync(inFile, new Uint8Array(input.buffer, input.byteOffset, input.byteLength));
  const stdin = `${f.taps} ${f.offset} ${Array.from(f.coefficients, (c) => String(c)).join(' ')}\n`;
  const line = execFileSync(exe, [...dims.map(String), String(reps), inFile, outFile], { input: stdin, encoding: 'utf8' }).trim();
  const parts = line.split(/\s+/);
  if (parts[0] !== 'convrot' || parts.length !== 8) throw new Error(`unexpected convrot output: ${line}`);
  const buf = readFileSync(outFile);
  const output = new Float64Array(buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength));
  return { ms: Number(parts[5]), gflops: Number(parts[6]), checksum: Number(parts[7]), output };
}

const naive = (x: Float64Array, dims: Dims): Float64Array => separable('magic', x, dims);

/** Run the benchmark and print its table; returns the rows and the C reference. */
export async function benchBigdft(opts: BigdftBenchOptions = {}): Promise<BigdftBenchResult> {
  const log = opts.log ?? ((l: string) => console.log(l));
  const dims = opts.grid ?? BENCH_GRID;
  const reps = Math.max(1, Math.floor(opts.reps ?? 5));
  const N = dims[0] * dims[1] * dims[2];
  const flops = 3 * 2 * filter('magic').taps * N;
  const ladder = opts.keys ? LADDER.filter((r) => opts.keys!.includes(r.key)) : LADDER;
  const counts = [...new Set(opts.threads ?? threadLadder(availableParallelism()))].sort((a, b) => a - b);
  log(`bigdft-conv benchmark: 3-D periodic magic filter (16 taps) on ${dims.join('x')} (${N} points), one thread, fastest of ${reps}; GFlop/s = 3*32*n / t`);

  const x = randomField(N);
  collect();
  const t0 = performance.now();
  const ref = naive(x, dims); // also the naive rung's first (untimed) application
  log(`  f64 reference (runtime/bigdft/reference.ts) computed in ${(performance.now() - t0).toFixed(0)} ms`);

  // 1. the C convrot reference, checked, then timed on the same input
  const dir = mkdtempSync(join(tmpdir(), 'kernforge-convrot-'));
  let c: BigdftBenchResult['c'];
  let cBaseline: BigdftBenchResult['cBaseline'];
  let cAsm: AsmFacts | undefined;
  try {
    const comp = compileConvrot(dir, opts.cc);
    if ('skipped' in comp) {
      c = comp;
      log(`  C reference skipped: ${comp.skipped}`);
    } else {
      const xs = randomField(CHECK_GRID[0] * CHECK_GRID[1] * CHECK_GRID[2], 7);
      const small = runConvrot(comp.exe, CHECK_GRID, 1, xs, dir);
      const checkRelError = maxRelError(small.output!, naive(xs, CHECK_GRID));
      if (!(checkRelError <= C_TOLERANCE)) throw new Error(`convrot.c does not match the f64 reference on ${CHECK_GRID.join('x')}: relative error ${checkRelError.toExponential(3)} > ${C_TOLERANCE}`);
      const big = runConvrot(comp.exe, dims, reps, x, dir);
      const relError = maxRelError(big.output!, ref);
      if (!(relError <= C_TOLERANCE)) throw new Error(`convrot.c does not match the f64 reference on ${dims.join('x')}: relative error ${relError.toExponential(3)} > ${C_TOLERANCE}`);
      c = { ms: big.ms, gflops: flops / (big.ms * 1e6), checksum: big.checksum, checkRelError, relError, compiler: comp.compiler };
      log(`  C convrot (${comp.compiler}): verified on ${CHECK_GRID.join('x')} (rel. error ${checkRelError.toExponential(2)}) and ${dims.join('x')} (${relError.toExponential(2)}); ${big.ms.toFixed(2)} ms, checksum ${big.checksum.toPrecision(15)}`);
      cAsm = asmFacts(CONVROT_SOURCE, ['-O3', '-march=native'], opts.cc);
      if (cAsm) log(`  gcc's code for convrot.c (-O3 -march=native): ${formatAsmFacts(cAsm)}`);
      // the same source without -march=native: x86-64's baseline (SSE2, 128-bit vectors, no FMA), what WebAssembly SIMD offers
      const base = compileConvrot(dir, opts.cc, ['-O3']);
      if ('exe' in base) {
        const b = runConvrot(base.exe, dims, reps, x, dir);
        const e = maxRelError(b.output!, ref);
        if (!(e <= C_TOLERANCE)) throw new Error(`convrot.c -O3 does not match the f64 reference on ${dims.join('x')}: relative error ${e.toExponential(3)} > ${C_TOLERANCE}`);
        cBaseline = { ms: b.ms, flags: '-O3 (x86-64 baseline: SSE2, 128-bit, no FMA)' };
        const bAsm = asmFacts(CONVROT_SOURCE, ['-O3'], opts.cc);
        log(`  C convrot -O3 without -march=native: ${b.ms.toFixed(2)} ms (${(big.ms / b.ms).toFixed(2)}x the -march=native build's speed)${bAsm ? `; gcc's code: ${formatAsmFacts(bAsm)}` : ''}; rel. error ${e.toExponential(2)}`);
      } else log(`  C convrot -O3 (baseline ISA) skipped: ${base.skipped}`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const cMs = 'ms' in c ? c.ms : undefined;

  // 2. the ladder
  const rows: BigdftBenchRow[] = [];
  const x32 = Float32Array.from(x);
  let adapter: string | undefined;
  let wgslSkipped: string | undefined;
  const gpujsSkipped: { key: string; why: string }[] = [];
  if (ladder.some((r) => r.key.startsWith('bigdft-conv.wgsl.'))) {
    const pr = await probeGpu();
    if (pr.ok) {
      // the adapter's device string names the driver (e.g. llvmpipe) where the description does not
      const dev = ((await gpu()).device as GPUDevice & { adapterInfo?: { device?: string } }).adapterInfo?.device;
      adapter = dev && !pr.name.includes(dev) ? `${pr.name} (${dev})` : pr.name;
    }
    else {
      wgslSkipped = pr.why;
      log(`  WGSL rows skipped: ${pr.why}`);
    }
  }
  for (const { rung, key } of ladder) {
    const wgsl = key.startsWith('bigdft-conv.wgsl.');
    if (wgsl && !adapter) continue;
    const gpujs = key.startsWith('bigdft-conv.gpujs.');
    if (gpujs) {
      // a mode that does not run here (no DISPLAY for headlessgl, no adapter, or Dawn and headless-gl in one process) is skipped with the reason
      const { probeGpujsMode } = await import('../runtime/backends/gpujs.ts');
      const pr = await probeGpujsMode(key.split('.').pop() as GpujsMode);
      if (!pr.ok) {
        gpujsSkipped.push({ key, why: pr.why });
        log(`  ${rung} skipped: ${pr.why}`);
        continue;
      }
    }
    const precision = key.includes('.f32.') ? 'f32' : 'f64';
    let run: () => Float64Array | Float32Array | Promise<Float64Array | Float32Array>;
    let time: (() => Promise<void> | void) | undefined;
    let read: (() => Promise<Float64Array | Float32Array>) | undefined;
    let cleanup = (): void => {};
    let checkError = 0;
    let checkTolerance = 0;
    const n = SLOW.has(rung) ? 1 : reps;
    if (key === NAIVE_KEY) {
      run = () => naive(x, dims);
    } else {
      const v = await verifyConv(key);
      if (!v.ok) throw new Error(`${key} failed verification on ${v.dims.join('x')}: max error ${v.maxError.toExponential(3)} > ${v.tolerance.toExponential(3)}`);
      checkError = v.maxError;
      checkTolerance = v.tolerance;
      // the runner of the key's target (runtime/bigdft/targets.ts): the input uploaded once, each
      // timed run one application (WGSL: the three dispatches and the wait; gpu.js with its
      // transfers, the first run compiling the kernels), read back after
      const pre = await CONV_TARGETS.get(targetOfKey(key), 'bench bigdft').prepare(key, dims);
      await pre.upload(precision === 'f32' ? x32 : x);
      time = () => pre.run();
      read = () => pre.result();
      run = async () => {
        await pre.run();
        return pre.result();
      };
      cleanup = () => void pre.dispose();
    }
    collect();
    let out: Float64Array | Float32Array = ref;
    if (!SLOW.has(rung)) {
      out = await run(); // warm-up: JIT compilation (WGSL: pipeline, first dispatch)
      await run();
    }
    let best = Infinity;
    for (let r = 0; r < n; r++) {
      const s = performance.now();
      if (time) await time();
      else out = await run();
      best = Math.min(best, performance.now() - s);
    }
    if (read) out = await read();
    cleanup();
    const relError = maxRelError(out, ref);
    rows.push({ rung, key, precision, target: key === NAIVE_KEY ? 'reference' : targetOfKey(key), ms: best, gflops: flops / (best * 1e6), vsC: cMs !== undefined ? cMs / best : undefined, checkError, checkTolerance, relError });
  }

  printTable(log, rows, c, flops, adapter);
  const fastest = (rs: BigdftBenchRow[]): BigdftBenchRow | undefined => (rs.length ? rs.reduce((a, b) => (a.ms <= b.ms ? a : b)) : undefined);
  const ts = rows.filter((r) => r.target === 'ts');
  const best = fastest(ts);
  const bestF64 = fastest(ts.filter((r) => r.precision === 'f64'));
  const bestWgsl = fastest(rows.filter((r) => r.target === 'wgsl'));
  const bestWasm = fastest(rows.filter((r) => r.target === 'wasm'));
  log('');
  for (const [what, b] of [['best TS variant', best], ['best f64 TS variant', bestF64], ['best wasm variant', bestWasm], ['best WGSL variant', bestWgsl]] as const) {
    if (!b) continue;
    const ratio = b.vsC !== undefined ? `${b.vsC.toFixed(2)}x the speed of the C convrot reference${b.target === 'ts' || b.target === 'wasm' ? ` (goal >= 1.0x: ${b.vsC >= 1 ? 'met' : 'not met'})` : ''}` : 'no C reference (ratio skipped)';
    log(`${what}: ${b.key}: ${b.ms.toFixed(2)} ms, ${b.gflops.toFixed(2)} GFlop/s, ${ratio}`);
  }
  const tableI = tableOne(rows, best, bestWgsl, bestWasm);
  if (tableI.length) {
    log('');
    log("Table I shape (the paper's ladder; best = fastest TypeScript pattern of this run):");
    log('');
    const w0 = Math.max(...tableI.map((t) => t.row.length), 'version'.length);
    const w1 = Math.max(...tableI.map((t) => t.key.length), 'variant'.length);
    log(`| ${'version'.padEnd(w0)} | ${'variant'.padEnd(w1)} | GFlop/s | vs C convrot |`);
    log(`|:${'-'.repeat(w0 + 1)}|:${'-'.repeat(w1 + 1)}|--------:|-------------:|`);
    log(`| ${'C convrot'.padEnd(w0)} | ${'bench/bigdft/convrot.c'.padEnd(w1)} | ${('ms' in c ? (flops / (c.ms * 1e6)).toFixed(2) : 'n/a').padStart(7)} | ${('ms' in c ? '1.00x' : 'n/a').padStart(12)} |`);
    for (const t of tableI) log(`| ${t.row.padEnd(w0)} | ${t.key.padEnd(w1)} | ${t.gflops.toFixed(2).padStart(7)} | ${(t.vsC !== undefined ? `${t.vsC.toFixed(2)}x` : 'n/a').padStart(12)} |`);
  }
  if (bestWgsl) log(`  (WGSL on ${adapter}${/llvmpipe/i.test(adapter ?? '') ? ': Mesa llvmpipe is a CPU rasterizer, the shader runs as LLVM-compiled SIMD code on all CPU threads, so this is not a GPU number nor a one-thread one' : ''})`);

  // 3. gpu.js (f32) against the TS f32 rows and C
  const gpujsRows = rows.filter((r) => r.target === 'gpujs');
  const bestGpujs = fastest(gpujsRows);
  const bestTsF32 = fastest(ts.filter((r) => r.precision === 'f32'));
  if (gpujsRows.length > 0 || gpujsSkipped.length > 0) {
    log('');
    log('gpu.js rows (f32 storage; mode cpu computes in doubles, the others in f32; verified with the f32 bound of verifyConv, then on the benchmark grid):');
    for (const r of gpujsRows) {
      const vsTs = bestTsF32 ? `, ${(bestTsF32.ms / r.ms).toFixed(2)}x the best TS f32 row (${bestTsF32.key.replace('bigdft-conv.ts.magic.periodic.', '')})` : '';
      const mode = r.key.split('.').pop()!;
      const where = mode === 'webgpu' ? (/llvmpipe/i.test(adapter ?? '') ? ' (on llvmpipe: all CPU threads)' : ' (on the WebGPU adapter)') : mode === 'headlessgl' ? ' (headless-gl)' : ' (this thread)';
      log(`  ${r.key}: ${r.ms.toFixed(2)} ms, ${r.gflops.toFixed(2)} GFlop/s, ${r.vsC !== undefined ? `${r.vsC.toFixed(2)}x C` : 'no C ratio'}${vsTs}; rel. error ${r.relError.toExponential(1)}${where}`);
    }
    for (const s of gpujsSkipped) log(`  ${s.key}: skipped: ${s.why}`);
  }

  // 4. the best TS and wasm rows and the workload's defaults on worker threads
  const threaded: BigdftBenchRow[] = [];
  const more = counts.filter((t) => t > 1);
  const picks = [best, bestF64, bestWasm, rows.find((r) => r.key === BIGDFT_DEFAULT_KEYS.ts), rows.find((r) => r.key === BIGDFT_DEFAULT_KEYS.wasm)]
    .filter((r): r is BigdftBenchRow => r !== undefined && (r.target === 'ts' || r.target === 'wasm') && !r.key.includes('.direct.'))
    .filter((r, i, a) => a.findIndex((q) => q.key === r.key) === i);
  if (more.length > 0 && picks.length > 0) {
    const pools = new PoolsByThreads();
    const shared = { f64: toShared(Float64Array.from(x)), f32: toShared(Float32Array.from(x32)) };
    try {
      for (const one of picks) {
        const input = one.precision === 'f32' ? x32 : x;
        const single = await prepare3d(one.key, dims);
        const s1 = single.run(input);
        const want = one.precision === 'f32' ? Float32Array.from(s1) : Float64Array.from(s1);
        for (const t of more) {
          const pre = await prepareParallel3d(one.key, dims, await pools.get(t));
          try {
            collect();
            let out = await pre.run(shared[one.precision]); // warm-up, and the output checked against one thread's
            for (let i = 0; i < want.length; i++) {
              if (!(out[i] === want[i])) throw new Error(`${one.key} on ${t} threads differs from one thread at point ${i}: ${out[i]} vs ${want[i]} (prepareParallel3d promises the same result bit for bit)`);
            }
            await pre.run(shared[one.precision]);
            // rounds of: one thread, t threads, one compute loop, t compute loops at once; the
            // fastest of each, so the speed-up and the machine's ceiling come from the same moments
            let ms = Infinity, ms1 = Infinity, loop1 = Infinity, loopT = Infinity;
            let handover: Handover | undefined;
            const loops = await ceilingLoops(t);
            try {
              for (let r = 0; r < Math.max(reps, 5); r++) {
                let s = performance.now();
                single.run(input);
                ms1 = Math.min(ms1, performance.now() - s);
                s = performance.now();
                out = await pre.run(shared[one.precision]);
                ms = Math.min(ms, performance.now() - s);
                s = performance.now();
                await loops.run(1);
                loop1 = Math.min(loop1, performance.now() - s);
                s = performance.now();
                await loops.run(t);
                loopT = Math.min(loopT, performance.now() - s);
                if (t === 2) handover = mergeHandover(handover, await measureHandover());
              }
            } finally {
              await loops.close();
            }
            const relError = maxRelError(out, ref);
            const vsC = cMs !== undefined ? cMs / ms : undefined;
            threaded.push({ ...one, rung: `${one.rung} on ${t} threads`, ms, gflops: flops / (ms * 1e6), vsC, threads: t, perCore: vsC !== undefined ? vsC / t : undefined, speedup: ms1 / ms, oneMs: ms1, ceiling: (t * loop1) / loopT, handover, identical: true, relError });
          } finally {
            await pre.release?.();
          }
        }
      }
    } finally {
      await pools.close();
    }
    log('');
    log(`Threads: each 1-D pass split over worker threads (prepareParallel3d; wasm: this thread and t - 1 workers, TypeScript: t workers), ${availableParallelism()} CPUs here (load average ${loadavg().map((l) => l.toFixed(2)).join(', ')}); ratio = C convrot time (one thread) / this time, per core = ratio / threads; speed-up = one thread / t threads, fastest of rounds alternating the two (the input copied in is part of an application: one thread copies it alone, t threads each their chunks); ceiling = what t independent compute loops ran in those rounds, in one loop's work (t on idle cores; less when other processes share them); every threaded output equals the one-thread output bit for bit (checked before timing):`);
    log('');
    const head = ['variant', 'threads', 'ms', 'GFlop/s', 'speed-up', 'ceiling', 'vs C', 'per core'];
    const body: string[][] = [];
    for (const one of picks) {
      for (const r of [one, ...threaded.filter((q) => q.key === one.key)]) {
        const t = r.threads ?? 1;
        const pc = r.vsC !== undefined ? r.vsC / t : undefined;
        body.push([r.key.replace('bigdft-conv.', ''), String(t), r.ms.toFixed(2), r.gflops.toFixed(2), r.oneMs !== undefined ? `${(r.speedup ?? 1).toFixed(2)}x (1 thread ${r.oneMs.toFixed(2)})` : '1.00x', r.ceiling !== undefined ? `${r.ceiling.toFixed(2)}x` : '-', r.vsC !== undefined ? `${r.vsC.toFixed(2)}x` : 'n/a', pc !== undefined ? `${pc.toFixed(2)}x` : 'n/a']);
      }
    }
    const w = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i]!.length)));
    const fmt = (r: string[]) => `| ${r.map((cell, i) => (i === 0 ? cell.padEnd(w[i]!) : cell.padStart(w[i]!))).join(' | ')} |`;
    log(fmt(head));
    log(`|${w.map((n, i) => (i === 0 ? `:${'-'.repeat(n + 1)}` : `${'-'.repeat(n + 1)}:`)).join('|')}|`);
    for (const b of body) log(fmt(b));
  } else if (more.length === 0) log('\nThreads: only one thread asked for (--threads 1); no threaded rows');

  // the best per-core ratio over the CPU rows (one thread: the ratio itself)
  const perCoreOf = (r: BigdftBenchRow): number => r.perCore ?? r.vsC ?? -Infinity;
  const cpuRows = [...rows.filter((r) => r.target === 'ts' || r.target === 'wasm'), ...threaded];
  const bestPerCore = cMs !== undefined && cpuRows.length > 0 ? cpuRows.reduce((a, b) => (perCoreOf(a) >= perCoreOf(b) ? a : b)) : undefined;
  if (bestPerCore) log(`best per core (goal >= 1.0x the C reference per core): ${bestPerCore.key} on ${bestPerCore.threads ?? 1} thread${(bestPerCore.threads ?? 1) > 1 ? 's' : ''}: ${perCoreOf(bestPerCore).toFixed(2)}x per core (${perCoreOf(bestPerCore) >= 1 ? 'met' : 'not met'})`);

  // 5. what bounds the best rows, from what this run measured
  const limits: string[] = [];
  if ('ms' in c && cAsm) {
    const b = cBaseline ? c.ms / cBaseline.ms : undefined;
    limits.push(`C: gcc's -march=native code for convrot.c has ${formatAsmFacts(cAsm)}${b !== undefined ? `; built for x86-64's baseline (128-bit SSE2, no FMA, as WebAssembly SIMD) it runs at ${b.toFixed(2)}x that speed, so ${b >= 0.9 ? 'vector width and FMA do not set the time of this C loop' : `AVX-512/FMA make it ${(1 / b).toFixed(2)}x faster than the 128-bit build`}` : ''}`);
  }
  if (bestWasm) {
    const parts = [`best wasm (f64x2, one thread) ${bestWasm.gflops.toFixed(2)} GFlop/s`];
    if (bestWasm.vsC !== undefined) parts.push(`${bestWasm.vsC.toFixed(2)}x C -march=native`);
    if (cBaseline) parts.push(`${(cBaseline.ms / bestWasm.ms).toFixed(2)}x the 128-bit no-FMA C build`);
    if (best) parts.push(`${(best.ms / bestWasm.ms).toFixed(2)}x the best TS row (JavaScript numbers are scalar doubles)`);
    limits.push(parts.join(', '));
  }
  for (const one of picks) {
    const th = threaded.filter((r) => r.key === one.key);
    if (th.length === 0 || (one !== bestWasm && one !== best)) continue;
    limits.push(`${one.target} ${one.key.replace(/^bigdft-conv\.(ts|wasm)\.magic\.periodic\./, '')}: ${th.map((r) => `${r.threads} threads ${r.speedup!.toFixed(2)}x one thread (${((100 * r.speedup!) / r.threads!).toFixed(0)}% per core; independent compute loops reached ${r.ceiling!.toFixed(2)}x in the same rounds${handoverPhrase(r.handover)})`).join(', ')}; each application streams three passes over arrays of ${((N * (one.precision === 'f32' ? 4 : 8)) / 2 ** 20).toPrecision(3)} MiB`);
  }
  if (bestGpujs && bestTsF32) limits.push(`gpu.js: best mode ${bestGpujs.key.split('.').pop()} ${(bestTsF32.ms / bestGpujs.ms).toFixed(2)}x the best TS f32 row`);
  if (limits.length > 0) {
    log('');
    log('Limits (measured in this run):');
    for (const l of limits) log(`  - ${l}`);
  }
  return { grid: dims, points: N, flops, c, rows, best, bestF64, bestWgsl, bestWasm, bestGpujs, gpujsSkipped, threaded, bestPerCore, cBaseline, cAsm, limits, adapter, wgslSkipped, tableI };
}

/** The rows of the paper's Table I that this run measured: naive, separable, transposed, unrolled, best, WGSL. */
export const TABLE_I: { row: string; key?: string }[] = [
  { row: 'naive (direct)', key: k('f64', '1x1', 'inline', 'split', 'direct') },
  { row: 'separable (simple)', key: k('f64', '1x1', 'inline', 'split', 'separable') },
  { row: 'transposed (simple_t)', key: k('f64', '1x1') },
  { row: 'unrolled_t 1x4', key: k('f64', '1x4') },
  { row: 'best TS pattern' },
  { row: 'wasm f64x2 (best)' },
  { row: 'WGSL (best)' },
];

function tableOne(rows: BigdftBenchRow[], best?: BigdftBenchRow, bestWgsl?: BigdftBenchRow, bestWasm?: BigdftBenchRow): BigdftTableRow[] {
  const out: BigdftTableRow[] = [];
  for (const t of TABLE_I) {
    const r = t.key ? rows.find((x) => x.key === t.key) : t.row.startsWith('best') ? best : t.row.startsWith('wasm') ? bestWasm : bestWgsl;
    if (r) out.push({ row: t.row, key: r.key.replace('bigdft-conv.', ''), gflops: r.gflops, vsC: r.vsC });
  }
  return out;
}

function printTable(log: (l: string) => void, rows: BigdftBenchRow[], c: BigdftBenchResult['c'], flops: number, adapter?: string): void {
  const header = ['rung', 'variant', 'ms / 3-D MF', 'GFlop/s', 'vs C convrot', 'rel. err (grid)'];
  const body: string[][] = [];
  if ('ms' in c) body.push(['C convrot (gcc)', 'bench/bigdft/convrot.c 8 lines/iter', c.ms.toFixed(2), (flops / (c.ms * 1e6)).toFixed(2), '1.00x', c.relError.toExponential(1)]);
  for (const r of rows) {
    body.push([r.rung, r.key === NAIVE_KEY ? r.key : r.key.replace('bigdft-conv.ts.magic.periodic.', '').replace(/^bigdft-conv\.(wgsl|wasm|gpujs)\.magic\.periodic\./, '$1.'), r.ms.toFixed(2), r.gflops.toFixed(2), r.vsC !== undefined ? `${r.vsC.toFixed(2)}x` : 'n/a', r.relError.toExponential(1)]);
  }
  const w = header.map((h, i) => Math.max(h.length, ...body.map((r) => r[i]!.length)));
  const fmt = (r: string[]) => `| ${r.map((cell, i) => (i < 2 ? cell.padEnd(w[i]!) : cell.padStart(w[i]!))).join(' | ')} |`;
  log('');
  log(`3-D periodic magic filter, one thread${adapter ? ` (WGSL: ${adapter})` : ''}; ratios: C convrot time / variant time, same run, same input:`);
  log('');
  log(fmt(header));
  log(`|${w.map((x, i) => (i < 2 ? `:${'-'.repeat(x + 1)}` : `${'-'.repeat(x + 1)}:`)).join('|')}|`);
  for (const r of body) log(fmt(r));
  if (!('ms' in c)) log(`(C reference skipped: ${c.skipped})`);
}

