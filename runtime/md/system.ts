// Particle systems for the non-bonded kernels: an orthorhombic periodic box, charges,
// LJ types and atom-pair exclusions, plus seeded builders for test boxes.

/** A periodic system in GROMACS units (nm, e, kJ/mol). */
export interface MdSystem {
  /** Orthorhombic box edges (nm). */
  box: [number, number, number];
  /** Positions, 3 per atom (nm). */
  x: Float64Array;
  /** Charges (e). */
  q: Float64Array;
  /** LJ type per atom. */
  type: Int32Array;
  /** LJ parameters per type. */
  ljTypes: {
    /** LJ sigma (nm). */
    sigma: number;
    /** LJ epsilon (kJ/mol). */
    epsilon: number;
  }[];
  /** Optional explicit C6, C12 per type pair (row-major); used by the `table` rule instead of a combination. */
  nbfp?: Float64Array;
  /** Excluded partners per atom (both directions listed). */
  exclusions: Int32Array[];
}

/** Park-Miller minimal standard generator (seeded, deterministic across platforms). */
export function rng(seed: number): () => number {
  let s = seed % 2147483647;
  if (s <= 0) s += 2147483646;
  return () => {
    s = (s * 16807) % 2147483647;
    return (s - 1) / 2147483646;
  };
}

/** SPC/E water parameters in GROMACS units: charges (e), O-H length (nm), H-O-H angle (radians), oxygen LJ sigma (nm) and epsilon (kJ/mol), masses (u). */
export const SPCE = {
  /** Oxygen charge (e). */
  qO: -0.8476,
  /** Hydrogen charge (e). */
  qH: 0.4238,
  /** O-H bond length (nm). */
  dOH: 0.1,
  /** H-O-H angle (radians, 109.47 degrees). */
  angleHOH: (109.47 * Math.PI) / 180,
  /** Oxygen LJ sigma (nm); hydrogens carry no LJ. */
  sigmaO: 0.316557,
  /** Oxygen LJ epsilon (kJ/mol). */
  epsilonO: 0.650194,
  /** Oxygen mass (u). */
  massO: 15.9994,
  /** Hydrogen mass (u). */
  massH: 1.008,
};

/**
 * SPC/E water molecules on a jittered cubic lattice at liquid density (33.4 /nm^3) with
 * random orientations; intramolecular pairs are excluded. Not equilibrated, but with no
 * O-O contact closer than the lattice allows, which keeps forces water-like.
 */
export function waterBox(nMol: number, seed = 1): MdSystem {
  const r = rng(seed);
  const perSide = Math.ceil(Math.cbrt(nMol));
  const L = Math.cbrt(nMol / 33.4);
  const a = L / perSide;
  const n = nMol * 3;
  const x = new Float64Array(3 * n);
  const q = new Float64Array(n);
  const type = new Int32Array(n);
  const exclusions: Int32Array[] = [];
  const half = SPCE.angleHOH / 2;
  for (let m = 0; m < nMol; m++) {
    const cx = ((m % perSide) + 0.5 + 0.2 * (r() - 0.5)) * a;
    const cy = ((Math.floor(m / perSide) % perSide) + 0.5 + 0.2 * (r() - 0.5)) * a;
    const cz = (Math.floor(m / (perSide * perSide)) + 0.5 + 0.2 * (r() - 0.5)) * a;
    const [u, v] = randomFrame(r);
    const o = 3 * m;
    const place = (k: number, px: number, py: number, pz: number): void => {
      x[3 * k] = px;
      x[3 * k + 1] = py;
      x[3 * k + 2] = pz;
    };
    place(o, cx, cy, cz);
    for (const [k, sgn] of [[o + 1, 1], [o + 2, -1]] as const) {
      const c = Math.cos(half) * SPCE.dOH;
      const s = Math.sin(half) * SPCE.dOH * sgn;
      place(k, cx + c * u[0] + s * v[0], cy + c * u[1] + s * v[1], cz + c * u[2] + s * v[2]);
    }
    q[o] = SPCE.qO;
    q[o + 1] = q[o + 2] = SPCE.qH;
    type[o] = 0;
    type[o + 1] = type[o + 2] = 1;
    exclusions[o] = Int32Array.of(o + 1, o + 2);
    exclusions[o + 1] = Int32Array.of(o, o + 2);
    exclusions[o + 2] = Int32Array.of(o, o + 1);
  }
  return {
    box: [L, L, L],
    x,
    q,
    type,
    ljTypes: [{ sigma: SPCE.sigmaO, epsilon: SPCE.epsilonO }, { sigma: 0, epsilon: 0 }],
    exclusions,
  };
}

function randomFrame(r: () => number): [number[], number[]] {
  const z = 2 * r() - 1;
  const phi = 2 * Math.PI * r();
  const s = Math.sqrt(1 - z * z);
  const u = [s * Math.cos(phi), s * Math.sin(phi), z];
  const t = Math.abs(u[0]!) < 0.9 ? [1, 0, 0] : [0, 1, 0];
  const dot = t[0]! * u[0]! + t[1]! * u[1]! + t[2]! * u[2]!;
  const w = [t[0]! - dot * u[0]!, t[1]! - dot * u[1]!, t[2]! - dot * u[2]!];
  const wn = Math.hypot(w[0]!, w[1]!, w[2]!);
  const v = w.map((c) => c / wn);
  const ang = 2 * Math.PI * r();
  const cr = [u[1]! * v[2]! - u[2]! * v[1]!, u[2]! * v[0]! - u[0]! * v[2]!, u[0]! * v[1]! - u[1]! * v[0]!];
  return [u, v.map((c, i) => Math.cos(ang) * c + Math.sin(ang) * cr[i]!)];
}

/**
 * Random LJ/charged particles with a minimum separation (so forces stay finite), several
 * LJ types, a neutral total charge and random exclusions between near neighbours.
 */
export function randomSystem(o: { n: number; box: [number, number, number]; seed?: number; minDist?: number; ntype?: number; exclusionFraction?: number }): MdSystem {
  const r = rng(o.seed ?? 7);
  const ntype = o.ntype ?? 3;
  const minD2 = (o.minDist ?? 0.22) ** 2;
  const [Lx, Ly, Lz] = o.box;
  const x = new Float64Array(3 * o.n);
  let placed = 0;
  for (let tries = 0; placed < o.n; tries++) {
    if (tries > 200 * o.n) throw new Error(`randomSystem: cannot place ${o.n} particles ${Math.sqrt(minD2)} nm apart in this box`);
    const p = [r() * Lx, r() * Ly, r() * Lz];
    let ok = true;
    for (let k = 0; k < placed && ok; k++) {
      let d2 = 0;
      for (let c = 0; c < 3; c++) {
        let d = p[c]! - x[3 * k + c]!;
        d -= o.box[c]! * Math.round(d / o.box[c]!);
        d2 += d * d;
      }
      ok = d2 >= minD2;
    }
    if (!ok) continue;
    x.set(p, 3 * placed++);
  }
  const q = new Float64Array(o.n);
  const type = new Int32Array(o.n);
  for (let i = 0; i < o.n; i++) {
    q[i] = (i % 2 === 0 ? 1 : -1) * (0.2 + 0.6 * r());
    type[i] = Math.floor(r() * ntype);
  }
  let net = 0;
  for (let i = 0; i < o.n; i++) net += q[i]!;
  for (let i = 0; i < o.n; i++) q[i]! -= net / o.n;
  const ljTypes = Array.from({ length: ntype }, (_, t) => ({ sigma: 0.25 + 0.05 * t, epsilon: 0.3 + 0.4 * t }));
  const ex: number[][] = Array.from({ length: o.n }, () => []);
  const frac = o.exclusionFraction ?? 0.1;
  for (let i = 0; i + 1 < o.n; i++) {
    if (r() < frac) {
      const j = i + 1 + Math.floor(r() * Math.min(5, o.n - i - 1));
      ex[i]!.push(j);
      ex[j]!.push(i);
    }
  }
  return { box: o.box, x, q, type, ljTypes, exclusions: ex.map((e) => Int32Array.from(new Set(e)).sort()) };
}
