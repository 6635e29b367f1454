// The tuning cache: every measurement the tuner makes, one JSON file per device fingerprint,
// by default `.kernforge/tune/<fingerprint>.json` (`kernforge tune --cache <dir>` moves it).
//
// Format (version 1), read by `kernforge report` and the strategy-comparison benchmark:
//
//   {
//     "format": "kernforge-tune-cache",
//     "version": 1,
//     "device": { "fingerprint": "<16 hex>", "id": "cpu" | "webgpu", "target": "ts" | "wgsl",
//                 "name": "<human readable>", "details": { ...limits, cores, backend... } },
//     "results": {
//       "<family>|<problem>|<key>": {
//         "family": "md-nonbonded", "problem": "water-rf", "key": "<variant key>",
//         "status": "ok" | "wrong" | "compile-error" | "timeout" | "device-lost" | "error",
//         "detail"?: "why it failed (or a note)",
//         "medianMs"?: number,     // median of the timed runs (status ok only)
//         "minMs"?: number,        // fastest timed run
//         "spread"?: number,       // interquartile range / median of the timed runs
//         "samples"?: number[],    // every timed run, ms, in the order measured
//         "verifyError"?: number,  // worst error / tolerance of the verification (<= 1 passes)
//         "params": { "<axis>": value },   // the variant's axis values
//         "at": "<ISO time of the measurement>"
//       }
//     },
//     "runs": [
//       { "id": "<run id>", "family", "problem", "strategy", "seed", "maxEvals",
//         "started": "<ISO>", "finished"?: "<ISO; absent when the run was interrupted>",
//         "evaluations": [ { "key", "medianMs": number | null } ]   // in the strategy's order,
//       }                                                           // cached ones included; null = failed
//     ]
//   }
//
// One result per family, problem and key: the latest measurement. Only status "ok" results are
// ever chosen as winners. A run records the strategy's evaluations in order, whether measured in
// that run or taken from the cache, so a run can be replayed. The device's default variant, timed
// for the speed-up, is in "results" but not in a run's evaluations unless the strategy picked it.
//
// Durability: the file is rewritten after every measurement through `<file>.tmp-<pid>`, fsync,
// rename and a directory fsync, so a SIGKILL at any moment leaves either the previous or the new
// complete file and loses at most the measurement in flight. A file that does not parse, or is
// not this format, is moved aside to `<file>.corrupt` (with a message) and a fresh cache starts.
// A file whose device fingerprint differs from the current device is never used: it is moved
// aside to `<file>.mismatch-<its fingerprint>` (with a message) and a fresh cache starts.
//
// Concurrent tuners (issue 13): several `kernforge tune` processes may share one cache. Every
// write is a read-merge-write under the lock file `<file>.lock` (runtime/tune/locked.ts,
// Platform.withLockFile): read the file as it is on disk, merge it into this process's results
// and runs, write the union, release. Merging: results are unioned, and for the same family,
// problem and key the later measurement (`at`) wins, this process's on a tie; runs are unioned
// by id, this process's own runs as it has them, the others' as the file has them, oldest first.
// So no process's measurement is lost, and each process also sees (and reuses) what the others
// measured up to its last write. A tuner killed with SIGKILL while it holds the lock leaves the
// lock file behind: the next writer sees that its process is gone and takes it over at once
// (saying so in one line); a lock held longer than 10 s is taken over whoever holds it (a write
// takes milliseconds). The file stays the only place the measurements are (no journals), so
// `kernforge report` and every other reader read it as before.
import { platform } from '../platform.ts';
import { underLock } from './locked.ts';
import type { Device } from './devices.ts';
import type { Params } from './strategies.ts';
import { writeFileAtomic } from '../files.ts';

/** The `format` field of a tuning cache file. */
export const CACHE_FORMAT = 'kernforge-tune-cache';
/** The cache file format version this kernforge reads and writes. */
export const CACHE_VERSION = 1;
/** Default cache folder, relative to the working directory (`kernforge tune --cache <dir>` moves it). */
export const DEFAULT_CACHE_DIR = '.kernforge/tune';

/** Outcome of one measurement: ok (verified and timed), wrong (failed verification), compile-error, timeout, device-lost, or another error. */
export type ResultStatus = 'ok' | 'wrong' | 'compile-error' | 'timeout' | 'device-lost' | 'error';
export const RESULT_STATUSES: readonly ResultStatus[] = ['ok', 'wrong', 'compile-error', 'timeout', 'device-lost', 'error'];

/** One measurement of a variant on a problem class: the latest per family, problem and key. */
export interface CacheResult {
  /** Tuning family, e.g. `md-nonbonded`. */
  family: string;
  /** Problem class of the family, e.g. `water-rf`. */
  problem: string;
  /** The variant key. */
  key: string;
  /** How the measurement went; only `ok` results are ever chosen as winners. */
  status: ResultStatus;
  /** Why it failed, or a note. */
  detail?: string;
  /** Median of the timed runs (ms); present when status is ok. */
  medianMs?: number;
  /** Fastest timed run (ms). */
  minMs?: number;
  /** Interquartile range over median of the timed runs. */
  spread?: number;
  /** Every timed run (ms), in the order measured. */
  samples?: number[];
  /** Worst error over tolerance in the verification (<= 1 passes). */
  verifyError?: number;
  /** The variant's axis values. */
  params: Params;
  /** ISO time of the measurement. */
  at: string;
}

/** One tuning run: the strategy's evaluations in order (measured or taken from the cache), so the run can be replayed. */
export interface CacheRun {
  /** Run id: start time, process id and run number. */
  id: string;
  /** Tuning family. */
  family: string;
  /** Problem class. */
  problem: string;
  /** Search strategy name (see STRATEGY_NAMES). */
  strategy: string;
  /** Seed of the strategy's random choices. */
  seed: number;
  /** Evaluation budget of the run. */
  maxEvals: number;
  /** ISO start time. */
  started: string;
  /** ISO end time; absent when the run was interrupted. */
  finished?: string;
  /** The strategy's evaluations in order, cached ones included. */
  evaluations: {
    /** The variant key evaluated. */
    key: string;
    /** Its median time (ms), or null when it failed. */
    medianMs: number | null;
  }[];
}

/** A tuning cache file (format kernforge-tune-cache, version 1): every measurement on one device. */
export interface CacheFile {
  /** Always `kernforge-tune-cache`. */
  format: typeof CACHE_FORMAT;
  /** Always 1. */
  version: typeof CACHE_VERSION;
  /** The device measured on; a file of another fingerprint is never used. */
  device: {
    /** Device fingerprint (16 hex digits); also the file name. */
    fingerprint: string;
    /** Device kind: cpu or webgpu. */
    id: string;
    /** The target measured on it: ts or wgsl. */
    target: string;
    /** Human-readable device name. */
    name: string;
    /** Limits, cores, backend and the like, as detected. */
    details: Record<string, unknown>;
  };
  /** Latest measurement per `family|problem|key` (see resultId). */
  results: Record<string, CacheResult>;
  /** Tuning runs, oldest first. */
  runs: CacheRun[];
}

/** The key of a result in CacheFile.results: `family|problem|key`. */
export const resultId = (family: string, problem: string, key: string): string => `${family}|${problem}|${key}`;


/** The cache file of a device in a folder (or the file itself when `where` ends in .json). */
export function cachePath(where: string | undefined, fingerprint: string): string {
  const w = platform().resolve(where ?? DEFAULT_CACHE_DIR);
  return w.endsWith('.json') ? w : platform().resolve(w, `${fingerprint}.json`);
}

/** What is wrong with a parsed cache file, or undefined when it is a valid version-1 cache. */
export function validateCache(x: unknown): string | undefined {
  const c = x as CacheFile;
  if (!c || typeof c !== 'object' || Array.isArray(c)) return 'not a JSON object';
  if (c.format !== CACHE_FORMAT) return `format is ${JSON.stringify(c.format)}, not "${CACHE_FORMAT}"`;
  if (c.version !== CACHE_VERSION) return `version ${JSON.stringify(c.version)} is not ${CACHE_VERSION}`;
  if (!c.device || typeof c.device.fingerprint !== 'string') return 'no device fingerprint';
  if (!c.results || typeof c.results !== 'object' || Array.isArray(c.results)) return '"results" is not an object';
  for (const [id, r] of Object.entries(c.results)) {
    if (!r || id !== resultId(r.family, r.problem, r.key)) return `result "${id}" does not match its family/problem/key`;
    if (!RESULT_STATUSES.includes(r.status)) return `result "${id}" has status ${JSON.stringify(r.status)}`;
    if (r.status === 'ok' && !(typeof r.medianMs === 'number' && r.medianMs >= 0)) return `result "${id}" is ok without a medianMs`;
  }
  if (!Array.isArray(c.runs)) return '"runs" is not an array';
  return undefined;
}

/** Options of TuneCache.open. */
export interface TuneCacheOptions {
  /**
   * Where lines said after opening go (a stale lock taken over, the file moved aside because it
   * became corrupt); default: appended to `notes`.
   */
  note?: (line: string) => void;
}

/**
 * The cache file on disk, if it is a valid cache of `device`; otherwise moved aside (with a line
 * in `notes`) and undefined. Undefined too when it holds exactly `unchanged` (what this process
 * wrote last: nothing new to merge, and no parsing).
 */
function readCacheFile(path: string, device: { fingerprint: string; id: string; name: string }, notes: string[], unchanged?: string): CacheFile | undefined {
  const fs = platform();
  if (!fs.exists(path)) return undefined;
  let parsed: unknown;
  let problem: string | undefined;
  try {
    const text = fs.readText(path);
    if (text === unchanged) return undefined;
    parsed = JSON.parse(text);
    problem = validateCache(parsed);
  } catch (e) {
    problem = `does not parse as JSON (${(e as Error).message})`;
  }
  if (problem) {
    const aside = `${path}.corrupt`;
    fs.rename(path, aside);
    notes.push(`tune cache ${path} is corrupt (${problem}); moved it to ${aside} and started a fresh cache`);
    return undefined;
  }
  if ((parsed as CacheFile).device.fingerprint !== device.fingerprint) {
    const other = (parsed as CacheFile).device;
    const aside = `${path}.mismatch-${other.fingerprint}`;
    fs.rename(path, aside);
    notes.push(
      `tune cache ${path} was measured on another device (fingerprint ${other.fingerprint}, ${other.name}; this ${device.id} is ${device.fingerprint}, ${device.name}); ` +
        `not using it: moved it to ${aside} and started a fresh cache`,
    );
    return undefined;
  }
  return parsed as CacheFile;
}

const time = (iso: string): number => {
  const t = Date.parse(iso);
  return Number.isFinite(t) ? t : -Infinity;
};

/** A device's tuning cache, loaded (or started) and rewritten durably on every change, safe with other processes writing it too. */
export class TuneCache {
  /** Messages from opening the cache (files moved aside, caches of other devices ignored, stale locks taken over). */
  readonly notes: string[] = [];
  /** Ids of the runs this process started (the only runs whose in-memory copy wins a merge). */
  private readonly own = new Set<string>();
  /** The text this process wrote last (a file still holding it has nothing to merge). */
  private written?: string;
  /** Where lines said after opening go (TuneCacheOptions.note), else `notes`. */
  private say: (line: string) => void = (l) => this.notes.push(l);
  private constructor(
    /** The cache file's absolute path. */
    readonly path: string,
    /** The cache contents; change them through put, startRun, addEvaluation and finishRun. */
    readonly data: CacheFile,
  ) {}

  /**
   * Open the cache of `device` under `where` (a folder, default .kernforge/tune, or a .json file).
   * Corrupt files and files of another fingerprint are moved aside, with a note in `notes`
   * (under the cache's lock, so that two tuners opening it at once do not both move it).
   */
  static open(device: Pick<Device, 'fingerprint' | 'id' | 'target' | 'name' | 'details'>, where?: string, o: TuneCacheOptions = {}): TuneCache {
    const fs = platform();
    const path = cachePath(where, device.fingerprint);
    const fresh = (): CacheFile => ({
      format: CACHE_FORMAT,
      version: CACHE_VERSION,
      device: { fingerprint: device.fingerprint, id: device.id, target: device.target, name: device.name, details: device.details },
      results: {},
      runs: [],
    });
    const notes: string[] = [];
    let data = fresh();
    const found = underLock(path, () => readCacheFile(path, device, notes), (l) => notes.push(l));
    if (found) {
      data = found;
      data.device = fresh().device; // current name/details; the fingerprint is the same
    }
    if (!where?.endsWith('.json')) {
      // say so when the folder holds caches of other fingerprints (another CPU, driver or Node)
      const dir = fs.resolve(where ?? DEFAULT_CACHE_DIR);
      if (fs.exists(dir)) {
        const others = fs.list(dir).filter((f) => /^[0-9a-f]{16}\.json$/.test(f) && f !== `${device.fingerprint}.json`);
        for (const f of others) {
          try {
            const o = JSON.parse(fs.readText(fs.resolve(dir, f))) as CacheFile;
            if (o.device?.id === device.id) notes.push(`ignoring ${fs.resolve(dir, f)}: measured on another ${device.id} (${o.device.name}, fingerprint ${o.device.fingerprint})`);
          } catch {
            // not ours to judge here
          }
        }
      }
    }
    const c = new TuneCache(path, data);
    c.notes.push(...notes);
    if (o.note) c.say = o.note;
    return c;
  }

  /** The latest result of a variant on a problem class, if measured. */
  get(family: string, problem: string, key: string): CacheResult | undefined {
    return this.data.results[resultId(family, problem, key)];
  }

  /** All results of a family and problem. */
  resultsFor(family: string, problem: string): CacheResult[] {
    return Object.values(this.data.results).filter((r) => r.family === family && r.problem === problem);
  }

  /** The fastest ok result of a family and problem, if any. */
  best(family: string, problem: string): CacheResult | undefined {
    let best: CacheResult | undefined;
    for (const r of this.resultsFor(family, problem)) if (r.status === 'ok' && (!best || r.medianMs! < best.medianMs!)) best = r;
    return best;
  }

  /** Record a measurement and write the file. */
  put(r: CacheResult): void {
    this.data.results[resultId(r.family, r.problem, r.key)] = r;
    this.save();
  }

  /** Start a run (its id and start time are set here) and write the file. */
  startRun(run: Omit<CacheRun, 'evaluations' | 'started' | 'id'>): CacheRun {
    const started = new Date().toISOString();
    const r: CacheRun = { id: `${started.replace(/[-:.]/g, '')}-${platform().pid}-${this.data.runs.length + 1}`, ...run, started, evaluations: [] };
    this.own.add(r.id);
    this.data.runs.push(r);
    this.save();
    return r;
  }

  /** Append an evaluation to a run (written with the next save). */
  addEvaluation(run: CacheRun, key: string, medianMs: number | null, save = true): void {
    run.evaluations.push({ key, medianMs });
    if (save) this.save();
  }

  /** Mark a run finished and write the file. */
  finishRun(run: CacheRun): void {
    run.finished = new Date().toISOString();
    this.save();
  }

  /**
   * Merge the file as another process left it into this cache: results unioned (the later `at`
   * wins; this process's on a tie), runs unioned by id (this process's own runs as it has them).
   */
  merge(disk: CacheFile): void {
    const results = this.data.results;
    for (const [id, r] of Object.entries(disk.results)) {
      const mine = results[id];
      if (!mine || time(r.at) > time(mine.at)) results[id] = r;
    }
    const mine = new Map(this.data.runs.map((r) => [r.id, r]));
    const runs: CacheRun[] = [];
    const seen = new Set<string>();
    for (const r of disk.runs) {
      if (!r || typeof r.id !== 'string' || seen.has(r.id)) continue;
      seen.add(r.id);
      runs.push(this.own.has(r.id) ? (mine.get(r.id) ?? r) : r);
    }
    for (const r of this.data.runs) if (!seen.has(r.id)) runs.push(r);
    // oldest first (a stable sort: runs started in the same millisecond keep their order)
    this.data.runs = runs.map((r, i) => ({ r, i })).sort((a, b) => time(a.r.started) - time(b.r.started) || a.i - b.i).map((x) => x.r);
  }

  /**
   * Write the file durably (a temporary file, fsync, rename, and a directory fsync) under its
   * lock, after merging what other processes wrote to it since (see merge).
   */
  save(): void {
    for (;;) {
      const notes: string[] = [];
      const wrote = underLock(
        this.path,
        (lock) => {
          const disk = readCacheFile(this.path, this.data.device, notes, this.written);
          if (disk) this.merge(disk);
          if (!lock.held()) return false; // taken over as stale while we merged: merge again
          const text = `${JSON.stringify(this.data, null, 1)}\n`;
          writeFileAtomic(this.path, text);
          this.written = text;
          return true;
        },
        (l) => notes.push(l),
      );
      for (const l of notes) this.say(l);
      if (wrote) return;
    }
  }
}
