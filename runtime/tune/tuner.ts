// The autotuner: for each device, family and problem class, build the candidate variants, let a
// strategy choose which to evaluate, and evaluate each one: verify it against the f64 reference
// on a small input, then time it on the problem (warm-up, then `reps` timed runs: median, min,
// spread = IQR / median). Failures (compile error, wrong result, timeout, device lost, exception)
// are recorded with their status and never chosen. Every measurement is written to the device's
// cache at once (runtime/tune/cache.ts), and cached results are reused, so an interrupted session
// resumes where it stopped and a warm cache measures nothing. Winners go to the tuned artefact
// (runtime/tune/tuned.ts) that the workloads load.
//
// The device's default variant (what the workload uses untuned) is evaluated first, outside the
// strategy's budget, for the speed-up; so are the family's start keys (TuningFamily.startKeys:
// the reference variants of the device's other targets), so that a short search never ends
// slower than them.
//
// A device may offer several targets (the CPU: ts, and wasm when WebAssembly SIMD validates);
// a family's candidates may then come from all of them and the fastest verified one wins,
// whatever its target. A target the device lacks here is named in a note, and tuning goes on
// with the others.
//
// A family that splits work over worker threads offers thread counts per key
// (TuningFamily.threadCounts); (key, threads) pairs are then the candidates, `threads` one more
// axis for the strategies, and the winner's count goes to the tuned artefact with its key. A
// variant is verified once per session, whatever the thread counts it is timed with.
import { keyTarget, shortKey } from '../keys.ts';
import { KernforgeError } from '../errors.ts';
import type { Device, DeviceId, GpujsModes, WasmSimdProbe } from './devices.ts';
import { deviceById, DEVICE_IDS, watchDeviceLost } from './devices.ts';
import { TuneCache, type CacheResult, type CacheRun, type ResultStatus } from './cache.ts';
import type { TuningFamily, PreparedProblem, CandidateSpace } from './family.ts';
import { tuningFamilies } from './families/index.ts';
import { seededRng, strategyByName, STRATEGY_NAMES, type Candidate, type Params, type StrategyName } from './strategies.ts';
import { createProgress, type Progress } from './progress.ts';
import { updateTuned, tunedPath } from './tuned.ts';
import { candidateId, splitCandidate } from './threads.ts';

/** Bad tuning options (the CLI prints the message, exit status 2). */
export class TuneOptionsError extends KernforgeError {}
/** Thrown inside evaluate to stop a strategy. */
class StopTuning extends Error {
  constructor(readonly why: 'interrupted' | 'time-limit' | 'device-lost') {
    super(why);
  }
}
/** A run or check that took longer than the per-run limit. */
export class TuneTimeout extends Error {}

/** The smallest relative speed-up over the default that counts as one (see TuneRow.chosenKey). */
export const NOISE_FLOOR = 0.02;

/** Options of tune(); every field is optional. Bad values throw TuneOptionsError. */
export interface TuneOptions {
  /** Family names (default: every registered family). */
  families?: string[];
  /** Devices (default ['cpu']). */
  devices?: DeviceId[];
  /** Search strategy (default exhaustive; see STRATEGY_NAMES). */
  strategy?: StrategyName;
  /** Candidates from the committed library (default) or every valid point of the tuning axes. */
  space?: CandidateSpace;
  /** Evaluations per device, family and problem chosen by the strategy (default: all candidates). */
  maxEvals?: number;
  /** Wall-clock limit for the whole session, seconds; no new evaluation starts after it. */
  timeLimitS?: number;
  /** Problem names; 'quick' = the quick classes, 'all' = every class (default: the full-size classes). */
  problems?: string[];
  /** Seed of the strategy's random choices, an integer (default 1). */
  seed?: number;
  /** Cache folder (default .kernforge/tune) or a .json file. */
  cache?: string;
  /** Timed runs per evaluation (default 5), after `warmup` untimed ones (default 1). */
  reps?: number;
  /** Untimed runs before the timed ones (default 1). */
  warmup?: number;
  /** Limit for one verification or run, seconds (default 120). */
  runTimeoutS?: number;
  /** Tuned artefact path (default kernforge-tuned.json or $KERNFORGE_TUNED); false: do not write. */
  out?: string | false;
  /** Measure again even when cached. */
  remeasure?: boolean;
  /** Measure again the cached failures (timeouts, lost devices, exceptions). */
  retryFailed?: boolean;
  /** Report lines (stdout); default console.log. */
  log?: (line: string) => void;
  /** Progress on stderr (default: a bar on a terminal, else a plain line every few evaluations). */
  progress?: Progress;
  /** Aborting stops the session after (or during) the measurement in flight; it is not recorded. */
  signal?: AbortSignal;
  /** The CPU's WebAssembly SIMD detection result to use instead of probing (tests). */
  wasmSimd?: WasmSimdProbe;
  /** The CPU's gpu.js modes to use instead of probing (tests; e.g. none, to tune without gpujs). */
  gpujs?: GpujsModes;
  /**
   * Thread counts to consider (default: every count a family offers for a key, see
   * TuningFamily.threadCounts); e.g. [1] tunes single-thread runs only.
   */
  threads?: number[];
  /**
   * Keep only some of each problem's candidates, given in the family's order (a shard of a tuning
   * batch: runtime/batch/tune.ts); a problem left with none is not tuned.
   */
  candidateFilter?: (candidates: Candidate[], where: { device: DeviceId; family: string; problem: string }) => Candidate[];
}

/** The outcome of tuning one family's problem class on one device: the winner, the default and the speed-up. */
export interface TuneRow {
  /** The device tuned. */
  device: DeviceId;
  /** Its fingerprint. */
  fingerprint: string;
  /** Tuning family. */
  family: string;
  /** Problem class. */
  problem: string;
  /** Candidates in the space (variant keys, or key and thread-count pairs). */
  candidates: number;
  /** The targets the candidates come from (more than one: the table names each winner's target). */
  targets?: string[];
  /** With several targets: the fastest verified variant of each. */
  bestByTarget?: Record<string, {
    /** The target's fastest verified variant. */
    key: string;
    /** Its median time (ms). */
    medianMs: number;
  }>;
  /** The fastest verified variant measured. */
  bestKey?: string;
  /** Median time of bestKey (ms). */
  bestMs?: number;
  /**
   * What the workloads get (the tuned artefact): bestKey, unless the default is within the
   * measured noise of it (not slower by more than the larger relative spread, IQR/median, and at
   * least NOISE_FLOOR): then the default stays, since the difference is not a measurement.
   */
  chosenKey?: string;
  /**
   * Why the tuned artefact keeps chosenKey (the default) rather than bestKey, when they differ,
   * said of bestKey: "was only 1.005x faster, within the measured spread (2.0%)" (the noise rule,
   * see chosenKey). The summary table says it on the row.
   */
  keptWhy?: string;
  /** The device's default variant (what the workload runs untuned). */
  defaultKey?: string;
  /** Median time of the default (ms), when it verified. */
  defaultMs?: number;
  /** defaultMs / bestMs, when both were measured. */
  speedup?: number;
  /** Evaluations measured in this session, taken from the cache, and failed (either way). */
  measured: number;
  /** Evaluations taken from the cache. */
  cached: number;
  /** Evaluations that failed (either way). */
  failed: number;
  /** Why the default was kept, failed, or no variant applied. */
  note?: string;
}

/** What tune() did: one row per device, family and problem class, and where it wrote. */
export interface TuneOutcome {
  /** One row per device, family and problem class tuned. */
  rows: TuneRow[];
  /** Whether the signal stopped the session. */
  interrupted: boolean;
  /** Whether the time limit stopped the session. */
  timeLimited: boolean;
  /** Paths of the cache files used. */
  caches: string[];
  /** The tuned artefact written, if any. */
  tunedFile?: string;
  /** Notes also logged (missing targets, time limit, and the like). */
  notes: string[];
}

const median = (s: number[]): number => {
  const a = [...s].sort((x, y) => x - y);
  const m = a.length >> 1;
  return a.length % 2 ? a[m]! : (a[m - 1]! + a[m]!) / 2;
};
/** Quantile with linear interpolation. */
const quantile = (s: number[], q: number): number => {
  const a = [...s].sort((x, y) => x - y);
  const p = (a.length - 1) * q;
  const lo = Math.floor(p);
  return a[lo]! + (a[Math.min(lo + 1, a.length - 1)]! - a[lo]!) * (p - lo);
};

/** Statistics of timed runs: median, min, spread = IQR / median. */
export function sampleStats(samples: number[]): {
  /** Median (ms). */
  medianMs: number;
  /** Fastest run (ms). */
  minMs: number;
  /** Interquartile range over the median (0 when the median is 0). */
  spread: number;
} {
  const m = median(samples);
  return { medianMs: m, minMs: Math.min(...samples), spread: m > 0 ? (quantile(samples, 0.75) - quantile(samples, 0.25)) / m : 0 };
}

/** Status of a failure from its exception. */
export function classifyError(e: unknown): ResultStatus {
  if (e instanceof TuneTimeout) return 'timeout';
  const msg = String((e as Error)?.message ?? e);
  if (/device (was )?lost|lost the device|GPUDevice.*(lost|destroyed)/i.test(msg)) return 'device-lost';
  if (/compile error|pipeline error|Transform failed|SyntaxError|shader module/i.test(msg) || (e as Error)?.name === 'SyntaxError') return 'compile-error';
  return 'error';
}

// setImmediate where there is one (Node: after pending I/O such as a SIGINT), else a zero timeout
const yieldToEvents = () => new Promise<void>((r) => ((globalThis as { setImmediate?: (f: () => void) => unknown }).setImmediate ?? setTimeout)(r));

async function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const t0 = performance.now();
  try {
    const v = await Promise.race([p, new Promise<never>((_, rej) => (timer = setTimeout(() => rej(new TuneTimeout(`${what} took longer than ${ms / 1000} s`)), ms)))]);
    // a synchronous (TS) run cannot be cut short: it is judged when it returns
    if (performance.now() - t0 > ms) throw new TuneTimeout(`${what} took ${((performance.now() - t0) / 1000).toFixed(1)} s, more than ${ms / 1000} s`);
    return v;
  } finally {
    clearTimeout(timer);
  }
}

/** Which problem classes of a family the options select. */
export function selectProblems(f: TuningFamily, wanted: string[] | undefined): string[] {
  const all = f.problems();
  if (!wanted || wanted.length === 0) return all.filter((p) => !p.quick).map((p) => p.name);
  if (wanted.includes('all')) return all.map((p) => p.name);
  if (wanted.includes('quick')) return all.filter((p) => p.quick).map((p) => p.name);
  return all.filter((p) => wanted.includes(p.name)).map((p) => p.name);
}

/** Run a tuning session. */
export async function tune(o: TuneOptions = {}): Promise<TuneOutcome> {
  const log = o.log ?? ((l: string) => console.log(l));
  const strategyName = o.strategy ?? 'exhaustive';
  if (!STRATEGY_NAMES.includes(strategyName)) throw new TuneOptionsError(`--strategy ${strategyName}: allowed ${STRATEGY_NAMES.join(', ')}`);
  const strategy = strategyByName(strategyName);
  const maxEvals = o.maxEvals ?? Infinity;
  if (!(maxEvals >= 1)) throw new TuneOptionsError(`--max-evals ${o.maxEvals}: must be at least 1`);
  const reps = o.reps ?? 5;
  const warmup = o.warmup ?? 1;
  if (!(Number.isInteger(reps) && reps >= 1)) throw new TuneOptionsError(`--reps ${o.reps}: must be a positive integer`);
  if (o.timeLimitS !== undefined && !(o.timeLimitS > 0)) throw new TuneOptionsError(`--time-limit ${o.timeLimitS}: must be a positive number of seconds`);
  const seed = o.seed ?? 1;
  if (!Number.isInteger(seed)) throw new TuneOptionsError(`--seed ${o.seed}: must be an integer`);
  const runTimeoutMs = (o.runTimeoutS ?? 120) * 1000;
  const deadline = o.timeLimitS !== undefined ? performance.now() + o.timeLimitS * 1000 : Infinity;
  const deviceIds = o.devices ?? ['cpu'];
  for (const d of deviceIds) if (!DEVICE_IDS.includes(d)) throw new TuneOptionsError(`--device ${d}: allowed cpu, webgpu, all`);
  for (const n of o.threads ?? []) if (!(Number.isInteger(n) && n >= 1)) throw new TuneOptionsError(`--threads ${o.threads!.join(',')}: thread counts are positive integers`);

  const registry = await tuningFamilies();
  const names = o.families && o.families.length > 0 ? o.families : registry.map((f) => f.family);
  const families: TuningFamily[] = [];
  for (const n of names) {
    const f = registry.find((x) => x.family === n);
    if (!f) throw new TuneOptionsError(`no tunable family "${n}" (allowed: ${registry.map((x) => x.family).join(', ')})`);
    families.push(f);
  }
  for (const p of o.problems ?? []) {
    if (p === 'all' || p === 'quick') continue;
    if (!families.some((f) => f.problems().some((x) => x.name === p))) {
      throw new TuneOptionsError(`--problem ${p}: no selected family has it (${families.map((f) => `${f.family}: ${f.problems().map((x) => x.name).join(', ')}`).join('; ')})`);
    }
  }

  const progress = o.progress ?? createProgress();
  const outcome: TuneOutcome = { rows: [], interrupted: false, timeLimited: false, caches: [], notes: [] };
  const note = (l: string) => {
    outcome.notes.push(l);
    progress.log(l);
  };

  // Plan: devices, then (family, problem, candidates).
  interface Task {
    device: Device;
    family: TuningFamily;
    problem: string;
    candidates: Candidate[];
    defaultKey?: string;
    /** Candidates evaluated with the default, outside the strategy's budget (TuningFamily.startKeys). */
    startKeys: string[];
  }
  const tasks: Task[] = [];
  for (const id of deviceIds) {
    const device = await deviceById(id, { wasmSimd: o.wasmSimd, gpujs: o.gpujs });
    if (!device.available) {
      note(`${id}: not available (${device.why}); skipped`);
      continue;
    }
    for (const [t, why] of Object.entries(device.unavailableTargets ?? {})) {
      note(`${id}: target ${t} not available (${why}); tuning with ${device.targets.join(', ')} only`);
    }
    for (const f of families) {
      for (const problem of selectProblems(f, o.problems)) {
        const keys = await f.candidates(device, problem, { space: o.space });
        if (keys.length === 0) {
          outcome.rows.push({ device: id, fingerprint: device.fingerprint, family: f.family, problem, candidates: 0, measured: 0, cached: 0, failed: 0, note: `no ${(device.targets ?? [device.target]).join('/')} variants for this problem` });
          continue;
        }
        const params = f.params ?? (async (k: string) => (await import('../variants.ts')).variantParams(k));
        const candidates: Candidate[] = [];
        for (const key of keys) {
          const p = await params(key);
          if (!f.threadCounts) {
            candidates.push({ key, params: p });
            continue;
          }
          const counts = f.threadCounts(key, device).filter((n) => !o.threads || o.threads.includes(n));
          for (const n of counts.length > 0 ? counts : [1]) candidates.push({ key: candidateId(key, n), params: { ...p, threads: n } });
        }
        const dk = f.defaultKey(device, problem);
        const mine = o.candidateFilter ? o.candidateFilter(candidates, { device: id, family: f.family, problem }) : candidates;
        if (mine.length === 0) continue;
        const ids = new Set(mine.map((c) => c.key));
        const starts = (f.startKeys?.(device, problem) ?? []).filter((k) => k !== dk && ids.has(k));
        tasks.push({ device, family: f, problem, candidates: mine, defaultKey: dk, startKeys: starts });
      }
    }
  }
  const outside = (t: Task): number =>
    (t.defaultKey && !t.candidates.some((c) => c.key === t.defaultKey) ? 1 : t.defaultKey ? (maxEvals >= t.candidates.length ? 0 : 1) : 0) +
    (maxEvals >= t.candidates.length ? 0 : t.startKeys.length);
  const total = tasks.reduce((s, t) => s + Math.min(maxEvals, t.candidates.length) + outside(t), 0);
  progress.start(total);

  const caches = new Map<string, TuneCache>();
  const tunedFile = o.out === false ? undefined : tunedPath(o.out);
  const stop = (): StopTuning | undefined => {
    if (o.signal?.aborted) return new StopTuning('interrupted');
    if (performance.now() > deadline) return new StopTuning('time-limit');
    return undefined;
  };

  try {
    for (const t of tasks) {
      const { device, family: f, problem } = t;
      let cache = caches.get(device.fingerprint);
      if (!cache) {
        cache = TuneCache.open(device, o.cache, { note });
        for (const n of cache.notes) note(n);
        caches.set(device.fingerprint, cache);
        outcome.caches.push(cache.path);
      }
      const targets = [...new Set(t.candidates.map((c) => keyTarget(c.key)))];
      const row: TuneRow = { device: device.id, fingerprint: device.fingerprint, family: f.family, problem, candidates: t.candidates.length, ...(targets.length > 1 ? { targets } : {}), measured: 0, cached: 0, failed: 0, defaultKey: t.defaultKey };
      outcome.rows.push(row);
      const lost = device.id === 'webgpu' ? await watchDeviceLost(device) : () => false;
      let prepared: PreparedProblem | undefined;
      const paramsOf = new Map(t.candidates.map((c) => [c.key, c.params]));
      const counted = new Set<string>();
      // verification outcomes per variant key in this session (one check serves every thread count)
      const verified = new Map<string, Awaited<ReturnType<TuningFamily['verify']>>>();

      const measure = async (id: string): Promise<CacheResult> => {
        const { key, threads } = splitCandidate(id);
        const base = { family: f.family, problem, key: id, params: paramsOf.get(id) ?? (await (f.params ?? (async () => ({})))(key)) };
        const fail = (status: ResultStatus, detail: string, verifyError?: number): CacheResult => ({ ...base, status, detail, verifyError, at: new Date().toISOString() });
        let verifyError: number | undefined;
        try {
          let v = verified.get(key);
          if (!v) {
            v = await withTimeout(f.verify(key, device, problem), runTimeoutMs, `verification of ${key}`);
            verified.set(key, v);
          }
          verifyError = v.error;
          if (!v.ok) return fail(v.status ?? 'wrong', v.detail ?? 'does not match the f64 reference', v.error);
        } catch (e) {
          if (e instanceof StopTuning) throw e;
          return fail(lost() ? 'device-lost' : classifyError(e), `verification: ${(e as Error).message ?? e}`);
        }
        try {
          prepared ??= await f.prepare(device, problem);
          for (let w = 0; w < warmup; w++) {
            await withTimeout(prepared.run(key, { threads }), runTimeoutMs, `warm-up run of ${id}`);
            await yieldToEvents();
            const s = stop();
            if (s?.why === 'interrupted') throw s;
          }
          const samples: number[] = [];
          for (let r = 0; r < reps; r++) {
            const ms = await withTimeout(prepared.run(key, { threads }), runTimeoutMs, `run of ${id}`);
            if (!Number.isFinite(ms) || ms < 0) return fail('error', `the run reported ${ms} ms`, verifyError);
            samples.push(ms);
            await yieldToEvents();
            const s = stop();
            if (s?.why === 'interrupted') throw s;
          }
          if (lost()) return fail('device-lost', 'the WebGPU device was lost during the runs', verifyError);
          return { ...base, status: 'ok', ...sampleStats(samples), samples, verifyError, at: new Date().toISOString() };
        } catch (e) {
          if (e instanceof StopTuning) throw e;
          return fail(lost() ? 'device-lost' : classifyError(e), `run: ${(e as Error).message ?? e}`, verifyError);
        }
      };

      /** Evaluate one key: the cache, or a measurement; returns median ms or null (failure). */
      const evaluateKey = async (key: string, run?: CacheRun): Promise<number | null> => {
        const cached = cache!.get(f.family, problem, key);
        const reuse = cached && !o.remeasure && !(o.retryFailed && cached.status !== 'ok' && cached.status !== 'wrong');
        let r: CacheResult;
        if (reuse) {
          r = cached;
          if (!counted.has(key)) row.cached++;
          if (run) cache!.addEvaluation(run, key, r.status === 'ok' ? r.medianMs! : null);
        } else {
          const s = stop();
          if (s) throw s;
          if (lost()) throw new StopTuning('device-lost');
          r = await measure(key);
          if (!counted.has(key)) row.measured++;
          cache!.put(r);
          if (run) cache!.addEvaluation(run, key, r.status === 'ok' ? r.medianMs! : null);
          if (r.status === 'device-lost') {
            note(`${device.id}: device lost while evaluating ${key}; stopping on this device`);
          }
        }
        if (!counted.has(key)) {
          counted.add(key);
          if (r.status !== 'ok') row.failed++;
          progress.tick(`${f.family} ${problem}: ${shortKey(key)}${reuse ? ' (cached)' : ''}`);
        }
        if (r.status === 'device-lost') throw new StopTuning('device-lost');
        return r.status === 'ok' ? r.medianMs! : null;
      };

      let stopped: StopTuning | undefined;
      try {
        if (t.defaultKey) {
          if (!paramsOf.has(t.defaultKey)) {
            try {
              paramsOf.set(t.defaultKey, await (f.params ?? (async () => ({})))(t.defaultKey));
            } catch {
              paramsOf.set(t.defaultKey, {});
            }
          }
          await evaluateKey(t.defaultKey);
        }
        for (const k of t.startKeys) await evaluateKey(k);
        const run = cache.startRun({ family: f.family, problem, strategy: strategyName, seed, maxEvals: Number.isFinite(maxEvals) ? maxEvals : t.candidates.length });
        try {
          await strategy(t.candidates, (key) => evaluateKey(key, run), Math.min(maxEvals, t.candidates.length), seededRng(seed));
          cache.finishRun(run);
        } catch (e) {
          if (!(e instanceof StopTuning)) throw e;
          stopped = e;
          if (e.why !== 'interrupted') cache.finishRun(run);
        }
      } catch (e) {
        if (!(e instanceof StopTuning)) throw e;
        stopped = e;
      } finally {
        await prepared?.dispose();
      }

      // the best verified variant among the candidates (and the default), from everything cached
      const keys = new Set([...t.candidates.map((c) => c.key), ...(t.defaultKey ? [t.defaultKey] : [])]);
      let best: CacheResult | undefined;
      const byTarget: Record<string, { key: string; medianMs: number }> = {};
      for (const r of cache.resultsFor(f.family, problem)) {
        if (!keys.has(r.key) || r.status !== 'ok') continue;
        if (!best || r.medianMs! < best.medianMs!) best = r;
        const tg = keyTarget(r.key);
        if (!byTarget[tg] || r.medianMs! < byTarget[tg].medianMs) byTarget[tg] = { key: r.key, medianMs: r.medianMs! };
      }
      if (row.targets) row.bestByTarget = byTarget;
      const def = t.defaultKey ? cache.get(f.family, problem, t.defaultKey) : undefined;
      if (best) {
        row.bestKey = best.key;
        row.bestMs = best.medianMs;
      }
      if (def?.status === 'ok') {
        row.defaultMs = def.medianMs;
        if (best) row.speedup = def.medianMs! / best.medianMs!;
      } else if (def) row.note = `default ${def.status}: ${def.detail ?? ''}`.trim();
      let chosen = best;
      if (best && def?.status === 'ok' && def.key !== best.key) {
        const margin = Math.max(NOISE_FLOOR, best.spread ?? 0, def.spread ?? 0);
        if (def.medianMs! / best.medianMs! < 1 + margin) {
          chosen = def;
          row.keptWhy = `was only ${(def.medianMs! / best.medianMs!).toFixed(3)}x faster, within the measured spread (${(100 * margin).toFixed(1)}%)`;
          row.note = `default kept: ${shortKey(best.key)} ${row.keptWhy}`;
        }
      }
      if (chosen) row.chosenKey = chosen.key;
      if (chosen && tunedFile) {
        const win = splitCandidate(chosen.key);
        updateTuned(tunedFile, device, f.family, problem, {
          key: win.key,
          ...(f.threadCounts ? { threads: win.threads } : {}),
          medianMs: chosen.medianMs!,
          defaultKey: t.defaultKey ?? null,
          defaultMs: row.defaultMs ?? null,
          speedup: chosen === best ? (row.speedup ?? null) : 1,
          when: new Date().toISOString(),
          strategy: strategyName,
          evaluated: cache.resultsFor(f.family, problem).filter((r) => keys.has(r.key)).length,
          candidates: t.candidates.length,
        });
        outcome.tunedFile = tunedFile;
      }
      if (stopped) {
        if (stopped.why === 'interrupted') {
          outcome.interrupted = true;
          break;
        }
        if (stopped.why === 'time-limit') {
          outcome.timeLimited = true;
          note(`time limit of ${o.timeLimitS} s reached: no further evaluations`);
          break;
        }
      }
    }
  } finally {
    progress.stop();
  }
  return outcome;
}

/**
 * The summary table (one row per device, family and problem). Its last column says what the
 * tuned artefact keeps: "best" (the best variant), or, when the noise rule keeps the default,
 * "default <key>: " and why (the best was within the measured spread of it).
 */
export function formatSummary(rows: TuneRow[]): string {
  const header = ['device', 'family', 'problem', 'best variant', 'median ms', 'default variant', 'default ms', 'speed-up', 'evals (measured/cached/failed)', 'kept in the tuned artefact'];
  // the key less its family and target; with candidates of several targets, the target is kept
  const short = (k: string | undefined, r: TuneRow) => (k ? shortKey(k, r.targets ? 'family' : 'target') : '-');
  const ms = (x?: number) => (x === undefined ? '-' : x < 10 ? x.toFixed(3) : x.toFixed(2));
  const body = rows.map((r) => [
    r.device,
    r.family,
    r.problem,
    r.bestKey ? short(r.bestKey, r) : r.note ?? 'nothing verified',
    ms(r.bestMs),
    short(r.defaultKey, r),
    ms(r.defaultMs),
    r.speedup === undefined ? '-' : `${r.speedup.toFixed(2)}x`,
    `${r.measured + r.cached}/${r.candidates} (${r.measured}/${r.cached}/${r.failed})`,
    !r.chosenKey ? '-' : r.chosenKey === r.bestKey ? 'best' : `default ${short(r.chosenKey, r)}: ${short(r.bestKey, r)} ${r.keptWhy ?? 'was within the measured noise of it'}`,
  ]);
  const w = header.map((h, i) => Math.max(h.length, ...body.map((b) => b[i]!.length)));
  const line = (c: string[]) => c.map((x, i) => (i === 4 || i === 6 || i === 7 ? x.padStart(w[i]!) : x.padEnd(w[i]!))).join('  ');
  return [line(header), w.map((x) => '-'.repeat(x)).join('  '), ...body.map(line)].map((l) => l.trimEnd()).join('\n');
}

/** One line per row whose candidates span several targets: the fastest of each and the ratio. */
export function formatTargets(rows: TuneRow[]): string[] {
  const out: string[] = [];
  for (const r of rows) {
    const b = Object.entries(r.bestByTarget ?? {}).sort((x, y) => x[1].medianMs - y[1].medianMs);
    if (b.length === 0) continue;
    const each = b.map(([t, x]) => `${t} ${shortKey(x.key, 'target')} ${x.medianMs.toFixed(3)} ms`).join(', ');
    const missing = (r.targets ?? []).filter((t) => !r.bestByTarget![t]);
    const ratio = b.length > 1 ? `; ${b[0]![0]} is ${(b[1]![1].medianMs / b[0]![1].medianMs).toFixed(2)}x faster than the best ${b[1]![0]}` : '';
    out.push(`${r.device} ${r.family} ${r.problem}: fastest per target: ${each}${ratio}${missing.length ? `; no verified measurement on ${missing.join(', ')} (not evaluated within the budget, or failed)` : ''}`);
  }
  return out;
}

export type { Params };
