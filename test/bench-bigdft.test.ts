// The C convrot reference of `kernforge bench bigdft-conv` (bench/bigdft/convrot.c): compiled
// with gcc -O3 -march=native, it must equal the plain f64 separable reference on small odd grids
// (including one smaller than the 8-line unroll and one below the filter length) to 1e-12
// relative. Skipped when gcc is absent: the benchmark itself then skips the C ratios.
import { describe, it, expect, afterAll } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compileConvrot, runConvrot, randomField, maxRelError, C_TOLERANCE } from '../bench/bigdft.ts';
import { separable, type Dims } from '../runtime/bigdft/reference.ts';

const hasGcc = !spawnSync('gcc', ['--version']).error;
const dir = mkdtempSync(join(tmpdir(), 'kernforge-convrot-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('bench bigdft-conv: C convrot reference', () => {
  it.skipIf(!hasGcc)('equals the f64 separable reference on 17x19x21, 23x5x9 and 3x7x5 (1e-12 relative; skipped without gcc)', () => {
    const c = compileConvrot(dir);
    if ('skipped' in c) throw new Error(c.skipped);
    for (const dims of [[17, 19, 21], [23, 5, 9], [3, 7, 5]] as Dims[]) {
      const x = randomField(dims[0] * dims[1] * dims[2], 11);
      const r = runConvrot(c.exe, dims, 1, x, dir);
      const ref = separable('magic', x, dims);
      expect(maxRelError(r.output!, ref)).toBeLessThanOrEqual(C_TOLERANCE);
      expect(r.checksum).toBeCloseTo(ref.reduce((s, v) => s + v, 0), 9);
      expect(r.ms).toBeGreaterThan(0);
    }
  });

  it('reports a missing compiler instead of failing', () => {
    const c = compileConvrot(dir, 'kernforge-no-such-cc');
    expect('skipped' in c && c.skipped).toMatch(/not found/);
  });
});

describe('bench bigdft-conv: the ladder in the shape of Table I', () => {
  it('times naive (direct), separable, transposed, unrolled and WGSL rows on a small grid, each verified, with ratios to C', async () => {
    const { benchBigdft, LADDER, TABLE_I } = await import('../bench/bigdft.ts');
    const { probeGpu } = await import('../runtime/backends/webgpu.ts');
    const keys = TABLE_I.flatMap((t) => (t.key ? [t.key] : []));
    keys.push('bigdft-conv.ts.magic.periodic.f64.separable-t.4x1.inline.split', 'bigdft-conv.wgsl.magic.periodic.f32.separable-t.16x16.outputs2');
    keys.push('bigdft-conv.wasm.magic.periodic.f64.separable-t.4x2.inline.lines', 'bigdft-conv.wasm.magic.periodic.f64.separable-t.8x1.inline.shifted');
    for (const key of keys) expect(LADDER.some((r) => r.key === key), key).toBe(true);
    const lines: string[] = [];
    const r = await benchBigdft({ grid: [20, 17, 18], reps: 1, keys, log: (l) => lines.push(l) });
    const gpu = await probeGpu();
    expect(r.rows.map((x) => x.key).sort()).toEqual(keys.filter((k) => gpu.ok || !k.includes('.wgsl.')).sort());
    for (const row of r.rows) {
      expect(row.relError, row.key).toBeLessThan(row.target === 'wgsl' ? 1e-5 : 1e-13);
      expect(row.checkError, row.key).toBeLessThanOrEqual(row.checkTolerance);
      expect(row.gflops).toBeGreaterThan(0);
      if (hasGcc) expect(row.vsC).toBeGreaterThan(0);
    }
    expect(r.tableI.map((t) => t.row)).toEqual(TABLE_I.map((t) => t.row).filter((n) => gpu.ok || !n.startsWith('WGSL')));
    expect(r.best?.target).toBe('ts');
    const text = lines.join('\n');
    expect(text).toContain("Table I shape");
    expect(text).toMatch(/\| naive \(direct\) +\| ts\.magic\.periodic\.f64\.direct\.1x1\.inline\.split/);
    expect(r.bestWasm?.target).toBe('wasm');
    expect(text).toMatch(/best wasm variant: bigdft-conv\.wasm\.magic\.periodic\.f64\.separable-t\./);
    if (gpu.ok) expect(text).toMatch(/best WGSL variant: bigdft-conv\.wgsl\./);
    else expect(text).toContain('WGSL rows skipped');
  }, 60_000);
});
