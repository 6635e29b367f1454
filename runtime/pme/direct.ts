// A direct Ewald sum in f64 (real-space image sum, explicit reciprocal k-vector sum, self term)
// for small systems: the converged answer smooth PME approximates. O(N^2 images + N k-vectors);
// meant for tests and checks on tens to hundreds of charges, not for MD.
import erfc from '@stdlib/math-base-special-erfc';
import { ONE_4PI_EPS0 } from '../md/interaction.ts';
import { ewaldSelf } from './reference.ts';

/** The terms of a direct Ewald sum (kJ/mol) and the reciprocal forces (3N, kJ mol^-1 nm^-1). */
export interface EwaldSum {
  real: number;
  recip: number;
  self: number;
  /** real + recip + self: independent of beta for a neutral system once converged. */
  total: number;
  recipForces: Float64Array;
  /** The reciprocal virial (3x3 row-major, -0.5 sum r (x) f convention). */
  recipVirial: Float64Array;
}

/** Options of ewaldDirect: the k-vector range per dimension, the image shells of the real sum, and the electric factor. */
export interface EwaldDirectOptions {
  /** |k_d| <= kmax[d] integers (default: enough for exp(-pi^2 m^2/beta^2) < 1e-17). */
  kmax?: readonly [number, number, number];
  /** Real-space image shells per dimension (default: enough for erfc(beta r) < 1e-17). */
  shells?: number;
  epsfac?: number;
}

/**
 * The Ewald sum of point charges q at x (3N, nm) in a rectangular periodic box, converged to f64
 * rounding by default. Total charge should be zero (a net charge adds the background term
 * ewaldNetCharge, not included here).
 */
export function ewaldDirect(x: Float64Array, q: Float64Array, box: readonly [number, number, number], beta: number, opts: EwaldDirectOptions = {}): EwaldSum {
  const n = q.length;
  const f = opts.epsfac ?? ONE_4PI_EPS0;
  const [lx, ly, lz] = box;
  const vol = lx * ly * lz;
  // erfc(z) < 1e-17 for z > 6; exp(-pi^2 m^2/beta^2) < 1e-17 for |m| > 6.3 beta / pi
  const rcut = 6.2 / beta;
  const shells = opts.shells ?? Math.ceil(rcut / Math.min(lx, ly, lz)) + 1;
  let real = 0;
  for (let i = 0; i < n; i++) {
    for (let j = i; j < n; j++) {
      const dx0 = x[3 * i] - x[3 * j], dy0 = x[3 * i + 1] - x[3 * j + 1], dz0 = x[3 * i + 2] - x[3 * j + 2];
      let s = 0;
      for (let a = -shells; a <= shells; a++) for (let b = -shells; b <= shells; b++) for (let c = -shells; c <= shells; c++) {
        if (i === j && a === 0 && b === 0 && c === 0) continue;
        const dx = dx0 + a * lx, dy = dy0 + b * ly, dz = dz0 + c * lz;
        const r = Math.sqrt(dx * dx + dy * dy + dz * dz);
        if (r < rcut) s += erfc(beta * r) / r;
      }
      real += (i === j ? 0.5 : 1) * q[i] * q[j] * s;
    }
  }
  real *= f;
  const mmax = (6.3 * beta) / Math.PI;
  const kmax = opts.kmax ?? [Math.ceil(mmax * lx), Math.ceil(mmax * ly), Math.ceil(mmax * lz)];
  const fac = (Math.PI * Math.PI) / (beta * beta);
  const recipForces = new Float64Array(3 * n);
  const v = new Float64Array(9);
  let recip = 0;
  const cs = new Float64Array(n), sn = new Float64Array(n);
  for (let kx = 0; kx <= kmax[0]; kx++) {
    for (let ky = -kmax[1]; ky <= kmax[1]; ky++) {
      for (let kz = -kmax[2]; kz <= kmax[2]; kz++) {
        // half space: kx > 0, or kx = 0 and (ky > 0 or ky = 0 and kz > 0); weight 2
        if (kx === 0 && (ky < 0 || (ky === 0 && kz <= 0))) continue;
        const mx = kx / lx, my = ky / ly, mz = kz / lz;
        const m2 = mx * mx + my * my + mz * mz;
        const g = (2 * f * Math.exp(-fac * m2)) / (2 * Math.PI * vol * m2); // both halves
        let sr = 0, si = 0;
        for (let i = 0; i < n; i++) {
          const a = 2 * Math.PI * (mx * x[3 * i] + my * x[3 * i + 1] + mz * x[3 * i + 2]);
          cs[i] = Math.cos(a);
          sn[i] = Math.sin(a);
          sr += q[i] * cs[i];
          si += q[i] * sn[i];
        }
        const ek = g * (sr * sr + si * si);
        recip += ek;
        const vf = (2 * (1 + fac * m2)) / m2;
        const m = [mx, my, mz];
        for (let a = 0; a < 3; a++) for (let b = 0; b < 3; b++) v[3 * a + b] += 0.5 * ek * (vf * m[a] * m[b] - (a === b ? 1 : 0));
        // dE/dx_i = g * 2 * q_i * 2 pi m * (-sin_i sr + cos_i si)
        for (let i = 0; i < n; i++) {
          const d = g * 2 * q[i] * 2 * Math.PI * (cs[i] * si - sn[i] * sr);
          recipForces[3 * i] -= d * mx;
          recipForces[3 * i + 1] -= d * my;
          recipForces[3 * i + 2] -= d * mz;
        }
      }
    }
  }
  const self = ewaldSelf(q, beta, f);
  return { real, recip, self, total: real + recip + self, recipForces, recipVirial: v };
}
