// Thread count as a tuned choice. A family that can split a problem over worker threads says
// which counts make sense for a key on a device (TuningFamily.threadCounts); the tuner then
// treats (variant, threads) as one candidate, named `<key>@<n>t` for n > 1 (the plain key is one
// thread, so caches from before threads were tuned stay valid). Strategies see `threads` as one
// more tuning axis; the tuned artefact stores the key and the count apart.
import { keyTarget } from '../keys.ts';
import { backends } from '../backends/registry.ts';
import { platform } from '../platform.ts';

const SUFFIX = /@(\d+)t$/;

/** The candidate id of a key run on `threads` threads. */
export function candidateId(key: string, threads = 1): string {
  return threads > 1 ? `${key}@${threads}t` : key;
}

/** The variant key and thread count of a candidate id. */
export function splitCandidate(id: string): { key: string; threads: number } {
  const m = SUFFIX.exec(id);
  return m ? { key: id.slice(0, m.index), threads: Number(m[1]) } : { key: id, threads: 1 };
}

/**
 * Thread counts worth trying on `cores` cores: 1, the powers of two below, and the core count
 * itself (1, 2 on two cores; 1, 2, 4, 6 on six).
 */
export function threadLadder(cores: number): number[] {
  const out = new Set<number>([1]);
  for (let t = 2; t < cores; t *= 2) out.add(t);
  if (cores > 1) out.add(cores);
  return [...out];
}

/** Whether a target's runners split their work over CPU worker threads (its backend says: ts, wasm). */
const threaded = (target: string): boolean => backends().some((b) => b.target === target && b.threaded);

/**
 * Thread counts for a key on a device when the family splits work over CPU worker threads for
 * some targets: the ladder up to the core count on the CPU for those targets (where the platform
 * has worker threads), else one.
 */
export function cpuThreadCounts(key: string, device: { id: string; details: Record<string, unknown> }): number[] {
  // a platform without worker threads (a page without its worker script) runs one
  if (device.id !== 'cpu' || !threaded(keyTarget(key)) || !platform().worker) return [1];
  const cores = Number(device.details.cores) || 1;
  return threadLadder(cores);
}

/** Worker pools per thread count, started on first use and closed together (for a prepared problem). */
export class PoolsByThreads {
  private pools = new Map<number, Promise<import('../parallel/pool.ts').Pool>>();

  /** The pool of `threads` workers (threads >= 2). */
  get(threads: number): Promise<import('../parallel/pool.ts').Pool> {
    let p = this.pools.get(threads);
    if (!p) {
      p = import('../parallel/pool.ts').then(({ Pool }) => Pool.create(threads));
      this.pools.set(threads, p);
    }
    return p;
  }

  async close(): Promise<void> {
    const all = [...this.pools.values()];
    this.pools.clear();
    for (const p of all) await (await p.catch(() => undefined))?.close();
  }
}
