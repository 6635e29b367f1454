// The real families through the tuner on their quick problems (tiny budgets), and devices.
import { describe, it, expect } from 'vitest';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { tune } from '../../runtime/tune/tuner.ts';
import { createProgress } from '../../runtime/tune/progress.ts';
import { cpuDevice, detectDevices } from '../../runtime/tune/devices.ts';
import { tuningFamilies } from '../../runtime/tune/families/index.ts';
import { loadTuned } from '../../runtime/tune/tuned.ts';
import { splitCandidate } from '../../runtime/tune/threads.ts';
import { variantParams } from '../../runtime/variants.ts';
import type { CacheFile } from '../../runtime/tune/cache.ts';

const quiet = { log: () => {}, progress: createProgress({ quiet: true }) };

describe('devices', () => {
  it('the CPU has a stable 16-hex fingerprint; detection never throws', async () => {
    const [a] = await detectDevices(['cpu']);
    expect(a!.available).toBe(true);
    expect(a!.fingerprint).toMatch(/^[0-9a-f]{16}$/);
    expect(cpuDevice().fingerprint).toBe(a!.fingerprint);
    expect(a!.target).toBe('ts');
    expect(a!.targets).toEqual(['ts', 'wasm', 'gpujs']); // Node 20 validates WebAssembly SIMD; gpu.js runs its cpu and webasm modes
    expect(a!.gpujsModes).toEqual(['cpu', 'webasm']);
    // the same device with gpu.js off: says why per mode, and the fingerprint does not change
    process.env.KERNFORGE_GPUJS = 'off';
    try {
      const [b] = await detectDevices(['cpu']);
      expect(b!.targets).toEqual(['ts', 'wasm']);
      expect(b!.unavailableTargets).toEqual({ 'gpujs:cpu': 'turned off by KERNFORGE_GPUJS=off', 'gpujs:webasm': 'turned off by KERNFORGE_GPUJS=off' });
      expect(b!.fingerprint).toBe(a!.fingerprint);
    } finally {
      delete process.env.KERNFORGE_GPUJS;
    }
  });
});

describe('real families', () => {
  it('candidates vary only tuning axes and include the default', async () => {
    const dev = cpuDevice();
    for (const f of await tuningFamilies()) {
      for (const p of f.problems()) {
        const keys = await f.candidates(dev, p.name);
        expect(keys.length, `${f.family} ${p.name}`).toBeGreaterThan(1);
        expect(keys, `${f.family} ${p.name}`).toContain(f.defaultKey(dev, p.name));
        const semantic = ['interaction', 'ljComb', 'ljShift', 'precision', 'output', 'region', 'salt', 'filter'];
        const ps = await Promise.all(keys.map((k) => variantParams(k)));
        for (const ax of semantic) expect(new Set(ps.map((x) => String(x[ax]))).size, `${f.family} ${p.name} ${ax}`).toBe(1);
        // the target too, except where the CPU's targets compete: wasm (every md class: f32x4
        // and f64x2; GEM's f32 surface, BigDFT's f64 classes) beside ts; gpu.js needs its probed
        // modes, which the synchronous cpuDevice() leaves out
        const targets = [...new Set(ps.map((x) => String(x.target)))].sort();
        const wasm = f.family === 'md-nonbonded' || f.family === 'gem-potential' || !p.name.includes('-f32');
        expect(targets, `${f.family} ${p.name} target`).toEqual(wasm ? ['ts', 'wasm'] : ['ts']);
        // the start keys: the wasm reference wherever wasm competes, a candidate the default is not
        const starts = f.startKeys?.(dev, p.name) ?? [];
        expect(starts.map((k) => k.split('.')[1]), `${f.family} ${p.name} start keys`).toEqual(wasm ? ['wasm'] : []);
        for (const k of starts) expect(keys, `${f.family} ${p.name}`).toContain(k);
        // and with gpu.js modes: gpujs candidates in exactly those modes (GEM; md and BigDFT f32 classes)
        const withGpujs = { ...dev, targets: [...dev.targets, 'gpujs' as const], gpujsModes: ['webasm' as const] };
        const g = (await f.candidates(withGpujs, p.name)).filter((k) => k.split('.')[1] === 'gpujs');
        const gpujs = f.family === 'gem-potential' || p.name.includes('-f32');
        expect(g.length > 0, `${f.family} ${p.name} gpujs`).toBe(gpujs);
        for (const k of g) expect(k.endsWith('.webasm'), k).toBe(true);
      }
    }
  });

  it('bigdft-conv magic-t-small and md-nonbonded lj-fluid-small: verified, timed, cached, loadTuned picks the winner', async () => {
    const d = mkdtempSync(join(tmpdir(), 'kf-tune-real-'));
    const out = join(d, 'tuned.json');
    const r = await tune({ families: ['bigdft-conv', 'md-nonbonded'], problems: ['magic-t-small', 'lj-fluid-small'], maxEvals: 2, reps: 2, strategy: 'random', cache: d, out, ...quiet });
    expect(r.rows).toHaveLength(2);
    for (const row of r.rows) {
      expect(row.failed, row.problem).toBe(0);
      expect(row.bestMs).toBeGreaterThan(0);
      expect(row.defaultMs).toBeGreaterThan(0);
    }
    const c = JSON.parse(readFileSync(join(d, `${cpuDevice().fingerprint}.json`), 'utf8')) as CacheFile;
    for (const res of Object.values(c.results)) {
      expect(res.status).toBe('ok');
      expect(res.verifyError).toBeLessThanOrEqual(1);
    }
    const t = await loadTuned('bigdft-conv', 'magic-t', { path: out, warn: () => {} });
    // the chosen candidate may carry a thread count (`<key>@2t`): the artefact keeps key and count apart
    const chosen = splitCandidate(r.rows.find((x) => x.family === 'bigdft-conv')!.chosenKey!);
    expect(t).toMatchObject({ tuned: true, problem: 'magic-t-small', key: chosen.key, threads: chosen.threads });
    // a TypeScript winner comes loaded; the others are run by key (the family has no module for them)
    if (chosen.key.split('.')[1] === 'ts') expect(typeof (t.module as { kernel: unknown }).kernel).toBe('function');
    else expect(t.module).toBeUndefined();
    // the start keys (the wasm references) were measured outside the budget of 2, and nothing
    // slower than them was chosen
    for (const row of r.rows) {
      const f = (await tuningFamilies()).find((x) => x.family === row.family)!;
      const starts = f.startKeys!(cpuDevice(), row.problem);
      expect(starts.length, row.family).toBe(1);
      const s = c.results[`${row.family}|${row.problem}|${starts[0]}`]!;
      expect(s.status, starts[0]).toBe('ok');
      expect(row.bestMs!).toBeLessThanOrEqual(s.medianMs!);
    }
  });
});
