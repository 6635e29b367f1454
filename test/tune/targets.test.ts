// Devices with several targets: the CPU offers ts and wasm (WebAssembly SIMD), md-nonbonded's f32
// classes take candidates from both, the tuner picks the fastest whatever its target, loadTuned
// and `run md --precision f32` use it; without SIMD (an injected probe result) the tuner says so
// and tunes the TypeScript variants only.
import { describe, it, expect, beforeAll, afterEach } from 'vitest';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { tune, formatSummary, formatTargets, type TuneOutcome } from '../../runtime/tune/tuner.ts';
import { createProgress } from '../../runtime/tune/progress.ts';
import { cpuDevice, probeWasmSimd } from '../../runtime/tune/devices.ts';
import { tuningFamily } from '../../runtime/tune/families/index.ts';
import { loadTuned, updateTuned } from '../../runtime/tune/tuned.ts';
import { variantParams } from '../../runtime/variants.ts';
import { prepareRun } from '../../runtime/md/setup.ts';
import type { CacheFile } from '../../runtime/tune/cache.ts';
import type { MdTsModule } from '../../runtime/md/kernels.ts';

const quiet = { log: () => {}, progress: createProgress({ quiet: true }) };
const NO_SIMD = { ok: false, why: 'injected: no SIMD here' };
const NO_GPUJS = { modes: [], unavailable: {} };
const targetOf = (k: string) => k.split('.')[1];

describe('CPU targets', () => {
  it('ts and wasm when WebAssembly SIMD validates; ts only, with the reason, when not; same fingerprint', () => {
    expect(probeWasmSimd()).toEqual({ ok: true });
    const on = cpuDevice();
    expect(on.targets).toEqual(['ts', 'wasm']);
    expect(on.unavailableTargets).toBeUndefined();
    const off = cpuDevice({ wasmSimd: NO_SIMD });
    expect(off.target).toBe('ts');
    expect(off.targets).toEqual(['ts']);
    expect(off.unavailableTargets).toEqual({ wasm: NO_SIMD.why });
    expect(off.fingerprint).toBe(on.fingerprint);
  });

  it('f32 classes: candidates of both targets, f32 only, the same semantic axes except the target; f64 classes: TypeScript and wasm f64', async () => {
    const f = (await tuningFamily('md-nonbonded'))!;
    const dev = cpuDevice();
    for (const problem of ['water-rf-f32', 'lj-fluid-f32', 'water-rf-f32-small', 'lj-fluid-f32-small']) {
      const keys = await f.candidates(dev, problem);
      const ps = await Promise.all(keys.map((k) => variantParams(k)));
      expect(new Set(ps.map((p) => p.target)), problem).toEqual(new Set(['ts', 'wasm']));
      expect(new Set(ps.map((p) => p.precision)), problem).toEqual(new Set(['f32']));
      for (const ax of ['interaction', 'ljComb', 'ljShift', 'output']) expect(new Set(ps.map((p) => p[ax])).size, `${problem} ${ax}`).toBe(1);
      // wasm: 4x4 and 8x4, cut-off mask and branch in SIMD128, relaxed SIMD (which compiles here) with masks (LJ: and branch)
      const lj = problem.startsWith('lj');
      expect(ps.filter((p) => p.target === 'wasm').map((p) => `${p.cluster}.${p.cutoff}.${p.simd}`).sort(), problem).toEqual([
        ...(lj ? ['4x4.branch.relaxed'] : []), '4x4.branch.simd128', '4x4.mask.relaxed', '4x4.mask.simd128', ...(lj ? ['8x4.branch.relaxed'] : []), '8x4.branch.simd128', '8x4.mask.relaxed', '8x4.mask.simd128',
      ]);
      expect(keys).toContain(f.defaultKey(dev, problem));
      expect(f.defaultKey(dev, problem)).toMatch(/^md-nonbonded\.ts\..*\.f32\.f\.4x4\.mask\.mask$/);
      // without SIMD: the TypeScript ones only
      expect(await f.candidates(cpuDevice({ wasmSimd: NO_SIMD }), problem)).toEqual(keys.filter((k) => targetOf(k) === 'ts'));
    }
    // f64 classes: TypeScript f64 and WebAssembly SIMD f64x2 (2x2, 4x2, 4x4, 8x4; mask and branch; relaxed with masks, LJ also branch)
    for (const problem of ['water-rf', 'lj-fluid', 'water-rf-small', 'lj-fluid-small']) {
      const keys = await f.candidates(dev, problem);
      const ps = await Promise.all(keys.map((k) => variantParams(k)));
      expect(new Set(ps.map((p) => `${p.target} ${p.precision}`)), problem).toEqual(new Set(['ts f64', 'wasm f64']));
      expect(ps.filter((p) => p.target === 'wasm')).toHaveLength(problem.startsWith('lj') ? 16 : 12);
      expect(f.defaultKey(dev, problem)).toMatch(/^md-nonbonded\.ts\./);
      expect(await f.candidates(cpuDevice({ wasmSimd: NO_SIMD }), problem)).toEqual(keys.filter((k) => targetOf(k) === 'ts'));
    }
  });
});

describe('tuning across targets (md-nonbonded water-rf-f32-small, exhaustive)', () => {
  let d: string;
  let out: string;
  let r: TuneOutcome;
  beforeAll(async () => {
    d = mkdtempSync(join(tmpdir(), 'kf-tune-targets-'));
    out = join(d, 'tuned.json');
    // gpu.js is left out (its md-nonbonded variants are tested in their own right) and one thread
    // is tuned: this test is about TS and wasm competing in one row
    r = await tune({ families: ['md-nonbonded'], problems: ['water-rf-f32-small'], reps: 3, cache: d, out, gpujs: NO_GPUJS, threads: [1], ...quiet });
  }, 120_000);
  afterEach(() => {
    delete process.env.KERNFORGE_TUNED;
  });

  it('records verified TS and wasm results and picks the fastest of all', () => {
    const row = r.rows[0]!;
    expect(row.candidates).toBe(23);
    expect(row.failed).toBe(0);
    expect(row.targets).toEqual(['ts', 'wasm']);
    const c = JSON.parse(readFileSync(join(d, `${cpuDevice().fingerprint}.json`), 'utf8')) as CacheFile;
    const res = Object.values(c.results);
    expect(res).toHaveLength(23);
    expect(c.device.target).toBe('ts');
    expect(c.device.details.targets).toEqual(['ts', 'wasm']);
    for (const x of res) {
      expect(x.status, x.key).toBe('ok');
      expect(x.verifyError, x.key).toBeLessThanOrEqual(1);
    }
    expect(new Set(res.map((x) => targetOf(x.key)))).toEqual(new Set(['ts', 'wasm']));
    const fastest = res.reduce((a, b) => (b.medianMs! < a.medianMs! ? b : a));
    expect(row.bestKey).toBe(fastest.key);
    for (const t of ['ts', 'wasm']) {
      const best = res.filter((x) => targetOf(x.key) === t).reduce((a, b) => (b.medianMs! < a.medianMs! ? b : a));
      expect(row.bestByTarget![t]).toEqual({ key: best.key, medianMs: best.medianMs });
    }
    // the table keeps the target of the winner; one line compares the targets
    expect(formatSummary(r.rows)).toContain(fastest.key.split('.').slice(1).join('.'));
    expect(formatTargets(r.rows)[0]).toMatch(/water-rf-f32-small: fastest per target: (ts|wasm) .* ms, (ts|wasm) .* ms; (ts|wasm) is [\d.]+x faster/);
    // Which target wins is a measurement (wasm was 2.4-3.7x faster here), not asserted: speed
    // belongs in benchmarks. The choice above must be the fastest measured, whatever its target.
  });

  it('loadTuned returns the winner of the f32 class (and its kernel, wasm or TS); run md --precision f32 uses it', async () => {
    const t = await loadTuned<MdTsModule>('md-nonbonded', 'water-rf-f32', { path: out, warn: () => {} });
    expect(t).toMatchObject({ tuned: true, problem: 'water-rf-f32-small', key: r.rows[0]!.chosenKey });
    expect(typeof t.module!.kernel).toBe('function');
    const art = JSON.parse(readFileSync(out, 'utf8'));
    expect(art.version).toBe(1);
    expect(art.devices[cpuDevice().fingerprint]).toMatchObject({ id: 'cpu', target: 'ts', targets: ['ts', 'wasm'] });
    // the f64 class is not served by the f32 one
    const warnings: string[] = [];
    expect(await loadTuned('md-nonbonded', 'water-rf', { path: out, load: false, warn: (l) => warnings.push(l) })).toMatchObject({ tuned: false });
    // the workload: precision f32 and no explicit choice -> the f32 class's winner (lj: an artefact entry)
    updateTuned(out, cpuDevice(), 'md-nonbonded', 'lj-fluid-f32', { key: 'md-nonbonded.wasm.lj.geom.plain.f32.f.8x4.mask.branch.simd128', medianMs: 1, defaultKey: null, defaultMs: null, speedup: null, when: new Date().toISOString() });
    process.env.KERNFORGE_TUNED = out;
    const f32 = await prepareRun({ system: 'lj', cells: 3, precision: 'f32' });
    expect(f32.run.keyF).toBe('md-nonbonded.wasm.lj.geom.plain.f32.f.8x4.mask.branch.simd128');
    expect(f32.run.keyE).toBe('md-nonbonded.wasm.lj.geom.plain.f32.fev.8x4.mask.branch.simd128');
    // --target ts keeps TypeScript (the same tuning axes); f64 is untouched by the f32 class
    expect((await prepareRun({ system: 'lj', cells: 3, precision: 'f32', target: 'ts' })).run.keyF).toBe('md-nonbonded.ts.lj.geom.plain.f32.f.8x4.mask.branch');
    expect((await prepareRun({ system: 'lj', cells: 3 })).run.keyF).toBe('md-nonbonded.ts.lj.geom.plain.f64.f.4x4.mask.mask');
    // an f64 class won by a wasm f64x2 variant runs it
    updateTuned(out, cpuDevice(), 'md-nonbonded', 'lj-fluid', { key: 'md-nonbonded.wasm.lj.geom.plain.f64.f.4x2.mask.mask.relaxed', medianMs: 1, defaultKey: null, defaultMs: null, speedup: null, when: new Date().toISOString() });
    const f64 = await prepareRun({ system: 'lj', cells: 3 });
    expect([f64.run.keyF, f64.run.keyE]).toEqual(['md-nonbonded.wasm.lj.geom.plain.f64.f.4x2.mask.mask.relaxed', 'md-nonbonded.wasm.lj.geom.plain.f64.fev.4x2.mask.mask.relaxed']);
    // --target ts: its TypeScript sibling (the same tuning axes)
    expect((await prepareRun({ system: 'lj', cells: 3, target: 'ts' })).run.keyF).toBe('md-nonbonded.ts.lj.geom.plain.f64.f.4x2.mask.mask');
  });

  it('without WebAssembly SIMD (injected): the tuner says so, tunes TS only, never picks a cached wasm result', async () => {
    const s = await tune({ families: ['md-nonbonded'], problems: ['water-rf-f32-small'], reps: 3, cache: d, out: false, wasmSimd: NO_SIMD, gpujs: NO_GPUJS, threads: [1], ...quiet });
    expect(s.notes.join('\n')).toContain(`cpu: target wasm not available (${NO_SIMD.why}); tuning with ts only`);
    const row = s.rows[0]!;
    expect(row.candidates).toBe(17);
    expect(row.targets).toBeUndefined();
    expect(row.measured).toBe(0); // every TS result is in the cache
    expect(targetOf(row.bestKey!)).toBe('ts');
    expect(row.bestKey).toBe(r.rows[0]!.bestByTarget!.ts!.key);
  });
});
