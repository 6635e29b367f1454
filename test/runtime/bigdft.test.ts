// bigdft-conv TypeScript variants (direct, separable, separable-t; periodic and free) against
// plain f64 references on odd, non-power-of-two grids, plus the filters' own identities: a
// constant field is unchanged by the magic filter, the transposed filter is its adjoint, and
// plane waves are eigenvectors of the kinetic operator with the eigenvalue given by the
// filter's Fourier transform. The free boundary is checked against the periodic direct sum on
// a grid padded with zeros.
import { describe, it, expect } from 'vitest';
import { libraryKeys, variantParams } from '../../runtime/variants.ts';
import { apply3d, ConvInputError } from '../../runtime/bigdft/apply.ts';
import { separable, direct, type Boundary, type Dims } from '../../runtime/bigdft/reference.ts';
import { filter, type FilterName } from '../../runtime/bigdft/filters.ts';

const keys = libraryKeys('bigdft-conv', 'ts');
const MAGIC_DIMS: Dims = [21, 19, 23];
// Kinetic: 29 taps; 37 leaves room for interior blocks of the split loops.
const KIN_DIMS: Dims = [37, 33, 31];

function random(n: number, seed: number): Float64Array {
  let s = seed >>> 0;
  return Float64Array.from({ length: n }, () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 31 - 1;
  });
}

const maxAbs = (a: ArrayLike<number>): number => {
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i]!));
  return m;
};
const maxDiff = (a: ArrayLike<number>, b: ArrayLike<number>): number => {
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i]! - b[i]!));
  return m;
};

/**
 * Bound on |result| per unit max|x|: (sum |f|)^3 for the magic filters (three passes),
 * sum_d |scale_d| * sum |d2| for the kinetic operator (scale 1/2 per dimension at h = 1).
 */
function gain(name: FilterName): number {
  const l1 = filter(name).coefficients.reduce((s, c) => s + Math.abs(c), 0);
  return name === 'kinetic' ? 1.5 * l1 : l1 ** 3;
}

/**
 * f32 variants store x and every pass's output in f32 (relative rounding 2^-24) and compute
 * in doubles: the input and three intermediate roundings, each at most 2^-24 of a value bounded
 * by gain * max|x|, propagate with a gain of at most `gain`; 8 * 2^-24 * gain * max|x| covers
 * them. f64 variants differ from the reference only by summation order: 64 ulps of the bound.
 */
const tolerance = (precision: string, name: FilterName, xmax: number): number =>
  (precision === 'f32' ? 8 * 2 ** -24 : 64 * 2 ** -53) * gain(name) * xmax;

describe('bigdft-conv TypeScript library', () => {
  it('covers magic, magic-t and kinetic in both precisions, and every wrap / coeffs choice', () => {
    for (const part of ['.magic.periodic.f64.', '.magic.periodic.f32.', '.magic-t.periodic.f64.', '.kinetic.periodic.f64.', '.kinetic.periodic.f32.', '.array.', '.split']) {
      expect(keys.some((k) => k.includes(part)), part).toBe(true);
    }
    for (const part of ['.magic.free.', '.magic-t.free.', '.kinetic.free.', '.direct.', '.separable.', '.separable-t.']) {
      expect(keys.some((k) => k.includes(part)), part).toBe(true);
    }
  });

  it.each(keys)('%s matches the f64 separable reference of its boundary', async (key) => {
    const p = await variantParams(key);
    const name = String(p.filter) as FilterName;
    const dims = name === 'kinetic' ? KIN_DIMS : MAGIC_DIMS;
    const x = random(dims[0] * dims[1] * dims[2], 7);
    const got = await apply3d(key, x, ...dims);
    const ref = separable(name, p.precision === 'f32' ? Float64Array.from(Float32Array.from(x)) : x, dims, undefined, p.boundary as Boundary);
    expect(maxDiff(got, ref)).toBeLessThanOrEqual(tolerance(String(p.precision), name, maxAbs(x)));
  });
});

describe('bigdft-conv references and identities', () => {
  it('separable equals the direct triple sum (magic 17x19x21, kinetic 29x31x33; periodic and free)', () => {
    for (const boundary of ['periodic', 'free'] as const) {
      for (const [name, dims] of [['magic', [17, 19, 21]], ['magic-t', [17, 16, 19]], ['kinetic', [29, 31, 33]]] as const) {
        const x = random(dims[0] * dims[1] * dims[2], 3);
        expect(maxDiff(separable(name, x, dims, undefined, boundary), direct(name, x, dims, undefined, boundary)), `${name} ${boundary}`).toBeLessThan(1e-13 * gain(name));
      }
    }
  });

  it('the generated direct sum equals the generated separable passes on odd grids (direct 17x19x23; separable vs separable-t 37x44x50)', async () => {
    for (const boundary of ['periodic', 'free'] as const) {
      const small: Dims = [17, 19, 23];
      const x = random(small[0] * small[1] * small[2], 21);
      const d = await apply3d(`bigdft-conv.ts.magic.${boundary}.f64.direct.4x1.inline.split`, x, ...small);
      const sep = await apply3d(`bigdft-conv.ts.magic.${boundary}.f64.separable.2x4.inline.split`, x, ...small);
      expect(maxDiff(d, sep), boundary).toBeLessThan(tolerance('f64', 'magic', 1));
      const big: Dims = [37, 44, 50];
      const xb = random(big[0] * big[1] * big[2], 22);
      const a = await apply3d(`bigdft-conv.ts.magic.${boundary}.f64.separable.1x4.inline.split`, xb, ...big);
      const b = await apply3d(`bigdft-conv.ts.magic.${boundary}.f64.separable-t.1x4.inline.split`, xb, ...big);
      expect(maxDiff(a, b), boundary).toBeLessThan(tolerance('f64', 'magic', 1));
    }
  });

  it('the free boundary equals the periodic sum on a grid padded with zeros (magic, kinetic: direct)', async () => {
    for (const [name, key, dims] of [
      ['magic', 'bigdft-conv.ts.magic.free.f64.separable-t.1x4.inline.split', [16, 19, 17]],
      ['magic-t', 'bigdft-conv.ts.magic-t.free.f64.direct.1x1.inline.split', [17, 16, 16]],
      ['kinetic', 'bigdft-conv.ts.kinetic.free.f64.separable.2x4.inline.split', [29, 31, 30]],
    ] as const) {
      const f = filter(name);
      // zeros on both sides at least as wide as the filter reaches: nothing wraps around
      const lo = -f.offset;
      const hi = f.taps - 1 + f.offset;
      const pd: Dims = [dims[0] + lo + hi, dims[1] + lo + hi, dims[2] + lo + hi];
      const x = random(dims[0] * dims[1] * dims[2], 31);
      const xp = new Float64Array(pd[0] * pd[1] * pd[2]);
      const at = (d: Dims, i1: number, i2: number, i3: number): number => (i3 * d[1] + i2) * d[0] + i1;
      for (let i3 = 0; i3 < dims[2]; i3++) for (let i2 = 0; i2 < dims[1]; i2++) for (let i1 = 0; i1 < dims[0]; i1++) {
        xp[at(pd, i1 + lo, i2 + lo, i3 + lo)] = x[at(dims, i1, i2, i3)]!;
      }
      // the 16^3-tap direct sum for magic; the transposed filter through the (equal, tested above) separable form to save time
      const refPadded = name === 'magic-t' ? separable(name, xp, pd) : direct(name, xp, pd);
      const got = await apply3d(key, x, dims[0], dims[1], dims[2]);
      let e = 0;
      for (let i3 = 0; i3 < dims[2]; i3++) for (let i2 = 0; i2 < dims[1]; i2++) for (let i1 = 0; i1 < dims[0]; i1++) {
        e = Math.max(e, Math.abs(got[at(dims, i1, i2, i3)]! - refPadded[at(pd, i1 + lo, i2 + lo, i3 + lo)]!));
      }
      expect(e, name).toBeLessThan(tolerance('f64', name, 1));
      // and the free result differs from the periodic one near the faces
      expect(maxDiff(got, separable(name, x, dims)), name).toBeGreaterThan(1e-3);
    }
  });

  it('the magic filter leaves a constant field unchanged', async () => {
    const dims: Dims = [17, 21, 19];
    const x = new Float64Array(dims[0] * dims[1] * dims[2]).fill(2.5);
    const y = await apply3d('bigdft-conv.ts.magic.periodic.f64.separable-t.2x4.inline.table', x, ...dims);
    expect(maxDiff(y, x)).toBeLessThan(1e-14);
  });

  it('the transposed magic filter is the adjoint: <MF x, y> = <x, MF^T y>', async () => {
    const dims: Dims = [19, 17, 23];
    const n = dims[0] * dims[1] * dims[2];
    const x = random(n, 11);
    const y = random(n, 12);
    const mfx = await apply3d('bigdft-conv.ts.magic.periodic.f64.separable-t.1x4.inline.split', x, ...dims);
    const mfty = await apply3d('bigdft-conv.ts.magic-t.periodic.f64.separable-t.1x4.inline.table', y, ...dims);
    let a = 0;
    let b = 0;
    let norm = 0;
    for (let i = 0; i < n; i++) {
      a += mfx[i]! * y[i]!;
      b += x[i]! * mfty[i]!;
      norm += Math.abs(x[i]! * y[i]!);
    }
    expect(Math.abs(a - b)).toBeLessThan(1e-14 * norm);
  });

  it('kinetic eigenvalues on plane waves equal the Fourier transform of the filter', async () => {
    const dims: Dims = [29, 35, 31];
    const h: Dims = [0.3, 0.35, 0.4];
    const f = filter('kinetic');
    const ft = (k: number, n: number): number => f.coefficients.reduce((s, c, l) => s + c * Math.cos((2 * Math.PI * k * (l + f.offset)) / n), 0);
    for (const k of [[1, 0, 0], [1, 2, 3], [5, -4, 7], [14, 17, 15]] as const) {
      const x = new Float64Array(dims[0] * dims[1] * dims[2]);
      for (let i3 = 0; i3 < dims[2]; i3++) {
        for (let i2 = 0; i2 < dims[1]; i2++) {
          for (let i1 = 0; i1 < dims[0]; i1++) {
            x[(i3 * dims[1] + i2) * dims[0] + i1] = Math.cos(2 * Math.PI * (k[0] * i1 / dims[0] + k[1] * i2 / dims[1] + k[2] * i3 / dims[2]));
          }
        }
      }
      const lambda = (k as readonly number[]).reduce((s: number, kd: number, d: number) => s - ft(kd, dims[d]!) / (2 * h[d]! ** 2), 0);
      const y = await apply3d('bigdft-conv.ts.kinetic.periodic.f64.separable-t.2x4.array.split', x, ...dims, { h });
      const yy = Float64Array.from(x, (v) => lambda * v);
      expect(maxDiff(y, yy), `k = ${k}`).toBeLessThan(1e-12 * Math.max(1, lambda));
      if (k[0] === 1 && k[1] === 0) {
        // lowest mode: the filter is a very accurate second derivative, lambda ~ |G|^2 / 2
        expect(lambda).toBeCloseTo(0.5 * ((2 * Math.PI) / (dims[0] * h[0])) ** 2, 10);
      }
    }
  });

  it('odd non-power-of-two grids of the minimal size work for every pattern', async () => {
    const dims: Dims = [16, 17, 19];
    const x = random(dims[0] * dims[1] * dims[2], 5);
    const ref = separable('magic', x, dims);
    const magic64 = keys.filter((k) => k.includes('.magic.periodic.f64.'));
    expect(magic64.length).toBeGreaterThan(10);
    for (const key of magic64) {
      expect(maxDiff(await apply3d(key, x, ...dims), ref), key).toBeLessThan(tolerance('f64', 'magic', 1));
    }
  });
});

describe('bigdft-conv input errors', () => {
  const key = 'bigdft-conv.ts.magic.periodic.f64.separable-t.1x4.inline.table';
  it('rejects grid dimensions smaller than the filter', async () => {
    await expect(apply3d(key, new Float64Array(15 * 16 * 16), 15, 16, 16)).rejects.toThrow(/n1 = 15 is smaller than the magic filter \(16 taps\)/);
    await expect(apply3d('bigdft-conv.ts.kinetic.periodic.f64.separable-t.1x4.inline.table', new Float64Array(29 * 28 * 29), 29, 28, 29)).rejects.toThrow(ConvInputError);
    // free boundary: the same minimum (the split loops and tables need the whole filter on the line)
    await expect(apply3d('bigdft-conv.ts.magic.free.f64.separable-t.1x4.inline.split', new Float64Array(16 * 16 * 9), 16, 16, 9)).rejects.toThrow(/n3 = 9 is smaller than the magic filter \(16 taps\).*free boundary/);
    await expect(apply3d('bigdft-conv.ts.kinetic.free.f64.separable.1x4.inline.split', new Float64Array(29 * 29 * 20), 29, 29, 20)).rejects.toThrow(/n3 = 20 is smaller than the kinetic filter \(29 taps\)/);
    await expect(apply3d('bigdft-conv.ts.magic.periodic.f64.direct.1x1.inline.split', new Float64Array(16 * 12 * 16), 16, 12, 16)).rejects.toThrow(/n2 = 12 is smaller/);
  });
  it('rejects keys outside the space: a direct kinetic sum, a WGSL f64 variant', async () => {
    await expect(apply3d('bigdft-conv.ts.kinetic.periodic.f64.direct.1x1.inline.split', new Float64Array(29 ** 3), 29, 29, 29)).rejects.toThrow(/direct-tensor/);
    await expect(apply3d('bigdft-conv.wgsl.magic.periodic.f64.separable-t.16x16.outputs1', new Float64Array(16 ** 3), 16, 16, 16)).rejects.toThrow(/wgsl-is-f32/);
  });
  it('rejects a wrong array length', async () => {
    await expect(apply3d(key, new Float64Array(100), 16, 16, 16)).rejects.toThrow(/x has 100 values, expected n1\*n2\*n3 = 16\*16\*16 = 4096/);
  });
  it('rejects non-finite input', async () => {
    for (const bad of [NaN, Infinity]) {
      const x = new Float64Array(16 * 16 * 16);
      x[77] = bad;
      await expect(apply3d(key, x, 16, 16, 16)).rejects.toThrow(/x\[77\] = (NaN|Infinity) is not finite/);
    }
  });
  it('rejects keys of other families', async () => {
    await expect(apply3d('md-nonbonded.ts.lj.geom.shift.f64.fev.4x4.mask.mask', new Float64Array(4096), 16, 16, 16)).rejects.toThrow(/not a bigdft-conv variant/);
  });
});
