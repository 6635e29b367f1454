// GEM shards (issue 17; Node only): `kernforge run gem --batch list.txt --shard K/N` computes the
// molecules of the list that fall to shard K (contiguous, balanced: runtime/batch/shard.ts), each
// through the GEM workload (runtime/gem/workload.ts runGemWorkload: its checks, variant choice,
// verification gate and output format); `kernforge run gem <molecule> --shard K/N` computes shard
// K's range of the molecule's vertices (boundaries on multiples of 8, the most vertices a variant
// computes per iteration, so that every potential is computed exactly as in one run). The files go
// into the shard's folder (runtime/batch/store.ts runShard): `<name>.phi` per molecule (GEM's
// format, as `run gem -o` writes it), or `<name>.part.phi` (the range's lines, no header).
// `kernforge gather` puts them together (runtime/batch/gather.ts).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, extname, isAbsolute, join, resolve } from 'node:path';
import { BUNDLED_MOLECULES, bundledMolecule, type BundledMolecule } from '../data.ts';
import { runGemWorkload, type GemWorkloadOptions } from '../gem/workload.ts';
import { UserError } from '../errors.ts';
import { BatchInputError, shardRange, type Shard } from './shard.ts';
import { runShard, sha256File, type ShardSpec } from './store.ts';
import type { ShardItem, ShardManifest } from './manifest.ts';

/** Vertices per shard boundary: a multiple of every gem-potential variant's vertices per iteration. */
export const GEM_VERTEX_ALIGN = 8;

/** A molecule of a batch: its name (the output is `<name>.phi`), .pqr and surface. */
export interface GemBatchMolecule {
  /** 0-based position in the list. */
  index: number;
  name: string;
  pqr: string;
  /** The .vert file; undefined: a generated surface. */
  vert?: string;
  /** Where it was named (list.txt:3), for messages. */
  where: string;
}

/** The options of run gem that a batch passes on to every molecule (no output names: the shard's). */
export type GemBatchSettings = Pick<GemWorkloadOptions, 'surface' | 'probe' | 'density' | 'epsOut' | 'epsIn' | 'salt' | 'projLen' | 'fixA' | 'variant' | 'threads' | 'target' | 'maxMemory' | 'vert'>;

/** A molecule argument: a file, else a bundled molecule's name. */
export function resolveMolecule(arg: string, base = '.'): { pqr: string; bundled: boolean } | undefined {
  const p = isAbsolute(arg) ? arg : resolve(base, arg);
  if (existsSync(p)) return { pqr: p, bundled: false };
  if ((BUNDLED_MOLECULES as readonly string[]).includes(arg)) return { pqr: bundledMolecule(arg as BundledMolecule).pqr, bundled: true };
  return undefined;
}

/** The surface of a molecule as run gem finds it: --vert, else `<name>.vert` beside the .pqr unless a surface is to be generated. */
function surfaceOf(pqr: string, o: GemBatchSettings): string | undefined {
  if (o.vert) return o.vert;
  if (o.surface) return undefined;
  const v = join(dirname(pqr), `${basename(pqr, extname(pqr))}.vert`);
  return existsSync(v) ? v : undefined;
}

/**
 * The molecules of a batch list: one a line (a bundled molecule's name, or a .pqr path relative
 * to the list's folder); blank lines and `#` comments skipped. Two molecules of one name (their
 * outputs would collide) or a line naming nothing are errors naming the line.
 */
export function readGemList(list: string, o: GemBatchSettings = {}): GemBatchMolecule[] {
  if (!existsSync(list)) throw new BatchInputError(`--batch ${list}: file not found`);
  if (o.vert) throw new BatchInputError('--vert names one surface, but --batch lists several molecules (each one\'s .vert lies beside its .pqr, or its surface is generated)');
  const out: GemBatchMolecule[] = [];
  const seen = new Map<string, string>();
  readFileSync(list, 'utf8').split('\n').forEach((raw, i) => {
    const line = raw.replace(/#.*/, '').trim();
    if (line === '') return;
    const where = `${list}:${i + 1}`;
    const m = resolveMolecule(line, dirname(resolve(list)));
    if (!m) throw new BatchInputError(`${where}: ${line}: no such .pqr file (relative paths are read from the list's folder) and not a bundled molecule (${BUNDLED_MOLECULES.join(', ')})`);
    const name = basename(m.pqr, extname(m.pqr));
    if (seen.has(name)) throw new BatchInputError(`${where}: ${line}: a molecule named ${name} is already on ${seen.get(name)} (each molecule's output is <name>.phi)`);
    seen.set(name, where);
    out.push({ index: out.length, name, pqr: m.pqr, vert: surfaceOf(m.pqr, o), where });
  });
  if (out.length === 0) throw new BatchInputError(`--batch ${list}: no molecules (one a line: a bundled name or a .pqr path)`);
  return out;
}

/** What changes the potentials: the settings recorded in the manifest and hashed. */
function resultSettings(o: GemBatchSettings): Record<string, unknown> {
  return { epsOut: o.epsOut, epsIn: o.epsIn, salt: o.salt, projLen: o.projLen, fixA: o.fixA, variant: o.variant, target: o.target, surface: o.surface, probe: o.probe, density: o.density };
}

/** Options of a GEM shard. */
export interface GemShardOptions extends GemBatchSettings {
  /** One molecule (its vertex range is split), a .pqr path or a bundled name; or give `list`. */
  molecule?: string;
  /** A list file (--batch): the molecules are split. */
  list?: string;
  shard: Shard;
  /** The batch's folder (--out-dir). */
  outDir: string;
  /** The command line, for the manifest. */
  command: string[];
  log?: (line: string) => void;
}

/** Run one GEM shard (see the top of this file); returns what runShard returns. */
export async function runGemShard(o: GemShardOptions): Promise<{ status: 'done' | 'finished'; dir: string; manifest: ShardManifest }> {
  const log = o.log ?? (() => {});
  if ((o.molecule === undefined) === (o.list === undefined)) throw new BatchInputError('give one molecule (its vertices are split between the shards) or --batch <list> (its molecules are split), not both');
  const settings = resultSettings(o);
  const pass: GemWorkloadOptions = { epsOut: o.epsOut, epsIn: o.epsIn, salt: o.salt, projLen: o.projLen, fixA: o.fixA, variant: o.variant, threads: o.threads, target: o.target, maxMemory: o.maxMemory, surface: o.surface, probe: o.probe, density: o.density };
  const item = (i: number, name: string, s: Awaited<ReturnType<typeof runGemWorkload>>, seconds: number, file: string, range?: [number, number], total?: number): ShardItem => ({
    index: i,
    name,
    variant: s.variant,
    verification: { ok: s.verification.ok, worst: s.verification.worst, vertices: s.verification.vertices, ...(s.verification.ok ? {} : { detail: s.verification.detail }) },
    seconds,
    files: [file],
    summary: { atoms: s.atoms, vertices: s.vertices, ...(range ? { first: range[0], end: range[1], total: total! } : {}), minPhi: s.minPhi, maxPhi: s.maxPhi, kernelSeconds: s.kernelSeconds, pairsPerSecond: s.pairsPerSecond, variantSource: s.variantSource, device: s.device },
  });
  if (o.list !== undefined) {
    const mols = readGemList(o.list, o);
    const [a, b] = shardRange(mols.length, o.shard);
    const spec: ShardSpec = {
      out: o.outDir, shard: o.shard, work: 'gem', command: o.command,
      inputs: mols.flatMap((m) => [{ name: m.pqr, sha256: sha256File(m.pqr) }, ...(m.vert ? [{ name: m.vert, sha256: sha256File(m.vert) }] : [])]),
      settings: { mode: 'list', molecules: mols.map((m) => m.name), ...settings },
    };
    return runShard(spec, async (dir) => {
      const items: ShardItem[] = [];
      log(`shard ${o.shard.k}/${o.shard.n}: molecules ${a + 1} to ${b} of ${mols.length}${a === b ? ' (none: more shards than molecules)' : `: ${mols.slice(a, b).map((m) => m.name).join(', ')}`}`);
      for (const m of mols.slice(a, b)) {
        const t0 = performance.now();
        const file = `${m.name}.phi`;
        const s = await blame(m.where, () => runGemWorkload({ ...pass, molecule: m.pqr, vert: m.vert, output: join(dir, file) }));
        items.push(item(m.index, m.name, s, (performance.now() - t0) / 1000, file));
        log(`  ${m.name}: ${s.atoms} atoms x ${s.vertices} vertices, ${s.variant}, verified (worst ${s.verification.worst.toPrecision(2)} of tolerance), kernel ${(s.kernelSeconds * 1000).toFixed(1)} ms`);
      }
      return { items };
    }, log);
  }
  const m = resolveMolecule(o.molecule!);
  if (!m) throw new BatchInputError(`molecule not found: ${o.molecule} (a .pqr file or a bundled molecule: ${BUNDLED_MOLECULES.join(', ')})`);
  const name = basename(m.pqr, extname(m.pqr));
  const vert = surfaceOf(m.pqr, o);
  const spec: ShardSpec = {
    out: o.outDir, shard: o.shard, work: 'gem', command: o.command,
    inputs: [{ name: m.pqr, sha256: sha256File(m.pqr) }, ...(vert ? [{ name: vert, sha256: sha256File(vert) }] : [])],
    settings: { mode: 'vertices', molecules: [name], align: GEM_VERTEX_ALIGN, ...settings },
  };
  return runShard(spec, async (dir) => {
    let range: [number, number] = [0, 0];
    let total = 0;
    const file = `${name}.part.phi`;
    const t0 = performance.now();
    const s = await runGemWorkload({
      ...pass, molecule: m.pqr, vert, output: join(dir, file),
      vertexRange: (n) => {
        total = n;
        range = shardRange(n, o.shard, GEM_VERTEX_ALIGN);
        if (range[0] === range[1]) throw new BatchInputError(`--shard ${o.shard.k}/${o.shard.n}: ${name} has ${n} vertices, too few for ${o.shard.n} shards of at least ${GEM_VERTEX_ALIGN} vertices each`);
        log(`shard ${o.shard.k}/${o.shard.n}: ${name}, vertices ${range[0] + 1} to ${range[1]} of ${n}`);
        return range;
      },
    });
    // the range's lines only: gather writes GEM's header once
    const text = readFileSync(join(dir, file), 'utf8');
    writeFileSync(join(dir, file), text.slice(text.indexOf('\n') + 1)); // inside the shard's temporary folder
    log(`  ${name}: ${s.atoms} atoms x ${s.vertices} vertices, ${s.variant}, verified (worst ${s.verification.worst.toPrecision(2)} of tolerance), kernel ${(s.kernelSeconds * 1000).toFixed(1)} ms`);
    return { items: [item(range[0], name, s, (performance.now() - t0) / 1000, file, range, total)] };
  }, log);
}

/** Run `f`; a user error gets `where` (the list's line) in front. */
async function blame<T>(where: string, f: () => Promise<T>): Promise<T> {
  try {
    return await f();
  } catch (e) {
    if (e instanceof UserError) throw new UserError(`${where}: ${e.message}`, { cause: e });
    throw e;
  }
}
