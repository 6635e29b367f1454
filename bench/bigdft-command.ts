// `kernforge bench bigdft-conv`: the BigDFT magic-filter benchmark (bench/bigdft.ts; issue 5,
// "Measure": TypeScript ladder, C convrot reference, WGSL and wasm rows; issue 7: gpu.js rows and
// the best rows on worker threads). Options arrive as strings from commander; `grid` is "n1xn2xn3".
import { benchBigdft, LADDER, BENCH_GRID, targetOfKey, type BigdftBenchResult } from './bigdft.ts';
import { parseThreadCounts, parseTargets, targetWanted } from './common.ts';
import { parseGrid } from '../runtime/bigdft/hamiltonian.ts';
import { UserError } from '../runtime/errors.ts';

export interface BenchBigdftCommandOptions {
  /** "n1xn2xn3"; default 128x126x130. */
  grid?: string;
  /** Timed repetitions per variant; default 5. */
  reps?: string | number;
  /** Comma-separated variant keys of the ladder to run (default: all). */
  keys?: string;
  /** Comma-separated targets of the ladder rows to run: ts, wasm, wgsl, gpujs, or gpujs:<mode> (default: all). */
  targets?: string;
  /** Comma-separated thread counts for the threaded rows, e.g. "1,2" (default 1, 2, 4, ... up to the cores). */
  threads?: string;
  /** C compiler for the convrot reference; default gcc. */
  cc?: string;
  log?: (line: string) => void;
}

/** Run the benchmark; returns 0 (the CLI exit code). Throws UserError for bad options. */
export async function benchBigdftCommand(o: BenchBigdftCommandOptions = {}): Promise<number> {
  await benchBigdftCommandResult(o);
  return 0;
}

/** As benchBigdftCommand, returning the measured result. */
export async function benchBigdftCommandResult(o: BenchBigdftCommandOptions = {}): Promise<BigdftBenchResult> {
  const grid = parseGrid(o.grid ?? BENCH_GRID.join('x'));
  grid.forEach((n, d) => {
    if (n < 16) throw new UserError(`--grid ${grid.join('x')}: n${d + 1} = ${n} is smaller than the magic filter (16 taps)`);
  });
  const reps = Number(o.reps ?? 5);
  if (!Number.isInteger(reps) || reps < 1) throw new UserError(`--reps ${String(o.reps)} must be a positive integer`);
  let keys: string[] | undefined;
  if (o.keys !== undefined && o.keys !== '') {
    keys = o.keys.split(',').map((s) => s.trim()).filter(Boolean);
    const known = new Set(LADDER.map((r) => r.key));
    const bad = keys.filter((key) => !known.has(key));
    if (bad.length) throw new UserError(`--keys: not in the benchmark ladder: ${bad.join(', ')}; known: ${[...known].join(', ')}`);
  }
  const targets = parseTargets(o.targets);
  if (targets) {
    keys = (keys ?? LADDER.map((r) => r.key)).filter((k) => targetWanted(targets, targetOfKey(k), k.split('.').pop()));
    if (keys.length === 0) throw new UserError(`--targets ${o.targets}${o.keys ? ` with --keys ${o.keys}` : ''} leaves no row of the ladder to run`);
  }
  const threads = parseThreadCounts(o.threads);
  return benchBigdft({ grid, reps, keys, threads, cc: o.cc, log: o.log });
}
