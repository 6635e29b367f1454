// What the family handles of open() share: the options the caller gave (the tuned artefact, the
// targets allowed, a thread count), the choice of a family's variant from the tuned artefact,
// and the once-per-process verification of every variant a handle runs.
import { ApiInputError, integer, oneOf, show } from './args.ts';
import { KernforgeError } from './errors.ts';
import { platform } from './platform.ts';
import { memoryLimit, type MemoryLimit } from './limits.ts';
import type { Device } from './tune/devices.ts';

/** Targets a kernel can run on. */
export const TARGETS = ['ts', 'wasm', 'wgsl', 'gpujs'] as const;
/** A kernel target: `ts` (TypeScript), `wasm` (WebAssembly SIMD), `wgsl` (WebGPU) or `gpujs` (gpu.js). */
export type Target = (typeof TARGETS)[number];

/** Options of open(). */
export interface OpenOptions {
  /**
   * The tuned artefact: a path (default: $KERNFORGE_TUNED, else ./kernforge-tuned.json), or
   * `false` to use the documented defaults without reading any artefact.
   */
  tuned?: string | false;
  /** Targets the handles may run on (default: all). A tuned winner on another target gives way to the default of an allowed one. */
  targets?: readonly Target[];
  /** Worker threads for the CPU targets (ts, wasm); default: the count each winner was tuned with, else 1. */
  threads?: number;
  /** Where the one-line notes go (which variant, and why a default was used); default: stderr. */
  log?: (line: string) => void;
  /**
   * Memory limit for the problems the handles are given (bytes, or a size such as '4G'); default:
   * half of the machine's memory (runtime/limits.ts). A problem whose estimate is above it is
   * refused with a ResourceLimitError before anything is allocated.
   */
  maxMemory?: number | string;
}

/** A variant that failed the family's gate against the f64 reference: it is never run. */
export class VerificationError extends KernforgeError {}

/** How a handle chose its variant. */
export type VariantSource = 'given' | 'tuned' | 'nearest' | 'default';

/** The variant a handle runs, and why. */
export interface Choice {
  /** The variant key run, e.g. `md-nonbonded.ts.lj-rf.geom.shift.f32.fev.4x4.mask.mask` (`kernforge list <family>` lists them). */
  key: string;
  /** The target the variant runs on (read from its key). */
  target: Target;
  /** Worker threads used: the per-call option, open()'s, the tuned count, else 1; always 1 on wgsl and gpujs. */
  threads: number;
  /**
   * Why this variant: given by the caller, tuned for this machine, tuned for the nearest machine, or
   * the documented default.
   */
  source: VariantSource;
}

/** The open() session: checked options, the tuned lookup and the verification cache. */
export class Session {
  readonly targets: readonly Target[];
  readonly threads?: number;
  readonly tunedPath?: string | false;
  readonly log: (line: string) => void;
  /** The memory limit of the session's problems (open({ maxMemory }), else the default). */
  readonly maxMemory: MemoryLimit;
  /** open({ maxMemory }) as given (undefined: the default), for the workloads the handles run. */
  readonly maxMemoryGiven?: number | string;
  private readonly verified = new Map<string, Promise<void>>();
  private readonly said = new Set<string>();
  private readonly tuned = new Map<string, Promise<{ key: string; threads: number; source: 'tuned' | 'nearest' } | undefined>>();
  private cpu?: Device;
  closed = false;

  constructor(o: OpenOptions) {
    if (o.targets !== undefined) {
      if (!Array.isArray(o.targets) || o.targets.length === 0) throw new ApiInputError(`open: targets: got ${show(o.targets)}; allowed: a non-empty array of ${TARGETS.join(', ')}`);
      o.targets.forEach((t, i) => oneOf(`open: targets[${i}]`, t, TARGETS));
    }
    this.targets = o.targets ?? TARGETS;
    if (o.threads !== undefined) this.threads = integer('open: threads', o.threads, 1, 1024);
    if (o.tuned !== undefined && o.tuned !== false && (typeof o.tuned !== 'string' || o.tuned === '')) throw new ApiInputError(`open: tuned: got ${show(o.tuned)}; allowed: a path to a kernforge-tuned.json, or false`);
    this.tunedPath = o.tuned;
    this.log = o.log ?? ((l: string) => platform().stderr(l));
    try {
      this.maxMemory = memoryLimit(o.maxMemory, 'open: maxMemory');
    } catch (e) {
      throw new ApiInputError((e as Error).message);
    }
    this.maxMemoryGiven = o.maxMemory;
  }

  /** Say `line` once per session. */
  note(line: string): void {
    if (this.said.has(line)) return;
    this.said.add(line);
    this.log(line);
  }

  /** Whether the handles may run `target`. */
  allows(target: string): target is Target {
    return (this.targets as readonly string[]).includes(target);
  }

  /** The CPU device (its fingerprint picks the tuned entries). */
  async cpuDevice(): Promise<Device> {
    if (!this.cpu) {
      const { cpuDevice } = await import('./tune/devices.ts');
      this.cpu = cpuDevice();
    }
    return this.cpu;
  }

  /**
   * The tuned winner of a family's problem class on the CPU, or undefined (with one note saying
   * why) when there is none, tuning is off, or its target is not allowed.
   */
  tunedKey(family: string, problem: string): Promise<{ key: string; threads: number; source: 'tuned' | 'nearest' } | undefined> {
    // looked up once per family and problem: later calls do not read the artefact again
    const id = `${family}|${problem}`;
    let p = this.tuned.get(id);
    if (!p) {
      p = this.lookUpTuned(family, problem);
      this.tuned.set(id, p);
    }
    return p;
  }

  private async lookUpTuned(family: string, problem: string): Promise<{ key: string; threads: number; source: 'tuned' | 'nearest' } | undefined> {
    if (this.tunedPath === false) return undefined;
    const { loadTuned } = await import('./tune/tuned.ts');
    const t = await loadTuned(family, problem, { device: await this.cpuDevice(), path: this.tunedPath, load: false, warn: (l) => this.note(l), notice: (l) => this.note(l) });
    if (!t.tuned) return undefined;
    const target = await targetOfKey(t.key);
    if (!this.allows(target)) {
      this.note(`kernforge: the tuned ${family} ${problem} winner ${t.key} runs on ${target}, which open({ targets }) leaves out; using the default of an allowed target`);
      return undefined;
    }
    return { key: t.key, threads: t.threads, source: t.nearest ? 'nearest' : 'tuned' };
  }

  /** The thread count for a CPU target: the caller's (per call), the session's, the tuned one, else 1. */
  async threadsFor(target: string, perCall: number | undefined, tuned: number | undefined): Promise<number> {
    // only backends that split their work over worker threads take a count (ts, wasm)
    const { backend } = await import('./backends/registry.ts');
    if (!backend(target).threaded) return 1;
    if (perCall !== undefined) return integer('threads', perCall, 1, 1024);
    return this.threads ?? tuned ?? 1;
  }

  /**
   * Run the family's gate on `key` once per session (concurrent callers share it); a failure
   * throws VerificationError and is remembered, so the variant is never run.
   */
  verifyOnce(key: string, gate: () => Promise<{ ok: boolean; detail?: string }>): Promise<void> {
    let p = this.verified.get(key);
    if (!p) {
      p = gate().then((r) => {
        if (!r.ok) throw new VerificationError(`variant ${key} failed verification against the f64 reference${r.detail ? `: ${r.detail}` : ''}; refusing to run it`);
      });
      this.verified.set(key, p);
    }
    return p;
  }

  /** Throws once close() was called. */
  check(what: string): void {
    if (this.closed) throw new ApiInputError(`${what}: this kernforge session is closed (call open() again)`);
  }
}

/** The key's target, read through the family's spec (UnknownVariantError for a key outside every space). */
export async function targetOfKey(key: string): Promise<Target> {
  const { variantParams } = await import('./variants.ts');
  return oneOf(`variant ${key}: target`, (await variantParams(key)).target, TARGETS);
}
