// The manifest of a finished shard (issue 17): `<out>/shards/K-of-N/manifest.json`, written last,
// inside the shard's temporary folder, before the folder takes its name (runtime/batch/store.ts).
// Portable: types, the inputs' hash and the checks, no file access.
//
//   {
//     "format": "kernforge-shard", "version": 1,
//     "kernforge": "0.1.0",                      // the version that wrote it
//     "work": "gem" | "md" | "tune",
//     "command": ["run", "gem", "--batch", "list.txt", "--shard", "1/4", ...],
//     "shard": { "k": 1, "n": 4 },
//     "inputsHash": "<sha256 of inputs + settings + work + n>",   // equal in every shard of a batch
//     "inputs": [ { "name": "data/gem/1uwo_A.pqr", "sha256": "..." }, ... ],
//     "settings": { ... the options that change the result ... },
//     "items": [ { "index": 2, "name": "1uwo_A", "variant": "<key>",
//                  "verification": { "ok": true, "worst": 0.003, "vertices": 200 },
//                  "seconds": 0.8, "files": ["1uwo_A.phi"], "summary": { ... } } ],
//     "verified": true,                         // every item's variant passed its gate
//     "device": { "fingerprint": "<16 hex>", "name": "...", "host": "node17" },
//     "timings": { "started": "<ISO>", "finished": "<ISO>", "seconds": 3.2 },
//     "files": [ { "name": "1uwo_A.phi", "sha256": "...", "bytes": 812345 } ]
//   }
import type { Shard } from './shard.ts';

/** The `format` of a shard manifest. */
export const SHARD_FORMAT = 'kernforge-shard';
/** The shard manifest version this kernforge writes and reads. */
export const SHARD_VERSION = 1;
/** The file name of a shard's manifest in its folder. */
export const SHARD_MANIFEST = 'manifest.json';

/** What a batch computes: GEM potentials, MD replicas, or a tuning sweep. */
export type BatchWork = 'gem' | 'md' | 'tune';
export const BATCH_WORKS: readonly BatchWork[] = ['gem', 'md', 'tune'];

/** How an item's variant fared at its verification gate. */
export interface ItemVerification {
  /** Whether it passed (a shard with an item that did not is never gathered). */
  ok: boolean;
  /** Worst error over tolerance (<= 1 passes), when the gate gives one. */
  worst?: number;
  /** Points checked (GEM: vertices). */
  vertices?: number;
  /** What was checked, or why it failed. */
  detail?: string;
}

/** One unit of a shard's work: a molecule, a vertex range, a replica, a tuning problem. */
export interface ShardItem {
  /** Position in the whole batch (molecule in the list, replica, first vertex); gather orders by it. */
  index: number;
  /** Name (molecule, `replica 7`, `md-nonbonded water-rf`). */
  name: string;
  /** The variant key used, when one was. */
  variant?: string;
  verification: ItemVerification;
  /** Wall-clock seconds of the item. */
  seconds: number;
  /** The item's files in the shard folder. */
  files: string[];
  /** Small numbers worth a table (energies, potentials' range, pairs/s). */
  summary?: Record<string, number | string>;
}

/** A file of the shard and its SHA-256. */
export interface ShardFile {
  name: string;
  sha256: string;
  bytes: number;
}

/** A finished shard's manifest (format kernforge-shard, version 1). */
export interface ShardManifest {
  format: typeof SHARD_FORMAT;
  version: typeof SHARD_VERSION;
  /** The kernforge version that wrote it. */
  kernforge: string;
  work: BatchWork;
  /** The command line (after `kernforge`). */
  command: string[];
  shard: Shard;
  /** sha256 of the inputs, the settings, the work and N (inputsHash()): equal in every shard of one batch. */
  inputsHash: string;
  /** The input files and their SHA-256. */
  inputs: { name: string; sha256: string }[];
  /** The options that change the result. */
  settings: Record<string, unknown>;
  items: ShardItem[];
  /** Every item's variant passed its gate. */
  verified: boolean;
  /** Where it ran: the CPU device's fingerprint and name (tune shards: the device tuned), and the host. */
  device: { fingerprint: string; name: string; host: string };
  timings: { started: string; finished: string; seconds: number };
  files: ShardFile[];
}

/**
 * The text whose SHA-256 is a batch's inputs hash: the work, N, the input files' hashes and the
 * settings, in a fixed order (JSON with sorted keys).
 */
export function inputsText(work: BatchWork, n: number, inputs: { name: string; sha256: string }[], settings: Record<string, unknown>): string {
  return stableJson({ work, n, inputs: inputs.map((i) => i.sha256), settings });
}

/** JSON with object keys sorted at every level (undefined members left out). */
export function stableJson(x: unknown): string {
  return JSON.stringify(x, (_k, v: unknown) => {
    if (v === null || typeof v !== 'object' || Array.isArray(v)) return v;
    const o = v as Record<string, unknown>;
    return Object.fromEntries(Object.keys(o).sort().filter((k) => o[k] !== undefined).map((k) => [k, o[k]]));
  });
}

const isObj = (x: unknown): x is Record<string, unknown> => x !== null && typeof x === 'object' && !Array.isArray(x);
const HEX64 = /^[0-9a-f]{64}$/;

/** What is wrong with a parsed shard manifest, or undefined when it is a valid version-1 one. */
export function validateManifest(x: unknown): string | undefined {
  if (!isObj(x)) return 'not a JSON object';
  if (x.format !== SHARD_FORMAT) return `format is ${JSON.stringify(x.format)}, not "${SHARD_FORMAT}"`;
  if (x.version !== SHARD_VERSION) return `version ${JSON.stringify(x.version)} is not ${SHARD_VERSION}`;
  if (!BATCH_WORKS.includes(x.work as BatchWork)) return `work ${JSON.stringify(x.work)} is not one of ${BATCH_WORKS.join(', ')}`;
  const s = x.shard as Shard | undefined;
  if (!isObj(s) || !Number.isInteger(s.k) || !Number.isInteger(s.n) || s.k < 0 || s.k >= s.n) return 'shard is not { k, n } with 0 <= k < n';
  if (typeof x.inputsHash !== 'string' || !HEX64.test(x.inputsHash)) return 'inputsHash is not a SHA-256';
  if (!Array.isArray(x.command) || !x.command.every((a) => typeof a === 'string')) return 'command is not a list of strings';
  if (!Array.isArray(x.inputs) || !x.inputs.every((i) => isObj(i) && typeof i.name === 'string' && typeof i.sha256 === 'string' && HEX64.test(i.sha256))) return 'inputs is not a list of { name, sha256 }';
  if (!isObj(x.settings)) return 'settings is not an object';
  if (!Array.isArray(x.items)) return 'items is not a list';
  for (const [i, it] of (x.items as unknown[]).entries()) {
    if (!isObj(it) || !Number.isInteger(it.index) || typeof it.name !== 'string' || !isObj(it.verification) || typeof it.verification.ok !== 'boolean' || !Array.isArray(it.files)) return `items[${i}] is not { index, name, verification: { ok }, files }`;
  }
  if (typeof x.verified !== 'boolean') return 'verified is not true or false';
  if (!isObj(x.device) || typeof x.device.fingerprint !== 'string') return 'device has no fingerprint';
  if (!isObj(x.timings) || typeof x.timings.seconds !== 'number') return 'timings has no seconds';
  if (!Array.isArray(x.files)) return 'files is not a list';
  const names = new Set<string>();
  for (const [i, f] of (x.files as unknown[]).entries()) {
    if (!isObj(f) || typeof f.name !== 'string' || typeof f.sha256 !== 'string' || !HEX64.test(f.sha256) || !Number.isInteger(f.bytes)) return `files[${i}] is not { name, sha256, bytes }`;
    if (f.name.includes('/') || f.name.includes('\\') || f.name.startsWith('.') || f.name === SHARD_MANIFEST) return `files[${i}]: ${JSON.stringify(f.name)} is not a plain file name of the shard`;
    if (names.has(f.name)) return `files[${i}]: ${f.name} is listed twice`;
    names.add(f.name);
  }
  for (const [i, it] of (x.items as ShardItem[]).entries()) {
    for (const f of it.files) if (!names.has(f)) return `items[${i}] names ${JSON.stringify(f)}, which is not in files`;
  }
  return undefined;
}
