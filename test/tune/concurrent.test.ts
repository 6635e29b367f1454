// Concurrent tuners on one cache (issue 13, class 3). The choice: every write of the cache (and
// of the tuned artefact) is a read-merge-write under a lock file `<file>.lock`, with stale-lock
// detection, rather than per-process journals merged later. What these tests hold it to:
//   - two `kernforge tune` processes on one cache at the same time (distinct problems, or the
//     same problem with overlapping candidates): afterwards every measurement of both is in the
//     cache, every run is there, and the tuned artefact has both winners;
//   - the cache stays one file that every reader reads as before: after the concurrent runs the
//     folder holds the cache and the artefact only (no journal to merge, no lock left), and a
//     third tuner finds everything in it (a warm cache) - the reason to prefer the lock;
//   - a tuner killed with SIGKILL next to a running one loses at most its measurement in flight,
//     and the other is not blocked;
//   - a stale lock left by a killed process is taken over at once, with one line saying so; a
//     lock whose holder lives is waited for, taken over after staleMs, and a wait that never
//     ends is an Error after maxWaitMs;
//   - TuneCache merges: the later measurement of a key wins whoever writes last; runs are unioned.
import { describe, it, expect } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { cpuDevice } from '../../runtime/tune/devices.ts';
import { TuneCache, resultId, validateCache, type CacheFile, type CacheResult } from '../../runtime/tune/cache.ts';
import { withLockFile } from '../../runtime/platform/lock.ts';

const CLI = new URL('../../cli/kernforge.mjs', import.meta.url).pathname;
const HOLDER = new URL('./hold-lock.ts', import.meta.url).pathname;
const fp = cpuDevice().fingerprint;
const envWith = (delayMs: number) => ({ ...process.env, KERNFORGE_TUNE_FAMILIES: new URL('./fake-family.ts', import.meta.url).pathname, FAKE_TUNE_DELAY_MS: String(delayMs), CI: 'true' });

interface Done {
  code: number | null;
  out: string;
  err: string;
}

function cli(args: string[], delayMs = 40): { child: ChildProcess; done: Promise<Done> } {
  const child = spawn(process.execPath, [CLI, ...args], { env: envWith(delayMs), stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout!.on('data', (b) => (out += b));
  child.stderr!.on('data', (b) => (err += b));
  const done = new Promise<Done>((r) => child.on('exit', (code) => r({ code, out, err })));
  return { child, done };
}

const readCache = (file: string): CacheFile => JSON.parse(readFileSync(file, 'utf8')) as CacheFile;
const count = (file: string, problem: string): number => {
  try {
    return Object.values(readCache(file).results).filter((r) => r.problem === problem).length;
  } catch {
    return 0; // not written yet
  }
};

function setup(prefix: string) {
  const d = mkdtempSync(join(tmpdir(), prefix));
  const out = join(d, 'tuned.json');
  return { d, file: join(d, `${fp}.json`), out, base: ['tune', 'fake', '--cache', d, '--out', out, '--reps', '3', '--progress-every', '100'] };
}

/** A process holding the lock file `path` (test/tune/hold-lock.ts) until killed; resolves once it holds it. */
async function holder(path: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', HOLDER, path, '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (b) => String(b).startsWith('held') && resolve());
    child.on('exit', (c) => reject(new Error(`the lock holder exited with ${c}`)));
  });
  return child;
}

const killed = (c: ChildProcess) => new Promise<void>((r) => {
  c.on('exit', () => r());
  c.kill('SIGKILL');
});

/** Every evaluation of every run is in the results, with the time the run recorded. */
function everyEvaluationKept(c: CacheFile): void {
  for (const run of c.runs) {
    for (const e of run.evaluations) {
      const r = c.results[resultId(run.family, run.problem, e.key)];
      expect(r, `${run.id}: ${e.key}`).toBeDefined();
      expect(r!.status === 'ok' ? r!.medianMs : null).toBe(e.medianMs);
    }
  }
}

describe('two kernforge tune processes on one cache', () => {
  it('distinct problems at the same time: every measurement of both is kept, and both winners', async () => {
    const { d, file, out, base } = setup('kf-conc-');
    const a = cli([...base, '--problem', 'tiny']);
    const b = cli([...base, '--problem', 'tiny-quick']);
    const [ra, rb] = await Promise.all([a.done, b.done]);
    expect(ra.code, ra.err).toBe(0);
    expect(rb.code, rb.err).toBe(0);
    expect(ra.out).toMatch(/16 new measurement\(s\), 0 from the cache, 1 failed/);
    expect(rb.out).toMatch(/16 new measurement\(s\), 0 from the cache, 1 failed/);
    const c = readCache(file);
    expect(validateCache(c)).toBeUndefined();
    expect(Object.values(c.results).filter((r) => r.problem === 'tiny')).toHaveLength(16);
    expect(Object.values(c.results).filter((r) => r.problem === 'tiny-quick')).toHaveLength(16);
    expect(c.runs.map((r) => r.problem).sort()).toEqual(['tiny', 'tiny-quick']);
    for (const run of c.runs) {
      expect(run.finished).toBeDefined();
      expect(run.evaluations).toHaveLength(16);
    }
    // they did run at the same time
    const [r1, r2] = c.runs as [CacheFile['runs'][0], CacheFile['runs'][0]];
    expect(Date.parse(r1.started) < Date.parse(r2.finished!) && Date.parse(r2.started) < Date.parse(r1.finished!)).toBe(true);
    everyEvaluationKept(c);
    const art = JSON.parse(readFileSync(out, 'utf8'));
    expect(art.tuned[fp].fake.tiny.key).toBe('fake.ts.a2.b1');
    expect(art.tuned[fp].fake['tiny-quick'].key).toBe('fake.ts.a2.b1');
    // one file, read as before: no journal, no lock left, no temporary file
    expect(readdirSync(d).sort()).toEqual([`${fp}.json`, 'tuned.json'].sort());
    // and a third tuner finds everything in it
    const warm = await cli([...base, '--problem', 'tiny,tiny-quick'], 0).done;
    expect(warm.code, warm.err).toBe(0);
    expect(warm.out).toMatch(/warm cache: all 32 evaluations came from the cache, 0 new measurements/);
  });

  it('the same problem with overlapping candidates (two random searches): the union of both is kept', async () => {
    const { d, file, base } = setup('kf-conc-same-');
    const search = [...base, '--problem', 'tiny', '--strategy', 'random', '--max-evals', '8'];
    const [ra, rb] = await Promise.all([cli([...search, '--seed', '1']).done, cli([...search, '--seed', '2']).done]);
    expect(ra.code, ra.err).toBe(0);
    expect(rb.code, rb.err).toBe(0);
    const c = readCache(file);
    expect(validateCache(c)).toBeUndefined();
    expect(c.runs.map((r) => r.seed).sort()).toEqual([1, 2]);
    for (const run of c.runs) expect(run.evaluations).toHaveLength(8);
    const evaluated = new Set(['fake.ts.a3.b3', ...c.runs.flatMap((r) => r.evaluations.map((e) => e.key))]); // the default, then both searches
    expect(Object.keys(c.results).sort()).toEqual([...evaluated].map((k) => resultId('fake', 'tiny', k)).sort());
    expect(evaluated.size).toBeGreaterThan(9); // the searches overlap only in part
    everyEvaluationKept(c);
    expect(readdirSync(d).sort()).toEqual([`${fp}.json`, 'tuned.json'].sort());
  });

  it('kill -9 of one tuner mid-run: the other finishes unblocked; the killed one loses at most its measurement in flight', async () => {
    const { d, file, base } = setup('kf-conc-kill-');
    const a = cli([...base, '--problem', 'tiny'], 60);
    const b = cli([...base, '--problem', 'tiny-quick'], 60);
    let seen = 0;
    for (let i = 0; i < 800 && seen < 4; i++) {
      await new Promise((r) => setTimeout(r, 25));
      seen = Math.max(seen, count(file, 'tiny'));
    }
    expect(seen).toBeGreaterThanOrEqual(4);
    a.child.kill('SIGKILL');
    const [ra, rb] = await Promise.all([a.done, b.done]);
    expect(ra.code).toBe(null); // killed
    expect(rb.code, rb.err).toBe(0);
    const c = readCache(file);
    expect(validateCache(c)).toBeUndefined();
    expect(Object.values(c.results).filter((r) => r.problem === 'tiny-quick')).toHaveLength(16);
    const kept = Object.values(c.results).filter((r) => r.problem === 'tiny').length;
    expect(kept).toBeGreaterThanOrEqual(seen);
    everyEvaluationKept(c);
    expect(existsSync(`${file}.lock`)).toBe(false);
    // the killed tuner's command again: what it measured is reused, the rest measured
    const again = await cli([...base, '--problem', 'tiny'], 0).done;
    expect(again.code, again.err).toBe(0);
    if (kept < 16) expect(again.out).toMatch(new RegExp(`${16 - kept} new measurement\\(s\\), ${kept} from the cache`));
    expect(Object.values(readCache(file).results).filter((r) => r.problem === 'tiny')).toHaveLength(16);
    expect(readdirSync(d).filter((f) => f.endsWith('.lock'))).toEqual([]);
  });

  it('a stale lock left by a killed process (cache and artefact) is taken over at once, with one line each', async () => {
    const { d, file, out, base } = setup('kf-conc-stale-');
    const h1 = await holder(`${file}.lock`);
    const h2 = await holder(`${out}.lock`);
    await killed(h1);
    await killed(h2);
    expect(existsSync(`${file}.lock`) && existsSync(`${out}.lock`)).toBe(true);
    const t0 = Date.now();
    const r = await cli([...base, '--problem', 'tiny-quick'], 0).done;
    expect(r.code, r.err).toBe(0);
    expect(Date.now() - t0).toBeLessThan(30_000);
    const lines = r.err.split('\n');
    expect(lines).toContain(`took over the stale lock ${file}.lock: its process ${h1.pid} is no longer running`);
    expect(lines).toContain(`kernforge: took over the stale lock ${out}.lock: its process ${h2.pid} is no longer running`);
    expect(Object.keys(readCache(file).results)).toHaveLength(16);
    expect(readdirSync(d).sort()).toEqual([`${fp}.json`, 'tuned.json'].sort());
  });
});

describe('a lock that cannot be taken', () => {
  it('a folder where the lock file goes: one line, exit 2, nothing measured or written', async () => {
    const { d, file, base } = setup('kf-conc-dir-');
    mkdirSync(`${file}.lock`);
    const r = await cli([...base, '--problem', 'tiny-quick'], 0).done;
    expect(r.code).toBe(2);
    expect(r.err.trim().split('\n').at(-1)).toBe(`kernforge: error: ${file}.lock is not a lock file but a folder: move it away (the lock is taken by creating a file there)`);
    expect(r.err).not.toMatch(/\n\s+at /);
    expect(readdirSync(d)).toEqual([`${fp}.json.lock`]);
  });
});

describe('the lock file (Node platform)', () => {
  const lockIn = (prefix: string) => join(mkdtempSync(join(tmpdir(), prefix)), 'x.json.lock');

  it('waits while a live process holds it, and takes it when that one releases it', async () => {
    const path = lockIn('kf-lock-wait-');
    const child = spawn(process.execPath, ['--import', 'tsx', HOLDER, path, '700'], { stdio: ['ignore', 'pipe', 'inherit'] });
    await new Promise<void>((r) => child.stdout!.on('data', () => r()));
    const t0 = Date.now();
    const notes: string[] = [];
    const v = withLockFile(path, (lock) => (lock.held() ? 'mine' : 'lost'), { onTakeover: (l) => notes.push(l) });
    expect(v).toBe('mine');
    expect(Date.now() - t0).toBeGreaterThan(300);
    expect(notes).toEqual([]);
    expect(existsSync(path)).toBe(false);
  });

  it('takes over a live holder after staleMs, and gives up after maxWaitMs with one line', async () => {
    const path = lockIn('kf-lock-old-');
    const h = await holder(path);
    try {
      expect(() => withLockFile(path, () => 1, { staleMs: 60_000, maxWaitMs: 300 })).toThrow(
        `could not take the lock ${path} in 0.3 s: other processes kept it (last process ${h.pid} on ${hostname()}); if none is running, remove the file`,
      );
      const notes: string[] = [];
      expect(withLockFile(path, () => 2, { staleMs: 400, onTakeover: (l) => notes.push(l) })).toBe(2);
      expect(notes).toHaveLength(1);
      expect(notes[0]).toMatch(new RegExp(`^took over the stale lock ${path}: process ${h.pid} on ${hostname()} has held it for \\d+\\.\\d s, longer than the 0\\.4 s a write takes at most$`));
    } finally {
      await killed(h);
    }
  });

  it('takes over an empty lock older than a second (a holder killed before it wrote into it)', () => {
    const path = lockIn('kf-lock-empty-');
    writeFileSync(path, '');
    const old = (Date.now() - 100_000) / 1000;
    utimesSync(path, old, old);
    const notes: string[] = [];
    expect(withLockFile(path, () => 'ok', { onTakeover: (l) => notes.push(l) })).toBe('ok');
    expect(notes).toEqual([`took over the stale lock ${path}: it is empty or unreadable and 100.0 s old (its holder was killed while taking it)`]);
  });

  it('held() turns false when another process took the lock over, and the other lock is then left alone', () => {
    const path = lockIn('kf-lock-held-');
    withLockFile(path, (lock) => {
      expect(lock.held()).toBe(true);
      writeFileSync(path, JSON.stringify({ pid: 1, host: 'elsewhere', token: 'theirs' }));
      expect(lock.held()).toBe(false);
    });
    expect(JSON.parse(readFileSync(path, 'utf8')).token).toBe('theirs');
  });
});

describe('TuneCache merges what other writers left', () => {
  const device = { fingerprint: '0123456789abcdef', id: 'cpu' as const, target: 'ts' as const, name: 'test CPU', details: {} };
  const result = (key: string, medianMs: number, at: string): CacheResult => ({ family: 'f', problem: 'p', key, status: 'ok', medianMs, params: {}, at });

  it('two caches open on one file: both keep every result and run; the later measurement of a key wins whoever writes last', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'kf-merge-')), 'c.json');
    const a = TuneCache.open(device, file);
    const b = TuneCache.open(device, file);
    const runA = a.startRun({ family: 'f', problem: 'p', strategy: 'exhaustive', seed: 1, maxEvals: 3 });
    const runB = b.startRun({ family: 'f', problem: 'p', strategy: 'random', seed: 2, maxEvals: 3 });
    a.put(result('k1', 1, '2026-01-01T00:00:01.000Z'));
    a.addEvaluation(runA, 'k1', 1);
    b.put(result('k2', 2, '2026-01-01T00:00:02.000Z'));
    b.addEvaluation(runB, 'k2', 2);
    expect(b.get('f', 'p', 'k1')?.medianMs).toBe(1); // b sees a's measurement after its write
    a.put(result('k3', 3, '2026-01-01T00:00:05.000Z')); // a's later measurement of k3 ...
    b.put(result('k3', 30, '2026-01-01T00:00:04.000Z')); // ... beats b's earlier one written after it
    a.finishRun(runA);
    b.finishRun(runB);
    const c = JSON.parse(readFileSync(file, 'utf8')) as CacheFile;
    expect(validateCache(c)).toBeUndefined();
    expect(Object.fromEntries(Object.values(c.results).map((r) => [r.key, r.medianMs]))).toEqual({ k1: 1, k2: 2, k3: 3 });
    expect(c.runs.map((r) => [r.strategy, r.evaluations.map((e) => e.key), !!r.finished])).toEqual([
      ['exhaustive', ['k1'], true],
      ['random', ['k2'], true],
    ]);
    expect(readdirSync(join(file, '..'))).toEqual(['c.json']);
  });
});
