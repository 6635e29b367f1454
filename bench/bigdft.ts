// bigdft-conv benchmark (seed 002, Table I in kind; issue 5, "Measure", CPU part): the 3-D
// periodic magic filter on a 128x126x130 grid, f64 and f32, one thread. The baseline is a C
// reference of BigDFT's convrot scheme (bench/bigdft/convrot.c: three transposing passes, 8
// lines per inner iteration), compiled with `gcc -O3 -march=native` and run in the same run on
// the same input. The TS ladder: the plain f64 reference (simple), the transposing 1x1 passes
// (simple_t), the unroll patterns (unrolled_t), coefficient array vs literals, wrap table vs
// split loops, and f32 storage.
//
// Every variant is checked before it is timed: the C program and each TS variant against the
// f64 separable reference on a small odd grid; the timed outputs are also compared with the
// reference on the benchmark grid. GFlop/s use the paper's count 3*32*n1*n2*n3 per application.
import { spawnSync, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { separable, type Dims } from '../runtime/bigdft/reference.ts';
import { filter } from '../runtime/bigdft/filters.ts';
import { prepare3d } from '../runtime/bigdft/apply.ts';
import { verifyBigdftVariant } from '../cli/commands/bigdft.ts';

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

const k = (p: string, u: string, c = 'inline', w = 'table'): string => `bigdft-conv.ts.magic.${p}.separable-t.${u}.${c}.${w}`;

/** The TS ladder, in table order. 1x1.array.table is rendered on demand (not in the library). */
export const LADDER: LadderRung[] = [
  { rung: 'simple', key: NAIVE_KEY },
  { rung: 'simple_t', key: k('f64', '1x1', 'array') },
  { rung: 'simple_t', key: k('f64', '1x1') },
  ...['1x4', '1x8', '2x4', '4x2', '8x1'].map((u) => ({ rung: 'unrolled_t', key: k('f64', u) })),
  { rung: 'coeffs array', key: k('f64', '1x4', 'array') },
  { rung: 'wrap split', key: k('f64', '1x4', 'inline', 'split') },
  { rung: 'array + split', key: k('f64', '1x4', 'array', 'split') },
  ...['1x1', '1x4', '1x8', '2x4', '4x2', '8x1'].map((u) => ({ rung: 'f32', key: k('f32', u) })),
];

export interface BigdftBenchOptions {
  /** Benchmark grid; default 128x126x130. */
  grid?: Dims;
  /** Timed repetitions per variant (fastest counts); default 5. The naive rung uses at most 2. */
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
  /** Fastest application, milliseconds. */
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
  best?: BigdftBenchRow;
  bestF64?: BigdftBenchRow;
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

  // 2. the TS ladder
  const rows: BigdftBenchRow[] = [];
  const x32 = Float32Array.from(x);
  for (const { rung, key } of ladder) {
    const precision = key.includes('.f32.') ? 'f32' : 'f64';
    let run: () => Float64Array | Float32Array;
    let checkError = 0;
    let checkTolerance = 0;
    let n = reps;
    if (key === NAIVE_KEY) {
      run = () => naive(x, dims);
      n = Math.min(reps, 2);
    } else {
      const v = await verifyBigdftVariant(key, 'magic', precision, 1);
      if (!(v.maxError <= v.tolerance)) throw new Error(`${key} failed verification on ${v.dims.join('x')}: max error ${v.maxError.toExponential(3)} > ${v.tolerance.toExponential(3)}`);
      checkError = v.maxError;
      checkTolerance = v.tolerance;
      const pre = await prepare3d(key, dims);
      const input = precision === 'f32' ? x32 : x;
      run = () => pre.run(input);
    }
    collect();
    if (key !== NAIVE_KEY) {
      run(); // warm-up: JIT compilation
      run();
    }
    let best = Infinity;
    let out: Float64Array | Float32Array = ref;
    for (let r = 0; r < n; r++) {
      const s = performance.now();
      out = run();
      best = Math.min(best, performance.now() - s);
    }
    const relError = maxRelError(out, ref);
    rows.push({ rung, key, precision, ms: best, gflops: flops / (best * 1e6), vsC: cMs !== undefined ? cMs / best : undefined, checkError, checkTolerance, relError });
  }

  printTable(log, rows, c, flops);
  const fastest = (rs: BigdftBenchRow[]): BigdftBenchRow | undefined => (rs.length ? rs.reduce((a, b) => (a.ms <= b.ms ? a : b)) : undefined);
  const ts = rows.filter((r) => r.key !== NAIVE_KEY);
  const best = fastest(ts);
  const bestF64 = fastest(ts.filter((r) => r.precision === 'f64'));
  log('');
  for (const [what, b] of [['best TS variant', best], ['best f64 TS variant', bestF64]] as const) {
    if (!b) continue;
    const ratio = b.vsC !== undefined ? `${b.vsC.toFixed(2)}x the speed of the C convrot reference (goal >= 1.0x: ${b.vsC >= 1 ? 'met' : 'not met'})` : 'no C reference (ratio skipped)';
    log(`${what}: ${b.key}: ${b.ms.toFixed(2)} ms, ${b.gflops.toFixed(2)} GFlop/s, ${ratio}`);
  }
  return { grid: dims, points: N, flops, c, rows, best, bestF64 };
}

function printTable(log: (l: string) => void, rows: BigdftBenchRow[], c: BigdftBenchResult['c'], flops: number): void {
  const header = ['rung', 'variant', 'ms / 3-D MF', 'GFlop/s', 'vs C convrot', 'rel. err (grid)'];
  const body: string[][] = [];
  if ('ms' in c) body.push(['C convrot (gcc)', 'bench/bigdft/convrot.c 8 lines/iter', c.ms.toFixed(2), (flops / (c.ms * 1e6)).toFixed(2), '1.00x', c.relError.toExponential(1)]);
  for (const r of rows) {
    body.push([r.rung, r.key === NAIVE_KEY ? r.key : r.key.replace('bigdft-conv.ts.magic.', ''), r.ms.toFixed(2), r.gflops.toFixed(2), r.vsC !== undefined ? `${r.vsC.toFixed(2)}x` : 'n/a', r.relError.toExponential(1)]);
  }
  const w = header.map((h, i) => Math.max(h.length, ...body.map((r) => r[i]!.length)));
  const fmt = (r: string[]) => `| ${r.map((cell, i) => (i < 2 ? cell.padEnd(w[i]!) : cell.padStart(w[i]!))).join(' | ')} |`;
  log('');
  log('3-D periodic magic filter, one thread (ratios: C convrot time / variant time, same run, same input):');
  log('');
  log(fmt(header));
  log(`|${w.map((x, i) => (i < 2 ? `:${'-'.repeat(x + 1)}` : `${'-'.repeat(x + 1)}:`)).join('|')}|`);
  for (const r of body) log(fmt(r));
  if (!('ms' in c)) log(`(C reference skipped: ${c.skipped})`);
}
