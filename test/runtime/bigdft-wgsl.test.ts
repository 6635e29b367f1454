// Every bigdft-conv WGSL variant of the default library against the f64 reference of its
// filter and boundary, through Dawn (a GPU, or Mesa llvmpipe on machines without one; CI
// installs llvmpipe, so there it must not skip). Small odd grids keep llvmpipe quick.
import { describe, it, expect } from 'vitest';
import { libraryKeys, variantParams } from '../../runtime/variants.ts';
import { probeGpu } from '../../runtime/backends/webgpu.ts';
import { apply3d, ConvInputError } from '../../runtime/bigdft/apply.ts';
import { prepareWgsl3d, prepareWgslHamiltonian } from '../../runtime/bigdft/wgsl.ts';
import { separable, type Boundary, type Dims } from '../../runtime/bigdft/reference.ts';
import { convGain, convTolerance, randomValues, verifyConv } from '../../runtime/bigdft/verify.ts';
import type { FilterName } from '../../runtime/bigdft/filters.ts';

const probe = await probeGpu();
const keys = libraryKeys('bigdft-conv', 'wgsl');
// odd, and for the kinetic filter one tile plus a partial one along the first axis
const MAGIC_DIMS: Dims = [21, 19, 23];
const KIN_DIMS: Dims = [37, 31, 29];

const maxDiff = (a: ArrayLike<number>, b: ArrayLike<number>): number => {
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i]! - b[i]!));
  return m;
};

describe('WebGPU adapter (bigdft-conv)', () => {
  it.runIf(process.env.CI)('is available in CI (llvmpipe at least)', () => {
    expect(probe.ok, probe.ok ? '' : probe.why).toBe(true);
  });
});

describe('bigdft-conv WGSL library (spec)', () => {
  it('covers every filter, both boundaries, 1 and 2 outputs per invocation and the paper\'s 16x16 workgroup', () => {
    for (const part of ['.magic.periodic.', '.magic-t.periodic.', '.kinetic.periodic.', '.magic.free.', '.kinetic.free.', '.16x16.', '.32x8.', '.outputs1', '.outputs2']) {
      expect(keys.some((k) => k.includes(part)), part).toBe(true);
    }
    expect(keys.every((k) => k.includes('.f32.separable-t.'))).toBe(true);
    expect(keys.length).toBeLessThanOrEqual(12);
  });
});

describe.skipIf(!probe.ok)(`bigdft-conv WGSL library on ${probe.ok ? probe.name : `no adapter (${probe.ok ? '' : probe.why})`}`, () => {
  it.each(keys)('%s matches the f64 separable reference within the f32 bound', async (key) => {
    const p = await variantParams(key);
    const name = String(p.filter) as FilterName;
    const dims = name === 'kinetic' ? KIN_DIMS : MAGIC_DIMS;
    const h: Dims = [0.4, 0.45, 0.5];
    const x = randomValues(dims[0] * dims[1] * dims[2], 9);
    const got = await apply3d(key, x, ...dims, { h });
    const scale: Dims = [-1 / (2 * 0.4 ** 2), -1 / (2 * 0.45 ** 2), -1 / (2 * 0.5 ** 2)];
    const ref = separable(name, Float64Array.from(Float32Array.from(x)), dims, scale, p.boundary as Boundary);
    const tol = convTolerance('wgsl', 'f32', name, convGain(name, scale), 1);
    const err = maxDiff(got, ref);
    expect(err).toBeLessThanOrEqual(tol);
    // and far from a wrong boundary
    const other = separable(name, Float64Array.from(Float32Array.from(x)), dims, scale, p.boundary === 'free' ? 'periodic' : 'free');
    expect(maxDiff(got, other)).toBeGreaterThan(100 * tol);
  });

  it('the workload gate (verifyConv) accepts a WGSL variant; repeated dispatches give the same result', async () => {
    const key = 'bigdft-conv.wgsl.magic.periodic.f32.separable-t.16x16.outputs2';
    const v = await verifyConv(key);
    expect(v.ok, `${v.maxError} > ${v.tolerance}`).toBe(true);
    const dims: Dims = [17, 16, 18];
    const pre = await prepareWgsl3d(key, dims);
    try {
      await pre.upload(randomValues(dims[0] * dims[1] * dims[2], 4));
      await pre.dispatch();
      const a = await pre.result();
      await pre.dispatch();
      expect(maxDiff(a, await pre.result())).toBe(0);
    } finally {
      pre.destroy();
    }
  });

  it('rejects grids smaller than the filter and wrong input', async () => {
    const key = 'bigdft-conv.wgsl.magic.free.f32.separable-t.16x16.outputs1';
    await expect(apply3d(key, new Float64Array(16 * 15 * 16), 16, 15, 16)).rejects.toThrow(/n2 = 15 is smaller than the magic filter \(16 taps\).*free boundary/);
    await expect(apply3d('bigdft-conv.wgsl.kinetic.periodic.f32.separable-t.16x16.outputs1', new Float64Array(28 * 29 * 29), 28, 29, 29)).rejects.toThrow(ConvInputError);
    await expect(apply3d(key, new Float64Array(10), 16, 16, 16)).rejects.toThrow(/x has 10 values/);
    const x = new Float64Array(16 ** 3);
    x[5] = NaN;
    await expect(apply3d(key, x, 16, 16, 16)).rejects.toThrow(/x\[5\] = NaN is not finite/);
  });

  it('the local Hamiltonian kept on the device: H x = MF^T (V MF x) + T x, T x and E_pot against the f64 separable reference', async () => {
    // 29 points per axis at least (the kinetic filter); odd sizes, a partial workgroup of the
    // potential product (29 * 31 * 30 = 26970 = 105 * 256 + 90)
    const dims: Dims = [29, 31, 30];
    const n = dims[0] * dims[1] * dims[2];
    const h = 0.4;
    const x = Float32Array.from(randomValues(n, 21));
    const V = Float32Array.from(randomValues(n, 22), (v) => 0.5 + v);
    const H = await prepareWgslHamiltonian(
      { mf: 'bigdft-conv.wgsl.magic.periodic.f32.separable-t.8x32.outputs2', mft: 'bigdft-conv.wgsl.magic-t.periodic.f32.separable-t.16x16.outputs1', kin: 'bigdft-conv.wgsl.kinetic.periodic.f32.separable-t.16x16.outputs2' },
      dims,
      h,
      V,
    );
    try {
      const x64 = Float64Array.from(x);
      const psir = separable('magic', x64, dims);
      const vpsi = psir.map((p, i) => p * V[i]!);
      const a = separable('magic-t', vpsi, dims);
      const s = -1 / (2 * h * h);
      const t = separable('kinetic', x64, dims, [s, s, s]);
      let epot = 0;
      for (let i = 0; i < n; i++) epot += psir[i]! * vpsi[i]!;
      const hx = new Float32Array(n);
      const first = await H.apply(x, hx);
      const maxAbs = (v: ArrayLike<number>): number => maxDiff(v, new Float64Array(v.length));
      // f32 passes: three filters in a row on each side of V, plus T x
      const hRef = a.map((v, i) => v + t[i]!);
      expect(maxDiff(hx, hRef)).toBeLessThanOrEqual(1e-5 * maxAbs(a) + convTolerance('wgsl', 'f32', 'kinetic', convGain('kinetic', [s, s, s]), 1));
      // and far from T x alone or MF^T (V MF x) alone
      expect(maxDiff(hx, t)).toBeGreaterThan(0.1 * maxAbs(a));
      expect(maxDiff(hx, a)).toBeGreaterThan(0.1 * maxAbs(t));
      expect(maxDiff(first.t, t)).toBeLessThanOrEqual(convTolerance('wgsl', 'f32', 'kinetic', convGain('kinetic', [s, s, s]), 1));
      expect(Math.abs(first.epot - epot)).toBeLessThanOrEqual(1e-5 * Math.abs(epot));
      // the parts' GPU times where the device has timestamp queries (llvmpipe has none)
      if (H.timestamps) for (const v of Object.values(first.gpuMs!)) expect(v).toBeGreaterThanOrEqual(0);
      else expect(first.gpuMs).toBeUndefined();
      // the buffers are reused: a second application on other input gives that input's result
      const x2 = Float32Array.from(x, (v) => -2 * v);
      const second = await H.apply(x2, hx);
      expect(maxDiff(hx, hRef.map((v) => -2 * v))).toBeLessThanOrEqual(2e-5 * maxAbs(a) + 2 * convTolerance('wgsl', 'f32', 'kinetic', convGain('kinetic', [s, s, s]), 1));
      expect(maxDiff(second.t, t.map((v) => -2 * v))).toBeLessThanOrEqual(2 * convTolerance('wgsl', 'f32', 'kinetic', convGain('kinetic', [s, s, s]), 1));
      expect(Math.abs(second.epot - 4 * epot)).toBeLessThanOrEqual(4e-5 * Math.abs(epot));
    } finally {
      H.destroy();
    }
  });
});
