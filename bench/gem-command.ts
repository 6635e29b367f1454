// `kernforge bench gem-potential`: the paper's CPU optimization ladder for GEM (seed 003,
// Fig. 1b/4a in kind) against a plain C reference compiled and timed in the same run, plus the
// larger case on a generated surface (nucleosome) and generated-vs-MSMS surface table; WGSL
// rungs on the WebGPU adapter, wasm rows and gpu.js rows unless --targets leaves them out; the
// best rows again on worker threads (--threads).
// Options arrive as strings, as commander gives them to `bench`.
import { benchGem, GEM_GPUJS_MODES, type GemBenchRow } from './gem.ts';
import { UserError } from '../runtime/errors.ts';
import { parseThreadCounts, parseTargets, targetWanted } from './common.ts';

export interface BenchGemCommandOptions {
  /** Timed repetitions per variant (default 5). */
  reps?: string | number;
  /** Repetitions of the slow naive rung (default 2). */
  naiveReps?: string | number;
  /** Comma-separated molecules from data/gem (default 1uwo_A,mb_hhelix,nucleosome; one without a .vert gets a generated surface). */
  molecules?: string;
  /** Vertices per A^2 of generated surfaces (default 3). */
  density?: string | number;
  /** Timed runs per variant on a generated surface (default 1). */
  largeReps?: string | number;
  /** 'no' leaves out the region-3 comparison. */
  region3?: string | boolean;
  /** Comma-separated targets: ts, wasm, wgsl, gpujs (every mode that runs here) or gpujs:<mode> (default: all of them). */
  targets?: string;
  /** Comma-separated thread counts for the threaded rows, e.g. "1,2" (default 1, 2, 4, ... up to the cores). */
  threads?: string;
  log?: (line: string) => void;
}

const count = (name: string, v: string | number | undefined, dflt: number): number => {
  if (v === undefined) return dflt;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1) throw new UserError(`--${name} must be a positive integer, got ${v}`);
  return n;
};

const positive = (name: string, v: string | number): number => {
  const x = Number(v);
  if (!(Number.isFinite(x) && x > 0)) throw new UserError(`--${name} must be a positive number, got ${v}`);
  return x;
};

/** Run the GEM benchmark and print its tables; returns the exit status (0) and the rows. */
export async function benchGemCommand(o: BenchGemCommandOptions = {}): Promise<{ status: number; rows: GemBenchRow[] }> {
  const targets = parseTargets(o.targets === undefined ? undefined : String(o.targets));
  const want = (t: string) => targetWanted(targets, t);
  const gpujsModes = GEM_GPUJS_MODES.filter((m) => targetWanted(targets, 'gpujs', m));
  const threads = parseThreadCounts(o.threads);
  const rows = await benchGem({
    reps: count('reps', o.reps, 5),
    naiveReps: count('naive-reps', o.naiveReps, 2),
    molecules: o.molecules ? String(o.molecules).split(',').map((s) => s.trim()).filter(Boolean) : undefined,
    region3: !(o.region3 === false || o.region3 === 'no'),
    density: o.density === undefined ? undefined : positive('density', o.density),
    largeReps: count('large-reps', o.largeReps, 1),
    ts: want('ts'),
    wasm: want('wasm'),
    wgsl: want('wgsl'),
    gpujs: gpujsModes.length > 0 ? gpujsModes : false,
    threads,
    log: o.log,
  });
  return { status: 0, rows };
}
