// MD replica shards (issue 17; Node only): `kernforge run md --replicas R --shard K/N` runs the
// replicas of shard K (contiguous, balanced: runtime/batch/shard.ts), replica i with the seed
// replicaSeed(--seed, i) (a function of the base seed and i only, whatever N), each through the MD
// workload (runtime/md/workload.ts runMdWorkload) with its output files off, and writes a small
// summary per replica, `replica-<i>.json`: the seed, the final thermo row, the drift and the
// speed. The variants the replicas ran are checked against the f64 reference by the family's gate
// (the md-nonbonded verification cases) once per shard; the outcome is in the manifest.
// `kernforge gather` makes one table of every replica (runtime/batch/gather.ts).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { writeOutput } from '../output.ts';
import { runMdWorkload, type RunMdOptions } from '../md/workload.ts';
import { BatchInputError, replicaSeed, shardRange, type Shard } from './shard.ts';
import { runShard, sha256File, type ShardSpec } from './store.ts';
import type { ItemVerification, ShardItem, ShardManifest } from './manifest.ts';

/** The most replicas one batch may have. */
export const MAX_REPLICAS = 1_000_000;

/** A replica's summary file (`replica-<i>.json`). */
export interface ReplicaSummary {
  replica: number;
  seed: number;
  steps: number;
  atoms: number;
  variant: string;
  /** The last thermo row (temperature, energies, pressure; kJ/mol, K, bar or LJ units). */
  final: { step: number; T: number; epot: number; ekin: number; etot: number; conserved: number; P: number } | null;
  /** Drift of the conserved energy per atom per time unit. */
  drift: number;
  stepsPerSecond: number;
}

/** Options of an MD replica shard: run md's options (no output files) and the batch's. */
export interface MdShardOptions extends Omit<RunMdOptions, 'traj' | 'confout' | 'stateOut' | 'log' | 'seed'> {
  replicas: number;
  /** Base seed (default 1). */
  seed?: number;
  shard: Shard;
  outDir: string;
  command: string[];
  log?: (line: string) => void;
}

/** Run the replicas of one shard; returns what runShard returns. */
export async function runMdShard(o: MdShardOptions): Promise<{ status: 'done' | 'finished'; dir: string; manifest: ShardManifest }> {
  const log = o.log ?? (() => {});
  if (!(Number.isInteger(o.replicas) && o.replicas >= 1 && o.replicas <= MAX_REPLICAS)) throw new BatchInputError(`--replicas ${o.replicas}: must be a whole number from 1 to ${MAX_REPLICAS}`);
  const base = o.seed ?? 1;
  if (!Number.isInteger(base)) throw new BatchInputError(`--seed ${o.seed}: must be an integer`);
  const { replicas, shard, outDir, command, log: _l, ...md } = o;
  void _l;
  const files = [o.gro, o.state].filter((f): f is string => f !== undefined);
  for (const f of files) if (!existsSync(f)) throw new BatchInputError(`${f}: file not found`);
  // everything of run md but threads and the memory limit changes the trajectories
  const settings: Record<string, unknown> = { ...md, replicas, seed: base, threads: undefined, maxMemory: undefined, gro: undefined, state: undefined };
  const spec: ShardSpec = { out: outDir, shard, work: 'md', command, inputs: files.map((f) => ({ name: f, sha256: sha256File(f) })), settings };
  const [a, b] = shardRange(replicas, shard);
  return runShard(spec, async (dir) => {
    log(`shard ${shard.k}/${shard.n}: replicas ${a} to ${b - 1} of ${replicas} (0-based)${a === b ? ' (none: more shards than replicas)' : ''}`);
    const items: ShardItem[] = [];
    const verified = new Map<string, ItemVerification>();
    const { tuningFamily } = await import('../tune/families/index.ts');
    const family = await tuningFamily('md-nonbonded');
    for (let i = a; i < b; i++) {
      const seed = replicaSeed(base, i);
      const t0 = performance.now();
      const s = await runMdWorkload({ ...md, seed });
      const run = s.prepared.run;
      for (const key of new Set([run.keyF, run.keyE])) {
        if (verified.has(key)) continue;
        const v = family?.verifyKey ? await family.verifyKey(key) : { ok: false, detail: 'md-nonbonded has no verification gate' };
        verified.set(key, { ok: v.ok, worst: v.error, detail: v.ok ? `${key}: the md-nonbonded verification cases` : `${key}: ${v.detail ?? 'does not match the f64 reference'}` });
      }
      const vs = [...new Set([run.keyF, run.keyE])].map((k) => verified.get(k)!);
      const last = s.outcome.thermo.at(-1);
      const sum: ReplicaSummary = {
        replica: i, seed, steps: s.outcome.steps, atoms: run.mass.length, variant: run.keyF,
        final: last ? { step: last.step, T: last.T, epot: last.epot, ekin: last.ekin, etot: last.etot, conserved: last.conserved, P: last.P } : null,
        drift: s.drift, stepsPerSecond: s.stepsPerSecond,
      };
      const file = `replica-${i}.json`;
      writeOutput(join(dir, file), `${JSON.stringify(sum, null, 1)}\n`);
      items.push({
        index: i, name: `replica ${i}`, variant: run.keyF,
        verification: { ok: vs.every((v) => v.ok), worst: Math.max(...vs.map((v) => v.worst ?? 0)), detail: vs.map((v) => v.detail).join('; ') },
        seconds: (performance.now() - t0) / 1000, files: [file],
        summary: { seed, T: last?.T ?? NaN, etot: last?.etot ?? NaN, drift: s.drift },
      });
      log(`  replica ${i} (seed ${seed}): ${s.outcome.steps} steps, T ${last ? last.T.toPrecision(6) : '-'}, Etot ${last ? last.etot.toPrecision(8) : '-'}, ${s.stepsPerSecond.toFixed(1)} steps/s`);
    }
    return { items };
  }, log);
}
