// The f64 smooth-PME reference (runtime/pme/reference.ts) against a converged direct Ewald sum,
// its own finite-difference gradient and box derivative, and GROMACS's rules for beta and the grid.
import { describe, it, expect } from 'vitest';
import erfc from '@stdlib/math-base-special-erfc';
import {
  ewaldCoeff, pmeGrid, fftSize, pmeReciprocal, ewaldSelf, ewaldNetCharge, ewaldDirect, bsplineModuli, bsplineKnots, bsplineWeights,
  PmeInputError, RealFft3d, type PmeParams,
} from '../../runtime/pme/index.ts';
import { ONE_4PI_EPS0 } from '../../runtime/md/interaction.ts';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readGro } from '../../runtime/md/gro.ts';

type Box = readonly [number, number, number];

/** A deterministic random neutral ion system: n/2 cations, n/2 anions, at least dmin nm apart. */
function ions(n: number, box: Box, seed = 7, dmin = 0.25): { x: Float64Array; q: Float64Array } {
  let s = seed;
  const rnd = (): number => { s = (s * 1103515245 + 12345) % 2147483648; return s / 2147483648; };
  const x = new Float64Array(3 * n);
  const q = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    for (;;) {
      for (let d = 0; d < 3; d++) x[3 * i + d] = rnd() * box[d];
      let ok = true;
      for (let j = 0; j < i && ok; j++) {
        let r2 = 0;
        for (let d = 0; d < 3; d++) { let dx = x[3 * i + d] - x[3 * j + d]; dx -= box[d] * Math.round(dx / box[d]); r2 += dx * dx; }
        ok = r2 > dmin * dmin;
      }
      if (ok) break;
    }
    q[i] = i % 2 ? -1 : 1;
  }
  return { x, q };
}

const BOX: Box = [1.9, 2.1, 2.3];
const SYS = ions(40, BOX);
const BETA = ewaldCoeff(0.9, 1e-5);
const DIRECT = ewaldDirect(SYS.x, SYS.q, BOX, BETA);

function relRms(a: Float64Array, b: Float64Array): number {
  let num = 0, den = 0;
  for (let i = 0; i < a.length; i++) { num += (a[i] - b[i]) ** 2; den += b[i] ** 2; }
  return Math.sqrt(num / den);
}

describe('GROMACS rules: beta and the grid', () => {
  it('ewaldCoeff solves erfc(beta rc) = rtol (rc 1.0, rtol 1e-5: GROMACS prints a Gaussian width 1/beta of 0.320163 nm)', () => {
    const b = ewaldCoeff(1.0, 1e-5);
    expect(1 / b).toBeCloseTo(0.320163, 6);
    expect(Math.abs(erfc(b * 1.0) - 1e-5)).toBeLessThan(1e-15);
    expect(ewaldCoeff(0.9, 1e-6)).toBeGreaterThan(ewaldCoeff(0.9, 1e-5));
  });

  it('pmeGrid takes the smallest allowed size >= box/spacing (calcFftGrid)', () => {
    expect(fftSize(5)).toBe(6);
    expect(fftSize(21)).toBe(24);
    expect(fftSize(25)).toBe(25);
    expect(fftSize(43)).toBe(44);
    expect(fftSize(45)).toBe(48); // 45 is never picked (the scan stops at index 1)
    expect(fftSize(57)).toBe(60);
    expect(fftSize(85)).toBe(96); // 2 x 48
    expect(fftSize(834)).toBe(864); // 16 x 54
    expect(fftSize(130)).toBe(144); // 2 x 70 = 140 is refused
    expect(fftSize(171)).toBe(192); // 4 x 48: the power of 2 is fixed first (4 x 84 >= 171), and 4 x 45 is never picked
  });

  it('pmeGrid of typical boxes', () => {
    expect(pmeGrid([3.0, 4.0, 5.0], 0.12)).toEqual([25, 36, 42]);
    expect(pmeGrid([4.9, 4.9, 4.9], 0.12)).toEqual([42, 42, 42]);
    expect(pmeGrid([7.3, 7.3, 7.3], 0.12)).toEqual([64, 64, 64]);
    expect(() => pmeGrid([3, 3, 3], 0)).toThrow(PmeInputError);
  });
});

describe('B-splines', () => {
  it('knots and weights: M_p sums to 1 over the integers, weights to 1, derivatives to 0', () => {
    for (let p = 3; p <= 12; p++) {
      const k = bsplineKnots(p);
      expect(k.length).toBe(p - 1);
      expect(k.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 14);
      const th = new Float64Array(p), dth = new Float64Array(p);
      bsplineWeights(0.37, p, th, dth);
      expect(th.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 14);
      expect(dth.reduce((a, b) => a + b, 0)).toBeCloseTo(0, 14);
      // derivative against a finite difference of the weights
      const tp = new Float64Array(p), tm = new Float64Array(p), d = new Float64Array(p);
      bsplineWeights(0.37 + 1e-6, p, tp, d);
      bsplineWeights(0.37 - 1e-6, p, tm, d);
      for (let j = 0; j < p; j++) expect(dth[j]).toBeCloseTo((tp[j] - tm[j]) / 2e-6, 8);
    }
    expect(Array.from(bsplineKnots(4))).toEqual([1 / 6, 2 / 3, 1 / 6].map((v) => expect.closeTo(v, 15)));
  });

  it('moduli: odd order on an even grid replaces the zero at n/2 by its neighbours mean (GROMACS)', () => {
    const m = bsplineModuli(20, 5);
    expect(m[10]).toBeCloseTo(0.5 * (m[9] + m[11]), 15);
    expect(m[10]).toBeGreaterThan(0);
    expect(bsplineModuli(20, 4)[10]).toBeGreaterThan(0);
    expect(bsplineModuli(21, 5).every((v) => v > 0)).toBe(true);
    expect(m[0]).toBeCloseTo(1, 14);
  });
});

describe('the FFT', () => {
  it('matches a naive DFT and round-trips on mixed-radix sizes', () => {
    for (const g of [[6, 5, 7], [12, 10, 14], [25, 9, 8]] as const) {
      const [nx, ny, nz] = g;
      const n = nx * ny * nz;
      const x = new Float64Array(n).map((_, i) => Math.sin(0.37 * i) + Math.cos(0.001 * i * i));
      const f = new RealFft3d(g);
      f.forward(x);
      for (const [kx, ky, kz] of [[0, 0, 0], [1, 2, 3], [nx >> 1, 1, nz - 1], [2, ny - 1, 1]]) {
        let sr = 0, si = 0;
        for (let ix = 0; ix < nx; ix++) for (let iy = 0; iy < ny; iy++) for (let iz = 0; iz < nz; iz++) {
          const a = -2 * Math.PI * ((kx * ix) / nx + (ky * iy) / ny + (kz * iz) / nz);
          const v = x[(ix * ny + iy) * nz + iz];
          sr += v * Math.cos(a); si += v * Math.sin(a);
        }
        const idx = (kz * f.nxc + kx) * ny + ky;
        expect(Math.abs(f.re[idx] - sr)).toBeLessThan(1e-11);
        expect(Math.abs(f.im[idx] - si)).toBeLessThan(1e-11);
      }
      const y = new Float64Array(n);
      f.backward(y);
      for (let i = 0; i < n; i++) expect(Math.abs(y[i] / n - x[i])).toBeLessThan(1e-13);
    }
  });
});

describe('pmeReciprocal against a converged direct Ewald sum (40 ions, beta for rc 0.9 nm, rtol 1e-5)', () => {
  it('the direct sum itself is converged: real + recip + self does not depend on beta', () => {
    const other = ewaldDirect(SYS.x, SYS.q, BOX, BETA * 1.4);
    expect(Math.abs(other.total - DIRECT.total) / Math.abs(DIRECT.total)).toBeLessThan(1e-12);
  });

  // order, spacing, energy bound, force bound (relative RMS)
  const cases: [number, number, number, number][] = [
    [4, 0.12, 2e-3, 5e-3],
    [5, 0.12, 3e-4, 1e-3],
    [6, 0.1, 3e-5, 1e-4],
    [6, 0.05, 5e-7, 3e-6],
    [8, 0.04, 1e-9, 1e-8],
  ];
  for (const [order, spacing, eTol, fTol] of cases) {
    it(`order ${order}, spacing ${spacing} nm: energy within ${eTol}, forces within ${fTol} relative`, () => {
      const p: PmeParams = { beta: BETA, grid: pmeGrid(BOX, spacing), order };
      const f = new Float64Array(SYS.x.length);
      const r = pmeReciprocal(SYS.x, SYS.q, BOX, p, f);
      expect(Math.abs(r.energy - DIRECT.recip) / DIRECT.recip).toBeLessThan(eTol);
      expect(relRms(f, DIRECT.recipForces)).toBeLessThan(fTol);
      // the virial, all nine elements, scaled by the largest
      const vmax = Math.max(...DIRECT.recipVirial.map(Math.abs));
      for (let i = 0; i < 9; i++) expect(Math.abs(r.virial[i] - DIRECT.recipVirial[i]) / vmax).toBeLessThan(20 * eTol);
    });
  }
});

describe('pmeReciprocal derivatives (order 4, spacing 0.12: the production settings)', () => {
  const p: PmeParams = { beta: BETA, grid: pmeGrid(BOX, 0.12), order: 4 };

  it('forces are minus the finite-difference gradient of the energy', () => {
    const f = new Float64Array(SYS.x.length);
    pmeReciprocal(SYS.x, SYS.q, BOX, p, f);
    const h = 1e-5;
    let worst = 0;
    for (const i of [0, 7, 13, 22, 39]) {
      for (let d = 0; d < 3; d++) {
        const xp = SYS.x.slice(); xp[3 * i + d] += h;
        const xm = SYS.x.slice(); xm[3 * i + d] -= h;
        const g = (pmeReciprocal(xp, SYS.q, BOX, p).energy - pmeReciprocal(xm, SYS.q, BOX, p).energy) / (2 * h);
        worst = Math.max(worst, Math.abs(-g - f[3 * i + d]) / Math.max(1, Math.abs(f[3 * i + d])));
      }
    }
    expect(worst).toBeLessThan(1e-6);
  });

  it('the virial diagonal is half the energy derivative under scaling one box edge with the charges', () => {
    const r = pmeReciprocal(SYS.x, SYS.q, BOX, p);
    const eps = 1e-6;
    for (let d = 0; d < 3; d++) {
      const e = (s: number): number => {
        const box = [...BOX] as [number, number, number];
        box[d] *= 1 + s;
        const x = SYS.x.slice();
        for (let i = 0; i < SYS.q.length; i++) x[3 * i + d] *= 1 + s;
        return pmeReciprocal(x, SYS.q, box, p).energy;
      };
      const dE = (e(eps) - e(-eps)) / (2 * eps);
      expect(Math.abs(r.virial[4 * d] - 0.5 * dE) / Math.abs(r.virial[4 * d])).toBeLessThan(1e-6);
    }
    // symmetric
    expect(r.virial[1]).toBe(r.virial[3]);
    expect(r.virial[2]).toBe(r.virial[6]);
    expect(r.virial[5]).toBe(r.virial[7]);
  });

  it('translation invariance holds to the mesh error: the net force and the energy change on a shift are small and measured', () => {
    const f = new Float64Array(SYS.x.length);
    const r = pmeReciprocal(SYS.x, SYS.q, BOX, p, f);
    const net = [0, 0, 0];
    let rms = 0;
    for (let i = 0; i < SYS.q.length; i++) for (let d = 0; d < 3; d++) { net[d] += f[3 * i + d]; rms += f[3 * i + d] ** 2; }
    rms = Math.sqrt(rms / SYS.q.length);
    const netNorm = Math.hypot(...net);
    // smooth PME does not conserve momentum exactly: here the net force is 1.2% of the RMS force
    // on one atom (measured 0.0119), and it shrinks with the mesh error
    expect(netNorm / rms).toBeGreaterThan(1e-4);
    expect(netNorm / rms).toBeLessThan(2e-2);
    const fine = new Float64Array(SYS.x.length);
    pmeReciprocal(SYS.x, SYS.q, BOX, { beta: BETA, grid: pmeGrid(BOX, 0.05), order: 6 }, fine);
    const netFine = Math.hypot(...[0, 1, 2].map((d) => fine.filter((_, k) => k % 3 === d).reduce((a, b) => a + b, 0)));
    expect(netFine).toBeLessThan(netNorm / 100);
    const shifted = SYS.x.map((v, k) => v + [0.031, 0.017, 0.053][k % 3]);
    const rs = pmeReciprocal(shifted, SYS.q, BOX, p);
    expect(Math.abs(rs.energy - r.energy) / r.energy).toBeLessThan(1e-3);
    expect(rs.energy).not.toBe(r.energy);
  });
});

describe('self and net-charge terms', () => {
  it('ewaldSelf is -beta/sqrt(pi) f sum q^2', () => {
    expect(ewaldSelf(new Float64Array([1, -1, 0.5]), 3)).toBeCloseTo((-3 / Math.sqrt(Math.PI)) * ONE_4PI_EPS0 * 2.25, 10);
    expect(ewaldSelf(new Float64Array([1]), 3, 100)).toBeCloseTo(-300 / Math.sqrt(Math.PI), 12);
  });

  it('with the net-charge term, the Ewald energy of a charged system does not depend on beta', () => {
    const q = SYS.q.slice();
    q[0] = 2; // net charge +1
    const vol = BOX[0] * BOX[1] * BOX[2];
    const total = (b: number): number => ewaldDirect(SYS.x, q, BOX, b).total + ewaldNetCharge(q, b, vol);
    expect(Math.abs(total(BETA * 1.5) - total(BETA)) / Math.abs(total(BETA))).toBeLessThan(1e-11);
    // without it, it does
    expect(Math.abs(ewaldDirect(SYS.x, q, BOX, BETA * 1.5).total - ewaldDirect(SYS.x, q, BOX, BETA).total)).toBeGreaterThan(1);
    expect(ewaldNetCharge(SYS.q, BETA, vol)).toBe(-0);
  });
});

describe('bad input', () => {
  const grid = pmeGrid(BOX, 0.12);
  it('refuses an order outside 3..12, a grid smaller than the order, a non-positive beta, mismatched arrays', () => {
    expect(() => pmeReciprocal(SYS.x, SYS.q, BOX, { beta: BETA, grid, order: 2 })).toThrow(/pme-order 2 \(allowed: an integer 3 to 12\)/);
    expect(() => pmeReciprocal(SYS.x, SYS.q, BOX, { beta: BETA, grid, order: 13 })).toThrow(PmeInputError);
    expect(() => pmeReciprocal(SYS.x, SYS.q, BOX, { beta: BETA, grid: [4, 20, 20], order: 6 })).toThrow(/grid\[0\] = 4/);
    expect(() => pmeReciprocal(SYS.x, SYS.q, BOX, { beta: 0, grid, order: 4 })).toThrow(/beta/);
    expect(() => pmeReciprocal(SYS.x.subarray(3), SYS.q, BOX, { beta: BETA, grid, order: 4 })).toThrow(/x has 117 numbers for 40 charges/);
    expect(() => ewaldCoeff(1, 0)).toThrow(PmeInputError);
  });
});

describe('against GROMACS 2022 double precision (gmx_d mdrun -rerun, test/fixtures/gromacs/*-pme)', () => {
  // GROMACS 2022's electric factor (CODATA 2018), as in gromacs-rerun.test.ts
  const GMX_F = ((1.602176634e-19 ** 2 * 6.02214076e23) / (4 * Math.PI * 8.8541878128e-12)) * 1e9 * 1e-3;
  const root = join(import.meta.dirname, '../..');
  const charge: Record<string, number> = { OW: -0.8476, HW1: 0.4238, HW2: 0.4238, NA: 1, CL: -1 };
  it.each([
    ['spce-pme', 'test/fixtures/gromacs/spce/conf.gro'],
    ['salt-pme', 'data/md/salt-water/conf.gro'],
  ])('%s: Coul. recip. to 1e-10 relative, with the grid grompp picked', (fixture, conf) => {
    const ref = JSON.parse(readFileSync(join(root, 'test/fixtures/gromacs', fixture, 'energies.json'), 'utf8'));
    const fr = readGro(readFileSync(join(root, conf), 'utf8'));
    const q = Float64Array.from(fr.atoms, (a) => {
      const c = charge[a.name];
      if (c === undefined) throw new Error(`no charge for atom ${a.name}`);
      return c;
    });
    const grid = pmeGrid(fr.box, ref.pme.fourierSpacing);
    expect(grid).toEqual(ref.pme.grid);
    const r = pmeReciprocal(fr.x, q, fr.box, { beta: ewaldCoeff(ref.pme.rc, ref.pme.ewaldRtol), grid, order: ref.pme.order, epsfac: GMX_F });
    expect(Math.abs(r.energy - ref['Coul. recip.']) / Math.abs(ref['Coul. recip.'])).toBeLessThan(1e-10);
  });
});
