// Shard arithmetic (issue 17): which part of a batch shard K of N does. Portable (no Node
// module): the split is pure arithmetic, so every node of a cluster computes the same parts.
//   - `K/N` is 0-based: shard 0/4 is the first of four, 3/4 the last (Slurm's
//     $SLURM_ARRAY_TASK_ID and Kubernetes' $JOB_COMPLETION_INDEX count from 0 too).
//   - A list of `total` items (molecules, replicas, candidates, vertices) is split into N
//     contiguous ranges whose sizes differ by at most one unit of `align` items; shard K takes the
//     K-th. The ranges cover every item once, in order, whatever N is; with more shards than
//     items some shards are empty (they still finish, with nothing to do).
//   - A replica's seed depends on (base seed, replica index) only, never on N: replica 7 gets
//     the same seed whether it runs in shard 1/2 or 3/8.
import { KernforgeError } from '../errors.ts';

/** Shard K of N (0 <= K < N). */
export interface Shard {
  /** 0-based index of this shard. */
  k: number;
  /** Number of shards. */
  n: number;
}

/** A bad --shard / --shards value or a batch that cannot be split as asked; the message names the option. */
export class BatchInputError extends KernforgeError {}

/** The largest shard count kernforge accepts (Slurm's default MaxArraySize is 1001). */
export const MAX_SHARDS = 100000;

const INT = /^(0|[1-9][0-9]*)$/;

/** Parse `K/N` (e.g. "3/8"); `what` names the option in the message. Throws BatchInputError. */
export function parseShard(text: string, what = '--shard'): Shard {
  const m = /^\s*([^/\s]+)\s*\/\s*([^/\s]+)\s*$/.exec(text);
  if (!m) throw new BatchInputError(`${what} ${JSON.stringify(text)}: expected K/N, shard K (0-based) of N, e.g. 0/4`);
  const [, ks, ns] = m;
  if (!INT.test(ns!)) throw new BatchInputError(`${what} ${text}: N must be a whole number from 1 to ${MAX_SHARDS}, got "${ns}"`);
  const n = Number(ns);
  if (n < 1 || n > MAX_SHARDS) throw new BatchInputError(`${what} ${text}: N must be a whole number from 1 to ${MAX_SHARDS}, got ${n}`);
  if (!INT.test(ks!)) throw new BatchInputError(`${what} ${text}: K must be a whole number from 0 to ${n - 1} (0-based), got "${ks}"`);
  const k = Number(ks);
  if (k >= n) throw new BatchInputError(`${what} ${text}: K must be from 0 to ${n - 1} (shards count from 0), got ${k}`);
  return { k, n };
}

/** Parse a shard count (--shards N). */
export function parseShardCount(text: string, what = '--shards'): number {
  const t = text.trim();
  if (!INT.test(t) || Number(t) < 1 || Number(t) > MAX_SHARDS) throw new BatchInputError(`${what} ${JSON.stringify(text)}: must be a whole number from 1 to ${MAX_SHARDS}`);
  return Number(t);
}

/**
 * The items [start, end) of shard `s` among `total` items: N contiguous ranges in order, sizes
 * differing by at most one unit of `align` items (the last range takes the remainder of the last
 * unit). Boundaries fall on multiples of `align` (e.g. a GEM variant's vertices per iteration).
 */
export function shardRange(total: number, s: Shard, align = 1): [number, number] {
  if (!(Number.isInteger(total) && total >= 0)) throw new RangeError(`shardRange: total ${total}`);
  if (!(Number.isInteger(align) && align >= 1)) throw new RangeError(`shardRange: align ${align}`);
  const units = Math.ceil(total / align);
  const at = (k: number) => Math.min(total, Math.floor((units * k) / s.n) * align);
  return [at(s.k), s.k === s.n - 1 ? total : at(s.k + 1)];
}

/** The folder name of a shard under `<out>/shards/`: `K-of-N`. */
export function shardName(s: Shard): string {
  return `${s.k}-of-${s.n}`;
}

/** The shard a folder name `K-of-N` stands for, or undefined when the name is not one. */
export function parseShardName(name: string): Shard | undefined {
  const m = /^(0|[1-9][0-9]*)-of-([1-9][0-9]*)$/.exec(name);
  if (!m) return undefined;
  const k = Number(m[1]);
  const n = Number(m[2]);
  return k < n ? { k, n } : undefined;
}

/** Murmur3's 32-bit finaliser: a bijection of 32-bit integers that mixes every bit. */
function fmix32(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/**
 * The seed of replica `index` of a run with base seed `base`: a function of the two only (not of
 * the shard), an integer from 1 to 2147483646 (the range of the MD engine's generator).
 */
export function replicaSeed(base: number, index: number): number {
  if (!Number.isInteger(base) || !Number.isInteger(index) || index < 0) throw new RangeError(`replicaSeed(${base}, ${index})`);
  const lo = base >>> 0;
  const hi = Math.floor(base / 2 ** 32) >>> 0;
  const h = fmix32(fmix32(lo ^ 0x9e3779b9) ^ fmix32(hi + 0x7f4a7c15) ^ fmix32(Math.imul(index + 1, 0x27d4eb2f)));
  return (h % 2147483646) + 1;
}
