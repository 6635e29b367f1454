// The tuned runtime: the winners of `kernforge tune`, written to an importable artefact, and
// loadTuned(), which the workloads call for their default variant.
//
// Artefact (default ./kernforge-tuned.json; `kernforge tune --out <file>` or env KERNFORGE_TUNED):
//
//   { "format": "kernforge-tuned", "version": 1,
//     "devices": { "<fingerprint>": { "id": "cpu", "target": "ts", "name": "...",
//                                      "targets": ["ts", "wasm"] } },   // targets: since wasm; optional
//     "tuned": { "<fingerprint>": { "<family>": { "<problem>": {
//         "key": "<fastest verified variant>", "threads": n (optional), "medianMs": number,
//         "defaultKey": "<the family default>" | null, "defaultMs": number | null,
//         "speedup": defaultMs / medianMs | null, "when": "<ISO>",
//         "strategy": "...", "evaluated": number, "candidates": number } } } } }
//
// loadTuned(family, problem?, { device }) returns the entry for this device's fingerprint (the
// CPU by default). Without one it falls back, in order, to a tuned quick problem class that
// stands in for the problem (e.g. bigdft-conv 'kinetic-small' for 'kinetic'), then to the
// family's documented default (TuningFamily.defaultKey, e.g. md-nonbonded water-rf:
// md-nonbonded.ts.lj-rf.geom.shift.f64.f.4x4.mask.mask), with a one-line warning on stderr
// (once per family and problem per process). A winner may be of any of the device's targets
// (md-nonbonded water-rf-f32 on the CPU: TypeScript or WebAssembly SIMD); the module loaded is
// the family's (TuningFamily.load; by default the TypeScript module of a ts key, none otherwise).
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Device, DeviceId } from './devices.ts';
import { writeFileAtomic } from '../files.ts';

export const TUNED_FORMAT = 'kernforge-tuned';
export const DEFAULT_TUNED_FILE = 'kernforge-tuned.json';

export interface TunedEntry {
  key: string;
  /** Worker threads the key won with (families that tune the thread count); absent: 1. */
  threads?: number;
  medianMs: number;
  defaultKey: string | null;
  defaultMs: number | null;
  speedup: number | null;
  when: string;
  strategy?: string;
  evaluated?: number;
  candidates?: number;
}

export interface TunedFile {
  format: typeof TUNED_FORMAT;
  version: 1;
  devices: Record<string, { id: string; target: string; name: string; targets?: string[] }>;
  tuned: Record<string, Record<string, Record<string, TunedEntry>>>;
}

/** Where the artefact is: the given path, else $KERNFORGE_TUNED, else ./kernforge-tuned.json. */
export function tunedPath(p?: string): string {
  return resolve(p ?? process.env.KERNFORGE_TUNED ?? DEFAULT_TUNED_FILE);
}

/**
 * Whether loadTuned reads the default artefact. Under the test runner (VITEST set, inherited by
 * the CLI processes tests spawn) only an explicit path or $KERNFORGE_TUNED is read, so the suite
 * never depends on what this machine was tuned to; KERNFORGE_TUNED=none turns tuning off anywhere.
 */
function artefactEnabled(explicit?: string): boolean {
  if (explicit) return true;
  if (process.env.KERNFORGE_TUNED === 'none') return false;
  return !(process.env.VITEST && !process.env.KERNFORGE_TUNED);
}

/** Read the artefact; undefined when absent or unreadable (with the reason). */
export function readTuned(path = tunedPath()): { file?: TunedFile; why?: string } {
  if (!existsSync(path)) return { why: `${path} does not exist` };
  try {
    const f = JSON.parse(readFileSync(path, 'utf8')) as TunedFile;
    if (f?.format !== TUNED_FORMAT || f.version !== 1 || typeof f.tuned !== 'object') return { why: `${path} is not a kernforge-tuned version 1 file` };
    return { file: f };
  } catch (e) {
    return { why: `${path} cannot be read (${(e as Error).message})` };
  }
}

/** Set one winner in the artefact (read, merge, durable write). */
export function updateTuned(path: string, device: Pick<Device, 'fingerprint' | 'id' | 'target' | 'name'> & { targets?: readonly string[] }, family: string, problem: string, entry: TunedEntry): void {
  const cur = readTuned(path);
  const f: TunedFile = cur.file ?? { format: TUNED_FORMAT, version: 1, devices: {}, tuned: {} };
  f.devices[device.fingerprint] = { id: device.id, target: device.target, name: device.name, ...(device.targets ? { targets: [...device.targets] } : {}) };
  ((f.tuned[device.fingerprint] ??= {})[family] ??= {})[problem] = entry;
  writeFileAtomic(path, `${JSON.stringify(f, null, 1)}\n`);
}

export interface LoadTunedOptions {
  /** 'cpu' (default), 'webgpu', or a detected Device. */
  device?: DeviceId | Device;
  /** The artefact (default: $KERNFORGE_TUNED or ./kernforge-tuned.json). */
  path?: string;
  /** Load the module of the chosen variant (default: true on the CPU): TuningFamily.load, else the TypeScript module of a ts key. */
  load?: boolean;
  /** Where the fallback warning goes (default: one line on stderr). */
  warn?: (line: string) => void;
}

export interface Tuned<M = unknown> {
  key: string;
  /** Worker threads to run it with: the tuned count, else 1. */
  threads: number;
  /** True when the key comes from a tuning run on this device. */
  tuned: boolean;
  /** The problem class the key was tuned on (may be a quick class standing in). */
  problem: string;
  entry?: TunedEntry;
  /** The loaded module (CPU, unless load: false): the family's load(key), or the TS module of a ts key. */
  module?: M;
}

const warned = new Set<string>();

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
    if (r.key.split('.')[1] !== 'ts') return r;
    const { loadTsModule } = await import('../variants.ts');
    return { ...r, module: await loadTsModule<M>(r.key) };
  };
  const path = tunedPath(o.path);
  const art = artefactEnabled(o.path) ? readTuned(path) : { file: undefined, why: process.env.KERNFORGE_TUNED === 'none' ? 'KERNFORGE_TUNED=none' : 'tuned variants are not read under the test runner unless KERNFORGE_TUNED is set' };
  const mine = art.file?.tuned[device.fingerprint]?.[family];
  let why = art.why ?? `none for fingerprint ${device.fingerprint} in ${path}`;
  if (mine) {
    const order = [prob, ...classes.filter((p) => p.serves === prob).map((p) => p.name)];
    for (const name of order) {
      const e = mine[name];
      if (!e) continue;
      try {
        const { variantParams } = await import('../variants.ts');
        await (f.params ?? variantParams)(e.key);
      } catch (err) {
        why = `the tuned ${e.key} is no longer a valid variant (${(err as Error).message})`;
        continue;
      }
      return finish({ key: e.key, threads: e.threads ?? 1, tuned: true, problem: name, entry: e });
    }
  }
  const key = f.defaultKey(device, prob);
  if (!key) throw new Error(`loadTuned: ${family} has no ${device.target} variant for ${prob}, and ${why}`);
  const id = `${family}|${prob}|${device.fingerprint}`;
  if (!warned.has(id)) {
    warned.add(id);
    (o.warn ?? ((l: string) => process.stderr.write(`${l}\n`)))(`kernforge: no tuned ${family} variant for ${prob} on this ${device.id} (${why}); using the default ${key} (run \`kernforge tune ${family}\`)`);
  }
  return finish({ key, threads: 1, tuned: false, problem: prob });
}
