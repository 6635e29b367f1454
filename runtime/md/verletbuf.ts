// Verlet buffer estimation: an upper bound on the energy drift caused by atom pairs that
// start outside the pair-list cut-off rlist = rc + rb and diffuse to within rc before the
// list is rebuilt (appendix of seed 001; the method GROMACS implements in calc_verletbuf).
//
// The model, in our own notation:
//  * Over the list lifetime t = (nstlist - 1) dt a free atom of mass m moves, along any one
//    direction, by a Gaussian displacement of variance t^2 kB T / m (ballistic motion at the
//    Maxwell velocity; interactions only narrow this, so ignoring them over-estimates).
//    The inter-atomic distance of a pair then changes by Delta ~ N(0, s^2) with
//    s^2 = t^2 kB T (1/m1 + 1/m2).
//  * A pair that started at r0 > rl and ends at rt < rc is missing from the list, so its
//    energy V(rt) is lost. With a line density 4 pi r^2 rho around an atom, and writing
//    V(rt) as a Taylor series around rc, the lost energy per pair type is
//      4 pi (rl + s)^2 rho * sum_k (-1)^k V^(k)(rc) J_{k+1},
//      J_n = E[(Delta - rb)_+^n] / n!,
//    because for a displacement Delta >= rb the end points rt lie in [rl - Delta, rc], a
//    segment of length Delta - rb over which integral (rc - rt)^k / k! d rt = (Delta - rb)^{k+1} / (k+1)!.
//    (The r^2 of the shell is frozen at (rl + s)^2, as the paper and GROMACS do.)
//    The Gaussian partial moments M_n = E[(X - a)_+^n], X ~ N(0, s^2), follow from Stein's
//    identity E[X h(X)] = s^2 E[h'(X)]: M_0 = Q, M_1 = s phi - a Q, M_n = (n-1) s^2 M_{n-2} - a M_{n-1},
//    with phi = exp(-a^2 / 2 s^2) / sqrt(2 pi) and Q = erfc(a / (s sqrt 2)) / 2.
//  * Terms kept, as in GROMACS: V(rc) (only when the potential is not shifted to zero at rc;
//    GROMACS ignores this term, see `potentialJump`), -V'(rc), V''(rc) and -V'''(rc) for LJ
//    (GROMACS 2022 keeps only -V' for plain / potential-shifted LJ, see `ljOrder`), and -V', V''
//    for the electrostatics (RF or Ewald real space; the third derivative is neglected).
//    The LJ and the Coulomb contribution of an atom-type pair are summed with sign, and the
//    absolute values of the type pairs are summed (no cancellation between type pairs).
//  * Constraints (what GROMACS does): each atom keeps one constraint, to its heaviest partner
//    (SETTLE water: O to H with length dOH, each H to O with length dOH). An atom counts as
//    constrained when that partner is heavier than 0.4 times its own mass (so in water only
//    the H atoms). Its motion is split into the 3D motion of the two-atom centre of mass,
//    variance kB T t^2 / (m + M), and a 2D rotation about the COM on an arm
//    d = L M / (m + M) whose arc variance is kB T t^2 M / (m (m + M)); the 2D variance used
//    for that rotation is reduced because a rotating atom cannot get further than 2d
//    (see `constraintModel`). The 1D projection of an isotropic 2D Gaussian displacement
//    has the density p(x) = sqrt(pi/2) erfc(x / (s2d sqrt 2)) / (2 s2d); it is replaced by
//    a scaled, shifted Gaussian scale * g(x + shift) matched to p in value and slope at the
//    point x = rb s2d^2 / s^2, which over-estimates p everywhere beyond.
//  * Cluster pair lists: an M x N list also holds pairs beyond rl, because whole clusters
//    are in the list when their bounding boxes are within rl. GROMACS reduces the drift by
//    the fraction of atom pairs at distance rl that are NOT in the cluster list, per side
//    surfaceFraction(c) = A(c)/c, A being the area (relative to one sphere) of the surface at
//    distance rl around c particles at the worst-case (hcp) spacing d_p = (sqrt2 V / N)^(1/3),
//    with c = min(M, 4) and min(N, 4) (4 for 8-wide clusters is conservative). We implement
//    the same fractions (1: 1, 2: 1 + x, 4: the tetrahedron series of GROMACS, x = d_p / (2 rl)).
//  * The drift is the lost energy divided by the list period nstlist dt and the atom count.
//  * rb is found by bisection on this monotone function; rlist is rc + rb rounded up to
//    0.001 (GROMACS searches the 0.001 grid for the smallest buffer within tolerance).
import erfc from '@stdlib/math-base-special-erfc';
import { ONE_4PI_EPS0, ewaldBeta } from './interaction.ts';

export interface VerletAtomType {
  mass: number;
  charge: number;
  /** LJ C6, C12 of this type with itself (V = C12/r^12 - C6/r^6). */
  c6: number;
  c12: number;
  /** Number of atoms of this type in the system. */
  count: number;
  /** Heaviest constraint partner (mass) and the constraint length; SETTLE water: O -> (mH, dOH), H -> (mO, dOH). */
  constrained?: { partnerMass: number; length: number };
}

export interface VerletBufferOptions {
  types: VerletAtomType[];
  /** Box volume (same length unit as rc). */
  volume: number;
  temperature: number;
  /** Boltzmann constant; 0.0083144626 kJ/mol/K (default) or 1 for LJ units. */
  kB?: number;
  dt: number;
  nstlist: number;
  rc: number;
  interaction: 'lj' | 'lj-rf' | 'lj-ewald';
  /** LJ potential-shift modifier (V(rc) = 0). */
  ljShift: boolean;
  /** Reaction-field constant; default 1/(2 rc^3) (eps_rf = infinity). */
  krf?: number;
  /** Electric conversion factor 1/(4 pi eps0 epsR); default ONE_4PI_EPS0. */
  epsfac?: number;
  /** Ewald splitting coefficient; default: erfc(beta rc) = 1e-5. */
  beta?: number;
  /** Energy drift tolerance per atom per time; default 0.005 (kJ/mol/ps). */
  tolerance?: number;
  /** Cluster sizes [M, N] of the pair list; default [1, 1] (plain atom-pair list). */
  cluster?: [number, number];
  /** Cross-type LJ parameters; default geometric mean of C6 and of C12. */
  pairLJ?: (a: VerletAtomType, b: VerletAtomType) => [number, number];
  /** LJ derivatives kept: 3 (-V', V'', -V'''; GROMACS >= 2023) or 1 (-V' only; GROMACS 2022). Default 3. */
  ljOrder?: 1 | 3;
  /** Include the V(rc) jump of an unshifted LJ potential. Default: !ljShift. GROMACS never includes it. */
  potentialJump?: boolean;
  /** Rotational 2D variance of constrained atoms: 'pade' (GROMACS >= 2020) or 'arcsin' (older). Default 'pade'. */
  constraintModel?: 'pade' | 'arcsin';
  /** Resolution of the reported rlist; default 0.001 (GROMACS). */
  resolution?: number;
}

export interface VerletBufferResult {
  /** Buffer with drift(rb) = tolerance (0 when no buffer is needed). */
  rb: number;
  /** rc + rb rounded up to the resolution (GROMACS's rlist). */
  rlist: number;
  /** Estimated drift at rb. */
  drift: number;
  /** Estimated drift at rlist. */
  driftAtRlist: number;
}

const KB_KJ = 0.0083144626;

/** Derivatives of a potential at the cut-off: V, -V', V'', -V'''. */
interface Derivs {
  v: number;
  md1: number;
  d2: number;
  md3: number;
}

/** Partial moments M_n = E[(X - a)_+^n] / n!, n = 1..4, of X ~ N(0, s^2) (J_n in the header). */
export function gaussianTailMoments(a: number, s2: number): [number, number, number, number] {
  const s = Math.sqrt(s2);
  const phi = Math.exp((-a * a) / (2 * s2)) / Math.sqrt(2 * Math.PI);
  const Q = 0.5 * erfc(a / Math.sqrt(2 * s2));
  const m = [Q, s * phi - a * Q];
  for (let n = 2; n <= 4; n++) m.push((n - 1) * s2 * m[n - 2]! - a * m[n - 1]!);
  return [m[1]!, m[2]! / 2, m[3]! / 6, m[4]! / 24];
}

/** The 2-DOF (rotational) displacement density matched by scale * g(x + shift) at x (see header). */
function twoDofMatch(s2: number, x: number): { shift: number; scale: number } {
  const e = Math.exp((-x * x) / (2 * s2));
  const q = erfc(x / Math.sqrt(2 * s2));
  const y = (Math.sqrt((2 * s2) / Math.PI) * e) / q; // x + shift
  return { shift: y - x, scale: 0.5 * Math.PI * q * Math.exp((y * y) / (2 * s2)) };
}

/** Displacement variances of one atom over the list lifetime: 2D rotational and 3D translational parts. */
function atomVariance(t: VerletAtomType, kTt2: number, model: 'pade' | 'arcsin'): { s2d: number; s3d: number; constrained: boolean } {
  const c = t.constrained;
  if (!c || !(c.partnerMass > 0.4 * t.mass)) return { s2d: 0, s3d: kTt2 / t.mass, constrained: false };
  const m = t.mass;
  const M = c.partnerMass;
  const arm = (c.length * M) / (m + M);
  const rot = (kTt2 * M) / (m * (m + M));
  let rel = rot / (arm * arm);
  let s2d: number;
  if (model === 'arcsin') {
    // arc length -> chord with arcsin(x) ~ x (1 + x^2/6); flat beyond rel = 6.
    s2d = rel < 6 ? rot / (1 + rel / 6) ** 2 : 1.5 * arm * arm;
  } else {
    // Pade fit to the mean squared chord of a rotation with Gaussian angle, rel (1 + rel/3 + 2 rel^2/45)^-1; flat beyond its maximum.
    rel = Math.min(rel, Math.sqrt(45 / 2));
    s2d = (arm * arm * rel) / (1 + rel / 3 + (2 / 45) * rel * rel);
  }
  return { s2d, s3d: kTt2 / (m + M), constrained: true };
}

/** Fraction of atom pairs at distance rl that an M x N cluster list misses, one side (see header). */
export function clusterSurfaceFraction(size: number, particleDistance: number, rl: number): number {
  if (size === 1 || rl < 0.5 * particleDistance) return 1;
  const x = (0.5 * particleDistance) / rl;
  let area: number;
  if (size === 2) area = 1 + x;
  else if (size === 4) {
    const x2 = x * x;
    area = 1 + (6 * Math.acos(1 / Math.sqrt(3)) * x + Math.sqrt(3) * x2 * (1 + (5 / 18) * x2 + (7 / 45) * x2 * x2 + (83 / 756) * x2 * x2 * x2)) / Math.PI;
  } else throw new Error(`clusterSurfaceFraction: unsupported cluster size ${size}`);
  return area / size;
}

function ljDerivs(rc: number, o: VerletBufferOptions): { disp: Derivs; rep: Derivs } {
  // Per unit C6 of -r^-6 and per unit C12 of r^-12.
  const order = o.ljOrder ?? 3;
  const jump = o.potentialJump ?? !o.ljShift;
  const dmd1 = -6 * rc ** -7;
  const rmd1 = 12 * rc ** -13;
  return {
    disp: { v: jump ? -(rc ** -6) : 0, md1: dmd1, d2: order === 3 ? -42 * rc ** -8 : 0, md3: order === 3 ? -336 * rc ** -9 : 0 },
    rep: { v: jump ? rc ** -12 : 0, md1: rmd1, d2: order === 3 ? 156 * rc ** -14 : 0, md3: order === 3 ? 2184 * rc ** -15 : 0 },
  };
}

function elecDerivs(o: VerletBufferOptions): Derivs {
  const f = o.epsfac ?? ONE_4PI_EPS0;
  const rc = o.rc;
  if (o.interaction === 'lj-rf') {
    // V = 1/r + krf r^2 - crf
    const krf = o.krf ?? 1 / (2 * rc ** 3);
    return { v: 0, md1: f * (1 / rc ** 2 - 2 * krf * rc), d2: f * (2 / rc ** 3 + 2 * krf), md3: 0 };
  }
  if (o.interaction === 'lj-ewald') {
    // V = erfc(beta r)/r - shift
    const b = o.beta ?? ewaldBeta(rc, 1e-5);
    const br = b * rc;
    const g = ((2 * b) / Math.sqrt(Math.PI)) * Math.exp(-br * br);
    const ec = erfc(br);
    return { v: 0, md1: f * (ec / rc ** 2 + g / rc), d2: f * ((2 * ec) / rc ** 3 + (2 * g * (1 + br * br)) / rc ** 2), md3: 0 };
  }
  return { v: 0, md1: 0, d2: 0, md3: 0 };
}

/** Lost energy per unit line density for one pair (the bracket of the header, with constraint corrections). */
function pairLoss(d: Derivs, rb: number, s2: number, parts: { s2d: number; constrained: boolean }[]): number {
  if (d.v === 0 && d.md1 === 0 && d.d2 === 0 && d.md3 === 0) return 0;
  let a = rb;
  let scale = 1;
  // Beyond 8 standard deviations the contribution is < 1e-29 relative: drop it (and avoid 0/0 in the 2-DOF match).
  if (rb * rb > 2 * s2 * 64) return 0;
  for (const p of parts) {
    if (!p.constrained) continue;
    const m = twoDofMatch(p.s2d, (rb * p.s2d) / s2);
    a += m.shift;
    scale *= m.scale;
  }
  const [j1, j2, j3, j4] = gaussianTailMoments(a, s2);
  return scale * (d.v * j1 + d.md1 * j2 + d.d2 * j3 + d.md3 * j4);
}

/** Estimated energy drift per atom per unit time for a buffer rb (before any rounding). */
export function energyDrift(o: VerletBufferOptions, rb: number): number {
  const kB = o.kB ?? KB_KJ;
  const t = (o.nstlist - 1) * o.dt;
  const kTt2 = kB * o.temperature * t * t;
  if (kTt2 === 0) return 0;
  const model = o.constraintModel ?? 'pade';
  const lj = ljDerivs(o.rc, o);
  const el = elecDerivs(o);
  const pairLJ = o.pairLJ ?? ((a, b) => [Math.sqrt(a.c6 * b.c6), Math.sqrt(a.c12 * b.c12)]);
  const types = o.types.filter((ty) => ty.mass > 0 && ty.count > 0);
  const nAtoms = types.reduce((s, ty) => s + ty.count, 0);
  const rl = o.rc + rb;
  const vars = types.map((ty) => atomVariance(ty, kTt2, model));
  let total = 0;
  for (let i = 0; i < types.length; i++) {
    for (let j = i; j < types.length; j++) {
      const A = types[i]!;
      const B = types[j]!;
      const vi = vars[i]!;
      const vj = vars[j]!;
      const s2 = vi.s2d + vi.s3d + vj.s2d + vj.s3d;
      const [c6, c12] = pairLJ(A, B);
      const qq = A.charge * B.charge;
      const d: Derivs = {
        v: c6 * lj.disp.v + c12 * lj.rep.v,
        md1: c6 * lj.disp.md1 + c12 * lj.rep.md1 + qq * el.md1,
        d2: c6 * lj.disp.d2 + c12 * lj.rep.d2 + qq * el.d2,
        md3: c6 * lj.disp.md3 + c12 * lj.rep.md3,
      };
      const loss = pairLoss(d, rb, s2, [vi, vj]);
      const pairs = i === j ? (A.count * (A.count - 1)) / 2 : A.count * B.count;
      total += Math.abs((loss * pairs * 4 * Math.PI * (rl + Math.sqrt(s2)) ** 2) / o.volume);
    }
  }
  const [M, N] = o.cluster ?? [1, 1];
  const dp = Math.cbrt((Math.SQRT2 * o.volume) / nAtoms);
  total *= clusterSurfaceFraction(Math.min(M, 4), dp, rl) * clusterSurfaceFraction(Math.min(N, 4), dp, rl);
  return total / (o.nstlist * o.dt * nAtoms);
}

/** The buffer rb with energyDrift(rb) = tolerance (bisection), and GROMACS's rlist on the 0.001 grid. */
export function estimateVerletBuffer(o: VerletBufferOptions): VerletBufferResult {
  const tol = o.tolerance ?? 0.005;
  if (!(tol > 0)) throw new Error('estimateVerletBuffer: tolerance must be > 0');
  const res = o.resolution ?? 0.001;
  const f = (rb: number) => energyDrift(o, rb);
  let rb = 0;
  if (f(0) > tol) {
    let lo = 0;
    let hi = 0.01 * o.rc;
    while (f(hi) > tol) {
      lo = hi;
      hi *= 2;
      if (hi > 1e3 * o.rc) throw new Error('estimateVerletBuffer: no buffer reaches the tolerance');
    }
    for (let it = 0; it < 200 && hi - lo > 1e-15 * hi; it++) {
      const mid = 0.5 * (lo + hi);
      if (f(mid) > tol) lo = mid;
      else hi = mid;
    }
    rb = hi;
  }
  // Smallest grid buffer within tolerance (GROMACS bisects on the grid, assuming monotone drift).
  let ib = Math.max(0, Math.ceil(rb / res - 1e-9));
  while (ib > 0 && f((ib - 1) * res) <= tol) ib--;
  while (f(ib * res) > tol) ib++;
  const rlist = Math.round((o.rc + ib * res) / res) * res;
  return { rb, rlist: Number(rlist.toFixed(12)), drift: f(rb), driftAtRlist: f(ib * res) };
}

/** SPC/E water (SETTLE-constrained) as Verlet-buffer atom types: nMol molecules. */
export function spceVerletTypes(nMol: number): VerletAtomType[] {
  const sigma = 0.316557;
  const eps = 0.650194;
  const mO = 15.9994;
  const mH = 1.008;
  return [
    { mass: mO, charge: -0.8476, c6: 4 * eps * sigma ** 6, c12: 4 * eps * sigma ** 12, count: nMol, constrained: { partnerMass: mH, length: 0.1 } },
    { mass: mH, charge: 0.4238, c6: 0, c12: 0, count: 2 * nMol, constrained: { partnerMass: mO, length: 0.1 } },
  ];
}
