// What the tuner needs from a kernel family: its problem classes, the candidate variants for a
// device and problem, a correctness check on a small input, and a timed run on the problem.
// Adding a family (or a target to one) is one module implementing TuningFamily plus a line in
// runtime/tune/families/index.ts; the tuner, the cache and the CLI know nothing family-specific.
import type { Device } from './devices.ts';
import type { Params } from './strategies.ts';
import type { ResultStatus } from './cache.ts';

/** A problem size class a workload uses, e.g. md-nonbonded 'water-rf'. */
export interface ProblemClass {
  /** Its name, e.g. `water-rf` (`kernforge tune --problem`). */
  name: string;
  /** One line: what is computed, on what size. */
  description: string;
  /** A small class for quick runs (npm start); `kernforge tune` skips it unless asked for. */
  quick?: boolean;
  /** The (full-size) class whose workload this one stands in for when that one was not tuned. */
  serves?: string;
}

/** The result of a family's gate on one variant. */
export interface VerifyOutcome {
  /** Whether the variant matches the f64 reference within the family's tolerance. */
  ok: boolean;
  /** Worst error as a fraction of the tolerance (<= 1 passes). */
  error?: number;
  /** What failed (or a note), for messages. */
  detail?: string;
  /** Failure status when not 'wrong' (e.g. 'compile-error'). */
  status?: ResultStatus;
}

export interface RunOptions {
  /** Worker threads to split the problem over (1: this thread only); only counts the family offered (threadCounts). */
  threads?: number;
}

/** A problem class's inputs, built once by TuningFamily.prepare, on which variants are timed. */
export interface PreparedProblem {
  /** One timed run of a variant on the problem; returns its milliseconds. The first call per key (and thread count) may be a warm-up. */
  run(key: string, o?: RunOptions): Promise<number>;
  /** Free the inputs (GPU buffers, worker threads). */
  dispose(): void | Promise<void>;
}

/**
 * Where candidates come from: 'library' = the committed default library (generated/), 'full' =
 * every valid point of the spec's tuning axes (rules applied), rendered on demand when not in the
 * library.
 */
export type CandidateSpace = 'library' | 'full';

export interface CandidateOptions {
  space?: CandidateSpace;
}

/** What the tuner needs from a kernel family; one module per family, registered in runtime/tune/families/index.ts. */
export interface TuningFamily {
  /** Family name, e.g. `md-nonbonded`. */
  family: string;
  /** What the timed quantity is (shown by `kernforge tune --list`). */
  measures: string;
  /** The family's problem classes, full-size and quick. */
  problems(): ProblemClass[];
  /**
   * Candidate variant keys for a device and problem: library variants of the device's targets
   * (device.targets; a family may draw on several, e.g. TS and wasm on the CPU), rules applied,
   * with the semantic axes the problem fixes; only tuning axes (and, across targets, the target)
   * vary. Empty when the problem cannot run on any of them.
   */
  candidates(device: Device, problem: string, o?: CandidateOptions): Promise<string[]>;
  /** The variant the workload uses when nothing is tuned (undefined: none on this target). */
  defaultKey(device: Device, problem: string): string | undefined;
  /**
   * Known-good variants of the device's other targets (e.g. the wasm reference key on a CPU whose
   * default is TypeScript): evaluated on one thread with the default, outside the strategy's
   * budget, so that a short search never ends slower than them. Keys that are not candidates are
   * skipped.
   */
  startKeys?(device: Device, problem: string): string[];
  /** Axis values of a key (default: the spec's, through variantParams). */
  params?(key: string): Promise<Params>;
  /**
   * The loaded module of a chosen key for loadTuned (default: the TypeScript module of a ts key,
   * none for other targets).
   */
  load?(key: string): Promise<unknown>;
  /**
   * Thread counts the family can run `key` with on `device` (e.g. [1, 2] for a TS key on a
   * 2-core CPU); absent or [1]: one thread. The tuner then tunes (key, threads) pairs.
   */
  threadCounts?(key: string, device: Device): number[];
  /**
   * The family's gate for any variant key, on the family's own verification input with the
   * key's semantic axes (region, filter, interaction...): what `kernforge verify` runs.
   */
  verifyKey?(key: string): Promise<VerifyOutcome>;
  /** Check a variant against the f64 reference on a small input (the family's existing gate). */
  verify(key: string, device: Device, problem: string): Promise<VerifyOutcome>;
  /** Build the problem's inputs once; time variants on it. */
  prepare(device: Device, problem: string): Promise<PreparedProblem>;
}

/** The problem class of a family by name (throws with the allowed names). */
export function problemOf(f: TuningFamily, name: string): ProblemClass {
  const p = f.problems().find((x) => x.name === name);
  if (!p) throw new Error(`${f.family} has no problem "${name}" (allowed: ${f.problems().map((x) => x.name).join(', ')})`);
  return p;
}
