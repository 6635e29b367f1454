// GEM's analytical linearized Poisson-Boltzmann model (REFERENCES.md section 3): settings,
// the electrostatic radius A, the region choice and the plain f64 reference. The kernels
// receive the raw constants (GemParams) and fold them themselves.
import type { GemAtoms, GemVertices } from './io.ts';
import type { GemParams } from '../../generated/gem-potential/ts/abi.ts';

export type { GemParams };

/** Physical settings of one GEM run; every field has GEM's default. */
export interface GemSettings {
  /** Interior and exterior dielectric constants (1, 80). */
  epsIn?: number;
  /** Exterior (solvent) dielectric constant (default 80). */
  epsOut?: number;
  /** Salt concentration (mol/L); kappa = 0.316 sqrt(salt) (0). */
  salt?: number;
  /** Projection length p along the normals (Angstrom, 0). */
  p?: number;
  /** A fixed electrostatic radius; computed from the atoms when absent. */
  A?: number;
}

/** GEM's fixed constants: charge factor (kcal/mol/e units), alpha, ion exclusion radius. */
export const GEM_QSCALE = 332.0;
/** GEM's constant alpha in the potential formulas (pairPotential), dimensionless. */
export const GEM_ALPHA = 0.571412;
/** Ion exclusion radius (Angstrom): region 3 starts at A + GEM_ION_RADIUS. */
export const GEM_ION_RADIUS = 2.0;

/** GEM's region of the evaluation points at r = A + p: 1 when r <= A, 2 when A < r <= A + GEM_ION_RADIUS, 3 beyond. */
export type GemRegion = 1 | 2 | 3;

/**
 * Electrostatic radius: m = radius^3, centre c = sum(m x)/sum(m), inertia tensor about c with
 * each atom a solid sphere (each squared coordinate term + radius^2/5), A = sqrt(2.5/sum m) det(I)^(1/6).
 */
export function electrostaticRadius(a: GemAtoms): number {
  let M = 0, cx = 0, cy = 0, cz = 0;
  for (let i = 0; i < a.n; i++) {
    const m = a.r[i]! ** 3;
    M += m;
    cx += m * a.x[i]!;
    cy += m * a.y[i]!;
    cz += m * a.z[i]!;
  }
  if (!(M > 0)) throw new Error('electrostatic radius: the atoms have no volume (all radii zero)');
  cx /= M;
  cy /= M;
  cz /= M;
  let xx = 0, yy = 0, zz = 0, xy = 0, xz = 0, yz = 0;
  for (let i = 0; i < a.n; i++) {
    const m = a.r[i]! ** 3;
    const s = a.r[i]! ** 2 / 5;
    const dx = a.x[i]! - cx, dy = a.y[i]! - cy, dz = a.z[i]! - cz;
    xx += m * (dx * dx + s);
    yy += m * (dy * dy + s);
    zz += m * (dz * dz + s);
    xy += m * dx * dy;
    xz += m * dx * dz;
    yz += m * dy * dz;
  }
  // I = tr(S) 1 - S for the second-moment matrix S: off-diagonals -xy, -xz, -yz.
  const t = xx + yy + zz;
  const [ixx, iyy, izz] = [t - xx, t - yy, t - zz];
  const det = ixx * (iyy * izz - yz * yz) - xy * (xy * izz + yz * xz) - xz * (xy * yz + iyy * xz);
  return Math.sqrt(2.5 / M) * det ** (1 / 6);
}

/** Region of the evaluation points, one for all: 3 if r > r', else 2 if r > A, else 1 (r = A + p, r' = A + 2). */
export function selectRegion(A: number, p: number, ionRadius = GEM_ION_RADIUS): GemRegion {
  const r = A + p;
  return r > A + ionRadius ? 3 : r > A ? 2 : 1;
}

/**
 * Region 1's h = (A^2 - r0^2)(A^2 - r^2) / A^2 (Angstrom^2; r0 = A/2, r = A + p), as the kernels
 * take it: sqrt(d^2 + h) is the second root of region 1's pair term. It is exactly 0 at p = 0
 * (GEM's default: the points on the sphere r = A), where the kernels' atom loop takes one root per
 * pair instead of two.
 */
export function regionOneH(P: GemParams): number {
  const r0 = P.A / 2;
  const r = P.A + P.p;
  // A^2 - r^2 as (A - r)(A + r): exactly 0 at r = A, whatever the compiler contracts into an FMA
  return ((P.A * P.A - r0 * r0) * (P.A - r) * (P.A + r)) / (P.A * P.A);
}

/** Whether the kernels of `region` take their loop with one root per pair for these settings (region 1 at h = 0: p = 0). */
export function oneRootLoop(region: GemRegion, P: GemParams): boolean {
  return region === 1 && regionOneH(P) === 0;
}

/** Kernel constants from the settings (A computed from the atoms unless fixed). */
export function gemParams(atoms: GemAtoms, s: GemSettings = {}): GemParams {
  const salt = s.salt ?? 0;
  if (salt < 0) throw new Error(`salt concentration must be >= 0, got ${salt}`);
  return {
    A: s.A ?? electrostaticRadius(atoms),
    p: s.p ?? 0,
    epsIn: s.epsIn ?? 1,
    epsOut: s.epsOut ?? 80,
    kappa: 0.316 * Math.sqrt(salt),
    alpha: GEM_ALPHA,
    ionRadius: GEM_ION_RADIUS,
    qScale: GEM_QSCALE,
  };
}

/** The potential of one atom (charge q, already scaled) at distances d, d' in the given region: GEM's formula as printed. */
export function pairPotential(region: GemRegion, P: GemParams, q: number, d: number, dp: number): number {
  const { A, kappa, alpha } = P;
  const beta = P.epsIn / P.epsOut;
  const r = A + P.p;
  const rp = A + P.ionRadius;
  const r0 = A / 2;
  const K = 1 / ((1 + alpha * beta) * P.epsOut);
  switch (region) {
    case 1:
      return q * (1 / (P.epsIn * d)
        - ((1 / P.epsIn - 1 / P.epsOut) / ((1 + alpha * beta) * A)) * (A * A) / Math.sqrt((A * A - r0 * r0) * (A * A - r * r) + A * A * d * d)
        + K * ((1 + alpha) / dp * (1 / (1 + kappa * dp) - 1) + (alpha * (1 - beta)) / rp * (1 - 1 / (1 + kappa * rp))));
    case 2:
      return K * ((1 + alpha) * q / d - (alpha * (1 - beta) * q) / r + (q * alpha * (1 - beta)) / rp * (1 - 1 / (1 + kappa * rp))
        + (1 + alpha) * q * (1 / (dp + kappa * dp * dp) - 1 / dp));
    case 3:
      return K * ((q * Math.exp(-kappa * (d - dp)) * (1 + alpha)) / (d * (1 + kappa * dp))
        - (q * alpha * (1 - beta) * Math.exp(-kappa * (r - rp))) / (r * (1 + kappa * rp)));
  }
}

/** Plain f64 reference: every vertex against every atom, GEM's formula term by term. */
export function gemReference(atoms: GemAtoms, v: GemVertices, P: GemParams, region = selectRegion(P.A, P.p, P.ionRadius)): Float64Array {
  const phi = new Float64Array(v.n);
  for (let i = 0; i < v.n; i++) {
    const px = v.x[i]! + P.p * v.nx[i]!, py = v.y[i]! + P.p * v.ny[i]!, pz = v.z[i]! + P.p * v.nz[i]!;
    const ex = v.x[i]! + P.ionRadius * v.nx[i]!, ey = v.y[i]! + P.ionRadius * v.ny[i]!, ez = v.z[i]! + P.ionRadius * v.nz[i]!;
    let s = 0;
    for (let j = 0; j < atoms.n; j++) {
      const d = Math.sqrt((px - atoms.x[j]!) ** 2 + (py - atoms.y[j]!) ** 2 + (pz - atoms.z[j]!) ** 2);
      const dp = Math.sqrt((ex - atoms.x[j]!) ** 2 + (ey - atoms.y[j]!) ** 2 + (ez - atoms.z[j]!) ** 2);
      s += pairPotential(region, P, P.qScale * atoms.q[j]!, d, dp);
    }
    phi[i] = s;
  }
  return phi;
}
