// Analytic constraints for rigid three-site water (SETTLE, Miyamoto & Kollman, J. Comput.
// Chem. 13, 952 (1992)) plus the analytic velocity projection used by the second half of
// RATTLE / velocity Verlet. Flat typed arrays, GROMACS units (nm, ps, u, kJ/mol).
//
// Position SETTLE, as implemented here. Per molecule O=a, H1=b, H2=c with masses mO, mH:
//  * The constraint forces act along the OLD bond vectors (those of xOld, which satisfy the
//    constraints), so the displacements d_i = x3_i - x1_i (x1 = unconstrained, x3 = result)
//    lie in the old molecular plane, sum to zero when mass weighted (centre of mass and
//    momentum kept) and exert no torque: sum_i m_i r0_i x d_i = 0.
//  * Frame: origin at the centre of mass of x1, ez = unit normal of the old plane,
//    ex = unit(a1 x ez) (so the O of x1 has no X component), ey = ez x ex.
//  * The result is the canonical body (O at (0, ra, 0), H at (-/+rc, -rb, 0), with rc = dHH/2,
//    h = sqrt(dOH^2 - rc^2), ra = 2 mH h / M, rb = h - ra) turned by psi about Y, then phi
//    about X, then theta about Z. Displacements in the plane leave the Z coordinates of x1
//    unchanged, giving sin(phi) = Z_a1 / ra and sin(psi) = (Z_b1 - Z_c1) / (2 rc cos(phi)).
//  * The torque condition (its Z component; X and Y vanish by construction) reads
//    A sin(theta) + B cos(theta) = G with (r0 taken relative to the old O, only H terms left)
//      A = sum_H x0 x2 + y0 y2,  B = sum_H x0 y2 - y0 x2,  G = sum_H x0 y1 - y0 x1,
//    solved for the root nearest theta = 0:
//      sin(theta) = (A G - B sqrt(A^2 + B^2 - G^2)) / (A^2 + B^2).
//
// Velocity projection: with e1 = x_b - x_a, e2 = x_c - x_a, e3 = x_c - x_b and pair impulses
// tau_k along e_k (+ on the second atom, - on the first), requiring zero relative velocity
// along each e_k gives the symmetric 3x3 system solved by Cramer's rule below.
import { SPCE } from './system.ts';
import { SimdSettle, type SettleJob } from './settle-simd.ts';

/** SPC/E O-H distance (nm). */
export const SPCE_DOH = SPCE.dOH;
/** SPC/E H-H distance (nm): 2 dOH sin(angle/2). */
export const SPCE_DHH = 2 * SPCE.dOH * Math.sin(SPCE.angleHOH / 2);

/**
 * Degrees of freedom of a system of `nAtoms` atoms of which `nMols` are rigid 3-site waters
 * (3 constraints each), minus `comDof` for centre-of-mass motion removal (default 3):
 * 3 nAtoms - 3 nMols - comDof.
 */
export function constrainedDof(nAtoms: number, nMols: number, comDof = 3): number {
  return 3 * nAtoms - 3 * nMols - comDof;
}

export class Settle {
  readonly mols: Int32Array;
  readonly nMols: number;
  readonly mO: number;
  readonly mH: number;
  readonly dOH: number;
  readonly dHH: number;
  /** Canonical geometry: O at (0, ra, 0), H at (-/+rc, -rb, 0) about the centre of mass. */
  readonly ra: number;
  readonly rb: number;
  readonly rc: number;
  /**
   * Cumulative count of molecules whose unconstrained displacement was too large for an exact
   * solution (|sin phi| or |sin psi| > 1 or no real theta; clamped, result still rigid but not
   * the SETTLE solution). Zero in any sane simulation.
   */
  errors = 0;
  /** The sums of one single-thread positions() call. */
  private readonly acc = new Float64Array(SETTLE_ACC_WORDS);
  /** The last molecules' sums when the SIMD module took the rest. */
  private readonly accLast = new Float64Array(SETTLE_ACC_WORDS);
  /**
   * Single-thread positions() in WebAssembly SIMD where it runs (runtime/md/settle-simd.ts: the
   * same numbers bit for bit, about twice as fast); false keeps it in TypeScript.
   */
  simd = true;
  private simdFor: SimdSettle | null | undefined;

  /**
   * @param mols [O, H1, H2] atom-index triples.
   * @param mass Per-atom masses (u); every molecule must have the same O and H masses and
   *   both H masses equal (SETTLE assumes the symmetric molecule).
   * @param dOH O-H distance (nm).
   * @param dHH H-H distance (nm), 0 < dHH < 2 dOH.
   */
  constructor(mols: Int32Array, mass: Float64Array, dOH: number, dHH: number) {
    if (mols.length % 3 !== 0) throw new Error(`Settle: mols length ${mols.length} is not a multiple of 3`);
    if (!(dOH > 0) || !(dHH > 0) || !(dHH < 2 * dOH)) throw new Error(`Settle: impossible geometry dOH=${dOH} dHH=${dHH}`);
    this.mols = mols;
    this.nMols = mols.length / 3;
    this.dOH = dOH;
    this.dHH = dHH;
    if (this.nMols === 0) {
      this.mO = SPCE.massO;
      this.mH = SPCE.massH;
    } else {
      this.mO = mass[mols[0]!]!;
      this.mH = mass[mols[1]!]!;
    }
    if (!(this.mO > 0) || !(this.mH > 0)) throw new Error(`Settle: masses must be positive`);
    const tol = 1e-12;
    for (let m = 0; m < this.nMols; m++) {
      const a = mols[3 * m]!, b = mols[3 * m + 1]!, c = mols[3 * m + 2]!;
      for (const i of [a, b, c]) if (!(i >= 0 && i < mass.length)) throw new Error(`Settle: molecule ${m} atom index ${i} out of range`);
      if (Math.abs(mass[a]! - this.mO) > tol * this.mO || Math.abs(mass[b]! - this.mH) > tol * this.mH || Math.abs(mass[c]! - this.mH) > tol * this.mH) {
        throw new Error(`Settle: molecule ${m} masses (${mass[a]}, ${mass[b]}, ${mass[c]}) differ from the first molecule's (${this.mO}, ${this.mH}, ${this.mH})`);
      }
    }
    const M = this.mO + 2 * this.mH;
    this.rc = dHH / 2;
    const h = Math.sqrt(dOH * dOH - this.rc * this.rc);
    this.ra = (2 * this.mH * h) / M;
    this.rb = h - this.ra;
  }

  /**
   * Constrain xNew (unconstrained positions after a step from the constrained xOld) in place.
   * If `v` and `invdt` are given, v += (xConstrained - xUnconstrained) * invdt (leap-frog).
   * If `virial` (9 entries, row-major [alpha*3+beta]) is given, accumulates
   * -0.5 sum_i r_i(old)[alpha] f_i[beta] with the constraint force f_i = m_i d_i invdt^2
   * (requires invdt); this equals -0.5 sum_pairs r_ij (x) f_ij and is symmetric.
   */
  positions(xOld: Float64Array, xNew: Float64Array, v?: Float64Array, invdt?: number, virial?: Float64Array, split?: SettleSplit): void {
    if (virial && invdt === undefined) throw new Error('Settle.positions: the virial needs invdt');
    const job = this.job(xOld, xNew, v, invdt, virial !== undefined);
    // Each range's sums (SETTLE_ACC_WORDS: the 9 virial sums, then its error count), added here in range order.
    const parts = split?.(job, this.nMols);
    let acc: Float64Array;
    if (parts) {
      acc = new Float64Array(SETTLE_ACC_WORDS);
      for (const p of parts) for (let k = 0; k < SETTLE_ACC_WORDS; k++) acc[k]! += p[k]!;
    } else {
      acc = this.acc;
      const simd = this.simd && this.nMols >= 4 ? this.simdInstance(xNew.length / 3) : undefined;
      if (simd) {
        const done = simd.pairs(job, acc);
        // The last molecules (up to 3) one at a time, each one's terms added to the module's sums
        // (in molecule order, as one pass adds them).
        for (let m = done; m < this.nMols; m++) {
          settleRange(job, m, m + 1, this.accLast);
          for (let k = 0; k < SETTLE_ACC_WORDS; k++) acc[k]! += this.accLast[k]!;
        }
      } else {
        settleRange(job, 0, this.nMols, acc);
      }
    }
    this.errors += acc[9]!;
    if (virial) {
      const iv = job.invdt;
      const f = -0.5 * iv * iv;
      for (let k = 0; k < 9; k++) virial[k]! += f * acc[k]!;
    }
  }

  /** What a positions() call with these arguments computes (the job a SettleSplit gets); `virial`: a virial is asked for. */
  job(xOld: Float64Array, xNew: Float64Array, v: Float64Array | undefined, invdt: number | undefined, virial: boolean): SettleJob {
    return { mols: this.mols, mO: this.mO, mH: this.mH, ra: this.ra, rb: this.rb, rc: this.rc, xOld, xNew, v, invdt: invdt ?? 0, doV: v !== undefined && invdt !== undefined, virial };
  }

  /** The SIMD module's instance for a system of nAtoms atoms (made on first use), or undefined without WebAssembly SIMD. */
  private simdInstance(nAtoms: number): SimdSettle | undefined {
    if (this.simdFor === undefined || (this.simdFor && this.simdFor.nAtoms !== nAtoms)) this.simdFor = SimdSettle.create(this.mols, nAtoms) ?? null;
    return this.simdFor ?? undefined;
  }

  /**
   * Remove the velocity components along the three constraints of every molecule (RATTLE
   * second half), in place, at constrained positions x. Pairwise impulses: momentum is kept and
   * kinetic energy cannot increase. If `virial` is given, accumulates -0.5 sum_i x_i (x) f_i
   * with f_i = dp_i * invdtKick, dp_i the impulse on atom i; invdtKick is the inverse of the
   * time over which the constraint force acted (2/dt for the velocity-Verlet half kick;
   * default 1, i.e. the impulse virial itself).
   */
  velocities(x: Float64Array, v: Float64Array, virial?: Float64Array, invdtKick = 1): void {
    const mols = this.mols;
    const ima = 1 / this.mO, imb = 1 / this.mH, imc = imb;
    let v00 = 0, v01 = 0, v02 = 0, v10 = 0, v11 = 0, v12 = 0, v20 = 0, v21 = 0, v22 = 0;
    for (let m = 0, nm = this.nMols; m < nm; m++) {
      const ia = 3 * mols[3 * m]!, ib = 3 * mols[3 * m + 1]!, ic = 3 * mols[3 * m + 2]!;
      const xa = x[ia]!, ya = x[ia + 1]!, za = x[ia + 2]!;
      const e1x = x[ib]! - xa, e1y = x[ib + 1]! - ya, e1z = x[ib + 2]! - za;
      const e2x = x[ic]! - xa, e2y = x[ic + 1]! - ya, e2z = x[ic + 2]! - za;
      const e3x = e2x - e1x, e3y = e2y - e1y, e3z = e2z - e1z;
      const vax = v[ia]!, vay = v[ia + 1]!, vaz = v[ia + 2]!;
      const vbx = v[ib]!, vby = v[ib + 1]!, vbz = v[ib + 2]!;
      const vcx = v[ic]!, vcy = v[ic + 1]!, vcz = v[ic + 2]!;
      const e11 = e1x * e1x + e1y * e1y + e1z * e1z;
      const e22 = e2x * e2x + e2y * e2y + e2z * e2z;
      const e33 = e3x * e3x + e3y * e3y + e3z * e3z;
      const e12 = e1x * e2x + e1y * e2y + e1z * e2z;
      const e13 = e1x * e3x + e1y * e3y + e1z * e3z;
      const e23 = e2x * e3x + e2y * e3y + e2z * e3z;
      const m11 = (ima + imb) * e11, m22 = (ima + imc) * e22, m33 = (imb + imc) * e33;
      const m12 = ima * e12, m13 = -imb * e13, m23 = imc * e23;
      const r1 = -(e1x * (vbx - vax) + e1y * (vby - vay) + e1z * (vbz - vaz));
      const r2 = -(e2x * (vcx - vax) + e2y * (vcy - vay) + e2z * (vcz - vaz));
      const r3 = -(e3x * (vcx - vbx) + e3y * (vcy - vby) + e3z * (vcz - vbz));
      // Symmetric 3x3 solve by cofactors.
      const c11 = m22 * m33 - m23 * m23, c12 = m13 * m23 - m12 * m33, c13 = m12 * m23 - m13 * m22;
      const c22 = m11 * m33 - m13 * m13, c23 = m12 * m13 - m11 * m23, c33 = m11 * m22 - m12 * m12;
      const idet = 1 / (m11 * c11 + m12 * c12 + m13 * c13);
      const t1 = (c11 * r1 + c12 * r2 + c13 * r3) * idet;
      const t2 = (c12 * r1 + c22 * r2 + c23 * r3) * idet;
      const t3 = (c13 * r1 + c23 * r2 + c33 * r3) * idet;
      // Impulses: a gets -t1 e1 - t2 e2, b gets t1 e1 - t3 e3, c gets t2 e2 + t3 e3.
      const pax = -t1 * e1x - t2 * e2x, pay = -t1 * e1y - t2 * e2y, paz = -t1 * e1z - t2 * e2z;
      const pbx = t1 * e1x - t3 * e3x, pby = t1 * e1y - t3 * e3y, pbz = t1 * e1z - t3 * e3z;
      const pcx = t2 * e2x + t3 * e3x, pcy = t2 * e2y + t3 * e3y, pcz = t2 * e2z + t3 * e3z;
      v[ia] = vax + pax * ima; v[ia + 1] = vay + pay * ima; v[ia + 2] = vaz + paz * ima;
      v[ib] = vbx + pbx * imb; v[ib + 1] = vby + pby * imb; v[ib + 2] = vbz + pbz * imb;
      v[ic] = vcx + pcx * imc; v[ic + 1] = vcy + pcy * imc; v[ic + 2] = vcz + pcz * imc;
      if (virial) {
        // Positions relative to O (sum of impulses is zero).
        v00 += e1x * pbx + e2x * pcx; v01 += e1x * pby + e2x * pcy; v02 += e1x * pbz + e2x * pcz;
        v10 += e1y * pbx + e2y * pcx; v11 += e1y * pby + e2y * pcy; v12 += e1y * pbz + e2y * pcz;
        v20 += e1z * pbx + e2z * pcx; v21 += e1z * pby + e2z * pcy; v22 += e1z * pbz + e2z * pcz;
      }
    }
    if (virial) {
      const f = -0.5 * invdtKick;
      virial[0] += f * v00; virial[1] += f * v01; virial[2] += f * v02;
      virial[3] += f * v10; virial[4] += f * v11; virial[5] += f * v12;
      virial[6] += f * v20; virial[7] += f * v21; virial[8] += f * v22;
    }
  }
}

/** What settleRange reads (defined beside the WebAssembly SETTLE, which reads the same). */
export type { SettleJob } from './settle-simd.ts';

/** Words of one range's sums: the 9 virial sums (without the -invdt^2/2 factor), then the count of clamped molecules. */
export const SETTLE_ACC_WORDS = 10;

/**
 * Runs Settle.positions on molecules [m0, m1) of a job, in pieces on other threads (runtime/parallel/md.ts): returns
 * each piece's sums (SETTLE_ACC_WORDS, in molecule order, together all molecules), or undefined to constrain here.
 * Molecules are independent, so positions and velocities are those of one call; the sums differ by round-off.
 */
export type SettleSplit = (job: SettleJob, nMols: number) => Float64Array[] | undefined;

/**
 * SETTLE takes the molecules in blocks of this many, in three passes over each block (the frame;
 * the angles; the new positions): one molecule's long chain of dependent square roots and
 * divisions then overlaps with the next ones' in the processor. Each number is computed by the
 * same operations as in one pass per molecule, so the results are the same bit for bit.
 */
const SETTLE_BLOCK = 64;
/** Numbers kept per molecule between the passes. */
const SCRATCH_WORDS = 27;
/** The passes' numbers (one per thread: each worker has its own module). */
const SCRATCH = new Float64Array(SETTLE_BLOCK * SCRATCH_WORDS);

/** SETTLE on molecules [m0, m1): xNew (and v) in place; acc (SETTLE_ACC_WORDS) set to the range's virial sums and error count. */
export function settleRange(job: SettleJob, m0: number, m1: number, acc: Float64Array): void {
  const { mols, mO, mH, ra, rb, rc, xOld, xNew, doV } = job;
  const v = job.v;
  const virial = job.virial;
  const iv = job.invdt;
  const wO = mO / (mO + 2 * mH), wH = mH / (mO + 2 * mH);
  let v00 = 0, v01 = 0, v02 = 0, v10 = 0, v11 = 0, v12 = 0, v20 = 0, v21 = 0, v22 = 0;
  let errors = 0;
  const t = SCRATCH;
  for (let mb = m0; mb < m1; mb += SETTLE_BLOCK) {
    const me = Math.min(m1, mb + SETTLE_BLOCK);
    // Pass 1: the frame (ez normal to the old plane, ex = unit(a1' x ez), ey = ez x ex; origin at
    // the centre of mass of the new positions) and the coordinates in it.
    for (let m = mb, o = 0; m < me; m++, o += SCRATCH_WORDS) {
      const ia = 3 * mols[3 * m]!, ib = 3 * mols[3 * m + 1]!, ic = 3 * mols[3 * m + 2]!;
      const xa0 = xOld[ia]!, ya0 = xOld[ia + 1]!, za0 = xOld[ia + 2]!;
      const b0x = xOld[ib]! - xa0, b0y = xOld[ib + 1]! - ya0, b0z = xOld[ib + 2]! - za0;
      const c0x = xOld[ic]! - xa0, c0y = xOld[ic + 1]! - ya0, c0z = xOld[ic + 2]! - za0;
      const a1x = xNew[ia]!, a1y = xNew[ia + 1]!, a1z = xNew[ia + 2]!;
      const b1x = xNew[ib]!, b1y = xNew[ib + 1]!, b1z = xNew[ib + 2]!;
      const c1x = xNew[ic]!, c1y = xNew[ic + 1]!, c1z = xNew[ic + 2]!;
      const dx = wO * a1x + wH * (b1x + c1x);
      const dy = wO * a1y + wH * (b1y + c1y);
      const dz = wO * a1z + wH * (b1z + c1z);
      const pax = a1x - dx, pay = a1y - dy, paz = a1z - dz;
      const pbx = b1x - dx, pby = b1y - dy, pbz = b1z - dz;
      const pcx = c1x - dx, pcy = c1y - dy, pcz = c1z - dz;
      let ezx = b0y * c0z - b0z * c0y, ezy = b0z * c0x - b0x * c0z, ezz = b0x * c0y - b0y * c0x;
      let s = 1 / Math.sqrt(ezx * ezx + ezy * ezy + ezz * ezz);
      ezx *= s; ezy *= s; ezz *= s;
      let exx = pay * ezz - paz * ezy, exy = paz * ezx - pax * ezz, exz = pax * ezy - pay * ezx;
      s = 1 / Math.sqrt(exx * exx + exy * exy + exz * exz);
      exx *= s; exy *= s; exz *= s;
      const eyx = ezy * exz - ezz * exy, eyy = ezz * exx - ezx * exz, eyz = ezx * exy - ezy * exx;
      t[o] = dx; t[o + 1] = dy; t[o + 2] = dz;
      t[o + 3] = exx; t[o + 4] = exy; t[o + 5] = exz;
      t[o + 6] = eyx; t[o + 7] = eyy; t[o + 8] = eyz;
      t[o + 9] = ezx; t[o + 10] = ezy; t[o + 11] = ezz;
      t[o + 12] = pax * ezx + pay * ezy + paz * ezz; // za1
      t[o + 13] = pbx * exx + pby * exy + pbz * exz; // xb1
      t[o + 14] = pbx * eyx + pby * eyy + pbz * eyz; // yb1
      t[o + 15] = pbx * ezx + pby * ezy + pbz * ezz; // zb1
      t[o + 16] = pcx * exx + pcy * exy + pcz * exz; // xc1
      t[o + 17] = pcx * eyx + pcy * eyy + pcz * eyz; // yc1
      t[o + 18] = pcx * ezx + pcy * ezy + pcz * ezz; // zc1
      t[o + 19] = b0x * exx + b0y * exy + b0z * exz; // xb0
      t[o + 20] = b0x * eyx + b0y * eyy + b0z * eyz; // yb0
      t[o + 21] = c0x * exx + c0y * exy + c0z * exz; // xc0
      t[o + 22] = c0x * eyx + c0y * eyy + c0z * eyz; // yc0
    }
    // Pass 2: the tilts phi (about X) and psi (about Y) from the conserved Z coordinates, and the
    // in-plane rotation theta from the torque-free condition (xc2 = -xb2).
    for (let m = mb, o = 0; m < me; m++, o += SCRATCH_WORDS) {
      const za1 = t[o + 12]!, xb1 = t[o + 13]!, yb1 = t[o + 14]!, zb1 = t[o + 15]!, xc1 = t[o + 16]!, yc1 = t[o + 17]!, zc1 = t[o + 18]!;
      const xb0 = t[o + 19]!, yb0 = t[o + 20]!, xc0 = t[o + 21]!, yc0 = t[o + 22]!;
      let sinphi = za1 / ra;
      if (sinphi > 1 || sinphi < -1) { sinphi = sinphi > 0 ? 1 : -1; errors++; }
      const cosphi = Math.sqrt(1 - sinphi * sinphi);
      let sinpsi = (zb1 - zc1) / (2 * rc * cosphi);
      if (!(sinpsi <= 1 && sinpsi >= -1)) { sinpsi = sinpsi > 0 ? 1 : -1; errors++; }
      const cospsi = Math.sqrt(1 - sinpsi * sinpsi);
      const ya2 = ra * cosphi;
      const xb2 = -rc * cospsi;
      const yb2 = -rb * cosphi - rc * sinpsi * sinphi;
      const yc2 = -rb * cosphi + rc * sinpsi * sinphi;
      const A = xb0 * xb2 + yb0 * yb2 - xc0 * xb2 + yc0 * yc2;
      const B = xb0 * yb2 - yb0 * xb2 + xc0 * yc2 + yc0 * xb2;
      const G = xb0 * yb1 - yb0 * xb1 + xc0 * yc1 - yc0 * xc1;
      const rho2 = A * A + B * B;
      let disc = rho2 - G * G;
      if (disc < 0) { disc = 0; errors++; }
      let sinth = (A * G - B * Math.sqrt(disc)) / rho2;
      if (sinth > 1) sinth = 1; else if (sinth < -1) sinth = -1;
      t[o + 23] = sinphi; t[o + 24] = cosphi; t[o + 25] = sinpsi; t[o + 26] = cospsi;
      t[o + 12] = sinth;
    }
    // Pass 3: the canonical body turned by psi, phi, theta, back in the lab frame; the velocity
    // correction and the virial.
    for (let m = mb, o = 0; m < me; m++, o += SCRATCH_WORDS) {
      const ia = 3 * mols[3 * m]!, ib = 3 * mols[3 * m + 1]!, ic = 3 * mols[3 * m + 2]!;
      const sinphi = t[o + 23]!, cosphi = t[o + 24]!, sinpsi = t[o + 25]!, cospsi = t[o + 26]!, sinth = t[o + 12]!;
      const dx = t[o]!, dy = t[o + 1]!, dz = t[o + 2]!;
      const exx = t[o + 3]!, exy = t[o + 4]!, exz = t[o + 5]!;
      const eyx = t[o + 6]!, eyy = t[o + 7]!, eyz = t[o + 8]!;
      const ezx = t[o + 9]!, ezy = t[o + 10]!, ezz = t[o + 11]!;
      const ya2 = ra * cosphi;
      const xb2 = -rc * cospsi;
      const yb2 = -rb * cosphi - rc * sinpsi * sinphi;
      const yc2 = -rb * cosphi + rc * sinpsi * sinphi;
      const za3 = ra * sinphi;
      const zb3 = -rb * sinphi + rc * sinpsi * cosphi;
      const zc3 = -rb * sinphi - rc * sinpsi * cosphi;
      const costh = Math.sqrt(1 - sinth * sinth);
      const xa3 = -ya2 * sinth, ya3 = ya2 * costh;
      const xb3 = xb2 * costh - yb2 * sinth, yb3 = xb2 * sinth + yb2 * costh;
      const xc3 = -xb2 * costh - yc2 * sinth, yc3 = -xb2 * sinth + yc2 * costh;
      const a3x = dx + xa3 * exx + ya3 * eyx + za3 * ezx;
      const a3y = dy + xa3 * exy + ya3 * eyy + za3 * ezy;
      const a3z = dz + xa3 * exz + ya3 * eyz + za3 * ezz;
      const b3x = dx + xb3 * exx + yb3 * eyx + zb3 * ezx;
      const b3y = dy + xb3 * exy + yb3 * eyy + zb3 * ezy;
      const b3z = dz + xb3 * exz + yb3 * eyz + zb3 * ezz;
      const c3x = dx + xc3 * exx + yc3 * eyx + zc3 * ezx;
      const c3y = dy + xc3 * exy + yc3 * eyy + zc3 * ezy;
      const c3z = dz + xc3 * exz + yc3 * eyz + zc3 * ezz;
      const a1x = xNew[ia]!, a1y = xNew[ia + 1]!, a1z = xNew[ia + 2]!;
      const b1x = xNew[ib]!, b1y = xNew[ib + 1]!, b1z = xNew[ib + 2]!;
      const c1x = xNew[ic]!, c1y = xNew[ic + 1]!, c1z = xNew[ic + 2]!;
      xNew[ia] = a3x; xNew[ia + 1] = a3y; xNew[ia + 2] = a3z;
      xNew[ib] = b3x; xNew[ib + 1] = b3y; xNew[ib + 2] = b3z;
      xNew[ic] = c3x; xNew[ic + 1] = c3y; xNew[ic + 2] = c3z;
      if (doV || virial) {
        const dax = a3x - a1x, day = a3y - a1y, daz = a3z - a1z;
        const dbx = b3x - b1x, dby = b3y - b1y, dbz = b3z - b1z;
        const dcx = c3x - c1x, dcy = c3y - c1y, dcz = c3z - c1z;
        if (doV) {
          v![ia] += dax * iv; v![ia + 1] += day * iv; v![ia + 2] += daz * iv;
          v![ib] += dbx * iv; v![ib + 1] += dby * iv; v![ib + 2] += dbz * iv;
          v![ic] += dcx * iv; v![ic + 1] += dcy * iv; v![ic + 2] += dcz * iv;
        }
        if (virial) {
          // sum_i m_i r0_i (x) d_i with r0 relative to the old O (origin-free since sum m d = 0).
          const xa0 = xOld[ia]!, ya0 = xOld[ia + 1]!, za0 = xOld[ia + 2]!;
          const b0x = xOld[ib]! - xa0, b0y = xOld[ib + 1]! - ya0, b0z = xOld[ib + 2]! - za0;
          const c0x = xOld[ic]! - xa0, c0y = xOld[ic + 1]! - ya0, c0z = xOld[ic + 2]! - za0;
          const mbx = mH * dbx, mby = mH * dby, mbz = mH * dbz;
          const mcx = mH * dcx, mcy = mH * dcy, mcz = mH * dcz;
          v00 += b0x * mbx + c0x * mcx; v01 += b0x * mby + c0x * mcy; v02 += b0x * mbz + c0x * mcz;
          v10 += b0y * mbx + c0y * mcx; v11 += b0y * mby + c0y * mcy; v12 += b0y * mbz + c0y * mcz;
          v20 += b0z * mbx + c0z * mcx; v21 += b0z * mby + c0z * mcy; v22 += b0z * mbz + c0z * mcz;
        }
      }
    }
  }
  acc[0] = v00; acc[1] = v01; acc[2] = v02;
  acc[3] = v10; acc[4] = v11; acc[5] = v12;
  acc[6] = v20; acc[7] = v21; acc[8] = v22;
  acc[9] = errors;
}
