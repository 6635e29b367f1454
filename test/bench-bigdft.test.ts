// The C convrot reference of `kernforge bench bigdft-conv` (bench/bigdft/convrot.c): compiled
// with gcc -O3 -march=native, it must equal the plain f64 separable reference on small odd grids
// (including one smaller than the 8-line unroll and one below the filter length) to 1e-12
// relative. Skipped when gcc is absent: the benchmark itself then skips the C ratios.
// The threaded rows (issue 7) must equal one thread bit for bit with per core = ratio / threads,
// and the gpu.js rows pass the f32 bound in the modes that run here (the others are skipped with
// the reason).
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

describe('bench bigdft-conv: threads and gpu.js (small grid)', () => {
  it('times the best TS and wasm rows and the defaults on 2 threads (bit for bit as one thread), and gpu.js rows in the modes that run here', async () => {
    const { benchBigdft, BIGDFT_DEFAULT_KEYS, BIGDFT_GPUJS_MODES } = await import('../bench/bigdft.ts');
    const best = 'bigdft-conv.ts.magic.periodic.f64.separable-t.4x1.inline.split';
    const wasm = 'bigdft-conv.wasm.magic.periodic.f64.separable-t.4x2.inline.lines';
    const gj = BIGDFT_GPUJS_MODES.map((m) => `bigdft-conv.gpujs.magic.periodic.f32.separable-t.split.${m}`);
    const keys = [best, wasm, BIGDFT_DEFAULT_KEYS.ts, BIGDFT_DEFAULT_KEYS.wasm, 'bigdft-conv.ts.magic.periodic.f32.separable-t.4x1.inline.split', ...gj];
    const lines: string[] = [];
    const r = await benchBigdft({ grid: [20, 17, 18], reps: 1, keys, threads: [1, 2], log: (l) => lines.push(l) });
    // every gpu.js mode either ran (verified) or was skipped with the reason; cpu and webasm need nothing but gpu.js
    for (const k of gj) expect(r.rows.some((x) => x.key === k) !== r.gpujsSkipped.some((s) => s.key === k), k).toBe(true);
    for (const s of r.gpujsSkipped) expect(s.why).toMatch(/gpu\.js mode/);
    const gpujs = r.rows.filter((x) => x.target === 'gpujs');
    expect(gpujs.map((x) => x.key)).toEqual(expect.arrayContaining([gj[0], gj[1]]));
    for (const row of gpujs) {
      expect(row.precision).toBe('f32');
      expect(row.checkError, row.key).toBeLessThanOrEqual(row.checkTolerance);
      expect(row.relError, row.key).toBeLessThan(1e-5);
      expect(Number.isFinite(row.gflops) && row.gflops > 0).toBe(true);
    }
    expect(r.bestGpujs?.target).toBe('gpujs');
    // threaded: each picked one-thread TS / wasm row on 2 threads; the picks are the best TS, best f64 TS, best wasm and the defaults
    const picked = [...new Set([r.best!.key, r.bestF64!.key, r.bestWasm!.key, BIGDFT_DEFAULT_KEYS.ts, BIGDFT_DEFAULT_KEYS.wasm])];
    expect(r.threaded.map((x) => x.key).sort()).toEqual(picked.sort());
    for (const row of r.threaded) {
      const one = r.rows.find((x) => x.key === row.key)!;
      expect(row.threads).toBe(2);
      expect(row.identical).toBe(true);
      expect(row.relError).toBe(one.relError);
      expect(row.relError).toBeLessThan(row.precision === 'f32' ? 1e-6 : 1e-13);
      expect(Number.isFinite(row.ms) && row.ms > 0).toBe(true);
      // speed-up from the one-thread time of the same rounds; the ceiling of independent compute loops in them
      expect(row.oneMs! > 0 && Number.isFinite(row.oneMs!)).toBe(true);
      expect(row.speedup).toBeCloseTo(row.oneMs! / row.ms, 12);
      // a ratio of two timings of the same rounds: positive and finite; no bound, since one slow moment in the one-loop timing can put it above t
      expect(row.ceiling! > 0 && Number.isFinite(row.ceiling!)).toBe(true);
      // and the hand-over writes of the same rounds (a thread overwriting lines its partner read, and lines it alone read)
      expect(row.handover!.afterOwn > 0 && row.handover!.afterShared > 0).toBe(true);
      expect(row.handover!.afterSharedMax!).toBeGreaterThanOrEqual(row.handover!.afterShared);
      if (hasGcc) expect(row.perCore).toBeCloseTo(row.vsC! / 2, 12);
    }
    const text = lines.join('\n');
    expect(text).toMatch(/Threads: each 1-D pass split over worker threads/);
    expect(text).toMatch(/\| +speed-up \| +ceiling \|/);
    expect(text).toMatch(/2 threads [\d.]+x one thread \(\d+% per core; independent compute loops reached [\d.]+x in the same rounds; a thread's write of half a 768 KiB array its partner had just read: \d+/);
    expect(text).toMatch(/\| ts\.magic\.periodic\.f64\.separable-t\.8x1\.inline\.table +\| +2 \|/);
    expect(text).toMatch(/gpu\.js rows \(f32 storage/);
    if (hasGcc) {
      expect(text).toMatch(/best per core \(goal >= 1\.0x the C reference per core\): .* \((met|not met)\)/);
      expect(r.cBaseline?.ms).toBeGreaterThan(0);
      expect(r.limits.length).toBeGreaterThan(0);
      expect(text).toContain('Limits (measured in this run):');
    }
  }, 120_000);

  it('the command refuses bad thread counts, targets and keys with what is allowed', async () => {
    const { benchBigdftCommandResult } = await import('../bench/bigdft-command.ts');
    await expect(benchBigdftCommandResult({ grid: '20x17x18', threads: '2,x' })).rejects.toThrow(/--threads x: the thread count must be an integer from 1 to \d+/);
    await expect(benchBigdftCommandResult({ grid: '20x17x18', targets: 'wasm,opencl' })).rejects.toThrow(/--targets wasm,opencl: unknown target opencl; allowed: ts, wasm, wgsl, gpujs/);
    await expect(benchBigdftCommandResult({ grid: '20x17x18', targets: 'wgsl', keys: 'bigdft-conv.ts.magic.periodic.f64.separable-t.1x4.inline.table' })).rejects.toThrow(/leaves no row of the ladder to run/);
    await expect(benchBigdftCommandResult({ grid: '20x17x18', keys: 'bigdft-conv.ts.nope' })).rejects.toThrow(/--keys: not in the benchmark ladder: bigdft-conv\.ts\.nope/);
  });
});
