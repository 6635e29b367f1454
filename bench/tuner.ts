// Strategy comparison without re-measuring: for every family/problem with an exhaustive result set
// in the tune cache (any device), replay each non-exhaustive strategy (runtime/tune/strategies.ts's
// replayStrategy) over many seeds on the recorded times, and report the best performance reached
// (exhaustive best / best found, 1 = found it) with a budget of 10%, 25% and 50% of the
// evaluations (median and quartiles over seeds), and the evaluations needed to reach 95% of the
// exhaustive best. The issue's goal: >= 95% of the exhaustive best within 25% of the evaluations,
// judged on the median over seeds: PASS/FAIL per family/problem/device and strategy.
//
// Each budget is its own replay (budget = floor(fraction x variants), at least 1): a strategy may
// plan with its budget (annealing cools over it), so a prefix of a longer run is not the same.
// The evaluations-to-95% come from a replay with the whole set as budget.
//
//   npx tsx bench/tuner.ts [--cache .kernforge/tune] [--seeds 25] [--assume-exhaustive]
//   kernforge bench tuner [--cache dir] [--seeds 25]
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';
import { isUserError } from '../runtime/errors.ts';
import {
  DEFAULT_CACHE_DIR,
  NON_EXHAUSTIVE,
  ReportInputError,
  defaultReplay,
  exhaustiveSets,
  loadCaches,
  quantile,
  replayCurve,
  type LoadedCache,
  type ReplayFn,
  type Strategy,
} from '../runtime/tune/report.ts';

export interface Quartiles {
  q1: number;
  median: number;
  q3: number;
}

export interface TunerBenchRow {
  device: string;
  fingerprint: string;
  family: string;
  problem: string;
  strategy: Strategy;
  /** Variants in the exhaustive set, and how many of them failed. */
  variants: number;
  failed: number;
  bestMs: number;
  bestKey: string;
  /** Best performance reached (fraction of the exhaustive best) per budget fraction, over seeds. */
  at: ({ fraction: number; budget: number } & Quartiles)[];
  /** Evaluations to reach `target` of the exhaustive best, over seeds (Infinity: not reached). */
  evalsToTarget: Quartiles;
  /** Seeds that reached the target at all. */
  reached: number;
  seeds: number;
  /** Median best at the goal fraction >= target. */
  pass: boolean;
}

export interface TunerBenchResult {
  rows: TunerBenchRow[];
  /** Per family and strategy: PASS when every device/problem row passes. */
  summary: { family: string; strategy: Strategy; rows: number; passed: number; pass: boolean }[];
  seeds: number;
  fractions: number[];
  goalFraction: number;
  target: number;
  cacheDir: string;
  seconds: number;
}

export interface TunerBenchOptions {
  cacheDir?: string;
  /** Already loaded caches (instead of reading cacheDir). */
  caches?: LoadedCache[];
  seeds?: number;
  strategies?: Strategy[];
  fractions?: number[];
  /** The fraction of the evaluations the goal is judged at (default 0.25). */
  goalFraction?: number;
  /** Fraction of the exhaustive best to reach (default 0.95). */
  target?: number;
  assumeExhaustive?: boolean;
  replay?: ReplayFn;
}

const quartiles = (v: number[]): Quartiles => ({ q1: quantile(v, 0.25), median: quantile(v, 0.5), q3: quantile(v, 0.75) });

/** The evaluation budget for a fraction of n variants. */
export const budgetFor = (fraction: number, n: number): number => Math.max(1, Math.min(n, Math.floor(fraction * n + 1e-9)));

export async function benchTuner(o: TunerBenchOptions = {}): Promise<TunerBenchResult> {
  const t0 = performance.now();
  const cacheDir = resolve(o.cacheDir ?? DEFAULT_CACHE_DIR);
  const seeds = o.seeds ?? 25;
  const strategies = o.strategies ?? NON_EXHAUSTIVE;
  const goalFraction = o.goalFraction ?? 0.25;
  const fractions = [...new Set([...(o.fractions ?? [0.1, 0.25, 0.5]), goalFraction])].sort((a, b) => a - b);
  const target = o.target ?? 0.95;
  const replay = o.replay ?? defaultReplay;
  const caches = o.caches ?? loadCaches(cacheDir);
  const sets = exhaustiveSets(caches, o.assumeExhaustive);
  if (sets.length === 0)
    throw new ReportInputError(
      `no exhaustive result set in the tune cache (${caches.map((c) => c.file).join(', ')}): run \`kernforge tune --strategy exhaustive\` first, or pass --assume-exhaustive to treat every family/problem's results as complete`,
    );
  const rows: TunerBenchRow[] = [];
  for (const set of sets) {
    const n = set.recorded.size;
    const failed = [...set.recorded.values()].filter((t) => t === null).length;
    for (const strategy of strategies) {
      const at: TunerBenchRow['at'] = [];
      for (const fraction of fractions) {
        const budget = budgetFor(fraction, n);
        const finals: number[] = [];
        for (let s = 0; s < seeds; s++) finals.push((await replayCurve(replay, set, strategy, budget, s)).at(-1) ?? 0);
        at.push({ fraction, budget, ...quartiles(finals) });
      }
      const evals: number[] = [];
      for (let s = 0; s < seeds; s++) {
        const curve = await replayCurve(replay, set, strategy, n, s);
        const i = curve.findIndex((r) => r >= target - 1e-12);
        evals.push(i < 0 ? Infinity : i + 1);
      }
      const goal = at.find((a) => a.fraction === goalFraction)!;
      rows.push({
        device: `${set.device.name} (${set.device.id}/${set.device.target})`,
        fingerprint: set.device.fingerprint,
        family: set.family,
        problem: set.problem,
        strategy,
        variants: n,
        failed,
        bestMs: set.best,
        bestKey: set.bestKey,
        at,
        evalsToTarget: quartiles(evals),
        reached: evals.filter(Number.isFinite).length,
        seeds,
        pass: goal.median >= target - 1e-12,
      });
    }
  }
  const summary: TunerBenchResult['summary'] = [];
  for (const family of [...new Set(rows.map((r) => r.family))])
    for (const strategy of strategies) {
      const rs = rows.filter((r) => r.family === family && r.strategy === strategy);
      const passed = rs.filter((r) => r.pass).length;
      summary.push({ family, strategy, rows: rs.length, passed, pass: passed === rs.length });
    }
  return { rows, summary, seeds, fractions, goalFraction, target, cacheDir, seconds: (performance.now() - t0) / 1000 };
}

const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
const evalsText = (x: number) => (Number.isFinite(x) ? String(Math.round(x * 100) / 100) : 'never');

/** Columns padded to one width each: the first `left` left-aligned, the others right-aligned. */
function align(rows: string[][], left = 2): string[] {
  const w: number[] = [];
  for (const r of rows) r.forEach((c, i) => (w[i] = Math.max(w[i] ?? 0, c.length)));
  return rows.map((r) => r.map((c, i) => (i < left ? c.padEnd(w[i]!) : c.padStart(w[i]!))).join('  ').trimEnd());
}

/** The result as printed lines. */
export function formatTunerBench(r: TunerBenchResult): string[] {
  const out: string[] = [];
  out.push(`tuner strategies replayed on exhaustive result sets from ${r.cacheDir}`);
  out.push(`  ${r.seeds} seeds per strategy; best reached = exhaustive best / best found (1 = found it), median [q1, q3] over seeds;`);
  out.push(`  each budget is its own replay; goal: median >= ${pct(r.target)} of the exhaustive best within ${pct(r.goalFraction)} of the evaluations`);
  const devices = [...new Set(r.rows.map((x) => x.device))];
  for (const device of devices) {
    out.push('', `device: ${device}`);
    const head = ['family / problem', 'strategy', 'variants', ...r.fractions.map((f) => `best @${Math.round(100 * f)}%`), `evals to ${pct(r.target)}`, 'goal'];
    const body = r.rows
      .filter((x) => x.device === device)
      .map((x) => [
        `${x.family} / ${x.problem}`,
        x.strategy,
        `${x.variants}${x.failed ? ` (${x.failed} failed)` : ''}`,
        ...x.at.map((a) => `${pct(a.median)} [${pct(a.q1)}, ${pct(a.q3)}] (${a.budget})`),
        `${evalsText(x.evalsToTarget.median)} [${evalsText(x.evalsToTarget.q1)}, ${evalsText(x.evalsToTarget.q3)}]${x.reached < x.seeds ? ` ${x.reached}/${x.seeds} reach` : ''}`,
        x.pass ? 'PASS' : 'FAIL',
      ]);
    out.push(...align([head, ...body]));
  }
  out.push('', `goal per family and strategy (>= ${pct(r.target)} of the exhaustive best within ${pct(r.goalFraction)} of the evaluations, every device and problem):`);
  out.push(...align(r.summary.map((s) => [`  ${s.pass ? 'PASS' : 'FAIL'}`, s.family, s.strategy, `${s.passed}/${s.rows} rows`]), 3));
  out.push('', `${r.rows.length} rows in ${r.seconds.toFixed(1)} s`);
  return out;
}

const posInt = (name: string, v: string | undefined, dflt: number): number => {
  if (v === undefined) return dflt;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1 || n > 10000) throw new ReportInputError(`--${name} must be an integer from 1 to 10000, got ${v}`);
  return n;
};

/** `kernforge bench tuner`: print the comparison; returns the exit status (0; user mistakes throw UserError). */
export async function benchTunerCommand(o: { cache?: string; seeds?: string; assumeExhaustive?: boolean | string; log?: (line: string) => void } = {}): Promise<number> {
  const log = o.log ?? ((m: string) => console.log(m));
  // bad options and caches are ReportInputErrors: user errors (runtime/errors.ts), which the CLI prints as one line
  const r = await benchTuner({ cacheDir: o.cache, seeds: posInt('seeds', o.seeds, 25), assumeExhaustive: o.assumeExhaustive === true || o.assumeExhaustive === 'yes' });
  for (const line of formatTunerBench(r)) log(line);
  return 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const { values } = parseArgs({
    options: { cache: { type: 'string' }, seeds: { type: 'string' }, 'assume-exhaustive': { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
  });
  if (values.help) {
    console.log('usage: npx tsx bench/tuner.ts [--cache .kernforge/tune] [--seeds 25] [--assume-exhaustive]');
  } else {
    try {
      process.exitCode = await benchTunerCommand({ cache: values.cache, seeds: values.seeds, assumeExhaustive: values['assume-exhaustive'] });
    } catch (e) {
      if (!isUserError(e)) throw e;
      console.error(`kernforge: error: ${(e as Error).message}`);
      process.exitCode = 2;
    }
  }
}
