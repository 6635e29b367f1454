// Thread count as a tuned choice. A family that can split a problem over worker threads says
// which counts make sense for a key on a device (TuningFamily.threadCounts); the tuner then
// treats (variant, threads) as one candidate, named `<key>@<n>t` for n > 1 (the plain key is one
// thread, so caches from before threads were tuned stay valid). Strategies see `threads` as one
// more tuning axis; the tuned artefact stores the key and the count apart.

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
