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
