// The pme-mesh family (generated spread and gather kernels) against the f64 reference: every
// library variant of the CPU targets through the family's gate, the WGSL ones where WebGPU has an
// adapter, the CPU layout (tiles, fold/unfold), and createPmeMesh as the MD engine calls it.
import { describe, it, expect } from 'vitest';
import { libraryKeys } from '../../runtime/variants.ts';
import { probeGpu } from '../../runtime/backends/webgpu.ts';
import {
  createPmeMesh, verifyPmeKey, pmeReciprocal, ewaldCoeff, pmeGrid, PmeInputError, REFERENCE_MESH, PME_GATE_TOLERANCE, defaultPmeMeshKey,
} from '../../runtime/pme/index.ts';
import { fold, unfold, paddedDims, tileOrder, cellsAndFractions } from '../../runtime/pme/layout.ts';
import { PME_TARGETS } from '../../runtime/pme/targets.ts';
import { RealFft3d } from '../../runtime/pme/fft.ts';
import { backend } from '../../runtime/backends/registry.ts';
import { waterCharges } from '../../runtime/pme/family.ts';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { tune } from '../../runtime/tune/tuner.ts';
import { createProgress } from '../../runtime/tune/progress.ts';
import { loadTuned } from '../../runtime/tune/tuned.ts';

const wasmSimd = (await backend('wasm').available()).ok;
const cpuKeys = [...libraryKeys('pme-mesh', 'ts'), ...libraryKeys('pme-mesh', 'wasm')];

describe('pme-mesh library', () => {
  it('has every order 4..6 on ts, wasm and wgsl, and only those targets', () => {
    for (const t of ['ts', 'wasm', 'wgsl']) for (const o of [4, 5, 6]) expect(libraryKeys('pme-mesh', t).some((k) => k.includes(`.order${o}.`))).toBe(true);
    expect(libraryKeys('pme-mesh').length).toBe(34);
    expect(libraryKeys('pme-mesh', 'gpujs')).toEqual([]);
  });

  it.each(cpuKeys)('%s matches the f64 reference (gate)', async (key) => {
    const r = await verifyPmeKey(key);
    expect(r.ok, r.detail).toBe(true);
    if (key.includes('.f64.')) {
      // f64 kernels agree with the reference to rounding
      expect(r.energyError).toBeLessThan(1e-13);
      expect(r.forceError).toBeLessThan(1e-13);
    } else {
      expect(r.energyError).toBeLessThan(PME_GATE_TOLERANCE.f32.energy);
      expect(r.forceError).toBeGreaterThan(1e-12); // really computed in f32
    }
  });
});

describe('the gate refuses broken kernels', () => {
  // keys outside the library (rendered on demand) that no other test has verified (the gate caches per key)
  it.each([
    ['pme-mesh.ts.order5.f64.loop.tile4', 'spread', /^energy .*\(relative [0-9.e-]+, allowed 1e-11\)/],
    ['pme-mesh.ts.order6.f64.loop.tile8', 'gather', /forces RMS error/],
  ] as const)('%s with a wrong %s fails', async (key, part, why) => {
    const real = PME_TARGETS.get('ts', 'test');
    const undo = PME_TARGETS.register('ts', {
      async prepare(k, box, grid, n) {
        const p = await real.prepare(k, box, grid, n);
        return {
          ...p,
          spread(x, q, out) {
            p.spread(x, q, out);
            if (part === 'spread') out[7] += 1e-6; // one grid point off by a millionth of a charge
          },
          gather(phi, f) {
            p.gather(phi, f);
            if (part === 'gather') f[4] *= 1 + 1e-6; // one force component off by 1e-6
          },
        };
      },
    });
    try {
      const r = await verifyPmeKey(key);
      expect(r.ok).toBe(false);
      expect(r.worst).toBeGreaterThan(1);
      expect(r.detail).toMatch(why);
    } finally {
      undo();
    }
  });
});

// The wasm variants' layout work, FFT data moves and influence-function product
// (generator/families/pme-mesh.ts watFftOps, watGridOps) replace TypeScript loops: they must give
// the same numbers, bit for bit, on even and odd shapes and every order.
describe.skipIf(!wasmSimd)('the wasm variants\' mesh ops give the TypeScript loops\' numbers', () => {
  const { x, q, box } = waterCharges(400, 1.6);
  // some positions outside the box, on its faces and just below them
  for (let i = 0; i < 60; i++) x[i] = ((i % 7) - 3) * box[i % 3]! + (i % 5 === 0 ? 0 : 0.3 * Math.sin(i));
  x[63] = box[0]; x[64] = -1e-17; x[65] = box[2] * (1 - 1e-16);
  const n = q.length;
  const shapes: [number, number, number][] = [[12, 10, 14], [11, 13, 15], [10, 9, 12], [16, 16, 7]];

  const cases = shapes.flatMap((g) => (['f64', 'f32'] as const).map((prec) => [...g, prec] as const));
  it.each(cases)('RealFft3d %ix%ix%i, %s: forward spectrum and backward grid equal those of the TypeScript moves', async (...c) => {
    const grid = c.slice(0, 3) as [number, number, number];
    const prec = c[3] as 'f32' | 'f64';
    const key = `pme-mesh.wasm.order4.${prec}.full.tile0`;
    const a = await PME_TARGETS.get('wasm', 'test').prepare(key, box, grid, n);
    const b = await PME_TARGETS.get('wasm', 'test').prepare(key, box, grid, n);
    const withOps = new RealFft3d(grid, a.fft);
    const without = new RealFft3d(grid, { ...b.fft, ops: undefined });
    const len = grid[0] * grid[1] * grid[2];
    const x0 = Float64Array.from({ length: len }, (_, i) => Math.sin(0.37 * i) + Math.cos(0.001 * i * i));
    const y1 = x0.slice(), y2 = x0.slice();
    withOps.forward(y1);
    without.forward(y2);
    expect(withOps.re).toEqual(without.re);
    expect(withOps.im).toEqual(without.im);
    // the spectrum is not all zeros (the comparison means something)
    expect(withOps.re.some((v) => Math.abs(v) > 1)).toBe(true);
    withOps.backward(y1);
    without.backward(y2);
    expect(y1).toEqual(y2);
    // the round trip: f64 to round-off, f32 (GROMACS's mixed precision) to its own
    for (let i = 0; i < len; i += 37) expect(Math.abs(y1[i]! / len - x0[i]!)).toBeLessThan(prec === 'f64' ? 1e-13 : 2e-6);
    expect(withOps.re).toBeInstanceOf(prec === 'f64' ? Float64Array : Float32Array);
  });

  it.each(['f32', 'f64'])('%s: cells, fold and unfold in the module equal layout.ts on a grid of the variant\'s precision (orders 4 to 6, even and odd grids)', async (prec) => {
    for (const order of [4, 5, 6]) {
      for (const grid of [[12, 10, 14], [11, 13, 15]] as [number, number, number][]) {
        const key = `pme-mesh.wasm.order${order}.${prec}.full.tile0`;
        const prep = await PME_TARGETS.get('wasm', 'test').prepare(key, box, grid, n);
        const len = grid[0] * grid[1] * grid[2];
        const inMemory = prep.fft!.alloc!(len);
        const onHeap = inMemory.slice().fill(0); // the same precision, outside the module
        // the same atoms through the module's fold (grid in its memory) and layout.ts fold
        prep.spread(x, q, inMemory);
        prep.spread(x, q, onHeap);
        expect(inMemory).toEqual(onHeap);
        expect(onHeap.some((v) => v !== 0)).toBe(true);
        // the module's cells against cellsAndFractions: a spread after layout.ts's cells gives the same grid
        const cell = new Int32Array(3 * n), frac = new Float64Array(3 * n);
        cellsAndFractions(x, box, grid, cell, frac);
        const d = paddedDims(grid, order);
        const ts = await PME_TARGETS.get('ts', 'test').prepare(`pme-mesh.ts.order${order}.f64.full.tile0`, box, grid, n);
        const tsGrid = new Float64Array(len);
        ts.spread(x, q, tsGrid);
        for (let i = 0; i < len; i++) expect(Math.abs(inMemory[i]! - tsGrid[i]!)).toBeLessThan(prec === 'f32' ? 1e-5 : 1e-12);
        expect(d[2]).toBeGreaterThan(grid[2]);
        // the module's unfold (phi in its memory) and layout.ts unfold give the same forces
        for (let i = 0; i < len; i++) inMemory[i] = onHeap[i] = Math.sin(0.1 * i);
        const f1 = new Float64Array(3 * n), f2 = new Float64Array(3 * n);
        prep.gather(inMemory, f1);
        prep.gather(onHeap, f2);
        expect(f1).toEqual(f2);
        expect(f1.some((v) => v !== 0)).toBe(true);
      }
    }
  });

  it('the forces-only solve (influence function made once, scaled in the module) gives the energies solve\'s potential mesh', async () => {
    const grid: [number, number, number] = [20, 18, 22];
    const params = { beta: ewaldCoeff(0.8, 1e-5), grid, order: 4 };
    const mesh = await createPmeMesh(box, params, n, { variant: 'pme-mesh.wasm.order4.f64.full.tile0' });
    const fa = new Float64Array(3 * n), fb = new Float64Array(3 * n), fr = new Float64Array(3 * n);
    mesh.compute(x, q, fa, false);
    mesh.compute(x, q, fb, true);
    mesh.compute(x, q, fa.fill(0), false); // the second forces-only call reuses the function
    pmeReciprocal(x, q, box, params, fr);
    for (let i = 0; i < fa.length; i++) {
      expect(Math.abs(fa[i]! - fb[i]!)).toBeLessThan(1e-12 * (1 + Math.abs(fb[i]!)));
      expect(Math.abs(fa[i]! - fr[i]!)).toBeLessThan(1e-9 * (1 + Math.abs(fr[i]!)));
    }
  });
});

describe('the CPU layout', () => {
  const grid = [10, 12, 14] as const;
  const order = 5;
  it('fold and unfold are adjoint: <fold(P), G> = <P, unfold(G)>', () => {
    const d = paddedDims(grid, order);
    const P = Float64Array.from({ length: d[0] * d[1] * d[2] }, (_, i) => Math.sin(i));
    const G = Float64Array.from({ length: grid[0] * grid[1] * grid[2] }, (_, i) => Math.cos(0.3 * i));
    const fp = new Float64Array(G.length);
    fold(P, grid, order, fp);
    const ug = new Float64Array(P.length);
    unfold(G, grid, order, ug);
    const a = fp.reduce((s, v, i) => s + v * G[i]!, 0);
    const b = P.reduce((s, v, i) => s + v * ug[i]!, 0);
    expect(Math.abs(a - b) / Math.abs(a)).toBeLessThan(1e-12);
  });

  it('tileOrder visits every atom once, tile by tile', () => {
    const { x, box } = waterCharges(200, 2.0);
    const n = x.length / 3;
    const cell = new Int32Array(3 * n);
    cellsAndFractions(x, box, grid, cell, new Float64Array(3 * n));
    const ord = new Int32Array(n);
    tileOrder(cell, grid, 4, ord);
    expect([...ord].sort((a, b) => a - b)).toEqual(Array.from({ length: n }, (_, i) => i));
    const tileOf = (i: number): number => (Math.floor(cell[3 * i]! / 4) * 3 + Math.floor(cell[3 * i + 1]! / 4)) * 4 + Math.floor(cell[3 * i + 2]! / 4);
    for (let k = 1; k < n; k++) expect(tileOf(ord[k]!)).toBeGreaterThanOrEqual(tileOf(ord[k - 1]!));
  });
});

describe('createPmeMesh (the MD engine fast path)', () => {
  const { x, q, box } = waterCharges(300, 2.1);
  const beta = ewaldCoeff(0.9, 1e-5);

  it.each([4, 5, 6])('order %i: the default variant gives the reference energy, virial and forces', async (order) => {
    const params = { beta, grid: pmeGrid(box, 0.12), order };
    const mesh = await createPmeMesh(box, params, q.length);
    expect(mesh.key).toBe(await defaultPmeMeshKey(order));
    const f = new Float64Array(x.length);
    const r = mesh.compute(x, q, f);
    const fr = new Float64Array(x.length);
    const ref = pmeReciprocal(x, q, box, params, fr);
    expect(Math.abs(r.energy - ref.energy) / Math.abs(ref.energy)).toBeLessThan(1e-13);
    for (let k = 0; k < 9; k++) expect(r.virial[k]).toBeCloseTo(ref.virial[k]!, 9);
    for (let i = 0; i < f.length; i++) expect(f[i]).toBeCloseTo(fr[i]!, 9);
    // a second call on moved atoms (the MD step) still agrees
    const x2 = x.map((v, i) => v + 0.01 * Math.sin(i));
    const r2 = mesh.compute(x2, q);
    expect(Math.abs(r2.energy - pmeReciprocal(x2, q, box, params).energy) / Math.abs(ref.energy)).toBeLessThan(1e-13);
    // forces only (energies false): the same forces, no energy
    const f3 = new Float64Array(x.length);
    const r3 = mesh.compute(x, q, f3, false);
    expect(r3.energy).toBeNaN();
    for (let i = 0; i < f.length; i++) expect(f3[i]).toBeCloseTo(fr[i]!, 9);
    expect(mesh.timers.calls).toBe(3);
    mesh.dispose();
  });

  it.each([4, 6])('order %i, an f32 run: the f32 wasm mesh, within the f32 bar of the reference; f64 runs keep f64', async (order) => {
    const params = { beta, grid: pmeGrid(box, 0.12), order };
    const mesh = await createPmeMesh(box, params, q.length, { precision: 'f32' });
    expect(mesh.key).toBe(`pme-mesh.wasm.order${order}.f32.${order === 4 ? 'full' : 'loop'}.tile0`);
    expect((await createPmeMesh(box, params, q.length, { precision: 'f64' })).key).toBe(await defaultPmeMeshKey(order));
    expect(await defaultPmeMeshKey(order)).toMatch(/\.f64\./);
    const f = new Float64Array(x.length);
    const r = mesh.compute(x, q, f);
    const fr = new Float64Array(x.length);
    const ref = pmeReciprocal(x, q, box, params, fr);
    const eErr = Math.abs(r.energy - ref.energy) / Math.abs(ref.energy);
    expect(eErr).toBeLessThan(PME_GATE_TOLERANCE.f32.energy);
    let d2 = 0, r2 = 0;
    for (let i = 0; i < f.length; i++) {
      d2 += (f[i]! - fr[i]!) ** 2;
      r2 += fr[i]! ** 2;
    }
    const fErr = Math.sqrt(d2 / r2);
    expect(fErr).toBeLessThan(PME_GATE_TOLERANCE.f32.force);
    expect(fErr).toBeGreaterThan(1e-10); // the grid really is f32
    mesh.dispose();
  });

  it('takes the tuned winner of `kernforge tune pme-mesh` for its order from the artefact', async () => {
    const d = mkdtempSync(join(tmpdir(), 'kf-pme-tune-'));
    const out = join(d, 'tuned.json');
    const r = await tune({ families: ['pme-mesh'], problems: ['water-mesh-small'], maxEvals: 3, reps: 2, strategy: 'random', cache: d, out, progress: createProgress({ quiet: true }), log: () => {} });
    expect(r.rows).toHaveLength(1);
    expect(r.rows[0]!.failed).toBe(0);
    const t = await loadTuned('pme-mesh', 'water-mesh', { path: out, load: false, warn: () => {} });
    expect(t.tuned).toBe(true);
    expect(await defaultPmeMeshKey(4, { tuned: out })).toBe(t.key);
    const params = { beta, grid: pmeGrid(box, 0.12), order: 4 };
    expect((await createPmeMesh(box, params, q.length, { tuned: out })).key).toBe(t.key);
    // order 5 has no problem class: the built-in default
    expect(await defaultPmeMeshKey(5, { tuned: out })).toBe(await defaultPmeMeshKey(5));
  }, 60_000);

  it.each(['pme-mesh.wasm.order4.f64.loop.tile0', 'pme-mesh.ts.order5.f64.full.tile0', 'pme-mesh.wasm.order5.f64.full.tile0'])('%s on an odd grid (25 x 21 x 27) gives the reference', async (variant) => {
    const params = { beta, grid: [25, 21, 27] as [number, number, number], order: Number(variant.split('.order')[1]![0]) };
    const mesh = await createPmeMesh(box, params, q.length, { variant });
    const f = new Float64Array(x.length);
    const fr = new Float64Array(x.length);
    const r = mesh.compute(x, q, f);
    const ref = pmeReciprocal(x, q, box, params, fr);
    expect(Math.abs(r.energy - ref.energy) / Math.abs(ref.energy)).toBeLessThan(1e-13);
    for (let i = 0; i < f.length; i++) expect(f[i]).toBeCloseTo(fr[i]!, 9);
  });

  it('a wasm variant with its SIMD FFT on sizes with the radices 7 and 11 (44 x 22 x 42) gives the reference', async () => {
    const params = { beta, grid: [44, 22, 42] as [number, number, number], order: 4 };
    const mesh = await createPmeMesh(box, params, q.length, { variant: 'pme-mesh.wasm.order4.f64.loop.tile0' });
    const f = new Float64Array(x.length);
    const fr = new Float64Array(x.length);
    const r = mesh.compute(x, q, f);
    const ref = pmeReciprocal(x, q, box, params, fr);
    expect(Math.abs(r.energy - ref.energy) / Math.abs(ref.energy)).toBeLessThan(1e-13);
    for (let i = 0; i < f.length; i++) expect(f[i]).toBeCloseTo(fr[i]!, 9);
  });

  it('orders without kernels run on the reference; a variant of another order is refused', async () => {
    const params = { beta, grid: pmeGrid(box, 0.12), order: 8 };
    const mesh = await createPmeMesh(box, params, q.length);
    expect(mesh.key).toBe(REFERENCE_MESH);
    expect(mesh.compute(x, q).energy).toBe(pmeReciprocal(x, q, box, params).energy);
    await expect(createPmeMesh(box, { ...params, order: 4 }, q.length, { variant: 'pme-mesh.ts.order6.f64.full.tile0' })).rejects.toThrow(/has order 6, the mesh order 4/);
    const m4 = await createPmeMesh(box, { ...params, order: 4 }, q.length, { variant: 'pme-mesh.ts.order4.f64.loop.tile8' });
    expect(() => m4.compute(x, q.subarray(1))).toThrow(PmeInputError);
  });
});

const gpu = await probeGpu();
describe.skipIf(!gpu.ok)('pme-mesh WGSL (f32, on the WebGPU adapter)', () => {
  it.each(['pme-mesh.wgsl.order4.f32.workgroup64.split1', 'pme-mesh.wgsl.order4.f32.workgroup128.split4', 'pme-mesh.wgsl.order6.f32.workgroup64.split1'])('%s matches the f64 reference within the f32 bar', async (key) => {
    const r = await verifyPmeKey(key);
    expect(r.ok, r.detail).toBe(true);
    expect(r.forceError).toBeGreaterThan(1e-9);
  }, 60_000);

  it('split 4 on a grid whose nz is not a multiple of 4 (25 x 21 x 27)', async () => {
    const { x, q, box } = waterCharges(150, 2.0);
    const params = { beta: ewaldCoeff(0.9, 1e-5), grid: [25, 21, 27] as [number, number, number], order: 4 };
    const mesh = await createPmeMesh(box, params, q.length, { variant: 'pme-mesh.wgsl.order4.f32.workgroup128.split4' });
    const f = new Float64Array(x.length);
    const fr = new Float64Array(x.length);
    const r = await mesh.computeAsync(x, q, f);
    const ref = pmeReciprocal(x, q, box, params, fr);
    expect(Math.abs(r.energy / ref.energy - 1)).toBeLessThan(2e-5);
    let num = 0, den = 0;
    for (let i = 0; i < f.length; i++) { num += (f[i]! - fr[i]!) ** 2; den += fr[i]! ** 2; }
    expect(Math.sqrt(num / den)).toBeLessThan(2e-4);
    mesh.dispose();
  }, 60_000);

  it('createPmeMesh with a WGSL variant: computeAsync, and compute says to use it', async () => {
    const { x, q, box } = waterCharges(100, 1.6);
    const params = { beta: ewaldCoeff(0.7, 1e-5), grid: pmeGrid(box, 0.12), order: 4 };
    const mesh = await createPmeMesh(box, params, q.length, { variant: 'pme-mesh.wgsl.order4.f32.workgroup64.split2' });
    expect(() => mesh.compute(x, q)).toThrow(/computeAsync/);
    const r = await mesh.computeAsync(x, q);
    expect(Math.abs(r.energy / pmeReciprocal(x, q, box, params).energy - 1)).toBeLessThan(2e-5);
    mesh.dispose();
  }, 60_000);
});
