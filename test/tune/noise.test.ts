// A candidate replaces the default only when it is faster beyond the measured noise: the larger
// relative spread of the two, and at least NOISE_FLOOR (2%). Otherwise the workloads keep the
// default, and the row says why.
import { describe, it, expect } from 'vitest';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { tune, NOISE_FLOOR } from '../../runtime/tune/tuner.ts';
import { createProgress } from '../../runtime/tune/progress.ts';
import { cpuDevice } from '../../runtime/tune/devices.ts';

process.env.KERNFORGE_TUNE_FAMILIES = new URL('./fake-flat.ts', import.meta.url).pathname;
const quiet = { log: () => {}, progress: createProgress({ quiet: true }) };

describe('noise rule for the tuned choice', () => {
  it('keeps the default when the fastest is within the noise floor, takes the fastest when it is clearly faster', async () => {
    expect(NOISE_FLOOR).toBe(0.02);
    const d = mkdtempSync(join(tmpdir(), 'kf-noise-'));
    const out = join(d, 'tuned.json');
    const r = await tune({ families: ['flat'], problems: ['flat', 'steep'], cache: d, out, reps: 3, ...quiet });
    const flat = r.rows.find((x) => x.problem === 'flat')!;
    const steep = r.rows.find((x) => x.problem === 'steep')!;
    expect(flat.bestKey).toBe('flat.ts.v1'); // the fastest measured is still reported
    expect(flat.chosenKey).toBe('flat.ts.v0');
    expect(flat.note).toMatch(/default kept: ts\.v1 was only 1\.005x faster, within the measured spread \(2\.0%\)/);
    expect(steep.chosenKey).toBe('flat.ts.v1');
    const art = JSON.parse(readFileSync(out, 'utf8'));
    const mine = art.tuned[cpuDevice().fingerprint].flat;
    expect(mine.flat.key).toBe('flat.ts.v0');
    expect(mine.flat.speedup).toBe(1);
    expect(mine.steep.key).toBe('flat.ts.v1');
    expect(mine.steep.speedup).toBeCloseTo(1 / 0.75, 12);
  });
});
