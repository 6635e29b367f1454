// Interrupting `kernforge tune` (a spawned CLI on the fake family, 60 ms per run): SIGKILL at
// any point leaves a valid cache with every finished measurement, and the next run completes
// from it; SIGINT abandons the measurement in flight, keeps the cache and exits 130.
import { describe, it, expect } from 'vitest';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cpuDevice } from '../../runtime/tune/devices.ts';
import { validateCache, type CacheFile } from '../../runtime/tune/cache.ts';

const CLI = new URL('../../cli/kernforge.mjs', import.meta.url).pathname;
const env = { ...process.env, KERNFORGE_TUNE_FAMILIES: new URL('./fake-family.ts', import.meta.url).pathname, FAKE_TUNE_DELAY_MS: '60', CI: 'true' };
const fp = cpuDevice().fingerprint;

function results(file: string): number {
  try {
    return Object.keys((JSON.parse(readFileSync(file, 'utf8')) as CacheFile).results).length;
  } catch {
    return -1; // not written yet (a rename is atomic: never half a file)
  }
}

async function startAndInterrupt(signal: NodeJS.Signals, after: number) {
  const d = mkdtempSync(join(tmpdir(), 'kf-tune-kill-'));
  const file = join(d, `${fp}.json`);
  const args = [CLI, 'tune', 'fake', '--cache', d, '--out', join(d, 'tuned.json'), '--reps', '3', '--progress-every', '1'];
  const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (b) => (out += b));
  child.stderr.on('data', (b) => (out += b));
  const exit = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
  let seen = 0;
  for (let i = 0; i < 600 && seen < after; i++) {
    await new Promise((r) => setTimeout(r, 25));
    seen = Math.max(seen, results(file));
  }
  expect(seen).toBeGreaterThanOrEqual(after);
  child.kill(signal);
  const code = await exit;
  return { d, file, args, seen, code, out };
}

describe('interrupting kernforge tune', () => {
  it('SIGKILL mid-run: valid cache with every finished measurement; the re-run completes', async () => {
    const { file, args, seen, out } = await startAndInterrupt('SIGKILL', 4);
    const text = readFileSync(file, 'utf8');
    const c = JSON.parse(text) as CacheFile;
    expect(validateCache(c), out).toBeUndefined();
    const n = Object.keys(c.results).length;
    expect(n).toBeGreaterThanOrEqual(seen);
    expect(n).toBeLessThan(16);
    const again = spawnSync(process.execPath, args, { env, encoding: 'utf8' });
    expect(again.status, again.stderr).toBe(0);
    expect(again.stdout).toMatch(new RegExp(`${16 - n} new measurement\\(s\\), ${n} from the cache`));
    const c2 = JSON.parse(readFileSync(file, 'utf8')) as CacheFile;
    expect(Object.keys(c2.results)).toHaveLength(16);
    for (const [id, r] of Object.entries(c.results)) expect(c2.results[id]).toEqual(r); // reused, not re-measured
    expect(c2.runs.at(-1)!.finished).toBeDefined();
    expect(c2.results['fake|tiny|fake.ts.a0.b0']!.status).toBe('wrong');
    expect(JSON.parse(readFileSync(join(file, '..', 'tuned.json'), 'utf8')).tuned[fp].fake.tiny.key).toBe('fake.ts.a2.b1');
    // and a third run measures nothing
    const warm = spawnSync(process.execPath, args, { env, encoding: 'utf8' });
    expect(warm.stdout).toMatch(/warm cache: all 16 evaluations came from the cache, 0 new measurements/);
  });

  it('SIGINT: abandons the measurement in flight, writes the cache, exits 130', async () => {
    const { file, seen, code, out } = await startAndInterrupt('SIGINT', 3);
    expect(code, out).toBe(130);
    expect(out).toMatch(/SIGINT: stopping/);
    expect(out).toMatch(/interrupted/);
    const c = JSON.parse(readFileSync(file, 'utf8')) as CacheFile;
    expect(validateCache(c)).toBeUndefined();
    expect(Object.keys(c.results).length).toBeGreaterThanOrEqual(seen);
    expect(c.runs.at(-1)!.finished).toBeUndefined();
    expect(existsSync(`${file}.tmp-${process.pid}`)).toBe(false);
  });
});
