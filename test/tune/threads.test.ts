// Thread count as a tuned choice: (key, threads) candidates, `threads` as an axis, one
// verification per key, the count stored in the artefact apart from the key and returned by
// loadTuned, and --threads restricting the counts.
import { describe, it, expect } from 'vitest';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { tune, TuneOptionsError } from '../../runtime/tune/tuner.ts';
import { createProgress } from '../../runtime/tune/progress.ts';
import { loadTuned } from '../../runtime/tune/tuned.ts';
import { candidateId, splitCandidate, threadLadder, cpuThreadCounts } from '../../runtime/tune/threads.ts';
import { cpuDevice } from '../../runtime/tune/devices.ts';
import type { CacheFile } from '../../runtime/tune/cache.ts';
import { verified } from './fake-threads.ts';

process.env.KERNFORGE_TUNE_FAMILIES = new URL('./fake-threads.ts', import.meta.url).pathname;
const quiet = { log: () => {}, progress: createProgress({ quiet: true }) };
const NO_GPUJS = { modes: [], unavailable: {} };

describe('candidate ids and thread ladders', () => {
  it('round-trips keys and counts; one thread is the plain key', () => {
    expect(candidateId('a.ts.x', 1)).toBe('a.ts.x');
    expect(candidateId('a.ts.x', 2)).toBe('a.ts.x@2t');
    expect(splitCandidate('a.ts.x@12t')).toEqual({ key: 'a.ts.x', threads: 12 });
    expect(splitCandidate('a.ts.x')).toEqual({ key: 'a.ts.x', threads: 1 });
  });
  it('tries 1, the powers of two below the cores, and the core count', () => {
    expect(threadLadder(1)).toEqual([1]);
    expect(threadLadder(2)).toEqual([1, 2]);
    expect(threadLadder(6)).toEqual([1, 2, 4, 6]);
    expect(threadLadder(8)).toEqual([1, 2, 4, 8]);
    const cpu = { id: 'cpu', details: { cores: 6 } };
    expect(cpuThreadCounts('f.ts.k', cpu)).toEqual([1, 2, 4, 6]);
    expect(cpuThreadCounts('f.wasm.k', cpu)).toEqual([1, 2, 4, 6]);
    expect(cpuThreadCounts('f.gpujs.k', cpu)).toEqual([1]);
    expect(cpuThreadCounts('f.wgsl.k', { id: 'webgpu', details: {} })).toEqual([1]);
  });
});

describe('tuning the thread count (synthetic family)', () => {
  it('tunes (key, threads) pairs, verifies each key once, stores the count apart from the key', async () => {
    const d = mkdtempSync(join(tmpdir(), 'kf-tune-threads-'));
    const out = join(d, 'tuned.json');
    verified.clear();
    const r = await tune({ families: ['fakethr'], cache: d, out, reps: 2, gpujs: NO_GPUJS, ...quiet });
    const row = r.rows[0]!;
    expect(row.candidates).toBe(7); // v0, v1 at 1, 2, 4 threads; v2 at 1
    expect(row.bestKey).toBe('fakethr.ts.v1@2t'); // 2 / 1.8
    expect(row.bestMs).toBeCloseTo(2 / 1.8, 12);
    expect(row.speedup).toBeCloseTo(3 / (2 / 1.8), 12); // against the default v0 on one thread
    expect([...verified.values()]).toEqual([1, 1, 1]);
    const c = JSON.parse(readFileSync(join(d, `${cpuDevice().fingerprint}.json`), 'utf8')) as CacheFile;
    expect(c.results['fakethr|p|fakethr.ts.v1@4t']!.params).toEqual({ v: 1, threads: 4 });
    expect(c.results['fakethr|p|fakethr.ts.v1@4t']!.medianMs).toBeCloseTo(2 / 1.5, 12);
    const art = JSON.parse(readFileSync(out, 'utf8'));
    expect(art.tuned[cpuDevice().fingerprint].fakethr.p).toMatchObject({ key: 'fakethr.ts.v1', threads: 2 });
    expect(await loadTuned('fakethr', 'p', { path: out, load: false })).toMatchObject({ key: 'fakethr.ts.v1', threads: 2, tuned: true });
  });

  it('--threads restricts the counts (1: single-thread tuning), and rejects counts that are not positive integers', async () => {
    const d = mkdtempSync(join(tmpdir(), 'kf-tune-threads1-'));
    const out = join(d, 'tuned.json');
    const r = await tune({ families: ['fakethr'], cache: d, out, reps: 2, threads: [1], gpujs: NO_GPUJS, ...quiet });
    expect(r.rows[0]!.candidates).toBe(3);
    expect(r.rows[0]!.bestKey).toBe('fakethr.ts.v1');
    expect(await loadTuned('fakethr', 'p', { path: out, load: false })).toMatchObject({ key: 'fakethr.ts.v1', threads: 1 });
    await expect(tune({ families: ['fakethr'], cache: d, out: false, threads: [0], ...quiet })).rejects.toThrow(TuneOptionsError);
  });
});
