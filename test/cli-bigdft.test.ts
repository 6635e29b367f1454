// `kernforge run bigdft` (issue 5, part 1): the local Hamiltonian workload against plain f64
// computations from runtime/bigdft/reference.ts, two analytic checks (constant potential,
// plane-wave kinetic energy), the command-line wiring, and the user errors.
import { gpu, probeGpu } from '../runtime/backends/webgpu.ts';
import { describe, it, expect } from 'vitest';
import { Command } from 'commander';
import { registerBigdft } from '../cli/commands/bigdft.ts';
import { runBigdftWorkload, parseGrid, defaultPsi, defaultPotential } from '../runtime/bigdft/hamiltonian.ts';
import { UserError } from '../runtime/errors.ts';
import { separable, type Dims } from '../runtime/bigdft/reference.ts';
import { filter, defaultWgslKey } from '../runtime/bigdft/filters.ts';
import { webgpuDevice } from '../runtime/tune/devices.ts';
import { updateTuned } from '../runtime/tune/tuned.ts';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const quiet = () => {};
const DIMS: Dims = [29, 31, 33];
const H = 0.4;
const N = DIMS[0] * DIMS[1] * DIMS[2];
const rel = (a: number, b: number): number => Math.abs(a - b) / Math.abs(b);

function planeWave(dims: Dims, k: readonly number[]): Float64Array {
  const x = new Float64Array(dims[0] * dims[1] * dims[2]);
  for (let i3 = 0; i3 < dims[2]; i3++) for (let i2 = 0; i2 < dims[1]; i2++) for (let i1 = 0; i1 < dims[0]; i1++) {
    x[(i3 * dims[1] + i2) * dims[0] + i1] = Math.cos(2 * Math.PI * ((k[0]! * i1) / dims[0] + (k[1]! * i2) / dims[1] + (k[2]! * i3) / dims[2]));
  }
  return x;
}

describe('kernforge run bigdft: energies', () => {
  it('E_pot and E_kin equal a plain f64 computation on 29x31x33 (1e-12 relative)', async () => {
    const s = await runBigdftWorkload({ grid: '29x31x33', h: H, iterations: 1, precision: 'f64', log: quiet });
    const psi = defaultPsi(DIMS, H);
    const V = defaultPotential(DIMS);
    const psir = separable('magic', psi, DIMS);
    const scale = -1 / (2 * H * H);
    const tpsi = separable('kinetic', psi, DIMS, [scale, scale, scale]);
    const vpsir = Float64Array.from(psir, (p, i) => V[i]! * p);
    const back = separable('magic-t', vpsir, DIMS);
    let epot = 0;
    let ekin = 0;
    let eh = 0;
    for (let i = 0; i < N; i++) {
      epot += psir[i]! * vpsir[i]!;
      ekin += psi[i]! * tpsi[i]!;
      eh += psi[i]! * (back[i]! + tpsi[i]!);
    }
    const it = s.iterations[0]!;
    expect(rel(it.epot, epot)).toBeLessThan(1e-12);
    expect(rel(it.ekin, ekin)).toBeLessThan(1e-12);
    expect(rel(it.ehpsi, eh)).toBeLessThan(1e-12);
    // MF^T is the adjoint of MF: <psi | MF^T V MF psi> = E_pot
    expect(rel(it.ehpsi, it.epot + it.ekin)).toBeLessThan(1e-12);
    expect(s.verification.every((v) => v.maxError <= v.tolerance)).toBe(true);
    expect(s.flops).toEqual({ mf: 96 * N, mft: 96 * N, kin: 174 * N, h: 366 * N + 2 * N });
  });

  it('f32 agrees with f64 to single-precision accuracy, and the descent step lowers <psi|H psi>', async () => {
    const s64 = await runBigdftWorkload({ grid: DIMS, h: H, iterations: 3, precision: 'f64', log: quiet });
    const s32 = await runBigdftWorkload({ grid: DIMS, h: H, iterations: 3, precision: 'f32', log: quiet });
    for (let i = 0; i < 3; i++) {
      expect(rel(s32.iterations[i]!.epot, s64.iterations[i]!.epot)).toBeLessThan(1e-5);
      expect(rel(s32.iterations[i]!.ekin, s64.iterations[i]!.ekin)).toBeLessThan(1e-5);
    }
    expect(s64.iterations[2]!.ehpsi).toBeLessThan(s64.iterations[1]!.ehpsi);
    expect(s64.iterations[1]!.ehpsi).toBeLessThan(s64.iterations[0]!.ehpsi);
    expect(s32.variants.kin).toBe('bigdft-conv.ts.kinetic.periodic.f32.separable-t.8x1.inline.table');
  });

  it('with V = c, E_pot = c <psi_r | psi_r>', async () => {
    const c = -1.75;
    const s = await runBigdftWorkload({ grid: '29x31x33', h: H, iterations: 1, potential: c, log: quiet });
    const psir = separable('magic', defaultPsi(DIMS, H), DIMS);
    const norm = psir.reduce((a, p) => a + p * p, 0);
    expect(rel(s.iterations[0]!.epot, c * norm)).toBeLessThan(1e-12);
  });

  it("E_kin of a plane wave is the kinetic filter's Fourier transform value", async () => {
    const f = filter('kinetic');
    const ft = (k: number, n: number): number => f.coefficients.reduce((s, c, l) => s + c * Math.cos((2 * Math.PI * k * (l + f.offset)) / n), 0);
    for (const k of [[1, 0, 0], [2, -3, 5], [14, 15, 16]]) {
      const s = await runBigdftWorkload({ grid: DIMS, h: 0.3, iterations: 1, psi: planeWave(DIMS, k), potential: 0, log: quiet });
      const lambda = k.reduce((a, kd, d) => a - ft(kd, DIMS[d]!) / (2 * 0.3 ** 2), 0);
      expect(rel(s.iterations[0]!.ekin, lambda), `k = ${k}`).toBeLessThan(1e-12);
      expect(s.iterations[0]!.epot).toBe(0);
    }
  });
});

describe('kernforge run bigdft: command line and errors', () => {
  it('registerBigdft adds `bigdft` under `run` and passes the options through', async () => {
    const program = new Command().exitOverride();
    registerBigdft(program.command('run'));
    const lines: string[] = [];
    const orig = console.log;
    console.log = (l: string) => void lines.push(l);
    try {
      await program.parseAsync(['run', 'bigdft', '--grid', '31x29x30', '--h', '0.35', '--iterations', '2', '--precision', 'f32'], { from: 'user' });
    } finally {
      console.log = orig;
    }
    const text = lines.join('\n');
    expect(text).toContain('31x29x30');
    expect(text).toContain('magic.periodic.f32.separable-t.8x1.inline.table');
    expect(text).toMatch(/MF {3}\(magic filter\) +[\d.]+ ms +[\d.]+ GFlop\/s/);
    expect(text).toContain('3*2*29*n');
  });

  it('rejects a malformed --grid', async () => {
    for (const g of ['128x126', 'abc', '10x10x', '12x-3x40', '1.5x30x30', '']) {
      await expect(runBigdftWorkload({ grid: g, log: quiet }), g).rejects.toThrow(UserError);
    }
    expect(() => parseGrid('33x31')).toThrow(/--grid "33x31" is not of the form n1xn2xn3/);
    expect(() => parseGrid('0x30x30')).toThrow(/positive integer/);
    expect(parseGrid(' 33 X 31x29 ')).toEqual([33, 31, 29]);
  });

  it('rejects a grid smaller than the filter', async () => {
    await expect(runBigdftWorkload({ grid: '17x19x21', log: quiet })).rejects.toThrow(/n1 = 17 is smaller than the kinetic filter \(29 taps\)/);
    await expect(runBigdftWorkload({ grid: '40x28x40', log: quiet })).rejects.toThrow(UserError);
  });

  it('rejects non-finite input and bad options', async () => {
    const psi = defaultPsi(DIMS, H);
    psi[10] = NaN;
    await expect(runBigdftWorkload({ grid: DIMS, psi, log: quiet })).rejects.toThrow(/psi\[10\] = NaN is not finite/);
    const V = new Float64Array(N);
    V[5] = Infinity;
    await expect(runBigdftWorkload({ grid: DIMS, potential: V, log: quiet })).rejects.toThrow(/potential\[5\] = Infinity is not finite/);
    await expect(runBigdftWorkload({ grid: DIMS, potential: NaN, log: quiet })).rejects.toThrow(UserError);
    await expect(runBigdftWorkload({ grid: DIMS, h: 'inf', log: quiet })).rejects.toThrow(/--h = inf must be a finite positive number/);
    await expect(runBigdftWorkload({ grid: DIMS, h: -0.4, log: quiet })).rejects.toThrow(UserError);
    await expect(runBigdftWorkload({ grid: DIMS, iterations: '2.5', log: quiet })).rejects.toThrow(/--iterations/);
    await expect(runBigdftWorkload({ grid: DIMS, precision: 'f16', log: quiet })).rejects.toThrow(/use f64 or f32/);
    await expect(runBigdftWorkload({ grid: DIMS, psi: new Float64Array(N), log: quiet })).rejects.toThrow(/norm 0/);
    await expect(runBigdftWorkload({ grid: DIMS, psi: new Float64Array(7), log: quiet })).rejects.toThrow(/psi has 7 values/);
  });

  it('refuses a variant of the wrong filter, precision or family', async () => {
    await expect(runBigdftWorkload({ grid: DIMS, variantMf: 'bigdft-conv.ts.kinetic.periodic.f64.separable-t.8x1.inline.table', log: quiet })).rejects.toThrow(/needs a magic variant/);
    await expect(runBigdftWorkload({ grid: DIMS, variantKin: 'bigdft-conv.ts.kinetic.periodic.f32.separable-t.8x1.inline.table', log: quiet })).rejects.toThrow(/f32 variant but --precision is f64/);
    await expect(runBigdftWorkload({ grid: DIMS, variantKin: 'bigdft-conv.ts.kinetic.periodic.f64.separable-t.3x3.inline.table', log: quiet })).rejects.toThrow(UserError);
    await expect(runBigdftWorkload({ grid: DIMS, variantMf: 'md-nonbonded.ts.lj.geom.shift.f64.fev.4x4.mask.mask', log: quiet })).rejects.toThrow(/not a bigdft-conv variant/);
    await expect(runBigdftWorkload({ grid: DIMS, variantMf: 'bigdft-conv.ts.magic.free.f64.separable-t.1x4.inline.split', log: quiet })).rejects.toThrow(/free boundary; the workload's grid is periodic/);
  });

  it('runs the other algorithms and WGSL variants (verified first) with the same energies', async () => {
    const base = await runBigdftWorkload({ grid: DIMS, iterations: 1, precision: 'f32', log: quiet });
    const other = await runBigdftWorkload({
      grid: DIMS,
      iterations: 1,
      precision: 'f32',
      variantKin: 'bigdft-conv.ts.kinetic.periodic.f32.separable-t.4x1.inline.split',
      ...((await probeGpu()).ok ? { variantMf: 'bigdft-conv.wgsl.magic.periodic.f32.separable-t.16x16.outputs2', variantMft: 'bigdft-conv.wgsl.magic-t.periodic.f32.separable-t.16x16.outputs1' } : {}),
      log: quiet,
    });
    for (const e of ['epot', 'ekin', 'ehpsi'] as const) expect(other.iterations[0]![e]).toBeCloseTo(base.iterations[0]![e], 5);
    // all three on WGSL: the application stays on the device (one submission), with the same energies
    if ((await probeGpu()).ok) {
      const lines: string[] = [];
      const wgsl = await runBigdftWorkload({
        grid: DIMS,
        iterations: 2,
        precision: 'f32',
        variantMf: 'bigdft-conv.wgsl.magic.periodic.f32.separable-t.32x8.outputs2',
        variantMft: 'bigdft-conv.wgsl.magic-t.periodic.f32.separable-t.16x16.outputs2',
        variantKin: 'bigdft-conv.wgsl.kinetic.periodic.f32.separable-t.16x16.outputs1',
        log: (l) => lines.push(l),
      });
      const two = await runBigdftWorkload({ grid: DIMS, iterations: 2, precision: 'f32', log: quiet });
      for (const it of [0, 1]) for (const e of ['epot', 'ekin', 'ehpsi'] as const) expect(wgsl.iterations[it]![e]).toBeCloseTo(two.iterations[it]![e], 5);
      expect(lines.join('\n')).toMatch(/each application is one submission/);
      expect(wgsl.iterations[0]!.ms.h).toBeGreaterThan(0);
      // the parts: the GPU's timestamps where the adapter has them (not llvmpipe), else not measured
      if ((await gpu()).timestamps) {
        for (const p of ['mf', 'potential', 'mft', 'kin'] as const) expect(wgsl.iterations[0]!.ms[p]).toBeGreaterThan(0);
        expect(lines.join('\n')).toMatch(/its parts are the GPU's own times/);
      } else {
        expect(wgsl.iterations[0]!.ms.mf).toBeNaN();
        expect(lines.join('\n')).toMatch(/its parts are not \(the adapter has no timestamp queries\)/);
        expect(lines.find((l) => l.includes('MF   (magic filter)'))).toMatch(/ - ms +- GFlop\/s/);
      }
    }
    const f64 = await runBigdftWorkload({ grid: DIMS, iterations: 1, variantMf: 'bigdft-conv.ts.magic.periodic.f64.separable.2x4.inline.split', log: quiet });
    const f64base = await runBigdftWorkload({ grid: DIMS, iterations: 1, log: quiet });
    expect(f64.iterations[0]!.epot).toBeCloseTo(f64base.iterations[0]!.epot, 12);
  });

  it("--target wgsl: the WebGPU adapter's tuned winners, else its defaults, in f32, the application kept on the device", async () => {
    await expect(runBigdftWorkload({ grid: DIMS, target: 'wgsl', precision: 'f64', log: quiet })).rejects.toThrow(/--target wgsl: the WGSL variants are f32 only/);
    await expect(runBigdftWorkload({ grid: DIMS, target: 'cuda', log: quiet })).rejects.toThrow(/use ts, wasm or wgsl/);
    const probe = await probeGpu();
    if (!probe.ok) {
      expect(process.env.CI, 'CI has llvmpipe: this test must run there').toBeFalsy();
      return;
    }
    const base = await runBigdftWorkload({ grid: DIMS, iterations: 1, precision: 'f32', log: quiet });
    const d = mkdtempSync(join(tmpdir(), 'kf-bigdft-wgsl-'));
    const out = join(d, 'tuned.json');
    const winner = 'bigdft-conv.wgsl.magic.periodic.f32.separable-t.32x8.outputs2';
    updateTuned(out, await webgpuDevice(), 'bigdft-conv', 'magic-f32', { key: winner, medianMs: 0.1, defaultKey: null, defaultMs: null, speedup: null, when: new Date().toISOString() });
    const old = process.env.KERNFORGE_TUNED;
    process.env.KERNFORGE_TUNED = out;
    try {
      const lines: string[] = [];
      const s = await runBigdftWorkload({ grid: DIMS, iterations: 1, target: 'wgsl', log: (l) => lines.push(l) });
      expect(s.precision).toBe('f32');
      expect(s.threads).toBe(1);
      // the tuned magic filter; the others untuned: the adapter's defaults
      expect(s.variants).toEqual({ mf: winner, mft: defaultWgslKey('magic-t'), kin: defaultWgslKey('kinetic') });
      expect(lines.join('\n')).toMatch(/each application is one submission/);
      for (const e of ['epot', 'ekin', 'ehpsi'] as const) expect(s.iterations[0]![e]).toBeCloseTo(base.iterations[0]![e], 5);
    } finally {
      if (old === undefined) delete process.env.KERNFORGE_TUNED;
      else process.env.KERNFORGE_TUNED = old;
      rmSync(d, { recursive: true, force: true });
    }
  });
});
