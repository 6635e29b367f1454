// `kernforge tune [family ...]`: the autotuner (runtime/tune/tuner.ts) from the command line.
// Progress with ETA on stderr, a summary table on stdout, the winners in kernforge-tuned.json.
// Ctrl-C (SIGINT) or SIGTERM stops after the measurement in flight is abandoned: everything
// measured so far is already in the cache, the winners so far are written, exit status 130.
import { keyTarget } from '../../runtime/keys.ts';
import type { Command } from 'commander';
import { InvalidArgumentError } from 'commander';
import { tune, formatSummary, formatTargets, TuneOptionsError, type TuneOptions, type TuneOutcome } from '../../runtime/tune/tuner.ts';
import type { DeviceId } from '../../runtime/tune/devices.ts';
import type { StrategyName } from '../../runtime/tune/strategies.ts';
import { createProgress } from '../../runtime/tune/progress.ts';
import { parseThreadList } from '../../runtime/parallel/pool.ts';

export { UserError } from '../../runtime/errors.ts';
import { UserError } from '../../runtime/errors.ts';

export interface TuneCliOptions {
  device?: string;
  strategy?: string;
  space?: string;
  maxEvals?: number;
  timeLimit?: number;
  problem?: string[];
  seed?: number;
  cache?: string;
  reps?: number;
  warmup?: number;
  out?: string;
  remeasure?: boolean;
  retryFailed?: boolean;
  runTimeout?: number;
  progressEvery?: number;
  quiet?: boolean;
  list?: boolean;
  /** Thread counts to consider, e.g. '1' or '1,2' (default: what each family offers). */
  threads?: string;
  /** Replace an --out file that is not a kernforge-tuned file. */
  force?: boolean;
  log?: (line: string) => void;
}

/** `kernforge tune --list`: families, their problem classes, what is timed and the candidates per device. */
export async function listTuning(families: string[], o: TuneCliOptions): Promise<number> {
  const log = o.log ?? ((l: string) => console.log(l));
  const { tuningFamilies } = await import('../../runtime/tune/families/index.ts');
  const { detectDevices } = await import('../../runtime/tune/devices.ts');
  const devices = (await detectDevices(devicesOf(o.device))).filter((d) => d.available);
  for (const d of devices) {
    const off = Object.entries(d.unavailableTargets ?? {}).map(([t, why]) => `; ${t} not available: ${why}`).join('');
    const modes = d.gpujsModes?.length ? ` (gpu.js modes ${d.gpujsModes.join(', ')})` : '';
    log(`${d.id}: targets ${d.targets.join(', ')}${modes}${off}`);
  }
  for (const f of await tuningFamilies()) {
    if (families.length > 0 && !families.includes(f.family)) continue;
    log(`${f.family}: ${f.measures}`);
    for (const p of f.problems()) {
      const counts: string[] = [];
      for (const d of devices) {
        const keys = await f.candidates(d, p.name, { space: spaceOf(o.space) });
        const per = new Map<string, number>();
        for (const k of keys) per.set(keyTarget(k), (per.get(keyTarget(k)) ?? 0) + 1);
        counts.push(`${d.id} ${keys.length} candidates${per.size > 1 ? ` (${[...per].map(([t, n]) => `${t} ${n}`).join(', ')})` : ''}`);
      }
      log(`  ${p.name.padEnd(18)} ${p.quick ? '(quick) ' : ''}${p.description}; ${counts.join(', ')}`);
    }
  }
  return 0;
}

function devicesOf(s: string | undefined): DeviceId[] {
  const d = s ?? 'cpu';
  if (d === 'all') return ['cpu', 'webgpu'];
  if (d === 'cpu' || d === 'webgpu') return [d];
  throw new UserError(`--device ${d}: allowed cpu, webgpu, all`);
}

function spaceOf(s: string | undefined): 'library' | 'full' {
  if (s === undefined || s === 'library' || s === 'full') return s ?? 'library';
  throw new UserError(`--space ${s}: allowed library, full`);
}

/**
 * The output policy (runtime/output.ts) for tune's files, before any measurement: the tuned
 * artefact (--out, else $KERNFORGE_TUNED or kernforge-tuned.json) is a file that is new or a
 * kernforge-tuned version 1 file (else --force), and --cache a folder or a .json file.
 */
async function checkTuneOutputs(o: TuneCliOptions): Promise<void> {
  const { checkReplace, checkOutputFile, checkFolderPath, formatRule, OutputError } = await import('../../runtime/output.ts');
  const { tunedPath, TUNED_FORMAT } = await import('../../runtime/tune/tuned.ts');
  const { DEFAULT_CACHE_DIR } = await import('../../runtime/tune/cache.ts');
  checkReplace(tunedPath(o.out), formatRule(TUNED_FORMAT, 1, o.force), '--out');
  const cache = o.cache ?? DEFAULT_CACHE_DIR;
  const allowed = `--cache takes a folder of cache files (default ${DEFAULT_CACHE_DIR}) or a .json cache file`;
  if (!cache.endsWith('.json')) return checkFolderPath(cache, '--cache', allowed);
  const { platform } = await import('../../runtime/platform.ts');
  if (platform().stat(platform().resolve(cache))?.kind === 'folder') throw new OutputError(`--cache ${cache} is a folder, but a name ending in .json names a cache file; ${allowed}`);
  checkOutputFile(cache, '--cache');
}

/** Run a tuning session with CLI options; returns the exit status (130 when interrupted). */
export async function runTuneCommand(families: string[], o: TuneCliOptions): Promise<{ status: number; outcome: TuneOutcome }> {
  const log = o.log ?? ((l: string) => console.log(l));
  await checkTuneOutputs(o);
  const ac = new AbortController();
  let signals = 0;
  const onSignal = (sig: NodeJS.Signals) => {
    signals++;
    if (signals > 1) process.exit(130);
    process.stderr.write(`\nkernforge tune: ${sig}: stopping after the measurement in flight (again to quit at once); the cache keeps everything measured\n`);
    ac.abort();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  const opts: TuneOptions = {
    families,
    devices: devicesOf(o.device),
    strategy: (o.strategy ?? 'exhaustive') as StrategyName,
    space: spaceOf(o.space),
    maxEvals: o.maxEvals,
    timeLimitS: o.timeLimit,
    problems: o.problem?.flatMap((p) => p.split(',')).filter(Boolean),
    seed: o.seed,
    cache: o.cache,
    reps: o.reps,
    warmup: o.warmup,
    out: o.out,
    remeasure: o.remeasure,
    retryFailed: o.retryFailed,
    runTimeoutS: o.runTimeout,
    threads: o.threads === undefined ? undefined : parseThreadList(o.threads),
    signal: ac.signal,
    log,
    progress: createProgress({ every: o.progressEvery, quiet: o.quiet }),
  };
  let outcome: TuneOutcome;
  try {
    outcome = await tune(opts);
  } catch (e) {
    if (e instanceof TuneOptionsError) throw new UserError(e.message);
    throw e;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
  const rows = outcome.rows;
  const measured = rows.reduce((s, r) => s + r.measured, 0);
  const cached = rows.reduce((s, r) => s + r.cached, 0);
  const failed = rows.reduce((s, r) => s + r.failed, 0);
  log('');
  log(formatSummary(rows));
  for (const l of formatTargets(rows)) log(l);
  log('');
  if (measured === 0 && cached > 0) log(`warm cache: all ${cached} evaluations came from the cache, 0 new measurements`);
  else log(`${measured} new measurement(s), ${cached} from the cache, ${failed} failed (recorded, never chosen)`);
  for (const c of outcome.caches) log(`cache: ${c}`);
  if (outcome.tunedFile) log(`tuned variants: ${outcome.tunedFile} (loadTuned / the workloads' default)`);
  if (outcome.interrupted) log('interrupted: the measurement in flight was abandoned; run the same command again to resume');
  return { status: outcome.interrupted ? 130 : 0, outcome };
}

const int = (name: string, min: number) => (v: string): number => {
  const x = Number(v);
  if (!Number.isInteger(x) || x < min) throw new InvalidArgumentError(`${name} needs an integer >= ${min}, got "${v}"`);
  return x;
};
const pos = (name: string) => (v: string): number => {
  const x = Number(v);
  if (!(Number.isFinite(x) && x > 0)) throw new InvalidArgumentError(`${name} needs a positive number, got "${v}"`);
  return x;
};

/** tune --shard K/N: the shard's part of the candidates, into <out-dir>/shards/K-of-N (runtime/batch/tune.ts). */
async function tuneShard(families: string[], o: TuneCliOptions & { shard?: string; outDir: string }, cmd: Command): Promise<number> {
  const { parseShard } = await import('../../runtime/batch/shard.ts');
  const { runTuneShard } = await import('../../runtime/batch/tune.ts');
  const shard = parseShard(o.shard!);
  for (const [opt, name] of [['out', '--out'], ['cache', '--cache'], ['remeasure', '--remeasure'], ['retryFailed', '--retry-failed']] as const) {
    if (cmd.getOptionValueSource(opt) === 'cli') throw new UserError(`${name}: a tuning shard keeps its cache and winners in <out-dir>/shards/K-of-N (${o.outDir}); leave ${name} out`);
  }
  let root: Command = cmd;
  while (root.parent) root = root.parent;
  const log = o.log ?? ((l: string) => console.log(l));
  let r: Awaited<ReturnType<typeof runTuneShard>>;
  try {
    r = await runTuneShard({
      families, shard, outDir: o.outDir, command: [...((root as unknown as { rawArgs?: string[] }).rawArgs ?? [])],
      devices: devicesOf(o.device), strategy: (o.strategy ?? 'exhaustive') as StrategyName, space: spaceOf(o.space), maxEvals: o.maxEvals, timeLimitS: o.timeLimit,
      problems: o.problem?.flatMap((p) => p.split(',')).filter(Boolean), seed: o.seed, reps: o.reps, warmup: o.warmup, runTimeoutS: o.runTimeout,
      threads: o.threads === undefined ? undefined : parseThreadList(o.threads), log, progress: createProgress({ every: o.progressEvery, quiet: o.quiet }),
    });
  } catch (e) {
    if (e instanceof TuneOptionsError) throw new UserError(e.message);
    throw e;
  }
  if (r.outcome) {
    log('');
    log(formatSummary(r.outcome.rows));
  }
  log(`${r.status === 'done' ? 'wrote' : 'kept'} shard ${r.dir}`);
  return 0;
}

/** Add `tune` to the program; `setStatus` receives the exit status. */
export function registerTune(program: Command, setStatus: (s: number) => void): void {
  program
    .command('tune')
    .description('autotune: verify and time candidate variants per device, family and problem; cache every measurement; write the winners to kernforge-tuned.json')
    .argument('[families...]', 'md-nonbonded, gem-potential, bigdft-conv, pme-mesh (default: all)')
    .option('--device <d>', "cpu (targets ts, wasm where WebAssembly SIMD validates, gpujs in gpu.js's cpu and webasm modes; KERNFORGE_WASM_SIMD=off or KERNFORGE_GPUJS=off leaves one out), webgpu (wgsl, gpujs in headlessgl and webgpu modes) or all", 'cpu')
    .option('--threads <list>', 'thread counts to consider, comma-separated (default: every count a family offers, up to the cores)')
    .option('--strategy <s>', 'exhaustive, random, annealing, bandit, descent (coordinate descent) or model (additive surrogate)', 'exhaustive')
    .option('--space <s>', "candidates: 'library' (the committed variants) or 'full' (every valid point of the tuning axes, rendered on demand)", 'library')
    .option('--max-evals <n>', 'evaluations per device, family and problem chosen by the strategy (default: every candidate)', int('--max-evals', 1))
    .option('--time-limit <s>', 'wall-clock limit of the session in seconds (no new evaluation after it)', pos('--time-limit'))
    .option('--problem <name>', "problem class(es), repeatable or comma-separated; 'quick' = the small classes, 'all' (default: the full-size classes)", (v: string, prev: string[] = []) => [...prev, v])
    .option('--seed <n>', 'seed of the random strategies', int('--seed', 0), 1)
    .option('--cache <dir>', 'cache folder (or a .json file)', '.kernforge/tune')
    .option('--reps <n>', 'timed runs per evaluation (median, IQR)', int('--reps', 1), 5)
    .option('--warmup <n>', 'untimed runs before them', int('--warmup', 0), 1)
    .option('--run-timeout <s>', 'limit for one verification or run (seconds)', pos('--run-timeout'), 120)
    .option('--out <file>', 'tuned artefact (default: $KERNFORGE_TUNED or kernforge-tuned.json)')
    .option('--force', 'replace an --out file that is not a kernforge-tuned file')
    .option('--remeasure', 'measure again even what is cached')
    .option('--retry-failed', 'measure again the cached timeouts, lost devices and exceptions')
    .option('--list', 'list the families, their problem classes and candidate counts, and exit')
    .option('--progress-every <n>', 'without a terminal: one progress line every n evaluations', int('--progress-every', 1), 10)
    .option('--shard <K/N>', "measure shard K (0-based) of N of every problem's candidates (identical nodes); cache and winners go to <out-dir>/shards/K-of-N/, `kernforge gather <out-dir>` merges the caches (docs/batch.md)")
    .option('--out-dir <folder>', 'the folder of --shard', 'kernforge-batch')
    .action(async (families: string[], o: TuneCliOptions & { shard?: string; outDir: string }, cmd: Command) => {
      if (o.list) return setStatus(await listTuning(families, o));
      if (o.shard !== undefined) return setStatus(await tuneShard(families, o, cmd));
      const { status } = await runTuneCommand(families, o);
      setStatus(status);
    });
}
