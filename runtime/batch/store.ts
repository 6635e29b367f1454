// Shard folders on disk (issue 17; Node only). A shard's files go to a temporary folder beside its
// final one, `<out>/shards/.K-of-N.<host>.<pid>.<random>.tmp`; the manifest is written last into it,
// then the whole folder is renamed to `<out>/shards/K-of-N` (one rename: atomic on a POSIX file
// system, shared ones included). So a folder named K-of-N is always a finished shard, and a killed
// or failing shard leaves at most a dot-folder that nothing takes for finished (batch status lists
// it; the next run of that shard on the same host removes it once its process is gone).
//   - A finished shard with the same inputs hash is not run again ("already finished").
//   - A finished shard of other inputs, or a corrupt one, is never replaced: one line saying so.
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { writeOutput } from '../output.ts';
import { cpuDevice } from '../tune/devices.ts';
import { BatchInputError, shardName, type Shard } from './shard.ts';
import { SHARD_FORMAT, SHARD_MANIFEST, SHARD_VERSION, inputsText, validateManifest, type BatchWork, type ShardItem, type ShardManifest } from './manifest.ts';

/** SHA-256 of bytes or of a UTF-8 string, lowercase hex. */
export function sha256(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

/** SHA-256 of a file's bytes. */
export function sha256File(path: string): string {
  return sha256(readFileSync(path));
}

let version: string | undefined;
/** This kernforge's version (package.json: beside runtime/ in the repository, above dist/ in the package). */
export function kernforgeVersion(): string {
  if (version !== undefined) return version;
  for (const rel of ['../../package.json', '../../../package.json']) {
    try {
      const j = JSON.parse(readFileSync(new URL(rel, import.meta.url), 'utf8')) as { name?: string; version?: string };
      if (j.name === 'kernforge' && typeof j.version === 'string') return (version = j.version);
    } catch {
      // not there: try the next
    }
  }
  return (version = 'unknown');
}

/** `<out>/shards`. */
export const shardsDir = (out: string): string => join(out, 'shards');

/** What a shard folder holds: its manifest, or why it is not a finished shard. */
export interface ShardState {
  dir: string;
  manifest?: ShardManifest;
  /** Why the folder is not a usable finished shard (corrupt manifest, a file missing or changed). */
  problem?: string;
}

/** Read and check a shard folder: the manifest valid and every file there with its SHA-256. */
export function readShard(dir: string, o: { hashes?: boolean } = {}): ShardState {
  const mf = join(dir, SHARD_MANIFEST);
  if (!existsSync(mf)) return { dir, problem: `it has no ${SHARD_MANIFEST}` };
  let m: unknown;
  try {
    m = JSON.parse(readFileSync(mf, 'utf8'));
  } catch (e) {
    return { dir, problem: `${SHARD_MANIFEST} does not parse (${(e as Error).message.split('\n')[0]})` };
  }
  const bad = validateManifest(m);
  if (bad) return { dir, problem: `${SHARD_MANIFEST}: ${bad}` };
  const manifest = m as ShardManifest;
  for (const f of manifest.files) {
    const p = join(dir, f.name);
    if (!existsSync(p)) return { dir, manifest, problem: `${f.name} is missing` };
    if (statSync(p).size !== f.bytes) return { dir, manifest, problem: `${f.name} has ${statSync(p).size} bytes, the manifest says ${f.bytes}` };
    if (o.hashes !== false && sha256File(p) !== f.sha256) return { dir, manifest, problem: `${f.name} does not match its SHA-256 in the manifest` };
  }
  return { dir, manifest };
}

/** A half-written attempt at a shard: `.K-of-N.<host>.<pid>.<random>.tmp`. */
export interface PartialShard {
  name: string;
  shard: string;
  host: string;
  pid: number;
}

const PARTIAL = /^\.(\d+-of-\d+)\.(.+)\.(\d+)\.([0-9a-f]+)\.tmp$/;

/** The half-written attempts under `<out>/shards`. */
export function partialShards(out: string): PartialShard[] {
  const d = shardsDir(out);
  if (!existsSync(d)) return [];
  const r: PartialShard[] = [];
  for (const name of readdirSync(d)) {
    const m = PARTIAL.exec(name);
    if (m) r.push({ name, shard: m[1]!, host: m[2]!, pid: Number(m[3]) });
  }
  return r;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** What a shard's work produced, for its manifest. */
export interface ShardResult {
  items: ShardItem[];
  /** The device the work ran on (default: this CPU). */
  device?: { fingerprint: string; name: string };
}

/** What describes a shard, decided before its work runs. */
export interface ShardSpec {
  out: string;
  shard: Shard;
  work: BatchWork;
  command: string[];
  inputs: { name: string; sha256: string }[];
  settings: Record<string, unknown>;
}

/** The inputs hash of a shard spec (equal in every shard of one batch). */
export function specHash(s: Pick<ShardSpec, 'work' | 'shard' | 'inputs' | 'settings'>): string {
  return sha256(inputsText(s.work, s.shard.n, s.inputs, s.settings));
}

/**
 * Run one shard: nothing when it is finished already with the same inputs (returns 'finished');
 * else `produce` writes the shard's files into a temporary folder, the manifest is written last,
 * and the folder is renamed to `<out>/shards/K-of-N` ('done'). A failure removes the temporary
 * folder and throws. `hold`: seconds to wait after the files and before the manifest (the test
 * of a task killed mid-run: KERNFORGE_TEST_SHARD_HOLD, see holdSeconds).
 */
export async function runShard(spec: ShardSpec, produce: (dir: string) => Promise<ShardResult>, log: (line: string) => void = () => {}): Promise<{ status: 'done' | 'finished'; dir: string; manifest: ShardManifest }> {
  const name = shardName(spec.shard);
  const final = join(shardsDir(spec.out), name);
  const hash = specHash(spec);
  const existing = (): { status: 'finished'; dir: string; manifest: ShardManifest } | undefined => {
    if (!existsSync(final)) return undefined;
    const st = readShard(final);
    if (st.problem) throw new BatchInputError(`${final} is not a usable shard (${st.problem}); not replacing it: remove that folder to run shard ${spec.shard.k}/${spec.shard.n} again`);
    if (st.manifest!.inputsHash !== hash) {
      throw new BatchInputError(`${final} is shard ${name} of other inputs (inputs hash ${st.manifest!.inputsHash.slice(0, 12)}, this command's ${hash.slice(0, 12)}); not replacing it: give another --out-dir, or remove that folder`);
    }
    return { status: 'finished', dir: final, manifest: st.manifest! };
  };
  const before = existing();
  if (before) {
    log(`shard ${name} is already finished (same inputs, ${before.manifest.timings.finished}): nothing to do (${final})`);
    return before;
  }
  // The output policy (runtime/output.ts): the output folder is a folder, and not under a file.
  const { checkFolderPath } = await import('../output.ts');
  checkFolderPath(spec.out, '--out-dir', 'give a folder for the shards (created when missing)');
  const host = hostname().split('.')[0]!.replace(/[^A-Za-z0-9_-]/g, '_') || 'host';
  // leftovers of this shard from processes of this host that are gone
  for (const p of partialShards(spec.out)) {
    if (p.shard === name && p.host === host && p.pid !== process.pid && !alive(p.pid)) rmSync(join(shardsDir(spec.out), p.name), { recursive: true, force: true });
  }
  const tmp = join(shardsDir(spec.out), `.${name}.${host}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  mkdirSync(tmp, { recursive: true });
  const started = new Date();
  try {
    const r = await produce(tmp);
    const hold = holdSeconds(spec.shard);
    if (hold > 0) {
      log(`test only (KERNFORGE_TEST_SHARD_HOLD): holding shard ${name} for ${hold} s before its manifest`);
      await new Promise((res) => setTimeout(res, hold * 1000));
    }
    const listed = new Set(r.items.flatMap((i) => i.files));
    const files = readdirSync(tmp)
      .filter((f) => !f.startsWith('.') && f !== SHARD_MANIFEST)
      .sort()
      .map((f) => {
        const bytes = readFileSync(join(tmp, f));
        return { name: f, sha256: sha256(bytes), bytes: bytes.length };
      });
    for (const f of listed) if (!files.some((x) => x.name === f)) throw new Error(`shard ${name}: the work listed ${f} but did not write it`);
    const finished = new Date();
    const cpu = cpuDevice();
    const manifest: ShardManifest = {
      format: SHARD_FORMAT,
      version: SHARD_VERSION,
      kernforge: kernforgeVersion(),
      work: spec.work,
      command: spec.command,
      shard: spec.shard,
      inputsHash: hash,
      inputs: spec.inputs,
      settings: spec.settings,
      items: r.items,
      verified: r.items.every((i) => i.verification.ok),
      device: { ...(r.device ?? { fingerprint: cpu.fingerprint, name: cpu.name }), host: hostname() },
      timings: { started: started.toISOString(), finished: finished.toISOString(), seconds: (finished.getTime() - started.getTime()) / 1000 },
      files,
    };
    writeOutput(join(tmp, SHARD_MANIFEST), `${JSON.stringify(manifest, null, 1)}\n`);
    try {
      renameSync(tmp, final);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code !== 'ENOTEMPTY' && code !== 'EEXIST') throw e;
      // another run of the same shard finished first: keep its folder
      const other = existing()!;
      rmSync(tmp, { recursive: true, force: true });
      log(`shard ${name} was finished meanwhile by another run (same inputs): keeping that one (${final})`);
      return other;
    }
    return { status: 'done', dir: final, manifest };
  } catch (e) {
    rmSync(tmp, { recursive: true, force: true });
    throw e;
  }
}

/**
 * Test only: KERNFORGE_TEST_SHARD_HOLD="K:seconds" makes shard K wait that long after writing its
 * files and before its manifest (so a test can kill it mid-run, leaving a half-written shard).
 * Not for users; documented in docs/batch.md.
 */
export function holdSeconds(s: Shard): number {
  const v = process.env.KERNFORGE_TEST_SHARD_HOLD;
  if (!v) return 0;
  const m = /^(\d+):(\d+(?:\.\d+)?)$/.exec(v.trim());
  return m && Number(m[1]) === s.k ? Number(m[2]) : 0;
}
