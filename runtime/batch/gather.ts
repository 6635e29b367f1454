// Gathering a batch's shards (issue 17; Node only): `kernforge gather <out>` and `kernforge batch
// status <out>` read `<out>/shards/K-of-N` (runtime/batch/store.ts). gather merges only a complete,
// consistent set: it refuses, with one line naming the shard, a shard that is missing, duplicated
// (two folders holding one shard), of another split (N), from other inputs (inputs hash), not
// verified, corrupt (a manifest that does not parse, a file missing or not matching its SHA-256),
// or (tuning) measured on a device of another fingerprint. Then:
//   - GEM: `<out>/<name>.phi` per molecule in list order, each byte for byte what `kernforge run gem
//     <molecule> -o <name>.phi` writes (a molecule split by vertices: GEM's header and the shards'
//     lines in vertex order);
//   - MD replicas: `<out>/replicas.tsv`, one row per replica in replica order;
//   - tuning: `<out>/tune-cache/<fingerprint>.json`, the shards' caches merged into one (the tuning
//     cache's own merge, runtime/tune/cache.ts), from which `kernforge tune --cache` picks the
//     winners without measuring again.
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { writeOutput } from '../output.ts';
import { formatGemOutput } from '../gem/workload.ts';
import { BatchInputError, parseShardName, shardName, type Shard } from './shard.ts';
import { partialShards, readShard, shardsDir, type PartialShard, type ShardState } from './store.ts';
import type { ShardManifest } from './manifest.ts';
import type { ReplicaSummary } from './md.ts';
import { readBatchRecord } from './record.ts';
import { TuneCache, type CacheFile } from '../tune/cache.ts';

/** What `<out>/shards` holds, shard by shard. */
export interface BatchScan {
  out: string;
  /** The number of shards of the batch (batch.json, else the shards' own). */
  n: number;
  /** The finished shard folders by shard index (more than one: duplicated). */
  found: Map<number, ShardState[]>;
  /** Folders that are not a usable shard of this batch, and why (corrupt, another N, not a shard name). */
  bad: { name: string; why: string }[];
  /** Half-written attempts (killed or running). */
  partial: PartialShard[];
  /** The inputs hash most shards share (the batch's). */
  inputsHash?: string;
}

const mostCommon = <T>(xs: T[]): T | undefined => {
  const c = new Map<T, number>();
  for (const x of xs) c.set(x, (c.get(x) ?? 0) + 1);
  let best: T | undefined;
  let bn = 0;
  for (const [x, k] of c) if (k > bn) [best, bn] = [x, k];
  return best;
};

/** Read `<out>/shards` (every manifest checked, file hashes too unless `hashes: false`). */
export function scanBatch(out: string, o: { hashes?: boolean } = {}): BatchScan {
  const dir = shardsDir(out);
  const rec = readBatchRecord(out);
  if (!existsSync(dir) && !rec) throw new BatchInputError(`${out}: no batch here (no ${dir} and no batch.json): give the folder that --out-dir named`);
  const names = existsSync(dir) ? readdirSync(dir).filter((f) => !f.startsWith('.') && statSync(join(dir, f)).isDirectory()) : [];
  const states: { name: string; shard?: Shard; st: ShardState }[] = names.map((name) => ({ name, shard: parseShardName(name), st: readShard(join(dir, name), o) }));
  const n = rec?.n ?? mostCommon(states.flatMap((s) => (s.shard ? [s.shard.n] : [])));
  if (n === undefined) throw new BatchInputError(`${out}: no shard folders (K-of-N) under ${dir} and no batch.json: nothing to gather`);
  const found = new Map<number, ShardState[]>();
  const bad: BatchScan['bad'] = [];
  for (const { name, shard, st } of states) {
    if (!shard) {
      bad.push({ name, why: `${join(dir, name)} is not a shard folder (K-of-N)` });
      continue;
    }
    if (st.problem) {
      bad.push({ name, why: `shard ${name} is corrupt: ${st.problem} (${st.dir})` });
      continue;
    }
    const m = st.manifest!;
    if (m.shard.n !== shard.n || m.shard.k !== shard.k) {
      // a copy of another shard's folder: duplicated when that shard is there too
      const other = shardName(m.shard);
      bad.push({ name, why: names.includes(other) ? `shard ${other} is duplicated: ${join(dir, other)} and ${st.dir} both hold it` : `shard ${name} is corrupt: its manifest is shard ${other}'s (${st.dir})` });
      continue;
    }
    if (shard.n !== n) {
      bad.push({ name, why: `shard ${name} is of a split into ${shard.n} shards, but the batch has ${n} (${st.dir})` });
      continue;
    }
    found.set(shard.k, [...(found.get(shard.k) ?? []), st]);
  }
  // the most common inputs hash is the batch's; on a tie, the lowest shard's
  const hashes = [...found.entries()].sort((a, b) => a[0] - b[0]).flatMap(([, s]) => s.map((x) => x.manifest!.inputsHash));
  return { out, n, found, bad, partial: partialShards(out), inputsHash: mostCommon(hashes) };
}

/** The shards of a scan that are finished, consistent and usable, by index; the rest are named in `refusals`. */
export function judgeBatch(scan: BatchScan): { good: Map<number, ShardManifest & { dir: string }>; refusals: string[]; missing: number[] } {
  const refusals = scan.bad.map((b) => b.why);
  const good = new Map<number, ShardManifest & { dir: string }>();
  const missing: number[] = [];
  for (let k = 0; k < scan.n; k++) {
    const st = scan.found.get(k);
    if (!st) {
      missing.push(k);
      continue;
    }
    const m = st[0]!.manifest!;
    const name = shardName({ k, n: scan.n });
    if (m.inputsHash !== scan.inputsHash) {
      refusals.push(`shard ${name} is from other inputs (inputs hash ${m.inputsHash.slice(0, 12)}..., the other shards' ${scan.inputsHash!.slice(0, 12)}...; its command: kernforge ${m.command.join(' ')}) (${st[0]!.dir})`);
      continue;
    }
    if (!m.verified) {
      const it = m.items.find((i) => !i.verification.ok);
      refusals.push(`shard ${name} is unverified: ${it ? `${it.name}: ${it.variant ?? 'its variant'} failed its verification gate${it.verification.detail ? ` (${it.verification.detail})` : ''}` : 'its manifest says so'} (${st[0]!.dir})`);
      continue;
    }
    good.set(k, { ...m, dir: st[0]!.dir });
  }
  return { good, refusals, missing };
}

/** What gather wrote. */
export interface GatherResult {
  work: ShardManifest['work'];
  files: string[];
  lines: string[];
}

/** Merge the shards of `<out>` (see the top of this file); refuses with a BatchInputError naming the shard. */
export function gatherBatch(out: string): GatherResult {
  const scan = scanBatch(out);
  const { good, refusals, missing } = judgeBatch(scan);
  if (refusals.length > 0) throw new BatchInputError(`gather ${out}: ${refusals[0]}${refusals.length > 1 ? ` (and ${refusals.length - 1} more: \`kernforge batch status ${out}\` lists them)` : ''}; nothing merged`);
  if (missing.length > 0) {
    const names = missing.map((k) => shardName({ k, n: scan.n }));
    throw new BatchInputError(`gather ${out}: shard${names.length > 1 ? 's' : ''} ${names.slice(0, 8).join(', ')}${names.length > 8 ? `, ... (${names.length} in all)` : ''} ${names.length > 1 ? 'are' : 'is'} missing (not finished: \`kernforge batch status ${out}\` says why, \`--resubmit\` runs ${names.length > 1 ? 'them' : 'it'} again); nothing merged`);
  }
  const shards = [...good.values()].sort((a, b) => a.shard.k - b.shard.k);
  const work = shards[0]!.work;
  if (work === 'gem') return gatherGem(out, shards);
  if (work === 'md') return gatherMd(out, shards);
  return gatherTune(out, shards);
}

function gatherGem(out: string, shards: (ShardManifest & { dir: string })[]): GatherResult {
  const s0 = shards[0]!.settings as { mode: 'list' | 'vertices'; molecules: string[] };
  const items = shards.flatMap((m) => m.items.map((it) => ({ it, dir: m.dir, shard: shardName(m.shard) }))).sort((a, b) => a.it.index - b.it.index);
  const files: string[] = [];
  const lines: string[] = [];
  if (s0.mode === 'list') {
    s0.molecules.forEach((name, i) => {
      const got = items.filter((x) => x.it.index === i);
      if (got.length !== 1) throw new BatchInputError(`gather ${out}: molecule ${i + 1} (${name}) is in ${got.length} shards (${got.map((g) => g.shard).join(', ') || 'none'}), not one; nothing merged`);
      if (got[0]!.it.name !== name) throw new BatchInputError(`gather ${out}: shard ${got[0]!.shard} has ${got[0]!.it.name} as molecule ${i + 1}, the batch ${name}; nothing merged`);
    });
    for (const { it, dir } of items) {
      const f = join(out, `${it.name}.phi`);
      writeOutput(f, readFileSync(join(dir, it.files[0]!)));
      files.push(f);
      lines.push(`${it.name}: ${it.summary?.atoms} atoms x ${it.summary?.vertices} vertices, ${it.variant}, verified (worst ${Number(it.verification.worst).toPrecision(2)} of tolerance) -> ${f}`);
    }
    return { work: 'gem', files, lines };
  }
  // one molecule's vertex ranges, in order, covering every vertex once
  const name = s0.molecules[0]!;
  let at = 0;
  const total = Number(items[0]?.it.summary?.total);
  const parts: Buffer[] = [Buffer.from(formatGemOutput({ n: 0, x: new Float64Array(), y: new Float64Array(), z: new Float64Array(), nx: new Float64Array(), ny: new Float64Array(), nz: new Float64Array() }, []))];
  for (const { it, dir, shard } of items) {
    const [first, end] = [Number(it.summary?.first), Number(it.summary?.end)];
    if (first !== at || Number(it.summary?.total) !== total) throw new BatchInputError(`gather ${out}: shard ${shard} holds vertices ${first} to ${end} of ${it.summary?.total}, but the next range starts at ${at} of ${total}; nothing merged`);
    parts.push(readFileSync(join(dir, it.files[0]!)));
    at = end;
  }
  if (at !== total) throw new BatchInputError(`gather ${out}: the shards cover vertices 0 to ${at} of ${total}; nothing merged`);
  const f = join(out, `${name}.phi`);
  writeOutput(f, Buffer.concat(parts));
  lines.push(`${name}: ${total} vertices from ${items.length} shards, ${[...new Set(items.map((x) => x.it.variant))].join(', ')}, verified -> ${f}`);
  return { work: 'gem', files: [f], lines };
}

/** The replica table's columns. */
const REPLICA_COLUMNS = ['replica', 'seed', 'steps', 'T', 'epot', 'ekin', 'etot', 'conserved', 'P', 'drift', 'steps_per_s', 'variant'];

function gatherMd(out: string, shards: (ShardManifest & { dir: string })[]): GatherResult {
  const replicas = Number(shards[0]!.settings.replicas);
  const rows: ReplicaSummary[] = [];
  for (const m of shards) for (const it of m.items) rows.push(JSON.parse(readFileSync(join(m.dir, it.files[0]!), 'utf8')) as ReplicaSummary);
  rows.sort((a, b) => a.replica - b.replica);
  for (let i = 0; i < replicas; i++) {
    const n = rows.filter((r) => r.replica === i).length;
    if (n !== 1) throw new BatchInputError(`gather ${out}: replica ${i} is in ${n} shards, not one; nothing merged`);
  }
  const fmt = (x: number | undefined) => (x === undefined || x === null ? '' : Number.isInteger(x) ? String(x) : x.toPrecision(10));
  const table = [REPLICA_COLUMNS.join('\t'), ...rows.map((r) => [r.replica, r.seed, r.steps, r.final?.T, r.final?.epot, r.final?.ekin, r.final?.etot, r.final?.conserved, r.final?.P, r.drift, r.stepsPerSecond].map((x) => fmt(x)).concat(r.variant).join('\t'))].join('\n');
  const f = join(out, 'replicas.tsv');
  writeOutput(f, `${table}\n`);
  const T = rows.map((r) => r.final?.T ?? NaN);
  const mean = T.reduce((a, b) => a + b, 0) / T.length;
  const sd = Math.sqrt(T.reduce((a, b) => a + (b - mean) ** 2, 0) / Math.max(1, T.length - 1));
  return { work: 'md', files: [f], lines: [`${replicas} replicas from ${shards.length} shards: final T ${mean.toPrecision(6)} +- ${sd.toPrecision(3)} (sd) -> ${f}`] };
}

function gatherTune(out: string, shards: (ShardManifest & { dir: string })[]): GatherResult {
  const fp = shards[0]!.device.fingerprint;
  for (const m of shards) {
    if (m.device.fingerprint !== fp) throw new BatchInputError(`gather ${out}: shard ${shardName(m.shard)} was measured on another device (fingerprint ${m.device.fingerprint}, ${m.device.host}) than shard ${shardName(shards[0]!.shard)} (${fp}, ${shards[0]!.device.host}); a tuning batch needs identical nodes; nothing merged`);
  }
  return { work: 'tune', ...mergeTuneCaches(out, shards) };
}

function mergeTuneCaches(out: string, shards: (ShardManifest & { dir: string })[]): { files: string[]; lines: string[] } {
  // the tuning cache's own merge (results unioned, the later measurement wins; runs unioned)
  const caches = shards.flatMap((m) => m.files.filter((f) => f.name === 'tune-cache.json').map((f) => JSON.parse(readFileSync(join(m.dir, f.name), 'utf8'))));
  if (caches.length === 0) return { files: [], lines: ['no shard measured anything (no candidates in any shard): no cache written'] };
  return mergeCacheFiles(out, caches);
}

function mergeCacheFiles(out: string, caches: CacheFile[]): { files: string[]; lines: string[] } {
  const d = caches[0]!.device;
  const c = TuneCache.open({ fingerprint: d.fingerprint, id: d.id as 'cpu', target: d.target as 'ts', name: d.name, details: d.details }, join(out, 'tune-cache'));
  for (const f of caches) c.merge(f);
  c.save();
  const n = Object.keys(c.data.results).length;
  return { files: [c.path], lines: [`${n} measurements of ${caches.length} shards merged into ${c.path}; \`kernforge tune --cache ${join(out, 'tune-cache')}\` with the batch's options, on a node of this kind (fingerprint ${d.fingerprint}), writes the winners without measuring again`] };
}
