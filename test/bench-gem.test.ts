// The GEM benchmark's C reference (bench/gem/gem_ref.c): compiled with gcc -O3 -march=native,
// it must compute the f64 reference's potentials on Mb.Hhelix (regions 1 and 3, no salt) and
// the f32 build must meet the paper's RMSE bar. Skipped, with the reason, when gcc is missing.
// The generated-surface case runs on a tiny surface (with or without gcc). Threaded rows (issue 7)
// must equal the one-thread output bit for bit and carry per core = ratio / threads; gpu.js rows
// are verified with the f32 bar in the modes that run here.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compileGemRef, writeGemRefInput, runGemRef, benchGemLarge, benchGemWgsl, benchGemWasm, benchGemThreads, benchGemGpujs, gemGpujsModes, gemGpujsKey, formatGemThreads, wgslLadder, wasmLadder, GEM_LARGE_KEYS, GEM_DATA_DIR, GEM_F32_RMSE, rmseOf, type GemRefBuild, type GemBenchRow } from '../bench/gem.ts';
import { PoolsByThreads } from '../runtime/tune/threads.ts';
import { probeGpu } from '../runtime/backends/webgpu.ts';
import { variantParams } from '../runtime/variants.ts';
import { benchGemCommand } from '../bench/gem-command.ts';
import { probeWasmRelaxedSimd } from '../runtime/backends/wasm.ts';
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

  it('region 1 at p = 0 with both roots (two-roots, GEM as written) and inside the sphere (p = -3) match the reference too', () => {
    const atoms = readPqr(`${GEM_DATA_DIR}mb_hhelix.pqr`);
    const verts = readVert(`${GEM_DATA_DIR}mb_hhelix.vert`);
    for (const p of [0, -3]) {
      const P = gemParams(atoms, { p });
      const ref = gemReference(atoms, verts, P, 1);
      const input = join(dir, `mb.r1.p${p}.bin`);
      writeGemRefInput(input, atoms, verts, P, 1);
      const one = runGemRef(build.bins!.f64, input, 'f64', 1, verts.n);
      const two = runGemRef(build.bins!.f64, input, 'f64', 1, verts.n, true);
      for (const c of [one, two]) for (let i = 0; i < verts.n; i++) expect(Math.abs(c.phi[i]! - ref[i]!)).toBeLessThanOrEqual(1e-9 * Math.max(1, Math.abs(ref[i]!)));
      // p = -3: both take the two-root loop, the same numbers; p = 0: two loops, different roundings in f32
      const f32 = [false, true].map((t) => runGemRef(build.bins!.f32, input, 'f32', 1, verts.n, t).phi);
      if (p === -3) expect(f32[1]).toEqual(f32[0]);
      else expect(f32[1]).not.toEqual(f32[0]);
    }
    expect(() => execFileSync(build.bins!.f64, [join(dir, 'mb.r1.p0.bin'), join(dir, 'x.phi'), '1', 'two-root'], { stdio: 'pipe' })).toThrow(/usage: gem_ref/);
  });
});

describe('GEM benchmark on a generated surface (tiny: Mb.Hhelix at 0.3 vertices per A^2)', () => {
  it('times both C builds (when gcc is there), the three TS variants and the wasm one, verified on a subset, and the best TS and wasm rows on 2 threads', async () => {
    const lines: string[] = [];
    const rows = await benchGemLarge({ molecule: 'mb_hhelix', density: 0.3, reps: 1, verifyVertices: 40, threads: [1, 2], log: (l) => lines.push(l) });
    const ts = rows.filter((r) => r.key.startsWith('gem-potential.') && r.threads === undefined);
    expect(ts.map((r) => r.key)).toEqual(GEM_LARGE_KEYS.map((k) => k.key));
    const threaded = rows.filter((r) => r.threads !== undefined);
    expect(threaded.map((r) => r.key.split('.')[1]).sort()).toEqual(['ts', 'wasm']);
    for (const r of threaded) {
      expect(r.threads).toBe(2);
      expect(r.identical).toBe(true);
      expect(r.rmse).toBeLessThanOrEqual(r.precision === 'f32' ? GEM_F32_RMSE : 1e-9);
      expect(r.seconds).toBeGreaterThan(0);
      expect(Number.isFinite(r.pairsPerSecond) && r.pairsPerSecond > 0).toBe(true);
      expect(r.speedup).toBeGreaterThan(0);
      if (hasGcc) {
        expect(r.vsC).toBeGreaterThan(0);
        expect(r.perCore).toBeCloseTo(r.vsC! / 2, 12);
        expect(r.perCoreFast).toBeCloseTo(r.vsCFast! / 2, 12);
      }
    }
    expect(lines.join('\n')).toMatch(/threads \(the vertices split over worker threads/);
    if (hasGcc) expect(lines.join('\n')).toMatch(/best f32 per core \(goal >= 0\.6x the C f32 -ffast-math build per core\): .* \((met|not met)\)/);
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

  it('the wasm rungs (relaxed SIMD ones included where it compiles) are valid keys of both regions, each verified against the reference before it is timed', async () => {
    const atoms = readPqr(`${GEM_DATA_DIR}mb_hhelix.pqr`);
    const verts = readVert(`${GEM_DATA_DIR}mb_hhelix.vert`);
    for (const region of [1, 3] as GemRegion[]) {
      const P = gemParams(atoms, { p: region === 1 ? 0 : 3 });
      const ref = gemReference(atoms, verts, P, region);
      // with relaxed SIMD where the engine compiles it: the f32 and the f64 Newton rungs again with relaxed_madd
      const relaxed = probeWasmRelaxedSimd().ok;
      const rungs = wasmLadder(region, relaxed);
      expect(rungs.filter((r) => r.key.split('.').includes('relaxed')).length).toBe(relaxed ? (region === 1 ? 8 : 4) : 0);
      // the mixed form with one sum per divider unit and with two (axis sums)
      expect(rungs.filter((r) => r.key.includes('.mix.')).map((r) => r.key.slice(-5))).toEqual(relaxed ? ['sums1', 'sums2', 'sums1', 'sums2'] : ['sums1', 'sums2']);
      // the mixed form in region 3 too (one root per pair there)
      expect(rungs.some((r) => r.key.includes('.mix.'))).toBe(true);
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

  it('the wasm rows run in rounds: the peer (the C baseline) once per round, each row its fastest round after the warm-up', async () => {
    const atoms = readPqr(`${GEM_DATA_DIR}mb_hhelix.pqr`);
    const verts = readVert(`${GEM_DATA_DIR}mb_hhelix.vert`);
    const P = gemParams(atoms, { p: 0 });
    const ref = gemReference(atoms, verts, P, 1);
    const rungs = wasmLadder(1, false).slice(0, 2);
    let calls = 0;
    const peer = { run: () => 1e-3 * ++calls, times: [] as number[] };
    const rows = await benchGemWasm(rungs, atoms, verts, P, ref, 4, undefined, undefined, peer);
    expect(rows.map((r) => r.key)).toEqual(rungs.map((r) => r.key));
    expect(peer.times).toEqual([1e-3, 2e-3, 3e-3, 4e-3]);
    // three timed rounds per row: a spread from the median, and a fastest time
    for (const r of rows) {
      expect(r.seconds).toBeGreaterThan(0);
      expect(Number.isFinite(r.spread)).toBe(true);
    }
  });

  it('the bench command refuses a bad density, thread count or target', async () => {
    await expect(benchGemCommand({ molecules: 'mb_hhelix', density: '-1' })).rejects.toThrow(/--density must be a positive number/);
    await expect(benchGemCommand({ molecules: 'mb_hhelix', threads: '1,0' })).rejects.toThrow(/--threads 0: the thread count must be an integer from 1 to \d+.*in --threads 1,0/);
    await expect(benchGemCommand({ molecules: 'mb_hhelix', targets: 'ts,cuda' })).rejects.toThrow(/--targets ts,cuda: unknown target cuda; allowed: ts, wasm, wgsl, gpujs, gpujs:cpu/);
  });
});

describe('GEM benchmark threaded and gpu.js rows (Mb.Hhelix, every 8th vertex, region 1)', () => {
  const atoms = readPqr(`${GEM_DATA_DIR}mb_hhelix.pqr`);
  const all = readVert(`${GEM_DATA_DIR}mb_hhelix.vert`);
  const idx = Array.from({ length: Math.ceil(all.n / 8) }, (_, i) => 8 * i);
  const pick = (a: Float64Array) => Float64Array.from(idx, (i) => a[i]!);
  const verts: GemVertices = { n: idx.length, x: pick(all.x), y: pick(all.y), z: pick(all.z), nx: pick(all.nx), ny: pick(all.ny), nz: pick(all.nz) };
  const P = gemParams(atoms, { p: 0 });
  const ref = gemReference(atoms, verts, P, 1);
  const keys = [
    { rung: 'f32', key: 'gem-potential.ts.region1.f32.zero.unroll4.div.block0' },
    { rung: 'wasm f32x4 (8 vertices)', key: 'gem-potential.wasm.region1.f32.zero.unroll8.div.block0.vertices.simd128' },
  ];

  it('TS and wasm on 2 and 3 threads equal one thread bit for bit and pass the bar; a wrong one-thread output is refused', async () => {
    const { runGem } = await import('../runtime/gem/run.ts');
    const { runGemWasm } = await import('../runtime/gem/wasm.ts');
    const single = new Map<string, Float64Array>();
    single.set(keys[0]!.key, (await runGem(keys[0]!.key, atoms, verts, { params: P })).phi);
    single.set(keys[1]!.key, (await runGemWasm(keys[1]!.key, atoms, verts, { params: P })).phi);
    const pools = new PoolsByThreads();
    try {
      const rows = await benchGemThreads(keys, [1, 2, 3], atoms, verts, P, ref, 1, single, pools, undefined, new Map([[keys[0]!.key, 1], [keys[1]!.key, 1]]));
      expect(rows.map((r) => `${r.key}@${r.threads}`)).toEqual(keys.flatMap((k) => [`${k.key}@2`, `${k.key}@3`]));
      for (const r of rows) {
        expect(r.identical).toBe(true);
        expect(r.rmse).toBeLessThanOrEqual(GEM_F32_RMSE);
        expect(r.seconds).toBeGreaterThan(0);
        expect(r.speedup).toBeCloseTo(1 / r.seconds, 9);
      }
      // the table shows each key's one-thread row (when there is one) and its threaded rows, per core = ratio / threads
      const full: GemBenchRow[] = rows.map((r) => ({ molecule: 'mb', region: 1, pairsPerSecond: 1 / r.seconds, ...r, vsC: 1, perCore: 1 / r.threads! }));
      expect(formatGemThreads(full)).toMatch(/\| `gem-potential\.wasm\.region1\.f32\.zero\.unroll8\.div\.block0\.vertices\.simd128` \| 3 \| .* \| 1\.00x \| 0\.33x \|/);
      const bad = new Map([[keys[1]!.key, single.get(keys[1]!.key)!.map((x) => x + 1e-3)]]);
      await expect(benchGemThreads(keys.slice(1), [2], atoms, verts, P, ref, 1, bad, pools)).rejects.toThrow(/on 2 threads differs from one thread at vertex 0/);
    } finally {
      await pools.close();
    }
  }, 60_000);

  it('gpu.js rows in the modes that run here (cpu and webasm at least), verified against the f64 reference with the f32 bar', async () => {
    const { modes, skipped } = await gemGpujsModes(['cpu', 'webasm']);
    for (const s of skipped) expect(s.why).toMatch(/gpu\.js mode/);
    const rows = await benchGemGpujs(modes, 1, atoms, verts, P, ref, 1);
    expect(rows.map((r) => r.key)).toEqual(modes.map((m) => gemGpujsKey(1, m)));
    for (const r of rows) {
      expect(r.precision).toBe('f32');
      expect(r.rmse).toBeLessThanOrEqual(GEM_F32_RMSE);
      expect(Number.isFinite(r.seconds) && r.seconds > 0).toBe(true);
    }
    if (modes.length > 0) await expect(benchGemGpujs(modes.slice(0, 1), 1, atoms, verts, P, ref.map((x) => x + 1), 1)).rejects.toThrow(/failed verification/);
  }, 60_000);
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
