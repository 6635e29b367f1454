// The tuner on a fake family (test/tune/fake-family.ts): caching and resume, fingerprints,
// corrupt caches, wrong variants, the tuned artefact and loadTuned.
import { describe, it, expect, beforeAll } from 'vitest';
import { mkdtempSync, readFileSync, writeFileSync, existsSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { tune } from '../../runtime/tune/tuner.ts';
import { createProgress } from '../../runtime/tune/progress.ts';
import { cpuDevice } from '../../runtime/tune/devices.ts';
import { validateCache, type CacheFile } from '../../runtime/tune/cache.ts';
import { loadTuned } from '../../runtime/tune/tuned.ts';
import { BROKEN, keyOf, landscape } from './fake-family.ts';
import { defaultVariants } from '../../runtime/bigdft/filters.ts';

process.env.KERNFORGE_TUNE_FAMILIES = new URL('./fake-family.ts', import.meta.url).pathname;
const quiet = { log: () => {}, progress: createProgress({ quiet: true }) };
const fp = cpuDevice().fingerprint;
const dir = () => mkdtempSync(join(tmpdir(), 'kf-tune-'));
const readCache = (d: string): CacheFile => JSON.parse(readFileSync(join(d, `${fp}.json`), 'utf8')) as CacheFile;

describe('tuner (fake family)', () => {
  let d: string;
  beforeAll(async () => {
    d = dir();
  });

  it('measures every candidate once, records the wrong one, never chooses it, writes the winner', async () => {
    const out = join(d, 'tuned.json');
    const r = await tune({ families: ['fake'], cache: d, out, reps: 3, ...quiet });
    const row = r.rows.find((x) => x.family === 'fake')!;
    expect(row.candidates).toBe(16);
    expect(row.measured).toBe(16); // default a3.b3 is a candidate: measured once
    expect(row.failed).toBe(1);
    expect(row.bestKey).toBe(keyOf(2, 1));
    expect(row.defaultKey).toBe(keyOf(3, 3));
    expect(row.speedup).toBeCloseTo(row.defaultMs! / row.bestMs!, 12);
    const c = readCache(d);
    expect(validateCache(c)).toBeUndefined();
    const broken = c.results[`fake|tiny|${BROKEN}`]!;
    expect(broken.status).toBe('wrong');
    expect(broken.medianMs).toBeUndefined();
    expect(broken.params).toEqual({ a: 0, b: 0 });
    const ok = c.results[`fake|tiny|${keyOf(2, 1)}`]!;
    expect(ok.samples).toHaveLength(3);
    expect(ok.spread).toBe(0);
    expect(c.runs).toHaveLength(1);
    expect(c.runs[0]!.finished).toBeDefined();
    expect(c.runs[0]!.evaluations).toHaveLength(16);
    expect(c.runs[0]!.evaluations.find((e) => e.key === BROKEN)!.medianMs).toBeNull();
    const t = JSON.parse(readFileSync(out, 'utf8'));
    expect(t.tuned[fp].fake.tiny.key).toBe(keyOf(2, 1));
  });

  it('a warm cache makes zero new measurements', async () => {
    const r = await tune({ families: ['fake'], cache: d, out: false, reps: 3, ...quiet });
    const row = r.rows.find((x) => x.family === 'fake')!;
    expect(row.measured).toBe(0);
    expect(row.cached).toBe(16);
    expect(row.bestKey).toBe(keyOf(2, 1));
    expect(readCache(d).runs).toHaveLength(2);
  });

  it('a cache of another fingerprint is not used: moved aside, fresh start, said so', async () => {
    const e = dir();
    const file = join(e, 'cache.json');
    const other: CacheFile = {
      format: 'kernforge-tune-cache', version: 1,
      device: { fingerprint: '0123456789abcdef', id: 'cpu', target: 'ts', name: 'another machine', details: {} },
      results: { [`fake|tiny|${keyOf(1, 1)}`]: { family: 'fake', problem: 'tiny', key: keyOf(1, 1), status: 'ok', medianMs: 0.001, params: {}, at: '2020-01-01T00:00:00Z' } },
      runs: [],
    };
    writeFileSync(file, JSON.stringify(other));
    const r = await tune({ families: ['fake'], cache: file, out: false, reps: 1, ...quiet });
    expect(r.notes.join('\n')).toMatch(/another device \(fingerprint 0123456789abcdef/);
    expect(existsSync(`${file}.mismatch-0123456789abcdef`)).toBe(true);
    const row = r.rows[0]!;
    expect(row.measured).toBe(16);
    expect(row.bestKey).toBe(keyOf(2, 1)); // not the other machine's 0.001 ms
    const c = JSON.parse(readFileSync(file, 'utf8')) as CacheFile;
    expect(c.device.fingerprint).toBe(fp);
  });

  it('a corrupt cache is kept aside as .corrupt and a fresh one starts', async () => {
    const e = dir();
    writeFileSync(join(e, `${fp}.json`), '{"format": "kernforge-tune-cache", "vers');
    const r = await tune({ families: ['fake'], cache: e, out: false, reps: 1, maxEvals: 2, ...quiet });
    expect(r.notes.join('\n')).toMatch(/corrupt .*does not parse as JSON.*\.corrupt/);
    expect(readdirSync(e).sort()).toEqual([`${fp}.json`, `${fp}.json.corrupt`]);
    expect(validateCache(readCache(e))).toBeUndefined();
  });

  it('strategies within a budget: deterministic per seed; time limit stops new evaluations', async () => {
    const keysOf = async (seed: number) => {
      const e = dir();
      await tune({ families: ['fake'], cache: e, out: false, reps: 1, strategy: 'annealing', maxEvals: 5, seed, ...quiet });
      return readCache(e).runs[0]!.evaluations.map((x) => x.key);
    };
    const a = await keysOf(5);
    expect(a).toHaveLength(5);
    expect(await keysOf(5)).toEqual(a);
    const e = dir();
    const r = await tune({ families: ['fake'], cache: e, out: false, reps: 1, timeLimitS: 1e-6, ...quiet });
    expect(r.timeLimited).toBe(true);
    expect(r.rows[0]!.measured).toBeLessThanOrEqual(1);
  });

  it('start keys are measured with the default, outside the budget, and can win; keys that are not candidates are skipped', async () => {
    const e = dir();
    process.env.FAKE_TUNE_START = `${keyOf(2, 1)},fake.ts.a9.b9,${keyOf(3, 3)}`;
    try {
      const r = await tune({ families: ['fake'], cache: e, out: false, reps: 1, strategy: 'random', maxEvals: 2, seed: 3, ...quiet });
      const row = r.rows[0]!;
      const c = readCache(e);
      const run = c.runs[0]!.evaluations.map((x) => x.key);
      expect(run).toHaveLength(2);
      // the default and the one start key that is a candidate (not the default again), then the budget
      const measured = new Set([keyOf(3, 3), keyOf(2, 1), ...run]);
      expect(row.measured).toBe(measured.size);
      expect(Object.keys(c.results).sort()).toEqual([...measured].map((k) => `fake|tiny|${k}`).sort());
      expect(row.bestKey).toBe(keyOf(2, 1));
      expect(row.speedup).toBeCloseTo(landscape(3, 3) / landscape(2, 1), 12);
    } finally {
      delete process.env.FAKE_TUNE_START;
    }
  });

  it('an aborted session keeps what was measured and leaves the run unfinished', async () => {
    const e = dir();
    const ac = new AbortController();
    let n = 0;
    const progress = { ...createProgress({ quiet: true }), tick: () => { if (++n === 4) ac.abort(); } };
    const r = await tune({ families: ['fake'], cache: e, out: false, reps: 2, signal: ac.signal, log: () => {}, progress });
    expect(r.interrupted).toBe(true);
    const c = readCache(e);
    expect(Object.keys(c.results)).toHaveLength(4);
    expect(c.runs[0]!.finished).toBeUndefined();
  });

  it('loadTuned: default with a one-line warning when nothing is tuned; the tuned key after tuning', async () => {
    const e = dir();
    const path = join(e, 'tuned.json');
    const warnings: string[] = [];
    const before = await loadTuned('fake', 'tiny', { path, load: false, warn: (l) => warnings.push(l) });
    expect(before).toMatchObject({ key: keyOf(3, 3), tuned: false });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/no tuned fake variant for tiny .*using the default fake\.ts\.a3\.b3/);
    expect(warnings[0]).not.toContain('\n');
    // a quick class stands in for the full-size one
    await tune({ families: ['fake'], problems: ['quick'], cache: e, out: path, reps: 1, ...quiet });
    const after = await loadTuned('fake', 'tiny', { path, load: false, warn: (l) => warnings.push(l) });
    expect(after).toMatchObject({ key: keyOf(2, 1), tuned: true, problem: 'tiny-quick' });
    expect(warnings).toHaveLength(1);
  });

  it('loadTuned on a real family falls back to the documented default and loads its module', async () => {
    const e = dir();
    const warnings: string[] = [];
    const t = await loadTuned<{ kernel: unknown }>('bigdft-conv', 'kinetic', { path: join(e, 'none.json'), warn: (l) => warnings.push(l) });
    expect(t.key).toBe(defaultVariants('f64').kin);
    expect(t.tuned).toBe(false);
    expect(typeof t.module!.kernel).toBe('function');
    expect(warnings).toHaveLength(1);
  });
});
