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
//
// Every variant is checked before it is timed: the C program and each variant against the
// f64 separable reference on a small odd grid (verifyConv); the timed outputs are also compared
// with the reference on the benchmark grid. GFlop/s use the paper's count 3*32*n1*n2*n3 per
// application for every algorithm (the direct sum does 16^3 * 2 flops per point, 43x more).
import { spawnSync, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { separable, type Dims } from '../runtime/bigdft/reference.ts';
import { filter } from '../runtime/bigdft/filters.ts';
import { prepare3d } from '../runtime/bigdft/apply.ts';
import { verifyConv } from '../runtime/bigdft/verify.ts';
import { probeGpu, gpu } from '../runtime/backends/webgpu.ts';

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
];

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
  log?: (line: string) => void;
}

export interface BigdftBenchRow {
  rung: string;
  key: string;
  precision: 'f64' | 'f32';
  target: 'ts' | 'wgsl' | 'wasm' | 'reference';
  /** Fastest application, milliseconds (WGSL: the three dispatches and the wait, no upload or read-back). */
  ms: number;
  gflops: number;
  /** C convrot time / this time (speed relative to C; > 1 is faster); undefined without gcc. */
  vsC?: number;
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
  let s = seed >>> 0;
  return Float64Array.from({ length: n }, () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 31 - 1;
  });
}

/** Compile convrot.c into `dir` with `cc -O3 -march=native`; returns the executable or why not. */
export function compileConvrot(dir: string, cc = 'gcc'): { exe: string; compiler: string } | { skipped: string } {
  const v = spawnSync(cc, ['--version'], { encoding: 'utf8' });
  if (v.error || v.status !== 0) return { skipped: `${cc} not found (${v.error?.message ?? `exit ${v.status}`}); no C reference, no ratios` };
  const exe = join(dir, 'convrot');
  const r = spawnSync(cc, ['-O3', '-march=native', '-o', exe, CONVROT_SOURCE], { encoding: 'utf8' });
  if (r.status !== 0) return { skipped: `${cc} -O3 -march=native failed on ${CONVROT_SOURCE}: ${(r.stderr || r.error?.message || '').trim()}` };
  return { exe, compiler: `${v.stdout.split('\n')[0]} -O3 -march=native` };
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
  log(`bigdft-conv benchmark: 3-D periodic magic filter (16 taps) on ${dims.join('x')} (${N} points), one thread, fastest of ${reps}; GFlop/s = 3*32*n / t`);

  const x = randomField(N);
  collect();
  const t0 = performance.now();
  const ref = naive(x, dims); // also the naive rung's first (untimed) application
  log(`  f64 reference (runtime/bigdft/reference.ts) computed in ${(performance.now() - t0).toFixed(0)} ms`);

  // 1. the C convrot reference, checked, then timed on the same input
  const dir = mkdtempSync(join(tmpdir(), 'kernforge-convrot-'));
  let c: BigdftBenchResult['c'];
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
    const precision = key.includes('.f32.') ? 'f32' : 'f64';
    let run: () => Float64Array | Float32Array | Promise<Float64Array | Float32Array>;
    let time: (() => Promise<void> | void) | undefined;
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
      if (wgsl) {
        const { prepareWgsl3d } = await import('../runtime/bigdft/wgsl.ts');
        const pre = await prepareWgsl3d(key, dims);
        pre.upload(x32);
        time = () => pre.dispatch();
        run = async () => {
          await pre.dispatch();
          return pre.result();
        };
        cleanup = () => pre.destroy();
      } else {
        const pre = await prepare3d(key, dims);
        const input = precision === 'f32' ? x32 : x;
        run = () => pre.run(input);
      }
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
    if (time) out = await run();
    cleanup();
    const relError = maxRelError(out, ref);
    rows.push({ rung, key, precision, target: key === NAIVE_KEY ? 'reference' : wgsl ? 'wgsl' : key.startsWith('bigdft-conv.wasm.') ? 'wasm' : 'ts', ms: best, gflops: flops / (best * 1e6), vsC: cMs !== undefined ? cMs / best : undefined, checkError, checkTolerance, relError });
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
  return { grid: dims, points: N, flops, c, rows, best, bestF64, bestWgsl, bestWasm, adapter, wgslSkipped, tableI };
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
    body.push([r.rung, r.key === NAIVE_KEY ? r.key : r.key.replace('bigdft-conv.ts.magic.periodic.', '').replace('bigdft-conv.wgsl.magic.periodic.', 'wgsl.').replace('bigdft-conv.wasm.magic.periodic.', 'wasm.'), r.ms.toFixed(2), r.gflops.toFixed(2), r.vsC !== undefined ? `${r.vsC.toFixed(2)}x` : 'n/a', r.relError.toExponential(1)]);
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
