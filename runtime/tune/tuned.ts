// The tuned runtime: the winners of `kernforge tune`, written to an importable artefact, and
// loadTuned(), which the workloads call for their default variant.
//
// Artefact (default ./kernforge-tuned.json; `kernforge tune --out <file>` or env KERNFORGE_TUNED):
//
//   { "format": "kernforge-tuned", "version": 1,
//     "devices": { "<fingerprint>": { "id": "cpu", "target": "ts", "name": "...",
//                                      "targets": ["ts", "wasm"],     // since wasm; optional
//                                      "vendor": "AMD", "architecture": "x64" } },  // optional
//     "tuned": { "<fingerprint>": { "<family>": { "<problem>": {
//         "key": "<fastest verified variant>", "threads": n (optional), "medianMs": number,
//         "defaultKey": "<the family default>" | null, "defaultMs": number | null,
//         "speedup": defaultMs / medianMs | null, "when": "<ISO>",
//         "strategy": "...", "evaluated": number, "candidates": number } } } } }
//
// vendor and architecture (Device.vendor, Device.architecture) are optional and additive: files
// without them still load (the version stays 1). mergeTuned (`kernforge merge-tuned`) joins the
// artefacts of several machines into one library: fingerprints are unioned, and for the same
// fingerprint, family and problem the entry with the later `when` wins.
//
// loadTuned(family, problem?, { device }) returns the entry for this device's fingerprint (the
// CPU by default). Without one it falls back, in order, to a tuned quick problem class that
// stands in for the problem (e.g. bigdft-conv 'kinetic-small' for 'kinetic'), then to the
// nearest device: one recorded with the same id, the same set of targets and the same (known)
// vendor and architecture, the most recent `when` first (said in one line on stderr; the result
// has `nearest: <its fingerprint>`), then to the family's documented default
// (TuningFamily.defaultKey, e.g. md-nonbonded water-rf:
// md-nonbonded.ts.lj-rf.geom.shift.f64.f.4x4.mask.mask), with a one-line warning on stderr
// (once per family and problem per process). A winner may be of any of the device's targets
// (md-nonbonded water-rf-f32 on the CPU: TypeScript or WebAssembly SIMD); the module loaded is
// the family's (TuningFamily.load; by default the TypeScript module of a ts key, none otherwise).
//
// A tuned thread count this machine cannot run (more than twice its CPUs: an artefact carried
// from a larger machine, or the nearest device's; or not a positive integer: a hand edit) is not
// used, and not blamed on --threads: loadTuned returns this machine's CPU count (too large) or 1,
// and says so in one line naming the artefact and the entry (LoadTunedOptions.notice). A bad
// count does not make the key unusable: the variant is the same whatever threads run it.
//
// Writers: updateTuned reads, merges and writes the artefact under its lock file
// (runtime/tune/locked.ts), so tuners running at once keep each other's winners.
import { keyTarget } from '../keys.ts';
import { platform } from '../platform.ts';
import type { Device, DeviceId } from './devices.ts';
import { writeFileAtomic } from '../files.ts';
import { KernforgeError } from '../errors.ts';
import { maxThreads } from '../parallel/pool.ts';
import { underLock } from './locked.ts';

export const TUNED_FORMAT = 'kernforge-tuned';
export const DEFAULT_TUNED_FILE = 'kernforge-tuned.json';

/** The winner of one family's problem class on one device, as the tuned artefact records it. */
export interface TunedEntry {
  /** The fastest verified variant (or the default, when the winner was within the measured noise of it). */
  key: string;
  /** Worker threads the key won with (families that tune the thread count); absent: 1. */
  threads?: number;
  /** Its median time (ms). */
  medianMs: number;
  /** The family's default variant on the device, or null when it has none. */
  defaultKey: string | null;
  /** The default's median time (ms), or null when it was not measured or failed. */
  defaultMs: number | null;
  /** defaultMs / medianMs (1 when the default was kept), or null when unknown. */
  speedup: number | null;
  /** ISO time the entry was written; mergeTuned keeps the later one. */
  when: string;
  /** Search strategy of the run. */
  strategy?: string;
  /** Candidates with a measurement when the entry was written. */
  evaluated?: number;
  /** Candidates in the space. */
  candidates?: number;
}

/** What the artefact records of a device (vendor and architecture: optional, newer files). */
export interface TunedDevice {
  id: string;
  target: string;
  name: string;
  targets?: string[];
  vendor?: string;
  architecture?: string;
}

/** The tuned artefact (kernforge-tuned.json, format kernforge-tuned, version 1). */
export interface TunedFile {
  /** Always `kernforge-tuned`. */
  format: typeof TUNED_FORMAT;
  /** Always 1; vendor and architecture were added without a new version. */
  version: 1;
  /** The devices, by fingerprint. */
  devices: Record<string, TunedDevice>;
  /** Entries by fingerprint, family and problem class. */
  tuned: Record<string, Record<string, Record<string, TunedEntry>>>;
}

/** Where the artefact is: the given path, else $KERNFORGE_TUNED, else ./kernforge-tuned.json. */
export function tunedPath(p?: string): string {
  return platform().resolve(p ?? platform().env('KERNFORGE_TUNED') ?? DEFAULT_TUNED_FILE);
}

/**
 * Whether loadTuned reads the default artefact. Under the test runner (VITEST set, inherited by
 * the CLI processes tests spawn) only an explicit path or $KERNFORGE_TUNED is read, so the suite
 * never depends on what this machine was tuned to; KERNFORGE_TUNED=none turns tuning off anywhere.
 */
function artefactEnabled(explicit?: string): boolean {
  if (explicit) return true;
  const env = (name: string): string | undefined => platform().env(name);
  if (env('KERNFORGE_TUNED') === 'none') return false;
  return !(env('VITEST') && !env('KERNFORGE_TUNED'));
}

/** Read the artefact; undefined when absent or unreadable (with the reason). */
export function readTuned(path = tunedPath()): {
  /** The artefact, when it could be read. */
  file?: TunedFile;
  /** Why it could not: absent, unreadable, or not a kernforge-tuned version 1 file. */
  why?: string;
} {
  if (!platform().exists(path)) return { why: `${path} does not exist` };
  try {
    const f = JSON.parse(platform().readText(path)) as TunedFile;
    if (f?.format !== TUNED_FORMAT || f.version !== 1 || typeof f.tuned !== 'object') return { why: `${path} is not a kernforge-tuned version 1 file` };
    return { file: f };
  } catch (e) {
    return { why: `${path} cannot be read (${(e as Error).message})` };
  }
}

/** A kernforge-tuned file that cannot be used: absent, not JSON, another format or version, malformed. */
export class TunedFileError extends KernforgeError {}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isPositiveInt = (v: unknown): boolean => Number.isInteger(v) && (v as number) >= 1;

/**
 * `data` (the parsed JSON of `path`) as a version 1 artefact; throws a TunedFileError naming the
 * file and what is wrong (another format, another version, a malformed device or entry).
 */
export function checkTunedFile(path: string, data: unknown): TunedFile {
  if (!isObject(data) || data.format !== TUNED_FORMAT) {
    const fmt = isObject(data) && data.format !== undefined ? `format ${JSON.stringify(data.format)}` : 'no "format" field';
    throw new TunedFileError(`${path} is not a ${TUNED_FORMAT} file (${fmt}; expected format "${TUNED_FORMAT}" version 1)`);
  }
  if (data.version !== 1) throw new TunedFileError(`${path} is a ${TUNED_FORMAT} file of version ${JSON.stringify(data.version ?? null)}; this kernforge reads version 1 only`);
  const bad = (where: string, what: string): never => {
    throw new TunedFileError(`${path}: ${where} ${what} (${TUNED_FORMAT} version 1)`);
  };
  if (!isObject(data.devices)) bad('"devices"', 'must be an object');
  if (!isObject(data.tuned)) bad('"tuned"', 'must be an object');
  for (const [fp, d] of Object.entries(data.devices as Record<string, unknown>)) {
    if (!isObject(d)) bad(`devices.${fp}`, 'must be an object');
    const dev = d as Record<string, unknown>;
    for (const k of ['id', 'target', 'name']) if (typeof dev[k] !== 'string') bad(`devices.${fp}.${k}`, 'must be a string');
    for (const k of ['vendor', 'architecture']) if (dev[k] !== undefined && typeof dev[k] !== 'string') bad(`devices.${fp}.${k}`, 'must be a string when present');
    if (dev.targets !== undefined && !(Array.isArray(dev.targets) && dev.targets.every((t) => typeof t === 'string'))) bad(`devices.${fp}.targets`, 'must be an array of strings when present');
  }
  for (const [fp, fams] of Object.entries(data.tuned as Record<string, unknown>)) {
    if (!isObject(fams)) bad(`tuned.${fp}`, 'must be an object of families');
    for (const [fam, probs] of Object.entries(fams as Record<string, unknown>)) {
      if (!isObject(probs)) bad(`tuned.${fp}.${fam}`, 'must be an object of problems');
      for (const [prob, e] of Object.entries(probs as Record<string, unknown>)) {
        const at = `tuned.${fp}.${fam}.${prob}`;
        if (!isObject(e)) bad(at, 'must be an object');
        const entry = e as Record<string, unknown>;
        if (typeof entry.key !== 'string' || entry.key === '') bad(`${at}.key`, 'must be a variant key');
        if (typeof entry.when !== 'string' || !Number.isFinite(Date.parse(entry.when))) bad(`${at}.when`, 'must be an ISO date');
        if (entry.threads !== undefined && !isPositiveInt(entry.threads)) bad(`${at}.threads`, 'must be a positive integer when present');
      }
    }
  }
  return data as unknown as TunedFile;
}

/** Read and check an artefact (checkTunedFile); a missing or non-JSON file is a TunedFileError too. */
export function readTunedFile(path: string): TunedFile {
  if (!platform().exists(path)) throw new TunedFileError(`${path}: no such file`);
  let data: unknown;
  try {
    data = JSON.parse(platform().readText(path));
  } catch (e) {
    throw new TunedFileError(`${path} is not a ${TUNED_FORMAT} file: it cannot be read as JSON (${(e as Error).message})`);
  }
  return checkTunedFile(path, data);
}

export interface MergeTunedResult {
  /** The merged artefact (version 1). */
  file: TunedFile;
  /** One line per conflict (same fingerprint, family and problem in two inputs): which file won. */
  replaced: string[];
  /** Per fingerprint of the result, the file each entry came from ("family/problem" -> path). */
  sources: Record<string, Record<string, string>>;
}

/**
 * Join artefacts (e.g. one per machine) into one: every input is checked first (checkTunedFile:
 * a file of another format or version is refused, naming it); devices and entries of different
 * fingerprints are unioned; for the same fingerprint, family and problem the entry with the later
 * `when` is kept (a tie: the later input), with one line in `replaced`. A device recorded in
 * several inputs keeps every field, the later input's value first.
 */
export function mergeTuned(inputs: readonly { path: string; file: unknown }[]): MergeTunedResult {
  if (inputs.length === 0) throw new TunedFileError('merge-tuned: no input files');
  const checked = inputs.map((i) => ({ path: i.path, file: checkTunedFile(i.path, i.file) }));
  const out: TunedFile = { format: TUNED_FORMAT, version: 1, devices: {}, tuned: {} };
  const sources: Record<string, Record<string, string>> = {};
  const replaced: string[] = [];
  const when = (e: TunedEntry): number => Date.parse(e.when);
  const what = (e: TunedEntry): string => `${e.key}${(e.threads ?? 1) > 1 ? ` @${e.threads}t` : ''}, ${e.when}`;
  for (const { path, file } of checked) {
    for (const [fp, d] of Object.entries(file.devices)) out.devices[fp] = { ...out.devices[fp], ...d };
    for (const [fp, fams] of Object.entries(file.tuned)) {
      for (const [fam, probs] of Object.entries(fams)) {
        for (const [prob, e] of Object.entries(probs)) {
          const slot = ((out.tuned[fp] ??= {})[fam] ??= {});
          const src = (sources[fp] ??= {});
          const id = `${fam}/${prob}`;
          const cur = slot[prob];
          if (cur && JSON.stringify(cur) === JSON.stringify(e)) continue; // the same entry twice
          if (cur && when(cur) > when(e)) {
            replaced.push(`${fp} ${id}: ${src[id]} wins (${what(cur)}), later than ${path} (${what(e)})`);
            continue;
          }
          if (cur) replaced.push(`${fp} ${id}: ${path} wins (${what(e)}), ${when(e) > when(cur) ? 'later than' : 'as late as, and after on the command line,'} ${src[id]} (${what(cur)})`);
          slot[prob] = e;
          src[id] = path;
        }
      }
    }
  }
  return { file: out, replaced, sources };
}

/** Whether a recorded device is of the same kind as `device`: id, target set, vendor and architecture (both known). */
export function sameDeviceKind(rec: TunedDevice, device: Pick<Device, 'id' | 'target' | 'vendor' | 'architecture'> & { targets?: readonly string[] }): boolean {
  if (rec.id !== device.id || !device.vendor || !device.architecture) return false;
  if (rec.vendor !== device.vendor || rec.architecture !== device.architecture) return false;
  const a = new Set(rec.targets ?? [rec.target]);
  const b = new Set(device.targets ?? [device.target]);
  return a.size === b.size && [...a].every((t) => b.has(t));
}

/**
 * Set one winner in the artefact (read, merge, durable write), under the artefact's lock file
 * (runtime/tune/locked.ts), so that tuners writing it at once keep each other's entries.
 */
export function updateTuned(path: string, device: Pick<Device, 'fingerprint' | 'id' | 'target' | 'name' | 'vendor' | 'architecture'> & { targets?: readonly string[] }, family: string, problem: string, entry: TunedEntry): void {
  for (;;) {
    const wrote = underLock(path, (lock) => {
      const f = withEntry(path, device, family, problem, entry);
      if (!lock.held()) return false; // taken over as stale meanwhile: read again
      writeFileAtomic(path, `${JSON.stringify(f, null, 1)}\n`);
      return true;
    });
    if (wrote) return;
  }
}

/** The artefact at `path` (or a new one) with the winner of `family` and `problem` on `device` set. */
function withEntry(path: string, device: Parameters<typeof updateTuned>[1], family: string, problem: string, entry: TunedEntry): TunedFile {
  const cur = readTuned(path);
  const f: TunedFile = cur.file ?? { format: TUNED_FORMAT, version: 1, devices: {}, tuned: {} };
  f.devices[device.fingerprint] = {
    id: device.id,
    target: device.target,
    name: device.name,
    ...(device.targets ? { targets: [...device.targets] } : {}),
    ...(device.vendor ? { vendor: device.vendor } : {}),
    ...(device.architecture ? { architecture: device.architecture } : {}),
  };
  ((f.tuned[device.fingerprint] ??= {})[family] ??= {})[problem] = entry;
  return f;
}

/** Options of loadTuned. */
export interface LoadTunedOptions {
  /** 'cpu' (default), 'webgpu', or a detected Device. */
  device?: DeviceId | Device;
  /** The artefact (default: $KERNFORGE_TUNED or ./kernforge-tuned.json). */
  path?: string;
  /** Load the module of the chosen variant (default: true on the CPU): TuningFamily.load, else the TypeScript module of a ts key. */
  load?: boolean;
  /** Where the fallback warning goes (default: one line on stderr). */
  warn?: (line: string) => void;
  /**
   * Where a problem of the tuned entry itself goes: a thread count this machine cannot run (see
   * Tuned.threads). Default: one line on stderr, once per artefact and entry per process. Apart
   * from `warn`, which callers silence when they only look for an entry.
   */
  notice?: (line: string) => void;
}

/** What loadTuned chose for a family and problem class, and why, with the loaded module. */
export interface Tuned<M = unknown> {
  /** The variant key to run. */
  key: string;
  /**
   * Worker threads to run it with: the tuned count, else 1. A tuned count this machine cannot run
   * (more than twice its CPUs, e.g. an artefact from a larger machine through the nearest-device
   * rule, or not a positive integer in a hand-edited file) is not used: this machine's CPU count
   * instead when it was too large, else 1, with one line (LoadTunedOptions.notice) naming the
   * artefact, the entry and the range. The workloads never blame such a count on --threads.
   */
  threads: number;
  /** True when the key comes from a tuning run on this device (or on the nearest device: `nearest`). */
  tuned: boolean;
  /** The fingerprint of the device the key was tuned on, when not this one (the nearest device rule). */
  nearest?: string;
  /** The problem class the key was tuned on (may be a quick class standing in). */
  problem: string;
  /** The artefact's entry, when the key was tuned. */
  entry?: TunedEntry;
  /** The loaded module (CPU, unless load: false): the family's load(key), or the TS module of a ts key. */
  module?: M;
}

const warned = new Set<string>();
const noticed = new Set<string>();

/**
 * The thread count to run tuned entry `e` (at `at` in the artefact `path`) with here: its
 * `threads` (absent: 1) when this machine can run it (1 to maxThreads(), as --threads allows),
 * else this machine's CPU count (too large) or 1 (not a positive integer), said in one line.
 */
function usableThreads(e: TunedEntry, path: string, at: string, family: string, notice: (line: string) => void): number {
  const n: unknown = e.threads ?? 1;
  const max = maxThreads();
  if (Number.isInteger(n) && (n as number) >= 1 && (n as number) <= max) return n as number;
  const cpus = platform().cpu().parallelism;
  const tooMany = Number.isInteger(n) && (n as number) > max;
  const use = tooMany ? cpus : 1;
  const why = tooMany ? `out of range for this machine (1 to ${max}: twice its ${cpus} CPUs)` : 'not a positive integer';
  const instead = `${use} thread${use > 1 ? 's' : ''} (${tooMany ? "this machine's CPU count" : 'the untuned default'})`;
  notice(`kernforge: ${path}: ${at}.threads is ${JSON.stringify(n)}, ${why}; not using it: a run given no thread count (--threads) takes ${instead}; \`kernforge tune ${family}\` here replaces the entry`);
  return use;
}

/**
 * The best verified variant of `family` for `problem` (default: the family's first full-size
 * problem) on this device, or the family's default with a one-line warning when nothing was tuned.
 */
export async function loadTuned<M = unknown>(family: string, problem?: string, o: LoadTunedOptions = {}): Promise<Tuned<M>> {
  const { tuningFamily } = await import('./families/index.ts');
  const { deviceById } = await import('./devices.ts');
  const f = await tuningFamily(family);
  if (!f) throw new Error(`loadTuned: no tunable family "${family}"`);
  const classes = f.problems();
  const prob = problem ?? classes.find((p) => !p.quick)?.name ?? classes[0]!.name;
  if (!classes.some((p) => p.name === prob)) throw new Error(`loadTuned: ${family} has no problem "${prob}" (allowed: ${classes.map((p) => p.name).join(', ')})`);
  const device = typeof o.device === 'object' ? o.device : await deviceById(o.device ?? 'cpu');
  const load = o.load ?? device.target === 'ts';
  const finish = async (r: Omit<Tuned<M>, 'module'>): Promise<Tuned<M>> => {
    if (!load) return r;
    if (f.load) return { ...r, module: (await f.load(r.key)) as M };
    if (keyTarget(r.key) !== 'ts') return r;
    const { loadTsModule } = await import('../variants.ts');
    return { ...r, module: await loadTsModule<M>(r.key) };
  };
  const path = tunedPath(o.path);
  const art = artefactEnabled(o.path) ? readTuned(path) : { file: undefined, why: platform().env('KERNFORGE_TUNED') === 'none' ? 'KERNFORGE_TUNED=none' : 'tuned variants are not read under the test runner unless KERNFORGE_TUNED is set' };
  const mine = art.file?.tuned[device.fingerprint]?.[family];
  let why = art.why ?? `none for fingerprint ${device.fingerprint} in ${path}`;
  const warn = o.warn ?? ((l: string) => platform().stderr(l));
  const notice =
    o.notice ??
    ((l: string) => {
      if (noticed.has(l)) return;
      noticed.add(l);
      platform().stderr(l);
    });
  const order = [prob, ...classes.filter((p) => p.serves === prob).map((p) => p.name)];
  const valid = async (e: TunedEntry): Promise<boolean> => {
    try {
      const { variantParams } = await import('../variants.ts');
      await (f.params ?? variantParams)(e.key);
      return true;
    } catch (err) {
      why = `the tuned ${e.key} is no longer a valid variant (${(err as Error).message})`;
      return false;
    }
  };
  if (mine) {
    for (const name of order) {
      const e = mine[name];
      if (!e || !(await valid(e))) continue;
      return finish({ key: e.key, threads: usableThreads(e, path, `tuned.${device.fingerprint}.${family}.${name}`, family, notice), tuned: true, problem: name, entry: e });
    }
  }
  // the nearest device: same id, target set, vendor and architecture; per problem in the same
  // order, the most recent entry first
  if (art.file) {
    const file = art.file;
    const near = Object.entries(file.devices).filter(([fp, d]) => fp !== device.fingerprint && sameDeviceKind(d, device)).map(([fp]) => fp);
    for (const name of order) {
      const found = near
        .map((fp) => ({ fp, e: file.tuned[fp]?.[family]?.[name] }))
        .filter((x): x is { fp: string; e: TunedEntry } => !!x.e)
        .sort((a, b) => (Date.parse(b.e.when) || 0) - (Date.parse(a.e.when) || 0));
      for (const { fp, e } of found) {
        if (!(await valid(e))) continue;
        const id = `${family}|${prob}|${device.fingerprint}|${fp}`;
        const threads = usableThreads(e, path, `tuned.${fp}.${family}.${name}`, family, notice);
        if (!warned.has(id)) {
          warned.add(id);
          const d = file.devices[fp]!;
          warn(`kernforge: no tuned ${family} variant for ${prob} on this ${device.id} (fingerprint ${device.fingerprint}); using ${e.key}${threads > 1 ? ` on ${threads} threads` : ''}, tuned for ${name} on the nearest device ${d.name} (fingerprint ${fp}: same ${d.vendor} ${d.architecture}, targets ${(d.targets ?? [d.target]).join('/')}) on ${e.when}`);
        }
        return finish({ key: e.key, threads, tuned: true, problem: name, entry: e, nearest: fp });
      }
    }
  }
  const key = f.defaultKey(device, prob);
  if (!key) throw new Error(`loadTuned: ${family} has no ${device.target} variant for ${prob}, and ${why}`);
  const id = `${family}|${prob}|${device.fingerprint}`;
  if (!warned.has(id)) {
    warned.add(id);
    warn(`kernforge: no tuned ${family} variant for ${prob} on this ${device.id} (${why}); using the default ${key} (run \`kernforge tune ${family}\`)`);
  }
  return finish({ key, threads: 1, tuned: false, problem: prob });
}
