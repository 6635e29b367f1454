// Interaction settings shared by the reference and the kernel driver: cut-off, reaction
// field and Ewald constants, combination rules, and user-defined potentials. Both sides
// take every constant from here, so they can only differ in how they compute.
import erfc from '@stdlib/math-base-special-erfc';
import erf from '@stdlib/math-base-special-erf';
import type { MdSystem } from './system.ts';

/** GROMACS electric conversion factor f = 1/(4 pi eps0), kJ mol^-1 nm e^-2. */
export const ONE_4PI_EPS0 = 138.935458;

/** A user potential in evaluable form (see generator/expr.ts); energies go to the V_short slot. */
export interface UserPotential {
  energy(vars: Record<string, number>): number;
  force(vars: Record<string, number>): number;
}

/** The non-bonded interaction of an MD run: potential, combination rule, cut-off and electrostatics constants (lengths in nm, energies kJ/mol). */
export interface MdSettings {
  /** 'lj', 'lj-rf', 'lj-ewald', or the name of a user potential. */
  interaction: string;
  /** LJ combination rule: geometric, Lorentz-Berthelot, or a per-type-pair C6/C12 table (the system's nbfp, else built with the geometric rule). */
  comb: 'geom' | 'lb' | 'table';
  /** Potential-shift modifier on LJ, Ewald and user potentials. */
  shift: boolean;
  /** Cut-off radius (nm); must be below half the smallest box edge. */
  rc: number;
  /** Relative dielectric constant and reaction-field dielectric (0 = infinity). */
  epsR?: number;
  /** Reaction-field dielectric for lj-rf (default 0, meaning infinity). */
  epsRf?: number;
  /** Ewald: erfc(beta rc) = ewaldRtol (GROMACS ewald-rtol, default 1e-5). */
  ewaldRtol?: number;
  /** Ewald: beta (nm^-1) given instead of derived from ewaldRtol (PME runs pass the mesh's GROMACS-exact ewaldCoeff, so both halves use one beta). */
  ewaldBeta?: number;
  /** The evaluable user potential when `interaction` names one; the reference throws when it is missing. */
  user?: UserPotential;
}

export interface Derived {
  rc2: number;
  epsfac: number;
  krf: number;
  crf: number;
  beta: number;
  shEwald: number;
  sh6: number;
  sh12: number;
}

/** GROMACS calc_ewaldcoeff_q: the beta with erfc(beta rc) = rtol, by bisection. */
export function ewaldBeta(rc: number, rtol: number): number {
  let hi = 5;
  while (erfc(hi * rc) > rtol) hi *= 2;
  let lo = 0;
  for (let i = 0; i < 60; i++) {
    const mid = 0.5 * (lo + hi);
    if (erfc(mid * rc) > rtol) lo = mid;
    else hi = mid;
  }
  return 0.5 * (lo + hi);
}

/** The constants derived from the settings: rc^2, f/epsR, the reaction-field k_rf and c_rf, the Ewald beta and the potential-shift terms. */
export function derive(s: MdSettings): Derived {
  const epsR = s.epsR ?? 1;
  const epsRf = s.epsRf ?? 0;
  const rc = s.rc;
  const krf = epsRf === 0 ? 1 / (2 * rc ** 3) : (epsRf - epsR) / ((2 * epsRf + epsR) * rc ** 3);
  const beta = s.interaction === 'lj-ewald' ? s.ewaldBeta ?? ewaldBeta(rc, s.ewaldRtol ?? 1e-5) : 0;
  return {
    rc2: rc * rc,
    epsfac: ONE_4PI_EPS0 / epsR,
    krf,
    crf: 1 / rc + krf * rc * rc,
    beta,
    shEwald: s.shift && beta > 0 ? erfc(beta * rc) / rc : 0,
    sh6: s.shift ? rc ** -6 : 0,
    sh12: s.shift ? rc ** -12 : 0,
  };
}

/** C6 and C12 of an atom pair under the combination rule (table: explicit nbfp or geometric). */
export function pairC6C12(sys: MdSystem, comb: MdSettings['comb'], a: number, b: number): [number, number] {
  const ta = sys.type[a]!;
  const tb = sys.type[b]!;
  if (comb === 'table') {
    const t = tableC6C12(sys);
    const k = 2 * (ta * sys.ljTypes.length + tb);
    return [t[k]!, t[k + 1]!];
  }
  const A = sys.ljTypes[ta]!;
  const B = sys.ljTypes[tb]!;
  if (comb === 'geom') {
    const c6 = Math.sqrt(4 * A.epsilon * A.sigma ** 6 * 4 * B.epsilon * B.sigma ** 6);
    const c12 = Math.sqrt(4 * A.epsilon * A.sigma ** 12 * 4 * B.epsilon * B.sigma ** 12);
    return [c6, c12];
  }
  const sig = 0.5 * (A.sigma + B.sigma);
  const eps = Math.sqrt(A.epsilon * B.epsilon);
  return [4 * eps * sig ** 6, 4 * eps * sig ** 12];
}

const tableCache = new WeakMap<MdSystem, Float64Array>();
/** The per-type-pair table: the system's own, or built with the geometric rule. */
export function tableC6C12(sys: MdSystem): Float64Array {
  if (sys.nbfp) return sys.nbfp;
  let t = tableCache.get(sys);
  if (!t) {
    const nt = sys.ljTypes.length;
    t = new Float64Array(2 * nt * nt);
    const probe: MdSystem = { ...sys, type: new Int32Array(2) };
    for (let i = 0; i < nt; i++) {
      for (let j = 0; j < nt; j++) {
        probe.type[0] = i;
        probe.type[1] = j;
        t.set(pairC6C12(probe, 'geom', 0, 1), 2 * (i * nt + j));
      }
    }
    tableCache.set(sys, t);
  }
  return t;
}

/** Per-atom self energy of the electrostatics (RF: -f/2 q^2 c_rf; Ewald: -f beta/sqrt(pi) q^2). */
export function selfEnergy(sys: MdSystem, s: MdSettings, d: Derived): number {
  let q2 = 0;
  for (let i = 0; i < sys.q.length; i++) q2 += sys.q[i]! ** 2;
  if (s.interaction === 'lj-rf') return -0.5 * d.epsfac * q2 * d.crf;
  if (s.interaction === 'lj-ewald') return (-d.epsfac * d.beta * q2) / Math.sqrt(Math.PI);
  return 0;
}

/** Ewald exclusion correction g_V = erf(beta r)/r and g_F = -(1/r) d g_V/dr, with their r -> 0 limits. */
export function ewaldCorrection(beta: number, r: number): [number, number] {
  const br = beta * r;
  if (br < 1e-6) return [(2 * beta) / Math.sqrt(Math.PI), (4 * beta ** 3) / (3 * Math.sqrt(Math.PI))];
  const gV = erf(br) / r;
  const gF = (gV - ((2 * beta) / Math.sqrt(Math.PI)) * Math.exp(-br * br)) / (r * r);
  return [gV, gF];
}

export { erf, erfc };
