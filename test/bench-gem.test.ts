// The GEM benchmark's C reference (bench/gem/gem_ref.c): compiled with gcc -O3 -march=native,
// it must compute the f64 reference's potentials on Mb.Hhelix (regions 1 and 3, no salt) and
// the f32 build must meet the paper's RMSE bar. Skipped, with the reason, when gcc is missing.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compileGemRef, writeGemRefInput, runGemRef, GEM_DATA_DIR, GEM_F32_RMSE, rmseOf, type GemRefBuild } from '../bench/gem.ts';
import { readPqr, readVert, gemParams, gemReference, type GemRegion } from '../runtime/gem/index.ts';

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
