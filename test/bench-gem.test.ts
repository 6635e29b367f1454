// The GEM benchmark's C reference (bench/gem/gem_ref.c): compiled with gcc -O3 -march=native,
// it must compute the f64 reference's potentials on Mb.Hhelix (regions 1 and 3, no salt) and
// the f32 build must meet the paper's RMSE bar. Skipped, with the reason, when gcc is missing.
// The generated-surface case runs on a tiny surface (with or without gcc).
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compileGemRef, writeGemRefInput, runGemRef, benchGemLarge, benchGemWgsl, benchGemWasm, wgslLadder, wasmLadder, GEM_LARGE_KEYS, GEM_DATA_DIR, GEM_F32_RMSE, rmseOf, type GemRefBuild } from '../bench/gem.ts';
import { probeGpu } from '../runtime/backends/webgpu.ts';
import { variantParams } from '../runtime/variants.ts';
import { benchGemCommand } from '../cli/commands/bench-gem.ts';
import { readPqr, readVert, gemParams, gemReference, type GemRegion, type GemVertices } from '../runtime/gem/index.ts';

const hasGcc = ((): boolean => {
  try {
    execFileSync('gcc', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();
if (!hasGcc) console.warn('bench-gem tests skipped: gcc not found on PATH (the benchmark then reports no ratios to C)');

describe.skipIf(!hasGcc)('GEM C reference (gcc)', () => {
  let dir: string;
  let build: GemRefBuild;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'kernforge-gem-ref-test-'));
    build = compileGemRef(dir);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('compiles', () => {
    expect(build.why).toBeUndefined();
    expect(build.bins).toBeDefined();
  });

  it('builds with -ffast-math too; that build meets the f32 bar and matches f64 to 1e-9 on Mb.Hhelix', () => {
    const fast = compileGemRef(dir, { fastMath: true });
    expect(fast.why).toBeUndefined();
    expect(fast.cmd).toMatch(/-ffast-math/);
    const atoms = readPqr(`${GEM_DATA_DIR}mb_hhelix.pqr`);
    const verts = readVert(`${GEM_DATA_DIR}mb_hhelix.vert`);
    const P = gemParams(atoms, { p: 0 });
    const ref = gemReference(atoms, verts, P, 1);
    const input = join(dir, 'mb.fast.bin');
    writeGemRefInput(input, atoms, verts, P, 1);
    const c64 = runGemRef(fast.bins!.f64, input, 'f64', 1, verts.n);
    for (let i = 0; i < verts.n; i++) expect(Math.abs(c64.phi[i]! - ref[i]!)).toBeLessThanOrEqual(1e-9 * Math.max(1, Math.abs(ref[i]!)));
    expect(rmseOf(runGemRef(fast.bins!.f32, input, 'f32', 1, verts.n).phi, ref)).toBeLessThanOrEqual(GEM_F32_RMSE);
  });

  it.each([1, 3] as GemRegion[])('matches the f64 reference on Mb.Hhelix, region %i', (region) => {
    const atoms = readPqr(`${GEM_DATA_DIR}mb_hhelix.pqr`);
    const verts = readVert(`${GEM_DATA_DIR}mb_hhelix.vert`);
    const P = gemParams(atoms, { p: region === 1 ? 0 : 3 });
    const ref = gemReference(atoms, verts, P, region);
    const input = join(dir, `mb.r${region}.bin`);
    writeGemRefInput(input, atoms, verts, P, region);
    const c64 = runGemRef(build.bins!.f64, input, 'f64', 1, verts.n);
    for (let i = 0; i < verts.n; i++) expect(Math.abs(c64.phi[i]! - ref[i]!)).toBeLessThanOrEqual(1e-9 * Math.max(1, Math.abs(ref[i]!)));
    expect(c64.checksum).toBeCloseTo(ref.reduce((s, x) => s + x, 0), 6);
    expect(c64.pairsPerSecond).toBeGreaterThan(0);
    const c32 = runGemRef(build.bins!.f32, input, 'f32', 1, verts.n);
    expect(rmseOf(c32.phi, ref)).toBeLessThanOrEqual(GEM_F32_RMSE);
  });
});

describe('GEM benchmark on a generated surface (tiny: Mb.Hhelix at 0.3 vertices per A^2)', () => {
  it('times both C builds (when gcc is there), the three TS variants and the wasm one, verified on a subset', async () => {
    const lines: string[] = [];
    const rows = await benchGemLarge({ molecule: 'mb_hhelix', density: 0.3, reps: 1, verifyVertices: 40, log: (l) => lines.push(l) });
    const ts = rows.filter((r) => r.key.startsWith('gem-potential.'));
    expect(ts.map((r) => r.key)).toEqual(GEM_LARGE_KEYS.map((k) => k.key));
    for (const r of ts) {
      expect(r.molecule).toBe('mb_hhelix (generated SES)');
      expect(r.rmse).toBeLessThanOrEqual(r.precision === 'f32' ? GEM_F32_RMSE : 1e-9);
      expect(r.pairsPerSecond).toBeGreaterThan(0);
    }
    expect(rows.some((r) => r.key.startsWith('C '))).toBe(hasGcc);
    expect(rows.some((r) => r.key.startsWith('C gem_ref.c -ffast-math'))).toBe(hasGcc);
    expect(lines.join('\n')).toMatch(/generated SES\): 382 atoms x \d+ vertices/);
    if (hasGcc) expect(lines.join('\n')).toMatch(/best wasm f32: gem-potential\.wasm\..*x the C f32 -O3 -march=native -ffast-math/);
  });

  it('the wasm rungs are valid keys of both regions, each verified against the reference before it is timed', async () => {
    const atoms = readPqr(`${GEM_DATA_DIR}mb_hhelix.pqr`);
    const verts = readVert(`${GEM_DATA_DIR}mb_hhelix.vert`);
    for (const region of [1, 3] as GemRegion[]) {
      const P = gemParams(atoms, { p: region === 1 ? 0 : 3 });
      const ref = gemReference(atoms, verts, P, region);
      const rungs = wasmLadder(region);
      for (const r of rungs) expect((await variantParams(r.key)).target).toBe('wasm');
      const rows = await benchGemWasm(rungs, atoms, verts, P, ref, 1);
      expect(rows.map((r) => r.key)).toEqual(rungs.map((r) => r.key));
      for (const r of rows) {
        expect(r.seconds).toBeGreaterThan(0);
        expect(r.rmse).toBeLessThanOrEqual(r.precision === 'f32' ? GEM_F32_RMSE : 1e-9);
      }
      // a reference that is off makes the rung fail instead of being timed
      await expect(benchGemWasm(rungs.slice(0, 1), atoms, verts, P, ref.map((x) => x + 1), 1)).rejects.toThrow(/failed verification/);
    }
  });

  it('the bench command refuses a bad density', async () => {
    await expect(benchGemCommand({ molecules: 'mb_hhelix', density: '-1' })).rejects.toThrow(/--density must be a positive number/);
  });
});

const probe = await probeGpu();

describe('GEM benchmark WGSL rungs', () => {
  it('untiled, unrolled, tiled and register-tiled, all valid keys (region 3 ones rendered on demand)', async () => {
    for (const region of [1, 3] as GemRegion[]) {
      const rungs = wgslLadder(region);
      expect(rungs.map((r) => r.rung)).toEqual([...(region === 1 ? ['WGSL (one vertex per invocation)'] : []), 'WGSL unrolled', 'WGSL tiled (workgroup memory)', 'WGSL tiled + 4x4 register tile']);
      for (const { key } of rungs) expect((await variantParams(key)).target).toBe('wgsl');
    }
  });

  it.skipIf(!probe.ok)('are verified against the f64 reference and timed (Mb.Hhelix, every 8th vertex)', async () => {
    const atoms = readPqr(`${GEM_DATA_DIR}mb_hhelix.pqr`);
    const all = readVert(`${GEM_DATA_DIR}mb_hhelix.vert`);
    const idx = Array.from({ length: Math.ceil(all.n / 8) }, (_, i) => 8 * i);
    const pick = (a: Float64Array) => Float64Array.from(idx, (i) => a[i]!);
    const verts: GemVertices = { n: idx.length, x: pick(all.x), y: pick(all.y), z: pick(all.z), nx: pick(all.nx), ny: pick(all.ny), nz: pick(all.nz) };
    for (const region of [1, 3] as GemRegion[]) {
      const P = gemParams(atoms, { p: region === 1 ? 0 : 3 });
      const rows = await benchGemWgsl(wgslLadder(region), atoms, verts, P, gemReference(atoms, verts, P, region), 1);
      expect(rows.map((r) => r.key)).toEqual(wgslLadder(region).map((r) => r.key));
      for (const r of rows) {
        expect(r.precision).toBe('f32');
        expect(r.rmse).toBeLessThanOrEqual(GEM_F32_RMSE);
        expect(r.seconds).toBeGreaterThan(0);
      }
    }
  }, 60_000);
});
