// Tuning shards (issue 17; Node only): `kernforge tune --shard K/N` measures shard K's part of
// every problem's candidate set (the candidates in the family's order, split contiguous and
// balanced: runtime/batch/shard.ts), for a fleet of identical nodes. Each shard tunes with its own
// cache and artefact inside its folder (the tuner verifies every candidate before timing it, as
// always); the manifest records the fingerprint of every device tuned. `kernforge gather` refuses
// shards measured on devices of other fingerprints and merges the caches into one
// (runtime/batch/gather.ts); `kernforge tune --cache <merged>` on a node of that kind then writes
// the winners without measuring again.
import { join } from 'node:path';
import { tune, type TuneOptions, type TuneOutcome } from '../tune/tuner.ts';
import { BatchInputError, shardRange, type Shard } from './shard.ts';
import { runShard, type ShardSpec } from './store.ts';
import type { ShardItem, ShardManifest } from './manifest.ts';

/** The options of a tuning shard: tune()'s, less the files (the shard's), and the batch's. */
export interface TuneShardOptions extends Omit<TuneOptions, 'cache' | 'out' | 'candidateFilter' | 'remeasure' | 'retryFailed'> {
  shard: Shard;
  outDir: string;
  command: string[];
  log?: (line: string) => void;
}

/** A tuning shard's cache file (one device per batch). */
export const SHARD_CACHE = 'tune-cache.json';
/** The tuned artefact inside a tuning shard. */
export const SHARD_TUNED = 'kernforge-tuned.json';

/** Run one tuning shard; returns what runShard returns and the tuner's outcome (undefined when already finished). */
export async function runTuneShard(o: TuneShardOptions): Promise<{ status: 'done' | 'finished'; dir: string; manifest: ShardManifest; outcome?: TuneOutcome }> {
  const { shard, outDir, command, log: userLog, signal: _s, progress, ...rest } = o;
  void _s;
  const log = userLog ?? (() => {});
  if ((rest.devices ?? ['cpu']).length !== 1) throw new BatchInputError('a tuning batch tunes one device kind: give --device cpu or --device webgpu (each kind is a fleet of its own)');
  const settings: Record<string, unknown> = {
    families: rest.families, devices: rest.devices, strategy: rest.strategy, space: rest.space, maxEvals: rest.maxEvals, problems: rest.problems,
    seed: rest.seed, reps: rest.reps, warmup: rest.warmup, threads: rest.threads, timeLimitS: rest.timeLimitS,
  };
  const spec: ShardSpec = { out: outDir, shard, work: 'tune', command, inputs: [], settings };
  let outcome: TuneOutcome | undefined;
  const r = await runShard(spec, async (dir) => {
    outcome = await tune({
      ...rest,
      progress,
      signal: o.signal,
      cache: join(dir, SHARD_CACHE),
      out: join(dir, SHARD_TUNED),
      log,
      candidateFilter: (c) => {
        const [a, b] = shardRange(c.length, shard);
        return c.slice(a, b);
      },
    });
    if (outcome.interrupted || outcome.timeLimited) throw new Error(`tuning shard ${shard.k}/${shard.n} was ${outcome.interrupted ? 'interrupted' : 'stopped by --time-limit'} before it measured its part; not finished`);
    const fps = [...new Set(outcome.rows.map((row) => row.fingerprint))].sort();
    const items: ShardItem[] = outcome.rows.map((row, i) => ({
      index: i,
      name: `${row.device} ${row.family} ${row.problem}`,
      ...(row.chosenKey ? { variant: row.chosenKey } : {}),
      verification: { ok: true, detail: `every candidate verified before it was timed; ${row.failed} failed (recorded, never chosen)` },
      seconds: 0,
      files: [],
      summary: { candidates: row.candidates, measured: row.measured, cached: row.cached, failed: row.failed, ...(row.bestMs !== undefined ? { bestMs: row.bestMs } : {}) },
    }));
    return { items, device: { fingerprint: fps.join('+') || 'none', name: rest.devices?.[0] ?? 'cpu' } };
  }, log);
  return { ...r, outcome };
}
