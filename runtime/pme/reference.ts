// Smooth particle-mesh Ewald, reciprocal part, in f64 (Essmann et al., J. Chem. Phys. 103, 8577
// (1995)), computed the way GROMACS does it so energies agree with `gmx_d mdrun -rerun`:
// cardinal B-splines of order p (GROMACS's pme-order: p grid points per dimension per charge),
// the B-spline moduli with GROMACS's fix for odd p on even grids, a real-to-complex 3-D FFT, the
// influence function exp(-pi^2 m^2 / beta^2) / (pi V m^2 |b(m)|^-2), the energy, the virial
// (GROMACS convention, -0.5 sum r (x) f) and the forces gathered from the potential mesh.
// Rectangular boxes only. Units: nm, e, kJ/mol; the electric factor f = 1/(4 pi eps0).
//
// This is the f64 reference every generated pme-mesh variant is verified against, and the
// slow-but-exact path of the MD engine; the fast path is createPmeMesh (mesh.ts).
import erfc from '@stdlib/math-base-special-erfc';
import { ONE_4PI_EPS0 } from '../md/interaction.ts';
import { KernforgeError } from '../errors.ts';
import { RealFft3d, fftAlloc, type FftOps, type Real, type RealFft3dOptions } from './fft.ts';

/** A mistake in PME settings or inputs (order out of range, a grid too coarse, a net charge without correction, mismatched arrays). */
export class PmeInputError extends KernforgeError {}

/** The smooth-PME mesh settings. */
export interface PmeParams {
  /** Ewald splitting coefficient beta (nm^-1), e.g. ewaldCoeff(rc, ewald-rtol). */
  beta: number;
  /** Grid points along x, y, z, e.g. pmeGrid(box, fourier-spacing). */
  grid: readonly [number, number, number];
  /** GROMACS pme-order: the B-spline order p, the number of grid points a charge spreads to per dimension (3..12; the generated kernels cover 4..6). */
  order: number;
  /** The electric factor f = 1/(4 pi eps0 eps_r) in kJ mol^-1 nm e^-2; default ONE_4PI_EPS0 (set GROMACS 2022's CODATA-2018 value to match gmx exactly). */
  epsfac?: number;
}

/** The reciprocal-space result: energy (kJ/mol) and virial (3x3 row-major, kJ/mol, GROMACS's -0.5 sum r (x) f). */
export interface PmeResult {
  energy: number;
  virial: Float64Array;
}

/** The smallest PME order GROMACS accepts. */
export const PME_ORDER_MIN = 3;
/** The largest PME order GROMACS accepts. */
export const PME_ORDER_MAX = 12;

/**
 * GROMACS calc_ewaldcoeff_q: the beta (nm^-1) with erfc(beta rc) = rtol, found as GROMACS does
 * (double beta from 10 until erfc(beta rc) <= rtol, then i + 60 bisection steps), so the same
 * rc and ewald-rtol give the same beta to the last bit.
 */
export function ewaldCoeff(rc: number, rtol: number): number {
  if (!(rc > 0) || !Number.isFinite(rc)) throw new PmeInputError(`ewaldCoeff: cut-off ${rc} nm (allowed: a positive finite number)`);
  if (!(rtol > 0 && rtol < 1)) throw new PmeInputError(`ewaldCoeff: ewald-rtol ${rtol} (allowed: 0 < ewald-rtol < 1)`);
  let beta = 5;
  let i = 0;
  do {
    i++;
    beta *= 2;
  } while (erfc(beta * rc) > rtol);
  const n = i + 60;
  let low = 0;
  let high = beta;
  for (let k = 0; k < n; k++) {
    beta = (low + high) / 2;
    if (erfc(beta * rc) > rtol) low = beta;
    else high = beta;
  }
  return beta;
}

/** GROMACS's small FFT sizes (calcgrid.cpp); larger sizes are 2^k times one of GRID_BASE that is a multiple of 4 (or 90), never 140. */
const GRID_INIT = [6, 8, 10, 12, 14, 16, 20, 24, 25, 28, 32, 36, 40, 42, 44];
const GRID_BASE = [45, 48, 50, 52, 54, 56, 60, 64, 70, 72, 75, 80, 81, 84];

/** The smallest GROMACS FFT size >= nmin (calcFftGrid's rule for one dimension). */
export function fftSize(nmin: number): number {
  for (const g of GRID_INIT) if (g >= nmin) return g;
  let fac2 = 1;
  while (fac2 * GRID_BASE[GRID_BASE.length - 1] < nmin) fac2 *= 2;
  let best = 0;
  // GROMACS scans the base list from the top down to index 1, keeping the last (smallest) fit.
  for (let i = GRID_BASE.length - 1; i > 0; i--) {
    const a = fac2 * GRID_BASE[i];
    if (((a % 4 === 0 && a !== 140) || a === 90) && a >= nmin) best = a;
  }
  return best;
}

/**
 * GROMACS calcFftGrid for a rectangular box: per dimension the smallest allowed FFT size n
 * with box/n <= spacing (n >= int(box/spacing + 0.999)), from GROMACS's list of sizes with small
 * prime factors (6, 8, 10, ..., 42, 44, then 2^k times 48, 50, 52, 56, 60, 64, ...).
 */
export function pmeGrid(box: readonly [number, number, number], spacing: number): [number, number, number] {
  if (!(spacing > 0) || !Number.isFinite(spacing)) throw new PmeInputError(`pmeGrid: fourier-spacing ${spacing} nm (allowed: a positive finite number)`);
  return box.map((l, d) => {
    if (!(l > 0) || !Number.isFinite(l)) throw new PmeInputError(`pmeGrid: box[${d}] = ${l} nm (allowed: a positive finite length)`);
    const nmin = Math.trunc(l / spacing + 0.999);
    return fftSize(nmin);
  }) as [number, number, number];
}

/** Throws a PmeInputError unless p's order is an integer in 3..12 and its grid has at least `order` points per dimension. */
export function checkPmeParams(p: PmeParams, where = 'PME'): void {
  if (!Number.isInteger(p.order) || p.order < PME_ORDER_MIN || p.order > PME_ORDER_MAX) {
    throw new PmeInputError(`${where}: pme-order ${p.order} (allowed: an integer ${PME_ORDER_MIN} to ${PME_ORDER_MAX})`);
  }
  if (!(p.beta > 0) || !Number.isFinite(p.beta)) throw new PmeInputError(`${where}: Ewald beta ${p.beta} nm^-1 (allowed: a positive finite number)`);
  if (p.grid.length !== 3) throw new PmeInputError(`${where}: grid has ${p.grid.length} dimensions (allowed: 3)`);
  p.grid.forEach((n, d) => {
    if (!Number.isInteger(n) || n < p.order) {
      throw new PmeInputError(`${where}: grid[${d}] = ${n} (allowed: an integer >= pme-order ${p.order})`);
    }
  });
}

/**
 * The values of the order-p cardinal B-spline M_p at the integers 1..p-1 (M_p(0) = M_p(p) = 0);
 * the weights GROMACS's make_bspline_moduli transforms.
 */
export function bsplineKnots(order: number): Float64Array {
  // M_2 at 1 is 1; M_k(x) = x/(k-1) M_{k-1}(x) + (k-x)/(k-1) M_{k-1}(x-1).
  let v = new Float64Array([1]); // M_2(1)
  for (let k = 3; k <= order; k++) {
    const w = new Float64Array(k - 1);
    for (let j = 1; j <= k - 1; j++) {
      const a = j - 1 < v.length ? v[j - 1] : 0; // M_{k-1}(j)
      const b = j - 2 >= 0 ? v[j - 2] : 0; // M_{k-1}(j-1)
      w[j - 1] = (j * a + (k - j) * b) / (k - 1);
    }
    v = w;
  }
  return v;
}

/**
 * GROMACS's B-spline moduli for one dimension of n points: mod(m) = |sum_j M_p(j+1) e^{2 pi i m j / n}|^2
 * (= 1/|b(m)|^2 of Essmann et al.). For odd p on an even n, mod(n/2) is 0; GROMACS (after Darden's
 * PME code) replaces it with the mean of its neighbours, and so do we.
 */
export function bsplineModuli(n: number, order: number): Float64Array {
  const data = bsplineKnots(order);
  const mod = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let sc = 0;
    let ss = 0;
    for (let j = 0; j < data.length; j++) {
      const arg = (2 * Math.PI * i * (j + 1)) / n;
      sc += data[j] * Math.cos(arg);
      ss += data[j] * Math.sin(arg);
    }
    mod[i] = sc * sc + ss * ss;
  }
  if (order % 2 === 1 && n % 2 === 0) mod[n / 2] = 0.5 * (mod[n / 2 - 1] + mod[n / 2 + 1]);
  return mod;
}

/**
 * The spline weights of one coordinate: for u in grid units, i0 = floor(u) and w = u - i0, the
 * weights th[j] = M_p(w + j) and their derivatives dth[j] = dM_p/du (w + j), j = 0..p-1, which go to
 * grid point i0 - j (mod n). th and dth have p entries.
 */
export function bsplineWeights(w: number, order: number, th: Float64Array, dth: Float64Array): void {
  // order 2: M_2(w) = w, M_2(w+1) = 1 - w
  th[0] = w;
  th[1] = 1 - w;
  for (let j = 2; j < order; j++) th[j] = 0;
  for (let k = 3; k <= order; k++) {
    if (k === order) {
      // derivative from M_{order-1}: dM_p(x) = M_{p-1}(x) - M_{p-1}(x-1)
      dth[0] = th[0];
      for (let j = 1; j < order; j++) dth[j] = th[j] - th[j - 1];
    }
    const div = 1 / (k - 1);
    for (let j = k - 1; j >= 0; j--) {
      const x = w + j;
      const a = j < k - 1 ? th[j] : 0;
      const b = j > 0 ? th[j - 1] : 0;
      th[j] = div * (x * a + (k - x) * b);
    }
  }
  if (order === 2) {
    dth[0] = 1;
    dth[1] = -1;
  }
}

/** One axis's wave numbers and Gaussian factors (PmeSolver). */
interface AxisTable {
  m: Float64Array;
  e: Float64Array;
}

/** The moduli, the influence-function factors and the reciprocal vectors of one box and grid, reused across calls. */
export class PmeSolver {
  readonly grid: readonly [number, number, number];
  readonly box: readonly [number, number, number];
  readonly fft: RealFft3d;
  private readonly modx: Float64Array;
  private readonly mody: Float64Array;
  private readonly modz: Float64Array;
  private readonly beta: number;
  private readonly epsfac: number;
  /** Per axis the signed wave numbers and the Gaussian over the B-spline modulus (made on the first solve; the box and beta are fixed). */
  private tables: { X: AxisTable; Y: AxisTable; Z: AxisTable } | undefined;

  /** `fft`: where the FFT's work arrays live and which line transform it runs (RealFft3d's options; default TypeScript). */
  constructor(box: readonly [number, number, number], p: PmeParams, fft: RealFft3dOptions = {}) {
    checkPmeParams(p);
    this.grid = [p.grid[0], p.grid[1], p.grid[2]];
    this.box = [box[0], box[1], box[2]];
    this.beta = p.beta;
    this.epsfac = p.epsfac ?? ONE_4PI_EPS0;
    this.fft = new RealFft3d(this.grid, fft);
    this.alloc = fftAlloc(fft);
    this.ops = fft.ops;
    this.modx = bsplineModuli(p.grid[0], p.order);
    this.mody = bsplineModuli(p.grid[1], p.order);
    this.modz = bsplineModuli(p.grid[2], p.order);
  }

  /**
   * Per axis: the signed wave number m (nm^-1) and exp(-pi^2 m^2 / beta^2) / mod(m); the Gaussian
   * factorises over the axes, so solve's loop needs no exp and one division per point.
   */
  private axes(): { X: AxisTable; Y: AxisTable; Z: AxisTable } {
    if (this.tables) return this.tables;
    const fac = (Math.PI * Math.PI) / (this.beta * this.beta);
    const axis = (n: number, l: number, mod: Float64Array, count: number): AxisTable => {
      const m = new Float64Array(count);
      const e = new Float64Array(count);
      for (let k = 0; k < count; k++) {
        m[k] = (k < (n + 1) / 2 ? k : k - n) / l;
        e[k] = Math.exp(-fac * m[k]! * m[k]!) / mod[k]!;
      }
      return { m, e };
    };
    const [nx, ny, nz] = this.grid;
    const [lx, ly, lz] = this.box;
    this.tables = { X: axis(nx, lx, this.modx, this.fft.nxc), Y: axis(ny, ly, this.mody, ny), Z: axis(nz, lz, this.modz, nz) };
    return this.tables;
  }

  /** Where the influence function lives (the FFT's allocator), and the FFT's ops that scale the spectrum by it. */
  private readonly alloc: (length: number) => Real;
  private readonly ops: FftOps | undefined;
  /** The influence function of the forces-only solve, [nz][nxc][ny] as the spectrum (made on its first use). */
  private green: Real | undefined;

  /** exp(-pi^2 m^2 / beta^2) / (m^2 mod(m)) times pre at every point of the half spectrum, 0 at m = 0. */
  private influence(pre: number): Real {
    const [, ny, nz] = this.grid;
    const { nxc } = this.fft;
    const { X, Y, Z } = this.axes();
    const g = this.alloc(nz * nxc * ny);
    g.fill(0);
    for (let kz = 0; kz < nz; kz++) {
      const mz = Z.m[kz]!;
      for (let kx = 0; kx < nxc; kx++) {
        const mx = X.m[kx]!;
        const ezx = pre * Z.e[kz]! * X.e[kx]!;
        const m2zx = mz * mz + mx * mx;
        const row = (kz * nxc + kx) * ny;
        for (let ky = kx === 0 && kz === 0 ? 1 : 0; ky < ny; ky++) {
          const my = Y.m[ky]!;
          g[row + ky] = (ezx * Y.e[ky]!) / (m2zx + my * my);
        }
      }
    }
    return g;
  }

  /**
   * Replaces the charge grid Q ([nx][ny][nz]) with the potential mesh phi = dE/dQ, and returns the
   * reciprocal energy and virial: forward FFT, multiply by the influence function (summing
   * energy and virial on the way), backward FFT. With energies false only phi is made (the
   * energy and the virial come back as NaN).
   */
  solve(q: Real, energies = true): PmeResult {
    const { fft } = this;
    const [nx, ny, nz] = this.grid;
    const [lx, ly, lz] = this.box;
    fft.forward(q);
    const { re, im, nxc } = fft;
    const vol = lx * ly * lz;
    const fac = (Math.PI * Math.PI) / (this.beta * this.beta);
    const pre = this.epsfac / (Math.PI * vol);
    const { X, Y, Z } = this.axes();
    if (!energies) {
      // forces only: the influence function without the energy and virial sums, one multiply
      // per number (the box is fixed, so the function is made once)
      const g = (this.green ??= this.influence(pre));
      if (!this.ops?.scale(re, im, g)) {
        for (let k = 0; k < g.length; k++) {
          re[k] *= g[k]!;
          im[k] *= g[k]!;
        }
      }
      re[0] = 0; // m = 0 is left out (as the energies' loop: also for a non-finite mesh)
      im[0] = 0;
      fft.backward(q);
      return { energy: NaN, virial: new Float64Array(9).fill(NaN) };
    }
    let e = 0, vxx = 0, vyy = 0, vzz = 0, vxy = 0, vxz = 0, vyz = 0;
    for (let kz = 0; kz < nz; kz++) {
      const mz = Z.m[kz]!;
      for (let kx = 0; kx < nxc; kx++) {
        const mx = X.m[kx]!;
        // the half spectrum holds kx = 0..nx/2; the others are conjugates: weight 2 except kx = 0 and nx/2 (even nx)
        const wgt = kx === 0 || 2 * kx === nx ? 1 : 2;
        const ezx = pre * Z.e[kz]! * X.e[kx]!;
        const m2zx = mz * mz + mx * mx;
        const row = (kz * nxc + kx) * ny;
        let ky = 0;
        if (kx === 0 && kz === 0) {
          re[row] = 0;
          im[row] = 0;
          ky = 1;
        }
        for (; ky < ny; ky++) {
          const idx = row + ky;
          const my = Y.m[ky]!;
          const inv = 1 / (m2zx + my * my);
          const eterm = ezx * Y.e[ky]! * inv;
          const r = re[idx]!, i = im[idx]!;
          const ek = 0.5 * wgt * eterm * (r * r + i * i); // this m's share of the energy
          e += ek;
          const vf = 2 * (inv + fac);
          const t = ek * vf;
          vxx += t * mx * mx - ek;
          vyy += t * my * my - ek;
          vzz += t * mz * mz - ek;
          vxy += t * mx * my;
          vxz += t * mx * mz;
          vyz += t * my * mz;
          re[idx] = r * eterm;
          im[idx] = i * eterm;
        }
      }
    }
    fft.backward(q);
    const virial = new Float64Array([0.5 * vxx, 0.5 * vxy, 0.5 * vxz, 0.5 * vxy, 0.5 * vyy, 0.5 * vyz, 0.5 * vxz, 0.5 * vyz, 0.5 * vzz]);
    return { energy: e, virial };
  }
}

/** The fractional grid coordinate u in [0, n) of x in a periodic box of length l. */
function gridCoord(x: number, l: number, n: number): number {
  let s = x / l;
  s -= Math.floor(s);
  let u = s * n;
  if (u >= n) u -= n; // s just below 1 rounding up
  return u;
}

/** Checks x (3N), q (N) and f (3N) of a PME call; returns N. */
export function checkPmeArrays(x: Float64Array | Float32Array, q: Float64Array | Float32Array, f: Float64Array | undefined, where: string): number {
  const n = q.length;
  if (x.length !== 3 * n) throw new PmeInputError(`${where}: x has ${x.length} numbers for ${n} charges (allowed: 3 per charge)`);
  if (f && f.length !== 3 * n) throw new PmeInputError(`${where}: f has ${f.length} numbers for ${n} charges (allowed: 3 per charge)`);
  return n;
}

/** Spreads the charges onto the grid (zeroed first) with order-p B-splines (f64 reference). */
export function spreadReference(x: Float64Array, q: Float64Array, box: readonly [number, number, number], grid: readonly [number, number, number], order: number, out: Float64Array | Float32Array): void {
  const [nx, ny, nz] = grid;
  out.fill(0);
  const tx = new Float64Array(order), ty = new Float64Array(order), tz = new Float64Array(order), d = new Float64Array(order);
  const iy0 = new Int32Array(order), iz0 = new Int32Array(order);
  for (let a = 0; a < q.length; a++) {
    const qa = q[a];
    if (qa === 0) continue;
    const ux = gridCoord(x[3 * a], box[0], nx), uy = gridCoord(x[3 * a + 1], box[1], ny), uz = gridCoord(x[3 * a + 2], box[2], nz);
    const ix = Math.floor(ux), iy = Math.floor(uy), iz = Math.floor(uz);
    bsplineWeights(ux - ix, order, tx, d);
    bsplineWeights(uy - iy, order, ty, d);
    bsplineWeights(uz - iz, order, tz, d);
    for (let j = 0; j < order; j++) {
      iy0[j] = (((iy - j) % ny) + ny) % ny;
      iz0[j] = (((iz - j) % nz) + nz) % nz;
    }
    for (let i = 0; i < order; i++) {
      const gx = (((ix - i) % nx) + nx) % nx;
      const qx = qa * tx[i];
      for (let j = 0; j < order; j++) {
        const base = (gx * ny + iy0[j]) * nz;
        const qxy = qx * ty[j];
        for (let k = 0; k < order; k++) out[base + iz0[k]] += qxy * tz[k];
      }
    }
  }
}

/** Adds the reciprocal forces -q dE/dx, gathered from the potential mesh phi, to f (f64 reference). */
export function gatherReference(x: Float64Array, q: Float64Array, box: readonly [number, number, number], grid: readonly [number, number, number], order: number, phi: Float64Array | Float32Array, f: Float64Array): void {
  const [nx, ny, nz] = grid;
  const tx = new Float64Array(order), ty = new Float64Array(order), tz = new Float64Array(order);
  const dx = new Float64Array(order), dy = new Float64Array(order), dz = new Float64Array(order);
  for (let a = 0; a < q.length; a++) {
    const qa = q[a];
    if (qa === 0) continue;
    const ux = gridCoord(x[3 * a], box[0], nx), uy = gridCoord(x[3 * a + 1], box[1], ny), uz = gridCoord(x[3 * a + 2], box[2], nz);
    const ix = Math.floor(ux), iy = Math.floor(uy), iz = Math.floor(uz);
    bsplineWeights(ux - ix, order, tx, dx);
    bsplineWeights(uy - iy, order, ty, dy);
    bsplineWeights(uz - iz, order, tz, dz);
    let fx = 0, fy = 0, fz = 0;
    for (let i = 0; i < order; i++) {
      const gx = (((ix - i) % nx) + nx) % nx;
      for (let j = 0; j < order; j++) {
        const gy = (((iy - j) % ny) + ny) % ny;
        const base = (gx * ny + gy) * nz;
        let s = 0, sz = 0;
        for (let k = 0; k < order; k++) {
          const p = phi[base + ((((iz - k) % nz) + nz) % nz)];
          s += p * tz[k];
          sz += p * dz[k];
        }
        fx += dx[i] * ty[j] * s;
        fy += tx[i] * dy[j] * s;
        fz += tx[i] * ty[j] * sz;
      }
    }
    f[3 * a] -= qa * fx * (nx / box[0]);
    f[3 * a + 1] -= qa * fy * (ny / box[1]);
    f[3 * a + 2] -= qa * fz * (nz / box[2]);
  }
}

/**
 * The smooth-PME reciprocal energy and virial of charges q (e) at x (3N, nm) in a rectangular
 * periodic box (nm), in f64; with f, adds the reciprocal forces (kJ mol^-1 nm^-1) to it. This is
 * the reference: it allocates its grid and FFT plan per call (use createPmeMesh for MD steps).
 * It does not include the self or net-charge terms (ewaldSelf, ewaldNetCharge), nor the
 * exclusion correction of the short-range kernels.
 */
export function pmeReciprocal(x: Float64Array, q: Float64Array, box: readonly [number, number, number], p: PmeParams, f?: Float64Array): PmeResult {
  checkPmeArrays(x, q, f, 'pmeReciprocal');
  const solver = new PmeSolver(box, p);
  const [nx, ny, nz] = p.grid;
  const grid = new Float64Array(nx * ny * nz);
  spreadReference(x, q, box, p.grid, p.order, grid);
  const r = solver.solve(grid);
  if (f) gatherReference(x, q, box, p.grid, p.order, grid, f);
  return r;
}

/** The Ewald self energy -beta/sqrt(pi) f sum q^2 (kJ/mol); f defaults to ONE_4PI_EPS0. */
export function ewaldSelf(q: Float64Array, beta: number, epsfac: number = ONE_4PI_EPS0): number {
  let s = 0;
  for (let i = 0; i < q.length; i++) s += q[i] * q[i];
  return (-beta / Math.sqrt(Math.PI)) * epsfac * s;
}

/**
 * GROMACS's net-charge correction -f pi Q^2 / (2 V beta^2) (kJ/mol) for total charge Q in a box of
 * volume V (nm^3): the energy of a uniform neutralising background. It scales as 1/V, so its
 * virial (-0.5 sum r (x) f convention) is -0.5 times the energy on each diagonal element.
 */
export function ewaldNetCharge(q: Float64Array, beta: number, volume: number, epsfac: number = ONE_4PI_EPS0): number {
  let s = 0;
  for (let i = 0; i < q.length; i++) s += q[i];
  return (-epsfac * Math.PI * s * s) / (2 * volume * beta * beta);
}
