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
import { platform } from '../platform.ts';
import type { Device } from './devices.ts';
import type { Params } from './strategies.ts';
import { writeFileAtomic } from '../files.ts';

export const CACHE_FORMAT = 'kernforge-tune-cache';
export const CACHE_VERSION = 1;
export const DEFAULT_CACHE_DIR = '.kernforge/tune';

export type ResultStatus = 'ok' | 'wrong' | 'compile-error' | 'timeout' | 'device-lost' | 'error';
export const RESULT_STATUSES: readonly ResultStatus[] = ['ok', 'wrong', 'compile-error', 'timeout', 'device-lost', 'error'];

export interface CacheResult {
  family: string;
  problem: string;
  key: string;
  status: ResultStatus;
  detail?: string;
  medianMs?: number;
  minMs?: number;
  spread?: number;
  samples?: number[];
  verifyError?: number;
  params: Params;
  at: string;
}

export interface CacheRun {
  id: string;
  family: string;
  problem: string;
  strategy: string;
  seed: number;
  maxEvals: number;
  started: string;
  finished?: string;
  evaluations: { key: string; medianMs: number | null }[];
}

export interface CacheFile {
  format: typeof CACHE_FORMAT;
  version: typeof CACHE_VERSION;
  device: { fingerprint: string; id: string; target: string; name: string; details: Record<string, unknown> };
  results: Record<string, CacheResult>;
  runs: CacheRun[];
}

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

/** A device's tuning cache, loaded (or started) and rewritten durably on every change. */
export class TuneCache {
  readonly notes: string[] = [];
  private constructor(
    readonly path: string,
    readonly data: CacheFile,
  ) {}

  /**
   * Open the cache of `device` under `where` (a folder, default .kernforge/tune, or a .json file).
   * Corrupt files and files of another fingerprint are moved aside, with a note in `notes`.
   */
  static open(device: Pick<Device, 'fingerprint' | 'id' | 'target' | 'name' | 'details'>, where?: string): TuneCache {
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
    if (fs.exists(path)) {
      let parsed: unknown;
      let problem: string | undefined;
      try {
        parsed = JSON.parse(fs.readText(path));
        problem = validateCache(parsed);
      } catch (e) {
        problem = `does not parse as JSON (${(e as Error).message})`;
      }
      if (problem) {
        const aside = `${path}.corrupt`;
        fs.rename(path, aside);
        notes.push(`tune cache ${path} is corrupt (${problem}); moved it to ${aside} and started a fresh cache`);
      } else if ((parsed as CacheFile).device.fingerprint !== device.fingerprint) {
        const other = (parsed as CacheFile).device;
        const aside = `${path}.mismatch-${other.fingerprint}`;
        fs.rename(path, aside);
        notes.push(
          `tune cache ${path} was measured on another device (fingerprint ${other.fingerprint}, ${other.name}; this ${device.id} is ${device.fingerprint}, ${device.name}); ` +
            `not using it: moved it to ${aside} and started a fresh cache`,
        );
      } else {
        data = parsed as CacheFile;
        data.device = fresh().device; // current name/details; the fingerprint is the same
      }
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
    return c;
  }

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

  startRun(run: Omit<CacheRun, 'evaluations' | 'started' | 'id'>): CacheRun {
    const started = new Date().toISOString();
    const r: CacheRun = { id: `${started.replace(/[-:.]/g, '')}-${platform().pid}-${this.data.runs.length + 1}`, ...run, started, evaluations: [] };
    this.data.runs.push(r);
    this.save();
    return r;
  }

  /** Append an evaluation to a run (written with the next save). */
  addEvaluation(run: CacheRun, key: string, medianMs: number | null, save = true): void {
    run.evaluations.push({ key, medianMs });
    if (save) this.save();
  }

  finishRun(run: CacheRun): void {
    run.finished = new Date().toISOString();
    this.save();
  }

  save(): void {
    writeFileAtomic(this.path, `${JSON.stringify(this.data, null, 1)}\n`);
  }
}
