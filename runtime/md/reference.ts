// Plain double-precision pair-by-pair reference of the md-nonbonded physics: every atom
// pair once, minimum image, no clusters, no masks. Kernels are verified against it.
import type { MdSystem } from './system.ts';
import { derive, pairC6C12, selfEnergy, ewaldCorrection, erfc, type MdSettings } from './interaction.ts';

/** Non-bonded forces, energies and virial of a system (nm, kJ/mol), in atom order. */
export interface MdResult {
  /** Forces per atom (kJ mol^-1 nm^-1), 3 per atom, atom order. */
  f: Float64Array;
  /** V_short-range (LJ or user potential) and V_Coulomb including self terms (kJ/mol). */
  vdw: number;
  /** V_Coulomb (kJ/mol), including the reaction-field or Ewald self terms. */
  coul: number;
  /** Virial tensor -1/2 sum r_ij (x) F_ij, row-major 3x3 (kJ/mol). */
  virial: Float64Array;
}

/** The f64 reference's result, with the magnitude sums that set the verification tolerances. */
export interface ReferenceResult extends MdResult {
  /** Per atom, the sum of |pair force| over its pairs: the scale of its summation error. */
  fAbs: Float64Array;
  /** Sum of |pair energy| (both terms): the scale of the energy's summation error. */
  vAbs: number;
  /** 1/2 sum over pairs of |F_ij| r_ij: the scale of the virial's summation error. */
  virAbs: number;
  /** Atom pairs inside the cut-off. */
  pairsInCutoff: number;
}

/**
 * The plain f64 reference: every atom pair once under the minimum image, no clusters. Throws when
 * `s.interaction` names a user potential and `s.user` is missing.
 */
export function reference(sys: MdSystem, s: MdSettings): ReferenceResult {
  const d = derive(s);
  const n = sys.q.length;
  const f = new Float64Array(3 * n);
  const fAbs = new Float64Array(n);
  const virial = new Float64Array(9);
  const excluded = new Set<number>();
  sys.exclusions.forEach((ex, a) => ex?.forEach((b) => excluded.add(a * n + b)));
  const [Lx, Ly, Lz] = sys.box;
  const rf = s.interaction === 'lj-rf';
  const ew = s.interaction === 'lj-ewald';
  const user = !['lj', 'lj-rf', 'lj-ewald'].includes(s.interaction);
  if (user && !s.user) throw new Error(`interaction "${s.interaction}" needs its user potential`);
  let vdw = 0;
  let coul = selfEnergy(sys, s, d);
  let vAbs = Math.abs(coul);
  let pairsInCutoff = 0;
  let virAbs = 0;
  for (let a = 0; a < n; a++) {
    for (let b = a + 1; b < n; b++) {
      let dx = sys.x[3 * a]! - sys.x[3 * b]!;
      let dy = sys.x[3 * a + 1]! - sys.x[3 * b + 1]!;
      let dz = sys.x[3 * a + 2]! - sys.x[3 * b + 2]!;
      dx -= Lx * Math.round(dx / Lx);
      dy -= Ly * Math.round(dy / Ly);
      dz -= Lz * Math.round(dz / Lz);
      const r2 = dx * dx + dy * dy + dz * dz;
      if (r2 >= d.rc2) continue;
      pairsInCutoff++;
      const r = Math.sqrt(r2);
      const ex = excluded.has(a * n + b);
      const qq = d.epsfac * sys.q[a]! * sys.q[b]!;
      let fscal = 0;
      let vv = 0;
      let vc = 0;
      if (user) {
        if (!ex) {
          const [c6, c12] = pairC6C12(sys, s.comb, a, b);
          const vars = { r, r2, rinv: 1 / r, qq, c6, c12 };
          fscal = s.user!.force(vars) / r;
          vv = s.user!.energy(vars);
          if (s.shift) vv -= s.user!.energy({ ...vars, r: s.rc, r2: d.rc2, rinv: 1 / s.rc });
        }
      } else {
        if (!ex) {
          const [c6, c12] = pairC6C12(sys, s.comb, a, b);
          const ir6 = 1 / (r2 * r2 * r2);
          fscal = (12 * c12 * ir6 * ir6 - 6 * c6 * ir6) / r2;
          vv = c12 * ir6 * ir6 - c6 * ir6 - (c12 * d.sh12 - c6 * d.sh6);
        }
        if (rf) {
          fscal += qq * ((ex ? 0 : 1 / (r2 * r)) - 2 * d.krf);
          vc = qq * ((ex ? 0 : 1 / r) + d.krf * r2 - d.crf);
        } else if (ew) {
          if (ex) {
            const [gV, gF] = ewaldCorrection(d.beta, r);
            fscal -= qq * gF;
            vc = -qq * gV;
          } else {
            const e = erfc(d.beta * r);
            fscal += (qq * (e / r + ((2 * d.beta) / Math.sqrt(Math.PI)) * Math.exp(-d.beta * d.beta * r2))) / r2;
            vc = qq * (e / r - d.shEwald);
          }
        }
      }
      vdw += vv;
      coul += vc;
      vAbs += Math.abs(vv) + Math.abs(vc);
      const fx = fscal * dx;
      const fy = fscal * dy;
      const fz = fscal * dz;
      f[3 * a] += fx;
      f[3 * a + 1] += fy;
      f[3 * a + 2] += fz;
      f[3 * b] -= fx;
      f[3 * b + 1] -= fy;
      f[3 * b + 2] -= fz;
      const fa = Math.abs(fscal) * r;
      fAbs[a] += fa;
      fAbs[b] += fa;
      virAbs += 0.5 * fa * r;
      const dv = [dx, dy, dz];
      const fv = [fx, fy, fz];
      for (let p = 0; p < 3; p++) for (let q = 0; q < 3; q++) virial[3 * p + q] -= 0.5 * dv[p]! * fv[q]!;
    }
  }
  return { f, vdw, coul, virial, fAbs, vAbs, virAbs, pairsInCutoff };
}
